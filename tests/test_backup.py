"""`wordtable backup` / `wordtable restore` (firmware_host/backup.py): a restore onto a fresh state directory
gives the same `journal list`, exports, scores and journal contents; a damaged, foreign or path-escaping
backup, and a state directory that holds a box's data (without --replace), are refused with nothing changed."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sqlite3
import stat
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from firmware_host import cli
from firmware_host.backup import MANIFEST, BackupError, create_backup, read_backup, restore_backup
from firmware_host.journal import RECORD, Journal
from firmware_host.kept_store import load_kept, save_kept
from firmware_host.page.guard import STORE_NAME
from firmware_host.paths import JOURNAL_NAME, journal_path
from firmware_host.staged_restore import apply_staged_restore, stage_restore, staged_path

pytestmark = pytest.mark.slow  # whole journals played, backed up, restored and read again

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
CARDS = {"cardtable": 1, "game": "quiddler", "cards": {"62E3086CED": "QU", "62E3086CEE": "A"}}


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


RECORDED = ("perfektes-wort", "knack-das-wort", "perfect-words")


def add_recorded_games(state: Path, games: tuple[str, ...] = RECORDED) -> None:
    """The documented games' records (tests/golden) as finished games of the journal, and a setting."""
    with Journal.open(journal_path(state)) as journal:
        for number, game in enumerate(games):
            text = (GOLDEN / f"{game}.record.jsonl").read_text("utf-8")
            lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]  # less "exit 0"
            players = lines[1].get("players", [])
            game_id = journal.start_game(game, players, wall_time=f"2026-05-0{number + 1}T19:00:00Z")
            for minute, line in enumerate(lines[1:]):
                journal.append(game_id, RECORD, line, f"2026-05-0{number + 1}T19:{minute % 60:02d}:00Z")
            journal.finish(game_id, players[0], wall_time=f"2026-05-0{number + 1}T20:05:00Z")
        journal.set_setting("timer.duration", 90)


