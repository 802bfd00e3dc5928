"""Builders for the Das perfekte Wort tests: small sheets and decks written for one test each."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from firmware_host.core.games.perfektes_wort.data import LetterCard, Sheet, sheet_from_mapping
from firmware_host.core.games.perfektes_wort.rules import Game, Setup, TableEvent, apply, new_game

BONUS = ("CH", "CK", "NG", "ST", "SP", "PF", "Ä", "Ö", "Ü", "ß", "Z", "W")
EMPTY_ROW = "." * 9
VOWELS_1A = {"A": 2, "E": 5, "I": 3, "O": 3, "U": 4}


def sheet(
    rows: dict[int, str] | None = None,
    arrows: Sequence[tuple[tuple[int, int], tuple[int, int]]] = (),
    bonus: Sequence[str] = BONUS,
    side: str = "test",
) -> Sheet:
    """A sheet with empty 9-cell rows except `rows` (round -> pattern)."""
    patterns = [(rows or {}).get(r, EMPTY_ROW) for r in range(1, 10)]
    return sheet_from_mapping(
        {
            "side": side,
            "rows": patterns,
            "arrows": [{"from": list(a), "to": list(b)} for a, b in arrows],
            "bonus": list(bonus),
        }
    )


def deck(rounds: Sequence[tuple[str, int]]) -> tuple[LetterCard, ...]:
    """A deck order giving round r the starting letter and maximum length rounds[r-1] (9 rounds).

    Round r shows the letter of card r+1 and the length on card r, so card r+1 = (letter of r, length of r+1).
    """
    assert len(rounds) == 9
    cards = [LetterCard("B", rounds[0][1])]
    for r in range(9):
        nxt = rounds[r + 1][1] if r + 1 < 9 else 5
        cards.append(LetterCard(rounds[r][0], nxt))
    return tuple(cards)


def play(setup: Setup, events: Iterable[TableEvent], game: Game | None = None) -> Game:
    game = game or new_game(setup)
    for number, event in enumerate(events, start=1):
        game = apply(game, event, number)
    return game


def setup(
    players: Sequence[str],
    rounds: Sequence[tuple[str, int]],
    the_sheet: Sheet | None = None,
    vowels: dict[str, int] | None = None,
) -> Setup:
    return Setup(tuple(players), the_sheet or sheet(), vowels or VOWELS_1A, deck(rounds))
