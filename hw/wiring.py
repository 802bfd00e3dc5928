"""The maker's wiring guide, generated from a board profile so that it cannot drift.

`python -m hw.wiring [--profile NAME|FILE] [--out DIR] [--check]` writes `README.md` (pin table,
power, bill of materials, Raspberry Pi OS set-up, bring-up with `wordtable doctor` and `wordtable selftest`,
troubleshooting from `hw.troubleshooting`) and `diagram.svg` (the 40-pin header with lines to the
parts) into `wiring/`. A profile that does not validate (a pin used twice, a bus pin taken) fails with
the reasons, exit code 2. The output depends only on the profile: no dates, no paths of this machine.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from hw.profile import BUS_PINS, Profile, ProfileError, load_profile, profile_path
from hw.troubleshooting import EXAMPLE, PROBLEMS

WIRING_DIR = Path(__file__).resolve().parent.parent / "wiring"


@functools.cache
def header_pins() -> dict[int, str]:
    """Physical pin (1–40) -> its name ('GPIO17', '3V3', '5V', 'GND') from gpiozero's board data."""
    from gpiozero import pi_info

    header = pi_info("a02082").headers["J8"]  # every 40-pin Pi shares this header layout
    return {number: info.name for number, info in sorted(header.pins.items())}


def physical_pin(gpio: int) -> int:
    return next(n for n, name in header_pins().items() if name == f"GPIO{gpio}")


@dataclass(frozen=True, slots=True)
class Connection:
    function: str
    gpio: int
    part: str

    @property
    def pin(self) -> int:
        return physical_pin(self.gpio)


DISPLAY_PARTS = {
    "ssd1306": '0.96" 128×64 OLED, SSD1306',
    "sh1106": '1.3" 128×64 OLED, SH1106',
    "ssd1309": '2.42" 128×64 OLED, SSD1309',
    "ssd1322": '3.12" 256×64 OLED, SSD1322 (SPI)',
    "ssd1362": "256×64 OLED, SSD1362 (SPI)",
    "dummy": "no panel (simulated display)",
}


def connections(p: Profile) -> list[Connection]:
    """Every GPIO wire of the profile, sorted by physical pin."""
    out = [
        Connection(f"LED bar segment {i + 1}" + (" (lit longest)" if i == 0 else ""), gpio, "LED bar")
        for i, gpio in enumerate(p.led_bar.pins)
    ]
    out.append(Connection("buzzer (NPN base, 1 kΩ)", p.buzzer.pin, "Buzzer"))
    for name in ("start", "next", "back", "menu"):
        out.append(Connection(f"button {name.upper()}", getattr(p.buttons, name), "Buttons"))
    if p.buttons.turn is not None:
        out.append(Connection("button TURN (big arcade button)", p.buttons.turn, "Buttons"))
    if p.encoder.enabled:
        out += [
            Connection("encoder A (CLK)", p.encoder.a, "Rotary encoder"),
            Connection("encoder B (DT)", p.encoder.b, "Rotary encoder"),
        ]
        if p.encoder.push is not None:
            out.append(Connection("encoder push (SW)", p.encoder.push, "Rotary encoder"))
    d = p.display
    if d.interface == "i2c":
        out += [Connection("OLED SDA", 2, "OLED"), Connection("OLED SCL", 3, "OLED")]
    elif d.interface == "spi":
        cs = 8 if d.spi_device == 0 else 7
        out += [
            Connection("OLED DIN (MOSI)", 10, "OLED"),
            Connection("OLED CLK (SCLK)", 11, "OLED"),
            Connection(f"OLED CS (CE{d.spi_device})", cs, "OLED"),
        ]
        out += [
            Connection(f"OLED {label}", pin, "OLED")
            for label, pin in (("DC", d.dc_pin), ("RST", d.reset_pin))
            if pin is not None
        ]
    if p.buses.uart:
        out.append(Connection("reader TX → RXD (divider)", 15, "RDM6300 reader"))
    if p.power.shutdown_pin is not None:
        out.append(Connection("shutdown button", p.power.shutdown_pin, "Shutdown button"))
    return sorted(out, key=lambda c: c.pin)


def _power_rows(p: Profile) -> list[tuple[str, str, str]]:
    rows = [
        ("breadboard ground rail", "GND", "pin 6 (any GND pin: 6, 9, 14, 20, 25, 30, 34, 39)"),
        ("LED bar cathodes", "GND rail", ""),
    ]
    if p.display.driver != "dummy":
        rows.append(("OLED VCC / GND", "3V3 / GND", "pin 1 / pin 9"))
    rows.append(("piezo + / transistor emitter", "5V / GND", "pin 2 / pin 14"))
    if p.encoder.enabled:
        rows.append(("encoder + / GND", "3V3 / GND", "pin 17 / pin 20 (3.3 V, not 5 V)"))
    if p.buses.uart:
        rows.append(("RDM6300 +5V / GND", "5V / GND rail", "pin 4 / rail"))
    rows.append(("buttons' other leg", "GND rail", "internal pull-ups: no resistor needed"))
    return rows


def _circuit(p: Profile) -> list[str]:
    """Each part's circuit in text, with the profile's GPIOs (header pins in brackets)."""
    def g(gpio: int) -> str:
        return f"GPIO {gpio} [pin {physical_pin(gpio)}]"

    lines = ["LED bar (one segment each; anode side to the GPIO):"]
    lines += [f"  {g(gpio):<17} --[330 Ω]--|>|-- GND     segment {i}" for i, gpio in
              enumerate(p.led_bar.pins, start=1)]
    lines += ["", "Buzzer (the piezo switched by an NPN transistor from 5 V):",
              "  5V [pin 2] ------------ piezo +",
              "                          piezo - ---- C",
              f"  {g(p.buzzer.pin):<17} --[1 kΩ]--------- B   NPN (2N2222 / BC337)",
              "  GND ------------------------------- E"]
    b = p.buttons
    lines += ["", "Buttons (to GND; the Pi's internal pull-ups, no resistor):"]
    named = [("START", b.start), ("NEXT", b.next), ("BACK", b.back), ("MENU", b.menu)]
    if b.turn is not None:
        named.append(("TURN", b.turn))
    lines += [f"  {g(gpio):<17} ---o/ o--- GND     {name}" for name, gpio in named]
    if p.encoder.enabled:
        lines += ["", "Rotary encoder KY-040:",
                  "  + -> 3V3 [pin 17] (never 5 V: its pull-ups would put 5 V on the GPIOs)",
                  "  GND -> GND; CLK, DT, SW -> their GPIOs in the pin table"]
    if p.display.interface == "i2c":
        lines += ["", "OLED (I2C):",
                  "  VCC -> 3V3 [pin 1]   GND -> GND [pin 9]   SDA -> GPIO 2 [pin 3]   SCL -> GPIO 3 [pin 5]"]
    if p.buses.uart:
        lines += ["", "RDM6300 reader (its TX is 5 V: a divider down to 3.3 V):",
                  "  +5V -> 5V [pin 4]   GND -> GND",
                  "  TX --[1 kΩ]--+-- GPIO 15 RXD [pin 10]",
                  "               [2 kΩ]",
                  "                |",
                  "               GND"]
    return lines


def _power_budget(p: Profile) -> str:
    """The currents drawn, part by part, and the supply that covers them."""
    leds = len(p.led_bar.pins)
    parts = [("Pi Zero 2 W / Pi 4", 600), (f"{leds} LED segments × 4 mA", 4 * leds), ("OLED", 25), ("piezo", 30)]
    if p.buses.uart:
        parts.append(("RDM6300", 50))
    total = sum(ma for _, ma in parts)
    listed = ", ".join(f"{name} ≈ {ma} mA" for name, ma in parts)
    return (f"{listed}; together ≈ {total} mA. A 5 V 2.5 A supply (3 A for a Pi 4, 5 A for a Pi 5) leaves room "
            f"for a USB scanner and keyboard. The LEDs draw from the GPIOs: {leds} × 4 mA stays inside the "
            "Pi's 50 mA for all pins together.")


