"""The release file: one uncompressed tar that installs wordtable with no network (a USB stick will do).

Members: `manifest.json` (format, version, release id, target, packages, and the SHA-256 of every other
member), `requirements.lock` (the dependencies pinned with their hashes, the markers already decided for
the target) and `wheels/*.whl` (the project's wheel and one wheel per dependency, for the target's
platform and Python). `unpack_release` refuses a file whose members do not match its manifest exactly; the
digests catch a damaged or truncated file, not a forged one (nothing is signed).

`build_release` runs pip (a subprocess, with this machine's pip configuration): `pip wheel` for the
project, `pip download --only-binary` for the locked dependencies of the target. Markers in the lock are
decided here for the target (pip decides them for the machine it runs on, even with `--platform`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

FORMAT = 1
MANIFEST = "manifest.json"
LOCK = "requirements.lock"
WHEELS = "wheels"
SUFFIX = ".wtrelease"


class ReleaseError(Exception):
    """A release file that cannot be built or used; the message says what and why."""


@dataclass(frozen=True, slots=True)
class Target:
    """The machine a release is for: pip's platform tag, the marker values of that machine, its Python."""

    platforms: tuple[str, ...]  # pip's platform tags; empty: this machine (pip's own choice)
    machine: str
    python: str  # "3.11"

    def markers(self) -> dict[str, str]:
        return {"platform_machine": self.machine, "sys_platform": "linux", "platform_system": "Linux",
                "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython",
                "python_version": self.python, "python_full_version": self.python + ".0", "extra": ""}


# Raspberry Pi OS 64-bit (Bookworm): glibc 2.36, so every manylinux tag up to 2.36 (pip takes them as given).
PI_64 = Target((*tuple(f"manylinux_2_{minor}_aarch64" for minor in range(36, 16, -1)), "manylinux2014_aarch64"),
               "aarch64", "3.11")


def this_machine() -> Target:
    return Target((), os.uname().machine, f"{sys.version_info.major}.{sys.version_info.minor}")


@dataclass(frozen=True, slots=True)
class Manifest:
    version: str
    release: str  # the directory name on the box: version and the project wheel's digest
    machine: str
    python: str
    packages: Mapping[str, str]  # normalised name -> version, the project included
    files: Mapping[str, str]  # member name -> sha256

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "name": "wordtable", "version": self.version, "release": self.release,
                           "machine": self.machine, "python": self.python, "packages": dict(self.packages),
                           "files": dict(self.files)}, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        try:
            data = json.loads(text)
            if data.get("format") != FORMAT or data.get("name") != "wordtable":
                raise ReleaseError(f"not a wordtable release (format {data.get('format')!r})")
            manifest = cls(str(data["version"]), str(data["release"]), str(data["machine"]), str(data["python"]),
                           {str(k): str(v) for k, v in data["packages"].items()},
                           {str(k): str(v) for k, v in data["files"].items()})
        except (ValueError, KeyError, AttributeError, TypeError) as exc:
            raise ReleaseError(f"the manifest cannot be read: {exc}") from exc
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.+_-]*", manifest.release):
            raise ReleaseError(f"the manifest names a release id that is no directory name: {manifest.release!r}")
        return manifest


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# ---- the lock, decided for a target -----------------------------------------------------------------

_REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]*?))?\s*\\?$")


def lock_for(lock_text: str, target: Target) -> tuple[str, dict[str, str]]:
    """The lock with the requirements that apply to `target` only, their markers dropped, and the pins
    {name: version} it keeps. Raises ReleaseError for a line it does not understand."""
    from packaging.markers import Marker

    blocks: list[list[str]] = []  # a requirement and its hashes
    pins: dict[str, str] = {}
    keep = False
    for raw in lock_text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash="):
            if keep:
                blocks[-1].append(line.rstrip(" \\"))
            continue
        found = _REQUIREMENT.match(line)
        if found is None:
            raise ReleaseError(f"requirements.lock: cannot read {raw!r}")
        name, version, marker = found.groups()
        keep = not marker or Marker(marker).evaluate(target.markers())
        if keep:
            pins[normalise(name)] = version
            blocks.append([f"{name}=={version}"])
    return "".join(" \\\n    ".join(block) + "\n" for block in blocks), pins


# ---- building ---------------------------------------------------------------------------------------

