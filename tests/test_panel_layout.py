"""The panel's text layout over every screen a player meets (issue 38): every screen of every documented
script, every reference screen and every failed start, in German and English, at 128×64 and 256×64.

A screen fails on more than `MAX_PAGES` pages, on text cut off ("…"), on a cut word (a line that ends or
starts inside a word of the text, unless the word alone is wider than the line and the line ends in "-", or
in a "/" or "." of the word's own) and
on a split phrase (a line break inside a part of a hint — the text between " · " — or at a no-break
space). Words and phrases come from each screen's own texts (`render.laid_out` gives every text laid out
in more than one line with its lines), never from a list of known strings.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.app.state import AppState
from firmware_host.core.screens import KEEP, BigScreen, MessageScreen, Screen, TurnScreen, describe
from firmware_host.render import Laid, font, laid_out, lost, pages
from firmware_host.script import run_script
from tests.game_scripts import PureApp, actions
from tests.screens import PANEL_SIZES, REFERENCE_SCREENS
from tests.script_screens import ALL_SCRIPTS
from tests.startup_cases import CASES as STARTUP_CASES

MAX_PAGES = 3
LANGS = ("de", "en")
SEPARATOR = " · "
BUTTON = r"(?:START|NEXT|BACK|MENU)(?:/(?:START|NEXT|BACK|MENU))*:?"
# Spans of a text that are one phrase: a button and what it does, what stands in brackets or quotes.
PHRASES = (re.compile(rf"(?<![\w/])(?:(?:lang|hold) )?{BUTTON} (?=[^\s·])"),
           re.compile(r"\([^()]*\)|„[^“]*“|“[^”]*”|‘[^’]*’|(?<!\w)'[^']*'(?!\w)|\"[^\"]*\""))


def in_language(state: AppState, lang: str) -> Screen:
    return app.screen(replace(state, settings=replace(state.settings, lang=lang)))


def script_screens(script: str) -> Iterator[tuple[str, Screen]]:
    """(where, screen) for each distinct screen `script` reaches, in each language."""
    table = PureApp()
    seen: set[Screen] = set()
    for step in [None, *actions(script)]:
        if step is not None:
            run_script([step], table.hooks(), lambda line: None)
        for lang in LANGS:
            screen = in_language(table.state, lang)
            if screen not in seen:
                seen.add(screen)
                yield f"{script}:{step.line if step else 0} {lang}", screen


def joints(text: str) -> set[int]:
    """Where in `text` a line break would split a phrase: each no-break space, each space inside a part of
    a hint (a text with " · "), and the spaces inside the spans `PHRASES` finds."""
    inside = {i for pattern in PHRASES for m in pattern.finditer(text) for i in range(m.start(), m.end())}
    hint = SEPARATOR in text
    separators = {i for m in re.finditer(re.escape(SEPARATOR), text) for i in range(m.start(), m.end())}
    return {i for i, c in enumerate(text)
            if c == KEEP or (c.isspace() and i not in separators and (i in inside or hint))}


def layout_faults(laid: Laid) -> list[str]:
    """What is wrong with how `laid.text` was broken into `laid.lines`: each cut word and split phrase."""
    text = re.sub(r"[^\S\u00a0]+", " ", laid.text.strip())
    flat, joined = text.replace(KEEP, " "), joints(text)
    faults: list[str] = []
    at = 0
    for number, line in enumerate(laid.lines):
        while flat.startswith(SEPARATOR, at) or flat.startswith(" ", at):
            at += len(SEPARATOR) if flat.startswith(SEPARATOR, at) else 1
        if flat.startswith(line, at):
            end, hyphenated = at + len(line), False
        elif line.endswith("-") and flat.startswith(line[:-1], at):
            end, hyphenated = at + len(line) - 1, True
        else:
            return [f"line {number + 1} {line!r} is not the text's next part (at {flat[at:]!r})"]
        if end < len(text):
            word = _word_at(text, end)
            if hyphenated:
                if laid.fnt.getlength(word) <= laid.width:
                    faults.append(f"{word!r} cut (it fits a line): {laid.lines}")
            elif end in joined:
                faults.append(f"phrase split after {line!r}: {laid.lines}")
            elif not text[end].isspace() and not (text[end - 1] in "-/." and laid.fnt.getlength(word) > laid.width):
                faults.append(f"{word!r} cut without a hyphen: {laid.lines}")
        at = end
    if flat[at:].strip(" ·"):
        faults.append(f"{flat[at:]!r} left out: {laid.lines}")
    return faults


def _word_at(text: str, index: int) -> str:
    """The word (between white space, no-break spaces included) that `index` lies in or ends."""
    start, end = index, index
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end]


def faults(screen: Screen, size: tuple[int, int]) -> list[str]:
    found = [fault for laid in laid_out(screen, size) for fault in layout_faults(laid)]
    if (count := pages(screen, size)) > MAX_PAGES:
        found.append(f"{count} pages")
    found += [f"cut off: {text!r}" for text in lost(screen, size)]
    return found


def check(where: str, screen: Screen) -> list[str]:
    return [f"{where} {w}x{h}: {fault}  [{describe(screen)}]"
            for w, h in PANEL_SIZES for fault in faults(screen, (w, h))]


@pytest.mark.parametrize("script", ALL_SCRIPTS)
def test_every_screen_of_a_documented_script_is_laid_out_in_whole_words_and_phrases(script: str) -> None:
    problems = [problem for where, screen in script_screens(script) for problem in check(where, screen)]
    assert not problems, "\n".join(problems)


def test_every_reference_screen_is_laid_out_in_whole_words_and_phrases() -> None:
    problems = [problem for name, screen in REFERENCE_SCREENS.items() for problem in check(name, screen)]
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("case", STARTUP_CASES)
def test_every_failed_start_is_laid_out_in_whole_words_and_phrases(case: str, monkeypatch) -> None:
    """The failed starts as a user meets them (`tests/startup_cases.py`), their screens in both languages:
    the failure screen's parts as `wordtable run` makes them, the simulator's state as it started."""
    from firmware_host import startup_failure
    from firmware_host.core.app import startup_failure_screen
    from firmware_host.simulator import Simulator

    made: list[tuple[str, tuple[str, ...]]] = []

    def recorded(lang: str, kind: str, details: tuple[str, ...]) -> Screen:
        made.append((kind, details))
        return startup_failure_screen(lang, kind, details)

    monkeypatch.setattr(startup_failure, "startup_failure_screen", recorded)
    states: list[AppState] = []
    real_close = Simulator.close

    def close(sim: Simulator) -> None:
        states.append(sim.state)
        real_close(sim)

    monkeypatch.setattr(Simulator, "close", close)
    from tests.startup_cases import start_image

    with tempfile.TemporaryDirectory() as tmp:
        if start_image(case, Path(tmp)) is None:
            pytest.skip(f"{case} cannot be set up here")
    screens = [(f"{case} {lang}", startup_failure_screen(lang, kind, details))
               for kind, details in made for lang in LANGS]
    screens += [(f"{case} {lang}", in_language(state, lang)) for state in states for lang in LANGS]
    assert screens
    problems = [problem for where, screen in screens for problem in check(where, screen)]
    assert not problems, "\n".join(problems)


SMALL = font(12)


@pytest.mark.parametrize(("text", "lines", "fault"), [
    ("START: Sanduhr (1 Minute)", ("START: Sanduhr (1", "Minute)"), "phrase split"),
    ("START: Sanduhr", ("START:", "Sanduhr"), "phrase split"),
    ("lang START: ungültig · NEXT nächstes", ("lang START:", "ungültig · NEXT nächstes"), "phrase split"),
    (f"Anna{KEEP}+14{KEEP}→{KEEP}30", ("Anna +14", "→ 30"), "phrase split"),
    ("Bildschirm aus", ("Bildschir", "m aus"), "cut without a hyphen"),
    ("Bildschirm aus", ("Bildschir-", "m aus"), "cut (it fits a line)"),
    ("Zeit je Zug", ("Zeit je",), "left out"),
])
def test_the_check_finds_a_cut_word_a_split_phrase_and_a_lost_word(text: str, lines: tuple[str, ...],
                                                                    fault: str) -> None:
    found = layout_faults(Laid(text, SMALL, 124, lines))
    assert len(found) == 1 and fault in found[0], found


def test_the_check_takes_whole_words_and_phrases_and_a_word_wider_than_the_line_cut_visibly() -> None:
    assert layout_faults(Laid("START: Sanduhr (1 Minute)", SMALL, 124, ("START: Sanduhr", "(1 Minute)"))) == []
    word = "Donaudampfschifffahrtsgesellschaft"
    assert layout_faults(Laid(word, SMALL, 124, (word[:19] + "-", word[19:]))) == []


def test_no_screen_turns_more_than_three_pages_and_what_does_not_fit_is_cut_visibly() -> None:
    screen = MessageScreen("Regeln", tuple(f"Zeile {i}: Wörter über Wörter." for i in range(1, 9)), "BACK")
    assert pages(screen, (128, 64)) == MAX_PAGES and lost(screen, (128, 64))
    hint = BigScreen("Sanduhr", "1:00", " · ".join(f"START{i} los" for i in range(6)))
    assert pages(hint, (128, 64)) == MAX_PAGES and lost(hint, (128, 64))


def test_the_key_facts_are_in_the_body_not_only_in_the_footer() -> None:
    """Knack's points for the word just played and Zugzeit's next player are drawn in the body's face."""
    scored = play_until("knack-das-wort.script", "Anna +14 → 30")
    assert isinstance(scored, BigScreen) and scored.line == "Anna +14 → 30" and "→" not in scored.footer
    clock = play_until("turn-timer.script", "dann Ben 5:00")
    assert isinstance(clock, TurnScreen) and clock.then == "dann Ben 5:00" and "Ben" not in clock.footer


def play_until(script: str, text: str) -> Screen:
    """The first screen `script` reaches that shows `text`."""
    return next(screen for _, screen in script_screens(script) if text in describe(screen))