def _bom(p: Profile) -> list[tuple[str, str, str]]:
    n = len(p.led_bar.pins)
    rows = [
        (
            "1",
            "Raspberry Pi Zero 2 W, 3, 4 or 5 (40-pin header soldered)",
            "+ its power supply and a 16 GB+ microSD card",
        )
    ]
    rows.append(
        (
            "1",
            f"{n}-segment LED bar graph (e.g. Kingbright DC-10 series)"
            if n == 10
            else f"{n} LEDs for the bar",
            "common part: 10-segment bar, one LED per segment",
        )
    )
    rows.append((str(n), "resistor 220–330 Ω, 1/4 W", "one per LED segment (≈ 4 mA at 330 Ω)"))
    if p.buzzer.kind == "tonal":
        rows += [
            ("1", "passive piezo buzzer (e.g. 12 mm, 3–5 V)", "passive: it plays the notes"),
            ("1", "NPN transistor 2N2222 or BC337", "drives the piezo from 5 V"),
            ("1", "resistor 1 kΩ", "transistor base"),
        ]
    else:
        rows += [
            ("1", "active buzzer 3.3–5 V", "beeps at its own pitch"),
            ("1", "NPN transistor 2N2222 or BC337 + 1 kΩ base resistor", "when it draws > 10 mA"),
        ]
    rows.append(("4", "momentary push button (6×6 mm tactile or 12 mm panel)", "START, NEXT, BACK, MENU"))
    rows.append(
        (
            "1",
            "KY-040 rotary encoder with push switch",
            "fitted" if p.encoder.enabled else "optional: enable [encoder] in the profile",
        )
    )
    rows.append(
        (
            "1",
            DISPLAY_PARTS[p.display.driver],
            f"{p.display.interface.upper()} at 0x{p.display.address:02X}"
            if p.display.interface == "i2c"
            else p.display.interface.upper(),
        )
    )
    rows.append(
        (
            "",
            "panel to read across a table: 2.42\" SSD1309 128×64 (driver ssd1309) or 3.12\" SSD1322 "
            "256×64 (driver ssd1322, SPI)",
            "the 0.96\" is the budget option: 10-px capitals are 1.7 mm high on it, 4.3 mm on the 2.42\", "
            "3 mm on the 3.12\" (readable at 1–2 m); 256 px show two list columns and whole hints",
        )
    )
    if p.buses.uart:
        rows += [
            ("1", "RDM6300 125 kHz RFID reader + EM4100 tags/cards", "tap reader on the UART"),
            ("2", "resistors 1 kΩ + 2 kΩ", "divider: the reader's 5 V TX to the 3.3 V RXD"),
        ]
    rows.append(
        ("0–2", "USB barcode/QR scanner (keyboard mode, or serial CDC-ACM mode)", "alternative or addition to RFID")
    )
    if p.keyboard.enabled:
        rows.append(("0–1", "USB keyboard (German QWERTZ by default; US by config)",
                     "optional: words and names; without one, the letter picker on the buttons"))
    if p.power.shutdown_pin is not None:
        rows.append(("1", "push button for a safe shutdown", "optional, on the kept-free pin"))
    rows.append(("1", "breadboard (830 points) and male–female jumper wires", "or a prototyping HAT"))
    return rows


