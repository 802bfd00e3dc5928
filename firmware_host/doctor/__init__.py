"""`wordtable doctor`: what is wrong on this box, each finding with one line saying what to do.

`diagnose(profile, config, system)` runs every check against `System` (the machine behind a root directory
and injectable probes, see `system.py`) and returns the `Check`s in the order they are printed: the board
and OS, the buses, the card readers, the service, the profile and config. The fixes come from
`hw.troubleshooting`, the list the wiring guide prints as well.
"""

from __future__ import annotations

import json
from pathlib import Path

from firmware_host.config import DEFAULT_CONFIG_PATH, Resolved, ResolveError, resolve
from firmware_host.doctor.board import check_board
from firmware_host.doctor.checks import SYMBOLS, Check, Status, ok, problem, skip
from firmware_host.doctor.devices import check_buses, check_readers
from firmware_host.doctor.service import check_state, check_unit, check_word_list, service_user
from firmware_host.doctor.system import System, pi_system
from firmware_host.paths import LOCAL_STATE_DIR
from hw.profile import Profile, ProfileError, load_profile, profile_path

__all__ = ["Check", "Status", "System", "diagnose", "exit_code", "to_json", "to_text"]

SECTIONS = {
    "board": "Board and OS",
    "buses": "Buses",
    "readers": "Card readers",
    "service": "Service",
    "config": "Profile and config",
}


def _config_checks(profile: str | Path, config: Path | None, system: System) -> tuple[list[Check], Resolved | None,
                                                                                     Profile | None]:
    """What check-config says, as checks; the resolved configuration (or the profile alone) when valid."""
    profile_file = str(profile_path(profile))
    config_file = str(config or DEFAULT_CONFIG_PATH)
    try:
        resolved = resolve(profile, config, environ=system.environ)
    except ResolveError as exc:
        out = [problem("config", "profile", f"{profile_file}: {key}: {message}", "config", file=profile_file)
               for key, message in exc.profile_errors]
        out += [problem("config", "config", f"{config_file}: {key}: {message}", "config", file=config_file)
                for key, message in exc.config_errors]
        loaded: Profile | None = None
        if not exc.profile_errors:
            try:
                loaded = load_profile(profile)
            except ProfileError:  # pragma: no cover - it was just loaded without errors
                loaded = None
            out.insert(0, ok("config", "profile", f"{profile_file}: valid"))
        return out, None, loaded
    source = resolved.config.source or "(none: built-in defaults)"
    return [ok("config", "profile", f"{resolved.profile.source}: valid ({resolved.profile.board.name})"),
            ok("config", "config", f"{source}: valid")], resolved, resolved.profile


def diagnose(profile: str | Path = "default", config: Path | None = None, system: System | None = None, *,
             state_dir: Path | None = None) -> list[Check]:
    """Every check, in printing order. `state_dir` overrides where the journal is looked for (default: the
    config's state_dir, as `wordtable run` uses it; ./sim-state on a mock board, as `wordtable sim`)."""
    system = system or System()
    config_checks, resolved, board = _config_checks(profile, config, system)
    out = check_board(system, board)
    user_check, user = service_user(system, board)
    if board is not None:
        out += check_buses(system, board, user)
        out += check_readers(system, board, user)
    out.append(user_check)
    if resolved is not None:
        mock = resolved.profile.board.pin_factory == "mock"
        directory = state_dir or (LOCAL_STATE_DIR if mock else resolved.config.appliance.state_dir)
        out += check_state(system, directory, user)
    else:
        out.append(skip("service", "state directory", "not checked: the config is not valid"))
    out.append(check_unit(system))
    if resolved is not None:
        out.append(check_word_list(system, resolved))
    kind = pi_system(system.root)
    return [check.on(kind) for check in out + config_checks]


def exit_code(checks: list[Check]) -> int:
    """0 when nothing failed (warnings and skipped checks do not count), else 1."""
    return 1 if any(check.status is Status.FAIL for check in checks) else 0


def summary(checks: list[Check]) -> str:
    counts = {status: sum(check.status is status for check in checks) for status in Status}
    return (f"{counts[Status.OK]} passed, {counts[Status.FAIL]} failed, {counts[Status.WARN]} "
            f"warning{'s' if counts[Status.WARN] != 1 else ''}, {counts[Status.SKIP]} not checked")


def to_text(checks: list[Check]) -> str:
    """The report for a terminal: a block per section, `✓ name  detail`, the fix under a ✗ or ! line."""
    width = max((len(check.name) for check in checks), default=0)
    lines: list[str] = []
    section = None
    for check in checks:
        if check.section != section:
            section = check.section
            lines += [""] if lines else []
            lines.append(SECTIONS.get(section, section))
        lines.append(f"  {SYMBOLS[check.status]} {check.name.ljust(width)}  {check.detail}")
        if check.fix:
            lines.append(f"  {' ' * (width + 2)}  → {check.fix}")
    lines += ["", summary(checks)]
    return "\n".join(lines) + "\n"


def to_json(checks: list[Check]) -> str:
    return json.dumps({"ok": exit_code(checks) == 0, "summary": summary(checks),
                       "checks": [check.to_json() for check in checks]}, ensure_ascii=False, indent=2) + "\n"
