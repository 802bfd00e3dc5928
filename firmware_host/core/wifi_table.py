"""The box's Wi-Fi as the table knows it (issue 41): what the Wi-Fi watcher last reported (`WifiInfo`, from
the shell: the box's own access point's name, password and address, or the home network it is on), and the
menu's "WLAN" screen (`WifiShow`): first the QR code that joins a phone to the box's access point, NEXT
the QR code of the table page on it; START asks for the access point (`WifiState.asked_ap` counts the
requests: the shell carries each out). The core never reads the watcher's files. Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_host.core.events import Button, Event, Press
from firmware_host.core.i18n import texts
from firmware_host.core.page_table import PageState, join_address
from firmware_host.core.screens import MessageScreen, QrScreen
from firmware_host.core.wifi_payload import WifiJoin, payload

TEXT = {
    "de": {
        "wifi": "WLAN",
        "wifi_join": "WLAN der Box",
        "wifi_page": "Dann die Seite",
        "wifi_hint": "NEXT: Seite · BACK: zurück",
        "wifi_page_hint": "NEXT: WLAN · BACK: zurück",
        "wifi_on": "Im WLAN {ssid}",
        "wifi_none": "Kein WLAN",
        "wifi_lines": "START öffnet das eigene WLAN der Box.",
        "wifi_asked": "Eigenes WLAN kommt …",
        "wifi_hint_ask": "START: eigenes WLAN · BACK: zurück",
    },
    "en": {
        "wifi": "Wi-Fi",
        "wifi_join": "The box's Wi-Fi",
        "wifi_page": "Then the page",
        "wifi_hint": "NEXT: page · BACK: back",
        "wifi_page_hint": "NEXT: Wi-Fi · BACK: back",
        "wifi_on": "On Wi-Fi {ssid}",
        "wifi_none": "No Wi-Fi",
        "wifi_lines": "START opens the box's own Wi-Fi.",
        "wifi_asked": "The box's Wi-Fi is coming …",
        "wifi_hint_ask": "START: own Wi-Fi · BACK: back",
    },
}

t = texts(TEXT)


@dataclass(frozen=True, slots=True)
class WifiState:
    """`link`: "ap" (the box's access point is up), "client" (on the network `ssid`), another word of the
    watcher's, or "" (no watcher has spoken); `asked_ap`: how often the table asked for the access point."""

    link: str = ""
    ssid: str = ""
    password: str = ""
    address: str = ""
    asked_ap: int = 0

    def join(self) -> str:
        """The `WIFI:` payload of the box's access point."""
        return payload(WifiJoin(self.ssid, self.password))


@dataclass(frozen=True, slots=True)
class WifiShow:
    """The menu's "WLAN" screen; `page`: the table page's QR code is shown (else the Wi-Fi's)."""

    page: bool = False


def page_on_wifi(wifi: WifiState, page: PageState) -> str:
    """The table page's join address on the box's access point (its port as the page says it)."""
    port = page.address.rsplit(":", 1)[-1] if page.address.count(":") == 2 else "8080"
    return join_address(f"http://{wifi.address}:{port}", page.code)


def qr_payloads(wifi: WifiState, page: PageState) -> tuple[str, ...]:
    """What the QR codes the table can show from here hold (`page_table.page_screen`'s while the page has an
    address, `wifi_screen`'s two while the box's access point is up), so the shell can encode them before a
    button asks for one."""
    payloads: tuple[str, ...] = (page.join_address(),) if page.address else ()
    if wifi.link == "ap":
        payloads += (wifi.join(), page_on_wifi(wifi, page))
    return payloads


def wifi_event(wifi: WifiState, overlay: WifiShow, event: Event, lang: str) -> tuple[WifiState, WifiShow | None,
                                                                                       str] | None:
    """A button on the "WLAN" screen: the Wi-Fi state after it, the screen (None: closed) and a notice; None
    when the button means nothing here. NEXT turns between the two QR codes; START asks for the access
    point (only while it is not up); BACK, MENU and the encoder close."""
    if not isinstance(event, Press):
        return None
    if event.button is Button.NEXT and wifi.link == "ap":
        return wifi, replace(overlay, page=not overlay.page), ""
    if event.button is Button.START and wifi.link != "ap":
        return replace(wifi, asked_ap=wifi.asked_ap + 1), overlay, t(lang, "wifi_asked")
    if event.button in (Button.BACK, Button.MENU, Button.ENCODER, Button.START):
        return wifi, None, ""
    return None


def wifi_screen(wifi: WifiState, overlay: WifiShow, page: PageState, lang: str,
                notice: str) -> QrScreen | MessageScreen:
    """The two QR codes while the box's access point is up (the Wi-Fi's, then the page's); else where the
    box is and how to open its own."""
    if wifi.link == "ap" and overlay.page:
        return QrScreen(t(lang, "wifi_page"), page_on_wifi(wifi, page), page.code, (wifi.address,),
                        notice or t(lang, "wifi_page_hint"))
    if wifi.link == "ap":
        return QrScreen(t(lang, "wifi_join"), wifi.join(), wifi.ssid, (wifi.password,), notice or t(lang, "wifi_hint"))
    title = t(lang, "wifi_on", ssid=wifi.ssid) if wifi.link == "client" else t(lang, "wifi_none")
    return MessageScreen(title, (t(lang, "wifi_lines"),), notice or t(lang, "wifi_hint_ask"))
