"""sd_notify over a real AF_UNIX datagram socket, by path and in the abstract namespace."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host import sdnotify


@pytest.fixture
def listener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_messages_arrive_as_systemd_expects(listener: socket.socket) -> None:
    assert sdnotify.ready("Spiel läuft")
    assert listener.recv(4096).decode() == "READY=1\nSTATUS=Spiel läuft"
    assert sdnotify.watchdog()
    assert listener.recv(4096) == b"WATCHDOG=1"
    assert sdnotify.status("two\nlines")
    assert listener.recv(4096) == b"STATUS=two lines"
    assert sdnotify.extend_timeout(2.5)
    assert listener.recv(4096) == b"EXTEND_TIMEOUT_USEC=2500000"
    assert sdnotify.stopping()
    assert listener.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_address(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"wordtable-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert sdnotify.watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_no_ops_outside_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not sdnotify.ready()
    assert not sdnotify.watchdog()


def test_a_vanished_socket_is_logged_not_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert not sdnotify.stopping()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, None),
        ({"WATCHDOG_USEC": "20000000"}, 10.0),
        ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}, 10.0),
        ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
    ],
)
def test_watchdog_interval_is_half_of_watchdog_sec(env: dict[str, str], expected: float | None) -> None:
    assert sdnotify.watchdog_interval(env) == expected
