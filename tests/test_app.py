"""The appliance's mode/menu state machine, driven by events alone (no threads, no clock)."""

import itertools

import pytest

from firmware_host.core import app
from firmware_host.core.effects import Beep, PowerOff, SaveSettings, SetBar, Show, WakeAt
from firmware_host.core.events import Button, CardScan, LongPress, Press, ReaderStatus, Resumed, TextEntry, Tick, Turn
from firmware_host.core.screens import BigScreen, ListScreen, MessageScreen, describe
from firmware_host.core.settings import Settings
from firmware_host.core.timer import parse_duration


def boot(**settings):
    state, _effects = app.initial(Settings(**settings))
    return state


def run(state, *events):
    effects = []
    for event in events:
        state, more = app.step(state, event)
        effects += more
    return state, effects


def shown(effects):
    return [e.screen for e in effects if isinstance(e, Show)][-1]


def beeps(effects):
    return [e.pattern for e in effects if isinstance(e, Beep)]


def choose(state, key):
    """Open the menu, move to `key` (a menu key) through its group with NEXT presses, and press START."""
    events = app.events_to_open(state, key, 0.0)
    assert events is not None, key
    return run(state, *events)[0]


def play_until(state, until):
    """Deliver the Ticks the core asks for up to `until`; return the state and all effects."""
    effects = []
    while True:
        wake = app.view(state)[-1]
        assert isinstance(wake, WakeAt)
        if wake.at is None or wake.at > until:
            return state, effects
        state, more = app.step(state, Tick(wake.at))
        effects += more


def test_boots_into_a_ready_60_second_timer():
    _state, effects = app.initial(Settings())
    screen = shown(effects)
    assert isinstance(screen, BigScreen) and screen.big == "1:00"
    assert "bereit" in screen.title
    assert [e for e in effects if isinstance(e, SetBar)] == [SetBar(1.0)]
    assert effects[-1] == WakeAt(None)  # nothing runs: the shell sleeps


def test_start_runs_a_countdown_to_zeit_with_warnings_and_alarm():
    state, effects = run(boot(alarm_s=0), Press(Button.START, 10.0))  # the alarm once
    assert beeps(effects) == ["start"]
    state, effects = play_until(state, 69.9)
    assert shown(effects).big == "0:01"
    assert beeps(effects) == ["warn"] * 10
    state, effects = play_until(state, 80.0)
    assert beeps(effects) == ["alarm"]
    screen = shown(effects)
    assert screen.big == "Zeit!" and screen.inverted
    assert SetBar(0.0) in effects
    assert app.view(state)[-1] == WakeAt(None)


def test_the_alarm_rings_on_and_flashes_the_bar_until_a_button_silences_it():
    state, _ = run(boot(alarm_s=30), Press(Button.START, 0.0), LongPress(Button.START, 40.0))
    assert state.notice == "Umgedreht"
    state, effects = play_until(state, 80.0)  # 20 s left, flipped: 40 s, up at 80.0
    assert beeps(effects)[-1:] == ["alarm"] and state.ringing is not None
    screen = shown(effects)
    assert screen.big == "Zeit!" and "Umgedreht" not in screen.footer  # the stale notice is gone
    state, effects = play_until(state, 87.6)
    assert beeps(effects) == ["alarm"] * 3  # 82.5, 85, 87.5
    bars = [e.level for e in effects if isinstance(e, SetBar)]
    assert 1.0 in bars and 0.0 in bars  # the bar flashes
    state, effects = run(state, Press(Button.START, 88.0))  # any button: quiet, and nothing else
    assert state.ringing is None and not state.timer.running and beeps(effects) == []
    assert shown(effects).big == "Zeit!" and app.view(state)[-1] == WakeAt(None)
    state, _ = run(state, Press(Button.START, 90.0))  # the next press acts again
    assert state.timer.running


def test_the_alarm_stops_ringing_after_its_time_and_once_rings_once():
    state, _ = run(boot(alarm_s=30), Press(Button.START, 0.0))
    state, effects = play_until(state, 200.0)
    assert beeps(effects).count("alarm") == 12  # 60.0, 62.5, …, 87.5: 30 s from the end
    assert state.ringing is None and app.view(state)[-1] == WakeAt(None)
    assert app.view(state)[1] == SetBar(0.0) and app.screen(state).big == "Zeit!"
    state, _ = run(boot(alarm_s=0), Press(Button.START, 0.0))
    state, effects = play_until(state, 200.0)
    assert beeps(effects).count("alarm") == 1 and state.ringing is None


