"""The turn timer end to end: the real shell on mock pins and the dummy display, on a virtual clock — the
LED bar draining a bank, the sounds, and a power cut mid-turn resumed from the journal."""

from __future__ import annotations

import pytest

from firmware_host.commands.score import score
from firmware_host.core.games.registry import parse_record
from firmware_host.core.games.zugzeit import GAME_ID
from firmware_host.core.games.zugzeit import rules as zz
from firmware_host.core.games.zugzeit.report import ZugzeitReport
from firmware_host.core.games.zugzeit.table import ZugzeitFlow
from firmware_host.script import parse_script, run_script
from firmware_host.shell import CHECKPOINT_S

pytestmark = pytest.mark.slow  # the whole shell on mock hardware

SETUP = """
choose Zugzeit
turn -1
type Anna
type Ben
type Cem
press start
{mode}
press next
type {time}
press next
{rest}
press start
"""
BANK = SETUP.format(mode="", time="1:00", rest="type 2\npress next\npress next")  # Fischer +2 s
LIMIT_END = SETUP.format(mode="hold start", time="0:20", rest="press start\npress next")  # past it: the turn ends


def play(sim, text: str) -> None:
    run_script(parse_script(text), sim.hooks(), lambda line: None)


def flow(sim) -> ZugzeitFlow:
    assert isinstance(sim.state.flow, ZugzeitFlow)
    return sim.state.flow


def game(sim) -> zz.Game:
    played = flow(sim).played
    assert played is not None
    return played.game


def exported(sim) -> zz.Game:
    journal = sim.appliance.journal
    table = next(g for g in reversed(journal.games()) if g.game == GAME_ID)
    report = score(parse_record(journal.export_record(table.id)))
    assert isinstance(report, ZugzeitReport)
    return report.game


def lit(sim) -> list[float]:
    return [round(v, 3) for v in sim.bar_states()]


def test_the_led_bar_drains_the_bank_and_the_turn_change_sounds(sim):
    play(sim, BANK)
    assert lit(sim) == [1.0] * 10
    play(sim, "press start\nwait 30")
    assert lit(sim) == [1.0] * 5 + [0.0] * 5  # half of Anna's minute
    play(sim, "wait 3.75")  # 26.25 s left: 4 lit, the 5th dimmed to 3/8 by PWM
    assert lit(sim) == [1.0] * 4 + [0.375] + [0.0] * 5
    play(sim, "press start")
    assert lit(sim) == [1.0] * 10 and sim.sounds[-1][1] == "turn"
    play(sim, "wait 61")
    assert [p for _, p in sim.sounds].count("warn") == 10 and sim.sounds[-1] == (sim.clock.now - 1.0, "alarm")
    assert lit(sim) == [0.0] * 10 and "Ben (Zug 2) | +0:01" in sim.screen_text()


def test_a_power_cut_mid_turn_resumes_paused_with_every_bank_as_journaled(sim):
    play(sim, BANK + "press start\nwait 12.5\npress start\nwait 20\npress start\nwait 7.3")
    before = game(sim)
    cut = round(sim.clock.now * 1000)
    since = flow(sim).clock.since_ms
    assert before.on_turn == "Cem" and before.banks == (49_500, 42_000, 60_000)
    sim.restart()
    after = flow(sim)
    assert after.played is not None and after.played.game == before  # every finished turn, every bank
    assert not after.clock.running and "Cem (Pause)" in sim.screen_text()
    used = after.clock.used_ms  # the turn as at the last journaled moment: a checkpoint at most 5 s before
    assert since is not None and cut - since - CHECKPOINT_S * 1000 <= used <= cut - since
    play(sim, "press start\nwait 2\npress start")  # on again; Cem ends 2 s later
    assert game(sim).stats[2].total_ms == used + 2_000
    assert exported(sim) == game(sim)  # the record in the journal is the game on the table


def test_a_turn_the_clock_ended_before_a_power_cut_is_there_after_it(sim):
    """The wake-up that ended a turn is journaled like an input: the replay ends it too, and the game on the
    table stays the record in the journal (the next checkpoint would have come only after the cut)."""
    play(sim, LIMIT_END + "press start\nwait 17\nhold next\nwait 4")  # Anna's 20 s end at 20.0; the cut at 21
    assert flow(sim).played is not None and flow(sim).played.events == (zz.Turn("Anna", 20_000, True),)
    sim.restart()
    assert game(sim).on_turn == "Ben" and game(sim).turns == 1
    assert exported(sim) == game(sim)
    play(sim, "press back\npress start\nwait 1\npress start")
    assert exported(sim) == game(sim) and game(sim).on_turn == "Cem"


def test_leaving_the_statistics_closes_the_game_in_the_journal(sim):
    play(sim, BANK + "press start\nwait 3\npress start\npress next\npress next\npress next\npress next\n"
         "press next\npress next\nexpect > Spiel beenden\npress start\nexpect Gesamt\npress start")
    assert sim.state.flow is None and sim.screen_text().startswith("Menü")
    games = sim.appliance.journal.games()
    table = next(g for g in games if g.game == GAME_ID)
    assert table.finished is not None and table.winner == ""
    assert exported(sim).ended
