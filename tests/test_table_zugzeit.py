"""Zugzeit at the table: every mode through the app (`app.step`) on a virtual clock that delivers each
wake-up the core asks for — switches on the button edge, undo, skips and removals, 8 players, the
hourglass, increments and delays to the millisecond, pauses, the clock ending turns at their deadline, a
late press, leaving for the sand timer, and the per-turn limit inside Knack das Wort and Quiddler."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core import app
from firmware_host.core.effects import Beep, BeginGame, EndGame, Record, Retract, SetBar, WakeAt
from firmware_host.core.events import Button, Event, LongPress, Press, TextEntry, Tick, Turn
from firmware_host.core.games.registry import parse_record
from firmware_host.core.games.zugzeit import GAME_ID
from firmware_host.core.games.zugzeit import rules as zz
from firmware_host.core.games.zugzeit.record import score_record
from firmware_host.core.games.zugzeit.table import ZugzeitFlow
from firmware_host.core.record import dump_line, header_line
from firmware_host.core.screens import describe
from firmware_host.core.settings import Settings, TurnSettings


class Clockwork:
    """The app on a virtual clock: events at given moments, `wait` delivers every wake-up on the way."""

    def __init__(self, **settings):
        self.state, effects = app.initial(Settings(**settings))
        self.now = 0.0
        self.wake: float | None = None
        self.lines: list[dict] = []
        self.sounds: list[tuple[float, str]] = []
        self.bars: list[float] = []
        self.ended: list[EndGame] = []
        self._take(effects)

    def _take(self, effects):
        for effect in effects:
            if isinstance(effect, Record):
                self.lines.append(effect.line)
            elif isinstance(effect, Retract):
                self.lines.pop()
            elif isinstance(effect, Beep):
                self.sounds.append((self.now, effect.pattern))
            elif isinstance(effect, WakeAt):
                self.wake = effect.at
            elif isinstance(effect, SetBar):
                self.bars.append(effect.level)
            elif isinstance(effect, EndGame):
                self.ended.append(effect)
            elif isinstance(effect, BeginGame):
                self.lines.clear()

    def send(self, event: Event) -> Clockwork:
        self.state, effects = app.step(self.state, event)
        self._take(effects)
        return self

    def wait(self, seconds: float) -> Clockwork:
        until = self.now + seconds
        while self.wake is not None and self.wake <= until:
            self.now = max(self.now, self.wake)
            self.send(Tick(self.now))
        self.now = until
        return self

    def press(self, name: str, times: int = 1) -> Clockwork:
        for _ in range(times):
            self.send(Press(Button(name), self.now))
        return self

    def hold(self, name: str) -> Clockwork:
        return self.send(LongPress(Button(name), self.now))

    def type(self, *texts: str) -> Clockwork:
        for text in texts:
            self.send(TextEntry(text, self.now))
        return self

    @property
    def screen(self):
        return app.screen(self.state)

    @property
    def text(self) -> str:
        return describe(self.screen)

    @property
    def flow(self) -> ZugzeitFlow:
        assert isinstance(self.state.flow, ZugzeitFlow)
        return self.state.flow

    @property
    def game(self) -> zz.Game:
        assert self.flow.played is not None
        return self.flow.played.game

    def turns(self) -> list[tuple[str, int]]:
        return [(line["player"], line["ms"]) for line in self.lines if line["event"] == "turn"]

    def record(self) -> str:
        return "\n".join(dump_line(line) for line in [header_line(GAME_ID), *self.lines]) + "\n"


def table(*names: str, mode: str = "bank", time: str = "5:00", over: str = "beep", increment: str = "0",
          delay: str = "0", **settings) -> Clockwork:
    """The turn timer set up through its screens: the players, then the timing; it ends ready."""
    clock = Clockwork(**settings)
    lang = settings.get("lang", "de")
    for event in app.events_to_choose(clock.state, {"de": "Zugzeit", "en": "Turn timer"}[lang], 0.0):
        clock.send(event)
    clock.send(Turn(len(names) - clock.flow.stage.seats.count, 0.0)).type(*names).press("start")
    while clock.flow.stage.mode != mode:
        clock.press("start")
    clock.press("next").type(time)
    if mode == "limit":
        clock.press("next")
        while clock.flow.stage.over != over:
            clock.press("start")
    elif mode != "hourglass":
        clock.press("next").type(increment).press("next").type(delay)
    clock.press("next").press("start")
    assert {"de": "bereit", "en": "ready"}[lang] in clock.text, clock.text
    return clock


def test_bank_with_fischer_increment_a_mis_press_and_its_undo_to_the_millisecond():
    clock = table("Anna", "Ben", "Cem", mode="bank", time="1:00", increment="2")
    assert clock.lines[0] == {"event": "setup", "players": ["Anna", "Ben", "Cem"], "mode": "bank",
                              "time_ms": 60_000, "increment_ms": 2_000}
    clock.wait(3).press("start")  # the clock starts at 3.0
    clock.wait(10.25).press("start")  # Anna: 10.25 s
    assert clock.turns() == [("Anna", 10_250)] and ("turn" in dict(clock.sounds).values())
    clock.wait(4.5).press("start")  # Ben: 4.5 s
    clock.wait(0.7).press("start")  # Cem presses by mistake after 0.7 s … (→ Anna)
    clock.wait(2.0).press("back")  # … and it is taken back 2 s later: Cem's turn has lasted 2.7 s
    assert clock.game.on_turn == "Cem" and clock.turns() == [("Anna", 10_250), ("Ben", 4_500)]
    assert clock.flow.clock.used(round(clock.now * 1000)) == 2_700
    clock.wait(0.3).press("start")  # Cem: 3.0 s in all
    assert clock.turns()[-1] == ("Cem", 3_000)
    assert clock.game.banks == (51_750, 57_500, 59_000)
    assert clock.text == "Anna (Zug 4) | 0:52 | dann Ben 0:58"


def test_the_per_turn_limit_beeps_and_counts_on():
    clock = table("Anna", "Ben", mode="limit", time="0:30", over="beep", warn_s=5)
    clock.press("start")
    clock.wait(29.5)
    assert clock.text == "Anna (Zug 1) | 0:01 | dann Ben"
    clock.wait(1.0)
    assert [t for t, s in clock.sounds if s == "alarm"] == [30.0]
    assert [t for t, s in clock.sounds if s == "warn"] == [25.0, 26.0, 27.0, 28.0, 29.0]
    assert clock.text == "Anna (Zug 1) | +0:00 (inverted) | dann Ben"
    clock.wait(14.5)
    assert clock.text == "Anna (Zug 1) | +0:15 | dann Ben" and clock.bars[-1] == 0.0
    clock.press("start")
    assert clock.turns() == [("Anna", 45_000)] and clock.game.stats[0].over_ms == 15_000
    assert clock.text == "Ben (Zug 2) | 0:30 | dann Anna" and clock.bars[-1] == 1.0


def test_the_per_turn_limit_that_ends_the_turn_does_so_at_the_deadline_exactly():
    clock = table("Anna", "Ben", "Cem", mode="limit", time="0:20", over="end")
    clock.wait(1).press("start")
    clock.send(Tick(51.0))  # one late wake-up: two deadlines have passed meanwhile
    clock.now = 51.0
    assert clock.turns() == [("Anna", 20_000), ("Ben", 20_000)]
    assert all(line.get("auto") for line in clock.lines if line["event"] == "turn")
    assert clock.game.on_turn == "Cem" and clock.flow.clock.since_ms == 41_000
    assert clock.text.startswith("Cem (Zug 3) | 0:10")
    clock.press("back")
    assert "nicht rückgängig" in clock.text and len(clock.turns()) == 2


def test_a_bronstein_delay_holds_the_bank_still_for_its_seconds():
    clock = table("Anna", "Ben", mode="bank", time="1:00", delay="5")
    clock.press("start").wait(4.0)
    assert clock.text == "Anna (Zug 1) | 1:00 | dann Ben 1:00"  # within the delay
    clock.wait(3.0)
    assert clock.text == "Anna (Zug 1) | 0:58 | dann Ben 1:00"
    clock.press("start")
    assert clock.game.banks == (58_000, 60_000)
    clock.wait(3.0).press("start")
    assert clock.game.banks == (58_000, 60_000)  # 3 s within the 5-s delay cost nothing
    clock.wait(70.0)
    assert [t for t, s in clock.sounds if s == "alarm"] == [10.0 + 63.0]  # bank 58 + delay 5
    assert clock.text.startswith("Anna (Zug 3) | +0:07")


def test_the_hourglass_fills_the_other_side_and_its_empty_side_loses():
    clock = table("Anna", "Ben", mode="hourglass", time="1:00")
    clock.press("start").wait(10).press("start")
    assert clock.game.banks == (50_000, 70_000)
    clock.wait(5)
    assert clock.text == "Ben (Zug 2) | 1:05 | dann Anna 0:55"  # Anna's side fills while Ben thinks
    clock.wait(20).press("start")
    assert clock.game.banks == (75_000, 45_000)
    clock.wait(80)  # Anna's sand runs out after 75 s
    assert clock.turns()[-1] == ("Anna", 75_000) and clock.lines[-1]["auto"] is True
    assert clock.game.ended and clock.game.banks == (0, 120_000)
    assert clock.text == "Gesamt | Anna 1:25.0; * Ben 0:25.0 | Anna: Zeit um – raus"
    assert clock.press("next").text == "Ø pro Zug | Anna 0:42.5; * Ben 0:25.0 | Gewonnen: Ben"
    clock.press("start")
    assert clock.ended == [EndGame("Ben")] and clock.state.flow is None


def test_the_times_screen_steps_each_row_and_refuses_what_means_nothing_there():
    clock = Clockwork()
    for event in app.events_to_choose(clock.state, "Zugzeit", 0.0):
        clock.send(event)
    clock.press("start")
    assert clock.text == ("Zugzeit: Zeiten | > Zeitart Zeitkonto; Je Spieler 10:00; Fischer aus; "
                          "Bronstein aus; Los! | NEXT Zeile · START ändern · Zeit tippen")
    clock.hold("start")  # back one timing: per turn
    assert clock.text.startswith("Zugzeit: Zeiten | > Zeitart pro Zug; Pro Zug 1:00; Überzeit piept; Los!")
    clock.press("next").send(Turn(2, 0.0))  # the encoder turns the value: 1:00 → 1:30 → 2:00
    assert "Pro Zug 2:00" in clock.text
    clock.type("4")
    assert "Zeit 0:05–59:59" in clock.text and "Pro Zug 2:00" in clock.text
    clock.press("next").press("start")
    assert "Überzeit Zugende" in clock.text
    clock.press("next").hold("start")  # on "Los!": nothing to change
    clock.type("1:00")
    assert "Hier ist keine Eingabe möglich" in clock.text and clock.lines == []
    clock.press("back")
    assert clock.text.startswith("Zugzeit: 4 Spieler")


def test_the_hourglass_is_for_two_players():
    clock = Clockwork()
    for event in app.events_to_choose(clock.state, "Zugzeit", 0.0):
        clock.send(event)
    clock.send(Turn(-1, 0.0)).press("start")  # three players
    while clock.flow.stage.mode != "hourglass":
        clock.press("start")
    clock.press("next", 2).press("start")
    assert "Sanduhr ist für genau 2 Spieler, nicht 3" in clock.text and clock.lines == []


def test_sudden_death_flags_a_player_at_the_deadline_and_the_others_go_on():
    clock = table("Anna", "Ben", "Cem", mode="sudden-death", time="0:30")
    clock.press("start").wait(10).press("start")  # Anna 10 s
    clock.wait(40)  # Ben's 30 s run out at 40.0
    assert clock.turns() == [("Anna", 10_000), ("Ben", 30_000)]
    assert clock.game.status == (zz.IN, zz.OUT, zz.IN) and clock.flow.clock.since_ms == 40_000
    assert "Ben: Zeit um – raus" in clock.text
    clock.wait(1).press("start")  # Cem 11 s (he began at the deadline)
    assert clock.turns()[-1] == ("Cem", 11_000)
    assert clock.game.on_turn == "Anna"
    clock.wait(25)  # Anna's 20 s run out: Cem is the last one in
    game = clock.game
    assert game.ended and game.winners == ("Cem",)
    assert score_record(parse_record(clock.record())).game == game
    clock.press("start")
    assert clock.ended == [EndGame("Cem")]


def test_a_press_stamped_before_the_deadline_beats_the_clock_that_ended_the_turn():
    """The press came first but reached the core after the wake-up that ended the turn: it counts."""
    clock = table("Anna", "Ben", "Cem", mode="sudden-death", time="0:30")
    clock.press("start")
    clock.send(Tick(30.05))  # the clock flags Anna at 30.0
    assert clock.game.status[0] == zz.OUT
    clock.send(Press(Button.START, 29.99))  # … but Anna had pressed at 29.99
    assert clock.turns() == [("Anna", 29_990)]
    assert clock.game.status == (zz.IN, zz.IN, zz.IN) and clock.game.on_turn == "Ben"
    assert clock.flow.clock.since_ms == 29_990


def test_skip_remove_and_reverse_mid_game():
    clock = table("Anna", "Ben", "Cem", "Dora", mode="bank", time="5:00")
    clock.press("start").wait(2)
    clock.press("next").press("next")  # actions → "Ben setzt aus"
    assert "> Ben setzt aus" in clock.text
    clock.press("start").wait(1).press("start")  # Anna → Cem
    assert clock.game.on_turn == "Cem"
    clock.wait(4).press("next")
    labels = [item.label for item in clock.screen.items]
    clock.press("next", labels.index("Cem entfernen")).press("start")  # Cem on turn leaves, with his 4 s
    assert clock.lines[-1] == {"event": "remove", "player": "Cem", "ms": 4_000}
    assert clock.game.on_turn == "Dora" and clock.flow.clock.since_ms == round(clock.now * 1000)
    clock.press("back")  # taken back: Cem again, with the time since
    assert clock.game.on_turn == "Cem" and clock.lines[-1] == {"event": "turn", "player": "Anna", "ms": 3_000}
    clock.wait(1).press("start")
    assert clock.turns()[-1] == ("Cem", 5_000)
    clock.press("next").press("start")  # reverse
    assert clock.lines[-1] == {"event": "reverse"}
    clock.wait(1).press("start")
    assert clock.game.on_turn == "Cem"  # Dora → Cem the other way round


def test_eight_players_round_the_table_with_exact_banks():
    names = tuple(f"S{i}" for i in range(1, 9))
    clock = table(*names, mode="bank", time="2:00")
    clock.press("start")
    for n in range(16):
        assert clock.game.on_turn == names[n % 8]
        clock.wait(1 + n / 8).press("start")
    assert clock.game.banks == tuple(120_000 - round((1 + i / 8) * 1000) - round((1 + (i + 8) / 8) * 1000)
                                     for i in range(8))
    assert clock.game.turns == 16 and clock.game.on_turn == "S1"
    clock.hold("next")
    assert clock.text.startswith("Zeiten | * S1 1:57; S2 1:57")


def test_long_start_pauses_and_resumes_and_the_pause_is_no_ones_time():
    clock = table("Anna", "Ben", mode="bank", time="1:00")
    clock.press("start").wait(5).hold("start")
    assert "Anna (Pause) | 0:55" in clock.text
    clock.wait(600)
    assert clock.wake is None  # nothing runs: no wake-ups while paused
    clock.press("start")  # START resumes (the turn does not pass)
    assert clock.game.on_turn == "Anna" and clock.turns() == []
    clock.wait(5).press("start")
    assert clock.turns() == [("Anna", 10_000)] and clock.game.on_turn == "Ben"


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0, 90.0), st.booleans(), st.floats(0.0, 30.0)), min_size=1, max_size=25),
       st.sampled_from(["bank", "limit"]), st.integers(2, 8))
def test_the_turns_add_up_to_the_wall_time_minus_the_pauses(turns, mode, players):
    """However long each turn and pause, whatever the fractions of a millisecond: the turns' times sum to
    the wall time from the first start to the end minus the pauses, within 1 ms per turn (a turn's time is
    rounded to a whole millisecond once, when it is recorded: at most half a millisecond off per turn,
    however many pauses it had)."""
    clock = table(*(f"P{i}" for i in range(players)), mode=mode, time="1:00")
    clock.wait(0.123456).press("start")
    start, paused = clock.now, 0.0
    for think, pause, pause_len in turns:
        clock.wait(think / 2)
        if pause:
            clock.hold("start").wait(pause_len)
            paused += pause_len
            clock.hold("start")
        clock.wait(think / 2).press("start")
    wall_ms = (clock.now - start - paused) * 1000
    total = sum(ms for _, ms in clock.turns())
    assert abs(total - wall_ms) <= 0.5 * len(turns) + 1e-6
    assert len(clock.turns()) == len(turns)


def test_leaving_for_the_sand_timer_pauses_the_turn_clock_and_coming_back_shows_it():
    clock = table("Anna", "Ben", mode="bank", time="1:00")
    clock.press("start").wait(12)
    clock.hold("back")  # the sand timer
    assert clock.text.startswith("Timer 1:00 · bereit | 1:00")
    clock.press("start").wait(3)
    assert "0:57" in clock.text  # the sand timer runs, the turn clock waits
    clock.wait(100)
    assert "Taste" in clock.text  # the sand timer's alarm rings on: a button only silences it
    clock.press("next")
    clock.hold("back")
    assert clock.text == "Anna (Pause) | 0:48 | dann Ben 1:00 | Pause · START: weiter"
    clock.press("start").wait(1).press("start")
    assert clock.turns() == [("Anna", 13_000)]


def test_the_turn_button_ends_a_turn_and_starts_the_sand_timer():
    clock = table("Anna", "Ben", mode="bank", time="1:00")
    clock.press("turn").wait(2).press("turn")
    assert clock.turns() == [("Anna", 2_000)]
    clock.hold("back").press("turn")
    assert "läuft" in clock.text


def test_a_restart_pauses_the_clock_at_the_last_journaled_moment():
    from firmware_host.core.events import Resumed

    clock = table("Anna", "Ben", mode="bank", time="1:00")
    clock.press("start").wait(7).press("start").wait(4.7)  # the last wake-up the core saw: 11.5 (a bar step)
    clock.send(Resumed(3.0))  # the new monotonic clock after the restart
    assert clock.text == "Ben (Pause) | 0:56 | dann Anna 0:53 | Pause · START: weiter"
    assert clock.wake is None and not clock.state.timer.running
    clock.now = 3.0
    clock.press("start").wait(2).press("start")
    assert clock.turns() == [("Anna", 7_000), ("Ben", 6_500)]


def test_the_time_the_box_was_off_is_nobodys_turn():
    """Unlike the sand timer, whose time runs out while the box is off, a turn clock only pauses: a
    player's time cannot run out during a power cut."""
    from firmware_host.core.events import Resumed

    clock = table("Anna", "Ben", mode="sudden-death", time="0:30")
    clock.press("start").wait(10)
    clock.send(Resumed(1.0, off_s=3600.0))
    assert clock.game.status == (zz.IN, zz.IN) and clock.lines[-1]["event"] == "setup"
    assert clock.text.startswith("Anna (Pause) | 0:20")


