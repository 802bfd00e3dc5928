"""Zugzeit, the turn timer (a chess clock for 2–8 players): whose turn it is, every player's time, and the
statistics — the rules of its record, on whole milliseconds.

Pure rules core. The table flow (`table`) times each turn on the events' own timestamps and enters it:
    game = new_game(Setup(("Anna", "Ben", "Cem"), "bank", time_ms=300_000, increment_ms=5_000))
    game = apply(game, Turn("Anna", 12_500))   # Anna thought 12.5 s: her bank 300 − 12.5 + 5 s; Ben's turn
    game = apply(game, Skip("Cem"))            # Cem misses his next turn (once)
    game = apply(game, Reverse())              # the order runs the other way round
    game = apply(game, Remove("Ben", 4_000))   # Ben leaves (on turn: with his unfinished turn's 4 s)
    game = apply(game, End(2_000))             # the end; the player on turn had thought 2 s
Modes (`Setup.mode`):
- "limit": a per-turn limit of `time_ms`; past it (`over`) "beep" counts on as over-time, "end" ends the
  turn at the limit (the flow enters that turn with `auto`);
- "bank": each player's time (a chess clock); a bank run out counts on below 0 as over-time;
- "sudden-death": a bank; at 0 the player is out, the others go on, the last one in wins;
- "hourglass": two players; the time one uses runs over to the other; at 0 the player is out.
A Fischer `increment_ms` is added to the bank after each completed turn (not to a player who is out);
with a Bronstein `delay_ms` the first `delay_ms` of each turn do not take from the bank (both: bank modes).
`apply` raises a `ZugzeitError` (a `RuleError`) for an entry the rules refuse; the game is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, TypeVar

from firmware_host.core.games.players import check_players, on_turn, player_index, with_player_texts
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import Table
from firmware_host.core.record_codec import entry
from firmware_host.core.text_input import Name

MIN_PLAYERS, MAX_PLAYERS = 2, 8
MODES = ("limit", "bank", "sudden-death", "hourglass")
BANK_MODES = ("bank", "sudden-death")  # the modes with increments and delays
OVER = ("beep", "end")
IN, OUT, LEFT = "", "out", "left"  # a player's status: in play, time ran out, removed

_T = TypeVar("_T")

TEXTS: Table = with_player_texts({
    "de": {
        "players_count": "Zugzeit braucht 2 bis 8 Spieler, nicht {count}",
        "mode_unknown": "unbekannte Zeitart „{mode}“ (bekannt: {modes})",
        "hourglass_two": "die Sanduhr ist für genau 2 Spieler, nicht {count}",
        "time_range": "die Zeit muss über 0 liegen, nicht {ms} ms",
        "over_unknown": "unbekannte Überzeit „{over}“ (bekannt: beep, end)",
        "extra_negative": "Bonus und Verzögerung dürfen nicht negativ sein",
        "extra_both": "Fischer-Bonus oder Bronstein-Verzögerung – nicht beides",
        "extra_mode": "Bonus und Verzögerung gibt es nur mit Zeitkonto oder K.-o.-Zeit",
        "ms_negative": "eine Zugzeit kann nicht negativ sein ({ms} ms)",
        "game_over": "das Spiel ist schon zu Ende",
        "not_in": "{player} ist nicht mehr im Spiel",
        "skip_current": "{player} ist gerade am Zug",
        "skip_twice": "{player} setzt schon aus",
        "too_few": "mindestens 2 Spieler bleiben im Spiel – sonst das Spiel beenden",
        "remove_ms": "nur der Spieler am Zug hat eine laufende Zugzeit ({player}: {ms} ms)",
        "mode.limit": "Zeit pro Zug {time}",
        "mode.limit_end": "Zeit pro Zug {time}, dann endet der Zug",
        "mode.bank": "Zeitkonto {time}",
        "mode.sudden-death": "K.-o.-Zeit {time}",
        "mode.hourglass": "Sanduhr {time}",
        "increment": "+{time} Fischer-Bonus je Zug",
        "delay": "{time} Bronstein-Verzögerung je Zug",
        "title": "Zugzeit – {count} Spieler: {players}",
        "col.player": "Spieler",
        "col.turns": "Züge",
        "col.total": "Gesamt",
        "col.average": "Ø",
        "col.longest": "Längster",
        "col.over": "Überzeit",
        "col.bank": "Zeitkonto",
        "col.status": "Status",
        "status.out": "Zeit um",
        "status.left": "ausgeschieden",
        "sum": "Zusammen {time} in {turns} Zügen",
        "running": "Das Spiel läuft: {player} ist am Zug",
        "ended": "Spielende",
        "winner": "Gewonnen: {players}",
    },
    "en": {
        "players_count": "Zugzeit needs 2 to 8 players, not {count}",
        "mode_unknown": "unknown timing '{mode}' (known: {modes})",
        "hourglass_two": "the hourglass is for exactly 2 players, not {count}",
        "time_range": "the time must be above 0, not {ms} ms",
        "over_unknown": "unknown over-time '{over}' (known: beep, end)",
        "extra_negative": "increment and delay cannot be negative",
        "extra_both": "a Fischer increment or a Bronstein delay – not both",
        "extra_mode": "increments and delays go with a time bank or sudden death only",
        "ms_negative": "a turn cannot take negative time ({ms} ms)",
        "game_over": "the game is already over",
        "not_in": "{player} is no longer in the game",
        "skip_current": "it is {player}'s turn right now",
        "skip_twice": "{player} already misses the next turn",
        "too_few": "at least 2 players stay in the game – end the game instead",
        "remove_ms": "only the player on turn has a running turn ({player}: {ms} ms)",
        "mode.limit": "{time} per turn",
        "mode.limit_end": "{time} per turn, then the turn ends",
        "mode.bank": "time bank {time}",
        "mode.sudden-death": "sudden death {time}",
        "mode.hourglass": "hourglass {time}",
        "increment": "+{time} Fischer increment per turn",
        "delay": "{time} Bronstein delay per turn",
        "title": "Zugzeit – {count} players: {players}",
        "col.player": "Player",
        "col.turns": "Turns",
        "col.total": "Total",
        "col.average": "Avg",
        "col.longest": "Longest",
        "col.over": "Over-time",
        "col.bank": "Bank",
        "col.status": "Status",
        "status.out": "time up",
        "status.left": "left",
        "sum": "Together {time} in {turns} turns",
        "running": "The game is running: {player} to play",
        "ended": "Game over",
        "winner": "Winner: {players}",
    },
})


class ZugzeitError(RuleError):
    """An entry the turn timer's rules refuse."""

    TEXTS: ClassVar[Table] = TEXTS


