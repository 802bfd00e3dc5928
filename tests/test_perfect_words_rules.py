"""Perfect Words: the phase-1 helper, the entry checks (P2) and every refused entry, event by event."""

from __future__ import annotations

import pytest

from firmware_host.core.games.perfect_words.clues import clue_warnings, shared_letters, term_warnings
from firmware_host.core.games.perfect_words.rules import (
    Choose,
    Game,
    Merge,
    PerfectWordsError,
    PlaceArrow,
    Reveal,
    SetClues,
    Setup,
    Strike,
    WriteTerm,
    apply,
    grid_status,
    new_game,
)
from firmware_host.core.games.perfect_words.scoring import arrow_points, score

PLAYERS = ("Anna", "Ben", "Cem")


def game3() -> Game:
    return new_game(Setup(PLAYERS))


def full_grid(game: Game) -> Game:
    for arrow in range(1, 11):
        game = apply(game, PlaceArrow(arrow, f"line {arrow}", (f"Wort{arrow}a", f"Wort{arrow}b")))
    return game


def refused(game: Game, event: object, code: str) -> PerfectWordsError:
    with pytest.raises(PerfectWordsError) as info:
        apply(game, event)  # type: ignore[arg-type]
    assert info.value.code == code
    return info.value


# --- setup ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [("Anna",), ("A", "B", "C", "D", "E", "F", "G"), ()])
def test_player_count_is_two_to_six(players: tuple[str, ...]) -> None:
    with pytest.raises(PerfectWordsError) as info:
        new_game(Setup(players))
    assert info.value.code == "players_count"
    assert str(len(players)) in str(info.value)


def test_names_must_differ_and_not_be_blank() -> None:
    with pytest.raises(PerfectWordsError, match="named twice"):
        new_game(Setup(("Anna", " anna")))
    with pytest.raises(PerfectWordsError, match="empty"):
        new_game(Setup(("Anna", "  ")))


def test_player_count_table() -> None:
    assert [arrow_points(2, n) for n in (0, 1, 2)] == [0, 0, 2]
    assert [arrow_points(3, n) for n in (0, 1, 2, 3)] == [0, 0, 1, 2]
    assert [arrow_points(4, n) for n in (1, 2, 3, 4)] == [0, 1, 2, 2]
    assert [arrow_points(5, n) for n in (1, 2, 3, 4, 5)] == [0, 0, 1, 2, 2]
    assert [arrow_points(6, n) for n in (2, 3, 4, 5, 6)] == [0, 1, 2, 2, 2]


# --- phase 1 -------------------------------------------------------------------------------------------


def test_grid_complete_needs_arrow_ten_and_two_words_on_every_line() -> None:
    game = game3()
    for arrow in range(1, 10):
        game = apply(game, PlaceArrow(arrow, f"row {arrow}", ("Dschungel", "Piraten")))
    assert not grid_status(game).complete
    assert grid_status(game).placed == 9
    game = apply(game, PlaceArrow(10, "column 1", ("Käse",)))
    status = grid_status(game)
    assert (status.placed, status.short, status.complete) == (10, (10,), False)
    game = apply(game, SetClues(10, ("Käse", "Maus")))
    assert grid_status(game).complete
    assert game.clues(10) == ("Käse", "Maus")


def test_arrows_are_placed_in_order_on_distinct_lines() -> None:
    game = apply(game3(), PlaceArrow(1, "row 1", ("A", "B")))
    error = refused(game, PlaceArrow(3, "row 3"), "arrow_order")
    assert "arrow 2" in str(error)
    refused(game, PlaceArrow(2, " ROW 1 "), "line_taken")
    refused(game, PlaceArrow(11, "row 9"), "arrow_range")
    refused(game, SetClues(2, ("A", "B")), "arrow_not_placed")
    refused(full_grid(game3()), PlaceArrow(10, "row 10"), "arrows_all_placed")


def test_an_incomplete_recorded_grid_blocks_phase_two() -> None:
    game = apply(game3(), PlaceArrow(1, "row 1", ("A", "B")))
    error = refused(game, WriteTerm("Anna", 1, "Baum"), "grid_incomplete")
    assert "1 of 10" in str(error)
    refused(game, Choose(1, 2), "grid_incomplete")


def test_phase_one_is_over_once_terms_are_written() -> None:
    game = apply(full_grid(game3()), WriteTerm("Anna", 1, "Baum"))
    refused(game, SetClues(1, ("X", "Y")), "phase1_over")


def test_phase_two_without_a_recorded_grid() -> None:
    game = apply(game3(), WriteTerm("Anna", 1, "Baum"))
    assert game.term("Anna", 1) is not None
    assert grid_status(game).placed == 0


# --- entry checks (P2) ---------------------------------------------------------------------------------


def test_a_players_repeated_term_is_rejected() -> None:
    game = apply(game3(), WriteTerm("Anna", 4, "Baum"))
    error = refused(game, WriteTerm("Anna", 6, "  BAUM "), "term_repeated")
    assert "arrow 4" in str(error)
    assert "Pfeil 4" in error.text("de")
    # another player may write it, and Anna may write a different term
    game = apply(game, WriteTerm("Ben", 6, "Baum"))
    game = apply(game, WriteTerm("Anna", 6, "Bäume"))
    assert len(game.terms) == 3


