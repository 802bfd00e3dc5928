"""Whole games on the shipped default data, for 1, 2, 4 and 6 players on both sheet sides.

Every expected number below was worked out by hand from the default sheets (firmware_host/data/
perfektes_wort/*.toml) and the deck in its shipped order, which gives the rounds
D5 F6 G7 H8 K9 L5 M6 N7 P8 (letter of card r+1, length of card r).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from firmware_host.core.games.perfektes_wort.fields import Mark
from firmware_host.core.games.perfektes_wort.rules import (
    Game,
    Reveal,
    Setup,
    Shorten,
    SoloStrike,
    Strike,
    TableEvent,
    Word,
    apply,
    new_game,
)
from firmware_host.core.games.perfektes_wort.scoring import Result, score
from firmware_host.games.perfektes_wort.data_files import load_game_data

DATA = load_game_data()
Entry = str | tuple[str, ...]  # a word, or a word followed by what the table did: ("LUSTIG", "shorten LUST")


def play(
    side: str,
    face: str,
    players: Sequence[str],
    rows: Sequence[Sequence[Entry]],
    solo_strikes: Sequence[str] = (),
) -> Result:
    """Play 9 rounds: rows[r][i] is player i's entry in round r+1 ("" = no word, None-like)."""
    game: Game = new_game(Setup(tuple(players), DATA.sheets[side], DATA.face(face).values, DATA.deck))
    for r, entries in enumerate(rows, start=1):
        events: list[TableEvent] = [Reveal(r)]
        for player, entry in zip(players, entries, strict=True):
            word, *steps = (entry,) if isinstance(entry, str) else entry
            if word == "-":
                continue
            events.append(Word(r, player, word))
            for step in steps:
                if step == "strike":
                    events.append(Strike(r, player))
                else:
                    events.append(Shorten(r, player, step.removeprefix("shorten ")))
        if r <= len(solo_strikes) and solo_strikes[r - 1]:
            events.append(SoloStrike(r, players[0], solo_strikes[r - 1]))
        for event in events:
            game = apply(game, event)
    return score(game)


def summary(result: Result) -> dict[str, tuple[list[int], int, int, int, int, int]]:
    return {
        p.name: ([r.points for r in p.rows], p.word_points, p.vowels.points, p.bonus_points, p.total, p.rank)
        for p in result.players
    }


def circled(result: Result, name: str) -> list[str]:
    player = next(p for p in result.players if p.name == name)
    return sorted(f.field for f in player.fields if f.mark is Mark.CIRCLED)


def test_round_cards_of_the_shipped_deck() -> None:
    game = new_game(Setup(("A",), DATA.sheets["profi"], DATA.face("1a").values, DATA.deck))
    assert [(game.letter(r), game.max_length(r)) for r in range(1, 10)] == [
        ("D", 5),
        ("F", 6),
        ("G", 7),
        ("H", 8),
        ("K", 9),
        ("L", 5),
        ("M", 6),
        ("N", 7),
        ("P", 8),
    ]


def test_solo_grundversion() -> None:
    words = ["DACHS", "FLUSS", "GURKE", "HUNGRIG", "KÄSE", "LISTE", "MÜCKE", "NEBEL", "PAPIER"]
    # after round 7 every field is circled or struck, so no further strike is due
    result = play("grundversion", "1a", ["Mia"], [[w] for w in words], ["Z", "W", "PF", "SP", "Ö", "ß"])
    assert summary(result) == {"Mia": ([15, 5, 10, 5, 5, 10, 5, 10, 5], 70, 60, 30, 160, 1)}
    assert circled(result, "Mia") == ["CH", "CK", "NG", "ST", "Ä", "Ü"]
    assert result.solo and result.winners == ("Mia",)


def test_solo_profi_with_arrow_hits() -> None:
    words = ["DEICH", "FRAUEN", "GERUCH", "HEIZUNG", "KONTUR", "LINSE", "MÖBEL", "NÖTIG", "PILGER"]
    result = play("profi", "2b", ["Tom"], [[w] for w in words], ["X", "Y", "QU", "ß", "Ä", "Ö", "CK", "TZ"])
    assert summary(result) == {"Tom": ([10, 10, 10, 5, 10, 15, 5, 10, 5], 80, 60, 10, 150, 1)}
    rows = result.players[0].rows
    assert [(str(a.source), str(a.target), a.letter) for r in rows for a in r.arrow_hits] == [
        ("2/4", "3/4", "U"),
        ("4/5", "5/5", "U"),
        ("5/3", "6/3", "N"),
        ("7/2", "8/2", "Ö"),
    ]
    assert circled(result, "Tom") == ["CH", "NG"]  # MÖBEL came after Ö was struck


