"""Das perfekte Wort's setup at the table: players, side, points card, deck (and the top cards of a
physical deck scanned in order), then the game begins (`table`). What each setup stage does and shows."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from firmware_host.core.deck import Deck
from firmware_host.core.events import Button, CardScan, Event, Press, TextEntry, Turn
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.screens import ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.played import StageRow, begin
from firmware_host.core.table.seats import is_hold, is_press, refuse
from firmware_host.core.text_field import TextField
from firmware_host.core.text_input import NAME, refusal

from .data import ROUNDS, LetterCard, card_from_code
from .defaults import DEFAULT_DATA
from .errors import DataError
from .ids import GAME_ID, TITLE
from .record import RULES
from .rules import Setup
from .stages import DECKS, SIDES, DeckPick, FacePick, Picks, Revealing, Scanning, SeatPick, SidePick, Stage, _Pick
from .text import t

if TYPE_CHECKING:
    from .table import PerfektesWortFlow as Flow

_FACE_TYPED = re.compile(r"^\s*(\d{1,2}[ab])\s*$", re.IGNORECASE)


def seed_of(at: float) -> int:
    """The shuffle seed for a deck chosen at event time `at` (journaled events replay the same time)."""
    return int(at * 1000) & 0x7FFFFFFF



def _back(flow: Flow, ctx: Ctx) -> Outcome:
    """BACK at the setup: the last scanned card off, else the previous step (None: out to the menu)."""
    stage = flow.stage
    if isinstance(stage, Scanning) and stage.scanned:
        return Outcome(replace(flow, stage=replace(stage, scanned=stage.scanned[:-1]),
                               message=t(ctx.lang, "undone")))
    if isinstance(stage, SeatPick):
        return Outcome(None)
    assert isinstance(stage, _Pick | Scanning), "BACK in the setup comes from a setup stage"
    before: Callable[[Picks], Stage] = {
        SidePick: SeatPick, FacePick: SidePick, DeckPick: FacePick, Scanning: DeckPick,
    }[type(stage)]
    return Outcome(replace(flow, stage=before(stage.picks)))

def _begin(flow: Flow, picks: Picks, deck: tuple[LetterCard, ...], ctx: Ctx) -> Outcome:
    face = DEFAULT_DATA.faces[picks.face]
    setup = Setup(players=flow.seats.players, sheet=DEFAULT_DATA.sheets[SIDES[picks.side]],
                  vowels=face.values, deck=deck, points_card=face.face)
    return begin(flow, ctx, RULES, setup, setup.players, stage=Revealing())[1]


def _seating(flow: Flow, stage: SeatPick, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.ENCODER):
        return Outcome(replace(flow, stage=SidePick(stage.picks)))
    refused = refusal(event.text, NAME) if isinstance(event, TextEntry) else None
    if refused is not None:  # a typed name that is none (too long): the reason in the footer
        return refuse(replace(flow, message=refused.text(ctx.lang)), ctx)
    moved = flow.seats.handle(event)
    return refuse(flow, ctx) if moved is None else Outcome(replace(flow, seats=moved))


def _pick(flow: Flow, stage: SidePick | FacePick | DeckPick, event: Event, ctx: Ctx) -> Outcome:
    if isinstance(event, Turn | Press) and not is_press(event, Button.START, Button.ENCODER):
        steps = event.steps if isinstance(event, Turn) else 1 if event.button is Button.NEXT else 0
        if steps:
            return Outcome(replace(flow, stage=stage.moved(stage.index + steps)))
    faces = DEFAULT_DATA.faces
    if isinstance(stage, FacePick) and is_hold(event, Button.START):
        drawn = random.Random(seed_of(ctx.now)).randrange(len(faces))
        return Outcome(replace(flow, stage=stage.moved(drawn), message=t(ctx.lang, "drawn", face=faces[drawn].face)))
    if isinstance(stage, FacePick) and isinstance(event, TextEntry):
        match = _FACE_TYPED.match(event.text)
        names = [f.face for f in faces]
        if match and match.group(1).lower() in names:
            return Outcome(replace(flow, stage=stage.moved(names.index(match.group(1).lower()))))
        return refuse(replace(flow, message=t(ctx.lang, "no_text")), ctx)
    if not is_press(event, Button.START, Button.ENCODER):
        return refuse(flow, ctx)
    if isinstance(stage, SidePick):
        return Outcome(replace(flow, stage=FacePick(stage.picks)))
    if isinstance(stage, FacePick):
        return Outcome(replace(flow, stage=DeckPick(stage.picks)))
    if DECKS[stage.picks.deck] == "cards":
        return Outcome(replace(flow, stage=Scanning(stage.picks)))
    return _begin(flow, stage.picks, Deck.shuffled(DEFAULT_DATA.deck, seed_of(ctx.now)).draw, ctx)


def _scanning(flow: Flow, stage: Scanning, event: Event, ctx: Ctx) -> Outcome:
    if is_press(event, Button.START, Button.ENCODER):  # the rest of the cards come round by round
        return _begin(flow, stage.picks, stage.scanned, ctx)
    card = card_of(event, ctx)
    if not isinstance(card, LetterCard):
        return refuse(replace(flow, message=card), ctx)
    scanned = (*stage.scanned, card)
    if len(scanned) < ROUNDS + 1:
        return Outcome(replace(flow, stage=replace(stage, scanned=scanned)))
    return _begin(flow, stage.picks, scanned, ctx)


def _seating_screen(flow: Flow, stage: SeatPick, ctx: Ctx) -> Screen:
    return flow.seats.screen(ctx.lang, TITLE.get(ctx.lang, TITLE["de"]), flow.message)


def _pick_screen(flow: Flow, stage: _Pick, ctx: Ctx) -> Screen:
    lang, index = ctx.lang, stage.index
    if isinstance(stage, SidePick):
        items = tuple(ListItem(DEFAULT_DATA.sheets[s].title, "", i == index) for i, s in enumerate(SIDES))
        return ListScreen(t(lang, "side_title"), items, index, flow.message or t(lang, "hint_pick"))
    if isinstance(stage, FacePick):
        items = tuple(
            ListItem(f.face, " ".join(f"{v}{n}" for v, n in f.values.items()), i == index)
            for i, f in enumerate(DEFAULT_DATA.faces)
        )
        return ListScreen(t(lang, "face_title"), items, index, flow.message or t(lang, "hint_face"))
    items = tuple(ListItem(t(lang, f"deck_{d}"), "", i == index) for i, d in enumerate(DECKS))
    return ListScreen(t(lang, "deck_title"), items, index, flow.message or t(lang, "hint_pick"))


def _scanning_screen(flow: Flow, stage: Scanning, ctx: Ctx) -> Screen:
    lines = (t(ctx.lang, "scan_lines"), " ".join(c.code for c in stage.scanned[-3:]))
    return MessageScreen(t(ctx.lang, "scan_title", n=len(stage.scanned), need=ROUNDS + 1), lines, flow.message)


def card_of(event: Event, ctx: Ctx) -> LetterCard | str:
    """The letter card a scan (looked up in the enrolled table, face like "B/7") or a typed "B7" names;
    else the reason, for the footer."""
    if isinstance(event, CardScan):
        face = ctx.cards.get(GAME_ID, {}).get(event.code.strip())
        if face is None:
            return t(ctx.lang, "unknown_card", code=event.code.strip())
        code = face.replace("/", "")
    elif isinstance(event, TextEntry):
        code = event.text.replace("/", "").replace(" ", "")
    else:
        return t(ctx.lang, "no_text")
    try:
        return card_from_code(code, "")  # no key: the table reads only why
    except DataError as exc:
        return exc.text(ctx.lang)


def _in_setup(handler: Callable[[Flow, Any, Event, Ctx], Outcome]) -> Callable[[Flow, Any, Event, Ctx], Outcome]:
    """A setup stage: BACK goes a step back (`_back`), anything else `handler`; the footer's message is cleared."""

    def handle(flow: Flow, stage: Any, event: Event, ctx: Ctx) -> Outcome:
        plain = replace(flow, message="")
        if is_press(event, Button.BACK):
            return _back(plain, ctx)
        return handler(plain, stage, event, ctx)

    return handle


def _seating_field(flow: Flow, stage: SeatPick, ctx: Ctx) -> TextField:
    return flow.seats.field(ctx.lang)


def _face_field(flow: Flow, stage: FacePick, ctx: Ctx) -> TextField:
    return TextField(t(ctx.lang, "face_field"), "card")


def _scanning_field(flow: Flow, stage: Scanning, ctx: Ctx) -> TextField:
    return TextField(t(ctx.lang, "card_field", n=len(stage.scanned) + 1), "card")


SETUP_STAGES: dict[type, StageRow] = {  # the setup's rows of `PerfektesWortFlow.STAGES`
    SeatPick: StageRow(_in_setup(_seating), _seating_screen, _seating_field),
    SidePick: StageRow(_in_setup(_pick), _pick_screen),
    FacePick: StageRow(_in_setup(_pick), _pick_screen, _face_field),
    DeckPick: StageRow(_in_setup(_pick), _pick_screen),
    Scanning: StageRow(_in_setup(_scanning), _scanning_screen, _scanning_field),
}
