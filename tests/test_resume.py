"""The session the appliance starts with (`resume.open_session`): resumed from the journal, started anew
with the settings that stand, or — without a journal — from the config's settings alone, saying why."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_host.core import app
from firmware_host.core.effects import Log
from firmware_host.core.events import Button, Press
from firmware_host.core.settings import Settings
from firmware_host.resume import open_session


class SettingsFor:
    """The settings function the appliance passes in, recording what the journal remembered."""

    def __init__(self) -> None:
        self.asked: list[dict[str, Any]] = []

    def __call__(self, remembered: Mapping[str, Any]) -> Settings:
        self.asked.append(dict(remembered))
        return Settings(duration_s=90)


def test_a_fresh_journal_starts_a_session_with_the_settings_that_stand(tmp_path: Path) -> None:
    settings = SettingsFor()
    session = open_session(tmp_path / "state", settings, lambda: 3.0)
    try:
        assert session.journal is not None and session.target is not None and session.unsaved is None
        assert settings.asked == [{}] and session.state.settings.duration_s == 90 and session.skipped == 0
        assert session.state.now == 3.0 and session.effects  # the first frame to show
    finally:
        assert session.journal is not None
        session.journal.close()


def test_a_running_session_is_resumed_from_the_journal(tmp_path: Path) -> None:
    first = open_session(tmp_path, SettingsFor(), lambda: 0.0)
    assert first.target is not None and first.journal is not None
    started = first.state
    state, _ = app.step(started, Press(Button.START, 1.0))
    first.target.commit(Press(Button.START, 1.0))
    first.target.sync()
    first.journal.close()
    assert state.timer.running
    again = open_session(tmp_path, SettingsFor(), lambda: 2.0)
    try:
        assert again.target is not None and again.target.session == first.target.session  # the same session
        assert not again.state.timer.running  # paused at what it had left at the last journaled event
        logged = [effect.message for effect in again.effects if isinstance(effect, Log)]
        assert logged == ["resumed; timer paused at 90.0 s"] and again.state.now == 2.0
    finally:
        assert again.journal is not None
        again.journal.close()


def test_without_a_journal_the_session_comes_from_the_settings_alone_and_says_why(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    settings = SettingsFor()
    session = open_session(blocker / "wordtable", settings, lambda: 5.0)
    assert session.journal is None and session.target is None and session.unsaved == "readonly"
    assert settings.asked == [{}] and session.state.settings.duration_s == 90 and session.state.now == 5.0
