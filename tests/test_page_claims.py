"""Takeovers of a seat another phone holds: waiting claims are only shown (a footer on every screen), never
journaled and never change what a button means on a screen that is not the phone page's; there START grants
the oldest and BACK refuses it, and the journal keeps that answer (`SeatAnswer`) in place of the press. The
page server holds one claim per seat and per phone and refuses a flood of them, from one address or many."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from firmware_host.core import app
from firmware_host.core.effects import JournalAs
from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import (
    Button,
    ClaimsPending,
    Event,
    PageInfo,
    Press,
    SeatAnswer,
)
from firmware_host.core.page_view import page_views
from firmware_host.core.settings import Settings
from firmware_host.page.guard import CLAIM_BURST, Claims
from firmware_host.page.server import PageServer
from firmware_host.shell import DISPLAY_ONLY
from tests.helpers.page_box import serve


def _table() -> app.AppState:
    state, _ = app.initial(Settings(player_names=("Anna", "Ben"), player_count=2))
    state, _ = app.step(state, PageInfo("http://box:8080", "ABC234", 1.0))
    return state


def _journaled(state: app.AppState, event: Event) -> tuple[app.AppState, Event | None]:
    """Step `event` as the shell does: the state, and what the journal keeps of it (None: nothing)."""
    state, effects = app.step(state, event)
    if isinstance(event, DISPLAY_ONLY):
        return state, None
    return state, next((e.event for e in effects if isinstance(e, JournalAs)), event)


def _menu_to_page(state: app.AppState, at: float) -> list[Event]:
    events = app.events_to_open(state, "page", at)
    assert events is not None
    return events


def test_a_waiting_claim_is_a_footer_and_start_on_the_timer_still_starts_the_timer():
    state = _table()
    state, kept = _journaled(state, ClaimsPending(((0, "c1"),), 2.0))
    assert kept is None  # only shown
    assert "Anna" in app.screen(state).footer
    state, kept = _journaled(state, Press(Button.START, 3.0))
    assert state.timer.running and state.page.answered is None and kept == Press(Button.START, 3.0)


def test_on_the_phone_page_start_grants_and_the_journal_keeps_the_answer_and_replays_the_same_state():
    live = _table()
    journal: list[Event] = []
    for event in [ClaimsPending(((1, "c7"),), 2.0), *_menu_to_page(live, 3.0)]:
        live, kept = _journaled(live, event)
        if kept is not None:
            journal.append(kept)
    assert "Ben" in app.screen(live).title  # the question, on the claim's own screen
    live, kept = _journaled(live, Press(Button.START, 4.0))
    assert kept == SeatAnswer(1, "c7", True, 4.0)
    journal.append(kept)
    assert live.page.answered == ("c7", True) and live.overlay is None and not live.page.pending
    replayed = _table()
    for event in journal:
        replayed = app.fold(replayed, decode(json.loads(json.dumps(encode(event)))))
    assert replayed == live


def test_back_on_the_phone_page_refuses_and_without_a_claim_the_page_screen_is_as_before():
    state = _table()
    for event in [ClaimsPending(((0, "c1"),), 2.0), *_menu_to_page(state, 3.0)]:
        state, _ = _journaled(state, event)
    state, kept = _journaled(state, Press(Button.BACK, 4.0))
    assert kept == SeatAnswer(0, "c1", False, 4.0) and state.page.answered == ("c1", False)
    plain = _table()
    for event in _menu_to_page(plain, 3.0):
        plain, _ = _journaled(plain, event)
    plain, kept = _journaled(plain, Press(Button.START, 4.0))
    assert kept == Press(Button.START, 4.0) and plain.overlay is None and plain.page.answered is None


def test_the_claims_held_are_one_per_seat_and_per_phone_and_asking_is_rate_limited():
    now = [0.0]
    claims = Claims(lambda: now[0])
    first, _ = claims.ask(0, "10.0.0.5", "tok-a")
    assert first is not None
    assert claims.ask(0, "10.0.0.6", "tok-b") == (None, "claimed")  # the seat's claim waits for the table
    second, replaced = claims.ask(1, "10.0.0.5", "tok-a")
    assert second is not None and replaced == first  # one per phone: the new one replaces the old
    assert [seat for seat, _ in claims.pending()] == [1]
    refused = [claims.ask(2 + n, "10.0.0.9", f"tok-{n}")[1] for n in range(10)]
    assert refused.count("slow_down") == 10 - CLAIM_BURST  # one address asking fast, for different seats
    now[0] += 121
    assert second in claims.lapse() and claims.pending() == ()  # unanswered claims lapse


class _Box:
    def __init__(self) -> None:
        self.state = _table()
        self.server: PageServer | None = None
        self.journal: list[Event] = []
        self.shown = 0

    def put(self, event: Event) -> None:
        self.state, kept = _journaled(self.state, event)
        if kept is None:
            self.shown += 1
        else:
            self.journal.append(kept)
        if self.server is not None:
            self.server.publish(page_views(self.state))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[PageServer, _Box]]:
    box = _Box()
    server = serve(box, tmp_path)
    yield server, box
    server.close()


async def _claims(url: str, code: str, sources: list[str], seat: int) -> list[int]:
    statuses = []
    for source in sources:
        connector = aiohttp.TCPConnector(local_addr=(source, 0))
        async with aiohttp.ClientSession(connector=connector) as session, session.post(
                f"{url}/api/join", data=json.dumps({"code": code, "seat": seat}),
                headers={"Origin": url}) as response:
            statuses.append(response.status)
    return statuses


def test_a_flood_of_claims_from_one_address_and_from_fifty_is_held_as_one_claim_and_journals_nothing(served):
    server, box = served
    url = server.address.replace("box", "127.0.0.1")
    assert asyncio.run(_claims(url, server.code, ["127.0.0.1"], 0)) == [200]  # Anna's phone holds seat 0
    journaled = len(box.journal)
    one = asyncio.run(_claims(url, server.code, ["127.0.0.2"] * 60, 0))
    many = asyncio.run(_claims(url, server.code, [f"127.0.1.{n}" for n in range(1, 51)], 0))
    assert one.count(202) == 1 and many.count(202) == 0  # the first claim waits; every other is refused
    assert set(one + many) <= {202, 409, 429}
    assert len(box.journal) == journaled  # nothing of the flood was journaled
    assert [seat for seat, _ in box.state.page.pending] == [0]
    box.put(Press(Button.START, 5.0))  # START on the timer starts the timer: it grants nothing
    assert box.state.timer.running and box.state.page.answered is None
    anna = box.state.roster.named("Anna")
    assert anna is not None and server.tokens.holder_of(0, anna.id) is not None  # Anna's phone: Anna's
    assert len([h for h in server.tokens.holders.values() if not h.active]) == 1


@pytest.mark.slow  # the box assembled
def test_the_running_box_journals_the_answer_not_the_press_nor_the_claims(tmp_path):
    from firmware_host.appliance import open_appliance
    from firmware_host.config import resolve
    from firmware_host.shell_journal import INPUT

    def journaled(appliance) -> list[Event]:
        journal, session = appliance.journal, appliance.shell.journal.session
        return [decode(entry.payload) for entry in journal.stream(session, kinds=(INPUT,))]

    config = tmp_path / "config.toml"
    config.write_text('[scoreboard]\nplayers = ["Anna", "Ben"]\n', encoding="utf-8")
    resolved = resolve("sim", config, environ={})
    appliance = open_appliance(resolved, tmp_path / "state", power_off=lambda: None)
    try:
        shell = appliance.shell
        shell.handle(PageInfo("http://box:8080", "ABC234", 1.0))
        shell.handle(ClaimsPending(((1, "c9"),), 2.0))
        for event in _menu_to_page(shell.state, 3.0):
            shell.handle(event)
        shell.handle(Press(Button.START, 4.0))
        kept = journaled(appliance)
        assert SeatAnswer(1, "c9", True, 4.0) in kept and Press(Button.START, 4.0) not in kept
        assert not [event for event in kept if isinstance(event, ClaimsPending)]
    finally:
        appliance.close()
