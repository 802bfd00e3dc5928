"""The QR codes the box may show next, encoded before a button asks for one: the first QR code of a process
costs ~80 ms of CPU here (segno's import and the encoding; ~0.5 s on a Pi Zero 2 W), which would otherwise
land between the long NEXT and its frame. `QrWarm` observes the shell's state (`Shell.observe`); when the
codes the table can show change (`core.wifi_table.qr_payloads`: a new address or table code, the access
point up) it encodes and draws them into the renderer's caches (`render_screens.qr_image`) on a thread of
its own that may wait (`thread_priority`: below the loop, the display writer and the alarm)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from firmware_host import thread_priority
from firmware_host.core import app
from firmware_host.core.wifi_table import qr_payloads
from firmware_host.render_screens import qr_image, qr_matrix
from firmware_host.shell import Shell

log = logging.getLogger(__name__)


class QrWarm:
    """Encodes the QR codes of the latest state that differ from the last ones asked for (`encode`: into
    the renderer's cache of the codes by default). `wait()` returns once the latest are encoded (tests)."""

    def __init__(self, encode: Callable[[str], object] = qr_matrix) -> None:
        self.encode = encode
        self._seen: tuple[object, object] | None = None  # the page and Wi-Fi states last looked at
        self._asked: tuple[str, ...] = ()
        self._worker: threading.Thread | None = None

    def state_changed(self, state: app.AppState) -> None:
        """On the loop's thread after every step: cheap unless the page's or the Wi-Fi's state changed."""
        seen = (state.page, state.wifi)
        if seen == self._seen:
            return
        self._seen = seen
        payloads = qr_payloads(state.wifi, state.page)
        new = tuple(payload for payload in payloads if payload not in self._asked)
        self._asked = payloads
        if new:
            self._worker = threading.Thread(target=self._encode, args=(new,), name="page-qr", daemon=True)
            self._worker.start()

    def wait(self, timeout: float = 10.0) -> None:
        if self._worker is not None:
            self._worker.join(timeout)

    def _encode(self, payloads: tuple[str, ...]) -> None:
        thread_priority.let_wait([threading.current_thread()])
        for payload in payloads:
            try:
                self.encode(payload)
            except Exception:  # the press then encodes it itself (and says why it cannot)
                log.exception("the QR code of %r was not encoded ahead", payload)


def warm_qr_codes(shell: Shell) -> QrWarm:
    """The QR codes of `shell`'s state encoded and drawn for its panel ahead, now and after every step that
    changes them."""
    height = shell.outputs.display.size[1]
    warm = QrWarm(lambda payload: qr_image(payload, height))
    shell.observe(warm.state_changed)
    warm.state_changed(shell.state)
    return warm
