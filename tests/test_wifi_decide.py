"""The Wi-Fi watcher's decisions (`network.decide`) as a pure function of what NetworkManager reports: a
known network seen, gone, or none in time; the table's requests; the access point left alone while phones
are on it."""

from __future__ import annotations

import pytest

from firmware_host.network.decide import CloseAp, Join, Link, OpenAp, Policy, Request, Seen, Wait, decide

POLICY = Policy(join_timeout_s=45, probe_after_s=300)


@pytest.mark.parametrize(("seen", "action", "rule"), [
    (Seen(Link.ABSENT, 999), Wait(), "no radio"),
    (Seen(Link.DOWN, 10), Wait(), ""),  # at boot: NM may still find a known network
    (Seen(Link.DOWN, 45), OpenAp(), "no known network in time"),
    (Seen(Link.JOINING, 20, ("home",)), Wait(), "joining"),
    (Seen(Link.JOINING, 20, ("home",), ("home",)), Wait(), "joining"),
    (Seen(Link.JOINING, 60, ("home",)), OpenAp(), "no known network in time"),
    (Seen(Link.DOWN, 5, ("home", "work"), ("work",)), Join("work"), "a known network in reach"),
    (Seen(Link.DOWN, 5, ("home",), ("neighbour",)), Wait(), ""),
    (Seen(Link.CLIENT, 9999, ("home",), ("home",)), Wait(), "on a known network"),
    (Seen(Link.CLIENT, 1, ("home",), request=Request.AP), OpenAp(), "the access point asked for"),
    (Seen(Link.AP, 1, request=Request.AP), Wait(), ""),
    (Seen(Link.AP, 1, ("old", "home"), request=Request.JOIN), Join("home"), "a network added"),
    (Seen(Link.AP, 1, ("home", "old"), ("home",), stations=2, request=Request.JOIN), Join("home"),
     "a network added"),
    (Seen(Link.DOWN, 50, ("home",), ("home",)), OpenAp(), "no known network in time"),  # tried: it did not come
    (Seen(Link.AP, 299, ("home",)), Wait(), ""),
    (Seen(Link.AP, 300, ("home",)), CloseAp(), "time to look again"),
    (Seen(Link.AP, 300, ("home",), stations=1), Wait(), ""),  # a phone plays on it: stay
    (Seen(Link.AP, 9999), Wait(), ""),  # no known network: nothing to look for
])
def test_the_action_for_what_nm_reports(seen: Seen, action: object, rule: str) -> None:
    assert decide(seen, POLICY) == (action, rule)


def test_a_home_network_gone_brings_the_access_point_back() -> None:
    """Joined, then the network goes: NM drops the link; once the timeout passed the box opens its AP."""
    steps = [Seen(Link.CLIENT, 50, ("home",), ("home",)), Seen(Link.JOINING, 10, ("home",), ("home",)),
             Seen(Link.DOWN, 30, ("home",)), Seen(Link.DOWN, 46, ("home",))]
    assert [decide(seen, POLICY)[0] for seen in steps] == [Wait(), Wait(), Wait(), OpenAp()]
