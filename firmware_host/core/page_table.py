"""The table page as the box knows it: where it is served and its table code (`PageInfo` from the page
server), the screen that shows them with a QR code (the menu's "Handy-Seite", or a long NEXT on the timer),
and a phone's request to take over a seat another phone holds, which the table confirms with START
(`SeatClaim`).

The core never makes a code or a token: the page server does (it has the randomness) and tells the core
the code to show. What the table asks of the server goes out in the state, which the server reads from
the published view: `new_code` counts the table's requests for a new code (the code is the box's: a new
game keeps it), `answered` is the last takeover the table answered, `joined` the last new players seated
(`SeatJoin`) with their person's id. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_host.core.events import Button, Event, LongPress, Press
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
        "claim_footer": "Handy will Platz von\u00a0{name}: Menü → Handy-Seite",  # "von" and the name on one line
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
        "claim_footer": "A phone wants {name}'s\u00a0seat: menu → phone page",
    },
}


t = texts(TEXT)


JOINS_KEPT = 8  # the joins answered that stay in the state (the server settles each one it has not seen)


@dataclass(frozen=True, slots=True)
class PageState:
    address: str = ""  # "" : no page is served
    code: str = ""
    new_code: int = 0  # how often the table asked for a new code
    answered: tuple[str, bool] | None = None  # the last takeover answered: (claim, granted)
    joined: tuple[tuple[str, int, int], ...] = ()  # the last joins answered (`JOINS_KEPT`): (claim, seat,
    # person; -1, -1: refused)
    pending: tuple[tuple[int, str], ...] = ()  # takeovers waiting (`ClaimsPending`): only shown, never replayed

    def join_address(self) -> str:
        """What the QR code holds (`join_address`)."""
        return join_address(self.address, self.code)


def join_address(address: str, code: str) -> str:
    """What a join QR code holds: the page's address with the table code."""
    return f"{address}/j/{code}"


@dataclass(frozen=True, slots=True)
class PageShow:
    """The overlay with the QR code and the table code (the menu's "Handy-Seite", or a long NEXT on the
    timer: `app.dispatch`)."""


@dataclass(frozen=True, slots=True)
class ConfirmSeat:
    """A phone asks to take over seat `seat` (whose name is `name`); START grants, BACK refuses."""

    seat: int
    name: str
    claim: str


def claim_answer(page: PageState, event: Event) -> tuple[int, str, bool] | None:
    """What a button on the phone page's screen answers while a takeover waits: (seat, claim, granted) —
    START or the encoder grant the oldest claim, BACK or MENU refuse it; None when no claim waits or the
    button answers none. Only this screen answers a claim: on any other a claim changes no button."""
    if not page.pending or not isinstance(event, Press):
        return None
    seat, claim = page.pending[0]
    if event.button in (Button.START, Button.ENCODER):
        return seat, claim, True
    if event.button in (Button.BACK, Button.MENU):
        return seat, claim, False
    return None


def answered(page: PageState, seat: int, claim: str, granted: bool, name: str,
             lang: str) -> tuple[PageState, str]:
    """The page state once the table answered takeover `claim` (for the page server: `answered`), and the
    notice that says so."""
    page = replace(page, answered=(claim, granted), pending=tuple(p for p in page.pending if p[1] != claim))
    return page, t(lang, "claim_granted", name=name) if granted else t(lang, "claim_refused")


def page_event(page: PageState, overlay: PageShow | ConfirmSeat, event: Event,
               lang: str) -> tuple[PageState, bool, str] | None:
    """A button on the page overlays: the page state after it, whether the overlay closes, and a notice;
    None when the button means nothing here. (A pending claim's answer is `claim_answer`'s.) On the QR
    screen NEXT asks for a new code, a long NEXT (what opens it on the timer) closes it as BACK does."""
    if isinstance(event, LongPress) and event.button is Button.NEXT and isinstance(overlay, PageShow):
        return page, True, ""
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


def page_screen(page: PageState, overlay: PageShow | ConfirmSeat, lang: str, notice: str,
                names: tuple[str, ...] = ()) -> QrScreen | MessageScreen:
    """The phone page's screen (the QR code and the table code), or the takeover it asks the table about:
    a replayed `SeatClaim` (`ConfirmSeat`), or the oldest pending claim (`names`: the table's players)."""
    if isinstance(overlay, ConfirmSeat):
        return MessageScreen(t(lang, "claim_q", name=overlay.name), (t(lang, "claim_lines", name=overlay.name),),
                             notice or t(lang, "claim_hint"))
    if page.pending:
        name = claimed_name(page.pending[0][0], names)
        return MessageScreen(t(lang, "claim_q", name=name), (t(lang, "claim_lines", name=name),),
                             notice or t(lang, "claim_hint"))
    host = page.address.removeprefix("http://")
    return QrScreen(t(lang, "page"), page.join_address(), page.code, (host,), notice or t(lang, "page_hint"))


def claimed_name(seat: int, names: tuple[str, ...]) -> str:
    """The name of the seat a claim asks for (its number when the table has no such seat)."""
    return names[seat] if 0 <= seat < len(names) else str(seat + 1)


def claim_footer(page: PageState, names: tuple[str, ...], lang: str) -> str | None:
    """What every screen but the phone page's shows while a takeover waits (None: none waits)."""
    if not page.pending:
        return None
    return t(lang, "claim_footer", name=claimed_name(page.pending[0][0], names))
