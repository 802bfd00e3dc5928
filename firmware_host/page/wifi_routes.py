"""The box's Wi-Fi on the table page (issue 41): the owner adds a home network, which the Wi-Fi watcher
(wordtable-wifi.service) then joins, falling back to the box's own access point when it is gone.

    GET  /wifi               the form (German and English)
    GET  /api/wifi           the Wi-Fi's status: {"link", "ssid", "address"} (never a password)
    POST /api/wifi/networks  {"ssid", "password"} → 202: the watcher was asked (`network.files.ask_to_add`)

Every route goes through the owner's gate, given by whoever registers them (`add_routes(application,
owner_only)`: the page's owner PIN, `page/owner.py`); the POST also only from the page's own origin. The
service never touches NetworkManager: it leaves a request in the state directory for the watcher (root)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs

from aiohttp import web

from firmware_host.network import files
from firmware_host.paths import state_dir
from firmware_host.web import Gate, same_origin, security_headers

HEADERS = security_headers("'self'")
MAX_BODY = 4096

FORM = """<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>WLAN · Wi-Fi</title></head><body>
<h1>WLAN · Wi-Fi</h1>
<p>Heimnetz hinzufügen: die Box wechselt hinein und öffnet ihr eigenes WLAN wieder, wenn es weg ist.<br>
Add a home network: the box joins it and opens its own Wi-Fi again when it is gone.</p>
<form method="post" action="/api/wifi/networks" id="add">
<label>Name (SSID) <input name="ssid" required maxlength="32" autocomplete="off"></label><br>
<label>Passwort · password <input name="password" type="password" minlength="8" maxlength="63"></label><br>
<button>Hinzufügen · Add</button></form>
</body></html>
"""


def add_routes(application: web.Application, owner_only: Gate, directory: Path | None = None) -> None:
    """The Wi-Fi's routes on `application`, each behind `owner_only`; requests go to the state directory
    `directory` (default: the service's, `paths.state_dir`)."""
    folder = directory if directory is not None else state_dir()

    async def form(request: web.Request) -> web.StreamResponse:
        return web.Response(text=FORM, content_type="text/html", headers=HEADERS)

    async def status(request: web.Request) -> web.StreamResponse:
        now = files.read_status(folder)
        body = {"link": now.link, "ssid": now.ssid, "address": now.address} if now else {"link": ""}
        return web.json_response(body, headers=HEADERS)

    async def add(request: web.Request) -> web.StreamResponse:
        if not same_origin(request):
            return _refused(403, "origin")
        raw = await request.content.read(MAX_BODY + 1)
        if len(raw) > MAX_BODY:
            return _refused(413, "too large")
        try:
            data = json.loads(raw) if request.content_type == "application/json" else _form(raw)
            ssid, password = str(data["ssid"]), str(data.get("password", ""))
            files.ask_to_add(folder, ssid, password)
        except (ValueError, KeyError, TypeError) as exc:
            return _refused(400, str(exc) if isinstance(exc, ValueError) else "ssid and password")
        return web.json_response({"ok": True, "ssid": ssid}, status=202, headers=HEADERS)

    application.router.add_get("/wifi", owner_only(form))
    application.router.add_get("/api/wifi", owner_only(status))
    application.router.add_post("/api/wifi/networks", owner_only(add))


def _form(raw: bytes) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(raw.decode("utf-8"), keep_blank_values=True).items()}


def _refused(status: int, error: str) -> web.Response:
    return web.json_response({"error": error}, status=status, headers=HEADERS)