# --- events --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    """The players in turn order (the first starts) and the timing."""

    EVENT: ClassVar[str] = "setup"
    players: tuple[Name, ...]
    mode: str
    time_ms: int  # the per-turn limit ("limit"), else each player's starting bank
    over: str = entry("beep", omit=True)  # "limit": beep (count on) | end (the turn ends at the limit)
    increment_ms: int = entry(0, omit=True)  # Fischer
    delay_ms: int = entry(0, omit=True)  # Bronstein


@dataclass(frozen=True, slots=True)
class Turn:
    """The player on turn ends the turn after thinking `ms`; `auto`: the clock ended it (limit "end", or
    the player's time ran out)."""

    EVENT: ClassVar[str] = "turn"
    player: Name
    ms: int
    auto: bool = entry(False, omit=True)


@dataclass(frozen=True, slots=True)
class Skip:
    """The player (not on turn) misses their next turn."""

    EVENT: ClassVar[str] = "skip"
    player: Name


@dataclass(frozen=True, slots=True)
class Remove:
    """The player leaves the game; the player on turn with the `ms` of their unfinished turn."""

    EVENT: ClassVar[str] = "remove"
    player: Name
    ms: int = entry(0, omit=True)


@dataclass(frozen=True, slots=True)
class Reverse:
    """The turn order runs the other way round from now on."""

    EVENT: ClassVar[str] = "reverse"


