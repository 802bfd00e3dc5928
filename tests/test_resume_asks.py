"""A word-list question the table asked just before the box died is asked again after the restart.

The shell journals an input, shows its effects and then asks the word list (`CheckWords`, `RevealBest`);
the answer is journaled as the next input. A power cut (or kill -9) between the two leaves a journal with
the question's cause and no answer: the resumed table must ask again, or the round's perfect word (and the
review's word-list marks) never show — unlike the same game played without the cut."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.core import app
from firmware_host.core.event_codec import decode
from firmware_host.core.games.perfektes_wort.stages import Points
from firmware_host.shell import Shell
from tests.helpers.crash import timeline

LISTS = Path(__file__).parent / "wordlists"
CONFIG = f'[dictionary]\npath = "{LISTS / "de_small.txt"}"\nsystem = false\n'


class Died(BaseException):
    """The process dies here (what SIGKILL does between two statements)."""


def _until(script: str, reached) -> tuple[list, int]:  # type: ignore[no-untyped-def]
    """The script's inputs and the index of the first one after which `reached(state)` holds."""
    from firmware_host.core.settings import Settings

    events = timeline(script)
    state, _ = app.initial(Settings())
    for n, (_, payload) in enumerate(events):
        state = app.fold(state, decode(payload))
        if reached(state):
            return events, n
    raise AssertionError("never reached")


def _play(sim, events) -> None:  # type: ignore[no-untyped-def]
    for at, payload in events:
        sim.wait_until(max(sim.clock.now, at))
        sim.send(decode(payload))


def _dies_asking(monkeypatch, method: str) -> None:  # type: ignore[no-untyped-def]
    def die(self, *args):  # type: ignore[no-untyped-def]
        raise Died

    monkeypatch.setattr(Shell, method, die)


def _cut_at(make_sim, tmp_path: Path, stage: type, die):  # type: ignore[no-untyped-def]
    """Perfektes Wort's script played until the input that brings `stage`; that input is journaled and
    shown, then `die(patch, sim)` makes the box die before the word list answers. Returns the script's
    inputs, that input's index, the config and the restarted box."""
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    events, n = _until("perfektes-wort.script", lambda s: isinstance(getattr(s.flow, "stage", None), stage))
    sim = make_sim(state_dir=tmp_path / "state", config=config)
    _play(sim, events[:n])
    with pytest.MonkeyPatch.context() as patch:
        die(patch, sim)
        with pytest.raises(Died):
            _play(sim, events[n:n + 1])
    sim.appliance.close()
    return events, n, config, make_sim(state_dir=tmp_path / "state", config=config)


def _labels(sim) -> list[str]:  # type: ignore[no-untyped-def]
    """A list's labels, a message's lines (the round's points are one line per player)."""
    screen = app.screen(sim.state)
    return [item.label for item in getattr(screen, "items", ())] + list(getattr(screen, "lines", ()))


@pytest.mark.slow  # a game played twice, once cut and resumed
def test_the_perfect_word_of_a_round_is_revealed_after_a_cut_during_its_search(make_sim, tmp_path):
    events, n, config, again = _cut_at(make_sim, tmp_path, Points, lambda patch, sim: _dies_asking(patch, "_reveal"))
    assert isinstance(again.state.flow.stage, Points)
    assert [b.round for b in again.state.flow.best] == [1]
    assert any(label.startswith("Das perfekte Wort") or "perfekt: " in label for label in _labels(again))
    once = make_sim(state_dir=tmp_path / "uncut", config=config)  # the same inputs, no cut
    _play(once, events[:n + 1])
    assert [replace(b, at=0.0) for b in again.state.flow.best] == [replace(b, at=0.0) for b in once.state.flow.best]
    assert _labels(again) == _labels(once)
    again.restart()  # the answer was journaled: asked once, not again
    assert [b.round for b in again.state.flow.best] == [1]


@pytest.mark.slow  # a game played twice, once cut and resumed
def test_the_review_marks_are_asked_again_after_a_cut_before_the_word_list_answered(make_sim, tmp_path):
    from firmware_host.core.games.perfektes_wort.stages import Reviewing

    def die(patch, sim):  # type: ignore[no-untyped-def]
        patch.setattr(sim.appliance.shell.outputs, "check_words", _raise)

    events, n, config, again = _cut_at(make_sim, tmp_path, Reviewing, die)
    once = make_sim(state_dir=tmp_path / "uncut", config=config)
    _play(once, events[:n + 1])
    assert once.state.flow.checked  # the uncut table asked …
    assert again.state.flow.checked == once.state.flow.checked  # … and so does the resumed one
    assert app.screen(again.state).items == app.screen(once.state).items


def _raise(*args):  # type: ignore[no-untyped-def]
    raise Died


def test_a_resumed_quiddler_table_asks_again_for_the_best_lay_of_the_round_just_scored_and_only_then():
    from firmware_host.core.effects import RevealBest
    from firmware_host.core.events import BestRevealed, Resumed
    from firmware_host.core.games.quiddler.stages import TablePage
    from firmware_host.core.games.quiddler.table import QuiddlerFlow

    def scored(state) -> bool:  # type: ignore[no-untyped-def]
        return isinstance(state.flow, QuiddlerFlow) and state.flow.played is not None \
            and len(state.flow.played.game.rounds) == 1

    events, n = _until("quiddler.script", scored)
    state, _ = _initial()
    for _, payload in events[:n + 1]:
        state = app.fold(state, decode(payload))
    asked = [e for e in app.step(state, Resumed(0.0))[1] if isinstance(e, RevealBest)]
    assert [(e.language, e.round) for e in asked] == [("en", 1)]
    answered = app.fold(state, BestRevealed(1, "tests", (), 0.5))
    assert not [e for e in app.step(answered, Resumed(0.0))[1] if isinstance(e, RevealBest)]
    assert state.flow.stage == TablePage()
    moved_on = app.fold(state, decode(events[n + 1][1]))  # on to the next round: that question is past
    assert moved_on.flow.stage != TablePage() and len(moved_on.flow.played.game.rounds) == 1
    assert not [e for e in app.step(moved_on, Resumed(0.0))[1] if isinstance(e, RevealBest)]


def _initial():  # type: ignore[no-untyped-def]
    from firmware_host.core.settings import Settings

    return app.initial(Settings())
