"""A phone's DHCP client in a few lines (stdlib only), run inside the emulated machine in the phone's network
namespace, which has no DHCP client of its own: DISCOVER, OFFER, REQUEST, ACK on `sys.argv[1]`, then the
address is put on the interface with `ip`. Prints the address (and the router) it was given."""

from __future__ import annotations

import os
import random
import socket
import struct
import subprocess
import sys
import time

MAGIC = b"\x63\x82\x53\x63"


def mac_of(interface: str) -> bytes:
    with open(f"/sys/class/net/{interface}/address") as file:
        return bytes.fromhex(file.read().strip().replace(":", ""))


def packet(kind: int, xid: int, mac: bytes, options: bytes = b"") -> bytes:
    head = struct.pack("!BBBBIHH4s4s4s4s16s64s128s", 1, 1, 6, 0, xid, 0, 0x8000, b"\0" * 4, b"\0" * 4,
                       b"\0" * 4, b"\0" * 4, mac.ljust(16, b"\0"), b"", b"")
    return head + MAGIC + bytes([53, 1, kind]) + options + b"\xff"


def options_of(data: bytes) -> dict[int, bytes]:
    found, at = {}, 240
    while at < len(data) and data[at] != 255:
        if data[at] == 0:
            at += 1
            continue
        code, size = data[at], data[at + 1]
        found[code] = data[at + 2: at + 2 + size]
        at += 2 + size
    return found


def answer(sock: socket.socket, xid: int, kind: int, deadline: float) -> tuple[bytes, dict[int, bytes]]:
    while time.monotonic() < deadline:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            data = sock.recv(4096)
        except TimeoutError:
            break
        if len(data) > 240 and struct.unpack("!I", data[4:8])[0] == xid:
            options = options_of(data)
            if options.get(53) == bytes([kind]):
                return data[16:20], options
    raise SystemExit(f"no DHCP answer {kind}")


def main() -> None:
    interface = sys.argv[1]
    mac, xid = mac_of(interface), random.getrandbits(32)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, interface.encode())
    sock.bind(("0.0.0.0", 68))
    for _ in range(5):
        sock.sendto(packet(1, xid, mac), ("255.255.255.255", 67))
        try:
            offered, options = answer(sock, xid, 2, time.monotonic() + 4)
            break
        except SystemExit:
            continue
    else:
        raise SystemExit("no DHCP offer")
    server = options.get(54, b"")
    sock.sendto(packet(3, xid, mac, bytes([50, 4]) + offered + bytes([54, len(server)]) + server),
                ("255.255.255.255", 67))
    leased, options = answer(sock, xid, 5, time.monotonic() + 8)
    mask = bin(struct.unpack("!I", options.get(1, b"\xff\xff\xff\x00"))[0]).count("1")
    address = socket.inet_ntoa(leased)
    subprocess.run(["ip", "addr", "add", f"{address}/{mask}", "dev", interface], check=True)
    router = socket.inet_ntoa(options[3][:4]) if 3 in options else ""
    print(f"leased {address}/{mask} router {router}", flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