@dataclass(frozen=True, slots=True)
class End:
    """The table ends the game; the player on turn had thought `ms` in the unfinished turn."""

    EVENT: ClassVar[str] = "end"
    ms: int = entry(0, omit=True)


Event = Turn | Skip | Remove | Reverse | End


# --- state ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's turns: how many, their total, the longest, and the time past the limit or the bank."""

    turns: int = 0
    total_ms: int = 0
    longest_ms: int = 0
    over_ms: int = 0

    @property
    def average_ms(self) -> int:
        return round(self.total_ms / self.turns) if self.turns else 0

    def add(self, ms: int, over_ms: int) -> PlayerStats:
        return PlayerStats(self.turns + 1, self.total_ms + ms, max(self.longest_ms, ms), self.over_ms + over_ms)


@dataclass(frozen=True, slots=True)
class Game:
    """`banks`: each player's time left in ms (bank modes and the hourglass; below 0: over-time);
    `current`: the index of the player on turn; `status`: IN, OUT or LEFT per player; `skipping`: who
    misses their next turn; `direction`: +1 in seat order, −1 the other way round."""

    setup: Setup
    banks: tuple[int, ...]
    stats: tuple[PlayerStats, ...]
    status: tuple[str, ...]
    skipping: tuple[bool, ...]
    current: int = 0
    direction: int = 1
    ended: bool = False

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def on_turn(self) -> str:
        return self.players[self.current]

    @property
    def active(self) -> tuple[str, ...]:
        return tuple(p for p, s in zip(self.players, self.status, strict=True) if s == IN)

    @property
    def winners(self) -> tuple[str, ...]:
        """The players still in when someone's time ran out (sudden death, hourglass); else none."""
        return self.active if OUT in self.status else ()

    def allowed_ms(self, index: int | None = None) -> int:
        """How long the player (default: the one on turn) may think in a turn before their time is up:
        the limit, or the bank plus the Bronstein delay (at or below 0: in over-time already)."""
        i = self.current if index is None else index
        s = self.setup
        if s.mode == "limit":
            return s.time_ms
        return self.banks[i] + s.delay_ms

    def upcoming(self) -> int:
        """The index of the player whose turn comes next (skips honoured, none consumed)."""
        return _advance(self).current

    @property
    def turns(self) -> int:
        return sum(s.turns for s in self.stats)


# --- rules ---------------------------------------------------------------------------------------------


def new_game(setup: Setup) -> Game:
    """The game at its start. Raises `ZugzeitError` for a setup the rules refuse."""
    players = setup.players
    check_players(players, ZugzeitError, least=MIN_PLAYERS, most=MAX_PLAYERS)
    if setup.mode not in MODES:
        raise ZugzeitError("mode_unknown", mode=setup.mode, modes=", ".join(MODES))
    if setup.mode == "hourglass" and len(players) != 2:
        raise ZugzeitError("hourglass_two", count=len(players))
    if setup.time_ms <= 0:
        raise ZugzeitError("time_range", ms=setup.time_ms)
    if setup.over not in OVER:
        raise ZugzeitError("over_unknown", over=setup.over)
    if setup.increment_ms < 0 or setup.delay_ms < 0:
        raise ZugzeitError("extra_negative")
    if setup.increment_ms and setup.delay_ms:
        raise ZugzeitError("extra_both")
    if (setup.increment_ms or setup.delay_ms) and setup.mode not in BANK_MODES:
        raise ZugzeitError("extra_mode")
    n = len(players)
    bank = 0 if setup.mode == "limit" else setup.time_ms
    return Game(setup, (bank,) * n, (PlayerStats(),) * n, (IN,) * n, (False,) * n)


