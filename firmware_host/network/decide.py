"""What the Wi-Fi watcher does next, as a pure function of what NetworkManager reports (`Seen`): wait, open
the box's access point, join a known network, or close the access point to look for one. The rules are a
table (`RULES`), tried in order; the first that holds decides. No I/O, no clock: `Seen.since_s` says how
long the radio has been as it is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class Link(Enum):
    """The Wi-Fi radio as NetworkManager has it."""

    ABSENT = "absent"  # no Wi-Fi device (yet)
    DOWN = "down"  # a device, on no network
    JOINING = "joining"  # NM is connecting it
    CLIENT = "client"  # on a known network
    AP = "ap"  # the box's own access point is up


class Request(Enum):
    """What the table (menu, page, CLI) asked for."""

    NONE = "none"
    AP = "ap"  # open the box's access point now
    JOIN = "join"  # a network was added: join it


@dataclass(frozen=True, slots=True)
class Seen:
    """One look at NetworkManager: the link; `since_s`: on no network (down or joining), how long the radio
    has been without one; with the access point up, how long it has been up; the known networks' names
    (the newest last), the names a scan on no network saw, the phones on the box's access point, and the
    table's request."""

    link: Link
    since_s: float
    known: tuple[str, ...] = ()
    in_reach: tuple[str, ...] = ()
    stations: int = 0
    request: Request = Request.NONE


@dataclass(frozen=True, slots=True)
class Policy:
    """`join_timeout_s`: how long the radio may stay on no network before the box opens its access point;
    `probe_after_s`: how long the access point stays up, with no phone on it, before the box closes it to
    look for a known network again (only when it knows one)."""

    join_timeout_s: float = 45.0
    probe_after_s: float = 300.0


@dataclass(frozen=True, slots=True)
class Wait:
    pass


@dataclass(frozen=True, slots=True)
class OpenAp:
    pass


@dataclass(frozen=True, slots=True)
class Join:
    ssid: str


@dataclass(frozen=True, slots=True)
class CloseAp:
    """Take the access point down so that the radio can scan (the next look decides what to join)."""


Action = Wait | OpenAp | Join | CloseAp


def _reachable(seen: Seen) -> str | None:
    return next((ssid for ssid in seen.known if ssid in seen.in_reach), None)


def _newest_known(seen: Seen, policy: Policy) -> Action:
    return Join(_reachable(seen) or seen.known[-1])


Rule = tuple[str, Callable[[Seen, Policy], bool], Callable[[Seen, Policy], Action]]

RULES: tuple[Rule, ...] = (
    ("no radio", lambda s, p: s.link is Link.ABSENT, lambda s, p: Wait()),
    ("the access point asked for", lambda s, p: s.request is Request.AP and s.link is not Link.AP,
     lambda s, p: OpenAp()),
    ("a network added", lambda s, p: s.request is Request.JOIN and bool(s.known) and s.link is not Link.CLIENT,
     _newest_known),
    ("on a known network", lambda s, p: s.link is Link.CLIENT, lambda s, p: Wait()),
    ("no known network in time", lambda s, p: s.link in (Link.DOWN, Link.JOINING) and s.since_s >= p.join_timeout_s,
     lambda s, p: OpenAp()),
    ("joining", lambda s, p: s.link is Link.JOINING, lambda s, p: Wait()),
    ("a known network in reach", lambda s, p: s.link is Link.DOWN and _reachable(s) is not None,
     lambda s, p: Join(_reachable(s) or "")),
    ("time to look again", lambda s, p: s.link is Link.AP and s.stations == 0 and bool(s.known)
     and s.since_s >= p.probe_after_s, lambda s, p: CloseAp()),
)


def decide(seen: Seen, policy: Policy = Policy()) -> tuple[Action, str]:
    """The action for `seen` and the name of the rule that chose it ("" when none did: wait)."""
    for name, holds, action in RULES:
        if holds(seen, policy):
            return action(seen, policy), name
    return Wait(), ""
