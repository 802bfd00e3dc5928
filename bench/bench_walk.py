"""The walk of one input through the code: which of the project's modules a button press and a phone's word
pass through, in order, as the running appliance does it (the sim profile on mock pins, its journal on).

For each input it prints the modules entered (consecutive calls inside one module count once), how many
moves from one module to another the input makes, how many of those return to a module it had already left
(the back-and-forths), and the number of the project's function calls. Traced with `sys.setprofile`, so the
figures are counts, not times, and the same on every machine.

- START on the timer's home screen (the sand timer starts), through `Shell.handle`;
- a phone's word in Das perfekte Wort while the sand runs (`SeatEntry`), through `Shell.handle` and the views
  the table page publishes after it (`page_views`, as the page's observer calls it).

    python bench/bench_walk.py [--modules]     (--modules: print each walk's modules in order)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_host.appliance import open_appliance  # noqa: E402
from firmware_host.config import resolve  # noqa: E402
from firmware_host.core import app  # noqa: E402
from firmware_host.core.events import Button, Press, SeatEntry, TextEntry, Turn  # noqa: E402
from firmware_host.core.page_view import page_views  # noqa: E402

OURS = ("firmware_host", "drivers", "hw")


def _module(filename: str) -> str | None:
    try:
        path = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    return str(path) if path.parts and path.parts[0] in OURS else None


def walk(action: Callable[[], Any]) -> tuple[list[str], int]:
    """The project's modules `action` enters, in order (consecutive calls in one module once), and the
    number of the project's function calls."""
    route: list[str] = []
    calls = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        if event != "call":
            return
        module = _module(frame.f_code.co_filename)
        if module is None:
            return
        calls += 1
        if not route or route[-1] != module:
            route.append(module)

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return route, calls


def report(name: str, route: list[str], calls: int, show: bool) -> None:
    moves = len(route) - 1
    seen: set[str] = set()
    returns = 0
    for module in route:
        if module in seen:
            returns += 1
        seen.add(module)
    print(f"{name}: {len(seen)} modules, {moves} moves between modules, {returns} of them back to a module "
          f"already left, {calls} function calls of the project")
    if show:
        for module in route:
            print(f"    {module}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--modules", action="store_true", help="print each walk's modules in order")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-walk-"))
    config = scratch / "config.toml"
    config.write_text("[dictionary]\nsystem = false\n", encoding="utf-8")
    appliance = open_appliance(resolve("sim", config, environ={}), scratch / "state", power_off=lambda: None)
    shell = appliance.shell
    at = [shell.clock()]

    def now() -> float:
        at[0] = max(at[0] + 0.01, shell.clock())
        return at[0]

    def handle(event: Any) -> None:
        shell.handle(event)

    try:
        handle(Press(Button.BACK, now()))  # warm: the first press loads what every later one uses
        route, calls = walk(lambda: handle(Press(Button.START, now())))
        report("START on the timer", route, calls, args.modules)
        handle(Press(Button.START, now()))  # pause it again
        handle(Press(Button.BACK, now()))

        events = app.events_to_choose(shell.state, "perfekte", now())
        assert events is not None, "Das perfekte Wort is not in the menu"
        for event in events:
            handle(event)
        flow = shell.state.flow
        seats = getattr(getattr(flow, "seats", None), "count", 2)
        handle(Turn(2 - seats, now()))
        for name in ("Anna", "Ben"):
            handle(TextEntry(name, now()))
        for _ in range(4):  # players, side, points card, the button deck: the game begins
            handle(Press(Button.START, now()))
        handle(Press(Button.NEXT, now()))  # round 1's card is revealed
        handle(Press(Button.START, now()))  # the sand runs
        assert shell.state.timer.running, "the sand timer did not start"
        sand = app.screen(shell.state)
        letter = str(getattr(sand, "big", "A")).split()[0][:1] or "A"  # the round's first letter, big on screen
        handle(SeatEntry(1, f"{letter}ARN", now()))  # warm the phone's path once

        def word() -> None:
            handle(SeatEntry(0, f"{letter}ASE", now()))
            page_views(shell.state)

        route, calls = walk(word)
        report("a phone's word in Das perfekte Wort (and the page's views)", route, calls, args.modules)
        shown = app.screen(shell.state)
        print(f"    the OLED after the word: {shown.title!r} / {shown.footer!r}")
    finally:
        appliance.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
