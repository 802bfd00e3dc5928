"""`wordtable run`: the service. Logs for journald, tells systemd when it is ready, pets the watchdog
from the loop, and stops cleanly on SIGTERM (LEDs off, buzzer silent, display cleared, journal closed).

A start that fails shows its reason on the OLED as well as in the log and exits: 2 for an unusable
profile or config, 1 for hardware or anything unforeseen (the unit's start limit ends a crash loop). A
journal that cannot be opened is no such failure: the appliance runs and says "nicht gespeichert"."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_host import sdnotify, thread_priority, tls
from firmware_host.commands.check_config import report
from firmware_host.config import DEFAULT_CONFIG_PATH, Resolved, ResolveError, page_enabled, resolve
from firmware_host.core.events import Notice
from firmware_host.core.i18n import DEFAULT_LANGUAGE
from firmware_host.paths import state_dir
from firmware_host.staged_restore import EXIT_RESTORE, staged_path
from firmware_host.startup_failure import profile_for_message, show_failure

log = logging.getLogger("wordtable")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", default="default", help="board profile: a bundled name or a TOML file")
    parser.add_argument("--config", type=Path, help=f"user config TOML (default: {DEFAULT_CONFIG_PATH} if present)")
    parser.add_argument("--state-dir", type=Path, help="where the journal lives (default: $STATE_DIRECTORY, "
                        "/var/lib/wordtable, else ./sim-state)")


def run(args: argparse.Namespace, *, display_device: Any = None) -> int:
    """The service until SIGTERM; the exit code. `display_device` stands in for the profile's panel when a
    start fails (tests: luma's dummy device)."""
    # journald adds its own time stamps; the level goes first so `journalctl -p` can be matched by eye.
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        resolved = resolve(args.profile, args.config)
    except ResolveError as exc:
        code = report(exc, "wordtable run")
        lines = [f"{key.rsplit(': ', 1)[-1]}: {message}" for key, message in exc.errors]
        show_failure(profile_for_message(args.profile), DEFAULT_LANGUAGE, "config", lines,
                     display_device=display_device)
        return code
    except Exception as exc:  # a config the validation itself trips over (e.g. nested too deeply)
        log.error("cannot read the configuration: %s", type(exc).__name__)
        print(f"wordtable run: cannot read the configuration: {type(exc).__name__}", file=sys.stderr)
        show_failure(profile_for_message(args.profile), DEFAULT_LANGUAGE, "config", [type(exc).__name__],
                     display_device=display_device)
        return 2
    logging.getLogger().setLevel(resolved.config.logging.level)
    try:
        return _serve(args, resolved)
    except Exception as exc:  # the last word: a reason on the OLED instead of a dark panel
        log.exception("cannot start")
        show_failure(resolved.profile, resolved.config.appliance.language, "internal", [f"{type(exc).__name__}: {exc}"],
                     display_device=display_device)
        return 1


def _page(appliance: Any, resolved: Resolved, directory: Path) -> Any:
    """The table page when the config has it on, else None. Its module (aiohttp, ssl) is imported only
    then: with the page off the service never loads the network stack."""
    if not page_enabled(resolved):
        return None
    # aiohttp's signal lists (frozenlist) in pure Python, as frozenlist offers: its C extension, used only at
    # start and stop, is C++ and maps libstdc++ for it: ~1.2 MB resident (bench/bench_rss.py)
    os.environ.setdefault("FROZENLIST_NO_EXTENSIONS", "1")
    from firmware_host.page.attach import serve_page

    return serve_page(appliance, resolved, directory)


def _idle_upkeep() -> Callable[[], None]:
    """What the loop does when idle: pet the watchdog; and now and then (threads start later: the league's
    network loop, the end summary) move the threads that may wait below the table (`thread_priority`)."""
    moved: set[int] = set()
    next_look = 0.0
    thread_priority.hand_the_gil_on_sooner()

    def upkeep() -> None:
        nonlocal next_look
        sdnotify.watchdog()
        now = time.monotonic()
        if now >= next_look:
            next_look = now + LOOK_AGAIN_S
            thread_priority.let_wait(done=moved)

    return upkeep


LOOK_AGAIN_S = 5.0


def _serve(args: argparse.Namespace, resolved: Resolved) -> int:
    if not tls.needed(resolved) and tls.keep_out("the service's configuration names no mqtts:// broker"):
        log.debug("TLS kept out of the process: no mqtts:// broker")
    from firmware_host.appliance import open_appliance, settle_heap
    from firmware_host.power import PowerOffError, power_off
    from hw.protocols import HardwareError

    directory = state_dir(args.state_dir or resolved.config.appliance.state_dir)

    def switch_off() -> None:
        try:
            power_off()
        except PowerOffError as exc:
            log.error("%s", exc)
            appliance.shell.put(Notice(str(exc), time.monotonic()))

    started = time.monotonic()
    try:
        appliance = open_appliance(resolved, directory, power_off=switch_off, prepare_lists=True)
    except HardwareError as exc:
        log.error("hardware: %s", exc)
        print(f"wordtable run: {exc}", file=sys.stderr)
        show_failure(resolved.profile, resolved.config.appliance.language, "hardware", [str(exc)])
        return 1
    page = _page(appliance, resolved, directory)
    from firmware_host.network.feed import WifiFeed

    wifi = WifiFeed(appliance.shell, directory, time.monotonic)  # the watcher's status in, the table's requests out
    settle_heap()

    def on_term(signum: int, frame: object) -> None:
        log.info("signal %d: stopping", signum)
        appliance.shell.stop()

    signal.signal(signal.SIGTERM, on_term)  # before "ready": a stop asked for right after it is a clean stop
    signal.signal(signal.SIGINT, on_term)
    log.info("ready in %.0f ms (state in %s)", (time.monotonic() - started) * 1000, directory)
    interval = sdnotify.watchdog_interval()
    sdnotify.ready("wordtable running")
    upkeep = _idle_upkeep()
    try:
        upkeep()  # the threads started so far (the page's, the word lists') at once
        appliance.shell.run(on_idle=upkeep, idle_every=interval / 2 if interval else None)
    finally:
        sdnotify.stopping()
        wifi.close()
        if page is not None:
            page.close()
        appliance.close()
        log.info("stopped")
    return EXIT_RESTORE if staged_path(directory).exists() else 0  # a restore from the page: start again