def views(state: Path) -> dict[str, str]:
    """Everything read from the state: `journal list`, each game's exports, the statistics (`stats --json`:
    everyone's, and each person's), the journal's rows, the kept files."""
    code, listed, _ = run_cli("journal", "list", "--state-dir", str(state))
    assert code == 0
    seen = {"list": listed}
    for line in listed.splitlines()[1:]:
        game_id = line.split()[0]
        for form in ("jsonl", "csv"):
            code, text, err = run_cli("journal", "export", "--game", game_id, "--format", form,
                                      "--state-dir", str(state))
            assert code == 0, err
            seen[f"{game_id}.{form}"] = text
    code, stats, err = run_cli("stats", "--json", "--state-dir", str(state))
    assert code == 0, err
    seen["stats"] = stats
    for person in json.loads(stats)["people"]:  # each person's page too
        code, text, err = run_cli("stats", "--json", "--person", person["name"], "--state-dir", str(state))
        assert code == 0, err
        seen[f"stats.{person['name']}"] = text
    db = sqlite3.connect(f"{journal_path(state).resolve().as_uri()}?mode=ro", uri=True)
    try:
        seen["rows"] = "\n".join(db.iterdump())
    finally:
        db.close()
    for path in sorted((state / "kept").rglob("*.json")):
        seen[path.relative_to(state).as_posix()] = path.read_text("utf-8")
    return seen


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under `root` with its bytes (None: a directory); empty when `root` is absent."""
    if not root.exists():
        return {}
    return {p.relative_to(root).as_posix(): (None if p.is_dir() else p.read_bytes()) for p in sorted(root.rglob("*"))}


@pytest.fixture
def state(tmp_path: Path) -> Path:
    box = tmp_path / "box"
    box.mkdir()
    add_recorded_games(box)
    save_kept(box, "cards/quiddler", CARDS)
    return box


@pytest.fixture
def backup_file(state: Path, tmp_path: Path) -> Path:
    target = tmp_path / "box.wtbackup"
    code, out, err = run_cli("backup", str(target), "--state-dir", str(state))
    assert code == 0, err
    assert out == f"wrote {target}: 3 games, 1 kept item\n"
    return target


def test_restore_onto_a_fresh_state_dir_reads_the_same(state: Path, backup_file: Path, tmp_path: Path) -> None:
    fresh = tmp_path / "new-box"
    code, out, err = run_cli("restore", str(backup_file), "--state-dir", str(fresh))
    assert (code, err) == (0, "")
    assert out == f"restored 3 games into {fresh}\n"
    assert views(fresh) == views(state)
    seen = views(state)
    people = json.loads(seen["stats"])["people"]
    assert len(people) >= 2 and all(person["played"] for person in people)  # the statistics hold the games
    # list, 3 games x 2 formats, everyone's statistics and each person's, rows, one kept item
    assert len(seen) == 1 + 3 * 2 + 1 + len(people) + 1 + 1


def test_the_manifest_names_format_box_and_a_checksum_per_member(state: Path) -> None:
    data = create_backup(state, box="cafe/tisch-3", created="2026-05-04T10:00:00Z")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        manifest = json.loads(archive.read(MANIFEST))
        assert sorted(archive.namelist()) == sorted([MANIFEST, JOURNAL_NAME, "kept/cards/quiddler.json"])
        for name, entry in manifest["members"].items():
            assert entry["sha256"] == hashlib.sha256(archive.read(name)).hexdigest()
    assert {k: manifest[k] for k in ("format", "version", "created", "box", "games")} == {
        "format": "wordtable-backup", "version": 1, "created": "2026-05-04T10:00:00Z", "box": "cafe/tisch-3",
        "games": 3,
    }


def test_a_backup_taken_while_the_journal_is_written_is_consistent(state: Path, tmp_path: Path) -> None:
    """The service appends while the backup runs: the copy is one moment of the journal, never half of a write."""
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:
        with Journal.open(journal_path(state)) as journal:
            while not stop.is_set():
                game = journal.start_game("quiddler", ["Ann", "Bob"])  # the games grow too
                with journal.batch():  # an input and its record lines commit together
                    journal.append(game, RECORD, {"event": "round_start", "round": 1}, "2026-05-05T19:00:00Z")
                    journal.append(game, "input", {"pair": True}, "2026-05-05T19:00:00Z")
                written.append(1)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(written) < 20:
            stop.wait(0.01)
        copies = [create_backup(state) for _ in range(3)]
    finally:
        stop.set()
        thread.join()
    for number, data in enumerate(copies):
        target = tmp_path / f"copy-{number}"
        restore_backup(target, data)
        db = sqlite3.connect(journal_path(target))
        try:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            kinds = dict(db.execute("SELECT kind, count(*) FROM events WHERE game_id > 3 GROUP BY kind").fetchall())
        finally:
            db.close()
        assert kinds.get(RECORD, 0) == kinds.get("input", 0)  # both lines of an input, or neither


def test_a_state_dir_with_a_box_s_data_is_refused_unless_replace(state: Path, backup_file: Path,
                                                                   tmp_path: Path) -> None:
    other = tmp_path / "other-box"
    other.mkdir()
    with Journal.open(journal_path(other)) as journal:
        journal.start_game("quiddler", ["Zoe"], wall_time="2026-06-01T19:00:00Z")
    before = tree(other)
    code, out, err = run_cli("restore", str(backup_file), "--state-dir", str(other))
    assert (code, out) == (1, "")
    assert "already holds a box's data" in err and "--replace" in err and "nothing was changed" in err
    assert tree(other) == before

    code, out, err = run_cli("restore", str(backup_file), "--state-dir", str(other), "--replace")
    assert code == 0, err
    aside = [p for p in other.iterdir() if p.name.startswith("replaced-")]
    assert len(aside) == 1 and f"the data it replaced is in {aside[0]}" in out
    assert tree(aside[0]) == before  # the old data, moved whole
    assert views(other) == views(state)


def test_the_box_s_own_files_are_no_box_data_and_stay(backup_file: Path, tmp_path: Path) -> None:
    fresh = tmp_path / "box-that-served-phones"
    fresh.mkdir()
    (fresh / STORE_NAME).write_text("{}", "utf-8")
    code, _, err = run_cli("restore", str(backup_file), "--state-dir", str(fresh))
    assert code == 0, err
    assert (fresh / STORE_NAME).read_text("utf-8") == "{}"


def _refused(data: bytes, target: Path, expected: str) -> None:
    """`data` restored onto `target` (absent or a box) is refused naming `expected`, and nothing changed."""
    before = tree(target)
    existed = target.exists()
    with pytest.raises(BackupError, match=expected):
        restore_backup(target, data, replace=True)
    assert target.exists() == existed and tree(target) == before


@pytest.mark.parametrize("cut", [0, 1, 22, 100, -1, -22, -200, 0.5])
def test_a_truncated_backup_is_refused(state: Path, tmp_path: Path, cut: float) -> None:
    data = create_backup(state)
    end = int(len(data) * cut) if isinstance(cut, float) else cut
    _refused(data[:end], tmp_path / "fresh", "backup")
    _refused(data[:end], state, "backup")


def test_every_flipped_bit_is_refused_or_harmless(state: Path) -> None:
    """A bit flipped anywhere in the file: refused, or (in a part of the zip that carries no content, such
    as a member's timestamp) read back with every member exactly as it was."""
    data = create_backup(state)
    good = read_backup(data).members
    refused = 0
    for at in range(0, len(data), 3):
        flipped = bytearray(data)
        flipped[at] ^= 1 << (at % 8)
        try:
            members = read_backup(bytes(flipped)).members
        except BackupError:
            refused += 1
            continue
        assert members == good, f"a flip at byte {at} changed a member and was not noticed"
    assert refused > len(data) // 3 * 0.9  # almost every byte carries content


def test_a_flipped_backup_is_refused_by_the_command_and_changes_nothing(backup_file: Path, tmp_path: Path) -> None:
    data = bytearray(backup_file.read_bytes())
    data[len(data) // 2] ^= 0x10
    backup_file.write_bytes(bytes(data))
    fresh = tmp_path / "fresh"
    code, out, err = run_cli("restore", str(backup_file), "--state-dir", str(fresh))
    assert (code, out) == (1, "") and "damaged backup" in err and "nothing was changed" in err
    assert not fresh.exists()


def forge(members: dict[str, bytes], *, manifest: dict[str, object] | None = None,
          listed: dict[str, bytes] | None = None, links: tuple[str, ...] = ()) -> bytes:
    """A zip archive with `members` and a manifest (checksums of `listed`, default the members)."""
    listed = members if listed is None else listed
    fields: dict[str, object] = {
        "format": "wordtable-backup", "version": 1, "created": "2026-05-04T10:00:00Z", "box": None, "games": 3,
        "members": {name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
                    for name, data in listed.items()},
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(MANIFEST, json.dumps(fields | (manifest or {})))
        for name, data in members.items():
            info = zipfile.ZipInfo(name)
            if name in links:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, data)
    return out.getvalue()


def test_a_foreign_file_is_refused(state: Path, tmp_path: Path) -> None:
    journal = journal_path(state).read_bytes()
    fresh = tmp_path / "fresh"
    _refused(b"hello, this is a text file\n", fresh, "no zip archive")
    _refused(journal, fresh, "no zip archive")  # a bare journal is no backup
    other_zip = io.BytesIO()
    with zipfile.ZipFile(other_zip, "w") as archive:
        archive.writestr("photo.jpg", b"\xff\xd8")
    _refused(other_zip.getvalue(), fresh, "no manifest")
    _refused(forge({JOURNAL_NAME: journal}, manifest={"format": "somebody-elses-backup"}), fresh, "names no format")
    _refused(forge({JOURNAL_NAME: journal}, manifest={"version": 2}), fresh, "format version 2")
    _refused(forge({JOURNAL_NAME: b"SQLite format 3\x00" + b"\x00" * 200}), fresh, "journal is not usable")
    _refused(forge({JOURNAL_NAME: journal}, manifest={"games": 4}), fresh, "manifest says 4")
    _refused(forge({JOURNAL_NAME: journal, "kept/cards/quiddler.json": b'{"cardtable": 1}'}), fresh, "kept/cards")
    _refused(forge({"kept/cards/quiddler.json": json.dumps(CARDS).encode()}), fresh, "no journal.sqlite3")
    _refused(forge({JOURNAL_NAME: journal}, listed={JOURNAL_NAME: b"other"}), fresh, "checksum")
    _refused(forge({JOURNAL_NAME: journal}, listed={JOURNAL_NAME: journal, "kept/a.json": b"{}"}), fresh, "missing")
    _refused(forge({JOURNAL_NAME: journal, "notes.txt": b"x"}, listed={JOURNAL_NAME: journal}), fresh,
             "not in its manifest")


def test_a_foreign_file_is_refused_by_the_command_and_changes_nothing(state: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "holiday.zip"
    with zipfile.ZipFile(foreign, "w") as archive:
        archive.writestr("photo.jpg", b"\xff\xd8")
    before = tree(state)
    code, out, err = run_cli("restore", str(foreign), "--state-dir", str(state), "--replace")
    assert (code, out) == (1, "") and "no manifest" in err and "nothing was changed" in err
    assert tree(state) == before


@pytest.mark.parametrize("name", [
    "../escaped.json", "kept/../../escaped.json", "/tmp/escaped.json", "kept/cards/../../../escaped.json",
    "kept\\..\\escaped.json", "page-seats.json", "kept/Cards/X.json", "journal.sqlite3-wal",
])
def test_no_path_outside_the_state_dir_or_beside_its_data(state: Path, tmp_path: Path, name: str) -> None:
    journal = journal_path(state).read_bytes()
    target = tmp_path / "deep" / "fresh"
    _refused(forge({JOURNAL_NAME: journal, name: b"{}"}), target, "nothing a backup holds")
    _refused(forge({JOURNAL_NAME: journal, name: b"{}"}), state, "nothing a backup holds")
    assert sorted(p.name for p in tmp_path.rglob("escaped*")) == []


def test_a_symlink_member_is_refused(state: Path, tmp_path: Path) -> None:
    journal = journal_path(state).read_bytes()
    member = "kept/cards/quiddler.json"
    data = forge({JOURNAL_NAME: journal, member: b"/etc/passwd"}, links=(member,))
    _refused(data, tmp_path / "fresh", "a link")


def test_a_staged_restore_is_carried_out_at_the_next_start(state: Path, tmp_path: Path) -> None:
    """The page's upload: checked and kept as restore.pending; the next start restores it, the box's data
    moved aside; a staged file that no longer reads is set aside and the box keeps its data."""
    source = tmp_path / "source"
    source.mkdir()
    add_recorded_games(source, ("quiddler",))
    before = views(state)
    with pytest.raises(BackupError):
        stage_restore(state, b"not a backup")
    assert not staged_path(state).exists()
    manifest = stage_restore(state, create_backup(source))
    assert manifest.games == 1 and staged_path(state).exists()
    assert views(state) == before  # nothing happens until the next start
    restored = apply_staged_restore(state)
    assert restored is not None and restored.games == 1 and not staged_path(state).exists()
    assert views(state) == views(source)
    assert restored.moved_aside is not None and (restored.moved_aside / JOURNAL_NAME).exists()
    assert apply_staged_restore(state) is None

    staged_path(state).write_bytes(b"damaged since")
    now = views(state)
    assert apply_staged_restore(state) is None
    assert views(state) == now and (state / "restore.refused").exists() and not staged_path(state).exists()


def test_card_tables_from_before_kept_are_backed_up_as_the_kept_items_they_are_read_as(
        state: Path, tmp_path: Path) -> None:
    legacy = state / "cards"
    legacy.mkdir()
    older = {"cardtable": 1, "game": "perfektes-wort", "cards": {"62E3086CEF": "B7"}}
    (legacy / "perfektes-wort.json").write_text(json.dumps(older), "utf-8")
    (legacy / "quiddler.json").write_text(json.dumps(CARDS | {"cards": {}}), "utf-8")  # kept/ has a newer one
    fresh = tmp_path / "fresh"
    restore_backup(fresh, create_backup(state))
    assert load_kept(fresh) == load_kept(state)
    assert load_kept(fresh)[0] == {"cards/perfektes-wort": older, "cards/quiddler": CARDS}


@pytest.mark.slow  # a subprocess
def test_a_journal_another_program_has_open_is_not_replaced(state: Path, backup_file: Path) -> None:
    """The service holds the journal: `restore --replace` says to stop it first, and changes nothing."""
    script = ("import sys, time\nfrom firmware_host.journal import Journal\n"
              "journal = Journal.open(sys.argv[1])\njournal.games()\nprint('open', flush=True)\ntime.sleep(60)\n")
    holder = subprocess.Popen([sys.executable, "-c", script, str(journal_path(state))], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        before = tree(state)
        code, _, err = run_cli("restore", str(backup_file), "--state-dir", str(state), "--replace")
        assert code == 1 and "open in another program" in err and "systemctl stop wordtable" in err
        assert tree(state) == before
    finally:
        holder.kill()
        holder.wait()
    code, _, err = run_cli("restore", str(backup_file), "--state-dir", str(state), "--replace")
    assert code == 0, err


@pytest.mark.slow  # two documented games played on the simulator
def test_games_played_on_the_box_restore_byte_identical(tmp_path: Path) -> None:
    """Quiddler and the card enrolment (kept card tables) played by their documented scripts, then a game
    from a record: backup, restore onto a fresh state directory, and everything reads the same."""
    box = tmp_path / "box"
    for script in ("deck", "quiddler"):  # the card enrolment ends with no game open
        code, _, err = run_cli("sim", "--script", str(ROOT / "docs" / "scripts" / f"{script}.script"),
                               "--state-dir", str(box))
        assert code == 0, err
    add_recorded_games(box, ("knack-das-wort",))
    assert (box / "kept" / "cards" / "perfektes-wort.json").exists()
    target = tmp_path / "box.wtbackup"
    assert run_cli("backup", str(target), "--state-dir", str(box))[0] == 0
    fresh = tmp_path / "fresh"
    code, _, err = run_cli("restore", str(target), "--state-dir", str(fresh))
    assert code == 0, err
    seen = views(box)
    assert views(fresh) == seen
    assert [line.split()[2] for line in seen["list"].splitlines()[1:]] == ["quiddler", "knack-das-wort"]
