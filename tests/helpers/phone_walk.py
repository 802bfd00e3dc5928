"""A documented script (docs/scripts/*.script) played on the pure app while phones follow it: the page server
in this process publishes the app's views after every action, browser pages (one per seat, 360×740) join
the game's seats once it has them, and `walk` hands each phone's page to a check whenever what it shows
changed. The page server's clock is the script's virtual clock, so a running timer's deadline is what the
box would show."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.core import app
from firmware_host.core.events import Event
from firmware_host.core.page_view import page_views
from firmware_host.core.screens import Screen
from firmware_host.core.settings import Settings
from firmware_host.page.server import COOKIE, PageServer
from firmware_host.script import Action, run_script
from tests.game_scripts import PureApp

PHONE = {"width": 360, "height": 740}


class PhoneBox(PureApp):
    """The pure app of a script, in `lang`; what a phone sends is stepped at once, and every step's views
    are published to `server`."""

    def __init__(self, lang: str = "de") -> None:
        super().__init__()
        self.state, _ = app.initial(Settings(lang=lang))
        self.server: PageServer | None = None
        self.lock = threading.Lock()

    def send(self, event: Event) -> None:
        with self.lock:
            super().send(event)
            if self.server is not None:
                self.server.publish(page_views(self.state))

    def put(self, event: object) -> None:  # the page server's way in (its thread)
        self.send(event)  # type: ignore[arg-type]

    def send_views(self) -> None:
        assert self.server is not None
        self.server.publish(page_views(self.state))


@dataclass
class Phone:
    """A browser page of its own (its own cookies) for seat `seat`."""

    page: Any
    seat: int

    @property
    def token(self) -> str | None:
        cookies = self.page.context.cookies()
        return next((c["value"] for c in cookies if c["name"] == COOKIE), None)

    @property
    def seated(self) -> bool:
        return self.page.locator("#me").is_visible()


@contextmanager
def served(box: PhoneBox, state_dir: Path, browser: Any, seats: int = 2) -> Iterator[tuple[PageServer, list[Phone]]]:
    """The page server for `box` on 127.0.0.1 and `seats` phones with the join page open."""
    server = PageServer(box.put, lambda: box.now, bind="127.0.0.1", port=0, state_dir=state_dir)
    box.server = server
    server.start()
    phones = []
    try:
        box.send_views()
        for seat in range(seats):
            context = browser.new_context(viewport=PHONE, locale="de-DE", bypass_csp=True)
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{server.port}/j/{server.code}")
            phones.append(Phone(page, seat))
        yield server, phones
    finally:
        for phone in phones:
            phone.page.context.close()
        server.close()


def synced(server: PageServer, phone: Phone, timeout: float = 10.0) -> str:
    """Wait until the page server took the latest views and `phone`'s page shows the view it sent; its text."""
    end = time.monotonic() + timeout
    while server.views is not server._latest:  # taken on the server's thread
        assert time.monotonic() < end, "the page server did not take the views"
        time.sleep(0.005)
    token = phone.token
    text = ""
    while not text:
        text = next((c.last for c in list(server.clients) if c.token == token and not c.socket.closed and c.last), "")
        if not text:
            assert time.monotonic() < end, "no view was sent to the phone"
            time.sleep(0.01)
    phone.page.wait_for_function("want => typeof view !== 'undefined' && view !== null && "
                                 "JSON.stringify(view) === JSON.stringify(JSON.parse(want))", arg=text,
                                 timeout=timeout * 1000)
    return text


def join_when_seated_play(server: PageServer, phones: list[Phone]) -> None:
    """Each phone not seated joins its seat once the table has it: the free table's seats, or a game's
    players once it is set up (a phone seated while the game is set up would hold a default seat)."""
    views = server.views
    if views is None:
        return
    play = json.loads(views.guest).get("play") or {}
    if views.game is not None and play.get("stage") == "setup":
        return
    for phone in phones:
        if phone.seat < len(views.players) and phone.page.locator("#join").is_visible():
            phone.page.click(f"#seats button[data-seat='{phone.seat}']")
            phone.page.wait_for_selector("#me:not([hidden])")


def walk(box: PhoneBox, server: PageServer, phones: list[Phone], steps: list[Action],
         check: Callable[[Phone, Screen, Action | None], None]) -> None:
    """Play `steps` one by one; after each, once the phones show the new views, `check` each phone whose
    view or the box's screen changed (given the box's screen and the step)."""
    seen: dict[int, tuple[str, Screen]] = {}

    def look(step: Action | None) -> None:
        join_when_seated_play(server, phones)
        screen = app.screen(box.state)
        for phone in phones:
            text = synced(server, phone)
            if seen.get(phone.seat) != (text, screen):
                seen[phone.seat] = (text, screen)
                check(phone, screen, step)

    look(None)
    for step in steps:
        run_script([step], box.hooks(), lambda line: None)
        look(step)
