"""The board and its OS: the Pi model, the OS release, Python, and which gpiozero pin factory loads."""

from __future__ import annotations

from firmware_host.doctor.checks import Check, ok, problem, skip
from firmware_host.doctor.system import PIN_FACTORIES, System, board_model, os_release
from hw.profile import Profile

SECTION = "board"
MIN_PYTHON = (3, 11)
USABLE_FACTORIES = ("lgpio", "rpigpio", "pigpio")  # native has no PWM: the bar and the buzzer need it
PI5_HINT = "RPi.GPIO does not support the Pi 5"


def check_board(system: System, profile: Profile | None) -> list[Check]:
    mock = profile is not None and profile.board.pin_factory == "mock"
    model = board_model(system.root)
    out: list[Check] = []
    if model:
        out.append(ok(SECTION, "board", model))
    elif mock:
        out.append(skip(SECTION, "board", "not a Raspberry Pi (no /proc/device-tree/model): fine for a mock board"))
    else:
        out.append(problem(SECTION, "board", "not a Raspberry Pi (no /proc/device-tree/model)", "not-a-pi"))
    release = os_release(system.root)
    out.append(ok(SECTION, "OS", release.get("PRETTY_NAME", "unknown (no /etc/os-release)")))
    version = ".".join(map(str, system.python))
    if tuple(system.python[:2]) >= MIN_PYTHON:
        out.append(ok(SECTION, "Python", version))
    else:
        out.append(problem(SECTION, "Python", f"{version} (wordtable needs 3.11 or later)", "python-old"))
    if profile is not None:
        out.append(check_pin_factory(system, profile.board.pin_factory, model or ""))
    return out


def _try(system: System, name: str) -> str | None:
    """None when gpiozero's factory `name` loads, else why not (one line)."""
    try:
        system.load_pin_factory(name)
    except Exception as exc:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return None


def check_pin_factory(system: System, setting: str, model: str) -> Check:
    """Which pin factory gpiozero will use for `board.pin_factory = setting`, and why the ones before it
    do not load (gpiozero's "auto" tries lgpio, rpigpio, pigpio, native in that order)."""
    if setting == "mock":
        return ok(SECTION, "GPIO", 'mock pins (board.pin_factory = "mock")')
    pi5 = "Raspberry Pi 5" in model
    chosen_by = f'board.pin_factory = "{setting}"'
    names = [setting]
    if setting == "auto":
        forced = system.environ.get("GPIOZERO_PIN_FACTORY")
        names = [forced.lower()] if forced else list(PIN_FACTORIES)
        chosen_by = f"GPIOZERO_PIN_FACTORY={forced}" if forced else "gpiozero's automatic choice"
    reasons: list[str] = []
    for name in names:
        if name not in PIN_FACTORIES:
            reasons.append(f"{name}: not a gpiozero pin factory")
            continue
        why = _try(system, name)
        if why is None:
            tried = f" ({'; '.join(reasons)})" if reasons else ""
            if name not in USABLE_FACTORIES:
                return problem(SECTION, "GPIO", f"only {name} loads, by {chosen_by}{tried}", "native-only")
            return ok(SECTION, "GPIO", f"{name} loads, by {chosen_by}{tried}")
        if name == "rpigpio" and pi5:
            why = f"{why} — {PI5_HINT}"
        reasons.append(f"{name}: {why}")
    detail = "no pin factory loads: " + "; ".join(reasons)
    rpigpio_failed = any(r.startswith("rpigpio:") for r in reasons)
    return problem(SECTION, "GPIO", detail, "rpigpio-on-pi5" if pi5 and rpigpio_failed else "no-pin-factory")