TWO_ROWS: list[list[Entry]] = [
    ["DEICH", "DACH"],
    ["FRAUEN", "FÜNF"],
    ["GERUCH", "GIFT"],
    ["HEIZUNG", "HUNGER"],
    ["KONTUR", "KRONE"],
    ["LINSE", "LOTSE"],
    ["MÖBEL", "MUTIG"],
    ["NÖTIG", "NUTZEN"],
    ["PILGER", "PRÜFEN"],
]


def test_two_players_profi() -> None:
    result = play("profi", "1a", ["Ada", "Ben"], TWO_ROWS)
    assert summary(result) == {
        "Ada": ([10, 10, 10, 5, 10, 15, 5, 10, 5], 80, 71, 15, 166, 1),
        "Ben": ([5, 5, 5, 5, 10, 10, 5, 10, 10], 65, 51, 20, 136, 2),  # E 5×5 (NUTZEN has one E)
    }
    assert circled(result, "Ada") == ["CH", "NG", "Ö"]
    assert circled(result, "Ben") == ["CH", "NG", "TZ", "Ü"]


FOUR_ROWS: list[list[Entry]] = [
    ["DAME", "DORF", "DRAHT", "-"],
    ["FISCH", "FLECK", "FACH", "FEST"],
    ["GANZ", "GURT", "GÄNSE", "GELB"],
    ["HUND", "HÖHLE", "", "HOSE"],
    ["KISTE", "KÜSSEN", "KNIE", "KÜHL"],
    ["LAMPE", "LACHS", ("LEHRER", "strike"), "LÖWE"],
    ["MOND", "MAUS", "MILCH", "MOTTE"],
    ["NEST", "NEBEL", "NASS", "NAPF"],
    ["PILZ", "PRINZ", "PUPPE", "PFERD"],
]


def test_four_players_grundversion() -> None:
    result = play("grundversion", "2b", ["Ada", "Ben", "Cem", "Dora"], FOUR_ROWS)
    assert summary(result) == {
        "Ada": ([10, 5, 5, 5, 10, 10, 10, 5, 5], 65, 44, 10, 119, 2),
        "Ben": ([5, 10, 10, 5, 5, 10, 5, 10, 10], 70, 37, 15, 122, 1),
        "Cem": ([10, 5, 5, 0, 5, 0, 5, 5, 5], 40, 35, 10, 85, 4),
        "Dora": ([0, 5, 5, 5, 5, 5, 10, 5, 5], 45, 27, 20, 92, 3),
    }
    assert circled(result, "Dora") == ["PF", "ST", "W", "Ü"]
    assert circled(result, "Cem") == ["CH", "Ä"]
    assert result.winners == ("Ben",)


SIX_ROWS: list[list[Entry]] = [
    ["DACH", "DICH", "DOCH", "DUNST", "DEKO", "-"],
    ["FAX", "FUß", "FELS", "FROSCH", "FALTE", "FAUL"],
    ["GAS", "GOLF", "GRAS", "GAST", "GELD", "GURKE"],
    ["HEXE", "HERZ", "HAUS", "HAFEN", "HOBBY", "HEFE"],
    ["KLEE", "KNIE", "KATZE", "KANNE", "KATZE", "KRANZ"],
    ["LUPE", ("LUSTIG", "shorten LUST"), "LATTE", "LINDE", "LATTE", "-"],
    ["MÖWE", "MUT", "MEER", "MÜDE", "-", "MONAT"],
    ["NÖTIG", "NUSS", "NEBEL", "NEU", "NACHT", "NOTIZ"],
    ["PAKET", "PUNKT", "PUDEL", "PILZ", "PRINZ", "PREIS"],
]


