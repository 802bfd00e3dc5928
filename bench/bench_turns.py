"""Benchmark: the turn timer beside the peer's turn loop, both on gpiozero's mock pins, in one run.

The peer is the one-button chess clock of carolinedunn/game-night-buzzer (`Pi-LEDs/timer-leds.py`), modelled
here in its own terms (not copied): a gpiozero `Button` whose `when_pressed` starts the next player's
countdown (`deadline = monotonic() + TURN_SECONDS`, then two or three short beeps played with `sleep` in
the callback), and a main loop that, while a countdown runs, recomputes `int(round(deadline - monotonic()))`
and sets the LEDs without ever sleeping. Its "bank" is what a clock built on that loop would hold: the
time between the callbacks that switched the turn.

Ours is the real appliance (sim profile: mock pins, dummy display, the shell loop in its thread) in the
turn timer, time-bank mode, two players; the turn button (`buttons.turn`, a press-edge button) switches.

Both get the same 50 turns (lengths drawn from a seeded generator, some shorter than the peer's beeps);
the bench records each button edge (`time.monotonic()` as it drives the pin) as the truth. The mock pins
call back the way a Pi's GPIO library does (`LateCallbackPin`): the pin changes and records the moment at
once, the callback runs on one thread of its own, in order — so a callback that sleeps (the peer's beeps)
holds up the ones after it, and every callback waits for the interpreter lock. (A plain mock pin would run
the callback inside `drive_low`, in the driving thread.) Each side runs in its own process, one after the
other, so CPU time is its own. Printed:
- switch latency: the edge → the next player's countdown running (ours: the frame with the next player on
  the display, i.e. journaled, stepped, rendered and shown; the peer: its new deadline set);
- countdown origin: where the next player's countdown starts, minus the edge (ours counts from the
  event's timestamp; the peer from the moment its callback ran);
- bank error after 50 turns: each player's time as the clock holds it minus the truth;
- CPU: process CPU time over the 50 turns, in % of one core.
Asserts nothing.

    python bench/bench_turns.py            # 50 turns of 0.2–1.2 s each side (~2 min)
    python bench/bench_turns.py --quick    # 20 turns of 0.2–0.5 s
    python bench/bench_turns.py --pi       # also at a Pi Zero 2 W core's share (bench/pi_speed.py), side by side
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import start_appliance, stats
from bench.pi_speed import add_pi_argument, pi_or_run, row

PEER_BUTTON, PEER_BUZZER, PEER_LEDS = 17, 18, (23, 24, 25)
PEER_TURN_SECONDS = 10  # the peer's per-turn limit: never reached by these turns


def late_callback_factory() -> Any:
    """gpiozero's MockFactory with `LateCallbackPin`s (made here: gpiozero is imported late, in the child)."""
    from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

    calls: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()

    def dispatch() -> None:
        while True:
            calls.get()()

    threading.Thread(target=dispatch, name="gpio-callbacks", daemon=True).start()

    class LateCallbackPin(MockPWMPin):
        def _call_when_changed(self) -> None:
            ticks, state = self._last_change, self._state  # the moment and level of this edge
            calls.put(lambda: super(MockPin, self)._call_when_changed(ticks, state))

    return MockFactory(pin_class=LateCallbackPin)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def turn_lengths(turns: int, low: float, high: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(low, high) for _ in range(turns)]


def truth(edges: list[float], players: int) -> list[float]:
    """Each player's time from the edges: turn k (player k mod n) lasts from edge k to edge k + 1."""
    used = [0.0] * players
    for k in range(len(edges) - 1):
        used[k % players] += edges[k + 1] - edges[k]
    return used


# --- the peer's turn loop ------------------------------------------------------------------------------


