"""The dictionary assist's round trip: a flow asks (CheckWords), the shell asks the word list and hands
the answer back as an input (WordsChecked), journaled so that a replay needs no word list."""

from dataclasses import dataclass, replace

from firmware_host.core import app
from firmware_host.core.app.state import InGame
from firmware_host.core.effects import CheckWords
from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import Event, TextEntry, WordsChecked
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.screens import MessageScreen, Screen
from firmware_host.core.settings import Settings
from firmware_host.core.text_field import TextField
from firmware_host.shell import Outputs, Shell


@dataclass(frozen=True)
class AskingFlow:
    """A minimal flow: a typed word is asked about; the answer is shown."""

    game: str = "perfektes-wort"
    shown: str = ""

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, TextEntry):
            return Outcome(self, (CheckWords((event.text,)),))
        if isinstance(event, WordsChecked):
            return Outcome(replace(self, shown=", ".join(f"{w}:{'ja' if ok else 'nein'}" for w, ok in event.known)))
        return Outcome(self)

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(self)

    def screen(self, ctx: Ctx) -> Screen:
        return MessageScreen("Wörter", (self.shown,))

    def text_field(self, ctx: Ctx) -> TextField | None:
        return TextField("Wort", "word")


class Recorder:
    def __init__(self):
        self.events = []

    def commit(self, event, effects=()):
        if event is not None:
            self.events.append(event)

    def sync(self):
        pass

    def compact(self, state):
        pass

    def cache(self, state):
        pass

    def tidy(self):
        pass


class Null:
    size = (128, 64)

    def set_level(self, level):
        pass

    def play(self, notes, duty=0.5):
        pass

    def show(self, image):
        pass


def shell_with(check):
    state, _ = app.initial(Settings())
    state = replace(state, mode=InGame(AskingFlow()))
    null = Null()
    outputs = Outputs(bar=null, sounder=null, display=null, renderer=lambda s, size, page=0: None,
                      pager=lambda s, size: 1,
                      save_settings=lambda settings: None, power_off=lambda: None,
                      on_frame=lambda screen, image: None, on_sound=lambda pattern, notes: None,
                      keep=lambda name, data: None, check_words=check, word_lists=lambda language: None,
                      owner_pin=lambda pin: None)
    return Shell(state, outputs, clock=lambda: 5.0, journal=Recorder())


def test_the_answer_comes_back_as_a_journaled_input_and_reaches_the_flow():
    shell = shell_with(lambda words: {w: w == "HUND" for w in words})
    shell.handle(TextEntry("HUND", 1.0))
    assert shell.state.flow.shown == "HUND:ja"
    shell.handle(TextEntry("HUNDES", 2.0))
    assert shell.state.flow.shown == "HUNDES:nein"
    journaled = shell.journal.events
    assert [type(e).__name__ for e in journaled] == ["TextEntry", "WordsChecked", "TextEntry", "WordsChecked"]
    assert decode(encode(journaled[1])) == journaled[1]
    replayed = replace(app.initial(Settings())[0], mode=InGame(AskingFlow()))
    for event in journaled:  # no word list needed: the answers are in the journal
        replayed, _ = app.step(replayed, event)
    assert replayed.flow == shell.state.flow


def test_without_a_word_list_nothing_is_answered_and_nothing_breaks():
    shell = shell_with(lambda words: None)
    shell.handle(TextEntry("HUND", 1.0))
    assert shell.state.flow.shown == ""
    assert [type(e).__name__ for e in shell.journal.events] == ["TextEntry"]
