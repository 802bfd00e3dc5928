"""Loading the Quiddler deck from its data file (`firmware_host/data/quiddler/cards.toml`).

The file holds a `[cards]` table, one entry per card face: `QU = { copies = 2, value = 9 }`.
Validation is the core's (`deck_from_table`); this module adds the reading and names the file in errors.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from firmware_host.core.games.quiddler.deck import Deck, deck_from_table
from firmware_host.core.games.quiddler.errors import DeckError

DEFAULT_CARDS = Path(__file__).parents[2] / "data" / "quiddler" / "cards.toml"


class DeckFileError(Exception):
    """A deck file that cannot be read or is not a valid Quiddler deck; the message names the file."""


def load_deck(path: Path = DEFAULT_CARDS) -> Deck:
    """Read and validate a deck file. Raises `DeckFileError` with the file name and every problem."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DeckFileError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DeckFileError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise DeckFileError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise DeckFileError(f"{path}: not valid TOML: its arrays or tables are nested too deeply") from None
    cards = data.get("cards")
    if not isinstance(cards, dict):
        raise DeckFileError(f"{path}: missing the [cards] table (face = {{ copies = N, value = V }})")
    try:
        return deck_from_table(cards)
    except DeckError as exc:
        raise DeckFileError(f"{path}: [cards]: {exc.message}") from None