def peer(lengths: list[float], out: Any) -> None:
    from gpiozero import LED, Button, PWMOutputDevice

    factory = late_callback_factory()
    button = Button(PEER_BUTTON, pull_up=True, bounce_time=0.05, pin_factory=factory)
    buzzer = PWMOutputDevice(PEER_BUZZER, frequency=1000, pin_factory=factory)
    green, yellow, red = (LED(pin, pin_factory=factory) for pin in PEER_LEDS)
    clock: dict[str, Any] = {"state": "IDLE", "active": 1, "deadline": None}
    started: list[float] = []  # when each countdown began (the deadline was set)

    def beep(freq: float, duration: float) -> None:
        buzzer.frequency = freq
        buzzer.value = 0.5
        time.sleep(duration)
        buzzer.value = 0

    def start_turn(player: int) -> None:
        clock["active"] = player
        now = time.monotonic()
        clock["deadline"] = now + PEER_TURN_SECONDS
        started.append(now)
        clock["state"] = "RUNNING"
        for _ in range(2 if player == 1 else 3):
            beep(1200 if player == 1 else 900, 0.08)
            time.sleep(0.07)

    def on_press() -> None:
        start_turn(1 if clock["state"] == "IDLE" else 2 if clock["active"] == 1 else 1)

    button.when_pressed = on_press
    edges: list[float] = []
    done = threading.Event()

    def drive() -> None:
        pin = factory.pin(PEER_BUTTON)
        time.sleep(0.2)
        for length in [0.0, *lengths]:
            time.sleep(length)
            edges.append(time.monotonic())
            pin.drive_low()
            time.sleep(0.06)
            pin.drive_high()
        time.sleep(1.0)  # the last callback's beeps
        done.set()

    driver = threading.Thread(target=drive, daemon=True)
    cpu0, wall0 = cpu_seconds(), time.monotonic()
    driver.start()
    while not done.is_set():  # the peer's main loop: no sleep while a countdown runs
        if clock["state"] == "RUNNING":
            remaining = max(0, int(round(clock["deadline"] - time.monotonic())))  # noqa: RUF046 (as the peer writes it)
            if remaining > 4:
                green.on(), yellow.off(), red.off()
            elif remaining > 2:
                green.off(), yellow.on(), red.off()
            else:
                green.off(), yellow.off(), red.on()
        else:
            time.sleep(0.05)
    cpu = (cpu_seconds() - cpu0) / (time.monotonic() - wall0) * 100
    held = truth(started, 2)
    out.put({
        "latency": [(s - e) * 1000 for s, e in zip(started[1:], edges[1:], strict=True)],
        "origin": [(s - e) * 1000 for s, e in zip(started[1:], edges[1:], strict=True)],
        "bank_error": [(h - t) * 1000 for h, t in zip(held, truth(edges, 2), strict=True)],
        "cpu": cpu,
    })


# --- ours ------------------------------------------------------------------------------------------------


class Probe:
    """Time-stamps every frame with the player it shows on turn."""

    def __init__(self) -> None:
        self.frames: list[tuple[float, str]] = []
        self.changed = threading.Condition()

    def hook(self, outputs: Any) -> Any:
        def on_frame(screen: Any, image: Any) -> None:
            with self.changed:
                self.frames.append((time.monotonic(), str(getattr(screen, "title", ""))))
                self.changed.notify_all()

        return replace(outputs, on_frame=on_frame)

    def wait_for(self, text: str, after: float, timeout: float = 5.0) -> float | None:
        """The first frame at or after `after` showing `text` (waits up to `timeout`)."""
        end = time.monotonic() + timeout
        with self.changed:
            while True:
                found = next((t for t, shown in self.frames if t >= after and text in shown), None)
                if found is not None or time.monotonic() > end:
                    return found
                self.changed.wait(0.05)


