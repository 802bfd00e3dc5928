"""What a phone's entry costs the core: `app.step` beside the views made after it (pure, no server).

For a phone's word in Das perfekte Wort (six players, round 8 after the alarm: seven rounds on the sheet)
and a phone's lay-down in Quiddler (six players, round 6), each step is taken from the same state again and
again (a new state each time, as after a real step: nothing of it seen before), the views of the state
before it made first (as at a table, where they were shown); after it are measured, interleaved (so that
the machine's load weighs on all alike), as the median CPU time of this thread:
- publish: `page_views(state)` as the shell calls it after the step (the texts are made later, when asked);
- one page: seat 0's view text (one phone connected: what the page server's thread spends on it);
- all pages: every seat's view and the guest's text (every seat's phone and a guest connected);
- all pages after a tick: the same for the state a clock tick leaves (which changes no view), the views
  before it followed as the page server does (`PageViews.follow`);
- league: `league_view(state)`, the table's state message for the league (its running totals);
each also as a multiple of `app.step`'s time (goal: ≤ 2× app.step).

    python bench/bench_views.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_host.core import app
from firmware_host.core.events import Event, SeatEntry, Tick
from firmware_host.core.league_view import league_view
from firmware_host.core.page_view import page_views

NAMES = ("Anna", "Ben", "Cem", "Dora", "Emil", "Fee")


def perfektes_wort(rounds: int) -> tuple[app.AppState, Event]:
    """Six players, `rounds` rounds scored, the next one's minute run out: a phone's word is due."""
    from tests.test_table_perfektes_wort import call, start

    table = start(*NAMES)
    for rnd in range(1, rounds + 1):
        table.press("next")  # reveal
        letter, _ = call(table, rnd)
        table.press("start").press("start")  # the timer, skipped
        table.type(*(letter + w for w in ("ANE", "U", "OX", "EIS", "AL", "ORN")))
        table.press("start").press("start")  # the round's points, the scoreboard
    table.press("next")
    letter, _ = call(table, rounds + 1)
    table.press("start").press("start")
    table.type(letter + "ANE")  # seat 0 on the box; seat 1's word comes from the phone
    return table.state, SeatEntry(1, letter + "U", table.now + 1)


def quiddler(upto_line: int = 153) -> tuple[app.AppState, Event]:
    """The documented two-player game (docs/scripts/quiddler.script) up to round 7's start (six rounds on the
    sheet): Ann's phone says she went out, with her lay-down."""
    from firmware_host.script import run_script
    from tests.game_scripts import PureApp, actions

    table = PureApp()
    run_script([a for a in actions("quiddler.script") if a.line < upto_line], table.hooks(), lambda line: None)
    return table.state, SeatEntry(0, "!(IN)TO MAD RED", table.now + 1)


def measure(name: str, state: app.AppState, event: Event, repeat: int) -> None:
    after, effects = app.step(state, event)
    assert any(type(e).__name__ == "Record" for e in effects), f"{name}: the entry was not taken"

    def stepped(_: app.AppState) -> Any:
        return app.step(state, event)

    def one_page(new: app.AppState) -> Any:
        return page_views(new).seat(0)  # made when asked for

    def all_pages(new: app.AppState) -> Any:
        views = page_views(new)
        return views.seats, views.guest

    seen = page_views(after)
    seen.seats, seen.guest  # noqa: B018 (made now: the pages have them)
    ticked, _ = app.step(after, Tick(after.now + 0.5))

    def after_tick(_: app.AppState) -> Any:
        views = page_views(ticked)
        views.follow(seen)  # as the page server does with the views before
        return views.seats, views.guest

    works: dict[str, Callable[[app.AppState], Any]] = {
        "step": stepped, "publish": page_views, "one": one_page, "all": all_pages, "tick": after_tick,
        "league": league_view}
    def shown(before: app.AppState) -> None:
        """What the table showed before the entry: every page's view and the league's (made, untimed)."""
        views = page_views(before)
        views.seats, views.guest  # noqa: B018
        league_view(before)

    samples: dict[str, list[float]] = {key: [] for key in works}
    for _ in range(repeat):  # the works interleaved, so that the machine's load weighs on all alike
        for key, work in works.items():
            shown(state)
            new, _ = app.step(state, event)  # a new state each time, as after a real step: nothing of it seen
            started = time.thread_time()
            work(new)
            samples[key].append(time.thread_time() - started)
    step, publish, one, pages, tick, league = (statistics.median(samples[key]) for key in works)

    def cost(seconds: float) -> str:
        return f"{seconds * 1e3:.3f} ms = {seconds / step:.2f}×"

    print(f"{name}: app.step {step * 1e3:.3f} ms · publish {cost(publish)} · one page {cost(one)} · all pages "
          f"({len(page_views(after).players)} seats + guest) {cost(pages)} · all pages after a tick {cost(tick)} · "
          f"league {cost(league)}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    measure("Das perfekte Wort, a phone's word (6 players, round 8)", *perfektes_wort(7), args.repeat)
    measure("Quiddler, a phone's lay-down (2 players, round 7)", *quiddler(), args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
