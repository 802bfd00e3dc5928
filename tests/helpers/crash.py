"""The crash harness: scripted games of all four kinds and the turn timer in a child process, killed
(SIGKILL) at random moments and restarted until each game is played through; after every restart the
child checks itself.

Child: `python -m tests.helpers.crash STATE_DIR SCRIPT` opens the appliance on the sim profile with the
real journal in STATE_DIR (resuming whatever is there), finds in the journal how far the script got, prints
`resumed FROM`, checks, then sends the rest of the script's input events, printing `ack N` after event N
is handled (it is acknowledged: on storage), and `done` at the end. The checks, after every start:
- the resumed state equals a clean replay: the session's journaled inputs folded by the pure core;
- the game record agrees with the table: the record lines the clean replay produced (less those taken
  back) are exactly the lines `journal export` writes, and both score the same standings.
A failed check prints `FAIL …` and exits 3. The parent (`run_harness`) checks that no acknowledged event
was lost: a restart resumes at least at the event after the last `ack`.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "docs" / "scripts"
GAME_SCRIPTS = ("perfektes-wort.script", "quiddler.script", "perfect-words.script", "knack-das-wort.script",
                "turn-timer.script")
GAP_S = 0.001  # scripted events are this far apart on the virtual clock, so each one's time is its own


def timeline(script: str) -> list[tuple[float, dict[str, Any]]]:
    """The script's input events (encoded) with their times, menu choices expanded on the pure app."""
    from firmware_host.core import app
    from firmware_host.core.event_codec import encode
    from firmware_host.core.events import Event, Tick, event_time
    from firmware_host.core.settings import Settings
    from firmware_host.script import event_for, parse_script

    state, _ = app.initial(Settings())
    now, out = 0.0, []

    def send(event: Event) -> None:
        nonlocal state
        state, _ = app.step(state, event)
        if not isinstance(event, Tick):
            out.append((event_time(event), encode(event)))

    for action in parse_script((SCRIPTS / script).read_text(encoding="utf-8")):
        if action.verb == "wait":
            now += action.seconds
            send(Tick(now))
        elif action.verb == "choose":
            for event in app.events_to_choose(state, action.arg, now) or []:
                now += GAP_S
                send(replace(event, at=now))
        else:
            now += GAP_S
            made = event_for(action, now)
            if made is not None:
                send(made)
    return out


# --- the child -------------------------------------------------------------------------------------


def _journaled_inputs(journal: Any) -> list[dict[str, Any]]:
    from firmware_host.shell_journal import INPUT, SESSION

    return [entry.payload for g in journal.games() if g.game == SESSION for entry in journal.events(g.id, (INPUT,))]


def resume_point(journal: Any, events: list[tuple[float, dict[str, Any]]]) -> int:
    """The index of the first scripted event not in the journal (events are told apart by their time)."""
    keys = {json.dumps(p, sort_keys=True) for p in _journaled_inputs(journal)}
    done = [i for i, (_, payload) in enumerate(events) if json.dumps(payload, sort_keys=True) in keys]
    return max(done) + 1 if done else 0


def check(sim: Any) -> list[str]:
    """The child's checks after a start (see the module docstring); the problems found."""
    from firmware_host.core import app
    from firmware_host.core.effects import BeginGame, EndGame, Record, Retract
    from firmware_host.core.event_codec import decode
    from firmware_host.shell_journal import INPUT, SESSION

    journal = sim.appliance.journal
    session = journal.open_game(SESSION)
    if session is None:
        return ["no open session"]
    state = app.restore(journal.meta(session)["snapshot"])
    lines: list[dict[str, Any]] = []
    game: str | None = None
    for entry in journal.events(session, (INPUT,)):
        state, effects = app.step(state, decode(dict(entry.payload)))
        for effect in effects:
            if isinstance(effect, BeginGame):
                game, lines = effect.game, []
            elif isinstance(effect, Record):
                lines.append(dict(effect.line))
            elif isinstance(effect, Retract) and lines:
                lines.pop()
            elif isinstance(effect, EndGame):
                pass
    problems = []
    if app.screen(state) != app.screen(sim.state) or state.flow != sim.state.flow or state.board != sim.state.board:
        problems.append(f"resumed {app.screen(sim.state)} but a clean replay gives {app.screen(state)}")
    if game is not None:
        table = max(g.id for g in journal.games() if g.game == game)
        exported = journal.export_record(table)
        got = [json.loads(line) for line in exported.splitlines()[1:]]
        for line in got:
            line.pop("at", None)
        want = [{k: v for k, v in line.items() if k != "at"} for line in lines]
        if got != want:
            problems.append(f"exported record differs from the table's: {len(got)} lines vs {len(want)}")
        header = exported.splitlines()[0]
        table_record = "\n".join([header, *(json.dumps(x, ensure_ascii=False) for x in want)]) + "\n"
        if _score(game, exported) != _score(game, table_record):
            problems.append("the exported record scores differently from the table's record")
    from firmware_host.core.cards import KEPT_PREFIX
    from firmware_host.kept_store import load_kept

    on_disk = {name: data for name, data in load_kept(sim.state_dir)[0].items() if name.startswith(KEPT_PREFIX)}
    shown = {name: data for name, data in app.kept_items(sim.state.kept).items() if name.startswith(KEPT_PREFIX)}
    if on_disk != shown:
        problems.append(f"card tables on disk {sorted(on_disk)} differ from the table's {sorted(shown)}")
    return problems


