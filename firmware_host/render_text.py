"""Text as the panel takes it: every string made drawable, clipped with "…", and laid out in lines by phrase
(`paged`: the one layout, for a wrapped body and for the pages a long hint is shown in). Pure functions of
the text, a font (for its advances) and a width.

Any string is drawn, none raises: each text of a model is first cut to `MAX_DRAWN` characters (more never
fits a panel; a cut text ends in "…"), and every character FreeType's layout cannot take on one line
(controls, format characters, line and paragraph separators, lone surrogates) is drawn as "�". The core
refuses such text at its edge (`core.text_input`); this is the renderer's own guard.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from functools import lru_cache

from firmware_host.core.screens import KEEP, BigScreen, ListScreen, QrScreen, Screen, TurnScreen
from firmware_host.render_fonts import Font

ELLIPSIS = "…"
MAX_DRAWN = 1024  # characters of one text that are drawn at most: more than any panel shows
MAX_BIG = 160  # of a big value: at the smallest big size no panel shows more
UNDRAWABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})  # drawn as REPLACEMENT
REPLACEMENT = "\ufffd"
SEPARATOR = " · "  # between the parts of a hint ("START los · NEXT Dauer"): a page breaks there first
HYPHEN = "-"  # ends each piece of a word too wide for a line
_OWN_BREAKS = ("-", "/", ".")  # a word too wide for a line breaks after one of these first
_KEY = re.compile(r"(START|NEXT|BACK|MENU)(/(START|NEXT|BACK|MENU))*:?")  # a button, glued to what it does
_LONG_PRESS = frozenset({"lang", "hold"})  # before a button: its long press
_CLOSING = {"(": ")", "„": "“", "“": "”", "‘": "’", "'": "'", "\"": "\""}  # brackets and quotes: kept whole
_BREAK = re.compile(r"[^\S\u00a0\u2007\u202f]+")  # where a line may break: white space, but no no-break space


def drawable(text: str, limit: int = MAX_DRAWN) -> str:
    """`text` as it can be drawn on one line: at most `limit` characters (a cut text ends in "…"),
    every control, format or separator character and lone surrogate replaced by "�"."""
    return _printable(text if len(text) <= limit else text[: limit - 1] + ELLIPSIS)


@lru_cache(maxsize=1024)
def _printable(text: str) -> str:
    if text.isprintable() and text.isascii():
        return text
    return "".join(REPLACEMENT if unicodedata.category(c) in UNDRAWABLE else c for c in text)


def drawable_screen(screen: Screen) -> Screen:
    """The screen with every text `drawable`."""
    if isinstance(screen, BigScreen):
        big = drawable(screen.big, MAX_BIG)
        return replace(screen, title=drawable(screen.title), big=big, footer=drawable(screen.footer),
                       line=drawable(screen.line))
    if isinstance(screen, ListScreen):
        items = tuple(replace(i, label=drawable(i.label), value=drawable(i.value)) for i in screen.items)
        return replace(screen, title=drawable(screen.title), items=items, footer=drawable(screen.footer))
    if isinstance(screen, TurnScreen):
        return replace(screen, title=drawable(screen.title), time=drawable(screen.time, MAX_BIG),
                       footer=drawable(screen.footer), status=drawable(screen.status), then=drawable(screen.then))
    if isinstance(screen, QrScreen):
        lines = tuple(drawable(line) for line in screen.lines)
        return replace(screen, title=drawable(screen.title), big=drawable(screen.big, MAX_BIG), lines=lines,
                       footer=drawable(screen.footer))
    lines = tuple(drawable(line) for line in screen.lines)
    return replace(screen, title=drawable(screen.title), lines=lines, footer=drawable(screen.footer))


@lru_cache(maxsize=4096)
def clip(text: str, fnt: Font, width: float) -> str:
    """`text` if it fits in `width` px, else its longest prefix that fits with "…" appended ("" if none)."""
    if fnt.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)  # invariant: prefix of length lo fits (with ellipsis), hi does not
    if fnt.getlength(ELLIPSIS) > width:
        return ""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fnt.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid
    return text[:lo].rstrip() + ELLIPSIS


@lru_cache(maxsize=1024)
def paged(text: str, fnt: Font, width: float) -> tuple[str, ...]:
    """The lines `text` is laid out in, each fitting `width` px: the panel's one text layout, for a body
    wrapped to rows and for a hint shown a line (a page) at a time alike.

    A text is phrases: the parts of a hint (split at " · ") and the words joined by `KEEP` (no-break
    spaces). Lines break only at ordinary spaces: parts are joined while they fit, a part starts a line
    when it does not fit after the one before, and a part too long for a line is wrapped at its spaces, a
    short number kept with the word before it ("Spieler 3"). A word wider than the line is the only thing
    broken, and visibly: each piece but the last ends in "-". A phrase wider than a line breaks at its
    no-break spaces, as the last resort. Lines hold no `KEEP`: it is drawn as the space it is."""
    lines: list[str] = []
    for part in text.split(SEPARATOR):
        plain = part.replace(KEEP, " ")
        joined = f"{lines[-1]}{SEPARATOR}{plain}" if lines else plain
        if lines and fnt.getlength(joined) <= width:
            lines[-1] = joined
        elif fnt.getlength(plain) <= width:
            lines.append(plain)
        else:
            lines += _wrapped(part, fnt, width)
    return tuple(lines) or ("",)


def wrap(text: str, fnt: Font, width: float, max_lines: int | None = None) -> list[str]:
    """`paged` as a list; with `max_lines`, only that many lines (the rest would not be shown)."""
    lines = list(paged(text, fnt, width))
    return lines if max_lines is None else lines[:max_lines]


def _wrapped(text: str, fnt: Font, width: float) -> list[str]:
    """`text` broken into lines at its spaces, phrases (`KEEP`) whole where they fit."""
    lines: list[str] = []
    line = ""
    for unit in _bonded(_BREAK.split(text.strip()), fnt, width):
        whole = unit.replace(KEEP, " ")
        pieces = [(whole, False)] if fnt.getlength(whole) <= width else [  # its words, a word in pieces
            piece for word in unit.split(KEEP) for piece in _pieces(word, fnt, width)]
        for piece, cut in pieces:
            candidate = f"{line} {piece}" if line else piece
            if line and fnt.getlength(candidate) > width:
                lines.append(line)
                candidate = piece
            line = candidate
            if cut:  # the word goes on at the start of the next line
                lines.append(line)
                line = ""
    if line or not lines:
        lines.append(line)
    return lines


def _pieces(word: str, fnt: Font, width: float) -> list[tuple[str, bool]]:
    """`word` whole when it fits, else in pieces that fit each ending in "-" (True: it goes on on the next
    line), and the rest: broken after a hyphen, slash or dot of its own where one fits ("Anna-" "Katharina",
    "appliance." "language"), else anywhere with a hyphen added."""
    pieces: list[tuple[str, bool]] = []
    while len(word) > 1 and fnt.getlength(word) > width:
        fitting = _longest_fitting_prefix(word, fnt, width)
        own = max(word.rfind(mark, 1, fitting) for mark in _OWN_BREAKS)
        if own > 0:
            pieces.append((word[: own + 1], True))
            word = word[own + 1 :]
            continue
        cut = max(1, _longest_fitting_prefix(word[:-1], fnt, width - fnt.getlength(HYPHEN)))
        pieces.append((word[:cut] + HYPHEN, True))
        word = word[cut:]
    return [*pieces, (word, False)]


def _bonded(words: list[str], fnt: Font, width: float) -> list[str]:
    """`words` as the units a line is filled with: the phrases `_phrases` finds, and a short number joined
    to the word before it ("Spieler 3", "Runde 2") where the pair fits in `width` px, so that a line break
    never leaves the number alone on the next line."""
    bonded: list[str] = []
    for word in _phrases(words):
        if bonded and len(word) <= 3 and word.isdigit() and fnt.getlength(f"{bonded[-1]} {word}") <= width:
            bonded[-1] = f"{bonded[-1]}{KEEP}{word}"
        else:
            bonded.append(word)
    return bonded


def _phrases(words: list[str]) -> list[str]:
    """`words` joined (by `KEEP`) into the phrases the text holds without marks: a button and what it does
    ("START: weiter", "lang START: ungültig") and what stands in brackets or quotes ("(1 Minute)")."""
    phrases: list[str] = []
    glued, closing = False, ""
    for i, word in enumerate(words):
        if phrases and (glued or closing):
            phrases[-1] += KEEP + word
        else:
            phrases.append(word)
        if closing:
            closing = "" if closing in word else closing
        elif word[:1] in _CLOSING and _CLOSING[word[:1]] not in word[1:]:
            closing = _CLOSING[word[:1]]
        after = words[i + 1] if i + 1 < len(words) else ""
        glued = bool(_KEY.fullmatch(word)) or (word in _LONG_PRESS and bool(_KEY.fullmatch(after)))
    return phrases


def _longest_fitting_prefix(text: str, fnt: Font, width: float) -> int:
    lo, hi = 0, len(text)  # invariant: the prefix of length lo fits, of length hi + 1 does not (or is all)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid]) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo
