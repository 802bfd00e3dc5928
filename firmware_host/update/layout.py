"""The releases on the box, under one prefix (`/opt/wordtable`):

    releases/<release>/     a virtual environment each (made by `wordtable update` or install.sh)
    current -> releases/…   what the unit runs (`ExecStart=/opt/wordtable/current/bin/wordtable run`)
    previous -> releases/…  what the start guard goes back to
    venv -> current         the old single environment's path, for the commands in the guides
    trial                   a release switched to but not yet confirmed: the start guard's state
    rolled-back             the guard's last word when it went back (read by `wordtable update`)

A pointer is replaced by rename(2) of a new symlink over it, so a power cut leaves the old one or the new
one, never none. The targets are relative, so a root mounted elsewhere (an image, a test) reads the same.
The trial file's format is the start guard's (`systemd/wordtable-guard`): shell `key=value` lines.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PREFIX = Path("/opt/wordtable")
GUARD_PATH = Path("/usr/local/lib/wordtable/guard")
PROBATION_S = 120  # as the start guard's default: the time after READY that confirms a release


@dataclass(frozen=True, slots=True)
class Layout:
    prefix: Path = DEFAULT_PREFIX

    @property
    def releases(self) -> Path:
        return self.prefix / "releases"

    @property
    def trial(self) -> Path:
        return self.prefix / "trial"

    @property
    def rolled_back(self) -> Path:
        return self.prefix / "rolled-back"

    def release_dir(self, release: str) -> Path:
        return self.releases / release

    def pointed(self, name: str) -> str | None:
        """The release `current` or `previous` points to, or None."""
        link = self.prefix / name
        if not link.is_symlink():
            return None
        return Path(os.readlink(link)).name

    def point(self, name: str, release: str) -> None:
        """Point `name` at `release`, atomically."""
        link = self.prefix / name
        fresh = link.with_name(f".{name}.new")
        fresh.unlink(missing_ok=True)
        fresh.symlink_to(Path("releases") / release)
        os.replace(fresh, link)

    def switch(self, release: str) -> str | None:
        """Make `release` current on trial; `previous` becomes the last good release (the old current,
        unless that is itself on trial and unproven: then previous stays). The release switched from."""
        old = self.pointed("current")
        good = self.last_good()
        if good is not None and good != release:
            self.point("previous", good)
        self.write_trial(release)
        self.point("current", release)
        return old

    def last_good(self) -> str | None:
        """`current`, unless it is on trial and has not yet run PROBATION_S after READY: then `previous`
        (if there is one)."""
        current = self.pointed("current")
        if current is None or self.on_trial() != current:
            return current
        values = self._trial_values()
        try:
            ready_at = int(values.get("ready_at", ""))
            with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as boot, \
                    open("/proc/uptime", encoding="ascii") as uptime:
                same_boot = boot.read().strip() == values.get("ready_boot")
                now = float(uptime.read().split()[0])
        except (OSError, ValueError):
            same_boot, now, ready_at = False, 0.0, 0
        proven = same_boot and now - ready_at >= PROBATION_S
        return current if proven else self.pointed("previous") or current

    def write_trial(self, release: str) -> None:
        fresh = self.trial.with_name(".trial.new")
        fresh.write_text(f"release={release}\nfailures=0\nrunning=0\nready_boot=\nready_at=\n", encoding="utf-8")
        os.replace(fresh, self.trial)

    def on_trial(self) -> str | None:
        """The release on trial, or None (confirmed, or no update yet)."""
        return self._trial_values().get("release") or None

    def _trial_values(self) -> dict[str, str]:
        try:
            lines = self.trial.read_text(encoding="utf-8").splitlines()
        except OSError:
            return {}
        return {key: value for key, _, value in (line.partition("=") for line in lines)}

    def installed(self) -> list[str]:
        if not self.releases.is_dir():
            return []
        return sorted(p.name for p in self.releases.iterdir() if p.is_dir() and not p.name.startswith("."))
