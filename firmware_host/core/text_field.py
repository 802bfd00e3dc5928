"""What a screen waiting for a typed line asks for, and the one way a typed line becomes a `TextEntry`.

A flow whose screen takes a typed line says so with `text_field(ctx)` (see `core.flow.Flow`): a
`TextField` with the prompt (the letter picker's title) and a note, the kind of text (which letters the
picker offers and how it writes them), the longest line it takes, whether text is the only input there
(`only`: the letter picker opens by itself). The screen's own hint says how to enter it (keyboard,
"MENU" for the picker, a scanner where cards are taken).

Every typed line — from a keyboard (the driver calls `typed`), the letter picker, the simulator's
terminal or a script — reaches the core as the `TextEntry` that `typed` makes: normalised at the edge by
`text_input.at_edge` (or cut so that the core refuses it with the reason). A field's `max_len` is a
`text_input` bound (a name's `NAME`, else `LINE`); `too_long` words it while a line is still being typed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from firmware_host.core.events import TextEntry
from firmware_host.core.i18n import pick
from firmware_host.core.text_input import LINE, at_edge

Kind = Literal["name", "word", "number", "card", "cards", "text"]
KINDS: tuple[Kind, ...] = ("name", "word", "number", "card", "cards", "text")

TEXT = {
    "de": {"too_long": "Zu lang: {n} Zeichen, höchstens {limit}"},
    "en": {"too_long": "Too long: {n} characters, at most {limit}"},
}


@dataclass(frozen=True, slots=True)
class TextField:
    """A typed line a screen waits for. `label` is the prompt in the UI language ("Wort von Anna")."""

    label: str
    kind: Kind = "text"
    max_len: int = LINE.limit
    note: str = ""  # what the picker shows above the line (e.g. "Wort mit B, max. 5")
    only: bool = False  # text is the only input here: the letter picker is open by itself
    message: str = dataclasses.field(default="", compare=False)  # the screen's last refusal, for the picker's footer


def typed(text: str, at: float) -> TextEntry:
    """The `TextEntry` for a typed line, normalised at the edge (`text_input.at_edge`)."""
    return TextEntry(at_edge(text, LINE), at)


def too_long(lang: str, field: TextField | None, text: str) -> str | None:
    """The message for a line longer than the field takes (any line when no field waits: `LINE`); None
    when it fits."""
    limit = field.max_len if field is not None else LINE.limit
    return pick(TEXT, lang, "too_long", n=len(text), limit=limit) if len(text) > limit else None