def _score(game: str, record: str) -> str:
    """The standings a record scores to (an unfinished game may be refused: then the refusal)."""
    from firmware_host.core.games import registry
    from firmware_host.core.games.registry import parse_record
    from firmware_host.core.record import RecordError

    try:
        return repr(registry.kit(game).score_record(parse_record(record)))
    except RecordError as exc:
        return f"refused: {exc}"


def child(state_dir: Path, script: str) -> int:
    from firmware_host.config import resolve
    from firmware_host.core.event_codec import decode
    from firmware_host.simulator import Simulator

    events = timeline(script)
    sim = Simulator(resolve("sim", None, environ={}), state_dir)
    start = resume_point(sim.appliance.journal, events)
    print(f"resumed {start}", flush=True)
    problems = check(sim)
    if problems:
        print("FAIL " + "; ".join(problems), flush=True)
        return 3
    for n in range(start, len(events)):
        at, payload = events[n]
        sim.wait_until(max(sim.clock.now, at))
        sim.send(decode(payload))
        print(f"ack {n}", flush=True)
    sim.close()
    print("done", flush=True)
    return 0


# --- the parent ------------------------------------------------------------------------------------


@dataclass
class Figures:
    kills: int = 0
    restarts: int = 0
    games: int = 0  # played through to the end (a short script several times)
    acked_lost: int = 0
    resumed_beyond_ack: int = 0  # killed after the commit, before the "ack" line: fine
    failures: list[str] = field(default_factory=list)
    start_ms: list[float] = field(default_factory=list)


def _spawn(state_dir: Path, script: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "tests.helpers.crash", str(state_dir), script], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _lines(proc: subprocess.Popen[str]) -> Iterator[str]:
    assert proc.stdout is not None
    for line in proc.stdout:
        yield line.strip()


def play(state_dir: Path, script: str, kills: int, rng: random.Random, figures: Figures,
         log: Callable[[str], None] = lambda text: None) -> None:
    """Play `script` to its end in `state_dir`, killing the child after `kills` random, distinct events
    (at most every other event of the script)."""
    total = len(timeline(script))
    kill_at = sorted(rng.sample(range(total), min(kills, total // 2)))
    acked = -1
    while True:
        began = time.perf_counter()
        proc = _spawn(state_dir, script)
        target = kill_at.pop(0) if kill_at else None
        killed = False
        for line in _lines(proc):
            if line.startswith("resumed "):
                figures.start_ms.append((time.perf_counter() - began) * 1000)
                start = int(line.split()[1])
                if start < acked + 1:
                    figures.acked_lost += 1
                    figures.failures.append(f"{script}: acked {acked}, resumed at {start}")
                elif start > acked + 1:
                    figures.resumed_beyond_ack += 1
                acked = start - 1
            elif line.startswith("FAIL"):
                figures.failures.append(f"{script}: {line}")
            elif line.startswith("ack "):
                acked = int(line.split()[1])
                if target is not None and acked >= target:
                    time.sleep(rng.uniform(0, 0.004))  # anywhere in the next event: journal, step, draw
                    proc.send_signal(signal.SIGKILL)
                    killed = True
                    break
        proc.wait(timeout=60)
        if killed:
            figures.kills += 1
            figures.restarts += 1
            log(f"{script}: killed after ack {acked}")
            continue
        if proc.returncode != 0:
            assert proc.stderr is not None
            figures.failures.append(f"{script}: child exited {proc.returncode}: {proc.stderr.read()[-2000:]}")
            return
        if target is not None:  # the run ended before the kill point: kill again later
            continue
        figures.games += 1
        return


def run_harness(base: Path, kills: int, seed: int, log: Callable[[str], None] = lambda text: None,
                scripts: tuple[str, ...] = GAME_SCRIPTS) -> Figures:
    """Kill `kills` times in all, spread over `scripts` (each played in its own state dir): the four game
    scripts and the turn timer's, or e.g. the deck's (`deck.script`: card enrolment, then the piles)."""
    rng = random.Random(seed)
    figures = Figures()
    shares = [kills // len(scripts) + (i < kills % len(scripts)) for i in range(len(scripts))]
    for script, share in zip(scripts, shares, strict=True):
        rounds = 0
        while share > 0:  # a short script is played again, in a fresh state directory, until its share is done
            before = figures.kills
            play(base / f"{script.removesuffix('.script')}-{rounds}", script, share, rng, figures, log)
            share -= max(1, figures.kills - before)
            rounds += 1
    return figures


if __name__ == "__main__":
    sys.exit(child(Path(sys.argv[1]), sys.argv[2]))