def _setup(p: Profile) -> list[str]:
    lines = [
        "1. Flash **Raspberry Pi OS Lite (Bookworm)** with Raspberry Pi Imager; enable SSH.",
        "2. Add to `/boot/firmware/config.txt` (`/boot/config.txt` before Bookworm) and reboot:",
        "",
        "   ```",
    ]
    if p.buses.i2c:
        lines += ["   dtparam=i2c_arm=on", "   dtparam=i2c_arm_baudrate=400000"]
    if p.buses.spi:
        lines += ["   dtparam=spi=on"]
    if p.buses.uart:
        lines += ["   enable_uart=1"]
    lines += ["   ```", ""]
    step = 3
    if p.buses.uart:
        lines += [
            f"{step}. Turn the serial console off so the UART is free for the reader: "
            "`sudo raspi-config nonint do_serial_cons 1` and `sudo raspi-config nonint do_serial_hw 0` "
            "(or remove `console=serial0,115200` from `/boot/firmware/cmdline.txt`). On a Pi 3 or "
            "Zero 2 W, `dtoverlay=disable-bt` in config.txt gives the reader the stable PL011 UART."
        ]
        step += 1
    groups = (["gpio"] + (["i2c"] if p.buses.i2c else []) + (["spi"] if p.buses.spi else [])
              + (["input"] if p.keyboard.enabled or any(r.kind == "hid" for r in p.readers) else []))
    lines += [
        f"{step}. Put the user running wordtable in the groups {', '.join(f'`{g}`' for g in groups)}: "
        f"`sudo usermod -aG {','.join(groups)} wordtable` (the installer does this). The card readers are "
        "not opened through `dialout`: the udev rule `systemd/99-wordtable-reader.rules` gives each "
        "reader to the group `wordtable` alone (add your reader's USB IDs there)."
    ]
    step += 1
    if p.buses.i2c:
        lines += [
            f"{step}. Check the OLED: `sudo apt install i2c-tools && i2cdetect -y {p.display.port}` shows "
            f"`{p.display.address:02x}`."
        ]
        step += 1
    if p.buses.i2c and p.display.interface == "i2c":
        lines += [
            f"{step}. Bus speed: `dtparam=i2c_arm_baudrate=400000` (step 2; `systemd/install.sh` adds it) runs "
            "the OLED's I2C bus at 400 kHz instead of the Pi's default 100 kHz, so a changed frame reaches the "
            "glass about four times sooner. The SSD1306, SH1106 and SSD1309 controllers are specified for "
            "400 kHz (fast mode), and the usual 0.96\", 1.3\" and 2.42\" breakout modules run at it on "
            "jumper wires up to about 20 cm (the Pi has 1.8 kΩ pull-ups on GPIO 2 and 3). Go back to 100 kHz "
            "when the panel shows stray pixels or drops off the bus (long or shared wires, a slow part on the "
            "same bus): change the line to `dtparam=i2c_arm_baudrate=100000` and reboot (the installer keeps "
            "a value you set). Only what changed is sent, and the whole frame every "
            f"`[display] refresh_s` = {p.display.refresh_s} s, so a glitch heals by itself. On a logic "
            "analyser, a change is one combined transfer per piece of up to 128 data bytes: the window "
            "commands and the data as separate writes to the address, joined by repeated STARTs."
        ]
        step += 1
    if p.power.shutdown_pin is not None:
        pin = p.power.shutdown_pin
        lines += [
            f"{step}. Optional safe shutdown without software: a push button from GPIO {pin} "
            f"(pin {physical_pin(pin)}) to GND and `dtoverlay=gpio-shutdown,gpio_pin={pin}` in "
            "config.txt; the kernel then halts cleanly when it is pressed. (Waking from halt works only "
            "on GPIO 3, which the OLED's I2C uses here: unplug and replug to start again.)"
        ]
        step += 1
    lines += [
        f"{step}. Install wordtable and its service from a checkout: `sudo bash systemd/install.sh` "
        "(systemd/README.md); then bring it up as the next section says."
    ]
    return lines


WORDTABLE = "/opt/wordtable/venv/bin/wordtable"  # where the installer puts the program


def _bring_up() -> list[str]:
    return [
        f"First `wordtable doctor`, then `wordtable selftest` (installed as `{WORDTABLE}`; from a checkout "
        "`.venv/bin/wordtable`):",
        "",
        f"1. `sudo {WORDTABLE} doctor` checks, each with ✓ or ✗: the board and OS (the Pi model, Python, which "
        "gpiozero pin factory loads and why the others do not), the buses (I2C enabled and its speed, the display "
        "answering at its address — or which address does answer —, the UART free of the serial console when an "
        "RDM6300 is on it, SPI for an SPI display), each card reader's port, the service (its user and groups, "
        "the state directory and its free space, the journal's integrity, the unit's state, the word list) and "
        "the profile and config (all that `wordtable check-config` says). Under every ✗ is one line saying what "
        "to do (the table below lists them all); `!` is a warning, `–` not checked here. Fix, reboot when it "
        "says so, and run it again until it exits 0. `--json` prints the checks for a script.",
        "2. `sudo systemctl stop wordtable` (the service holds the pins), then "
        f"`sudo {WORDTABLE} selftest`: it walks through every part on its pins — the OLED's test patterns "
        "(border, checkerboard, every page: a wrong column offset, such as an SH1106 driven as an SSD1306, shows "
        "at once), each button's press and long press, the encoder both ways and its push, each LED segment in "
        "order and the PWM dimming, the buzzer's tones and volumes, each reader (tap a card: the OLED shows its "
        "ID). The OLED and the terminal say what should happen; answer y / n in the terminal or START (yes) / "
        "BACK (no) on the box, s skips, q ends. It ends with a summary to paste into a bug report; "
        "`--part display` repeats one part. `sudo systemctl start wordtable` afterwards.",
    ]


