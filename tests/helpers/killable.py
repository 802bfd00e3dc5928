"""A table session in a child process, to be killed with SIGKILL at any point.

Opens the appliance on the sim profile (virtual clock) in STATE_DIR and sends the events of
`session_events()` one by one; after each is handled (journaled first, then stepped) it prints
"ack N" and flushes. The parent kills it mid-way and checks that a restart resumes every acked event.
"""

import sys
import time
from pathlib import Path

from firmware_host.config import resolve
from firmware_host.core.events import Button, LongPress, Press, TextEntry
from firmware_host.simulator import Simulator


def session_events():
    """(seconds to let pass first, event factory at time t) — a scoreboard and timer session."""
    steps = [
        (0, lambda t: Press(Button.MENU, t)), (0, lambda t: Press(Button.NEXT, t)),
        (0, lambda t: Press(Button.START, t)),
    ]
    for i in range(40):
        steps.append((1, lambda t, i=i: TextEntry(f"+{i + 1}", t)))
        steps.append((0, lambda t: Press(Button.NEXT, t)))
        if i % 7 == 3:
            steps.append((0, lambda t: Press(Button.BACK, t)))
        if i % 11 == 5:
            steps.append((2, lambda t: LongPress(Button.NEXT, t)))  # the timer beside the scores
    return steps


def main() -> None:
    sim = Simulator(resolve("sim", None, environ={}), Path(sys.argv[1]))
    for n, (pause, make) in enumerate(session_events()):
        sim.wait_until(sim.clock.now + pause)
        sim.send(make(sim.clock.now))
        print(f"ack {n}", flush=True)
        time.sleep(0.002)
    sim.close()


if __name__ == "__main__":
    main()
