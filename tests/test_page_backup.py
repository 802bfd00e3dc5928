"""The backup on the table page (page/backup_routes.py), over real aiohttp: the owner (an owner session,
page/owner.py) downloads the box's backup; an upload (the owner, no game running, the page's own origin) is
checked, staged and carried out at the restart — by the service itself under systemd (exit code 75,
`Restart=on-failure`). And a past
game handed to BG Stats (page/bgstats_link.py)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from firmware_host.backup import create_backup, read_backup, restore_backup
from firmware_host.core.events import Notice
from firmware_host.core.page_view import page_views
from firmware_host.owner_pin import save_pin
from firmware_host.page.backup_routes import RESTART_DELAY_S, backup_routes, service_restart
from firmware_host.page.guard import STORE_NAME
from firmware_host.page.server import PageServer
from firmware_host.staged_restore import EXIT_RESTORE, staged_path
from tests.helpers.page_box import Box, serve
from tests.helpers.ports import free_port
from tests.table_driver import Table
from tests.test_backup import add_recorded_games, run_cli, tree, views

pytestmark = pytest.mark.slow  # real page servers, restores of played journals, a service restarting itself

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[PageServer, Box, Path]]:
    state = tmp_path / "box"
    state.mkdir()
    add_recorded_games(state)
    box = Box()
    server = serve(box, state)
    yield server, box, state
    server.close()


@pytest.fixture
def source(tmp_path: Path) -> bytes:
    """Another box's backup: one game of Quiddler."""
    other = tmp_path / "other"
    other.mkdir()
    add_recorded_games(other, ("quiddler",))
    return create_backup(other)


async def _seated(session: aiohttp.ClientSession, url: str, code: str) -> None:
    body = json.dumps({"code": code, "seat": 0})
    async with session.post(f"{url}/api/join", data=body, headers={"Origin": url}) as response:
        assert response.status == 200


PIN = "8642"


async def _owner(session: aiohttp.ClientSession, url: str, state: Path | None = None) -> None:
    """The owner's session (the PIN set on the box first when `state` is given)."""
    if state is not None:
        save_pin(state, PIN)
    body = json.dumps({"pin": PIN})
    async with session.post(f"{url}/api/owner", data=body, headers={"Origin": url}) as response:
        assert response.status == 200


async def _upload(session: aiohttp.ClientSession, url: str, data: bytes, origin: str | None = None) -> tuple[int, dict]:
    headers = {"Origin": origin or url, "Content-Type": "application/zip"}
    async with session.post(f"{url}/api/restore", data=data, headers=headers) as response:
        return response.status, await response.json()


def test_the_owner_downloads_the_box_s_backup(served: tuple[PageServer, Box, Path], tmp_path: Path) -> None:
    server, _, state = served
    url = server.address

    async def go() -> tuple[int, int, str, bytes]:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            await _seated(session, url, server.code)  # a seat is no proof
            async with session.get(f"{url}/api/backup") as response:
                refused = response.status
            await _owner(session, url, state)
            async with session.get(f"{url}/api/backup") as response:
                return refused, response.status, response.headers["Content-Disposition"], await response.read()

    refused, status, disposition, data = asyncio.run(go())
    assert refused == 403 and status == 200
    assert re.fullmatch(r'attachment; filename="wordtable-\d{8}-\d{4}\.wtbackup"', disposition)
    assert read_backup(data).manifest.games == 3
    restore_backup(tmp_path / "restored", data)
    assert views(tmp_path / "restored") == views(state)


def test_the_backup_page_is_served(served: tuple[PageServer, Box, Path]) -> None:
    server, _, _ = served

    async def go() -> tuple[int, str]:
        async with aiohttp.ClientSession() as session, session.get(f"{server.address}/backup") as response:
            return response.status, await response.text()

    status, text = asyncio.run(go())
    assert status == 200 and "/static/backup.js" in text and "/api/backup" in text