def test_the_statistics_screen_shows_one_figure_at_a_time_and_back_takes_the_end_back():
    clock = table("Anna", "Ben", mode="limit", time="0:10", over="beep")
    clock.press("start").wait(12).press("start").wait(3).press("start").wait(1)
    clock.press("next").press("next", 2)  # actions: reverse, skip Anna, end
    assert "> Spiel beenden" in clock.text
    clock.press("start")
    assert clock.text == "Gesamt | Anna 0:13.0; Ben 0:03.0 | NEXT weiter · START Ende"
    assert [describe(clock.press("next").screen).split(" | ")[1] for _ in range(4)] == [
        "Anna 0:06.5; Ben 0:03.0", "Anna 0:12.0; Ben 0:03.0", "Anna 2; Ben 1", "Anna 0:02.0; Ben 0:00.0"]
    clock.press("back")
    assert clock.text.startswith("Anna (Pause) | 0:09") and clock.lines[-1]["event"] == "turn"


# --- the per-turn limit inside the games -----------------------------------------------------------


def limited(game: str, seconds: int = 30) -> Clockwork:
    clock = Clockwork(turns=TurnSettings(game_turn_s=seconds))
    for event in app.events_to_choose(clock.state, game, 0.0):
        clock.send(event)
    return clock


def test_the_menu_chooses_the_limit_inside_the_games_and_remembers_it():
    clock = Clockwork()
    for event in app.events_to_choose(clock.state, "Zeit je Zug", 0.0):
        clock.send(event)
    clock.press("next", 2)  # aus, 0:30, 1:00
    clock.state, effects = app.step(clock.state, Press(Button.START, 0.0))
    assert clock.state.settings.turns.game_turn_s == 60
    assert any(getattr(e, "settings", {}).get("game_turn_s") == 60 for e in effects)
    assert Settings().with_remembered({"game_turn_s": 60}).turns.game_turn_s == 60
    assert Settings().with_remembered({"game_turn_s": 61}).turns.game_turn_s == 0