def test_six_players_profi() -> None:
    result = play("profi", "1a", ["Ada", "Ben", "Cem", "Dora", "Eli", "Fee"], SIX_ROWS)
    assert summary(result) == {
        "Ada": ([5, 10, 5, 5, 5, 10, 5, 10, 5], 60, 50, 15, 125, 2),
        "Ben": ([5, 5, 5, 5, 5, 10, 5, 10, 5], 55, 39, 10, 104, 5),
        "Cem": ([5, 5, 10, 5, 5, 15, 5, 10, 10], 70, 59, 10, 139, 1),
        "Dora": ([10, 10, 5, 5, 5, 15, 5, 5, 5], 65, 48, 10, 123, 3),
        "Eli": ([5, 10, 5, 5, 5, 15, 0, 5, 10], 60, 42, 10, 112, 4),
        "Fee": ([0, 10, 5, 5, 5, 0, 5, 10, 5], 45, 46, 0, 91, 6),
    }
    ch = {p.name: next(f for f in p.fields if f.field == "CH") for p in result.players}
    assert {n: (m.mark, m.round) for n, m in ch.items() if m.mark is Mark.CIRCLED} == {
        "Ada": (Mark.CIRCLED, 1),
        "Ben": (Mark.CIRCLED, 1),
        "Cem": (Mark.CIRCLED, 1),
    }
    assert ch["Fee"].by == ("Ada", "Ben", "Cem")
    assert circled(result, "Eli") == ["TZ", "Y"]


def test_two_players_grundversion() -> None:
    result = play("grundversion", "1a", ["Ada", "Ben"], TWO_ROWS)
    assert summary(result) == {
        "Ada": ([10, 10, 5, 5, 5, 10, 5, 5, 5], 60, 71, 20, 151, 1),
        "Ben": ([10, 5, 5, 5, 5, 10, 5, 5, 10], 60, 51, 15, 126, 2),
    }
    assert circled(result, "Ada") == ["CH", "NG", "Z", "Ö"]  # HEIZUNG: Z and NG at once
    assert circled(result, "Ben") == ["CH", "NG", "Ü"]  # NUTZEN's Z came after Ben had to strike it


def test_four_players_profi() -> None:
    result = play("profi", "2b", ["Ada", "Ben", "Cem", "Dora"], FOUR_ROWS)
    assert summary(result) == {
        "Ada": ([10, 5, 5, 5, 5, 10, 5, 5, 5], 55, 44, 5, 104, 2),
        "Ben": ([5, 5, 5, 5, 10, 10, 5, 5, 10], 60, 37, 15, 112, 1),
        "Cem": ([10, 10, 5, 0, 5, 0, 5, 5, 5], 45, 35, 10, 90, 3),
        "Dora": ([0, 5, 5, 5, 5, 5, 5, 5, 5], 40, 27, 10, 77, 4),
    }
    ben = result.players[1]
    assert [(str(a.source), str(a.target)) for r in ben.rows for a in r.arrow_hits] == [("4/5", "5/5")]


def test_six_players_grundversion() -> None:
    result = play("grundversion", "1a", ["Ada", "Ben", "Cem", "Dora", "Eli", "Fee"], SIX_ROWS)
    assert summary(result) == {
        "Ada": ([10, 5, 5, 5, 5, 5, 5, 5, 5], 50, 50, 15, 115, 3),
        "Ben": ([5, 5, 5, 5, 5, 5, 5, 5, 5], 45, 39, 15, 99, 4),
        "Cem": ([5, 5, 5, 5, 5, 10, 5, 10, 5], 55, 59, 5, 119, 1),
        "Dora": ([10, 10, 5, 5, 5, 10, 5, 5, 5], 60, 48, 10, 118, 2),
        "Eli": ([5, 5, 5, 5, 5, 10, 0, 5, 10], 50, 42, 0, 92, 6),
        "Fee": ([0, 5, 10, 5, 5, 0, 10, 5, 10], 50, 46, 0, 96, 5),
    }
    assert circled(result, "Ada") == ["CH", "W", "Ö"]
    assert circled(result, "Ben") == ["CH", "Z", "ß"]


@pytest.mark.parametrize("side", ["grundversion", "profi"])
def test_tie_on_total_goes_to_vowel_points_then_is_shared(side: str) -> None:
    rows = [["DUDU", "DUDU", "DRDR"]] + [["-", "-", "-"]] * 8
    result = play(side, "1a", ["A", "B", "C"], rows)
    # DUDU: 5 word points (no grey letter in its cells on either side), 8 vowel points, no field
    assert [(p.total, p.rank, p.winner) for p in result.players] == [
        (13, 1, True),
        (13, 1, True),
        (5, 3, False),
    ]
    assert result.shared and result.winners == ("A", "B")
