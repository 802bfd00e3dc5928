"""The door of the box's web servers: how many connections they hold, from whom, and for how long.

Anything on the LAN can open connections to the table page without knowing the table code. Each one holds
a file descriptor of the service, the same pool the journal, the panel's bus and the readers draw from, and
aiohttp by itself holds a connection that never finishes its request for as long as its keep-alive allows.
`Gate` wraps the server's protocol factory (aiohttp's `web.Server`) and, per connection:

- refuses it at once (the socket is closed, its descriptor freed) when `Limits.connections` are open, or
  `Limits.per_address` from its address;
- closes it when its first request's headers are not complete `Limits.header_s` after it opened (a slow
  sender, or one that sends nothing);
- leaves everything else to aiohttp: the request, its body (`client_max_size`), WebSockets, and an idle
  connection between requests (its `keepalive_timeout`: a connection waiting for its next request is
  closed then, however many bytes of it have arrived).

Refusals are counted and logged as one line per `LOG_EVERY_S`, never one per connection. `GatedSite` is
aiohttp's `TCPSite` with the gate in front. The loop's clock (`loop.time()`) is the only clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

log = logging.getLogger("wordtable.web")

LOG_EVERY_S = 30.0
HEADERS_END = b"\r\n\r\n"


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server holds at once: connections in all and from one address, and how long a request's
    headers may take to arrive."""

    connections: int = 96
    per_address: int = 12
    header_s: float = 10.0


@dataclass
class Gate:
    """The counts of one server's open connections; `protocol()` makes the gated protocol of one."""

    factory: Callable[[], asyncio.Protocol]
    limits: Limits = field(default_factory=Limits)
    open: int = 0
    by_address: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # connections refused or closed, by why, in all
    _unlogged: Counter[str] = field(default_factory=Counter)  # the same, since the last log line
    _logged_at: float | None = None

    def protocol(self) -> asyncio.Protocol:
        return _Gated(self)

    def admit(self, address: str) -> str | None:
        """Count a new connection from `address` in, or say why it is refused ("full", "address")."""
        if self.open >= self.limits.connections:
            return "full"
        if self.by_address[address] >= self.limits.per_address:
            return "address"
        self.open += 1
        self.by_address[address] += 1
        return None

    def release(self, address: str) -> None:
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]

    def note_refused(self, why: str, now: float) -> None:
        """Count a refusal ("full", "address" or "slow"); log the refusals once per `LOG_EVERY_S`."""
        self.refused[why] += 1
        self._unlogged[why] += 1
        if self._logged_at is None or now - self._logged_at >= LOG_EVERY_S:
            self._logged_at = now
            counts = ", ".join(f"{n} {reason}" for reason, n in sorted(self._unlogged.items()))
            log.warning("web connections refused or closed (%s; the limits: %d open, %d per address, headers "
                        "in %.0f s)", counts, self.limits.connections, self.limits.per_address, self.limits.header_s)
            self._unlogged.clear()


class _Gated(asyncio.Protocol):
    """One connection: counted in on `connection_made`, out on `connection_lost`; the aiohttp protocol
    behind it sees every call only while the connection is admitted."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.address = ""
        self.deadline: asyncio.TimerHandle | None = None
        self.tail = b""  # the last bytes of a request's headers still arriving
        self.in_headers = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        loop = asyncio.get_running_loop()
        why = self.gate.admit(self.address)
        if why is not None:
            self.gate.note_refused(why, loop.time())
            transport.abort()
            return
        self.transport = transport
        self.inner = self.gate.factory()
        self._arm(loop)
        self.inner.connection_made(transport)

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        self.deadline = loop.call_later(self.gate.limits.header_s, self._too_slow)

    def _too_slow(self) -> None:
        self.deadline = None
        if self.transport is not None and not self.transport.is_closing():
            self.gate.note_refused("slow", asyncio.get_running_loop().time())
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if self.in_headers:
            seen = self.tail + data
            if HEADERS_END in seen:
                self.in_headers = False
                self.tail = b""
                if self.deadline is not None:
                    self.deadline.cancel()
                    self.deadline = None
            else:
                self.tail = seen[-(len(HEADERS_END) - 1):]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        if self.inner is None:
            return
        inner, self.inner = self.inner, None
        self.gate.release(self.address)
        inner.connection_lost(exc)


class GatedSite(web.BaseSite):
    """aiohttp's `TCPSite` with a `Gate` in front (`gate`, after `start`, holds the counts)."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, limits: Limits | None = None,
                 **kwargs: Any) -> None:
        super().__init__(runner, **kwargs)
        self._host = host
        self._port = port
        self._limits = limits or Limits()
        self.gate: Gate | None = None

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        self.gate = Gate(server, self._limits)
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self.gate.protocol, self._host, self._port,
                                                backlog=self._backlog, reuse_address=True)

    @property
    def port(self) -> int:
        """The bound port (the asked one before `start`)."""
        sockets = getattr(self._server, "sockets", None) or []
        return int(sockets[0].getsockname()[1]) if sockets else self._port