def test_one_term_per_player_and_arrow() -> None:
    game = apply(game3(), WriteTerm("Anna", 1, "Baum"))
    refused(game, WriteTerm("anna", 1, "Wald"), "term_twice_arrow")
    refused(game, WriteTerm("Anna", 2, "   "), "term_blank")
    refused(game, WriteTerm("Zoe", 2, "Wald"), "unknown_player")
    refused(game, WriteTerm("Ben", 0, "Wald"), "arrow_range")


@pytest.mark.parametrize(
    ("term", "clue", "shared"),
    [
        ("Das Dschungelbuch", "Dschungel", "dschungel"),  # the rulebook's examples
        ("Piraterie", "Piraten", "pirate"),
        ("Mausefalle", "Maus", "maus"),
        ("STRAND", "Strandkorb", "strand"),
    ],
)
def test_a_term_sharing_four_letters_with_a_clue_is_flagged(term: str, clue: str, shared: str) -> None:
    game = apply(game3(), PlaceArrow(1, "row 1", (clue, "Wüste")))
    for arrow in range(2, 11):
        game = apply(game, PlaceArrow(arrow, f"row {arrow}", ("X", "Y")))
    assert [w.shared for w in term_warnings(game, "Anna", 1, term)] == [shared]
    game = apply(game, WriteTerm("Anna", 1, term))  # a warning, not a rejection
    (warning,) = clue_warnings(game)
    assert (warning.player, warning.arrow, warning.clue, warning.shared) == ("Anna", 1, clue, shared)


@pytest.mark.parametrize(
    ("term", "clue"),
    [("Haifisch", "Hai"), ("Wal", "Walross"), ("See Hund", "Seehase"), ("Mond", "Sonne")],
)
def test_three_shared_letters_or_split_words_are_not_flagged(term: str, clue: str) -> None:
    assert len(shared_letters(term, clue)) < 4


def test_the_table_strikes_a_flagged_term() -> None:
    game = play_small()
    game = apply(game, Strike("Anna", 1))
    assert score(game).arrows[0].same == 1
    refused(game, Strike("Anna", 1), "struck_already")
    refused(game, Strike("Ben", 9), "strike_missing")


# --- choice, reveal, merges ----------------------------------------------------------------------------


def play_small() -> Game:
    game = game3()
    for player, term in zip(PLAYERS, ("Hund", "hund", "Hunde"), strict=True):
        game = apply(game, WriteTerm(player, 1, term))
    game = apply(game, Choose(double=1, ignore=2))
    return apply(game, Reveal())


def test_double_and_ignore_are_distinct_and_chosen_once_before_the_reveal() -> None:
    game = game3()
    refused(game, Choose(3, 3), "choose_same")
    refused(game, Choose(3, 11), "arrow_range")
    refused(game, Reveal(), "reveal_unchosen")
    chosen = apply(game, Choose(3, 4))
    refused(chosen, Choose(5, 6), "chosen_already")
    revealed = apply(chosen, Reveal())
    refused(revealed, Choose(5, 6), "choose_after_reveal")
    refused(revealed, Reveal(), "revealed_already")


def test_terms_may_be_entered_after_the_reveal() -> None:
    game = apply(apply(game3(), Choose(1, 2)), Reveal())
    game = apply(game, WriteTerm("Cem", 5, "Regen"))
    assert game.term("Cem", 5) is not None


def test_merging_groups() -> None:
    game = play_small()
    assert score(game).arrows[0].points == 2  # Hund ×2 → 1, doubled
    merged = apply(game, Merge(1, ("HUND", "hunde")))
    assert score(merged).arrows[0].points == 4  # 3 the same → 2, doubled
    refused(game, Merge(1, ("Hund", " hund")), "merge_few")
    refused(game, Merge(1, ("Hund", "Katze")), "merge_unknown")
    refused(apply(game3(), Choose(1, 2)), Merge(1, ("a", "b")), "merge_before_reveal")


def test_score_before_the_choice_counts_every_arrow_once() -> None:
    game = game3()
    for player in ("Anna", "Ben"):
        game = apply(game, WriteTerm(player, 1, "Hund"))
    standing = score(game)
    assert not standing.chosen
    assert standing.total == 1
    assert standing.rank is None


def test_refused_entries_leave_the_game_unchanged() -> None:
    game = apply(game3(), WriteTerm("Anna", 1, "Baum"))
    before = game
    with pytest.raises(PerfectWordsError):
        apply(game, WriteTerm("Anna", 2, "baum"))
    assert game == before


def test_errors_are_explained_in_german_and_english() -> None:
    error = refused(game3(), Choose(3, 3), "choose_same")
    assert error.text("de") == "der verdoppelte und der ignorierte Pfeil müssen verschieden sein (beide 3)"
    assert error.text("en") == "the doubled and the ignored arrow must be different (both are 3)"
    assert str(error) == error.text("en")
