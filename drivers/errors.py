"""The one error every driver raises for a part of the board it cannot open or drive.

It lives here, not in `hw`, because drivers import nothing from `hw`; `hw.protocols` re-exports it.
"""

from __future__ import annotations


class HardwareError(RuntimeError):
    """A part of the board could not be opened or driven; the message says which part and why."""
