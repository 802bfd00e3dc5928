"""The shell draws an input's frame while the journal writes it (`Shell._render_ahead`): the same frame,
on the display only after the input is on storage, drawn on another thread meanwhile."""

from __future__ import annotations

import threading

from firmware_host.core import app
from firmware_host.core.events import Button, Press
from firmware_host.core.settings import Settings
from firmware_host.render import pages, render
from firmware_host.shell import Outputs, Shell
from tests.test_word_check import Null, Recorder


class Display(Null):
    def __init__(self, journal: SlowJournal) -> None:
        self.journal = journal
        self.frames: list[tuple[object, bool]] = []  # (image, the input on storage when it was shown)

    def show(self, image):  # type: ignore[no-untyped-def]
        self.frames.append((image, self.journal.committed))


class SlowJournal(Recorder):
    """A journal whose write takes until the frame has been drawn (or 2 s): the storage's sync."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn = threading.Event()
        self.committed = False
        self.drawn_while_writing: bool | None = None

    def commit(self, event, effects=()):  # type: ignore[no-untyped-def]
        self.drawn_while_writing = self.drawn.wait(2.0)
        super().commit(event, effects)
        self.committed = True


def shell_with(journal: SlowJournal) -> tuple[Shell, Display, list[str]]:
    display = Display(journal)
    threads: list[str] = []

    def renderer(screen, size, page=0):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        image = render(screen, size, page)
        journal.drawn.set()
        return image

    outputs = Outputs(bar=Null(), sounder=Null(), display=display, renderer=renderer, pager=pages,
                      save_settings=lambda settings: None, power_off=lambda: None,
                      on_frame=lambda screen, image: None, on_sound=lambda pattern, notes: None,
                      keep=lambda name, data: None, check_words=lambda words: None,
                      word_lists=lambda language: None)
    state, effects = app.initial(Settings())
    shell = Shell(state, outputs, clock=lambda: 10.0, journal=journal)
    shell.start(effects)
    return shell, display, threads


def test_an_inputs_frame_is_drawn_while_its_journal_writes_and_shown_after() -> None:
    journal = SlowJournal()
    shell, display, threads = shell_with(journal)
    display.frames.clear()
    threads.clear()
    journal.drawn.clear()
    shell.handle(Press(Button.START, 10.0))  # the timer starts: another screen
    assert journal.drawn_while_writing is True
    assert threads[0] != threading.current_thread().name  # drawn on the render thread
    [(image, on_storage)] = display.frames
    assert on_storage  # shown only once the input is on storage
    assert shell.screen is not None
    assert image.tobytes() == render(shell.screen, (128, 64), shell.page).tobytes()


def test_a_frame_drawn_again_is_the_same_picture_and_a_copy() -> None:
    state, _ = app.initial(Settings())
    screen = app.screen(state)
    first = render(screen, (128, 64))
    first.paste(255, (0, 0, 128, 64))  # whoever took a frame may draw on it
    again = render(screen, (128, 64))
    assert again.tobytes() != first.tobytes()
    assert again.getbbox() is not None and again.tobytes() == render(screen, (128, 64)).tobytes()