def test_knack_das_wort_runs_the_limit_per_turn_and_honours_a_stop():
    clock = limited("Knack")
    clock.send(Turn(-2, 0.0)).type("Anna", "Ben").press("start")  # two players; the first turn begins
    assert clock.text.startswith("Zug 1 · 0:30 | Anna")
    clock.wait(10).type("Haus")
    assert clock.text.startswith("Zug 2 · 0:30 | Ben")
    clock.wait(31)
    assert "Zug 2 · Zeit! | Ben" in clock.text and [t for t, s in clock.sounds if s == "alarm"] == [40.0]
    assert clock.state.ringing is not None  # the alarm rings on until a button
    clock.press("next")  # the silencing press does nothing else
    assert clock.state.ringing is None and "Zug 2 · Zeit! | Ben" in clock.text
    clock.hold("start")  # Ben plays Stop: Anna will skip
    clock.type("Maus")  # Ben's turn ends; Anna skips; Ben again, with a fresh limit
    assert clock.text.startswith("Zug 4 · 0:30 | Ben")
    assert clock.state.timer.running and clock.state.timer.countdown.deadline == 71.0


def test_quiddler_runs_the_limit_for_each_turn_of_a_round_from_its_starter():
    clock = limited("Quiddler", 45)
    clock.press("next").press("start")  # 3 players
    clock.type("Anna", "Ben", "Cem").press("start")  # names; the dealer
    clock.press("start")  # Anna deals: Ben starts
    clock.press("start")  # the setup is complete; the plan of round 1
    assert not clock.state.timer.running
    clock.press("start")  # round 1 is played
    assert clock.text.endswith("Ben am Zug · 0:45")
    clock.wait(20).hold("start")
    assert clock.text.endswith("Cem am Zug · 0:45") and clock.state.timer.countdown.deadline == 65.0
    clock.wait(50)
    assert clock.text.endswith("Cem am Zug · Zeit!")
    clock.press("start")  # Anna went out: lay-downs, no turn runs
    assert not clock.state.timer.running


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_paused_footer_pages_break_between_pause_and_the_start_hint(lang):
    """On 128×64 the footer after a long START is paged: "START: weiter" stays whole on one page, never
    "START:" on one and "weiter" on the next."""
    from firmware_host.render import _metrics, font, paged

    clock = table("Anna", "Ben", mode="bank", time="1:00", lang=lang)
    clock.press("start").wait(5).hold("start")
    hint = {"de": "START: weiter", "en": "START: resume"}[lang]
    parts = paged(clock.screen.footer, font(_metrics(64).size), 128 - 4)
    assert hint in parts or parts == (clock.screen.footer,), parts
