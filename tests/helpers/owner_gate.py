"""A stand-in for the owner's gate (`page.owner.OwnerGate.owner_only`) for route modules tested alone: the
owner sends `X-Test-Owner: yes`, anyone else gets 403."""

from __future__ import annotations

from aiohttp import web

from firmware_host.web import Handler

OWNER = {"X-Test-Owner": "yes"}


def owner_only(handler: Handler) -> Handler:
    async def gated(request: web.Request) -> web.StreamResponse:
        if request.headers.get("X-Test-Owner") != "yes":
            return web.json_response({"error": "owner only"}, status=403)
        return await handler(request)

    return gated
