"""Perfect Words: hand-checked full games at 2, 3, 4, 5 and 6 players, with double, ignore, merge and
strike, and every rank boundary. Every expected number here was worked out by hand from RULES.md §3."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from firmware_host.core.games.perfect_words.rules import (
    Choose,
    Game,
    Merge,
    Reveal,
    Setup,
    Strike,
    WriteTerm,
    apply,
    new_game,
)
from firmware_host.core.games.perfect_words.scoring import score


def play(
    sheet: Sequence[Sequence[str]],
    players: Sequence[str],
    double: int,
    ignore: int,
    merges: Sequence[Merge] = (),
    strikes: Sequence[Strike] = (),
) -> Game:
    """`sheet[a]` lists the terms for arrow a+1, one per player in order."""
    game = new_game(Setup(tuple(players)))
    for arrow, terms in enumerate(sheet, start=1):
        for player, term in zip(players, terms, strict=True):
            game = apply(game, WriteTerm(player, arrow, term))
    game = apply(game, Choose(double, ignore))
    game = apply(game, Reveal())
    for event in (*merges, *strikes):
        game = apply(game, event)
    return game


TWO = ("Ana", "Bo")
TWO_SHEET = [
    ("Baum", "baum"),  # same after case-folding: 2
    ("Meer", "Meer "),  # same after trimming: 2
    ("Sonne", "Mond"),  # 0
    ("Hund", "Hund"),  # 2
    ("Katze", "Maus"),  # 0
    ("Brot", "BROT"),  # 2
    ("Auto", "Zug"),  # 0
    ("Buch", "Buch"),  # 2
    ("Haus", "Haus"),  # 2
    ("Ski", "Schnee"),  # 0
]

THREE = ("Ada", "Ben", "Cleo")
THREE_SHEET = [
    ("Apfel", "Apfel", "Birne"),  # 2 same: 1
    ("New York", "new   york", "Paris"),  # inner white space collapsed: 2 same: 1
    ("Hund", "Hunde", "Hund"),  # 2 same, merged with Hunde: 3 → 2
    ("Rot", "Blau", "Grün"),  # 0
    ("Kaffee", "Kaffee", "Kaffee"),  # 3 same: 2
    ("Tee", "Milch", "Wasser"),  # 0
    ("Sand", "Sand", "Strand"),  # 1
    ("Berg", "Tal", "Fluss"),  # 0
    ("Mond", "Mond", "Mond"),  # 2
    ("Stern", "Sterne", "Komet"),  # not merged: 0
]
THREE_MERGES = [Merge(3, ("hund", "HUNDE"))]

FOUR = ("Ada", "Ben", "Cleo", "Dan")
FOUR_SHEET = [
    ("Eis", "Eis", "Eis", "Eis"),  # 4 same: 2
    ("Zoo", "Zoo", "Zoo", "Park"),  # 3 same: 2
    ("Rad", "Rad", "Bus", "Bus"),  # two groups of 2: 1
    ("Eins", "Zwei", "Drei", "Vier"),  # 0
    ("Tor", "Tor", "Ball", "Netz"),  # 1
    ("Gold", "Gold", "Gold", "Gold"),  # 2
    ("Kuh", "Kuh", "Kuh", "Stall"),  # 2
    ("Ast", "Laub", "Wald", "Moos"),  # 0
    ("Uhr", "Zeit", "Uhr", "Wecker"),  # 1
    ("Salz", "Salz", "Salz", "Salz"),  # 2
]

FIVE = ("Ada", "Ben", "Cleo", "Dan", "Eva")
FIVE_SHEET = [
    ("Sonne", "Sonne", "Sonne", "Mond", "Stern"),  # 3 same: 1
    ("Hund", "Hund", "Hund", "Katze", "Katze"),  # largest group 3: 1
    ("Rot", "Rot", "Blau", "Blau", "Gelb"),  # 2 same is nothing at 5 players: 0
    ("Eins", "Zwei", "Drei", "Vier", "Fünf"),  # 0
    ("Kaffee", "Kaffee", "Kaffee", "Kaffee", "Tee"),  # 4 same: 2
    ("Berg", "Berg", "Tal", "See", "Fluss"),  # 0
    ("Brot", "Brot", "Brot", "Käse", "Wurst"),  # 1
    ("Auto", "Bus", "Zug", "Rad", "Boot"),  # 0
    ("Apfel", "APFEL", "apfel", "Birne", "Kirsche"),  # 1
    ("Buch", "Buch", "Heft", "Stift", "Papier"),  # 0
]

SIX = ("Ada", "Ben", "Cleo", "Dan", "Eva", "Finn")
SIX_SHEET = [
    ("Sommer",) * 6,  # 2
    ("Winter",) * 5 + ("Herbst",),  # 2
    ("Meer", "Meer", "Meer", "Meer", "See", "See"),  # 2
    ("Eis", " eis", "EIS ", "Eis", "Kalt", "Schnee"),  # 4 same: 2
    ("Hund", "Hund", "Hund", "Hunde", "Katze", "Maus"),  # 3, merged with Hunde: 4 → 2
    ("Gold",) * 6,  # 2
    ("Rot",) * 5 + ("Blau",),  # 2
    ("Baum", "Baum", "Baum", "Baum", "Wald", "Ast"),  # 2
    ("Tisch", "Tisch", "Tisch", "Stuhl", "Stuhl", "Stuhl"),  # 3: 1
    ("Käse", "Käse", "Käse", "Brot", "Wurst", "Milch"),  # 3 but Cleo's is struck: 2 → 0
]
SIX_MERGES = [Merge(5, ("Hund", "Hunde"))]
SIX_STRIKES = [Strike("Cleo", 10)]


def points(game: Game) -> list[int]:
    return [a.points for a in score(game).arrows]


def test_two_players_double_and_ignore() -> None:
    game = play(TWO_SHEET, TWO, double=4, ignore=9)
    standing = score(game)
    assert [a.same for a in standing.arrows] == [2, 2, 1, 2, 1, 2, 1, 2, 2, 1]
    assert [a.base for a in standing.arrows] == [2, 2, 0, 2, 0, 2, 0, 2, 2, 0]
    assert points(game) == [2, 2, 0, 4, 0, 2, 0, 2, 0, 0]
    assert standing.total == 12
    assert standing.rank is not None and standing.rank.name("de") == "Großartig!"
    assert standing.arrows[3].role == "double" and standing.arrows[8].role == "ignore"


def test_three_players_merge_and_whitespace() -> None:
    game = play(THREE_SHEET, THREE, double=5, ignore=9, merges=THREE_MERGES)
    assert points(game) == [1, 1, 2, 0, 4, 0, 1, 0, 0, 0]
    standing = score(game)
    assert standing.total == 9
    assert standing.rank is not None and standing.rank.name("de") == "Silber"
    merged = standing.arrows[2].groups[0]
    assert merged.terms == ("hund", "hunde") and merged.players == ("Ada", "Ben", "Cleo")


def test_three_players_without_the_merge_score_less() -> None:
    game = play(THREE_SHEET, THREE, double=5, ignore=9)
    assert points(game)[2] == 1
    assert score(game).total == 8


def test_four_players() -> None:
    game = play(FOUR_SHEET, FOUR, double=3, ignore=10)
    assert points(game) == [2, 2, 2, 0, 1, 2, 2, 0, 1, 0]
    assert score(game).total == 12


def test_five_players_need_three_the_same() -> None:
    game = play(FIVE_SHEET, FIVE, double=5, ignore=3)
    assert [a.base for a in score(game).arrows] == [1, 1, 0, 0, 2, 0, 1, 0, 1, 0]
    assert points(game) == [1, 1, 0, 0, 4, 0, 1, 0, 1, 0]
    assert score(game).total == 8


def test_six_players_merge_and_strike() -> None:
    game = play(SIX_SHEET, SIX, double=10, ignore=9, merges=SIX_MERGES, strikes=SIX_STRIKES)
    standing = score(game)
    assert [a.same for a in standing.arrows] == [6, 5, 4, 4, 4, 6, 5, 4, 3, 2]
    assert points(game) == [2, 2, 2, 2, 2, 2, 2, 2, 0, 0]
    assert standing.total == 16
    assert standing.rank is not None and standing.rank.name("en") == "Incredible!"


def test_six_players_strike_takes_the_term_out_of_its_group() -> None:
    without = play(SIX_SHEET, SIX, double=10, ignore=9, merges=SIX_MERGES)
    assert points(without)[9] == 2  # Käse ×3 doubled
    assert score(without).total == 18


SHEETS = {
    "two": (TWO_SHEET, TWO, []),
    "three": (THREE_SHEET, THREE, THREE_MERGES),
    "four": (FOUR_SHEET, FOUR, []),
    "five": (FIVE_SHEET, FIVE, []),
    "six": (SIX_SHEET, SIX, SIX_MERGES),
}


@pytest.mark.parametrize(
    ("sheet", "double", "ignore", "total", "rank_de", "rank_en"),
    [
        ("five", 3, 1, 5, None, None),
        ("five", 1, 5, 5, None, None),
        ("five", 3, 4, 6, "Bronze", "Bronze"),
        ("five", 1, 3, 7, "Bronze", "Bronze"),
        ("five", 5, 3, 8, "Silber", "Silver"),
        ("five", 3, 5, 4, None, None),
        ("three", 4, 6, 9, "Silber", "Silver"),
        ("three", 1, 4, 10, "Gold", "Gold"),
        ("two", 3, 1, 10, "Gold", "Gold"),
        ("four", 4, 1, 11, "Gold", "Gold"),
        ("four", 4, 3, 12, "Großartig!", "Amazing!"),
        ("four", 4, 8, 13, "Großartig!", "Amazing!"),
        ("four", 3, 4, 14, "Unglaublich!", "Incredible!"),
        ("two", 1, 3, 14, "Unglaublich!", "Incredible!"),
        ("four", 1, 4, 15, "Unglaublich!", "Incredible!"),
        ("six", 10, 9, 18, "Perfekte Meister!", "Perfect Masters!"),
        ("six", 1, 2, 18, "Perfekte Meister!", "Perfect Masters!"),
        ("six", 1, 9, 19, "Perfekte Meister!", "Perfect Masters!"),
        ("six", 9, 1, 17, "Perfekte Meister!", "Perfect Masters!"),
    ],
)
def test_rank_boundaries(
    sheet: str, double: int, ignore: int, total: int, rank_de: str | None, rank_en: str | None
) -> None:
    terms, players, merges = SHEETS[sheet]
    standing = score(play(terms, players, double, ignore, merges=merges))
    assert standing.total == total
    assert (standing.rank.name("de") if standing.rank else None) == rank_de
    assert (standing.rank.name("en") if standing.rank else None) == rank_en


def test_sixteen_and_seventeen_at_six_players() -> None:
    # With Cleo's Käse struck the base points are 2×8, 1, 0 (sum 17).
    struck = play(SIX_SHEET, SIX, double=10, ignore=9, merges=SIX_MERGES, strikes=SIX_STRIKES)
    assert score(struck).total == 16
    seventeen = play(SIX_SHEET, SIX, double=1, ignore=2, merges=SIX_MERGES, strikes=SIX_STRIKES)
    standing = score(seventeen)
    assert standing.total == 17
    assert standing.rank is not None and standing.rank.name("de") == "Perfekte Meister!"
