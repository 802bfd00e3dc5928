"""The Quiddler deck data file and its loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.core.games.quiddler.deck import STANDARD_DECK, deck_from_table
from firmware_host.core.games.quiddler.errors import DeckError
from firmware_host.games.quiddler.data_files import DeckFileError, load_deck


def test_shipped_deck_is_the_rulebooks() -> None:
    deck = load_deck()
    assert deck == STANDARD_DECK
    assert deck.size == 118 and len(deck.specs) == 31
    # RULES.md §2, spot checks straight from the rulebook's lists
    assert [(deck.copies(f), deck.value(f)) for f in ("A", "E", "Q", "Z", "X")] == [
        (10, 2),
        (12, 2),
        (2, 15),
        (2, 14),
        (2, 12),
    ]
    assert {f: (deck.copies(f), deck.value(f)) for f in deck.multi_letter_faces} == {
        "QU": (2, 9),
        "IN": (2, 7),
        "ER": (2, 7),
        "CL": (2, 10),
        "TH": (2, 9),
    }


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[cards]\nA = { copies = 117, value = 2 }\n", "add up to 117 cards; a Quiddler deck has 118"),
        ("[cards]\n\"Ä\" = { copies = 118, value = 2 }\n", "card 'Ä': a face is one or two capital letters"),
        ("[cards]\nQUI = { copies = 118, value = 2 }\n", "card 'QUI'"),
        (
            "[cards]\nA = { copies = 118, value = 0 }\n",
            "card 'A': value must be a whole number of at least 1",
        ),
        ("[cards]\nA = { copies = 118 }\n", "card 'A': value must be"),
        ("[cards]\nA = 3\n", "card 'A': give copies and value"),
        ("A = 3\n", "missing the \\[cards\\] table"),
        ("[cards\n", "not valid TOML"),
        ("cards = " + "[" * 5000, "not valid TOML: its arrays or tables are nested too deeply"),
    ],
)
def test_broken_deck_files_name_the_file_and_the_card(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DeckFileError, match=message) as caught:
        load_deck(path)
    assert str(path) in str(caught.value)


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(DeckError) as caught:
        deck_from_table({"a": [1, 2], "B": [0, 8], "C": [2, -1]})
    assert caught.value.message.count("card ") == 3


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DeckFileError, match="cannot read"):
        load_deck(tmp_path / "nope.toml")