def ours(lengths: list[float], out: Any) -> None:
    from firmware_host.core import app
    from firmware_host.core.events import Button, Press, Turn
    from firmware_host.core.games.zugzeit import table as zz

    probe = Probe()
    with tempfile.TemporaryDirectory(prefix="wordtable-bench-") as scratch:
        appliance, thread = start_appliance(Path(scratch), probe.hook, late_callback_factory())
        shell = appliance.shell
        now = time.monotonic()
        for event in app.events_to_choose(shell.state, "Zugzeit", now):
            shell.put(event)
        # two players ("Spieler 1", "Spieler 2"), the config's time bank (10:00), START on "Los!"
        for event in (Turn(-2, now), Press(Button.START, now), *[Press(Button.NEXT, now)] * 4,
                      Press(Button.START, now)):
            shell.put(event)
        if probe.wait_for("Spieler 1", 0.0) is None:
            raise SystemExit("the turn timer did not come up")
        pin = appliance.hardware.pin_factory.pin(turn_pin())
        time.sleep(0.3)
        edges, latency, origins = [], [], []
        names = ("Spieler 2", "Spieler 1")
        cpu0, wall0 = cpu_seconds(), time.monotonic()
        for k, length in enumerate([0.0, *lengths]):
            time.sleep(length)
            edge = time.monotonic()
            edges.append(edge)
            pin.drive_low()  # the turn button reports its press edge
            if k:
                shown = probe.wait_for(names[(k - 1) % 2], edge)
                if shown is not None:
                    latency.append((shown - edge) * 1000)
                flow = shell.state.flow
                if isinstance(flow, zz.ZugzeitFlow) and flow.clock.since_ms is not None:
                    origins.append(flow.clock.since_ms - edge * 1000)
            time.sleep(0.02)
            pin.drive_high()
        cpu = (cpu_seconds() - cpu0) / (time.monotonic() - wall0) * 100
        flow = shell.state.flow
        assert isinstance(flow, zz.ZugzeitFlow) and flow.played is not None
        game = flow.played.game
        held = [(game.setup.time_ms - bank) / 1000 for bank in game.banks]
        shell.stop()
        thread.join(10)
    out.put({
        "latency": latency,
        "origin": origins,
        "bank_error": [(h - t) * 1000 for h, t in zip(held, truth(edges, 2), strict=True)],
        "cpu": cpu,
    })


def turn_pin() -> int:
    from firmware_host.config import resolve

    pin = resolve("sim", None, environ={}).profile.buttons.turn
    assert pin is not None, "the sim profile has a turn button"
    return pin


def run(target: Any, lengths: list[float]) -> dict[str, Any]:
    queue: Any = multiprocessing.Queue()
    process = multiprocessing.Process(target=target, args=(lengths, queue))
    process.start()
    result = queue.get(timeout=30 + 2 * sum(lengths) + 0.5 * len(lengths))
    process.join(30)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    add_pi_argument(parser)
    args = parser.parse_args()
    pi_or_run(args, lambda: measure(args))


def measure(args: argparse.Namespace) -> None:
    turns, low, high = (20, 0.2, 0.5) if args.quick else (args.turns, 0.2, 1.2)
    lengths = turn_lengths(turns, low, high, args.seed)
    peer_result = run(peer, lengths)
    our_result = run(ours, lengths)

    def bank(result: dict[str, Any]) -> str:
        return "  ".join(f"{error:+9.3f}" for error in result["bank_error"])

    load = os.getloadavg()[0]
    print(f"turn timers on gpiozero mock pins — {turns} turns of {low}–{high} s, 2 players (seed {args.seed}); "
          f"{os.cpu_count()} cores, load {load:.1f}; Python {sys.version.split()[0]}")
    print(f"{'measure':<58} {'p50':>8} {'p99':>8} {'max':>8}")
    print(f"{'switch latency, edge → next countdown running (ms)':<58}")
    print(f"{'  wordtable: the next player shown on the display':<58} {stats(our_result['latency'])}")
    print(f"{'  peer: its next deadline set':<58} {stats(peer_result['latency'])}")
    print(f"{'countdown origin − edge (ms)':<58}")
    print(f"{'  wordtable (counts from the event timestamp)':<58} {stats(our_result['origin'])}")
    print(f"{'  peer (counts from its callback)':<58} {stats(peer_result['origin'])}")
    print(f"{'bank error after the turns, player 1 / player 2 (ms)':<58}")
    print(f"{'  wordtable':<58} {bank(our_result)}")
    print(f"{'  peer':<58} {bank(peer_result)}")
    print(f"{'CPU during the turns (% of one core)':<58}")
    print(f"{'  wordtable (the whole appliance, shell loop and drivers)':<58} {our_result['cpu']:8.2f}")
    print(f"{'  peer':<58} {peer_result['cpu']:8.2f}")
    row("turn switch -> frame handed over (wordtable)", our_result["latency"])
    row("turn switch -> deadline set (peer)", peer_result["latency"])
    row("countdown origin - edge (wordtable)", our_result["origin"])


if __name__ == "__main__":
    main()
