"""Text as the panel takes it: every string made drawable, clipped with "…", wrapped at spaces, and cut into
the pages a long hint is shown in. Pure functions of the text, a font (for its advances) and a width.

Any string is drawn, none raises: each text of a model is first cut to `MAX_DRAWN` characters (more never
fits a panel; a cut text ends in "…"), and every character FreeType's layout cannot take on one line
(controls, format characters, line and paragraph separators, lone surrogates) is drawn as "�". The core
refuses such text at its edge (`core.text_input`); this is the renderer's own guard.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from functools import lru_cache

from firmware_host.core.screens import BigScreen, ListScreen, QrScreen, Screen, TurnScreen
from firmware_host.render_fonts import Font

ELLIPSIS = "…"
MAX_DRAWN = 1024  # characters of one text that are drawn at most: more than any panel shows
MAX_BIG = 160  # of a big value: at the smallest big size no panel shows more
UNDRAWABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})  # drawn as REPLACEMENT
REPLACEMENT = "\ufffd"
SEPARATOR = " · "  # between the parts of a hint ("START los · NEXT Dauer"): a page breaks there first


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
        return replace(screen, title=drawable(screen.title), big=big, footer=drawable(screen.footer))
    if isinstance(screen, ListScreen):
        items = tuple(replace(i, label=drawable(i.label), value=drawable(i.value)) for i in screen.items)
        return replace(screen, title=drawable(screen.title), items=items, footer=drawable(screen.footer))
    if isinstance(screen, TurnScreen):
        return replace(screen, title=drawable(screen.title), time=drawable(screen.time, MAX_BIG),
                       footer=drawable(screen.footer), status=drawable(screen.status))
    if isinstance(screen, QrScreen):
        lines = tuple(drawable(line) for line in screen.lines)
        return replace(screen, title=drawable(screen.title), big=drawable(screen.big, MAX_BIG), lines=lines,
                       footer=drawable(screen.footer))
    lines = tuple(drawable(line) for line in screen.lines)
    return replace(screen, title=drawable(screen.title), lines=lines, footer=drawable(screen.footer))


@lru_cache(maxsize=1024)
def paged(text: str, fnt: Font, width: float) -> tuple[str, ...]:
    """The pages `text` is shown in, each fitting `width` px: whole hint parts (split at " · ") joined while
    they fit, a part too long for a page wrapped at spaces (a word too long cut into pieces)."""
    pages: list[str] = []
    for part in text.split(SEPARATOR):
        joined = f"{pages[-1]}{SEPARATOR}{part}" if pages else part
        if pages and fnt.getlength(joined) <= width:
            pages[-1] = joined
        elif fnt.getlength(part) <= width:
            pages.append(part)
        else:
            pages += wrap(part, fnt, width)
    return tuple(pages) or ("",)


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


def wrap(text: str, fnt: Font, width: float, max_lines: int | None = None) -> list[str]:
    """Break `text` into lines no wider than `width` px, at spaces; a word too long is cut into pieces.
    With `max_lines`, stops once that many lines are full (the rest would not be shown)."""
    lines: list[str] = []
    line = ""
    for word in _bonded(text.split(), fnt, width):
        if max_lines is not None and len(lines) >= max_lines:
            return lines[:max_lines]
        candidate = f"{line} {word}" if line else word
        if fnt.getlength(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        while len(word) > 1 and fnt.getlength(word) > width:
            if max_lines is not None and len(lines) >= max_lines:
                return lines[:max_lines]
            cut = max(1, _longest_fitting_prefix(word, fnt, width))
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


def _bonded(words: list[str], fnt: Font, width: float) -> list[str]:
    """`words` with a short number joined to the word before it ("Spieler 3", "Runde 2") where the pair
    fits in `width` px: a line break never leaves the number alone on the next line."""
    bonded: list[str] = []
    for word in words:
        if bonded and len(word) <= 3 and word.isdigit() and fnt.getlength(f"{bonded[-1]} {word}") <= width:
            bonded[-1] = f"{bonded[-1]} {word}"
        else:
            bonded.append(word)
    return bonded


def _longest_fitting_prefix(text: str, fnt: Font, width: float) -> int:
    lo, hi = 0, len(text)  # invariant: the prefix of length lo fits, of length hi + 1 does not (or is all)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid]) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo
