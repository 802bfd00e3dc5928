"""Write the reference PNGs in tests/reference/ anew, and list what changed.

    python -m tests.update_references           # write new and changed PNGs, list them
    python -m tests.update_references --check   # write nothing; exit 1 if anything would change

The screens are the ones the tests compare: `REFERENCE_SCREENS` (tests/screens.py) and the
`# snapshot: NAME` points of the game scripts (tests/game_scripts.py), each at every panel size, and the
frames of the failed starts (tests/startup_cases.py, the sim profile's panel; the full-disk case needs root).
The tests never write a reference; this is the only way to accept a new look: run it, look at the
PNGs it lists (`git diff --stat tests/reference`), commit them.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from PIL import Image

from firmware_host.render import render
from tests.game_scripts import GAME_SCRIPTS, play_to_snapshots, reference_name
from tests.screens import PANEL_SIZES, REFERENCE_DIR, REFERENCE_SCREENS, differing_pixels, reference_path
from tests.startup_cases import CASES as STARTUP_CASES
from tests.startup_cases import start_image


def references() -> Iterator[tuple[str, Image.Image]]:
    """(reference name, rendered image) for every reference the tests compare."""
    for name, screen in sorted(REFERENCE_SCREENS.items()):
        for size in PANEL_SIZES:
            yield name, render(screen, size)
    for script in GAME_SCRIPTS:
        for snapshot, screen in play_to_snapshots(script):
            for size in PANEL_SIZES:
                yield reference_name(script, snapshot), render(screen, size)
    for case in STARTUP_CASES:
        with tempfile.TemporaryDirectory() as tmp:
            shown = start_image(case, Path(tmp))
        if shown is not None:
            yield f"startup_{case}", shown[0]


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print(__doc__, file=sys.stderr)
        return 2
    check = argv == ["--check"]
    changed, unchanged, wanted = [], 0, set()
    for name, image in references():
        path = reference_path(name, image.size)
        wanted.add(path.name)
        differing = differing_pixels(image, path)
        if differing == 0:
            unchanged += 1
            continue
        if differing is None:
            changed.append(f"new      {path.name}" if not path.exists() else f"resized  {path.name}")
        else:
            changed.append(f"changed  {path.name} ({differing} pixels)")
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            image.save(path)
    stale = sorted(p.name for p in REFERENCE_DIR.glob("*.png") if p.name not in wanted)
    for line in changed:
        print(line)
    for name in stale:
        print(f"stale    {name} (no test compares it: git rm it)")
    verb = "would change" if check else "written"
    print(f"{len(changed)} {verb}, {unchanged} unchanged, {len(stale)} stale")
    return 1 if check and (changed or stale) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
