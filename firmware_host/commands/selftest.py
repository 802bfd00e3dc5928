"""`wordtable selftest [--profile NAME|FILE] [--config FILE] [--part PART …] [--timeout S]`: walk through
every part of the box on its pins — the OLED's test patterns, each button and its long press, the encoder,
the LED bar and its dimming, the buzzer's tones and volumes, each card reader — with the OLED (in the
configured language, and so does the terminal) saying what should happen. Answer y / n in the terminal or with START /
BACK on the box; s skips a step, q ends. It ends with a summary to paste into a bug report; exit 1 when a
step failed. On a mock board (`--profile sim`) typed words press the mock buttons: `start`, `hold start`,
`push`, `+`, `-`, `@CODE`. Stop the service first: it holds the pins."""

from __future__ import annotations

import argparse
import logging
import platform
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from drivers.display import DisplayError, describe, open_device
from firmware_host import __version__
from firmware_host.commands.check_config import report
from firmware_host.config import DEFAULT_CONFIG_PATH, Resolved, ResolveError, resolve
from firmware_host.doctor.system import board_model, os_release
from firmware_host.selftest import PARTS, Outcome, Prompt, Result, Selftest, Typed, summary
from firmware_host.selftest.hands import MockHands
from firmware_host.selftest.text import say
from firmware_host.textscreen import braille
from hw.build import Hardware, HardwareError, build

PROG = "wordtable selftest"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", default="default", metavar="NAME|FILE",
                        help="board profile: a bundled name (default, sim) or a TOML file (default: default)")
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help=f"user config TOML, for the OLED's language (default: {DEFAULT_CONFIG_PATH} if present)")
    parser.add_argument("--part", action="append", choices=PARTS, metavar="PART",
                        help=f"test only this part (repeatable): {', '.join(PARTS)}")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="S",
                        help="skip a step after this many seconds without an answer (default: 120)")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        resolved = resolve(args.profile, args.config)
    except ResolveError as exc:
        return report(exc, PROG)
    return walk(resolved, sys.stdin, sys.stdout, parts=args.part or PARTS, timeout=args.timeout)


def read_lines(stream: IO[str], inbox: queue.Queue[object]) -> None:
    """Put each line typed (or piped) into `inbox` as `Typed`, then `Typed(None)` at the end."""
    for line in stream:
        inbox.put(Typed(line.rstrip("\r\n")))
    inbox.put(Typed(None))


MOCK_HINTS = {"press": "mock_press", "hold": "mock_hold", "encoder.cw": "mock_cw", "encoder.ccw": "mock_ccw",
              "encoder.push": "mock_push", "reader": "mock_reader"}  # the texts (selftest.text) by step


class Terminal:
    """How the walk talks in the terminal, in `lang`: a prompt per step, remarks, and on a mock board the
    OLED drawn in Braille and the words that work the mock pins."""

    def __init__(self, out: IO[str], hardware: Hardware | None = None, lang: str = "de") -> None:
        self._out = out
        self._mock = hardware
        self._lang = lang

    def __call__(self, message: Prompt | str) -> None:
        if isinstance(message, str):
            self._write(message)
            return
        prefix = message.step.split(".")[0]
        lines = ["", f"[{message.number}/{message.total}] {message.step}", f"  {message.text}"]
        if self._mock is not None:
            device = getattr(self._mock.display, "device", None)
            image = getattr(device, "image", None)
            if image is not None:
                lines += ["  " + row for row in braille(image, half=True)]
            kind = message.step.rsplit(".", 1)[-1]
            hint = MOCK_HINTS.get(message.step) or MOCK_HINTS.get(kind if prefix == "button" else prefix)
            if hint:
                button = message.step.split(".")[1] if prefix == "button" else ""
                lines.append(say(self._lang, "mock", hint=say(self._lang, hint, button=button)))
        lines.append(say(self._lang, "answer_confirm" if message.confirm else "answer_event"))
        self._write("\n".join(lines))

    def _write(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()


def header(resolved: Resolved, root: Path = Path("/")) -> list[str]:
    """The summary's first lines, in the box's language: program, board, OS, profile, display, language."""
    p, lang = resolved.profile, resolved.config.appliance.language
    board = board_model(root) or say(lang, "not_a_pi")
    return [f"wordtable {__version__}, Python {platform.python_version()}",
            say(lang, "header_board", board=board, os=os_release(root).get("PRETTY_NAME", "?")),
            say(lang, "header_profile", source=p.source, name=p.board.name, factory=p.board.pin_factory,
                display=describe(p.display)),
            say(lang, "header_lang", language=lang)]


def walk(resolved: Resolved, stdin: IO[str], out: IO[str], *, parts: Iterable[str] = PARTS, timeout: float = 120.0,
         pause: Callable[[float], None] = time.sleep, **build_options: Any) -> int:
    """Build the hardware, read answers from `stdin`, walk, print the summary to `out`. Exit code: 0 all
    passed or skipped, 1 a step failed or the hardware would not start."""
    inbox: queue.Queue[object] = queue.Queue()
    profile, lang = resolved.profile, resolved.config.appliance.language
    display_error: str | None = None
    if "display_device" not in build_options:
        try:
            build_options["display_device"] = open_device(profile.display)
        except DisplayError as exc:  # test the rest on a stand-in; the display steps fail with the reason
            display_error = str(exc)
            stand_in = replace(profile.display, driver="dummy", interface="none")
            build_options["display_device"] = open_device(stand_in)
    try:
        hardware = build(profile, emit=inbox.put, **build_options)
    except HardwareError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        print(say(lang, "stop_service", prog=PROG), file=sys.stderr)
        return 1
    mock = profile.board.pin_factory == "mock"
    threading.Thread(target=read_lines, args=(stdin, inbox), name="selftest-input", daemon=True).start()
    tell = Terminal(out, hardware if mock else None, lang)
    test = Selftest(hardware, profile, inbox=inbox, tell=tell, lang=lang,
                    hands=MockHands(hardware, profile) if mock else None, pause=pause, timeout=timeout,
                    display_error=display_error)
    tell(say(lang, "start", prog=PROG, n=len(test.plan(parts))))
    if display_error is not None:
        tell(say(lang, "display_error", prog=PROG, reason=display_error))
    results: list[Result] = []
    try:
        results = test.run(parts)
    finally:
        hardware.close()
    tell(say(lang, "paste") + "\n```\n" + summary(results, header(resolved), lang) + "```")
    return 1 if any(result.outcome is Outcome.FAIL for result in results) else 0
