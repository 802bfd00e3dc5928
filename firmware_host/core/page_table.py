"""The table page as the box knows it: where it is served and its table code (`PageInfo` from the page
server), the screen that shows them with a QR code (the menu's "Handy-Seite"), and a phone's request to
take over a seat another phone holds, which the table confirms with START (`SeatClaim`).

The core never makes a code or a token: the page server does (it has the randomness) and tells the core
the code to show. What the table asks of the server goes out in the state, which the server reads from
the published view: `new_code` counts the table's requests for a new code, `games` the games begun (a new
game gets a new code), `answered` is the last takeover the table answered, `joined` the last new players
seated (`SeatJoin`). Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_host.core.events import Button, Event, Press
from firmware_host.core.i18n import texts
from firmware_host.core.screens import MessageScreen, QrScreen

TEXT = {
    "de": {
        "page": "Handy-Seite",
        "page_hint": "NEXT: neuer Code · BACK: zurück",
        "page_new_code": "Neuer Code kommt …",
        "claim_q": "Handy übernimmt {name}?",
        "claim_lines": "Ein Handy will den Platz von {name} übernehmen.",
        "claim_hint": "START: ja · BACK: nein",
        "claim_granted": "Platz von {name} übernommen",
        "claim_refused": "Übernahme abgelehnt",
    },
    "en": {
        "page": "Phone page",
        "page_hint": "NEXT: new code · BACK: back",
        "page_new_code": "New code coming …",
        "claim_q": "Phone takes {name}'s seat?",
        "claim_lines": "A phone wants to take over {name}'s seat.",
        "claim_hint": "START: yes · BACK: no",
        "claim_granted": "{name}'s seat taken over",
        "claim_refused": "Takeover refused",
    },
}


t = texts(TEXT)


JOINS_KEPT = 8  # the joins answered that stay in the state (the server settles each one it has not seen)


@dataclass(frozen=True, slots=True)
class PageState:
    address: str = ""  # "" : no page is served
    code: str = ""
    new_code: int = 0  # how often the table asked for a new code
    games: int = 0  # games begun since start (each new game gets a new code)
    answered: tuple[str, bool] | None = None  # the last takeover answered: (claim, granted)
    joined: tuple[tuple[str, int], ...] = ()  # the last joins answered (`JOINS_KEPT`): (claim, seat; -1 refused)

    def join_address(self) -> str:
        """What the QR code holds: the page's address with the table code."""
        return f"{self.address}/j/{self.code}"


@dataclass(frozen=True, slots=True)
class PageShow:
    """The overlay with the QR code and the table code."""


@dataclass(frozen=True, slots=True)
class ConfirmSeat:
    """A phone asks to take over seat `seat` (whose name is `name`); START grants, BACK refuses."""

    seat: int
    name: str
    claim: str


def page_event(page: PageState, overlay: PageShow | ConfirmSeat, event: Event,
               lang: str) -> tuple[PageState, bool, str] | None:
    """A button on the page overlays: the page state after it, whether the overlay closes, and a notice;
    None when the button means nothing here."""
    if not isinstance(event, Press):
        return None
    if isinstance(overlay, PageShow):
        if event.button is Button.NEXT:
            return replace(page, new_code=page.new_code + 1), False, t(lang, "page_new_code")
        if event.button in (Button.START, Button.BACK, Button.MENU, Button.ENCODER):
            return page, True, ""
        return None
    if event.button in (Button.START, Button.ENCODER):
        return replace(page, answered=(overlay.claim, True)), True, t(lang, "claim_granted", name=overlay.name)
    if event.button in (Button.BACK, Button.MENU):
        return replace(page, answered=(overlay.claim, False)), True, t(lang, "claim_refused")
    return None


def page_screen(page: PageState, overlay: PageShow | ConfirmSeat, lang: str, notice: str) -> QrScreen | MessageScreen:
    if isinstance(overlay, ConfirmSeat):
        return MessageScreen(t(lang, "claim_q", name=overlay.name), (t(lang, "claim_lines", name=overlay.name),),
                             notice or t(lang, "claim_hint"))
    host = page.address.removeprefix("http://")
    return QrScreen(t(lang, "page"), page.join_address(), page.code, (host,), notice or t(lang, "page_hint"))
