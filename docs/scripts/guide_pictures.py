"""The guide's pictures, rendered by the live box: `python docs/scripts/guide_pictures.py [--out DIR]`.

Each picture is the panel at a line of a documented action script (docs/scripts/*.script, and the guide's own
in docs/scripts/guide/), played on the simulator — the service's shell, renderer and display driver on mock
pins and a virtual clock, as `wordtable sim --script` plays it — once in German and once in English (the
English run leaves out the scripts' `expect` lines, which quote the German screen). It writes
- DIR/pictures/de/NAME.png and DIR/pictures/en/NAME.png: the pictures of docs/anleitung.md and docs/guide.md;
- DIR/night/panel_MODE.png: the panel in each mode (German, the box's default language).
DIR is docs/ unless given. Every PNG is the panel's frame pixel for pixel, each pixel SCALE×SCALE.
tests/test_guide.py writes them to a temporary folder and fails when one differs from the committed file.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image

from firmware_host.config import Resolved, resolve
from firmware_host.core.events import PageInfo
from firmware_host.script import Action, parse_script, run_script
from firmware_host.simulator import Simulator

DOCS = Path(__file__).resolve().parent.parent
SCRIPTS = DOCS / "scripts"
SCALE = 3
LANGS = ("de", "en")
# a `choose` of the scripts, in English
CHOOSE_EN = {"Punktetafel": "Scoreboard", "Zugzeit": "Turn timer", "Fortsetzen": "Resume",
             "Solitär": "Quiddler solo", "Karten anlernen": "Enrol cards", "Karten ziehen": "Draw cards"}


@dataclass(frozen=True)
class Picture:
    """The panel of `script` once every action up to the line `at` is done: the line's text without its
    comment (`expect Zeit!`), or a whole comment line (`# snapshot: winner`); its first match counts."""

    name: str
    script: str  # in docs/scripts/
    at: str


PICTURES = (
    Picture("timer-ready", "timer.script", "expect 1:00"),
    Picture("timer-running", "timer.script", "expect 0:40"),
    Picture("timer-zeit", "timer.script", "expect Taste drücken: Ruhe"),
    Picture("scoreboard", "scoreboard.script", "expect Spieler 2 −1 → 14"),
    Picture("menu", "guide/menu.script", "# picture: menu"),
    Picture("phones-qr", "guide/phones.script", "# picture: qr"),
    Picture("abandon", "guide/abandon.script", "# picture: abandon"),
    Picture("shelf", "guide/abandon.script", "# picture: shelf"),
    Picture("power-cut", "guide/power-cut.script", "# picture: resumed"),
    Picture("perfektes-wort-players", "perfektes-wort.script", "expect Das perfekte Wort: 4 Spieler"),
    Picture("perfektes-wort-side", "perfektes-wort.script", "expect Seite des Blocks"),
    Picture("perfektes-wort-points-card", "perfektes-wort.script", "expect Punktekarte"),
    Picture("perfektes-wort-card", "perfektes-wort.script", "# snapshot: round 1 card"),
    Picture("perfektes-wort-words", "perfektes-wort.script", "expect Geli – Runde 1"),
    Picture("perfektes-wort-round-points", "perfektes-wort.script", "expect Runde 1: Punkte"),
    Picture("perfektes-wort-shorten", "perfektes-wort.script", "expect Klaus: TAGTRÄUME kürzen"),
    Picture("perfektes-wort-winner", "perfektes-wort.script", "# snapshot: winner"),
    Picture("quiddler-round", "quiddler.script", "expect Runde 1 von 8"),
    Picture("quiddler-words", "quiddler.script", "# snapshot: round 4 Ann words"),
    Picture("quiddler-challenges", "quiddler.script", "# snapshot: round 2 challenges"),
    Picture("quiddler-scored", "quiddler.script", "expect Runde 1: Wertung"),
    Picture("quiddler-winner", "quiddler.script", "# snapshot: winner"),
    Picture("quiddler-solitaire", "guide/solitaire.script", "# picture: solitaire"),
    Picture("perfect-words-terms", "perfect-words.script", "# snapshot: Anna arrow 4"),
    Picture("perfect-words-doubled", "perfect-words.script", "expect Welcher Pfeil zählt doppelt?"),
    Picture("perfect-words-reveal", "perfect-words.script", "# snapshot: reveal arrow 4"),
    Picture("perfect-words-rank", "perfect-words.script", "# snapshot: total and rank"),
    Picture("knack-das-wort-turn", "knack-das-wort.script", "# snapshot: first turn"),
    Picture("knack-das-wort-30", "knack-das-wort.script", "# snapshot: Anna at 30 points"),
    Picture("knack-das-wort-left", "knack-das-wort.script", "# snapshot: cards left Ben"),
    Picture("knack-das-wort-winner", "knack-das-wort.script", "# snapshot: winner"),
    Picture("zugzeit-ready", "turn-timer.script", "# snapshot: ready"),
    Picture("zugzeit-thinking", "turn-timer.script", "# snapshot: anna thinking"),
    Picture("zugzeit-statistics", "turn-timer.script", "# snapshot: statistics total"),
    Picture("deck", "deck.script", "expect K · 7"),
)
# The scripts played with the table page on: the box is told its address and table code first, as the page
# server tells it when it starts (an address of the documentation's own, not this machine's).
PAGE_SCRIPTS = {"guide/phones.script": PageInfo("http://192.168.1.23:8080", "K7QX23", 0.0)}
PANELS = {  # docs/night/panel_MODE.png: the German picture of each mode
    "timer": "timer-running", "scoreboard": "scoreboard", "menu": "menu",
    "perfektes-wort": "perfektes-wort-card", "quiddler": "quiddler-words", "perfect-words": "perfect-words-terms",
    "knack-das-wort": "knack-das-wort-30", "zugzeit": "zugzeit-thinking", "quiddler-solitaire": "quiddler-solitaire",
    "deck": "deck",
}


def line_of(script_text: str, at: str) -> int:
    """The number of the first line of `script_text` that is `at` (a whole line, or its text before `#`)."""
    for number, raw in enumerate(script_text.split("\n"), start=1):
        if raw.strip() == at or raw.split("#", 1)[0].strip() == at:
            return number
    raise ValueError(f"no line {at!r} in the script")


def in_language(actions: list[Action], lang: str) -> list[Action]:
    """The actions as they play in `lang`: in English without `expect` and with the English menu names."""
    if lang == "de":
        return actions
    return [replace(action, arg=CHOOSE_EN.get(action.arg, action.arg)) if action.verb == "choose" else action
            for action in actions if action.verb != "expect"]


def resolved_in(lang: str) -> Resolved:
    resolved = resolve("sim", None, environ={})
    config = resolved.config
    return replace(resolved, config=replace(config, appliance=replace(config.appliance, language=lang)))


def pictures(lang: str) -> Iterator[tuple[str, Image.Image]]:
    """(name, the panel's frame) of every picture of `PICTURES` in `lang`, each script played once."""
    for script in dict.fromkeys(picture.script for picture in PICTURES):
        text = (SCRIPTS / script).read_text(encoding="utf-8")
        actions = in_language(parse_script(text), lang)
        wanted = sorted((line_of(text, p.at), p.name) for p in PICTURES if p.script == script)
        with tempfile.TemporaryDirectory(prefix="wordtable-guide-") as state:
            sim = Simulator(resolved_in(lang), Path(state))
            try:
                if script in PAGE_SCRIPTS:
                    sim.send(PAGE_SCRIPTS[script])
                done = 0
                for line, name in wanted:
                    upto = sum(1 for action in actions if action.line <= line)
                    run_script(actions[done:upto], sim.hooks(), lambda _: None)
                    done = upto
                    yield name, scaled(sim.image)
            finally:
                sim.close()
                for thread in threading.enumerate():  # a game's end-of-game line reads the journal: let it
                    if thread.name == "end-summary":  # finish before the journal's folder goes
                        thread.join(10)


def scaled(frame: Image.Image) -> Image.Image:
    image = frame.convert("1")
    return image.resize((image.width * SCALE, image.height * SCALE), Image.Resampling.NEAREST)


def write_all(out: Path) -> list[Path]:
    """Write every picture and panel under `out` (see the module's text); returns the files written."""
    written: list[Path] = []
    for lang in LANGS:
        folder = out / "pictures" / lang
        folder.mkdir(parents=True, exist_ok=True)
        for name, image in pictures(lang):
            image.save(folder / f"{name}.png", optimize=True)
            written.append(folder / f"{name}.png")
    night = out / "night"
    night.mkdir(parents=True, exist_ok=True)
    for mode, name in PANELS.items():
        with Image.open(out / "pictures" / "de" / f"{name}.png") as image:
            image.save(night / f"panel_{mode}.png", optimize=True)
        written.append(night / f"panel_{mode}.png")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Render the guide's pictures and the panels of each mode.")
    parser.add_argument("--out", type=Path, default=DOCS, help="write under this folder (default: docs/)")
    args = parser.parse_args(argv)
    for path in write_all(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