def test_the_alarm_length_is_chosen_in_the_menu_and_remembered():
    state = choose(boot(), "alarm")
    assert next(label for _, label, _ in app.menu_entries(state, "alarm")) == "einmal"
    assert state.overlay.cursor == 2  # on the current choice, 1:00
    state, effects = run(state, *[Press(Button.NEXT, 0.0)] * 3, Press(Button.START, 0.0))  # round to "once"
    assert state.settings.alarm_s == 0
    assert SaveSettings({**Settings().remembered(), "alarm_s": 0}) in effects
    assert Settings().with_remembered(state.settings.remembered()).alarm_s == 0


def test_start_pauses_and_resumes():
    state, _ = run(boot(), Press(Button.START, 0.0), Press(Button.START, 20.0))
    assert not state.timer.running and state.timer.left(99.0) == 40.0
    assert "Pause" in app.screen(state).title
    state, _ = run(state, Press(Button.START, 100.0))
    assert state.timer.countdown.deadline == 140.0


def test_back_resets_and_long_start_flips():
    state, _effects = run(boot(), Press(Button.START, 0.0), LongPress(Button.START, 15.0))
    assert state.timer.left(15.0) == 15.0  # 45 left, turned over -> 15
    assert state.notice == "Umgedreht"
    state, _ = run(state, Press(Button.BACK, 16.0))
    assert not state.timer.running and state.timer.left(16.0) == 60.0


def test_next_cycles_presets_and_the_choice_is_remembered():
    state, effects = run(boot(), Press(Button.NEXT, 0.0))
    assert state.settings.duration_s == 90
    assert SaveSettings({**Settings().remembered(), "duration_s": 90}) in effects
    state, _ = run(state, Press(Button.NEXT, 1.0), Press(Button.NEXT, 2.0), Press(Button.NEXT, 3.0))
    assert state.settings.duration_s == 30  # 120, 180, then round to the first preset
    assert Settings().with_remembered(state.settings.remembered()).duration_s == 30


def test_typed_duration_and_bad_typed_duration():
    state, _ = run(boot(), TextEntry("1:45", 0.0))
    assert state.timer.left(0) == 105
    state, effects = run(state, TextEntry("elf", 1.0))
    assert beeps(effects) == ["error"] and "keine Dauer" in state.notice
    state, effects = run(state, TextEntry("9999", 1.0))
    assert beeps(effects) == ["error"] and state.settings.duration_s == 105


def test_duration_cannot_change_while_running():
    state, effects = run(boot(), Press(Button.START, 0.0), Press(Button.NEXT, 1.0))
    assert beeps(effects) == ["start", "error"] and state.settings.duration_s == 60


def test_custom_duration_from_the_menu():
    state, _ = run(boot(), Press(Button.MENU, 0.0))
    assert isinstance(app.screen(state), ListScreen)
    state = choose(boot(), "duration")
    assert app.screen(state).title == "Dauer"
    state, _ = run(state, Turn(-1, 0), Press(Button.START, 0))  # from 1:00 (marked) up to 0:30, choose
    assert state.settings.duration_s == 30
    state, _ = run(state, Press(Button.START, 0))  # duration again
    custom = len(state.settings.presets)
    state, _ = run(state, Turn(custom, 0), Press(Button.START, 0))  # from 0:30 to "custom"
    assert isinstance(state.overlay, app.DurationEdit)
    state, _ = run(state, Turn(3, 0), Press(Button.NEXT, 0), Press(Button.START, 0))  # 30 + 15 + 15
    assert state.settings.duration_s == 60
    state, _ = run(state, Press(Button.BACK, 0), Press(Button.BACK, 0))  # up from its group, out of the menu
    assert state.overlay is None and app.screen(state).big == "1:00"


def test_language_switches_the_whole_ui_to_english():
    state = choose(boot(), "language")
    state, effects = run(state, Press(Button.NEXT, 0), Press(Button.START, 0))
    assert state.settings.lang == "en"
    assert SaveSettings({**Settings().remembered(), "lang": "en"}) in effects
    state, _ = run(state, Press(Button.MENU, 0), Press(Button.START, 10.0))
    assert "ready" not in app.screen(state).title  # running now
    state, _ = play_until(state, 100)
    assert app.screen(state).big == "Time!"


