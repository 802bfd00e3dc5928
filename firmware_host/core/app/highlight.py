"""The end-of-game line of a person's history (`events.Highlight`) in the footer: shown only, it moves no
clock and decides nothing (the shell never journals it)."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.core.app.state import AppState, Step
from firmware_host.core.events import Highlight
from firmware_host.core.history.summary import highlight_text


def highlight_shown(state: AppState, event: Highlight) -> Step:
    return replace(state, notice=highlight_text(event, state.settings.lang)), []
