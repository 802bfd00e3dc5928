"""Whether the service's process loads TLS (`ssl`, and with it OpenSSL's TLS half): decided once, at start.

The table page is plain HTTP on the local network; the only TLS the service speaks is the league's
`mqtts://` broker (`needed`). asyncio (under the page), aiohttp and paho import `ssl` at their top only to
offer TLS, and each runs without it when that import fails, as on a Python built without OpenSSL.
`keep_out(reason)` makes every later `import ssl` fail so, naming the reason: ~3.6 MB less resident with the
page and the league on (`bench/bench_rss.py`). It is one way: asyncio keeps `ssl = None` once it has
looked. So only `wordtable run` calls it, with its configuration final, before anything imports asyncio;
a TLS need the service gains later (an update over HTTPS, say) belongs in `needed`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

from firmware_host.config import Resolved

MODULES = frozenset({"ssl", "_ssl"})


def needed(resolved: Resolved) -> bool:
    """Whether the configured service speaks TLS: a league on an `mqtts://` broker."""
    from firmware_host.league.topics import parse_broker

    broker = resolved.config.league.broker
    return broker is not None and parse_broker(broker).tls


class _KeptOut:
    """A meta path finder that refuses `MODULES` (the import system's hook, `sys.meta_path`)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname in MODULES:
            raise ModuleNotFoundError(f"no TLS in this process: {self.reason}", name=fullname)
        return None


def keep_out(reason: str) -> bool:
    """From now on `import ssl` raises ModuleNotFoundError saying `reason`. False (and nothing changes)
    when `ssl` is loaded already; True when it is kept out (also when it was before)."""
    if kept_out():
        return True
    if MODULES & sys.modules.keys():
        return False
    sys.meta_path.insert(0, _KeptOut(reason))
    return True


def kept_out() -> bool:
    """Whether `keep_out` holds in this process."""
    return any(isinstance(finder, _KeptOut) for finder in sys.meta_path)
