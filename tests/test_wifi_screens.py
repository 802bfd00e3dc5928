"""The menu's "WLAN" screen (`core.wifi_table`): with the box's access point up, the QR code that joins a
phone to it, then (NEXT) the table page's on it; without, START asks for the access point. The QR codes'
pixels, as the panel shows them, decode (Debian's zbarimg) to the `WIFI:` payload and the page's address."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from firmware_host.core import app
from firmware_host.core.events import PageInfo, WifiInfo
from firmware_host.core.screens import MessageScreen, QrScreen
from firmware_host.core.wifi_payload import parse
from firmware_host.core.wifi_table import WifiShow
from firmware_host.render import qr_box, render
from tests.table_driver import Table

AP = WifiInfo("ap", 'wordtable-3F2A', "k7hq2m9xpr4z", "10.42.0.1", 2.0)


def served(lang: str = "de") -> Table:
    table = Table(lang=lang)
    table.step(PageInfo("http://192.168.1.23:8080", "K7QX", 1.0))
    return table


def test_the_entry_shows_while_the_page_is_served_and_opens_the_wifi_qr_then_the_page_qr() -> None:
    assert "wifi" not in app.menu_keys(Table().state)
    table = served()
    table.step(AP)
    table.open_game("wifi")
    assert isinstance(table.state.overlay, WifiShow)
    wifi = table.screen
    assert isinstance(wifi, QrScreen) and parse(wifi.data).ssid == "wordtable-3F2A"
    assert parse(wifi.data).password == "k7hq2m9xpr4z" and wifi.big == "wordtable-3F2A"
    table.press("next")
    page = table.screen
    assert isinstance(page, QrScreen) and page.data == "http://10.42.0.1:8080/j/K7QX" and page.big == "K7QX"
    table.press("next")
    assert table.screen == wifi
    table.press("back")
    assert table.state.overlay is None


def test_the_wifi_entry_follows_the_page_entry() -> None:
    keys = app.main_keys(served().state)
    assert keys.index("wifi") == keys.index("page") + 1


@pytest.mark.parametrize(("lang", "title"), [("de", "Kein WLAN"), ("en", "No Wi-Fi")])
def test_without_the_access_point_start_asks_for_it(lang: str, title: str) -> None:
    table = served(lang)
    table.open_game("wifi")
    shown = table.screen
    assert isinstance(shown, MessageScreen) and shown.title == title
    table.press("start")
    assert table.state.wifi.asked_ap == 1 and isinstance(table.state.overlay, WifiShow)
    table.step(WifiInfo("client", "Zuhause", "", "192.168.1.23", 3.0))
    assert table.screen.title in ("Im WLAN Zuhause", "On Wi-Fi Zuhause")


def decoded(screen: QrScreen, size: tuple[int, int], into: Path) -> str:
    """What zbarimg reads from the QR code as the panel shows it (cut out, a quiet zone round it, enlarged)."""
    image = render(screen, size)
    top, _, side = qr_box(screen.data, size[1])
    code = image.crop((0, top, side, top + side)).convert("L").point(lambda v: 255 if v else 0)
    framed = Image.new("L", (side + 16, side + 16), 255)
    framed.paste(code, (8, 8))
    path = into / "qr.png"
    framed.resize((framed.width * 4, framed.height * 4), Image.Resampling.NEAREST).save(path)
    done = subprocess.run(["zbarimg", "--raw", "-q", str(path)], capture_output=True, text=True, check=True)
    return done.stdout.rstrip("\n")


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg missing (apt install zbar-tools)")
@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_the_panels_pixels_decode_to_the_payload_and_the_page(tmp_path: Path, size: tuple[int, int]) -> None:
    table = served()
    table.step(WifiInfo("ap", 'tisch;1,"a":b\\', "pa;ss,wo:rd", "10.42.0.1", 2.0))
    table.open_game("wifi")
    wifi = table.screen
    assert isinstance(wifi, QrScreen)
    assert parse(decoded(wifi, size, tmp_path)) == parse(wifi.data)
    assert parse(decoded(wifi, size, tmp_path)).ssid == 'tisch;1,"a":b\\'
    table.press("next")
    page = table.screen
    assert isinstance(page, QrScreen) and decoded(page, size, tmp_path) == "http://10.42.0.1:8080/j/K7QX"
