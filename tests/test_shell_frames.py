"""An input's frame goes to the display once the input is written to the journal, while the storage syncs
it; every other effect (the sound, the LED bar) comes only after the sync. A sync that fails gives the
journal up and tells the table, as a failed write does."""

from __future__ import annotations

from firmware_host.core import app
from firmware_host.core.events import Button, Press
from firmware_host.core.settings import Settings
from firmware_host.journal import JournalError
from firmware_host.render import pages, render
from firmware_host.shell import Outputs, Shell
from tests.test_word_check import Null, Recorder


class Log(Null):
    """Display, bar and sounder in one, writing what reaches them to `steps` (the bar is only set when
    its level changes)."""

    def __init__(self, steps: list[str]) -> None:
        self.steps = steps
        self.images: list[object] = []

    def show(self, image):  # type: ignore[no-untyped-def]
        self.images.append(image)
        self.steps.append("frame")

    def set_level(self, level):  # type: ignore[no-untyped-def]
        self.steps.append("bar")

    def play(self, notes, duty=0.5):  # type: ignore[no-untyped-def]
        self.steps.append("sound")


class OrderJournal(Recorder):
    def __init__(self, steps: list[str], sync_fails: bool = False) -> None:
        super().__init__()
        self.steps = steps
        self.sync_fails = sync_fails

    def commit(self, event, effects=()):  # type: ignore[no-untyped-def]
        super().commit(event, effects)
        self.steps.append("write")

    def sync(self):  # type: ignore[no-untyped-def]
        if self.sync_fails:
            raise JournalError("journal sync failed: Input/output error")
        self.steps.append("sync")


def shell_with(journal: OrderJournal) -> tuple[Shell, Log]:
    out = Log(journal.steps)
    outputs = Outputs(bar=out, sounder=out, display=out, renderer=render, pager=pages,
                      save_settings=lambda settings: None, power_off=lambda: None,
                      on_frame=lambda screen, image: None, on_sound=lambda pattern, notes: None,
                      keep=lambda name, data: None, check_words=lambda words: None,
                      word_lists=lambda language: None, owner_pin=lambda pin: None)
    state, effects = app.initial(Settings())
    shell = Shell(state, outputs, clock=lambda: 10.0, journal=journal)
    shell.start(effects)
    journal.steps.clear()
    return shell, out


def test_an_inputs_frame_goes_out_while_it_syncs_and_everything_else_after() -> None:
    steps: list[str] = []
    shell, out = shell_with(OrderJournal(steps))
    shell.handle(Press(Button.START, 10.0))  # the timer starts: another screen and a sound
    assert steps == ["write", "frame", "sync", "sound"]
    assert shell.screen is not None
    assert out.images[-1].tobytes() == render(shell.screen, (128, 64), shell.page).tobytes()  # type: ignore[attr-defined]


def test_a_failed_sync_gives_the_journal_up_and_the_table_is_told() -> None:
    steps: list[str] = []
    journal = OrderJournal(steps, sync_fails=True)
    shell, _ = shell_with(journal)
    shell.handle(Press(Button.START, 10.0))
    assert shell.journal is None
    assert shell.state.timer.running  # the timer goes on in memory
    assert steps[:2] == ["write", "frame"] and "sync" not in steps
    assert steps.count("frame") == 2  # the press's frame, then the one that says nothing is saved
    assert shell.state.unsaved  # every title is marked from now on
    shell.handle(Press(Button.START, 11.0))  # and nothing is written any more
    assert len(journal.events) == 1


def test_a_frame_drawn_again_is_the_same_picture_and_a_copy() -> None:
    state, _ = app.initial(Settings())
    screen = app.screen(state)
    first = render(screen, (128, 64))
    first.paste(255, (0, 0, 128, 64))  # whoever took a frame may draw on it
    again = render(screen, (128, 64))
    assert again.tobytes() != first.tobytes()
    assert again.getbbox() is not None and again.tobytes() == render(screen, (128, 64)).tobytes()