def pip_env() -> dict[str, str]:
    """The environment for pip: this machine's pip configuration (indexes, constraints) left out."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _pip(*args: str, python: str = sys.executable, env: Mapping[str, str] | None = None) -> None:
    done = subprocess.run([python, "-m", "pip", *args], capture_output=True, text=True, check=False,
                          env=dict(pip_env() if env is None else env))
    if done.returncode != 0:
        raise ReleaseError(f"pip {args[0]} failed:\n{(done.stdout + done.stderr).strip()[-3000:]}")


def build_release(source: Path, out: Path, *, target: Target, index_env: Mapping[str, str] | None = None,
                  wheel_cache: Path | None = None) -> Manifest:
    """Write the release file of the checkout `source` for `target` to `out`; its manifest.
    `index_env`: the environment pip downloads with (default: this machine's pip configuration);
    `wheel_cache`: a directory of dependency wheels kept between builds (downloaded once)."""
    lock_text, pins = lock_for((source / "systemd" / LOCK).read_text(encoding="utf-8"), target)
    with tempfile.TemporaryDirectory(prefix="wordtable-release-") as work:
        wheels = Path(work) / WHEELS
        wheels.mkdir()
        index = dict(os.environ if index_env is None else index_env)
        _pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(_clean_copy(source, Path(work))),
             env=index)
        built = list(wheels.glob("wordtable-*.whl"))
        if len(built) != 1:
            raise ReleaseError(f"pip wheel made {[p.name for p in built]}, not one wordtable wheel")
        project = built[0]
        version = project.name.split("-")[1]
        locked = Path(work) / LOCK
        locked.write_text(lock_text, encoding="utf-8")
        cache = wheel_cache or Path(work) / "cache"
        cache.mkdir(parents=True, exist_ok=True)
        platform = [f"--platform={tag}" for tag in target.platforms]
        if target.platforms:
            platform += ["--python-version", target.python, "--implementation", "cp"]
        _pip("download", "--quiet", "--only-binary=:all:", "--no-deps", "--require-hashes", *platform,
             "--dest", str(cache), "-r", str(locked), env=index)
        for name, version_pin in pins.items():
            found = [p for p in cache.glob("*.whl") if _wheel_is(p, name, version_pin)]
            if not found:
                raise ReleaseError(f"no wheel of {name}=={version_pin} for {target.machine}, Python {target.python}")
            shutil.copy2(_best(found, target), wheels / _best(found, target).name)
        pins[normalise("wordtable")] = version
        files = {LOCK: sha256_file(locked)}
        files.update({f"{WHEELS}/{p.name}": sha256_file(p) for p in sorted(wheels.iterdir())})
        release = f"{version}-{files[f'{WHEELS}/{project.name}'][:10]}"
        manifest = Manifest(version, release, target.machine, target.python, dict(sorted(pins.items())), files)
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_name(out.name + ".partial")
        with tarfile.open(partial, "w", format=tarfile.PAX_FORMAT) as tar:
            _add_bytes(tar, MANIFEST, manifest.to_json().encode())
            for member in files:
                tar.add(Path(work) / member, arcname=member, recursive=False)
        os.replace(partial, out)
    return manifest


PACKAGED = ("pyproject.toml", "README.md", "firmware_host", "hw", "drivers")  # what the wheel is made of


def _clean_copy(source: Path, work: Path) -> Path:
    """What the wheel is built from: a copy of the checkout's packaged parts, so that no build output of
    an earlier build in the checkout (setuptools' build/ keeps deleted modules) gets into the wheel."""
    tree = work / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in PACKAGED:
        path = source / name
        if path.is_dir():
            shutil.copytree(path, tree / name, ignore=ignore)
        else:
            tree.mkdir(exist_ok=True)
            shutil.copy2(path, tree / name)
    return tree


def _wheel_is(path: Path, name: str, version: str) -> bool:
    parts = path.name.split("-")
    return len(parts) >= 5 and normalise(parts[0]) == name and parts[1] == version


def _best(found: list[Path], target: Target) -> Path:
    """Of several wheels of one pin (a cache shared between targets), the one for the target's machine."""
    for path in found:
        if target.machine in path.name:
            return path
    return sorted(found)[0]


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


# ---- reading ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Unpacked:
    manifest: Manifest
    folder: Path  # holds requirements.lock and wheels/

    @property
    def lock(self) -> Path:
        return self.folder / LOCK

    @property
    def wheels(self) -> Path:
        return self.folder / WHEELS

    def project_wheel(self) -> Path:
        return next(self.wheels.glob("wordtable-*.whl"))


def read_manifest(path: Path) -> Manifest:
    """The manifest of a release file, members not checked yet (`--check-only` checks them too)."""
    try:
        with tarfile.open(path, "r:") as tar:
            member = tar.extractfile(MANIFEST)
            if member is None:
                raise ReleaseError(f"{path}: no {MANIFEST}")
            return Manifest.from_json(member.read().decode("utf-8"))
    except (OSError, tarfile.TarError, KeyError, UnicodeDecodeError) as exc:
        raise ReleaseError(f"{path}: not a release file ({exc})") from exc


def unpack_release(path: Path, into: Path) -> Unpacked:
    """Check every member of the release file against its manifest and unpack it into `into` (a new,
    empty directory). Raises ReleaseError — a missing, extra, damaged or misplaced member — and then
    leaves nothing usable in `into`."""
    manifest = read_manifest(path)
    seen: set[str] = set()
    try:
        with tarfile.open(path, "r:") as tar:
            for member in _members(tar):
                if member.name == MANIFEST:
                    continue
                if member.name not in manifest.files:
                    raise ReleaseError(f"{path}: {member.name} is not in the manifest")
                target = into / member.name
                target.parent.mkdir(parents=True, exist_ok=True)
                stream = tar.extractfile(member)
                assert stream is not None  # _members keeps regular files only
                with target.open("wb") as out:
                    shutil.copyfileobj(stream, out)
                if sha256_file(target) != manifest.files[member.name]:
                    raise ReleaseError(f"{path}: {member.name} is damaged (its SHA-256 differs from the manifest's)")
                seen.add(member.name)
    except (OSError, tarfile.TarError) as exc:
        raise ReleaseError(f"{path}: cannot be read ({exc})") from exc
    missing = sorted(set(manifest.files) - seen)
    if missing:
        raise ReleaseError(f"{path}: incomplete, missing {', '.join(missing)}")
    unpacked = Unpacked(manifest, into)
    if not list(unpacked.wheels.glob("wordtable-*.whl")):
        raise ReleaseError(f"{path}: holds no wordtable wheel")
    return unpacked


def _members(tar: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    for member in tar:
        name = PurePosixPath(member.name)
        if not member.isfile() or name.is_absolute() or ".." in name.parts or str(name) != member.name:
            raise ReleaseError(f"the release file holds a member it may not: {member.name!r}")
        if member.name != MANIFEST and not (member.name == LOCK or (
                name.parent == PurePosixPath(WHEELS) and name.suffix == ".whl")):
            raise ReleaseError(f"the release file holds an unexpected member: {member.name!r}")
        yield member
