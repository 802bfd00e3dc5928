"""Typed card entry: a word written as the cards it is made of (ruling Q4).

Notation: every plain letter is one single-letter card; a double-letter card is written in round
brackets. `(QU)IT` is the three cards QU·I·T (two letters on one card), `QUIT` the four cards Q·U·I·T.
Letters may be typed in either case; leading and trailing white space is ignored; nothing else is
allowed (no spaces inside, no other characters, no brackets around a single letter or a pair that is no
card of the deck). `format_cards` writes the canonical form, upper case, so
`format_cards(parse_cards(text)) == text.strip().upper()` for every text that parses.
"""

from __future__ import annotations

from collections.abc import Sequence

from .deck import Deck
from .errors import NotationError

_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def parse_cards(text: str, deck: Deck, *, allow_empty: bool = False) -> tuple[str, ...]:
    """The card faces `text` names, in order. Raises `NotationError` (and nothing else) when it cannot.

    An empty text is an error unless `allow_empty` (a hand of unused cards may be empty; a word not).
    """
    body = text.strip()
    offset = len(text) - len(text.lstrip())
    cards: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch in _ASCII_LETTERS:
            face = ch.upper()
            if not deck.has(face):
                raise NotationError("no_such_card", text, offset + i, face=face)
            cards.append(face)
            i += 1
        elif ch == "(":
            close = body.find(")", i + 1)
            if close < 0:
                raise NotationError("unclosed", text, offset + i)
            inner = body[i + 1 : close]
            if not inner or not all(c in _ASCII_LETTERS for c in inner):
                raise NotationError("bracket_one", text, offset + i)
            face = inner.upper()
            if len(face) == 1:
                raise NotationError("bracket_single", text, offset + i, face=face)
            if not deck.has(face):
                known = " ".join(f"({f})" for f in deck.multi_letter_faces)
                raise NotationError("no_such_double", text, offset + i, face=face, known=known)
            cards.append(face)
            i = close + 1
        elif ch == ")":
            raise NotationError("stray_close", text, offset + i)
        else:
            raise NotationError("not_a_letter", text, offset + i, ch=ch)
    if not cards and not allow_empty:
        raise NotationError("no_cards", text, 0)
    return tuple(cards)


def format_cards(cards: Sequence[str]) -> str:
    """The canonical notation of a card sequence: single letters bare, double-letter cards in brackets."""
    return "".join(face if len(face) == 1 else f"({face})" for face in cards)
