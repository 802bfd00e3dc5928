"""The owner page's update routes (firmware_host/update/page_routes.py): behind the owner's gate, they list
the release files on the sticks and write a request for the root unit, and nothing else."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

from firmware_host.update.page_routes import add_routes
from tests.helpers.owner_gate import owner_only


def _talk(state: Path, media: Path, calls: list[tuple[str, dict[str, str], Any]]) -> list[tuple[int, Any]]:
    async def go() -> list[tuple[int, Any]]:
        application = web.Application()
        add_routes(application, owner_only, state_dir=state, roots=(media,))
        answers = []
        async with TestServer(application, host="127.0.0.1") as site, aiohttp.ClientSession() as session:
            url = str(site.make_url("/api/owner/update"))
            origin = str(site.make_url("")).rstrip("/")
            for method, headers, body in calls:
                sent = {"Origin": origin, **headers}
                async with session.request(method, url, headers=sent, data=body) as response:
                    answers.append((response.status, await response.json()))
        return answers

    return asyncio.run(go())


def test_the_owner_sees_the_sticks_files_and_asks_for_one(tmp_path: Path) -> None:
    state, media = tmp_path / "state", tmp_path / "media"
    state.mkdir()
    (media / "usb").mkdir(parents=True)
    stick = media / "usb" / "wordtable-aarch64.wtrelease"
    stick.write_bytes(b"r")
    owner = {"X-Test-Owner": "yes"}
    answers = _talk(state, media, [
        ("GET", {}, None),
        ("POST", {}, json.dumps({"file": str(stick)})),
        ("GET", owner, None),
        ("POST", {**owner, "Origin": "http://evil.example"}, json.dumps({"file": str(stick)})),
        ("POST", owner, json.dumps({"file": "/etc/shadow"})),
        ("POST", owner, json.dumps({"file": str(stick)})),
        ("GET", owner, None),
    ])
    assert [status for status, _ in answers] == [403, 403, 200, 403, 400, 202, 200]
    assert answers[2][1]["files"] == [str(stick)] and answers[2][1]["last"]["state"] == "none"
    assert "USB stick" in answers[4][1]["error"]
    assert json.loads((state / "update-request").read_text()) == {"file": str(stick)}
    assert answers[6][1]["last"]["state"] == "asked"
