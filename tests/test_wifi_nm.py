"""Reading nmcli's terse output (`network.nm`): escaped separators, `show`'s KEY:value lines."""

from __future__ import annotations

from firmware_host.network.nm import show_fields, split_terse


def test_a_terse_line_splits_on_unescaped_colons_only() -> None:
    assert split_terse(r"Caf\:é\\1:802-11-wireless:1733130000") == ["Caf:é\\1", "802-11-wireless", "1733130000"]
    assert split_terse("wlan0:wifi") == ["wlan0", "wifi"]


def test_show_output_by_key_the_first_of_a_list() -> None:
    text = ("GENERAL.STATE:100 (connected)\nGENERAL.CONNECTION:wordtable-ap\n"
            "IP4.ADDRESS[1]:10.42.0.1/24\nIP4.ADDRESS[2]:10.42.1.1/24\n")
    assert show_fields(text) == {"GENERAL.STATE": "100 (connected)", "GENERAL.CONNECTION": "wordtable-ap",
                                 "IP4.ADDRESS": "10.42.0.1/24"}