def _troubleshooting() -> list[str]:
    rows = ["| Check | ✗ says | What to do | On the flashable image (Debian) |", "|---|---|---|---|"]
    for problem in PROBLEMS.values():
        debian = problem.on_debian.format(**EXAMPLE) if problem.on_debian else "the same"
        cells = (problem.check, problem.symptom, problem.fix.format(**EXAMPLE), debian)
        rows.append("| " + " | ".join(cell.replace("*", "\\*").replace("|", "\\|") for cell in cells) + " |")
    return [
        "What each ✗ (or !) of `wordtable doctor` means and its fix (the doctor prints the same line, with "
        "this box's bus, address and user filled in; on the flashable image of `systemd/image/`, Debian's own "
        "Pi packages without raspi-config, it prints the last column's):",
        "",
        *rows,
    ]


def readme(p: Profile, source: str) -> str:
    out = [
        f"# Wiring guide: {p.board.name}",
        "",
        f"Generated from `{source}` by `python -m hw.wiring`. Do not edit: change the profile and "
        "regenerate (a test keeps this file and the diagram in sync with the profile). Pins are BCM GPIO "
        "numbers; physical pins count on the 40-pin header, pin 1 at the SD-card end, odd pins on the "
        "inner row.",
        "",
        "![wiring diagram](diagram.svg)",
        "",
        "## Pin table",
        "",
        "| Function | BCM GPIO | Physical pin | Part |",
        "|---|---|---|---|",
    ]
    out += [f"| {c.function} | {c.gpio} | {c.pin} | {c.part} |" for c in connections(p)]
    buses = [
        f"{bus.upper()} (GPIO {', '.join(map(str, pins))})"
        for bus, pins in BUS_PINS.items()
        if getattr(p.buses, bus)
    ]
    out += [
        "",
        "Kept free: "
        + (", ".join(buses) if buses else "no bus")
        + " for the enabled buses"
        + (
            f"; GPIO {p.power.shutdown_pin} for the shutdown button"
            if p.power.shutdown_pin is not None
            else ""
        )
        + "; GPIO 0 and 1 (HAT ID EEPROM).",
        "",
        "## Power and ground",
        "",
        "| What | To | Header pin |",
        "|---|---|---|",
    ]
    out += [f"| {a} | {b} | {c} |" for a, b, c in _power_rows(p)]
    out += [
        "",
        "## How each part is wired",
        "",
        "- **LED bar**: GPIO → 220–330 Ω resistor → LED anode; cathode → GND. Segment 1 stays lit "
        "longest; the segment draining now is dimmed by PWM.",
        "- **Buzzer**: GPIO → 1 kΩ → NPN base; emitter → GND; collector → piezo −; piezo + → 5 V. "
        "(A magnetic buzzer also needs a 1N4148 diode across it.)",
        "- **Buttons**: each between its GPIO and GND (the Pi's internal pull-ups; "
        f"{p.buttons.bounce_ms} ms debounce, {p.buttons.hold_ms} ms for a long press). A big arcade button "
        "that ends a turn in the turn timer is optional: `turn = GPIO` under `[buttons]`, wired the same way.",
        "- **OLED**: VCC → 3.3 V, GND, SDA → GPIO 2, SCL → GPIO 3 (I2C address "
        f"0x{p.display.address:02X}; 0x3D when the address jumper is moved)."
        if p.display.interface == "i2c"
        else "- **OLED**: see the pin table; VCC → 3.3 V, GND.",
    ]
    if p.encoder.enabled:
        out.append("- **Rotary encoder (KY-040)**: + → 3.3 V (never 5 V), GND, CLK, DT, SW as in the table.")
    if p.buses.uart:
        out.append(
            "- **RDM6300**: +5V → 5 V, GND; its TX is a 5 V signal: TX → 1 kΩ → GPIO 15 (RXD), and "
            "2 kΩ from GPIO 15 to GND. The antenna coil lies flat under the spot where cards are tapped."
        )
    out.append(
        "- **USB scanner**: plugs into a USB port. In serial (CDC-ACM / virtual COM) mode it appears as "
        "`/dev/ttyACM0` (the installer's udev rule gives it a stable name): `kind = \"scanner\"`. In its "
        "factory keyboard mode it is an input device: `kind = \"hid\"` with its `usb` VID:PID; the "
        "appliance grabs it, so its codes are card scans and never land in a text field."
    )
    if p.keyboard.enabled:
        out.append(
            "- **USB keyboard** (optional): any keyboard, plugged in at any time; the appliance grabs it "
            "while it runs, so what is typed reaches the table and never a console login."
        )
    out += ["", "## Circuit", "", "```", *_circuit(p), "```", ""]
    out += [
        "**OLED pin order differs between modules**: some 4-pin I2C boards are GND VCC SCL SDA, others VCC "
        "GND SCL SDA — read the labels on your board, never the order of a photo; VCC on GND destroys it.",
        "",
        "**Wire colours** (also in diagram.svg): red 5 V, orange 3V3, black GND — signal wires in any other "
        "colour, so no signal is mistaken for 5 V (a 5 V wire on a GPIO destroys the Pi).",
        "",
        "**Power budget** (5 V supply): " + _power_budget(p),
        "",
        "**Button layout and enclosure**: START big and in the middle (it is pressed most), NEXT to its "
        "right, BACK to its left, MENU apart (top or side, so it is not hit by mistake); the OLED above the "
        "buttons, tilted towards the players; the LED bar along the front edge so every seat sees it; the "
        "piezo behind a few holes in the case (a closed case muffles it); the reader's coil under "
        "a marked spot on the lid.",
    ]
    out += ["", "## Bill of materials", "", "| Qty | Part | Notes |", "|---|---|---|"]
    out += [f"| {q} | {part} | {note} |" for q, part, note in _bom(p)]
    out += ["", "## Raspberry Pi OS set-up", "", *_setup(p)]
    out += ["", "## Bring-up: `wordtable doctor`, then `wordtable selftest`", "", *_bring_up()]
    out += ["", "## Troubleshooting", "", *_troubleshooting()]
    return "\n".join(out) + "\n"


