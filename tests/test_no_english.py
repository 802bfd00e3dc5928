"""No English on a German box: every screen the documented scripts reach (German is the default) holds
no word that only the English catalogues use."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Mapping

import pytest

import firmware_host.core
from firmware_host.core.screens import describe
from tests.script_screens import ALL_SCRIPTS, every_screen

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
FIELD = re.compile(r"\{[^}]*\}")


def catalogues() -> list[Mapping[str, Mapping[str, str]]]:
    """Every text table of the core: a module-level mapping with "de" and "en" tables of texts."""
    found = []
    for info in pkgutil.walk_packages(firmware_host.core.__path__, "firmware_host.core."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Mapping) and {"de", "en"} <= set(value) and all(
                isinstance(value[lang], Mapping) for lang in ("de", "en")
            ):
                found.append(value)
    return found


def words(texts, *, played: bool = True) -> set[str]:
    """The words of `texts`, case folded; `played=False` leaves out words in capitals (the words and cards
    the players lay, in whatever language the game is played)."""
    return {w.casefold() for text in texts if isinstance(text, str) for w in WORD.findall(FIELD.sub(" ", text))
            if played or not w.isupper()}


def english_only() -> set[str]:
    tables = catalogues()
    english = words(t for table in tables for t in table["en"].values())
    german = words(t for table in tables for t in table["de"].values())
    return english - german


def test_the_catalogues_are_found_and_differ():
    only = english_only()
    assert len(catalogues()) >= 10 and {"players", "round", "cannot"} <= only


@pytest.mark.parametrize("script", ALL_SCRIPTS)
def test_no_english_word_on_a_german_screen(script):
    only = english_only()
    found = {}
    for line, screen in every_screen(script):
        english = words([describe(screen)], played=False) & only
        if english:
            found[line] = (sorted(english), describe(screen))
    assert not found, found


def test_no_english_word_in_a_deck_or_card_error_told_a_german_table():
    """The problems of a deck (a Quiddler record's own deck, Das perfekte Wort's letter cards) come from the
    catalogues: `wordtable score` (German by default) and the OLED say them in German."""
    from firmware_host.core.games.perfektes_wort.data import card_from_code, deck_from_codes
    from firmware_host.core.games.perfektes_wort.errors import DataError
    from firmware_host.core.games.quiddler.deck import deck_from_table
    from firmware_host.core.games.quiddler.errors import DeckError

    errors = []
    for build in (
        lambda: deck_from_table({"a": [1, 2], "B": [0, 8], "C": [2, "x"], "D": "x"}),
        lambda: deck_from_table({"A": [3, 2]}),
        lambda: card_from_code("F17", ""),
        lambda: card_from_code("P", ""),
        lambda: deck_from_codes(["F8"], ""),
    ):
        with pytest.raises((DeckError, DataError)) as caught:
            build()
        errors.append(caught.value)
    only = english_only()
    for error in errors:
        german, english = error.text("de"), error.text("en")
        assert german != english and not words([german], played=False) & only, german
