"""The self-test's conversation with the maker: each step's prompt out (`tell`), the answer in — from
`inbox`, where the board's input drivers and the terminal's reader put what happens.

A confirm step waits for START (= yes) or BACK (= no), or a typed y / n; an event step for the event it
is about (a typed n says nothing happened). A typed s skips a step, q (or the end of the input) ends the
walk (`Quit`); a step without an answer in `timeout` seconds is skipped. On a mock board, `hands` turns
typed words (`start`, `hold back`, `+`, `@CODE`) into presses on the mock pins, and the drivers' report of
them is awaited for up to SETTLE_S.
"""

from __future__ import annotations

import queue
from collections import deque
from collections.abc import Callable

from firmware_host.core.events import Button, Press
from firmware_host.selftest.hands import MockHands
from firmware_host.selftest.steps import Outcome, Prompt, Quit, Result, Tell, Typed
from firmware_host.selftest.text import say

SETTLE_S = 1.0  # how long the drivers get to report what a mock board's hands did (a card read takes a while)
YES, NO, SKIP, QUIT = ("y", "yes", "j", "ja"), ("n", "no", "nein"), ("s", "skip"), ("q", "quit")


class Conversation:
    """Prompts and answers for one walk, its remarks in `lang`. `where` is (the step's number, the number of
    steps) for prompts."""

    def __init__(self, inbox: queue.Queue[object], tell: Tell, hands: MockHands | None, *, timeout: float,
                 clock: Callable[[], float], lang: str = "de") -> None:
        self._inbox, self._tell, self._hands, self._lang = inbox, tell, hands, lang
        self.timeout, self._clock = timeout, clock
        self._typed: deque[str | None] = deque()
        self._acted = False
        self.where = (0, 0)

    def drain(self) -> None:
        """Forget input events from before this step; keep typed lines (answers may be typed ahead)."""
        self._acted = False
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, Typed):
                self._typed.append(item.line)

    def confirm(self, step: str, what: str, says: str, fails: str) -> Result:
        """Ask yes or no: START / y is yes, BACK / n is no (the result then carries the hint `fails`)."""
        self._prompt(step, says, confirm=True)
        deadline = self._clock() + self.timeout
        while (item := self._next(deadline)) is not None:
            answer = self._answer(item) if isinstance(item, Typed) else None
            if isinstance(item, Press) and item.button in (Button.START, Button.BACK):
                answer = "yes" if item.button is Button.START else "no"
            if answer == "yes":
                return Result(step, what, Outcome.PASS)
            if answer == "no":
                return Result(step, what, Outcome.FAIL, fails)
            if answer == "skip":
                return Result(step, what, Outcome.SKIP, say(self._lang, "skipped"))
        return Result(step, what, Outcome.SKIP, say(self._lang, "no_answer", s=f"{self.timeout:.0f}"))

    def await_event(self, step: str, what: str, says: str, on_event: Callable[[object], Result | None],
                    fails: str) -> Result:
        """Wait for the event a step is about (`on_event` returns the result when it came); a typed n
        fails the step with the hint `fails`."""
        self._prompt(step, says, confirm=False)
        deadline = self._clock() + self.timeout
        while (item := self._next(deadline)) is not None:
            if isinstance(item, Typed):
                answer = self._answer(item)
                if answer == "no":
                    return Result(step, what, Outcome.FAIL, fails)
                if answer == "skip":
                    return Result(step, what, Outcome.SKIP, say(self._lang, "skipped"))
                if answer == "yes":
                    self._tell(say(self._lang, "do_it"))
                continue
            result = on_event(item)
            if result is not None:
                return result
        return Result(step, what, Outcome.SKIP, say(self._lang, "nothing_in", s=f"{self.timeout:.0f}"))

    def _prompt(self, step: str, says: str, *, confirm: bool) -> None:
        number, total = self.where
        self._tell(Prompt(step, number, total, says, confirm))

    def _next(self, deadline: float) -> object | None:
        """The next thing that happened: what the drivers reported first (after a mock board's hands acted,
        up to SETTLE_S for it to arrive), then lines typed ahead, then whatever comes until `deadline`."""
        try:
            item = self._inbox.get_nowait()
        except queue.Empty:
            pass
        else:
            self._acted = False
            return item
        if self._acted:
            self._acted = False
            try:
                return self._inbox.get(timeout=max(0.0, min(SETTLE_S, deadline - self._clock())))
            except queue.Empty:
                pass
        if self._typed:
            return Typed(self._typed.popleft())
        remaining = deadline - self._clock()
        if remaining <= 0:
            return None
        try:
            return self._inbox.get(timeout=remaining)
        except queue.Empty:
            return None

    def _answer(self, typed: Typed) -> str | None:
        """'yes', 'no' or 'skip' for a typed answer; None when it was none (a mock board's hands did what it
        said, or it was not understood). Raises Quit for q and the end of the input."""
        if typed.line is None:
            raise Quit
        word = typed.line.strip().lower()
        if self._hands is not None and self._hands.act(typed.line):
            self._acted = True
            return None
        if word in QUIT:
            raise Quit
        for answer, words in (("yes", YES), ("no", NO), ("skip", SKIP)):
            if word in words:
                return answer
        if word:
            self._tell(say(self._lang, "not_understood", line=typed.line.strip()))
        return None
