"""Screen models: what the display shows, as plain values. `firmware_host.render` draws them.

Five layouts serve every mode: a big centred value (the timer), a list with a cursor and right-aligned
values (menus, scoreboards), a message (text lines), a turn clock (the player on turn and their time), and
a QR code beside text (the table page's join address). Texts are already in the UI language.

Every text is phrases the renderer keeps whole on a line: the parts of a hint ("START los · NEXT Dauer",
split at " · ") and words joined by `KEEP` (`phrase`: a name and its points, a label and its value). A
line breaks only at an ordinary space.
"""

from __future__ import annotations

from dataclasses import dataclass

KEEP = "\u00a0"  # a no-break space: joins the words of a phrase, drawn as a space


def phrase(*words: str) -> str:
    """`words` as one phrase: no line break between them."""
    return KEEP.join(" ".join(words).split(" "))


@dataclass(frozen=True, slots=True)
class BigScreen:
    """A title line, one big value across the panel (e.g. "0:42", "Zeit!"), `line` below it in the body's
    face (what just happened, when the table must read it: "Anna +14 → 30"), and a footer line."""

    title: str
    big: str
    footer: str = ""
    inverted: bool = False  # flash: white background, for the alarm
    line: str = ""


@dataclass(frozen=True, slots=True)
class ListItem:
    label: str
    value: str = ""
    marked: bool = False  # shown with a marker (e.g. the player whose turn it is, a chosen option)


@dataclass(frozen=True, slots=True)
class ListScreen:
    """A title, items (label left, value right) and the cursor's index (None: no cursor).

    The renderer shows as many rows as the panel holds, paging so the cursor is visible; a wide panel
    shows two columns.
    """

    title: str
    items: tuple[ListItem, ...]
    cursor: int | None = 0
    footer: str = ""


@dataclass(frozen=True, slots=True)
class MessageScreen:
    """A title and text lines, wrapped to the panel width by the renderer."""

    title: str
    lines: tuple[str, ...]
    footer: str = ""


@dataclass(frozen=True, slots=True)
class TurnScreen:
    """A turn clock: the player on turn (`title`, large, with a small `status` beside), their time (big),
    `then` below it in the body's face (who is next and their time) and the footer (a hint or a notice)."""

    title: str
    time: str
    footer: str = ""
    status: str = ""
    inverted: bool = False  # flash: white background (the player's time has run out)
    then: str = ""


@dataclass(frozen=True, slots=True)
class QrScreen:
    """A QR code of `data` (left, as large as the panel's height allows) beside a title, a big value and
    text lines (right): the table page's join address, its table code, the host."""

    title: str
    data: str
    big: str
    lines: tuple[str, ...] = ()
    footer: str = ""


Screen = BigScreen | ListScreen | MessageScreen | TurnScreen | QrScreen


def describe(screen: Screen) -> str:
    """The screen as one line of text (for logs, scripts and tests): its parts joined by " | " in the order
    they are drawn, the footer last."""
    if isinstance(screen, BigScreen):
        parts = [screen.title, screen.big + (" (inverted)" if screen.inverted else ""), screen.line, screen.footer]
    elif isinstance(screen, ListScreen):
        items = [
            ("> " if i == screen.cursor else "") + ("* " if item.marked else "") + item.label
            + (f" {item.value}" if item.value else "")
            for i, item in enumerate(screen.items)
        ]
        parts = [screen.title, "; ".join(items), screen.footer]
    elif isinstance(screen, TurnScreen):
        player = screen.title + (f" ({screen.status})" if screen.status else "")
        parts = [player, screen.time + (" (inverted)" if screen.inverted else ""), screen.then, screen.footer]
    elif isinstance(screen, QrScreen):
        parts = [screen.title, f"[QR {screen.data}]", screen.big, " / ".join(screen.lines), screen.footer]
    else:
        parts = [screen.title, " / ".join(screen.lines), screen.footer]
    return " | ".join(part for part in parts if part).replace(KEEP, " ")
