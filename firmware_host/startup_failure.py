"""When `wordtable run` cannot start: the reason on the OLED, not only in the log.

The panel is opened from the board profile alone (the user config may be what failed; when the profile
itself is unusable, the bundled default profile's panel is tried), the failure screen is drawn, and the
panel is left on (luma's `persist`) so the reason stays readable after the process has exited and
systemd has given up restarting it. Showing it is best effort: a panel that does not answer is logged.
"""

from __future__ import annotations

import errno
import logging
from pathlib import Path
from typing import Any

from firmware_host.core.app import startup_failure_screen
from firmware_host.core.i18n import pick
from firmware_host.render import render
from hw.profile import Profile, ProfileError, load_profile

log = logging.getLogger("wordtable")

MAX_DETAIL = 60  # characters of one detail line (the log has the whole text)
MAX_LINES = 3


def details(texts: list[str]) -> tuple[str, ...]:
    """At most `MAX_LINES` short lines for the OLED; a last line counts what was left out."""
    lines = [_short(text) for text in texts[:MAX_LINES]]
    if len(texts) > MAX_LINES:
        lines[-1] = f"… +{len(texts) - MAX_LINES + 1}"
    return tuple(lines)


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_DETAIL else flat[: MAX_DETAIL - 1] + "…"


def profile_for_message(profile: str | Path) -> Profile | None:
    """The profile whose panel shows the failure: the given one when it loads, else the default."""
    for candidate in (profile, "default"):
        try:
            return load_profile(candidate)
        except ProfileError:
            continue
    return None


def show_failure(
    profile: Profile | None, lang: str, kind: str, lines: list[str], *, display_device: Any = None
) -> Any:
    """Draw the failure screen on the profile's panel and leave it on; returns the image shown, or None
    when there is no panel to show it on."""
    from drivers.display import LumaDisplay, open_device
    from hw.protocols import HardwareError

    if profile is None:
        return None
    screen = startup_failure_screen(lang, kind, details(lines))
    try:
        device = display_device if display_device is not None else open_device(profile.display)
        display = LumaDisplay(device, profile.display)
        image = render(screen, display.size)
        display.show(image)
        device.persist = True  # luma clears the panel at exit unless told to keep it
    except (HardwareError, OSError, ValueError) as exc:
        log.error("the failure could not be shown on the display: %s", exc)
        return None
    return image


PAGE_TEXT = {
    "de": {
        "taken": "Port {port} ist belegt – {how} oder das andere Programm beenden",
        "denied": "Port {port} ist nur für root – {how} (ab 1024)",
        "no_address": "Die Adresse {bind} hat dieser Rechner nicht – [page] bind in der Konfiguration ändern",
        "other": "Handy-Seite nicht gestartet: {reason} – [page] in der Konfiguration prüfen",
        "how_sim": "anderen Port mit --port wählen",
        "how_run": "anderen Port in der Konfiguration ([page] port) wählen",
    },
    "en": {
        "taken": "Port {port} is taken – {how} or quit the other program",
        "denied": "Port {port} is for root only – {how} (1024 or above)",
        "no_address": "This machine has no address {bind} – change [page] bind in the config",
        "other": "Table page not started: {reason} – check [page] in the config",
        "how_sim": "choose another port with --port",
        "how_run": "choose another port in the config ([page] port)",
    },
}
PAGE_FAILURES = {errno.EADDRINUSE: "taken", errno.EACCES: "denied", errno.EADDRNOTAVAIL: "no_address"}


def page_failure(exc: OSError, bind: str, port: int, lang: str, *, sim: bool = False) -> str:
    """Why the table page cannot be served and what to do, in the box's language `lang`, for the OLED and
    the terminal: never the raw `[Errno 98]`. `sim`: the way out is `wordtable sim --port`, else the config."""
    kind = PAGE_FAILURES.get(exc.errno or 0, "other")
    how = pick(PAGE_TEXT, lang, "how_sim" if sim else "how_run")
    reason = exc.strerror or type(exc).__name__
    return pick(PAGE_TEXT, lang, kind, port=port, bind=bind, how=how, reason=reason)
