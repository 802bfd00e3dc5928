"""What a screen waiting for a typed line asks for, and the one way a typed line becomes a `TextEntry`.

A flow whose screen takes a typed line says so with `text_field(ctx)` (see `core.flow.Flow`): a
`TextField` with the prompt (the letter picker's title) and a note, the kind of text (which letters the picker
starts on, how it writes them, and how the hint words it), the longest line it takes, whether text is the
only input there (`only`: the letter picker opens by itself) and whether a scanned card is taken too.

Every typed line — from a keyboard (the driver calls `typed`), the letter picker or a script — reaches
the core as the `TextEntry` that `typed` makes: the single place where a line is cleaned before the
core sees it (here only the non-printing characters are dropped).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from firmware_host.core.events import TextEntry
from firmware_host.core.i18n import pick

Kind = Literal["name", "word", "number", "card", "cards", "text"]
KINDS: tuple[Kind, ...] = ("name", "word", "number", "card", "cards", "text")
MAX_LINE = 40  # the longest line any field takes (and the longest the OLED's entry line shows whole)
NAME_LENGTH = 12  # as in the config's [scoreboard] players

TEXT = {
    "de": {
        "how_name": "Name tippen oder MENU → Buchstaben",
        "how_word": "Tippen oder MENU → Buchstaben",
        "how_scan": "Scannen, tippen oder MENU → Buchstaben",
        "how_only": "Tippen oder Buchstaben wählen",
        "too_long": "Zu lang: {n} Zeichen, höchstens {limit}",
    },
    "en": {
        "how_name": "Type a name or MENU → letters",
        "how_word": "Type, or MENU → letters",
        "how_scan": "Scan, type, or MENU → letters",
        "how_only": "Type, or pick the letters",
        "too_long": "Too long: {n} characters, at most {limit}",
    },
}


@dataclass(frozen=True, slots=True)
class TextField:
    """A typed line a screen waits for. `label` is the prompt in the UI language ("Wort von Anna")."""

    label: str
    kind: Kind = "text"
    max_len: int = MAX_LINE
    note: str = ""  # what the picker shows above the line (e.g. "Wort mit B, max. 5")
    only: bool = False  # text is the only input here: the letter picker is open by itself
    scan: bool = False  # a scanned card is taken here as well
    message: str = dataclasses.field(default="", compare=False)  # the screen's last refusal, for the picker's footer


def typed(text: str, at: float) -> TextEntry:
    """The `TextEntry` for a typed line: non-printing characters (controls, line breaks) are dropped."""
    return TextEntry("".join(ch for ch in text if ch.isprintable()), at)


def how(lang: str, field: TextField) -> str:
    """How to enter the field, in words for a footer: keyboard, the letter picker, a scanner."""
    if field.only:
        return pick(TEXT, lang, "how_only")
    if field.scan:
        return pick(TEXT, lang, "how_scan")
    return pick(TEXT, lang, "how_name" if field.kind == "name" else "how_word")


def too_long(lang: str, field: TextField | None, text: str) -> str | None:
    """The message for a line longer than the field takes (any line when no field waits: `MAX_LINE`);
    None when it fits."""
    limit = field.max_len if field is not None else MAX_LINE
    return pick(TEXT, lang, "too_long", n=len(text), limit=limit) if len(text) > limit else None
