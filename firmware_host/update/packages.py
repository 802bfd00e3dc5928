"""What an update changes: the packages of two releases compared, and the packages of an installed one."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_host.update.release import Manifest, ReleaseError, normalise, pip_env

RELEASE_JSON = "wordtable-release.json"  # the manifest, kept in each release's environment


@dataclass(frozen=True, slots=True)
class Changes:
    added: dict[str, str]
    removed: dict[str, str]
    changed: dict[str, tuple[str, str]]  # name -> (old, new)

    def lines(self) -> list[str]:
        if not (self.added or self.removed or self.changed):
            return ["packages: none changed"]
        return ([f"  changed {name} {old} -> {new}" for name, (old, new) in sorted(self.changed.items())]
                + [f"  added   {name} {version}" for name, version in sorted(self.added.items())]
                + [f"  removed {name} {version}" for name, version in sorted(self.removed.items())])


def compare(old: Mapping[str, str], new: Mapping[str, str]) -> Changes:
    return Changes({n: v for n, v in new.items() if n not in old}, {n: v for n, v in old.items() if n not in new},
                   {n: (old[n], v) for n, v in new.items() if n in old and old[n] != v})


def installed(environment: Path) -> dict[str, str]:
    """{name: version} of a release's environment: from its kept manifest, else pip's list of what the
    environment itself holds (an install from a checkout by install.sh). Empty when there is none."""
    kept = environment / RELEASE_JSON
    if kept.is_file():
        try:
            return dict(Manifest.from_json(kept.read_text(encoding="utf-8")).packages)
        except (OSError, ReleaseError):
            pass
    python = environment / "bin" / "python"
    if not python.exists():
        return {}
    done = subprocess.run([str(python), "-m", "pip", "list", "--local", "--format=json"], capture_output=True,
                          text=True, check=False, env=pip_env())
    if done.returncode != 0:
        return {}
    return {normalise(item["name"]): item["version"] for item in json.loads(done.stdout)
            if normalise(item["name"]) != "pip"}
