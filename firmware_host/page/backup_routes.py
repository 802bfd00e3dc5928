"""The box's backup on the table page (firmware_host/backup.py): GET /backup (a page of its own), GET
/api/backup (the download) and POST /api/restore (the upload), registered by `PageServer.app`.

Who may: the owner only (an owner session, `page/owner.py`: a seat at the table is no proof — the backup
holds every game and person of the box, a restore replaces them), and the restore only while no game runs
(no game is cut off, and the OLED shows it at once). The page itself is anyone's: it says how to become the
owner, or how to set the PIN on the box while none is set. Uploads come from the page's own origin and are
limited to `MAX_UPLOAD` bytes.

What a restore does: the running service holds the journal open, so the upload is checked whole and staged
(`staged_restore`, nothing else changes; a damaged or foreign file is refused with its reason). Then
the box restarts to carry it out: under systemd (the service) it stops cleanly and exits with
`EXIT_RESTORE`, which `Restart=on-failure` answers with a new start, and the start restores before it
opens the journal (the data it replaces is moved aside, not deleted). Without systemd (`wordtable sim --page`)
nothing can start the box again: the page and the OLED say the backup is restored at the next start.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Protocol

from aiohttp import web

from firmware_host.backup import BackupError, create_backup, manifest_json
from firmware_host.core.events import Event, Notice
from firmware_host.core.page_view import PageViews
from firmware_host.page.owner import Handler, owner_link
from firmware_host.staged_restore import stage_restore
from firmware_host.web import same_origin, security_headers, static_file

log = logging.getLogger("wordtable.page")

MAX_UPLOAD = 64 * 1024 * 1024
HEADERS = security_headers("'self'")  # the page's (page/server.py)
RESTART_DELAY_S = 1.0  # the answer reaches the phone before the box goes


class Served(Protocol):
    """What the routes read of the page server (`PageServer`)."""

    names: frozenset[str]
    journal: Path | None
    views: PageViews | None
    put: Callable[[Event], None]
    clock: Callable[[], float]


def service_restart(env: Mapping[str, str] | None = None,
                    kill: Callable[[int, int], None] = os.kill) -> Callable[[], None] | None:
    """How this process starts again: when systemd runs it (the service), a clean stop (SIGTERM, as
    `systemctl stop` sends) that `wordtable run` ends with `EXIT_RESTORE`; None when nothing would."""
    if not (os.environ if env is None else env).get("NOTIFY_SOCKET"):
        return None
    return lambda: kill(os.getpid(), signal.SIGTERM)


def backup_routes(application: web.Application, server: Served, owner_only: Callable[[Handler], Handler],
                  restart: Callable[[], None] | None = None) -> None:
    """Add the backup's routes for `server` (its views, journal and names), the download and the upload
    behind `owner_only` (`OwnerGate.owner_only`); `restart`: how the box starts again (`service_restart`),
    None: it cannot."""
    static = resources.files("firmware_host.page") / "static"

    def answer(status: int, error: str, **fields: object) -> web.Response:
        body = {"error": error, **fields} if error else {"ok": True, **fields}
        return web.json_response(body, status=status, headers=HEADERS)

    def state_dir() -> Path | None:
        return server.journal.parent if server.journal is not None else None

    async def page(request: web.Request) -> web.Response:
        return static_file(static, "backup.html", HEADERS)

    async def download(request: web.Request) -> web.Response:
        directory = state_dir()
        if directory is None:
            return answer(404, "no_journal")
        try:
            data = await asyncio.get_running_loop().run_in_executor(None, create_backup, directory)
        except BackupError as exc:
            log.warning("table page: no backup: %s", exc)
            return answer(404, "no_journal")
        name = f"wordtable-{datetime.now(UTC).strftime('%Y%m%d-%H%M')}.wtbackup"
        headers = {**HEADERS, "Content-Disposition": f'attachment; filename="{name}"'}
        return web.Response(body=data, content_type="application/zip", headers=headers)

    async def upload(request: web.Request) -> web.Response:
        directory = state_dir()
        if not same_origin(request, server.names):
            return answer(403, "origin")
        if directory is None:
            return answer(404, "no_journal")
        if server.views is not None and server.views.game is not None:
            return answer(409, "game_running")
        if (request.content_length or 0) > MAX_UPLOAD:
            return answer(413, "too_large")
        data = await request.content.read(MAX_UPLOAD + 1)  # the app's own limit is a message's size
        if len(data) > MAX_UPLOAD or not request.content.at_eof():
            return answer(413, "too_large")
        try:
            manifest = await asyncio.get_running_loop().run_in_executor(None, stage_restore, directory, data)
        except BackupError as exc:
            log.info("table page: restore refused: %s", exc)
            return answer(400, "bad_backup", message=str(exc))
        restarting = restart is not None
        log.info("table page: a backup of %d games is staged; %s", manifest.games,
                 "restarting to restore it" if restarting else "restored at the next start")
        server.put(Notice("Sicherung eingespielt: Neustart" if restarting else
                          "Sicherung: beim nächsten Start", server.clock()))
        if restart is not None:
            asyncio.get_running_loop().call_later(RESTART_DELAY_S, restart)
        return answer(202, "", restart=restarting, **manifest_json(manifest))

    application.router.add_get("/backup", page)
    application.router.add_get("/api/backup", owner_only(download))
    application.router.add_post("/api/restore", owner_only(upload))
    owner_link(application, "/backup", "Sicherung der Box", "The box's backup")
