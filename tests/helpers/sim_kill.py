"""A power cut in the middle of a documented script: the simulator plays it in a child process on a state
directory, and the child is killed with SIGKILL once the script is through (`killed_after`)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CHILD = """
import sys, time
from pathlib import Path
from firmware_host.config import resolve
from firmware_host.script import parse_script, run_script
from firmware_host.simulator import Simulator
sim = Simulator(resolve("sim", None, environ={}), Path(sys.argv[1]))
run_script(parse_script(sys.argv[2]), sim.hooks(), lambda line: None)
print("played", flush=True)
time.sleep(600)
"""


def killed_after(box: Path, script: str) -> None:
    """`script` (the sim-script language) played on the simulator on state directory `box`, then SIGKILL: what
    the journal holds is what a power cut right then leaves."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(box), script], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "played\n"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    assert child.returncode == -signal.SIGKILL
