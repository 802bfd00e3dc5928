"""The appliance's `Outputs`: where each effect the shell carries out goes, every one wired here.

- `Show`, `SetBar`, `Beep` -> the board's display (through the renderer), LED bar and sounder;
- `SaveSettings` -> the journal's settings (remembered for the next session, each beside what the
  config file said for it then: `settings.remembered_with_file`; without a journal, or when it fails,
  only logged);
- `Keep` -> a file in the state directory (`kept_store`);
- `CheckWords`, `RevealBest` -> the word index of the language (`word_index`, built once into the state
  directory; the German reveal's holds only the words a table allows, `base_forms`), opened at the first
  question or reveal (or in the background at start: `WordLists.prepare`);
  None without a list;
- `PowerOff` -> the injected `power_off`;
- `SetOwnerPin` -> the PIN's salted hash in the state directory (`owner_pin.save_pin`);
- frames and sounds -> observers: none on the Pi (`ignore_frame`, `ignore_sound`); the simulator and
  the benchmarks put their own in through `open_appliance`'s `outputs_hook`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from firmware_host.base_forms import DING_LEXICONS
from firmware_host.core.games.perfektes_wort.words import normalize
from firmware_host.core.screens import Screen
from firmware_host.core.settings import remembered_with_file
from firmware_host.core.sounds import Note
from firmware_host.journal import Journal, JournalError
from firmware_host.kept_store import save_kept
from firmware_host.owner_pin import save_pin
from firmware_host.render import pages, render
from firmware_host.shell import Outputs
from firmware_host.word_index import (
    ENGLISH_LISTS,
    GERMAN_LISTS,
    WordIndex,
    WordIndexError,
    first_list,
    open_allowed_index,
    open_index,
)
from hw.protocols import Bar, Display, Sounder

log = logging.getLogger("wordtable")


def ignore_frame(screen: Screen, image: Any) -> None:
    """No one watches the frames (the panel shows them)."""


def ignore_sound(pattern: str, notes: tuple[Note, ...]) -> None:
    """No one listens in on the sounds (the buzzer plays them)."""


class WordCheck:
    """`CheckWords`: which words are in the German word list — the whole list (`WordLists.whole`: the
    configured list, else `wngerman`, as one compact index), inflected forms included, since a word it
    lacks is flagged to the table —; None when there is none."""

    def __init__(self, lists: WordLists) -> None:
        self._lists = lists

    def __call__(self, words: tuple[str, ...]) -> dict[str, bool] | None:
        index = self._lists.whole("de")
        return None if index is None else {word: normalize(word) in index for word in words}


LIST_NAMES = {"ngerman": "wngerman", "american-english": "wamerican", "british-english": "wbritish"}


class WordLists:
    """`RevealBest`'s lists: German (the configured list, else `wngerman`) and English (`wamerican`, else
    `wbritish`), each as a compact index kept in the state directory, opened at the first reveal. The
    German reveal takes only the list's words a table allows (`reveal_words = "allowed"`: base forms, no
    proper names, by the Ding lexicon, `base_forms`) — the whole list without the lexicon, or with "all"."""

    def __init__(
        self,
        configured: Path | None,
        state_dir: Path,
        system: bool = True,
        reveal_words: str = "allowed",
        lexicons: Sequence[Path] = DING_LEXICONS,
    ) -> None:
        """`lexicons`: where the system's lexicon may be (looked up only when `system`)."""
        self._configured, self._state_dir, self._system = configured, state_dir, system
        self._reveal_words, self._lexicons = reveal_words, tuple(lexicons)
        self._open: dict[tuple[str, bool], WordIndex | None] = {}
        self._locks: dict[tuple[str, bool], threading.Lock] = {}  # one a list: none waits for another's build
        self._lock = threading.Lock()  # guards `_locks`

    def __call__(self, language: str) -> WordIndex | None:
        """The reveal's list of `language` (thread-safe; waits while `prepare` is still building it)."""
        return self._get(language, language == "de" and self._reveal_words == "allowed")

    def whole(self, language: str) -> WordIndex | None:
        """The whole list of `language` (the dictionary assist's)."""
        return self._get(language, False)

    def prepare(self, languages: Sequence[str]) -> threading.Thread:
        """Open the lists in a background thread: building an index takes seconds (~3 s here for
        `wngerman`, ~10 s for its allowed words, far more on a Pi 3), which the first reveal would
        otherwise spend with the loop stopped. Opening an index that is already built takes milliseconds."""

        def open_all() -> None:  # the whole lists first: the allowed words take longest
            for language in languages:
                self.whole(language)
            for language in languages:
                self(language)

        thread = threading.Thread(target=open_all, name="word-lists", daemon=True)
        thread.start()
        return thread

    def _get(self, language: str, allowed: bool) -> WordIndex | None:
        key = (language, allowed)
        with self._lock:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:  # an allowed list may take its whole list under it (never the other way round)
            if key not in self._open:
                self._open[key] = self._allowed() if allowed else self._load(language)
            return self._open[key]

    def _source(self, language: str) -> Path | None:
        german = language == "de"
        system = (GERMAN_LISTS if german else ENGLISH_LISTS) if self._system else ()
        return first_list(self._configured if german else None, system)

    def _load(self, language: str) -> WordIndex | None:
        source = self._source(language)
        if source is None:
            log.info("no %s word list: no reveal of the best play", "German" if language == "de" else "English")
            return None
        try:
            index = open_index(source, language, self._state_dir, LIST_NAMES.get(source.name, source.name))
        except WordIndexError as exc:
            log.warning("%s; no reveal of the best play", exc)
            return None
        log.info("word list: %s, %d words", source, index.words)
        return index

    def _allowed(self) -> WordIndex | None:
        """The German list's allowed words; the whole list (and a warning) without the lexicon."""
        source = self._source("de")
        lexicon = first_list(None, self._lexicons) if self._system else None
        if source is None or not self._system:  # no list, or only the configured one: no system lexicon
            return self.whole("de")
        if lexicon is None:
            log.warning("no lexicon of base forms (%s: apt-get install dict-de-en): the reveal takes the whole "
                        "list, inflected forms and proper names included", ", ".join(map(str, self._lexicons)))
            return self.whole("de")
        name = f"{LIST_NAMES.get(source.name, source.name)}+Ding"
        try:
            index = open_allowed_index(source, lexicon, self._state_dir, name)
        except WordIndexError as exc:
            log.warning("%s; the reveal takes the whole list, inflected forms and proper names included", exc)
            return self.whole("de")
        log.info("words for the reveal: %s allowed by %s (base forms, no proper names), %d words",
                 source, lexicon, index.words)
        return index


