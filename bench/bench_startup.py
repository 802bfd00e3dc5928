"""Start-up cost: from a cold interpreter to the first frame on the (dummy) display.

    python bench/bench_startup.py [--runs 5] [--history 0,10000,100000] [--bytecode-cache]

Prints the median of each stage over fresh interpreters, and the heaviest imports (python -X importtime),
split into the program's own modules and the libraries it loads. Then the start to the first frame with
journals of prior use (`--history` rows of finished games, plus the worst open session a table leaves:
a long scoreboard session and a Quiddler game half played), with the part after the imports (journal,
replay, first frame — the moment the shell hands it to the display), when the rest of the board had
started (`open_appliance` returned), the process's own peak RSS (VmHWM), and the time to the first frame
scaled by PI_FACTOR for a Raspberry Pi 3 against systemd's TimeoutStartSec.

The children inherit the environment: with PYTHONDONTWRITEBYTECODE set (as on some development machines)
every start compiles the program's modules from source, which the Pi does not (the installer's pip
install writes their bytecode). `--bytecode-cache` gives the children a bytecode cache of their own (a
temporary PYTHONPYCACHEPREFIX, filled by a first run that is not counted), as on the Pi.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STAGES = r"""
import time, tempfile, pathlib
t0 = time.perf_counter()
import firmware_host.cli
t1 = time.perf_counter()
from firmware_host.config import resolve
from firmware_host.appliance import open_appliance
t2 = time.perf_counter()
resolved = resolve("sim", None, environ={})
with tempfile.TemporaryDirectory() as d:
    appliance = open_appliance(resolved, pathlib.Path(d), power_off=lambda: None)
    t3 = time.perf_counter()
    appliance.close()
print(f"{(t1 - t0) * 1000:.1f} {(t2 - t1) * 1000:.1f} {(t3 - t2) * 1000:.1f}")
"""


HISTORY = r"""
import sys, time, pathlib, dataclasses
from bench.peak import peak_mb
t0 = time.perf_counter()
from firmware_host.config import resolve
from firmware_host.appliance import open_appliance
t1 = time.perf_counter()
drawn = []

def first_frame(outputs):  # the moment the shell hands the first frame to the display
    seen = outputs.on_frame

    def on_frame(screen, image):
        drawn.append(time.perf_counter())
        seen(screen, image)

    return dataclasses.replace(outputs, on_frame=on_frame)

appliance = open_appliance(resolve("sim", None, environ={}), pathlib.Path(sys.argv[1]), power_off=lambda: None,
                           outputs_hook=first_frame)
