"""systemd/install.sh and the releases (issue 41): it installs into releases/<version>-src<digest> behind
the `current` link, keeps the one before as `previous`, installs the start guard outside every release and
the update units, and turns the old single environment into a link to current."""

from __future__ import annotations

import os
from pathlib import Path

from tests.test_install import SRC, _run, fakes, root, systemctl  # noqa: F401 (fixtures)

pytestmark = __import__("pytest").mark.slow  # runs install.sh in a subprocess


@systemctl
def test_the_checkout_goes_into_a_release_behind_current(fakes: Path, root: Path) -> None:  # noqa: F811
    old_venv = root / "opt/wordtable/venv/bin"
    old_venv.mkdir(parents=True)  # an install from before the releases
    (old_venv / "wordtable").write_text("#!/bin/sh\n")
    _run(fakes, "--root", str(root))
    prefix = root / "opt/wordtable"
    current = os.readlink(prefix / "current")
    assert current.startswith("releases/0.") and "-src" in current
    assert (prefix / current / "bin/python").exists()
    assert os.readlink(prefix / "venv") == "current"  # the guides' /opt/wordtable/venv/bin/wordtable still works
    assert not (prefix / "previous").exists()
    guard = root / "usr/local/lib/wordtable/guard"
    assert guard.read_bytes() == (SRC / "systemd/wordtable-guard").read_bytes() and os.access(guard, os.X_OK)
    units = root / "etc/systemd/system"
    for name in ("wordtable-update.path", "wordtable-update.service"):
        assert (units / name).read_bytes() == (SRC / "systemd" / name).read_bytes()
    assert (units / "multi-user.target.wants/wordtable-update.path").is_symlink()

    (prefix / "installed-source.sha256").write_text("another checkout\n")
    (prefix / "current").unlink()
    (prefix / "current").symlink_to("releases/0.0.1-old")
    _run(fakes, "--root", str(root))
    assert os.readlink(prefix / "current") == current and os.readlink(prefix / "previous") == "releases/0.0.1-old"

    _run(fakes, "--uninstall", "--root", str(root))
    assert not prefix.exists() and not guard.parent.exists()
    assert not (units / "wordtable-update.path").exists()
