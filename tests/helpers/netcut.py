"""A TCP relay between a box and its broker whose cable can be pulled: `cut()` drops every connection and
refuses new ones (the box sees its network gone and keeps retrying), `restore()` lets them through again."""

from __future__ import annotations

import contextlib
import socket
import threading


class NetCut:
    def __init__(self, upstream_port: int) -> None:
        self.upstream = ("127.0.0.1", upstream_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._cut = threading.Event()
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True, name="netcut").start()

    def cut(self) -> None:
        self._cut.set()
        with self._lock:
            for sock in list(self._open):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()

    def restore(self) -> None:
        self._cut.clear()

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                inner, _ = self._listener.accept()
            except OSError:
                return
            if self._cut.is_set():
                inner.close()
                continue
            try:
                outer = socket.create_connection(self.upstream, timeout=2)
            except OSError:
                inner.close()
                continue
            outer.settimeout(None)
            with self._lock:
                self._open |= {inner, outer}
            for a, b in ((inner, outer), (outer, inner)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
