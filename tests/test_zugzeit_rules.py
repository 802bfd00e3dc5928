"""Zugzeit's rules core on whole milliseconds: every mode's banks with exact figures, the statistics, the
turn order (skips, removals, reversal), refusals, and its record read back by `wordtable score`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host import cli
from firmware_host.core.games.registry import parse_record
from firmware_host.core.games.zugzeit import rules as zz
from firmware_host.core.games.zugzeit.clock import countdown_text, exact_text
from firmware_host.core.games.zugzeit.record import CODEC, RULES
from firmware_host.core.record import dump_line, header_line


def play(setup: zz.Setup, *events: zz.Event) -> zz.Game:
    game = zz.new_game(setup)
    for event in events:
        game = zz.apply(game, event)
    return game


ABC = ("Anna", "Ben", "Cem")


def test_a_time_bank_with_a_fischer_increment_to_the_millisecond():
    game = play(zz.Setup(ABC, "bank", 60_000, increment_ms=2_000),
                zz.Turn("Anna", 10_250), zz.Turn("Ben", 59_999), zz.Turn("Cem", 75_000))
    assert game.banks == (51_750, 2_001, -13_000)  # 60 − 10.25 + 2; 60 − 59.999 + 2; 60 − 75 + 2 (counting on)
    assert [s.over_ms for s in game.stats] == [0, 0, 15_000]
    assert game.on_turn == "Anna" and game.allowed_ms() == 51_750
    game = zz.apply(zz.apply(game, zz.Turn("Anna", 1_000)), zz.Turn("Ben", 5_000))
    assert game.banks[1] == -999 and game.stats[1].over_ms == 2_999  # only what lay beyond the bank
    assert zz.apply(game, zz.Turn("Cem", 4_000)).stats[2].over_ms == 15_000 + 4_000  # a bank below 0: all over


def test_a_bronstein_delay_takes_nothing_for_the_first_seconds_of_a_turn():
    game = play(zz.Setup(ABC, "bank", 60_000, delay_ms=5_000),
                zz.Turn("Anna", 3_000), zz.Turn("Ben", 8_500), zz.Turn("Cem", 5_000))
    assert game.banks == (60_000, 56_500, 60_000)
    assert game.allowed_ms(0) == 65_000  # the bank plus the delay
    over = zz.apply(game, zz.Turn("Anna", 70_000))
    assert over.banks[0] == -5_000 and over.stats[0].over_ms == 5_000


def test_a_per_turn_limit_counts_the_time_past_it():
    game = play(zz.Setup(ABC, "limit", 30_000), zz.Turn("Anna", 45_000), zz.Turn("Ben", 12_000))
    assert [s.over_ms for s in game.stats] == [15_000, 0, 0]
    assert game.allowed_ms() == 30_000 and game.banks == (0, 0, 0)


def test_the_hourglass_runs_the_time_one_uses_over_to_the_other():
    game = play(zz.Setup(("Anna", "Ben"), "hourglass", 60_000), zz.Turn("Anna", 10_000), zz.Turn("Ben", 25_000))
    assert game.banks == (75_000, 45_000)  # Anna 60 − 10 + 25; Ben 60 + 10 − 25
    assert sum(game.banks) == 120_000
    done = zz.apply(game, zz.Turn("Anna", 75_000, auto=True))
    assert done.banks == (0, 120_000) and done.ended and done.winners == ("Ben",)
    assert done.status == (zz.OUT, zz.IN)


def test_sudden_death_puts_a_player_whose_time_runs_out_out_and_the_others_go_on():
    game = play(zz.Setup(ABC, "sudden-death", 30_000, increment_ms=1_000),
                zz.Turn("Anna", 10_000), zz.Turn("Ben", 30_000, auto=True))
    assert game.status == (zz.IN, zz.OUT, zz.IN) and game.on_turn == "Cem" and not game.ended
    assert game.banks == (21_000, 0, 30_000)  # no increment for a player who is out
    game = play(game.setup, zz.Turn("Anna", 10_000), zz.Turn("Ben", 30_000, auto=True), zz.Turn("Cem", 1_000),
                zz.Turn("Anna", 21_000, auto=True))
    assert game.ended and game.winners == ("Cem",)
    with pytest.raises(zz.ZugzeitError, match="already over"):
        zz.apply(game, zz.Turn("Cem", 1))


def test_skips_removals_and_reversal_steer_the_turn_order():
    names = ("A", "B", "C", "D", "E")
    game = play(zz.Setup(names, "limit", 60_000), zz.Skip("B"), zz.Turn("A", 1))
    assert game.on_turn == "C" and game.skipping == (False,) * 5  # B missed the turn once
    game = zz.apply(zz.apply(game, zz.Reverse()), zz.Turn("C", 1))
    assert game.on_turn == "B"
    game = zz.apply(game, zz.Remove("A"))
    game = zz.apply(game, zz.Turn("B", 1))
    assert game.on_turn == "E"  # A is gone: B → E the other way round
    game = zz.apply(game, zz.Remove("E", 2_500))  # the player on turn leaves with the unfinished turn's time
    assert game.on_turn == "D" and game.stats[4].total_ms == 2_500 and game.status[4] == zz.LEFT
    with pytest.raises(zz.ZugzeitError, match="at least 2 players"):
        zz.apply(zz.apply(game, zz.Remove("C")), zz.Remove("B"))


def test_two_players_with_one_missing_a_turn_keep_the_turn_with_the_other():
    game = play(zz.Setup(("A", "B"), "bank", 10_000), zz.Skip("B"), zz.Turn("A", 1_000))
    assert game.on_turn == "A" and game.stats[0].turns == 1


def test_eight_players_in_seat_order_and_back():
    names = tuple(f"P{i}" for i in range(1, 9))
    game = zz.new_game(zz.Setup(names, "bank", 120_000))
    order = []
    for n in range(16):
        order.append(game.on_turn)
        game = zz.apply(game, zz.Turn(game.on_turn, 1_000 * (n + 1)))
    assert order == [*names, *names]
    assert game.banks == tuple(120_000 - 1_000 * (i + 1) - 1_000 * (i + 9) for i in range(8))
    game = zz.apply(game, zz.Reverse())
    order = []
    for _ in range(8):
        order.append(game.on_turn)
        game = zz.apply(game, zz.Turn(game.on_turn, 1))
    assert order == ["P1", "P8", "P7", "P6", "P5", "P4", "P3", "P2"]


@pytest.mark.parametrize(("setup", "code"), [
    (zz.Setup(("A",), "bank", 1), "players_count"),
    (zz.Setup(tuple("ABCDEFGHI"), "bank", 1), "players_count"),
    (zz.Setup(("A", "a "), "bank", 1), "player_twice"),
    (zz.Setup(("A", "B"), "chess", 1), "mode_unknown"),
    (zz.Setup(("A", "B", "C"), "hourglass", 1), "hourglass_two"),
    (zz.Setup(("A", "B"), "bank", 0), "time_range"),
    (zz.Setup(("A", "B"), "limit", 1, over="stop"), "over_unknown"),
    (zz.Setup(("A", "B"), "bank", 1, increment_ms=1, delay_ms=1), "extra_both"),
    (zz.Setup(("A", "B"), "limit", 1, increment_ms=1), "extra_mode"),
])
def test_a_setup_the_rules_refuse(setup, code):
    with pytest.raises(zz.ZugzeitError) as info:
        zz.new_game(setup)
    assert info.value.code == code
    assert info.value.text("de") != code  # every refusal has its German text


def test_entries_out_of_turn_or_order_are_refused_with_the_reason():
    game = zz.new_game(zz.Setup(ABC, "bank", 60_000))
    refusals = {
        "not_your_turn": zz.Turn("Ben", 1),
        "unknown_player": zz.Skip("Dora"),
        "skip_current": zz.Skip("Anna"),
        "ms_negative": zz.Turn("Anna", -1),
        "remove_ms": zz.Remove("Ben", 5),
    }
    for code, event in refusals.items():
        with pytest.raises(zz.ZugzeitError) as info:
            zz.apply(game, event)
        assert info.value.code == code
    with pytest.raises(zz.ZugzeitError, match="already misses"):
        zz.apply(zz.apply(game, zz.Skip("Ben")), zz.Skip("Ben"))


@pytest.mark.slow
@given(st.lists(st.integers(0, 200_000), min_size=1, max_size=60), st.sampled_from(zz.MODES))
def test_the_statistics_add_up_to_the_turns_entered(durations, mode):
    players = ("A", "B") if mode == "hourglass" else ("A", "B", "C", "D")
    game = zz.new_game(zz.Setup(players, mode, 100_000))
    entered = []
    for ms in durations:
        if game.ended:
            break
        auto = mode in ("hourglass", "sudden-death") and ms >= game.allowed_ms()
        ms = min(ms, game.allowed_ms()) if auto else ms
        entered.append(ms)
        game = zz.apply(game, zz.Turn(game.on_turn, ms, auto))
    assert sum(s.total_ms for s in game.stats) == sum(entered)
    assert game.turns == len(entered)
    assert all(s.longest_ms <= s.total_ms for s in game.stats)
    if mode == "hourglass":
        assert sum(game.banks) == 200_000  # the sand only runs from one side to the other


def test_time_texts():
    assert [countdown_text(ms) for ms in (60_000, 59_001, 1, 0, -999, -1_000, -75_500)] == [
        "1:00", "1:00", "0:01", "+0:00", "+0:00", "+0:01", "+1:15"]
    assert [exact_text(ms) for ms in (62_450, 62_449, 0, -3_000, 600_000)] == [
        "1:02.5", "1:02.4", "0:00.0", "-0:03.0", "10:00.0"]


def record_text(*lines: dict) -> str:
    return "\n".join(dump_line(line) for line in [header_line("zugzeit"), *lines]) + "\n"


def test_wordtable_score_prints_the_statistics_of_a_turn_timer_record(tmp_path, capsys):
    path = tmp_path / "zugzeit.jsonl"
    path.write_text(record_text(
        {"event": "setup", "players": ["Anna", "Ben"], "mode": "bank", "time_ms": 60_000, "delay_ms": 2_000},
        {"event": "turn", "player": "Anna", "ms": 4_500},
        {"event": "turn", "player": "Ben", "ms": 70_000},
        {"event": "end", "ms": 1_000},
    ), encoding="utf-8")
    assert cli.main(["score", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"][0] == {"player": "Anna", "turns": 2, "total_ms": 5_500, "average_ms": 2_750,
                                  "longest_ms": 4_500, "over_ms": 0, "bank_ms": 57_500, "status": "in"}
    assert data["players"][1]["over_ms"] == 8_000 and data["players"][1]["bank_ms"] == -8_000
    assert data["total_ms"] == 75_500 and data["finished"] and data["leaders"] == data["winners"] == []
    assert cli.main(["score", str(path), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "time bank 1:00.0, 0:02.0 Bronstein delay per turn" in text
    assert "Together 1:15.5 in 3 turns" in text and "Game over" in text


def test_a_broken_turn_timer_record_is_refused_with_its_line(tmp_path, capsys):
    path = tmp_path / "zugzeit.jsonl"
    path.write_text(record_text(
        {"event": "setup", "players": ["Anna", "Ben"], "mode": "limit", "time_ms": 30_000},
        {"event": "turn", "player": "Ben", "ms": 1},
    ), encoding="utf-8")
    assert cli.main(["score", str(path)]) == 2
    assert "Zeile 3: turn: Anna ist am Zug, nicht Ben" in capsys.readouterr().err
    assert cli.main(["score", "--lang", "en", str(path)]) == 2
    assert "line 3: turn: it is Anna's turn, not Ben's" in capsys.readouterr().err


def test_the_record_codec_writes_only_what_differs_from_the_defaults():
    assert CODEC.encode(zz.Turn("Anna", 1_250)) == {"event": "turn", "player": "Anna", "ms": 1_250}
    assert CODEC.encode(zz.Turn("Anna", 1_250, auto=True))["auto"] is True
    assert CODEC.encode(zz.Reverse()) == {"event": "reverse"}
    record = parse_record(record_text({"event": "setup", "players": ["A", "B"], "mode": "hourglass",
                                       "time_ms": 5_000}, {"event": "reverse"}))
    assert RULES.replay(record).direction == -1
