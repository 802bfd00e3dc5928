"""The owner page's update button: GET /api/owner/update (the release running, the release files on the
USB sticks, the last update's outcome) and POST /api/owner/update {"file": PATH} (ask for an update from
one of those files). Both behind the owner's gate, `owner_only` (firmware_host/page/owner.py: it wraps a
handler and answers 403 to anyone else); the POST also only from the page's own origin.

The service cannot install anything (no privileges, /opt read-only): the POST only writes the request
(`request.write_request`), and the root unit wordtable-update.service carries it out — the same steps as
`wordtable update FILE`, its health check included — and restarts the service; the page finds the
outcome in the status after the restart."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from firmware_host import __version__
from firmware_host.paths import state_dir as default_state_dir
from firmware_host.update.request import MEDIA_ROOTS, RequestError, Status, release_files, write_request
from firmware_host.web import Gate, same_origin

MAX_BODY = 4096


def add_routes(application: web.Application, owner_only: Gate, *,
               state_dir: Path | None = None, roots: tuple[Path, ...] = MEDIA_ROOTS) -> None:
    """Register the two routes on `application`, each wrapped by `owner_only`."""
    folder = state_dir if state_dir is not None else default_state_dir()

    async def show(request: web.Request) -> web.StreamResponse:
        files = [str(path) for path in release_files(roots)]
        return web.json_response({"running": __version__, "files": files, "last": Status(folder).read()})

    async def ask(request: web.Request) -> web.StreamResponse:
        if not same_origin(request):
            return web.json_response({"error": "only from the box's own page"}, status=403)
        if request.content_length is not None and request.content_length > MAX_BODY:
            return web.json_response({"error": "request too large"}, status=413)
        try:
            body = await request.json()
            file = Path(body["file"]) if isinstance(body, dict) and isinstance(body.get("file"), str) else None
        except ValueError:
            file = None
        if file is None:
            return web.json_response({"error": 'send {"file": PATH}'}, status=400)
        try:
            write_request(folder, file, roots)
        except RequestError as exc:
            return web.json_response({"error": str(exc)}, status=400)
        except OSError as exc:
            return web.json_response({"error": f"cannot ask for the update: {exc}"}, status=500)
        Status(folder).write("asked", f"update from {file.name} asked for; the box restarts when it is installed")
        return web.json_response({"asked": str(file)}, status=202)

    application.router.add_get("/api/owner/update", owner_only(show))
    application.router.add_post("/api/owner/update", owner_only(ask))