class Board(Protocol):
    """The parts of the board the outputs drive (a `hw.build.Hardware` has them)."""

    @property
    def bar(self) -> Bar: ...

    @property
    def sounder(self) -> Sounder: ...

    @property
    def display(self) -> Display: ...


def appliance_outputs(
    hardware: Board,
    journal: Journal | None,
    state_dir: Path,
    *,
    dictionary: Path | None,
    system_lists: bool = True,
    reveal_words: str = "allowed",
    power_off: Callable[[], None],
    from_file: Mapping[str, Any],
    prepare_lists: Sequence[str] = (),
) -> Outputs:
    """Every output of the appliance, wired to the board, the journal and the state directory.
    `from_file`: the config file's settings (`Settings.remembered()` of the config alone);
    `prepare_lists`: the languages whose word lists to open now, in the background (`WordLists.prepare`)."""

    def save_settings(values: dict[str, Any]) -> None:
        if journal is None:
            log.warning("settings not remembered (no journal): %s", ", ".join(values))
            return
        try:
            for key, value in remembered_with_file(values, from_file).items():
                journal.set_setting(key, value)
        except JournalError as exc:
            log.error("settings not remembered: %s", exc)

    def keep(name: str, data: Any) -> None:
        save_kept(state_dir, name, data)

    word_lists = WordLists(dictionary, state_dir, system_lists, reveal_words)
    if prepare_lists:
        word_lists.prepare(prepare_lists)
    return Outputs(
        bar=hardware.bar,
        sounder=hardware.sounder,
        display=hardware.display,
        renderer=render,
        pager=pages,
        save_settings=save_settings,
        power_off=power_off,
        on_frame=ignore_frame,
        on_sound=ignore_sound,
        keep=keep,
        check_words=WordCheck(word_lists),
        word_lists=word_lists,
        owner_pin=lambda pin: save_pin(state_dir, pin),
    )
