"""The `WIFI:` QR payload (`core.wifi_payload`): any SSID and password, `\\ ; , : "` included, read back by a
parser of the standard as they were written."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.wifi_payload import WifiJoin, parse, payload, split_escaped

pytestmark = pytest.mark.slow  # hypothesis

TRICKY = st.text(alphabet=st.sampled_from([*'\\;,:"', "a", "Z", "0", " ", "ä", "-"]), max_size=40)
ANY = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(ssid=st.one_of(TRICKY, ANY).filter(bool), password=st.one_of(TRICKY, ANY), hidden=st.booleans())
def test_every_network_reads_back_as_written(ssid: str, password: str, hidden: bool) -> None:
    join = WifiJoin(ssid, password, hidden)
    assert parse(payload(join)) == join


@given(ssid=TRICKY.filter(bool), password=TRICKY.filter(bool))
def test_no_special_character_stands_unescaped(ssid: str, password: str) -> None:
    text = payload(WifiJoin(ssid, password))
    body = text.removeprefix("WIFI:").removesuffix(";;")
    fields = split_escaped(body, ";")
    assert [field.split(":", 1)[0] for field in fields] == ["T", "S", "P"]