def test_volume_off_silences_every_beep():
    state, _ = run(boot(volume="off"), Press(Button.START, 0))
    state, effects = play_until(state, 61)
    assert all(e.volume == "off" for e in effects if isinstance(e, Beep))


def test_scoreboard_add_subtract_undo():
    state, _ = run(boot(player_names=("Jürgen", "Öznur"), player_count=3), Press(Button.MENU, 0))
    state, _ = run(state, Press(Button.START, 0), Press(Button.NEXT, 0), Press(Button.START, 0))  # Spielen, Punktetafel
    assert state.home == "scoreboard"
    screen = app.screen(state)
    assert [i.label for i in screen.items] == ["Jürgen", "Öznur", "Spieler 3"]
    state, _ = run(state, Press(Button.START, 0), Press(Button.START, 0), Press(Button.NEXT, 0),
                   TextEntry("+12", 0), LongPress(Button.START, 0), Turn(3, 0))
    assert state.board.totals == (2, 14, 0)
    state, _ = run(state, Press(Button.BACK, 0))
    assert state.board.totals == (2, 11, 0) and "Rückgängig" in state.notice
    state, _ = run(state, *[Press(Button.BACK, 0)] * 4)
    assert state.board.totals == (0, 0, 0)
    state, _effects = run(state, Press(Button.BACK, 0))  # nothing left to undo: BACK leads out to the menu
    assert isinstance(state.overlay, app.MenuView)


def test_scoreboard_totals_may_go_below_zero():
    # RULES §5: "+/− points by buttons, for any game" — no floor (Knack das Wort ends below zero).
    state = choose(boot(player_count=2), "scoreboard")
    state, _ = run(state, LongPress(Button.START, 0), TextEntry("−25", 0), Press(Button.NEXT, 0), Turn(-3, 0))
    assert state.board.totals == (-26, -3)
    assert [i.value for i in app.screen(state).items] == ["-26", "-3"]
    state, _ = run(state, Press(Button.BACK, 0))
    assert state.board.totals == (-26, 0)


def test_scoreboard_runs_the_timer_from_the_same_screen():
    state = choose(boot(), "scoreboard")
    state, effects = run(state, LongPress(Button.NEXT, 5.0))
    assert state.timer.running and beeps(effects) == ["start"]
    state, effects = play_until(state, 35.0)
    assert "0:30" in app.screen(state).title
    state, effects = play_until(state, 70.0)
    assert "alarm" in beeps(effects) and "Zeit!" in app.screen(state).title


def test_bad_typed_points_are_refused_with_a_message():
    state = choose(boot(), "scoreboard")
    state, effects = run(state, TextEntry("+?", 0))
    assert beeps(effects) == ["error"] and "keine Zahl" in app.screen(state).footer


def test_a_name_too_long_to_keep_is_refused_and_the_board_keeps_its_names():
    state = choose(boot(player_count=2), "scoreboard")
    state, effects = run(state, TextEntry("Maximiliane Theodora", 0))  # 20 characters, 16 are kept
    assert beeps(effects) == ["error"] and "zu lang" in app.screen(state).footer
    assert state.board.players == ("Spieler 1", "Spieler 2") and state.settings.player_names == ()
    state, _ = run(state, TextEntry("Maximiliane", 0))
    assert app.restore(app.snapshot(state)).board.players == ("Maximiliane", "Spieler 2")


def test_a_turn_clock_abandoned_for_another_game_gives_the_sand_timer_back():
    state = choose(boot(duration_s=90), "game:zugzeit")
    state, _ = run(state, Press(Button.ENCODER, 0), LongPress(Button.NEXT, 0), Press(Button.ENCODER, 0))
    assert state.timer.countdown.left(0) == 600  # the turn clock has the timer
    state = choose(state, "game:perfect-words")
    assert isinstance(state.overlay, app.ConfirmLeave)  # a game begun: the table is asked first
    state, _ = run(state, Press(Button.START, 0))
    assert "Zugzeit" in state.notice
    state, _ = run(state, Press(Button.BACK, 0))  # out of the new game's setup: the timer, as set
    assert state.home == "timer" and state.timer.countdown.left(0) == 90
    assert app.snapshot(app.restore(app.snapshot(state)))["timer"]["left"] == 90


