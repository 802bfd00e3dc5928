"""What the core decides for the shell, as data: a refusal and its reason (`Refused`), the ticks that must be
journaled (`Checkpoint`) and the states a journal may start from (`Snapshottable`); and the dispatch
table's order of precedence."""

from dataclasses import replace

from firmware_host.core import app
from firmware_host.core.app import dispatch
from firmware_host.core.effects import Beep, Checkpoint, Refused, Snapshottable
from firmware_host.core.events import Button, CardScan, LongPress, Press, SeatEntry, TextEntry, Tick, Trouble, Typing
from firmware_host.core.settings import Settings


def boot(**settings):
    return app.initial(Settings(**settings))[0]


def run(state, *events):
    effects = []
    for event in events:
        state, more = app.step(state, event)
        effects += more
    return state, effects


def refusals(effects):
    return [effect.reason for effect in effects if isinstance(effect, Refused)]


def test_a_refusal_is_data_beside_the_error_beep_and_only_then():
    state, effects = run(boot(), Press(Button.START, 0.0), Press(Button.NEXT, 1.0))  # the length, while it runs
    assert refusals(effects) == [app.screen(state).footer] and Beep("error") in effects
    _, effects = run(boot(), Press(Button.START, 0.0), Press(Button.START, 1.0))
    assert refusals(effects) == [] and Beep("error") not in effects
    state, effects = run(boot(), CardScan("rfid", "0A1B", 0.0))
    assert refusals(effects) == [state.notice] and "0A1B" in state.notice


def test_a_phone_entry_the_game_does_not_take_is_refused_with_its_reason():
    _, effects = run(boot(), SeatEntry(0, "HAUS", 0.0))  # no game: no seat takes an entry
    assert len(refusals(effects)) == 1 and "Spieler 1" in refusals(effects)[0]


def test_a_refused_line_from_the_picker_keeps_the_picker_open_with_the_line():
    state, _ = run(boot(player_count=2), *app.events_to_choose(boot(player_count=2), "Punktetafel", 0.0))
    state, _ = run(state, TextEntry("A", 0.0), Press(Button.NEXT, 0.0))  # player 1 is A; player 2 selected
    state, _ = run(state, *app.events_to_choose(state, "Buchstaben", 0.0))
    state, _ = run(state, Press(Button.START, 0.0))  # the first letter: A
    state, effects = run(state, LongPress(Button.START, 0.0))  # the name A is taken
    picker = app.active_picker(state)
    assert refusals(effects) == [state.notice] and picker is not None and picker.text == "A"
    assert state.board.players == ("A", "Spieler 2")


def test_a_running_timer_is_checkpointed_every_few_seconds_after_the_last_input():
    state, _ = run(boot(duration_s=60), Press(Button.START, 0.0))
    marked = []
    for second in range(1, 30):
        state, effects = app.step(state, Tick(float(second)))
        if any(isinstance(effect, Checkpoint) for effect in effects):
            marked.append(second)
    assert marked == [5, 10, 15, 20, 25]
    state, _ = run(state, TextEntry("x", 29.0))  # an input is journaled: the next checkpoint is 5 s after it
    state, effects = run(state, Tick(31.0), Tick(33.5))
    assert not any(isinstance(effect, Checkpoint) for effect in effects)
    _, effects = app.step(state, Tick(34.0))
    assert Checkpoint() in effects


def test_the_alarm_tick_is_checkpointed_and_the_ringing_after_it_is_not():
    state, _ = run(boot(duration_s=10, alarm_s=30), Press(Button.START, 0.0), Tick(4.0))
    state, effects = app.step(state, Tick(10.0))
    assert state.timer.alarmed and Checkpoint() in effects
    state, effects = run(state, Tick(12.5), Tick(15.0), Tick(17.5))
    assert state.ringing is not None and Beep("alarm") in effects and Checkpoint() not in effects


def test_the_checkpoint_time_is_part_of_the_state_and_replays_the_same():
    events = [Press(Button.START, 0.0), Tick(3.0), Tick(5.0), Typing("ab", 6.0), Tick(9.0), Tick(10.0)]
    live, folded = boot(), boot()
    for event in events:
        live = app.step(live, event)[0]
        folded = app.fold(folded, event)
    assert live == folded and live.journaled_at == 10.0
    set_aside = app.step(live, Trouble("set_aside", "TextEntry", 11.0))[0]  # stands for an event not journaled
    assert set_aside.journaled_at == 10.0


def test_an_idle_state_is_marked_snapshottable_and_a_busy_one_not():
    _, effects = app.step(boot(), Tick(1.0))
    assert Snapshottable() in effects
    _, effects = app.step(boot(), Press(Button.START, 1.0))  # the timer runs
    assert Snapshottable() not in effects
    _, effects = app.step(boot(), Press(Button.MENU, 1.0))  # the menu is open
    assert Snapshottable() not in effects


def test_the_dispatch_is_a_table_read_in_order():
    handlers = [row.handler for row in dispatch.ROUTES]
    assert handlers[-1] is dispatch.home_event  # the screen below takes what no row before took
    long_menu = next(i for i, row in enumerate(dispatch.ROUTES) if row.handler is dispatch._ask_power_off)
    overlays = [i for i, row in enumerate(dispatch.ROUTES) if row.event is object]
    assert long_menu < min(overlays)  # a long MENU asks to power off over any overlay
    state, _ = run(boot(), Press(Button.MENU, 0.0))
    state, _ = run(state, LongPress(Button.MENU, 0.0))
    assert isinstance(state.overlay, app.ConfirmPowerOff)
    state = replace(state, overlay=None)
    assert dispatch._route(dispatch.ROUTES, state, Tick(1.0)) == (state, [])


def test_the_mode_is_one_value_no_game_or_a_game_shown_or_waiting():
    state = boot()
    assert state.mode == app.Free(app.OnTimer())
    assert (state.home, state.flow, state.left_home, state.picker) == ("timer", None, "timer", None)
    board = run(state, *app.events_to_choose(state, "Punktetafel", 0.0))[0]
    assert board.mode == app.Free(app.OnBoard())
    lettered = run(board, *app.events_to_choose(board, "Buchstaben", 0.0))[0]  # the picker is the board's
    assert lettered.mode == app.Free(app.OnBoard(lettered.picker)) and lettered.picker is not None
    assert run(lettered, *app.events_to_choose(lettered, "Timer", 0.0))[0].mode == app.Free(app.OnTimer())
    game = run(board, *app.events_to_choose(board, "Zugzeit", 0.0))[0]
    assert isinstance(game.mode, app.InGame) and game.mode.left_home == "scoreboard" and game.home == "game"
    away = run(game, LongPress(Button.BACK, 0.0))[0]  # the game waits while the timer is shown
    assert away.mode == replace(game.mode, shown=app.OnTimer()) and away.home == "timer" and away.flow is game.flow
    other = run(away, *app.events_to_choose(away, "Karten ziehen", 0.0))[0]  # a new game from there ends there
    assert isinstance(other.mode, app.InGame) and other.mode.left_home == "timer"
    ended = run(other, Press(Button.BACK, 0.0))[0]  # out of its setup's first step: the game is over
    assert ended.mode == app.Free(app.OnTimer()) and isinstance(ended.overlay, app.MenuView)
