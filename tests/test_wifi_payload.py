"""The `WIFI:` QR payload phones read to join a network (`core.wifi_payload`): its exact text."""

from __future__ import annotations

import pytest

from firmware_host.core.wifi_payload import WifiJoin, parse, payload


@pytest.mark.parametrize(("join", "text"), [
    (WifiJoin("wordtable-3F2A", "k7hq2m9xpr4z"), "WIFI:T:WPA;S:wordtable-3F2A;P:k7hq2m9xpr4z;;"),
    (WifiJoin('a;b,c:d"e\\f', "p;w"), 'WIFI:T:WPA;S:a\\;b\\,c\\:d\\"e\\\\f;P:p\\;w;;'),
    (WifiJoin("Café"), "WIFI:T:nopass;S:Café;;"),
    (WifiJoin("hidden", "12345678", hidden=True), "WIFI:T:WPA;S:hidden;P:12345678;H:true;;"),
])
def test_the_payload_is_the_standard_text_and_reads_back(join: WifiJoin, text: str) -> None:
    assert payload(join) == text
    assert parse(text) == join


@pytest.mark.parametrize("text", ["http://x", "WIFI:T:WPA;P:x;;", "WIFI:T:WPA;S:x;P:y;"])
def test_what_is_not_a_payload_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse(text)
