"""The page's own address for the QR code under the unit's sandbox: RestrictAddressFamilies= refuses netlink,
so `socket.if_nameindex` fails with EAFNOSUPPORT (found booting the image in an emulated machine: the page
did not start). The interfaces then come from sysfs, and the address is the same."""

from __future__ import annotations

import errno
import socket

import pytest

from firmware_host.page import server


def test_the_address_is_found_without_netlink(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    expected = server.lan_address("0.0.0.0")
    net = tmp_path / "class-net"  # sysfs as the Pi has it (a chroot may have no /sys)
    for _, name in socket.if_nameindex():
        (net / name).mkdir(parents=True)
    monkeypatch.setattr(server, "NET_CLASS", net)

    def refused() -> list[tuple[int, str]]:
        raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")

    monkeypatch.setattr(socket, "if_nameindex", refused)
    assert server.lan_address("0.0.0.0") == expected
    assert server.lan_address("::") == expected


def test_no_interfaces_at_all_gives_loopback(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    def refused() -> list[tuple[int, str]]:
        raise OSError(errno.EAFNOSUPPORT, "refused")

    monkeypatch.setattr(socket, "if_nameindex", refused)
    monkeypatch.setattr(server, "NET_CLASS", tmp_path / "absent")
    assert server.lan_address("0.0.0.0") == "127.0.0.1"
