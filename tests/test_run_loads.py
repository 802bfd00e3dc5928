"""What `wordtable run` loads, for its memory (issue 40): `ssl` only when its configuration speaks TLS
(`firmware_host.tls`): with the page and a league on `mqtt://` the page serves and the league connects
without it (and aiohttp's frozenlist without its C++ extension); a league on `mqtts://` connects to a TLS
broker (a self-signed certificate). `keep_out` itself in a child
interpreter, since it holds for the rest of a process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host import tls
from firmware_host.config import Resolved, resolve
from tests.helpers.broker import Broker
from tests.helpers.ports import free_port

ROOT = Path(__file__).resolve().parent.parent


def _resolved(tmp_path: Path, broker: str | None) -> Resolved:
    path = tmp_path / "config.toml"
    path.write_text("" if broker is None else f'[league]\nbroker = "{broker}"\n')
    return resolve("sim", path, environ={})


def test_only_a_league_on_mqtts_needs_tls(tmp_path: Path) -> None:
    assert tls.needed(_resolved(tmp_path, "mqtts://league.example"))
    assert not tls.needed(_resolved(tmp_path, "mqtt://10.0.0.2"))
    assert not tls.needed(_resolved(tmp_path, None))


def _child(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_kept_out_ssl_fails_to_import_with_the_reason_and_asyncio_runs_without_it() -> None:
    out = _child(
        "import sys\n"
        "from firmware_host import tls\n"
        "assert tls.keep_out('no broker') and tls.kept_out() and tls.keep_out('again')\n"
        "import asyncio, asyncio.sslproto\n"
        "print('ssl' in sys.modules, asyncio.sslproto.ssl)\n"
        "try:\n    import ssl\nexcept ModuleNotFoundError as exc:\n    print(exc)\n"
        "print(asyncio.run(asyncio.sleep(0, 'ran')))\n"
    )
    assert out.splitlines() == ["False None", "no TLS in this process: no broker", "ran"]


def test_with_ssl_loaded_already_nothing_is_kept_out() -> None:
    out = _child("import ssl\nfrom firmware_host import tls\nprint(tls.keep_out('late'), tls.kept_out())\n")
    assert out.split() == ["False", "False"]


# -- the service ------------------------------------------------------------------------------------------

CHILD = r"""
import argparse, json, logging, os, signal, sys, threading
from firmware_host.commands import run

PAGE = os.environ.get("PAGE")


def report():
    page = None
    if PAGE:
        import urllib.request  # here: imported first, it would have loaded ssl before the service decided

        try:
            with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(PAGE, timeout=20) as response:
                page = response.status
        except Exception as exc:
            page = repr(exc)
    print("seen " + json.dumps({"ssl": "ssl" in sys.modules, "aiohttp": "aiohttp" in sys.modules,
                                "frozenlist C": "frozenlist._frozenlist" in sys.modules, "page": page}), flush=True)
    os.kill(os.getpid(), signal.SIGTERM)


class Connected(logging.Handler):
    seen = set()

    def emit(self, record):  # SIGTERM stops cleanly only once the service is ready
        self.seen |= {text for text in ("ready in", "league: connected") if record.getMessage().startswith(text)}
        if len(self.seen) == 2:
            self.seen.add("reported")
            threading.Thread(target=report, daemon=True).start()


logging.getLogger("wordtable").addHandler(Connected())
parser = argparse.ArgumentParser()
run.add_arguments(parser)
sys.exit(run.run(parser.parse_args(sys.argv[1:])))
"""


def _service(tmp_path: Path, config: str, page: str | None = None, **env: str) -> dict[str, object]:
    path = tmp_path / "config.toml"
    path.write_text(config)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "--profile", "sim", "--config", str(path), "--state-dir", str(tmp_path / "s")],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, "PAGE": page or "", **env},
    )
    assert done.returncode == 0, done.stderr
    line = next((x for x in done.stdout.splitlines() if x.startswith("seen ")), None)
    assert line is not None, f"the league never connected:\n{done.stderr}"
    seen: dict[str, object] = json.loads(line.removeprefix("seen "))
    return seen


@pytest.mark.slow
def test_the_page_serves_and_the_league_connects_on_mqtt_without_ssl(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker").start()
    try:
        port = free_port()
        config = (f'[page]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\n'
                  f'[league]\nbroker = "{broker.url}"\nvenue = "cafe"\ntable = "t1"\n')
        seen = _service(tmp_path, config, page=f"http://127.0.0.1:{port}/")
    finally:
        broker.stop()
    assert seen == {"ssl": False, "aiohttp": True, "frozenlist C": False, "page": 200}


def _certificate(directory: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make the broker's certificate")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.mark.slow
def test_a_league_on_mqtts_connects_with_tls(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker")
    cert, key = _certificate(tmp_path)
    listener = f"listener {broker.port} 127.0.0.1\n"
    text = broker.config.read_text()
    assert listener in text
    broker.config.write_text(text.replace(listener, f"{listener}certfile {cert}\nkeyfile {key}\n"))
    broker.start()
    try:
        # the certificate as the system's CAs (OpenSSL's SSL_CERT_FILE), not as `ca_file`: checking a
        # ca_file imports ssl while the config is read, before the service decides on TLS
        config = f'[page]\nenabled = false\n[league]\nbroker = "mqtts://127.0.0.1:{broker.port}"\n'
        seen = _service(tmp_path, config, SSL_CERT_FILE=str(cert))
    finally:
        broker.stop()
    assert seen == {"ssl": True, "aiohttp": False, "frozenlist C": False, "page": None}