def test_a_game_ends_on_the_home_mode_it_was_opened_from():
    board, _ = run(choose(boot(), "scoreboard"), TextEntry("Anna", 0), TextEntry("+5", 0))
    games = [key for key in app.menu_keys(board) if key.startswith("game:")]
    assert len(games) >= 8
    for game in games:
        state, _ = run(choose(board, game), Press(Button.BACK, 0))  # out of its setup's first step
        assert state.home == "scoreboard" and isinstance(state.overlay, app.MenuView), game
        state, effects = run(state, Press(Button.BACK, 0))  # the menu closed: the board as it was
        assert state.board == board.board and shown(effects).title == "Punktetafel", game
    # a game opened over another game returns to where the first one was opened from
    state, _ = run(choose(choose(board, "game:zugzeit"), "game:deck"), Press(Button.BACK, 0))
    assert state.home == "scoreboard"
    state, _ = run(choose(boot(), "game:deck"), Press(Button.BACK, 0))
    assert state.home == "timer"


def test_player_count_from_the_menu_keeps_totals():
    state = choose(boot(player_count=2), "scoreboard")
    state = choose(run(state, TextEntry("7", 0))[0], "players")
    assert app.screen(state).title == "Spieler"
    state, _ = run(state, Turn(4, 0), Press(Button.START, 0), Press(Button.MENU, 0))
    assert state.board.totals == (7, 0, 0, 0, 0, 0)


def test_long_menu_offers_power_off_and_back_cancels():
    state, _ = run(boot(), LongPress(Button.MENU, 0))
    assert isinstance(app.screen(state), MessageScreen)
    state, effects = run(state, Press(Button.BACK, 0))
    assert state.overlay is None and not any(isinstance(e, PowerOff) for e in effects)
    state, effects = run(state, LongPress(Button.MENU, 0), Press(Button.START, 0))
    assert any(isinstance(e, PowerOff) for e in effects)


def test_unknown_card_and_missing_reader_are_told_not_fatal():
    state, effects = run(boot(), CardScan("rfid", "0A1B2C3D4E", 0))
    assert beeps(effects) == ["error"] and "0A1B2C3D4E" in app.screen(state).footer
    state, effects = run(state, ReaderStatus("rfid", False, 1))
    assert "fehlt" in app.screen(state).footer


def test_resume_brings_a_running_timer_back_paused():
    state, _ = run(boot(), Press(Button.START, 1000.0), Tick(1020.0))
    state, _effects = run(state, Resumed(5.0))  # new boot: monotonic time starts anew
    assert not state.timer.running and state.timer.left(5.0) == 40.0
    assert "pausiert" in app.screen(state).footer
    state, _ = run(state, Press(Button.START, 6.0))
    assert state.timer.countdown.deadline == 46.0


@pytest.mark.slow
def test_every_button_in_every_screen_never_raises():
    inputs = [Press(b, 0) for b in Button] + [LongPress(b, 0) for b in Button if b is not Button.MENU]
    inputs += [Turn(1, 0), Turn(-2, 0), TextEntry("5", 0), TextEntry("x", 0)]
    seen = set()
    frontier = [boot(), run(boot(), Press(Button.START, 0))[0]]
    for _ in range(4):  # breadth-first over states reachable in 4 inputs
        nxt = []
        for state, event in itertools.product(frontier, inputs):
            new, effects = app.step(state, event)
            key = describe(app.screen(new))
            assert isinstance(effects[-1], WakeAt)
            if key not in seen:
                seen.add(key)
                nxt.append(new)
        frontier = nxt
    assert len(seen) > 40


@pytest.mark.parametrize("text,points", [("5", 5), ("+5", 5), ("-3", -3), ("−3", -3), (" 12 ", 12), ("x", None)])
def test_parse_points(text, points):
    assert app.parse_points(text) == points


@pytest.mark.parametrize("text,seconds", [("90", 90), ("1:30", 90), ("0:05", 5), ("1:75", None), ("", None)])
def test_parse_duration(text, seconds):
    assert parse_duration(text) == seconds
