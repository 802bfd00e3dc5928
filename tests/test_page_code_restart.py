"""The table code across a real restart of the service (a child process killed with kill -9 and started
again on the same state directory): the code printed before it still joins, a phone joined before it is
still seated, and renewing the code on the box afterwards shuts the printed code out but not that phone."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.helpers.page_child import Service
from tests.helpers.ports import free_port
from tests.test_page_server import _join

pytestmark = pytest.mark.slow  # a service in a child process, killed and started again


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    box = Service(tmp_path / "state", free_port())
    yield box
    box.stop()


async def _joined(url: str, code: str, name: str) -> tuple[int, dict[str, str]]:
    """A new phone joins by name with `code`: the answer's status and the phone's cookies; a join the
    table takes (202: the core seats it in turn) is awaited until the phone is seated."""
    jar = aiohttp.CookieJar(unsafe=True)
    status, _ = await _join(url, {"code": code, "name": name}, jar)
    cookies = {cookie.key: cookie.value for cookie in jar}
    deadline = time.monotonic() + 30
    while status == 202 and await _qr_status(url, cookies) != 200:
        assert time.monotonic() < deadline, f"{name}'s phone was not seated"
        await asyncio.sleep(0.05)
    return status, cookies


async def _qr_status(url: str, cookies: dict[str, str]) -> int:
    """What the join QR answers a phone with `cookies`: 200 for a seated phone only."""
    async with aiohttp.ClientSession(cookies=cookies) as session, session.get(f"{url}/api/join-qr.svg") as response:
        return response.status


def renewed(service: Service, old: str) -> str:
    """The service's code once it is no longer `old` (the page server takes the table's request in turn)."""
    deadline = time.monotonic() + 30
    while (code := service.code) == old:
        assert time.monotonic() < deadline, "the code was not renewed"
        time.sleep(0.05)
    return code


def test_the_printed_code_joins_after_a_kill_and_renewing_it_keeps_the_seated_phone(service):
    printed = service.code
    status, anna = asyncio.run(_joined(service.url, printed, "Anna"))
    assert status in (200, 202) and anna

    service.kill()
    service.start()
    assert service.code == printed
    assert asyncio.run(_qr_status(service.url, anna)) == 200  # Anna's phone is seated still, no rejoin
    assert asyncio.run(_joined(service.url, printed, "Ben"))[0] in (200, 202)  # the printed QR still works

    service.press("menu")  # the table renews the code: menu → Handy-Seite, NEXT
    service.press("next", int(service.ask("entry page").split()[1]))
    service.press("start")
    service.wait_screen(printed)
    service.press("next")
    assert renewed(service, printed) != printed
    assert asyncio.run(_joined(service.url, printed, "Cem"))[0] == 403
    assert asyncio.run(_qr_status(service.url, anna)) == 200
