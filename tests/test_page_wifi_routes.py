"""The page's Wi-Fi routes (`page/wifi_routes.py`): behind the owner's gate (here the test's own), a home
network added from the page becomes a request for the watcher; the status never shows a password."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

from firmware_host.network import files
from firmware_host.page.wifi_routes import add_routes
from tests.helpers.owner_gate import owner_only


def ask(directory: Path, calls: list[tuple[str, str, dict[str, Any]]]) -> list[tuple[int, Any]]:
    async def go() -> list[tuple[int, Any]]:
        application = web.Application()
        add_routes(application, owner_only, directory)
        answers = []
        async with TestServer(application, host="127.0.0.1") as site:
            url = str(site.make_url("")).rstrip("/")
            async with aiohttp.ClientSession() as session:
                for method, path, options in calls:
                    headers = {key.replace("_", "-"): value for key, value in options.pop("headers", {}).items()}
                    if headers.get("Origin") == "self":
                        headers["Origin"] = url
                    async with session.request(method, url + path, headers=headers, **options) as answer:
                        text = await answer.text()
                        answers.append((answer.status, await answer.json() if "json" in answer.content_type
                                        else text))
        return answers

    return asyncio.run(go())


OWNER = {"X_Test_Owner": "yes", "Origin": "self"}


def test_the_owner_adds_a_home_network_and_the_watcher_is_asked(tmp_path: Path) -> None:
    answers = ask(tmp_path, [
        ("POST", "/api/wifi/networks", {"json": {"ssid": "Zuhause", "password": "zuhause-geheim"},
                                        "headers": dict(OWNER)}),
        ("POST", "/api/wifi/networks", {"data": {"ssid": "Café;1", "password": "p,a:s\"s;w\\d"},
                                        "headers": dict(OWNER)}),
    ])
    assert answers == [(202, {"ok": True, "ssid": "Zuhause"}), (202, {"ok": True, "ssid": "Café;1"})]
    assert files.take_requests(tmp_path) == (False, [files.Added("Zuhause", "zuhause-geheim"),
                                                     files.Added("Café;1", "p,a:s\"s;w\\d")])


def test_without_the_owner_from_elsewhere_or_wrong_nothing_is_asked(tmp_path: Path) -> None:
    answers = ask(tmp_path, [
        ("POST", "/api/wifi/networks", {"json": {"ssid": "Zuhause", "password": "zuhause-geheim"},
                                        "headers": {"Origin": "self"}}),
        ("GET", "/wifi", {}),
        ("POST", "/api/wifi/networks", {"json": {"ssid": "Zuhause", "password": "zuhause-geheim"},
                                        "headers": {"X_Test_Owner": "yes", "Origin": "http://evil.example"}}),
        ("POST", "/api/wifi/networks", {"json": {"ssid": "Zuhause", "password": "kurz"}, "headers": dict(OWNER)}),
        ("POST", "/api/wifi/networks", {"json": {"password": "zuhause-geheim"}, "headers": dict(OWNER)}),
    ])
    assert [status for status, _ in answers] == [403, 403, 403, 400, 400]
    assert files.take_requests(tmp_path) == (False, [])


def test_the_form_and_the_status_without_a_password(tmp_path: Path) -> None:
    files.write_status(tmp_path, files.Status("ap", "wordtable-3F2A", "10.42.0.1", "k7hq2m9xpr4z"))
    (form_status, form), (status, body) = ask(tmp_path, [("GET", "/wifi", {"headers": {"X_Test_Owner": "yes"}}),
                                                         ("GET", "/api/wifi", {"headers": {"X_Test_Owner": "yes"}})])
    assert form_status == 200 and 'action="/api/wifi/networks"' in form and "Heimnetz" in form
    assert (status, body) == (200, {"link": "ap", "ssid": "wordtable-3F2A", "address": "10.42.0.1"})