# ---- the SVG diagram -------------------------------------------------------------------------------

PART_COLOURS = {
    "LED bar": "#e377c2",  # signals never in the power colours (5 V red, 3V3 orange, GND black)
    "Buzzer": "#9467bd",
    "Buttons": "#1f77b4",
    "Rotary encoder": "#17becf",
    "OLED": "#2ca02c",
    "RDM6300 reader": "#bcbd22",
    "Shutdown button": "#8c564b",
}
POWER_COLOURS = {"3V3": "#f5a623", "5V": "#e8112d", "GND": "#222222"}
TOP, ROW, LEFT_PIN, RIGHT_PIN = 90, 24, 430, 470
BOX_W, LEFT_BOX, RIGHT_BOX, LINE_H = 232, 10, 658, 15


def _row_y(pin: int) -> int:
    return TOP + ((pin - 1) // 2) * ROW


def _text(
    x: float,
    y: float,
    s: str,
    anchor: str = "start",
    size: int = 11,
    weight: str = "normal",
    fill: str = "#222",
    halo: bool = False,
) -> str:
    extra = ' stroke="#fafafa" stroke-width="3" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
        f'fill="{fill}"{extra}>{escape(s)}</text>'
    )


def _part_boxes(conns: list[Connection]) -> tuple[list[str], int]:
    """Boxes for the parts beside the header (odd pins left, even right) and the wires to them."""
    out: list[str] = []
    bottom = 0
    for side, box_x in ((1, LEFT_BOX), (0, RIGHT_BOX)):
        parts: dict[str, list[Connection]] = {}
        for c in conns:
            if c.pin % 2 == side:
                parts.setdefault(c.part, []).append(c)
        next_free = TOP - 20
        for part, items in parts.items():
            top = max(next_free, _row_y(items[0].pin) - 24)
            height = 26 + LINE_H * len(items)
            colour = PART_COLOURS[part]
            out.append(
                f'<rect x="{box_x}" y="{top}" width="{BOX_W}" height="{height}" rx="5" fill="#fff" '
                f'stroke="{colour}" stroke-width="2"/>'
            )
            out.append(_text(box_x + 8, top + 16, part, "start", 12, "bold", colour))
            pin_x = LEFT_PIN - 9 if side else RIGHT_PIN + 9
            bend_x = pin_x - 62 if side else pin_x + 62
            end_x = box_x + BOX_W if side else box_x
            for i, c in enumerate(items):
                y = top + 32 + LINE_H * i
                out.append(_text(box_x + 8, y, f"{c.function} · GPIO {c.gpio}", "start", 10))
                pin_y = _row_y(c.pin)
                out.append(
                    f'<polyline points="{pin_x},{pin_y} {bend_x},{pin_y} {end_x},{y - 4}" fill="none" '
                    f'stroke="{colour}" stroke-width="1.5"/>'
                )
            next_free = top + height + 10
            bottom = max(bottom, next_free)
    return out, bottom


