"""The service: its user and groups, the state directory (writable, free space), the journal's integrity,
the systemd unit's state, and the word list the config names (with the reveal's lexicon of base forms)."""

from __future__ import annotations

import os
from pathlib import Path

from firmware_host.base_forms import DING_LEXICONS
from firmware_host.config import Resolved
from firmware_host.doctor.checks import Check, ok, problem, skip
from firmware_host.doctor.system import (
    Account,
    System,
    account,
    group_table,
    may_open,
    systemd_running,
    unit_settings,
)
from firmware_host.journal import Journal, JournalError, unusable_reason
from firmware_host.paths import journal_path
from firmware_host.word_index import GERMAN_LISTS, WordIndexError, read_list
from hw.profile import Profile

SECTION = "service"
UNIT = "wordtable.service"
MIN_FREE_BYTES = 50 * 1024 * 1024  # the journal grows by a few hundred bytes an event; SQLite needs room


def needed_groups(profile: Profile) -> list[str]:
    """The groups whose devices the profile's hardware opens (Raspberry Pi OS's device groups). The card
    readers are not among them: the installer's udev rule gives them to the service's own group."""
    if profile.board.pin_factory == "mock":
        return []
    groups = ["gpio"]
    if profile.display.interface in ("i2c", "spi"):
        groups.append(profile.display.interface)
    return groups


def service_user(system: System, profile: Profile | None) -> tuple[Check, Account | None]:
    """Who runs wordtable — the installed unit's User= with its SupplementaryGroups=, else whoever runs
    this — and whether it has the groups the hardware needs. Returns the check and the account."""
    unit = unit_settings(system.root, UNIT)
    if unit is not None:
        name = unit.get("User") or "root"
        user = account(system.root, name=name, extra_groups=unit.get("SupplementaryGroups", "").split())
        if user is None:
            return problem(SECTION, "user", f"the unit runs as {name}, who does not exist", "no-user"), None
        how = "the unit's User="
    else:
        found = account(system.root, uid=system.uid)
        user = found or Account(f"uid {system.uid}", system.uid, frozenset(), frozenset())
        how = "no unit installed: whoever runs wordtable"
    if user.uid == 0:
        return ok(SECTION, "user", f"{user.name} ({how}): may open every device"), user
    needed = needed_groups(profile) if profile is not None else []
    missing = [g for g in needed if g not in user.groups]
    if missing:
        known = group_table(system.root)
        absent = [g for g in missing if g not in known]
        note = f" (no group {', '.join(absent)} on this system: is the bus enabled?)" if absent else ""
        return problem(SECTION, "user", f"{user.name} ({how}) is not in {', '.join(missing)}{note}", "groups",
                       groups=",".join(missing), user=user.name), user
    groups = f"in {', '.join(needed)}" if needed else "no device groups needed"
    return ok(SECTION, "user", f"{user.name} ({how}), {groups}"), user


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _size(n: int) -> str:
    """A byte count for people: '512 kB', '28.1 GB'."""
    value = float(n)
    for unit in ("B", "kB", "MB"):
        if value < 1024:
            return f"{value:.0f} {unit}" if unit != "MB" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def check_state(system: System, directory: Path, user: Account | None) -> list[Check]:
    """The state directory: there (or makeable) and writable by the service's user, free space, the journal."""
    where = system.at(directory)
    out: list[Check] = []
    name = user.name if user else "the user"
    if where.is_dir():
        if user is None or may_open(user, where):
            out.append(ok(SECTION, "state directory", f"{directory}: {name} may write it"))
        else:
            out.append(problem(SECTION, "state directory", f"{directory}: {name} may not write it",
                               "state-dir-readonly", user=name, path=directory))
    else:
        parent = _nearest_existing(where)
        if where.exists() or user is None or not may_open(user, parent):
            out.append(problem(SECTION, "state directory", f"{directory} does not exist and {name} cannot make it",
                               "state-dir-missing"))
        else:
            out.append(ok(SECTION, "state directory", f"{directory}: not there yet, made at the first start"))
    usage = system.disk_usage(_nearest_existing(where))
    free = f"{_size(usage.free)} free of {_size(usage.total)}"
    if usage.free < MIN_FREE_BYTES:
        out.append(problem(SECTION, "free space", f"{free} (at least {_size(MIN_FREE_BYTES)} needed)", "disk-full"))
    else:
        out.append(ok(SECTION, "free space", free))
    out.append(check_journal(journal_path(where), journal_path(directory)))
    return out


