"""The owner page's update, across the privilege line. The service (no privileges) may only *ask*: it
writes `update-request` into its state directory naming a release file on a USB stick; the root unit
wordtable-update.service (started by wordtable-update.path) takes the request, trusts nothing in it but a
path under the mount points of removable media, and writes its outcome to `update-status.json`, which the
page reads. One request at a time; a request is removed before anything else is done with it."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from firmware_host.update.release import SUFFIX

REQUEST = "update-request"
STATUS = "update-status.json"
MEDIA_ROOTS = (Path("/media"), Path("/mnt"), Path("/run/media"))  # where USB sticks are mounted
MAX_REQUEST = 4096


class RequestError(Exception):
    """A request that names no acceptable release file."""


def release_files(roots: tuple[Path, ...] = MEDIA_ROOTS) -> list[Path]:
    """The release files on mounted media (up to three folders deep; links out of them left out), newest
    first."""
    found: set[Path] = set()
    for root in roots:
        for pattern in (f"*{SUFFIX}", f"*/*{SUFFIX}", f"*/*/*{SUFFIX}", f"*/*/*/*{SUFFIX}"):
            try:
                found.update(path for path in root.glob(pattern) if _on_media(path, roots))
            except OSError:
                continue
    return sorted(found, key=lambda path: (-_mtime(path), str(path)))


def _on_media(path: Path, roots: tuple[Path, ...]) -> bool:
    try:
        acceptable(path, roots)
    except (RequestError, OSError):
        return False
    return True


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def acceptable(file: Path, roots: tuple[Path, ...] = MEDIA_ROOTS) -> Path:
    """`file` resolved, when it is a release file under one of `roots`; raises RequestError otherwise."""
    resolved = file.resolve()
    if resolved.suffix != SUFFIX or not any(resolved.is_relative_to(root) for root in roots):
        raise RequestError(f"{file} is not a release file (*{SUFFIX}) on a USB stick ({', '.join(map(str, roots))})")
    if not resolved.is_file():
        raise RequestError(f"{file} is not there (is the stick still in?)")
    return resolved


def write_request(state_dir: Path, file: Path, roots: tuple[Path, ...] = MEDIA_ROOTS) -> None:
    """Ask for an update from `file` (the service's side). Raises RequestError for an unacceptable file."""
    resolved = acceptable(file, roots)
    fresh = state_dir / f".{REQUEST}.new"
    fresh.write_text(json.dumps({"file": str(resolved)}), encoding="utf-8")
    os.replace(fresh, state_dir / REQUEST)


def take_request(request: Path, roots: tuple[Path, ...] = MEDIA_ROOTS) -> Path:
    """Read and remove the request (root's side); the release file it names. Raises RequestError."""
    try:
        with request.open("rb") as stream:
            data = stream.read(MAX_REQUEST + 1)
    except OSError as exc:
        raise RequestError(f"no request to read: {exc}") from exc
    finally:
        request.unlink(missing_ok=True)
    try:
        asked = json.loads(data)
        file = Path(asked["file"]) if len(data) <= MAX_REQUEST and isinstance(asked["file"], str) else None
    except (ValueError, KeyError, TypeError):
        file = None
    if file is None:
        raise RequestError("the request cannot be read")
    return acceptable(file, roots)


@dataclass(frozen=True, slots=True)
class Status:
    state_dir: Path

    def write(self, state: str, message: str) -> None:
        """state: running, done or failed."""
        if not self.state_dir.is_dir():
            return
        fresh = self.state_dir / f".{STATUS}.new"
        fresh.write_text(json.dumps({"state": state, "message": message}), encoding="utf-8")
        fresh.chmod(0o644)
        os.replace(fresh, self.state_dir / STATUS)

    def read(self) -> dict[str, str]:
        try:
            data = json.loads((self.state_dir / STATUS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"state": "none", "message": ""}
        return {"state": str(data.get("state", "none")), "message": str(data.get("message", ""))}