def diagram(p: Profile) -> str:
    """The SVG: the 40-pin header, used pins coloured by part, a wire from each to its part's box."""
    conns = connections(p)
    by_pin = {c.pin: c for c in conns}
    boxes, boxes_bottom = _part_boxes(conns)
    header_bottom = _row_y(40) + 20
    body = [
        _text(450, 28, f"wordtable wiring: {p.board.name}", "middle", 16, "bold"),
        _text(
            450, 48, "Raspberry Pi 40-pin header (BCM GPIO numbers; pin 1 at the SD-card end)", "middle", 11
        ),
        f'<rect x="{LEFT_PIN - 18}" y="{TOP - 18}" width="{RIGHT_PIN - LEFT_PIN + 36}" '
        f'height="{header_bottom - TOP + 16}" rx="6" fill="#2f4f2f"/>',
        *boxes,
    ]
    for number, name in header_pins().items():
        x, y = (LEFT_PIN, RIGHT_PIN)[1 - number % 2], _row_y(number)
        conn = by_pin.get(number)
        colour = PART_COLOURS[conn.part] if conn else POWER_COLOURS.get(name, "#9a9a9a")
        body.append(f'<circle cx="{x}" cy="{y}" r="9" fill="{colour}" stroke="#fff" stroke-width="1"/>')
        body.append(_text(x, y + 3, str(number), "middle", 8, "bold", "#fff"))
        label = f"GPIO {name[4:]}" if name.startswith("GPIO") else name
        label_x, anchor = (LEFT_PIN - 22, "end") if number % 2 else (RIGHT_PIN + 22, "start")
        body.append(
            _text(
                label_x,
                y + 4,
                label,
                anchor,
                10,
                "bold" if conn else "normal",
                "#000" if conn else "#555",
                halo=True,
            )
        )
    legend_y = max(header_bottom, boxes_bottom) + 20
    x = 20
    for name, colour in POWER_COLOURS.items():
        body.append(f'<circle cx="{x + 6}" cy="{legend_y}" r="6" fill="{colour}"/>')
        body.append(_text(x + 16, legend_y + 4, name, "start", 10))
        x += 60
    body.append(
        _text(x, legend_y + 4, "grey: free GPIO · buttons and LED cathodes return to GND", "start", 10)
    )
    height = legend_y + 20
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{height}" viewBox="0 0 900 {height}" '
        'font-family="DejaVu Sans, Verdana, sans-serif">\n'
        f'<rect width="900" height="{height}" fill="#fafafa"/>\n' + "\n".join(body) + "\n</svg>\n"
    )


def generate(profile: str | Path = "default") -> dict[str, str]:
    """File name -> content of the guide for `profile`. Raises ProfileError when it does not validate."""
    loaded = load_profile(profile)
    path = profile_path(profile).resolve()
    repo = WIRING_DIR.parent
    source = str(path.relative_to(repo)) if path.is_relative_to(repo) else path.name
    return {"README.md": readme(loaded, source), "diagram.svg": diagram(loaded)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hw.wiring", description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="default", metavar="NAME|FILE")
    parser.add_argument("--out", type=Path, default=WIRING_DIR, metavar="DIR")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when the files differ")
    args = parser.parse_args(argv)
    try:
        files = generate(args.profile)
    except ProfileError as exc:
        for key, message in exc.errors:
            print(f"hw.wiring: {profile_path(args.profile)}: {key}: {message}", file=sys.stderr)
        return 2
    stale = [
        name
        for name, content in files.items()
        if not (args.out / name).is_file() or (args.out / name).read_text(encoding="utf-8") != content
    ]
    if args.check:
        for name in stale:
            print(f"hw.wiring: {args.out / name} is out of date; run python -m hw.wiring", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (args.out / name).write_text(content, encoding="utf-8", newline="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
