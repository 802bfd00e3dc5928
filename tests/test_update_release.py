"""The release file (firmware_host/update/release.py) without pip: the lock decided for a target, and a
file whose members do not match its manifest refused; the owner page's request across the privilege line;
what an update changes."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from firmware_host.network.files import PROFILES_DIR
from firmware_host.update.apply import copy_state
from firmware_host.update.layout import Layout
from firmware_host.update.packages import compare
from firmware_host.update.release import (
    PI_64,
    Manifest,
    ReleaseError,
    Target,
    lock_for,
    sha256_file,
    unpack_release,
)
from firmware_host.update.request import RequestError, Status, release_files, take_request, write_request

LOCK = Path(__file__).resolve().parents[1] / "systemd" / "requirements.lock"


def test_the_lock_is_decided_for_the_target_with_every_hash_kept() -> None:
    text, pins = lock_for(LOCK.read_text(), PI_64)
    assert pins["lgpio"] == "0.2.2.0" and "rpi-gpio" not in pins  # 64-bit Pi: lgpio, not RPi.GPIO
    assert "typing-extensions" in pins  # python_full_version < '3.13' on Python 3.11
    assert ";" not in text
    block = text.split("lgpio==0.2.2.0 \\\n", 1)[1].split("\n")
    assert block[0].startswith("    --hash=sha256:") and not block[-2].endswith("\\")
    _, armv7 = lock_for(LOCK.read_text(), Target((), "armv7l", "3.13"))
    assert "rpi-gpio" in armv7 and "lgpio" not in armv7 and "typing-extensions" not in armv7


def _release(path: Path, members: dict[str, bytes], *, manifest: dict[str, str] | None = None,
             extra: dict[str, bytes] | None = None) -> Path:
    files = manifest if manifest is not None else {
        name: __import__("hashlib").sha256(data).hexdigest() for name, data in members.items()}
    text = Manifest("0.2.0", "0.2.0-abc", "x86_64", "3.11", {"wordtable": "0.2.0"}, files).to_json()
    with tarfile.open(path, "w") as tar:
        for name, data in {"manifest.json": text.encode(), **members, **(extra or {})}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


MEMBERS = {"requirements.lock": b"pillow==13.0.0 \\\n    --hash=sha256:00\n",
           "wheels/wordtable-0.2.0-py3-none-any.whl": b"the wheel"}


def test_a_whole_release_unpacks_with_every_member_checked(tmp_path: Path) -> None:
    unpacked = unpack_release(_release(tmp_path / "r.wtrelease", MEMBERS), tmp_path / "out")
    assert unpacked.manifest.release == "0.2.0-abc"
    assert unpacked.project_wheel().read_bytes() == b"the wheel"
    assert sha256_file(unpacked.lock) == unpacked.manifest.files["requirements.lock"]


@pytest.mark.parametrize(("change", "message"), [
    ("damaged", "is damaged"),
    ("missing", "incomplete, missing wheels/wordtable"),
    ("extra", "is not in the manifest"),
    ("escape", "may not"),
    ("odd", "unexpected member"),
])
def test_a_release_that_does_not_match_its_manifest_is_refused(tmp_path: Path, change: str, message: str) -> None:
    members = dict(MEMBERS)
    good = {name: __import__("hashlib").sha256(data).hexdigest() for name, data in members.items()}
    extra: dict[str, bytes] = {}
    if change == "damaged":
        members["wheels/wordtable-0.2.0-py3-none-any.whl"] = b"the whee1"
    elif change == "missing":
        del members["wheels/wordtable-0.2.0-py3-none-any.whl"]
    elif change == "extra":
        extra["wheels/evil-1.0-py3-none-any.whl"] = b"x"
    elif change == "escape":
        extra["../../etc/cron.d/x"] = b"x"
    else:
        extra["setup.sh"] = b"x"
    path = _release(tmp_path / "r.wtrelease", members, manifest=good, extra=extra)
    with pytest.raises(ReleaseError, match=message):
        unpack_release(path, tmp_path / "out")
    assert not (tmp_path / "etc").exists()


def test_a_file_that_is_no_release_is_said_so(tmp_path: Path) -> None:
    path = tmp_path / "photo.wtrelease"
    path.write_bytes(b"\x89PNG not a tar")
    with pytest.raises(ReleaseError, match="not a release file"):
        unpack_release(path, tmp_path / "out")
    with tarfile.open(tmp_path / "other.wtrelease", "w") as tar:
        data = json.dumps({"format": 9}).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(ReleaseError, match="not a wordtable release"):
        unpack_release(tmp_path / "other.wtrelease", tmp_path / "out2")


def test_what_changes_between_two_releases() -> None:
    changes = compare({"pillow": "12.0", "segno": "1.6", "wordtable": "0.1.0"},
                      {"pillow": "13.0.0", "cbor2": "6.3.0", "wordtable": "0.1.0"})
    assert changes.lines() == ["  changed pillow 12.0 -> 13.0.0", "  added   cbor2 6.3.0", "  removed segno 1.6"]
    assert compare({"a": "1"}, {"a": "1"}).lines() == ["packages: none changed"]


def test_a_switch_keeps_the_old_release_as_previous_and_puts_the_new_on_trial(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    assert layout.switch("0.1.0-a") is None
    assert layout.switch("0.2.0-b") == "0.1.0-a"
    assert (layout.pointed("current"), layout.pointed("previous"), layout.on_trial()) == ("0.2.0-b", "0.1.0-a",
                                                                                         "0.2.0-b")
    assert (tmp_path / "current").readlink() == Path("releases/0.2.0-b")  # relative: a mounted root reads the same


def test_the_page_may_ask_only_for_a_release_file_on_a_stick(tmp_path: Path) -> None:
    media, state = tmp_path / "media", tmp_path / "state"
    (media / "usb").mkdir(parents=True)
    state.mkdir()
    stick = media / "usb" / "wordtable-aarch64.wtrelease"
    stick.write_bytes(b"r")
    (tmp_path / "elsewhere.wtrelease").write_bytes(b"r")
    (media / "usb" / "sneaky.wtrelease").symlink_to(tmp_path / "elsewhere.wtrelease")
    assert release_files((media,)) == [stick]
    for refused in (tmp_path / "elsewhere.wtrelease", media / "usb" / "sneaky.wtrelease", media / "usb" / "x.txt"):
        with pytest.raises(RequestError):
            write_request(state, refused, (media,))
    write_request(state, stick, (media,))
    assert take_request(state / "update-request", (media,)) == stick
    assert not (state / "update-request").exists()  # taken once
    (state / "update-request").write_text(json.dumps({"file": str(tmp_path / "elsewhere.wtrelease")}))
    with pytest.raises(RequestError, match="on a USB stick"):
        take_request(state / "update-request", (media,))  # root trusts nothing the service wrote
    (state / "update-request").write_text("{not json")
    with pytest.raises(RequestError, match="cannot be read"):
        take_request(state / "update-request", (media,))
    Status(state).write("failed", "the health check failed")
    assert Status(state).read() == {"state": "failed", "message": "the health check failed"}


def test_an_update_on_the_layout_from_before_releases_says_to_run_the_installer(tmp_path: Path) -> None:
    from firmware_host.update.apply import Box, UpdateError, update

    (tmp_path / "opt" / "venv" / "bin").mkdir(parents=True)
    box = Box(Layout(tmp_path / "opt"), tmp_path / "state", None, "python3")
    with pytest.raises(UpdateError, match=r"install\.sh"):
        update(tmp_path / "x.wtrelease", box, check_only=True, restart=lambda: None, say=print)
    assert not (tmp_path / "opt" / "releases").exists()


def test_a_request_from_the_page_for_a_file_off_the_sticks_fails_with_its_status(tmp_path: Path) -> None:
    from firmware_host.cli import main

    state = tmp_path / "state"
    state.mkdir()
    (tmp_path / "x.wtrelease").write_bytes(b"r")
    (state / "update-request").write_text(json.dumps({"file": str(tmp_path / "x.wtrelease")}))
    code = main(["update", "--request", str(state / "update-request"), "--prefix", str(tmp_path / "opt"),
                 "--state-dir", str(state), "--no-restart"])
    assert code == 1 and not (state / "update-request").exists()
    status = Status(state).read()
    assert status["state"] == "failed" and "USB stick" in status["message"]
    assert not (tmp_path / "opt").exists()


def test_an_update_during_a_trial_keeps_the_last_good_release_as_previous(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    layout.switch("0.1.0-good")
    layout.trial.unlink()  # confirmed
    layout.switch("0.2.0-trial")  # not yet proven (no READY noted)
    assert layout.last_good() == "0.1.0-good"
    layout.switch("0.3.0-next")
    assert (layout.pointed("current"), layout.pointed("previous")) == ("0.3.0-next", "0.1.0-good")


def test_the_health_checks_copy_of_the_state_leaves_the_wifi_passwords_out(tmp_path: Path) -> None:
    state = tmp_path / "state"
    (state / PROFILES_DIR).mkdir(parents=True)
    (state / PROFILES_DIR / "Zuhause.nmconnection").write_text("[wifi-security]\npsk=geheim\n")
    (state / "kept").mkdir()
    (state / "kept" / "people.json").write_text("{}")
    copy_state(state, tmp_path / "copy")
    copied = sorted(p.relative_to(tmp_path / "copy").as_posix() for p in (tmp_path / "copy").rglob("*"))
    assert copied == ["kept", "kept/people.json"]
