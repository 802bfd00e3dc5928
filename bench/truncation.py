"""How many screens reached by the documented scripts (docs/scripts/*.script) lose text to truncation, on
128×64 and 256×64: prints each loss and the counts. `python bench/truncation.py`"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_host.core.screens import describe
from firmware_host.render import lost
from tests.script_screens import ALL_SCRIPTS, every_screen

SIZES = ((128, 64), (256, 64))


def main() -> None:
    counts = dict.fromkeys(SIZES, 0)
    screens = 0
    for script in ALL_SCRIPTS:
        for line, screen in every_screen(script):
            screens += 1
            for size in SIZES:
                cut = lost(screen, size)
                if cut:
                    counts[size] += 1
                    print(f"{script}:{line} {size[0]}x{size[1]}: {cut!r}  [{describe(screen)}]")
    print(f"screens: {screens}; " + "; ".join(f"truncated at {w}x{h}: {n}" for (w, h), n in counts.items()))


if __name__ == "__main__":
    main()
