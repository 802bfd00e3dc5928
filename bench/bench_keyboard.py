"""Benchmark: a key press on a USB keyboard → the character on the OLED frame, through the real shell.

The appliance runs on the sim profile with a keyboard at a FIFO standing in for /dev/input/eventN (so the
keyboard driver's thread, the record parser, the key decoder and the line editor are all in the path, not
the USB wire). It waits for a player's name at Das perfekte Wort's setup; each key press+release is
written into the FIFO and timed until the frame that shows the line with that character reaches the
display (`on_frame`). Every 16 characters (a name's most) an Esc clears the line. Then Enter (the line
names the seat).
Idle: CPU of the whole process, and of the keyboard thread alone (from /proc), with the keyboard plugged
in and nobody typing. Prints p50/p99/max in ms; asserts nothing.

    python bench/bench_keyboard.py            # 600 keys, 30 s idle
    python bench/bench_keyboard.py --quick    # 150 keys, 10 s idle
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import start_appliance, stats
from drivers.input_event import key_records
from drivers.keymap import KEY_ENTER, KEY_ESC, LETTER_KEYS
from firmware_host.config import resolve
from firmware_host.core import app
from firmware_host.core.events import Button, Press, Turn
from firmware_host.core.text_input import NAME
from firmware_host.shell import Outputs

SIM = Path(__file__).resolve().parent.parent / "hw" / "profiles" / "sim.toml"
LETTERS = sorted(LETTER_KEYS.items(), key=lambda item: item[1])  # (code, US letter); de swaps y and z


class Probe:
    def __init__(self) -> None:
        self.footers: list[tuple[float, str]] = []
        self.seen = threading.Event()

    def hook(self, outputs: Outputs) -> Outputs:
        def on_frame(screen: Any, image: Any) -> None:
            self.footers.append((time.monotonic(), getattr(screen, "footer", "")))
            self.seen.set()

        return replace(outputs, on_frame=on_frame)

    def wait_for(self, text: str, since: int, timeout: float = 2.0) -> float | None:
        """The time of the first frame after frame `since` whose footer contains `text`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for at, footer in self.footers[since:]:
                if text in footer:
                    return at
            self.seen.wait(0.01)
            self.seen.clear()
        return None


def key_stream(code: int) -> bytes:
    """A key pressed and released, as the keyboard's records."""
    return key_records(code, 1) + key_records(code, 0)


def thread_cpu(native_id: int) -> float:
    """CPU seconds (user + system) of one thread of this process, from /proc."""
    fields = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    keys, idle_window = (150, 10.0) if args.quick else (600, 30.0)
    probe = Probe()
    with tempfile.TemporaryDirectory(prefix="wordtable-bench-") as scratch:
        fifo = Path(scratch) / "kbd0"
        os.mkfifo(fifo)
        writer = os.open(fifo, os.O_RDWR)  # the keyboard, plugged in for the whole run
        profile = Path(scratch) / "profile.toml"
        text = SIM.read_text(encoding="utf-8")
        profile.write_text(text.replace("devices = []", f'devices = ["{fifo}"]', 1))
        appliance, thread = start_appliance(Path(scratch), probe.hook, resolved=resolve(profile, None, environ={}))
        shell, devices = appliance.shell, appliance.hardware.keyboards
        assert devices is not None
        deadline = time.monotonic() + 5
        while devices.open_paths != [str(fifo)] and time.monotonic() < deadline:
            time.sleep(0.01)
        now = time.monotonic()
        index = app.main_keys(shell.state).index("game:perfektes-wort")
        for event in (Press(Button.MENU, now), Turn(index, now), Press(Button.START, now)):
            shell.put(event)
        while "Namen" not in str(getattr(shell.screen, "footer", "")) and time.monotonic() < deadline + 5:
            time.sleep(0.01)

        latencies: list[float] = []
        line = ""
        for n in range(keys):
            if len(line) == NAME.limit:  # a name field: a longer line would show "Zu lang"
                since = len(probe.footers)
                os.write(writer, key_stream(KEY_ESC))
                probe.wait_for("Namen", since)
                line = ""
                time.sleep(0.005)
            code, letter = LETTERS[n % len(LETTERS)]
            letter = {"y": "z", "z": "y"}.get(letter, letter)  # the German layout
            line += letter
            since = len(probe.footers)
            before = time.monotonic()
            os.write(writer, key_stream(code))
            shown = probe.wait_for(f"{line[-17:]}▏", since)
            if shown is not None:
                latencies.append((shown - before) * 1000)
            time.sleep(0.005)
        since = len(probe.footers)
        os.write(writer, key_stream(KEY_ESC))  # a fresh line: one letter, then Enter names the seat
        probe.wait_for("Namen", since)
        since = len(probe.footers)
        os.write(writer, key_stream(LETTERS[0][0]))
        probe.wait_for("▏", since)
        time.sleep(0.05)
        since, before = len(probe.footers), time.monotonic()
        os.write(writer, key_stream(KEY_ENTER))
        named = probe.wait_for("Namen", since)  # the line is gone from the footer: the seat is named
        enter_ms = None if named is None else (named - before) * 1000

        time.sleep(2.0)  # settle: idle is the steady state
        tid = devices._thread.native_id if devices._thread is not None else None
        cpu0, wall0 = cpu_seconds(), time.monotonic()
        kbd0 = thread_cpu(tid) if tid else 0.0
        time.sleep(idle_window)
        wall = time.monotonic() - wall0
        idle_cpu = (cpu_seconds() - cpu0) / wall * 100
        kbd_cpu = ((thread_cpu(tid) - kbd0) / wall * 100) if tid else float("nan")
        shell.stop()
        thread.join(10)
        os.close(writer)

    print(f"wordtable keyboard benchmark — {keys} keys through a FIFO keyboard; {os.cpu_count()} cores; "
          f"Python {sys.version.split()[0]}")
    print(f"{'measure':<48} {'p50':>8} {'p99':>8} {'max':>8}")
    print(f"{'key press → character on the OLED frame (ms)':<48} {stats(latencies)}")
    if enter_ms is not None:
        print(f"{'Enter → the seat named on the frame (ms)':<48} {enter_ms:8.3f}")
    print(f"{'CPU idle, keyboard plugged in (% of one core)':<48} {idle_cpu:8.3f}   over {idle_window:.0f} s")
    print(f"{'  of which the keyboard thread (% of one core)':<48} {kbd_cpu:8.3f}")
    print("target: p99 ≤ 20 ms; idle ≤ 0.5 % of a core")


if __name__ == "__main__":
    main()
