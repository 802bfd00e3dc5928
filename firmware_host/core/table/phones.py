"""A table flow whose game is played on the players' phones too (`flow.TakesSeats`, `flow.ShowsPage`)."""

from __future__ import annotations

import importlib
from typing import Any, cast

from firmware_host.core.flow import Ctx, Outcome


class OnPhones:
    """A game flow's phone side, kept in its package's `page` module (loaded at the first phone):
    `seat_entry(flow, seat, text, ctx)`, a line from a seat's phone, and `page_data(flow, seat, ctx)`, the
    JSON-ready view of one seat (None: a page without a seat)."""

    __slots__ = ()

    def seat_entry(self, seat: int, text: str, ctx: Ctx) -> Outcome:
        return cast(Outcome, self._page().seat_entry(self, seat, text, ctx))

    def page(self, seat: int | None, ctx: Ctx) -> dict[str, Any]:
        return cast(dict[str, Any], self._page().page_data(self, seat, ctx))

    def _page(self) -> Any:
        return importlib.import_module(f"{type(self).__module__.rpartition('.')[0]}.page")