t2 = time.perf_counter()
appliance.close()
t3 = drawn[0]
print(f"{(t3 - t0) * 1000:.1f} {(t3 - t1) * 1000:.1f} {(t2 - t1) * 1000:.1f} {peak_mb():.1f}")
"""
PI_FACTOR = 6  # a Raspberry Pi 3 against this machine, the pessimistic end of the 4-6x the issue states
TIMEOUT_START_S = 60  # the unit's TimeoutStartSec


def make_history(directory: Path, rows: int) -> int:
    """A journal with `rows` record lines of finished games, then the worst open session; returns the
    rows of the open session (what the start replays)."""
    sys.path.insert(0, str(ROOT))
    from firmware_host.config import resolve
    from firmware_host.core import app
    from firmware_host.core.event_codec import decode
    from firmware_host.core.events import TextEntry
    from firmware_host.core.settings import Settings
    from firmware_host.journal import RECORD, Journal
    from firmware_host.paths import journal_path
    from firmware_host.shell_journal import INPUT, ROLL_AFTER, SESSION
    from firmware_host.simulator import Simulator
    from tests.helpers.crash import timeline

    directory.mkdir(parents=True, exist_ok=True)
    with Journal.open(journal_path(directory)) as journal:
        journal._conn().execute("PRAGMA synchronous = OFF")
        with journal.batch():
            for start in range(0, rows, 100):
                game = journal.start_game("quiddler", ["Ann", "Ben"])
                for i in range(start, min(rows, start + 100)):
                    journal.append(game, RECORD, {"event": "word", "player": "Ann", "word": "TASCHE", "n": i}, "t")
                journal.finish(game, "Ann")
    sim = Simulator(resolve("sim", None, environ={}), directory)
    for event in app.events_to_choose(sim.state, "Punktetafel", 0.0) or []:
        sim.send(event)
    for i in range(ROLL_AFTER - 20):  # just short of a roll-over: the longest idle session there is
        sim.send(TextEntry(f"+{i % 9}", float(i)))
    # The script's "choose Quiddler" was expanded on a fresh table; from the scoreboard the menu's cursor
    # stands elsewhere, so the choice is made again on the table as it is (else another game opens).
    script = timeline("quiddler.script")
    chosen = len(app.events_to_choose(app.initial(Settings())[0], "Quiddler", 0.0) or [])
    sim.wait_until(sim.clock.now + 1000)
    for event in app.events_to_choose(sim.state, "Quiddler", sim.clock.now) or []:
        sim.send(event)
    for at, payload in script[chosen:80]:
        sim.wait_until(max(sim.clock.now, at + 1000))
        sim.send(decode({**payload, "at": at + 1000}))
    assert sim.state.flow is not None and sim.state.flow.game == "quiddler", "the open game is not Quiddler"
    journal = sim.appliance.journal
    session = len(journal.events(journal.open_game(SESSION), (INPUT,)))
    sim.close()
    return session


def history_runs(sizes: list[int], runs: int) -> None:
    import tempfile

    print(f"\nstart to first frame after prior use (median of {runs}; Pi 3 estimate = x{PI_FACTOR}):")
    with tempfile.TemporaryDirectory() as base:
        for rows in sizes:
            directory = Path(base) / str(rows)
            session = make_history(directory, rows)
            size_kb = sum(p.stat().st_size for p in directory.glob("journal.sqlite3*")) / 1024
            times, opens, started, rss = [], [], [], []
            for _ in range(runs):
                ms, opened, ready, peak = (float(x) for x in run(HISTORY, directory=directory).stdout.split())
                times.append(ms)
                opens.append(opened)
                started.append(ready)
                rss.append(peak)
            median = statistics.median(times)
            print(f"  {rows:7d} rows of history ({size_kb:6.0f} KB), open session {session} rows: "
                  f"{median:6.0f} ms (max {max(times):.0f}; of it journal, replay and first frame "
                  f"{statistics.median(opens):.0f} ms, max {max(opens):.0f}; the rest of the board started "
                  f"{statistics.median(started):.0f} ms after the imports), peak RSS {max(rss):5.1f} MB; "
                  f"Pi 3 ~{median * PI_FACTOR / 1000:.1f} s of TimeoutStartSec={TIMEOUT_START_S} s")


CHILD_ENV: dict[str, str] | None = None  # None: the children inherit this environment (`--bytecode-cache`)


def run(code: str, *flags: str, directory: Path | None = None) -> subprocess.CompletedProcess[str]:
    tail = [] if directory is None else [str(directory)]
    return subprocess.run([sys.executable, *flags, "-c", code, *tail], cwd=ROOT, capture_output=True, text=True,
                          check=True, env=CHILD_ENV)


def bytecode_note() -> str:
    env = os.environ if CHILD_ENV is None else CHILD_ENV
    if "PYTHONPYCACHEPREFIX" in env and "PYTHONDONTWRITEBYTECODE" not in env:
        return "bytecode: cached (as the Pi's install has it)"
    if env.get("PYTHONDONTWRITEBYTECODE"):
        return "bytecode: none, PYTHONDONTWRITEBYTECODE is set: the program's modules are compiled at every start"
    return "bytecode: cached next to the sources"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--history", default="0,10000,100000", help="rows of prior games, comma-separated")
    parser.add_argument("--bytecode-cache", action="store_true",
                        help="give the children a bytecode cache of their own, as the Pi's install has")
    args = parser.parse_args()
    global CHILD_ENV
    cache = None
    if args.bytecode_cache:
        import tempfile

        cache = tempfile.TemporaryDirectory()
        CHILD_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        CHILD_ENV["PYTHONPYCACHEPREFIX"] = cache.name
        with tempfile.TemporaryDirectory() as warm:  # fills the cache, game modules included
            make_history(Path(warm) / "warm", 0)
            run(STAGES)
            run(HISTORY, directory=Path(warm) / "warm")
    bare, cli, stack, first = [], [], [], []
    for _ in range(args.runs):
        t = time.perf_counter()
        run("pass")
        bare.append((time.perf_counter() - t) * 1000)
        a, b, c = (float(x) for x in run(STAGES).stdout.split())
        cli.append(a)
        stack.append(b)
        first.append(c)
    print(f"start-up of wordtable, median of {args.runs} fresh interpreters (Python {sys.version.split()[0]}; "
          f"{bytecode_note()})")
    print(f"{'interpreter alone (python -c pass)':<52} {statistics.median(bare):8.1f} ms")
    print(f"{'import firmware_host.cli (what every command pays)':<52} {statistics.median(cli):8.1f} ms")
    print(f"{'import config + appliance (gpiozero, luma, PIL, sqlite)':<52} {statistics.median(stack):8.1f} ms")
    print(f"{'profile, journal, drivers, first frame':<52} {statistics.median(first):8.1f} ms")

    trace = run(STAGES, "-X", "importtime").stderr.splitlines()
    rows = []
    for line in trace:
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if parts[0].isdigit():
            rows.append((int(parts[1]), parts[2].strip()))  # cumulative µs, module
    tops: dict[str, int] = {}
    for cumulative, module in rows:  # a package's cost: its most expensive import statement
        top = module.split(".")[0]
        tops[top] = max(tops.get(top, 0), cumulative)
    own = {m: us for m, us in tops.items() if m in ("firmware_host", "hw", "drivers")}
    libraries = sorted(((us, m) for m, us in tops.items() if m not in own), reverse=True)[:8]
    print("\nheaviest top-level imports (cumulative):")
    for module, us in sorted(own.items(), key=lambda kv: -kv[1]):
        print(f"  {module:<30} {us / 1000:8.1f} ms   (the program's own package)")
    for us, module in libraries:
        print(f"  {module:<30} {us / 1000:8.1f} ms")
    history_runs([int(n) for n in args.history.split(",") if n], min(args.runs, 3))
    if cache is not None:
        cache.cleanup()


if __name__ == "__main__":
    main()