def check_journal(path: Path, shown: Path) -> Check:
    """The journal's integrity (PRAGMA quick_check and the file's identity, as the service checks it)."""
    if not path.exists():
        return ok(SECTION, "journal", f"{shown}: none yet, made at the first start")
    if not os.access(path, os.R_OK):
        return skip(SECTION, "journal", f"{shown}: cannot read it as this user",
                    "check it as root: sudo wordtable doctor")
    try:
        reason = unusable_reason(path)
    except JournalError as exc:
        return skip(SECTION, "journal", str(exc))
    if reason is not None:
        return problem(SECTION, "journal", f"{shown}: {reason}", "journal-damaged")
    try:
        with Journal.open(path, readonly=True) as journal:
            games = journal.games()
    except JournalError:
        return ok(SECTION, "journal", f"{shown}: empty")
    return ok(SECTION, "journal", f"{shown}: intact, {len(games)} game{'s' if len(games) != 1 else ''}")


def check_unit(system: System) -> Check:
    """The unit's state from systemctl, when systemd runs here."""
    if not systemd_running(system.root):
        return skip(SECTION, "service", "systemd is not running here")
    text = system.run(["systemctl", "show", UNIT, "--property=LoadState,ActiveState,SubState,Result,NRestarts"])
    if text is None:
        return skip(SECTION, "service", "systemctl did not answer")
    props = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    load, active, sub = props.get("LoadState", ""), props.get("ActiveState", ""), props.get("SubState", "")
    if load == "not-found":
        return problem(SECTION, "service", f"{UNIT} is not installed", "unit-missing", warn=True)
    restarts = props.get("NRestarts", "0")
    state = f"{active} ({sub})" + (f", {restarts} restarts" if restarts not in ("", "0") else "")
    if active == "active":
        return ok(SECTION, "service", state)
    if active == "failed" or sub == "auto-restart":
        return problem(SECTION, "service", f"{state}, result {props.get('Result', '?')}", "unit-failed")
    return skip(SECTION, "service", state, "sudo systemctl start wordtable (stop it for wordtable selftest)")


def check_word_list(system: System, resolved: Resolved) -> Check:
    """The word list the config names (else the system's German list): readable, how many words."""
    configured = resolved.config.dictionary.path
    path = configured if configured is not None else GERMAN_LISTS[0]
    if configured is None and not system.at(path).is_file():
        return skip(SECTION, "word list", f"none ({path} is not there): the dictionary assist is off",
                    "optional: sudo apt install wngerman")
    try:
        words = len(read_list(system.at(path), "de"))
    except WordIndexError as exc:
        return problem(SECTION, "word list", str(exc), "word-list", file=resolved.config.source or "the config")
    source = "dictionary.path" if configured is not None else "the system's list"
    return ok(SECTION, "word list", f"{path} ({source}): {words} words{_base_forms(system, resolved)}")


def _base_forms(system: System, resolved: Resolved) -> str:
    """What the reveal takes its words from: the lexicon of base forms (`base_forms`), when it is asked for."""
    dictionary = resolved.config.dictionary
    if dictionary.reveal_words != "allowed" or not dictionary.system:
        return ""
    lexicon = next((path for path in DING_LEXICONS if system.at(path).is_file()), None)
    if lexicon is None:
        return ("; no lexicon of base forms (optional: sudo apt install dict-de-en), so the reveal offers "
                "inflected forms and proper names too")
    return f"; the reveal's base forms: {lexicon}"
