"""The owner PIN on disk (firmware_host/owner_pin.py) and through the whole appliance (the simulator's shell,
its journal on disk): the state directory keeps only a salted scrypt hash, readable by the service alone;
neither the journal nor a backup holds the PIN's digits — the journal of one PIN is that of any other
typed with the same keys —, and a power cut in the middle of the entry resumes it without its digits."""

from __future__ import annotations

import io
import json
import sqlite3
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path

from firmware_host.backup import create_backup
from firmware_host.core import app
from firmware_host.core.events import Button, LongPress, Press, Turn
from firmware_host.core.pin_entry import PinEntry
from firmware_host.owner_pin import PIN_NAME, hashed, read_pin, save_pin
from firmware_host.paths import journal_path
from firmware_host.simulator import Simulator

PIN = "9173"


def test_the_file_holds_a_salted_hash_never_the_pin(tmp_path: Path) -> None:
    save_pin(tmp_path, PIN)
    text = (tmp_path / PIN_NAME).read_text()
    assert PIN not in text and set(json.loads(text)) == {"kdf", "n", "r", "p", "salt", "hash"}
    assert stat.S_IMODE((tmp_path / PIN_NAME).stat().st_mode) == 0o600
    stored = read_pin(tmp_path)
    assert stored is not None and stored.matches(PIN) and not stored.matches("9174")
    save_pin(tmp_path, PIN)  # the same PIN again: another salt, another hash
    assert (tmp_path / PIN_NAME).read_text() != text
    save_pin(tmp_path, None)
    assert read_pin(tmp_path) is None and not (tmp_path / PIN_NAME).exists()
    save_pin(tmp_path, None)  # removing none is no error


def test_a_damaged_or_foreign_file_is_no_pin(tmp_path: Path) -> None:
    stored = hashed(PIN, salt=b"s" * 16)
    good = {"kdf": "scrypt", "n": stored.n, "r": stored.r, "p": stored.p, "salt": stored.salt.hex(),
            "hash": stored.digest.hex()}
    for data in ("{", "[]", json.dumps({**good, "kdf": "md5"}), json.dumps({**good, "n": 2**30}),
                 json.dumps({**good, "salt": "zz"})):
        (tmp_path / PIN_NAME).write_text(data)
        assert read_pin(tmp_path) is None, data
    (tmp_path / PIN_NAME).write_text(json.dumps(good))
    assert read_pin(tmp_path) == stored and read_pin(None) is None


def _typed_on_the_box(sim: Simulator, pin: str, times: int = 2) -> None:
    events = app.events_to_open(sim.state, "owner_pin", sim.clock.now)
    assert events is not None
    for event in events:
        sim.send(event)
    for _ in range(times):
        for digit in pin:
            sim.send(Turn(int(digit), sim.clock.now))
            sim.send(Press(Button.START, sim.clock.now))
        sim.send(LongPress(Button.START, sim.clock.now))


def _payloads(state_dir: Path) -> list[dict]:
    with sqlite3.connect(journal_path(state_dir)) as db:
        rows = db.execute("SELECT payload FROM events ORDER BY seq").fetchall()
    return [json.loads(payload) for (payload,) in rows]


def test_the_journal_and_a_backup_never_hold_the_digits(make_sim: Callable[..., Simulator], tmp_path: Path) -> None:
    journals = []
    for pin in (PIN, "2468"):
        state = tmp_path / pin
        state.mkdir()
        sim = make_sim(state)
        _typed_on_the_box(sim, pin)
        stored = read_pin(state)
        assert stored is not None and stored.matches(pin)  # the shell kept its hash
        sim.close()
        journals.append(_payloads(state))
        backup = zipfile.ZipFile(io.BytesIO(create_backup(state)))
        assert PIN_NAME not in backup.namelist()  # the hash stays on the box
        with sqlite3.connect(":memory:") as db:
            db.deserialize(backup.read("journal.sqlite3"))
            assert not [row for row in db.execute("SELECT payload FROM events") if pin in row[0]]
    assert journals[0] == journals[1] and any(data["type"] == "pin_key" for data in journals[0])
    assert not [data for data in journals[0] if data["type"] in ("turn", "text")]


def test_a_power_cut_in_the_entry_resumes_it_without_its_digits(sim: Simulator, tmp_path: Path) -> None:
    events = app.events_to_open(sim.state, "owner_pin", sim.clock.now)
    assert events is not None
    for event in [*events, Turn(7, 0.0), Press(Button.START, 0.0), Press(Button.START, 0.0)]:
        sim.send(event)
    sim.restart()
    assert sim.state.overlay == PinEntry("new", 2)
    sim.send(Press(Button.START, sim.clock.now))
    assert sim.state.overlay == PinEntry() and "Neu eingeben" in sim.screen_text()
    assert read_pin(tmp_path) is None
