"""Action scripts: a table session as text, replayed through the real shell on a virtual clock.

One action a line (docs/sim-scripts.md); `#` starts a comment:
    press start | hold start | turn -2 | type 1:30 | choose Quiddler | scan rfid 0A1B2C3D4E | unplug rfid
    wait 12.5 | wait 1:00 | show | expect Zeit! | restart
Parsing is pure and reports the line number of a bad action. `run_script` drives a `Shell`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_host.core import app
from firmware_host.core.app import AppState
from firmware_host.core.event_codec import decode
from firmware_host.core.events import Button, Event
from firmware_host.core.text_field import typed
from firmware_host.core.text_input import CODE, at_edge

BUTTONS = {b.value: b for b in Button}
VERBS = ("press", "hold", "turn", "type", "choose", "scan", "unplug", "plug", "wait", "show", "expect", "restart")


class ScriptError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True, slots=True)
class Action:
    line: int
    verb: str
    arg: str = ""
    arg2: str = ""
    seconds: float = 0.0
    steps: int = 0


def parse_script(text: str) -> list[Action]:
    """The actions of a script; raises `ScriptError` at the first bad line."""
    actions = []
    for number, raw in enumerate(text.split("\n"), start=1):  # "\n" only: a U+2028 in a typed line stays in it
        raw = raw.removesuffix("\r")
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("type ") else raw.strip()
        if not line:
            continue
        verb, _, rest = line.partition(" ")
        rest = rest.strip()
        actions.append(_parse_action(number, verb.lower(), rest))
    return actions


def _parse_action(number: int, verb: str, rest: str) -> Action:
    if verb in ("press", "hold"):
        if rest.lower() not in BUTTONS:
            raise ScriptError(number, f"{verb} needs a button: {', '.join(BUTTONS)}")
        return Action(number, verb, rest.lower())
    if verb == "turn":
        if not re.fullmatch(r"[+-]?\d+", rest):
            raise ScriptError(number, "turn needs a number of steps, e.g. turn -2")
        return Action(number, verb, steps=int(rest))
    if verb == "type":
        return Action(number, verb, rest)
    if verb == "choose":
        if not rest:
            raise ScriptError(number, "choose needs (part of) a main-menu entry, e.g. choose Quiddler")
        return Action(number, verb, rest)
    if verb == "scan":
        parts = rest.split()
        if len(parts) != 2:
            raise ScriptError(number, "scan needs a reader and a code, e.g. scan rfid 0A1B2C3D4E")
        return Action(number, verb, parts[0], parts[1])
    if verb in ("unplug", "plug"):
        if not rest or " " in rest:
            raise ScriptError(number, f"{verb} needs a reader name")
        return Action(number, verb, rest)
    if verb == "wait":
        seconds = _parse_seconds(rest)
        if seconds is None:
            raise ScriptError(number, "wait needs seconds, e.g. wait 12.5 or wait 1:00")
        return Action(number, verb, seconds=seconds)
    if verb in ("show", "restart"):
        return Action(number, verb)
    if verb == "expect":
        if not rest:
            raise ScriptError(number, "expect needs the text the screen must show")
        return Action(number, verb, rest)
    raise ScriptError(number, f"unknown action {verb!r}; known: {', '.join(VERBS)}")


def _parse_seconds(text: str) -> float | None:
    match = re.fullmatch(r"(\d+):(\d{2})(?:\.(\d+))?|(\d+(?:\.\d+)?)", text)
    if not match:
        return None
    if match.group(4) is not None:
        return float(match.group(4))
    return int(match.group(1)) * 60 + float(f"{match.group(2)}.{match.group(3) or 0}")


def event_for(action: Action, now: float) -> Event | None:
    """The input event an action stands for (None for actions that only wait, show or check): a typed line
    as the box's text field takes it, any other as the one codec of input events reads its words."""
    if action.verb == "type":
        return typed(action.arg, now)
    fields = EVENT_FIELDS.get(action.verb)
    return None if fields is None else decode({**fields(action), "at": now})


EVENT_FIELDS: dict[str, Callable[[Action], dict[str, Any]]] = {  # the verbs that are input events
    "press": lambda action: {"type": "press", "button": action.arg},
    "hold": lambda action: {"type": "hold", "button": action.arg},
    "turn": lambda action: {"type": "turn", "steps": action.steps},
    "scan": lambda action: {"type": "scan", "reader": action.arg, "code": at_edge(action.arg2, CODE)},
    "unplug": lambda action: {"type": "reader", "reader": action.arg, "present": False},
    "plug": lambda action: {"type": "reader", "reader": action.arg, "present": True},
}


class ExpectationFailed(Exception):
    pass


@dataclass
class ScriptHooks:
    """What a script runner needs from the appliance it drives."""

    now: Callable[[], float]
    send: Callable[[Event], None]
    wait: Callable[[float], None]
    screen_text: Callable[[], str]
    state: Callable[[], AppState]
    frame_text: Callable[[], str]
    restart: Callable[[], None]


def run_script(actions: list[Action], hooks: ScriptHooks, out: Callable[[str], None]) -> None:
    """Replay `actions`. Raises `ExpectationFailed` (with the line) when an `expect` does not hold."""
    for action in actions:
        label = f"[{hooks.now():8.3f}] {action.verb}"
        detail = {"press": action.arg, "hold": action.arg, "turn": f"{action.steps:+d}", "type": action.arg,
                  "scan": f"{action.arg} {action.arg2}", "unplug": action.arg, "plug": action.arg,
                  "wait": f"{action.seconds:g} s", "expect": action.arg, "choose": action.arg}.get(action.verb, "")
        out(f"{label} {detail}".rstrip())
        event = event_for(action, hooks.now())
        if event is not None:
            hooks.send(event)
        elif action.verb == "wait":
            hooks.wait(hooks.now() + action.seconds)
        elif action.verb == "show":
            out(hooks.frame_text())
        elif action.verb == "restart":
            hooks.restart()
        elif action.verb == "choose":
            events = app.events_to_choose(hooks.state(), action.arg, hooks.now())
            if events is None:
                raise ExpectationFailed(f"line {action.line}: no menu entry {action.arg!r}")
            for chosen in events:
                hooks.send(chosen)
        elif action.verb == "expect":
            shown = hooks.screen_text()
            if action.arg not in shown:
                raise ExpectationFailed(f"line {action.line}: expected {action.arg!r} on the screen, it shows: {shown}")