def test_an_upload_is_refused_to_a_player_from_elsewhere_damaged_or_mid_game(
        served: tuple[PageServer, Box, Path], source: bytes) -> None:
    server, box, state = served
    url = server.address

    def box_data() -> dict[str, bytes | None]:  # the phones' seats (and the table code) are the page's own
        return {name: data for name, data in tree(state).items() if name != STORE_NAME}

    save_pin(state, PIN)
    before = box_data()

    async def go() -> list[tuple[int, dict]]:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            await _seated(session, url, server.code)
            answers = [await _upload(session, url, source)]
            await _owner(session, url)
            answers.append(await _upload(session, url, source, origin="http://evil.example"))
            answers.append(await _upload(session, url, source[: len(source) // 2]))
            answers.append(await _upload(session, url, b"PK\x03\x04 not really"))
            box.state = Table().open_game("game:quiddler").state  # a game runs
            server.publish(page_views(box.state))
            await asyncio.sleep(0.2)
            answers.append(await _upload(session, url, source))
            return answers

    answers = asyncio.run(go())
    assert [(status, body["error"]) for status, body in answers] == [
        (403, "not_owner"), (403, "origin"), (400, "bad_backup"), (400, "bad_backup"), (409, "game_running")]
    assert "no zip archive" in answers[2][1]["message"]
    assert box_data() == before and not staged_path(state).exists()
    assert not [e for e in box.drained() if isinstance(e, Notice)]


def test_an_upload_without_systemd_is_restored_at_the_next_start(
        served: tuple[PageServer, Box, Path], source: bytes, tmp_path: Path) -> None:
    server, box, state = served
    url = server.address

    async def go() -> tuple[int, dict]:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            await _owner(session, url, state)
            return await _upload(session, url, source)

    status, body = asyncio.run(go())
    assert status == 202 and body["ok"] and body["restart"] is False and body["games"] == 1
    assert staged_path(state).read_bytes() == source
    assert [e.text for e in box.drained() if isinstance(e, Notice)] == ["Sicherung: beim nächsten Start"]
    restore_backup(tmp_path / "expected", source)
    assert views(state) != views(tmp_path / "expected")  # nothing restored while the box runs


def test_under_systemd_the_box_restarts_itself_after_answering(served: tuple[PageServer, Box, Path],
                                                               source: bytes) -> None:
    server, box, state = served
    restarts: list[str] = []

    async def go() -> tuple[int, dict, list[str]]:
        application = web.Application()
        backup_routes(application, server, lambda handler: handler,  # no gate: the owner's own tests
                      restart=lambda: restarts.append("SIGTERM"))
        async with TestServer(application, host="127.0.0.1") as site:
            url = str(site.make_url("")).rstrip("/")
            async with aiohttp.ClientSession() as session:
                status, body = await _upload(session, url, source)
            answered = list(restarts)
            await asyncio.sleep(RESTART_DELAY_S + 0.3)
        return status, body, answered

    status, body, answered = asyncio.run(go())
    assert (status, body["restart"]) == (202, True)
    assert answered == [] and restarts == ["SIGTERM"]  # after the answer, once
    assert [e.text for e in box.drained() if isinstance(e, Notice)] == ["Sicherung eingespielt: Neustart"]
    assert staged_path(state).exists()


def test_the_service_restart_is_a_sigterm_only_under_systemd() -> None:
    sent: list[tuple[int, int]] = []
    assert service_restart({}, kill=lambda pid, sig: sent.append((pid, sig))) is None
    restart = service_restart({"NOTIFY_SOCKET": "/run/systemd/notify"}, kill=lambda pid, sig: sent.append((pid, sig)))
    assert restart is not None and sent == []
    restart()
    assert sent == [(os.getpid(), signal.SIGTERM)]


@pytest.mark.slow
def test_the_service_restores_an_upload_across_its_own_restart(tmp_path: Path, source: bytes) -> None:
    """`wordtable run` under (a stand-in for) systemd: the upload stops it with exit code 75; the next start,
    which `Restart=on-failure` makes, restores the backup: `journal list` is the other box's."""
    state, port = tmp_path / "state", free_port()
    state.mkdir()
    save_pin(state, PIN)  # set on the box: the restore is the owner's
    config = tmp_path / "config.toml"
    config.write_text(f'[page]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n', "utf-8")
    env = dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify.sock"), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "firmware_host", "run", "--profile", "sim", "--config", str(config),
               "--state-dir", str(state)]
    proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        logged: list[str] = []

        def read(stream: IO[str]) -> None:
            for line in stream:
                logged.append(line)

        threading.Thread(target=read, args=(proc.stderr,), daemon=True).start()

        def latest_code() -> tuple[str, str] | None:
            found = [m for line in list(logged) for m in [re.search(r"table page at (\S+) \(code (\w+)\)|"
                                                                  r"table page: new code (\w+)", line)] if m]
            urls = [m.group(1) for m in found if m.group(1)]
            return (urls[0], [m.group(2) or m.group(3) for m in found][-1]) if urls else None

        async def go() -> tuple[int, dict]:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
                for _ in range(100):  # the code is logged; a start may renew it once its games are read
                    await asyncio.sleep(0.2)
                    known = latest_code()
                    if known is None:
                        continue
                    url, _ = known
                    async with session.get(f"{url}/api/owner") as response:
                        if response.status == 200:
                            await _owner(session, url)
                            return await _upload(session, url, source)
                raise AssertionError("never served: " + "".join(logged))

        status, body = asyncio.run(go())
        assert (status, body["restart"]) == (202, True)
        proc.wait(timeout=20)
        assert proc.returncode == EXIT_RESTORE
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    other = tmp_path / "other-box"
    restore_backup(other, source)
    proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if "ready in" in line:
                break
        assert not staged_path(state).exists()
        _, listed, _ = run_cli("journal", "list", "--state-dir", str(state))
        _, expected, _ = run_cli("journal", "list", "--state-dir", str(other))
        assert listed == expected
        assert [p.name for p in state.iterdir() if p.name.startswith("replaced-")]  # the service's data, aside
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
        assert proc.returncode == 0  # nothing staged: an ordinary stop
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_past_game_goes_to_bg_stats_by_its_import_link(served: tuple[PageServer, Box, Path]) -> None:
    server, _, state = served
    url = server.address

    async def go() -> list[tuple[int, str]]:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:

            async def ask(game: int) -> tuple[int, str]:
                async with session.get(f"{url}/api/games/{game}/bgstats", allow_redirects=False) as response:
                    return response.status, response.headers.get("Location", "")

            unseated = await ask(2)
            await _seated(session, url, server.code)
            return [unseated, await ask(2), await ask(99)]

    (unseated, _), (status, location), (missing, _) = asyncio.run(go())
    assert (unseated, status, missing) == (403, 302, 404)
    link = urlsplit(location)
    assert (link.scheme, link.netloc, link.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    _, exported, _ = run_cli("journal", "export", "--game", "2", "--format", "bgstats", "--state-dir", str(state))
    assert json.loads(parse_qs(link.query)["data"][0]) == json.loads(exported)
