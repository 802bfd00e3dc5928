"""Effects: what the core asks the shell to do. The shell carries them out in order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_host.core.games.word_groups import WordGroups
from firmware_host.core.screens import Screen


@dataclass(frozen=True, slots=True)
class SetBar:
    """Light the LED bar to `level` in [0, 1]: whole segments on, the draining one dimmed by PWM."""

    level: float


@dataclass(frozen=True, slots=True)
class Beep:
    """Play a sound pattern by name (see `core.sounds`) at a volume ("soft" or "normal")."""

    pattern: str
    volume: str = "normal"


@dataclass(frozen=True, slots=True)
class Show:
    """Put this screen model on the display."""

    screen: Screen


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Deliver a `Tick` at monotonic time `at` (replaces any earlier request); None: sleep until input."""

    at: float | None


@dataclass(frozen=True, slots=True)
class SaveSettings:
    """Remember user choices (duration, volume, language, …) across restarts."""

    settings: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Log:
    """A line for the service log (journald); level is a `logging` level name."""

    message: str
    level: str = "INFO"


@dataclass(frozen=True, slots=True)
class PowerOff:
    """The table asked to switch the appliance off."""


@dataclass(frozen=True, slots=True)
class BeginGame:
    """A table game starts: the journal opens a record for it (beside the appliance's session). A shelved
    game brought back (`resumes`: its `EndGame.shelved` key) continues in a record that holds its lines."""

    game: str
    players: tuple[str, ...]
    resumes: int | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """Append one line to the game's record (`{"event": NAME, ...}`, the `wordtable score` format)."""

    line: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Retract:
    """Take back the latest record line still standing (undo at the table)."""


@dataclass(frozen=True, slots=True)
class EndGame:
    """The table game is over (winner's name(s) for the journal's list; None when abandoned). A game left to
    be resumed (`shelved`: its key on the core's shelf) is archived with that key and not sent to the league."""

    winner: str | None
    shelved: int | None = None


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep `data` (JSON-ready: dicts, lists, texts, numbers, booleans, None) under `name` across restarts
    (e.g. `cards/quiddler`, an enrolled card table; `highscores/perfektes-wort`). The shell writes it to
    the state directory; the core uses it at once, and after a restart the shell delivers every kept item
    as a `Kept` event. `name`: lower-case segments of letters, digits, `.`, `_`, `-`, joined by `/`."""

    name: str
    data: Any


@dataclass(frozen=True, slots=True)
class CheckWords:
    """Ask the word list (the dictionary assist) about these words; the answer comes back as a
    `WordsChecked` event — journaled like any input, so a replay needs no word list. No list: no answer."""

    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Refused:
    """The core refused the input and says why (the text on the screen; "" when the screen says nothing
    more). Beside the error `Beep` that the table hears; the shell may ignore it."""

    reason: str


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The clock tick in hand must be journaled: the alarm sounded, the timer ran `CHECKPOINT_S` since the
    last journaled input, or the tick changed the game record. Other ticks are not journaled."""


@dataclass(frozen=True, slots=True)
class Snapshottable:
    """The state after this step can be snapshotted (`app.can_snapshot`): a journal may start a fresh
    session from it."""


@dataclass(frozen=True, slots=True)
class JournalAs:
    """Journal `event` in place of the input this step took: what the input meant depended on something
    only shown (a pending takeover, `events.ClaimsPending`), so the journal keeps what it meant and a
    replay gives the same state without what was shown."""

    event: Any  # an `events.Event` (the core's events import nothing of its effects)


@dataclass(frozen=True, slots=True)
class SetOwnerPin:
    """Keep `pin` (4–8 digits) as the owner PIN, or remove it (None): the shell stores only a salted slow
    hash of it (`firmware_host.owner_pin`). Never journaled, never shown in a repr."""

    pin: str | None = field(repr=False)


Revealed = tuple[tuple[str, str, int, str, int], ...]  # per player: (player, best, points, own, own points)


@dataclass(frozen=True, slots=True)
class RevealBest:
    """Ask the word list of `language` ("de": Das perfekte Wort, "en": Quiddler) for the best play of
    round `round`: the shell calls `solve` (pure, from `core.games`) with the list as `WordGroups` and
    hands its lines back as a `BestRevealed` event — journaled like any input, so a replay needs no word
    list and the record shows what was revealed. No list: no answer."""

    language: str
    round: int
    solve: Callable[[WordGroups], Revealed] = field(compare=False)


Effect = (
    SetBar | Beep | Show | WakeAt | SaveSettings | Keep | Log | PowerOff | BeginGame | Record | Retract | EndGame
    | CheckWords | RevealBest | Refused | Checkpoint | Snapshottable | JournalAs | SetOwnerPin
)

GAME_EFFECTS = (BeginGame, Record, Retract, EndGame)  # what changes a game's record in the journal
