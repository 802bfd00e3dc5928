"""`wordtable run` loads the network stacks only for what is on: with the page and the league off, a
running service has imported neither aiohttp, ssl nor paho; with the page on, aiohttp is there."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.ports import free_port

pytestmark = pytest.mark.slow  # a service in a child process

CHILD = r"""
import argparse, json, logging, os, signal, sys
from pathlib import Path
from firmware_host.commands import run

NETWORK = ("aiohttp", "ssl", "paho")


class Ready(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("ready in"):
            loaded = sorted(m for m in sys.modules if m.split(".")[0] in NETWORK)
            print("loaded " + json.dumps(loaded), flush=True)
            os.kill(os.getpid(), signal.SIGTERM)


logging.getLogger("wordtable").addHandler(Ready())
parser = argparse.ArgumentParser()
run.add_arguments(parser)
sys.exit(run.run(parser.parse_args(sys.argv[1:])))
"""


def _loaded(tmp_path: Path, config: str) -> list[str]:
    path = tmp_path / "config.toml"
    path.write_text(config)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "--profile", "sim", "--config", str(path), "--state-dir", str(tmp_path / "s")],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent,
    )
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("loaded "))
    loaded: list[str] = json.loads(line.removeprefix("loaded "))
    return loaded


def test_with_the_page_and_the_league_off_no_network_stack_is_imported(tmp_path: Path) -> None:
    assert _loaded(tmp_path, "[page]\nenabled = false\n") == []


def test_with_the_page_on_its_stack_is_imported(tmp_path: Path) -> None:
    port = free_port()
    loaded = _loaded(tmp_path, f'[page]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\n')
    assert "aiohttp" in loaded
