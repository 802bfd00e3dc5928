"""`wordtable sim`: the real shell on gpiozero's mock pins and luma's dummy display.

- In a terminal: live, in real time. Keys are the buttons (s n b m = START NEXT BACK MENU, capitals =
  long press, [ ] turn the encoder, Enter types a line, q quits); the OLED, LED bar and buzzer are drawn.
- Without a terminal: a short scripted demo on a virtual clock, frames printed as text; exits 0.
- `--script FILE`: replays an action script (docs/sim-scripts.md) on a virtual clock.
- `--tour`: live, with a hint line that walks a newcomer through the sand timer, the scoreboard and one
  round of Das perfekte Wort (firmware_host/tour.py), on a fresh state unless `--state-dir` is given.
- `--page`: live, and the table page with the virtual box at /box (firmware_host/page/box.py), on
  127.0.0.1:8080 (`simulator.sim_page`); `--port N` another port.
- `--window`: live, the box in a window (luma.emulator on pygame; `pip install -e '.[window]'`);
  without a display it says how to get one and plays in the terminal.
- `--lang de|en`: the box's language for a fresh state (a kept state keeps the language chosen on the box).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from dataclasses import replace
from importlib import resources
from pathlib import Path

from firmware_host.commands.check_config import report
from firmware_host.config import Resolved, ResolveError, resolve
from firmware_host.core.i18n import LANGUAGES
from firmware_host.script import ExpectationFailed, ScriptError, parse_script, run_script
from firmware_host.simulator import Simulator, sim_page

DEMO = "demo.script"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", default="sim", help="board profile: a bundled name or a TOML file (default: sim)")
    parser.add_argument("--config", type=Path, help="user config TOML (default: none)")
    parser.add_argument("--script", type=Path, help="replay this action script on a virtual clock")
    parser.add_argument("--state-dir", type=Path,
                        help="keep the journal here (default: ./sim-state live; a fresh temporary folder for scripts)")
    parser.add_argument("--frames", action="store_true", help="with --script: print every new frame as text")
    parser.add_argument("--demo", action="store_true", help="play the built-in demo even in a terminal")
    parser.add_argument("--page", action="store_true",
                        help="live: serve the table page and the virtual box at /box "
                             "(on 127.0.0.1:8080 unless the config's [page] says otherwise)")
    parser.add_argument("--port", type=port_number, metavar="N", default=None,
                        help="with --page: serve it on port N (default: the config's, 8080)")
    parser.add_argument("--tour", action="store_true",
                        help="live: a guided first tour (sand timer, scoreboard, a round of Das perfekte Wort)")
    parser.add_argument("--window", action="store_true",
                        help="live: the box in a window too (needs pip install -e '.[window]' and a display)")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="the box's language (default: the config's, German); a kept state keeps its own")


def port_number(text: str) -> int:
    """A TCP port for `--port`: 0 to 65535 (0: any free one)."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"not a port (0–65535): {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        resolved = resolve(args.profile, args.config, environ={})
    except ResolveError as exc:
        return report(exc, "wordtable sim")
    if args.port is not None and not args.page:
        print("wordtable sim: --port needs --page", file=sys.stderr)
        return 2
    resolved = sim_page(resolved, port=args.port)
    if args.lang is not None:
        config = resolved.config
        resolved = replace(resolved, config=replace(config, appliance=replace(config.appliance, language=args.lang)))
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if args.tour and (args.script is not None or args.demo or not interactive):
        print("wordtable sim: --tour needs a terminal (and no --script/--demo)", file=sys.stderr)
        return 2
    if args.tour:
        return _run_tour(resolved, args.state_dir, page=args.page, window=args.window)
    if args.script is not None or args.demo or not interactive:
        if args.script is not None:
            try:
                text = args.script.read_text(encoding="utf-8")
            except OSError as exc:
                print(f"wordtable sim: cannot read {args.script}: {exc.strerror}", file=sys.stderr)
                return 2
        else:
            text = resources.files("firmware_host.data").joinpath(DEMO).read_text(encoding="utf-8")
        return _run_script(resolved, text, args.state_dir, frames=args.frames or args.script is None)
    from firmware_host.sim_terminal import run_live

    return run_live(resolved, args.state_dir or Path("sim-state"), page=args.page, window=args.window)


def _run_tour(resolved: Resolved, state_dir: Path | None, *, page: bool, window: bool) -> int:
    from firmware_host.sim_terminal import run_live
    from firmware_host.tour import Tour

    tour = Tour()
    with tempfile.TemporaryDirectory(prefix="wordtable-tour-") as scratch:
        return run_live(resolved, state_dir or Path(scratch), page=page, window=window,
                        hint=lambda box: tour.hint(box.appliance.shell.state) if box.appliance else None)


def _run_script(resolved: Resolved, text: str, state_dir: Path | None, *, frames: bool) -> int:
    try:
        actions = parse_script(text)
    except ScriptError as exc:
        print(f"wordtable sim: script {exc}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="wordtable-sim-") as scratch:
        sim = Simulator(resolved, state_dir or Path(scratch), frames_out=print if frames else None)
        try:
            run_script(actions, sim.hooks(), print)
            if not frames:
                print(sim.frame_text())
        except ExpectationFailed as exc:
            print(sim.frame_text())
            print(f"wordtable sim: {exc}", file=sys.stderr)
            return 1
        finally:
            sim.close()
    return 0
