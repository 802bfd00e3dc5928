"""What the box's web servers share (firmware_host/web.py): every answer of the table page, the virtual box
and the league's board carries the same security headers; their packaged pages are routed the same way."""

from __future__ import annotations

import asyncio
from importlib import resources

import aiohttp
from aiohttp import web

from firmware_host.league import service
from firmware_host.page import box, server
from firmware_host.web import file_routes, listen, security_headers

SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Cache-Control",
            "X-Frame-Options")


def _answers(application: web.Application, paths: tuple[str, ...]) -> dict[str, tuple[int, dict[str, str]]]:
    async def go() -> dict[str, tuple[int, dict[str, str]]]:
        runner, port = await listen(application, "127.0.0.1", 0)
        try:
            out = {}
            async with aiohttp.ClientSession() as session:
                for path in paths:
                    async with session.get(f"http://127.0.0.1:{port}{path}") as response:
                        out[path] = (response.status, dict(response.headers))
            return out
        finally:
            await runner.cleanup()

    return asyncio.run(go())


def test_the_three_sites_send_the_same_headers_but_for_where_forms_may_go():
    page, board = security_headers("'self'"), security_headers()
    assert page == server.HEADERS and box.HEADERS is server.HEADERS and board == service.HEADERS
    assert {k: v for k, v in page.items() if k != "Content-Security-Policy"} == \
        {k: v for k, v in board.items() if k != "Content-Security-Policy"}
    assert page["Content-Security-Policy"].endswith("form-action 'self'")
    assert board["Content-Security-Policy"].endswith("form-action 'none'")
    assert "frame-ancestors 'none'" in board["Content-Security-Policy"] and page["X-Frame-Options"] == "DENY"


def test_file_routes_serve_a_sites_page_its_files_and_nothing_else_with_the_headers():
    application = web.Application()
    headers = security_headers()
    file_routes(application, service.STATIC, headers)
    file_routes(application, resources.files("firmware_host.page") / "box_assets", headers, at="/box",
                index="box.html", also=("/box/again",))
    answers = _answers(application, ("/", "/static/board.js", "/static/board.css", "/static/nope.js",
                                     "/static/..%2Fstore.py", "/favicon.ico", "/box", "/box/again",
                                     "/box/static/box.js", "/box/static/board.js"))
    status = {path: answer[0] for path, answer in answers.items()}
    assert status == {"/": 200, "/static/board.js": 200, "/static/board.css": 200, "/static/nope.js": 404,
                      "/static/..%2Fstore.py": 404, "/favicon.ico": 204, "/box": 200, "/box/again": 200,
                      "/box/static/box.js": 200, "/box/static/board.js": 404}
    for path, (code, sent) in answers.items():
        if code == 200:
            assert {key: sent[key] for key in SECURITY} == headers, path
    assert answers["/"][1]["Content-Type"].startswith("text/html")
    assert answers["/static/board.js"][1]["Content-Type"].startswith("text/javascript")