def apply(game: Game, event: Event) -> Game:
    """The game after `event`. Raises `ZugzeitError` when the rules refuse it; `game` is unchanged."""
    if game.ended:
        raise ZugzeitError("game_over")
    match event:
        case Turn():
            on_turn(game.players, game.current, event.player, ZugzeitError)
            return _after_turn(_charge(game, event.ms, completed=True))
        case Skip():
            i = _in_play(game, event.player)
            if i == game.current:
                raise ZugzeitError("skip_current", player=game.players[i])
            if game.skipping[i]:
                raise ZugzeitError("skip_twice", player=game.players[i])
            return replace(game, skipping=_set(game.skipping, i, True))
        case Remove():
            i = _in_play(game, event.player)
            if len(game.active) <= MIN_PLAYERS:
                raise ZugzeitError("too_few")
            if i != game.current:
                if event.ms:
                    raise ZugzeitError("remove_ms", player=game.players[i], ms=event.ms)
                return replace(game, status=_set(game.status, i, LEFT), skipping=_set(game.skipping, i, False))
            charged = _charge(game, event.ms, completed=False)
            return _advance(replace(charged, status=_set(charged.status, i, LEFT)))
        case Reverse():
            return replace(game, direction=-game.direction)
        case End():
            return replace(_charge(game, event.ms, completed=False), ended=True)
    raise TypeError(f"not a Zugzeit event: {event!r}")


def over_ms(game: Game, ms: int) -> int:
    """How much of a turn of `ms` by the player on turn lies past their limit or bank."""
    s = game.setup
    if s.mode == "limit":
        return max(0, ms - s.time_ms)
    before = game.banks[game.current]
    return max(0, ms - (s.delay_ms if s.mode in BANK_MODES else 0) - max(0, before))


def _charge(game: Game, ms: int, *, completed: bool) -> Game:
    """The player on turn's `ms` taken from their time and added to their statistics (an unfinished turn
    counts when it took any time); a completed one earns the increment unless the player is out now."""
    if ms < 0:
        raise ZugzeitError("ms_negative", ms=ms)
    i, s = game.current, game.setup
    if not completed and ms == 0:
        return game
    stats = _set(game.stats, i, game.stats[i].add(ms, over_ms(game, ms)))
    banks, status = list(game.banks), game.status
    if s.mode == "hourglass":
        moved = min(ms, max(0, banks[i]))  # the sand that ran through, to the other side
        banks[i] -= moved
        banks[1 - i] += moved
        if banks[i] <= 0:
            status = _set(status, i, OUT)
    elif s.mode in BANK_MODES:
        banks[i] -= max(0, ms - s.delay_ms)
        if s.mode == "sudden-death" and banks[i] <= 0:
            status = _set(status, i, OUT)
        elif completed:
            banks[i] += s.increment_ms
    return replace(game, banks=tuple(banks), stats=stats, status=status)


def _after_turn(game: Game) -> Game:
    """The turn passes on; when one player is left in, the game is over."""
    if len(game.active) <= 1:
        return replace(game, ended=True)
    return _advance(game)


def _advance(game: Game) -> Game:
    """The next player in play in the current direction takes the turn; a player who is to miss it
    misses it (once)."""
    n = len(game.players)
    i, skipping = game.current, list(game.skipping)
    for _ in range(2 * n):
        i = (i + game.direction) % n
        if game.status[i] != IN:
            continue
        if skipping[i]:
            skipping[i] = False
            continue
        return replace(game, current=i, skipping=tuple(skipping))
    return game


def _in_play(game: Game, name: str) -> int:
    i = player_index(game.players, name, ZugzeitError)
    if game.status[i] != IN:
        raise ZugzeitError("not_in", player=game.players[i])
    return i


def _set(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*values[:index], value, *values[index + 1 :])
