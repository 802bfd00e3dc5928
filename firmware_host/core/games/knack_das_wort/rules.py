"""Knack das Wort (RULES.md §4, ruling K1): turn order, written words, action cards, the end, the ranking.

Pure rules core. Drive it event by event:
    game = new_game(Setup(("Anna", "Ben", "Cem")))     # turn order; game.current is whose turn it is
    game = apply(game, WriteWord("Anna", word="HAUS"))  # 1 point per letter; the turn passes on
    game = apply(game, PlayAction("Ben", "Stop"))       # during Ben's turn: the next player skips
    game = apply(game, Draw("Ben"))                     # Ben ends his turn without a word
    game = apply(game, GoOut("Anna"))                   # no hand or stack cards: +10 to the first
    game = apply(game, ReportEnd("grid"))               # or "discard"; 50 points ends it by itself
    game = apply(game, CardsLeft("Ben", 3))             # after the end, per player: −1 per card
    standings = score(game)
`apply` raises a `KnackError` (a `RuleError`): `TurnError` for an entry out of turn, `GameOverError`
for a play after the end, `KnackError` for anything else the rules refuse.
A turn ends with a word or a draw (drawing or passing); action cards are played within a turn and set a
task for the next player only (Stop: that player skips their turn).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import ClassVar

from firmware_host.core.chain import Chain
from firmware_host.core.games.players import check_players, folded, on_turn, player_index, with_player_texts
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import Table, pick
from firmware_host.core.record_codec import entry
from firmware_host.core.text_input import WORD, Name, Word

MIN_PLAYERS = 2
TARGET = 50  # reaching this many points ends the game
OUT_BONUS = 10  # to the first player who has no hand and no personal-stack cards left
STOP = "stop"
MAX_LETTERS = WORD.limit  # a word's letters: at most the longest word the table takes (32)
MAX_LEFT = 99  # cards left at the end: a two-digit count
END_REASONS = ("discard", "grid")  # reported by the table; "target" is detected by the core

TEXTS: Table = with_player_texts({
    "de": {
        "players_count": "Knack das Wort braucht mindestens 2 Spieler, nicht {count}",
        "game_over": "das Spiel ist schon zu Ende ({reason})",
        "no_letters": "ein Wort braucht mindestens einen Buchstaben ({player})",
        "word_missing": "das geschriebene Wort ('word') oder seine Anzahl Buchstaben ('letters') fehlt",
        "letters_exceed": "„{word}“ hat nur {count} Buchstaben, nicht {letters}",
        "letters_range": "ein Wort hat höchstens {most} Buchstaben, nicht {letters}",
        "card_blank": "welche Aktionskarte? Der Name der Karte ist leer",
        "out_already": "{player} hat schon alle Karten abgelegt",
        "end_reason": "unbekanntes Spielende „{reason}“ (bekannt: discard, grid)",
        "not_over": "Restkarten werden erst nach dem Spielende gezählt",
        "left_negative": "{player} kann nicht {cards} Karten übrig haben",
        "left_range": "{player}: höchstens {most} Restkarten, nicht {cards}",
        "left_twice": "die Restkarten von {player} sind schon gezählt ({cards})",
        "reason.discard": "Ablagestapel aufgebraucht",
        "reason.grid": "kein Platz mehr in der Tabelle",
        "reason.target": "{player} hat {points} Punkte erreicht",
        "title": "Knack das Wort – {count} Spieler: {players}",
        "col.turn": "Zug",
        "col.player": "Spieler",
        "col.entry": "Eintrag",
        "col.points": "Punkte",
        "col.sum": "Stand",
        "col.rank": "Platz",
        "col.letters": "Buchstaben",
        "col.bonus": "Bonus",
        "col.left": "Restkarten",
        "entry.draw": "zieht / passt",
        "entry.skip": "setzt aus (Stop)",
        "entry.out": "keine Karten mehr",
        "entry.tasks": "(Aufgabe: {tasks})",
        "end": "Spielende: {reason}",
        "running": "Das Spiel läuft: {player} ist am Zug",
        "missing_left": "Restkarten fehlen: {players}",
        "winner": "Gewonnen: {players}",
        "leader": "Vorn: {players}",
    },
    "en": {
        "players_count": "Knack das Wort needs at least 2 players, not {count}",
        "game_over": "the game is already over ({reason})",
        "no_letters": "a word needs at least one letter ({player})",
        "word_missing": "give the 'word' written or its number of 'letters'",
        "letters_exceed": "'{word}' has only {count} letters, not {letters}",
        "letters_range": "a word has at most {most} letters, not {letters}",
        "card_blank": "which action card? The card's name is empty",
        "out_already": "{player} has already got rid of all cards",
        "end_reason": "unknown end '{reason}' (known: discard, grid)",
        "not_over": "cards left are counted only after the game has ended",
        "left_negative": "{player} cannot have {cards} cards left",
        "left_range": "{player}: at most {most} cards left, not {cards}",
        "left_twice": "{player}'s cards left are already counted ({cards})",
        "reason.discard": "discard pile used up",
        "reason.grid": "no space left in the grid",
        "reason.target": "{player} reached {points} points",
        "title": "Knack das Wort – {count} players: {players}",
        "col.turn": "Turn",
        "col.player": "Player",
        "col.entry": "Entry",
        "col.points": "Points",
        "col.sum": "Score",
        "col.rank": "Rank",
        "col.letters": "Letters",
        "col.bonus": "Bonus",
        "col.left": "Cards left",
        "entry.draw": "draws / passes",
        "entry.skip": "skips (Stop)",
        "entry.out": "no cards left",
        "entry.tasks": "(task: {tasks})",
        "end": "Game over: {reason}",
        "running": "The game is running: {player} to play",
        "missing_left": "cards left missing: {players}",
        "winner": "Winner: {players}",
        "leader": "Leading: {players}",
    },
})


class KnackError(RuleError):
    """An entry the Knack das Wort rules refuse."""

    TEXTS: ClassVar[Table] = TEXTS


class TurnError(KnackError):
    """A play by a player whose turn it is not."""


class GameOverError(KnackError):
    """A play entered after the game has ended; the text says how it ended."""

    def __init__(self, game: Game) -> None:
        self.game = game
        super().__init__("game_over")

    def text(self, lang: str) -> str:
        return pick(TEXTS, lang, "game_over", reason=end_reason(self.game, lang))


# --- events --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    EVENT: ClassVar[str] = "setup"

    players: tuple[Name, ...]  # in turn order; the first one starts


@dataclass(frozen=True, slots=True)
class WriteWord:
    """The current player writes a word and ends the turn. Points: `letters` if given (the count the
    table agreed), else the letters of `word` (Ä, Ö, Ü, ß are one letter each)."""

    EVENT: ClassVar[str] = "word"
    player: Name
    word: Word = entry("", omit=True)
    letters: int | None = entry(None, schema={"type": "integer", "minimum": 1, "maximum": MAX_LETTERS})


@dataclass(frozen=True, slots=True)
class Draw:
    """The current player ends the turn without a word (drew cards or passed)."""

    EVENT: ClassVar[str] = "draw"
    player: Name


@dataclass(frozen=True, slots=True)
class PlayAction:
    """The current player plays an action card; it sets a task for the next player only."""

    EVENT: ClassVar[str] = "action"
    player: Name
    card: Word


@dataclass(frozen=True, slots=True)
class GoOut:
    """The player has no hand and no personal-stack cards left; the first to do so gets +10."""

    EVENT: ClassVar[str] = "out"
    player: Name


@dataclass(frozen=True, slots=True)
class ReportEnd:
    """The table reports an end condition: "discard" (discard pile used up) or "grid" (grid full)."""

    EVENT: ClassVar[str] = "end"
    reason: str = entry(schema={"enum": list(END_REASONS)})


@dataclass(frozen=True, slots=True)
class CardsLeft:
    """After the end: how many cards (hand and personal stack) the player still holds."""

    EVENT: ClassVar[str] = "left"
    player: Name
    cards: int = entry(schema={"type": "integer", "minimum": 0, "maximum": MAX_LEFT})


Event = WriteWord | Draw | PlayAction | GoOut | ReportEnd | CardsLeft


# --- state ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the game's log. `kind`: "word", "draw", "skip" (Stop) or "out"."""

    player: str
    kind: str
    points: int = 0
    word: str = ""
    cards: tuple[str, ...] = ()  # action cards played in this turn
    tasks: tuple[str, ...] = ()  # tasks the previous player set for this turn


@dataclass(frozen=True, slots=True)
class Game:
    players: tuple[str, ...]
    turn: int = 0  # index of the player whose turn it is
    log: Chain[Entry] = field(default_factory=Chain)  # grows without copying: a long game stays linear
    cards: tuple[str, ...] = ()  # action cards the current player has played this turn
    tasks: tuple[str, ...] = ()  # tasks the previous player set for this turn
    end: str | None = None  # "discard", "grid" or "target"
    left: tuple[tuple[str, int], ...] = ()  # cards left per player, entered after the end
    scores: tuple[int, ...] = ()  # per player (as `players`): the sum of their log entries' points
    gone_out: tuple[str, ...] = ()  # the players who have gone out, the first first

    def points(self, player: str) -> int:
        """Points so far, before the leftover deduction: letters written plus the going-out bonus."""
        return self.scores[self.players.index(player)] if self.scores else 0

    @property
    def current(self) -> str:
        return self.players[self.turn]

    @property
    def turns(self) -> int:
        """Turns taken so far (words, draws and skips; not the going-out lines)."""
        return len(self.log) - len(self.gone_out)

    def cards_left(self, player: str) -> int | None:
        return next((n for p, n in self.left if p == player), None)

    @property
    def first_out(self) -> str | None:
        return self.gone_out[0] if self.gone_out else None

    @property
    def reached(self) -> str | None:
        """The player whose points ended the game (end "target")."""
        if self.end != "target":
            return None
        return next((p for p in self.players if self.points(p) >= TARGET), None)

    def logged(self, entry: Entry) -> Game:
        """This game with `entry` at the end of its log and its points counted."""
        scores = list(self.scores or (0,) * len(self.players))
        scores[self.players.index(entry.player)] += entry.points
        return replace(self, log=self.log.add(entry), scores=tuple(scores))


def letter_count(word: str) -> int:
    """Letters in a written word: ÄÖÜß count one each; spaces, hyphens and digits do not count."""
    return len(re.findall(r"[^\W\d_]", word))


def new_game(setup: Setup) -> Game:
    check_players(setup.players, KnackError, least=MIN_PLAYERS)
    return Game(players=tuple(setup.players))


def apply(game: Game, event: Event) -> Game:
    """The game after `event`. Raises a `KnackError` when the rules refuse it; `game` is unchanged."""
    if isinstance(event, CardsLeft):
        return _cards_left(game, event)
    if game.end is not None:
        raise GameOverError(game)
    match event:
        case WriteWord():
            if not event.word and event.letters is None:
                raise KnackError("word_missing")
            player = _on_turn(game, event.player)
            count = letter_count(event.word)
            letters = count if event.letters is None else event.letters
            if letters < 1:
                raise KnackError("no_letters", player=player)
            if letters > MAX_LETTERS:
                raise KnackError("letters_range", most=MAX_LETTERS, letters=letters)
            if event.word and letters > count:
                raise KnackError("letters_exceed", word=event.word, count=count, letters=letters)
            entry = Entry(player, "word", letters, event.word.strip(), game.cards, game.tasks)
            return _check_target(_next_turn(game, entry))
        case Draw():
            player = _on_turn(game, event.player)
            return _next_turn(game, Entry(player, "draw", 0, "", game.cards, game.tasks))
        case PlayAction():
            player = _on_turn(game, event.player)
            if not event.card.strip():
                raise KnackError("card_blank")
            return replace(game, cards=(*game.cards, event.card.strip()))
        case GoOut():
            player = _player(game, event.player)
            if player in game.gone_out:
                raise KnackError("out_already", player=player)
            bonus = OUT_BONUS if game.first_out is None else 0
            gone = replace(game, gone_out=(*game.gone_out, player))
            return _check_target(gone.logged(Entry(player, "out", bonus)))
        case ReportEnd():
            if event.reason not in END_REASONS:
                raise KnackError("end_reason", reason=event.reason)
            return replace(game, end=event.reason)
    raise TypeError(f"not a Knack das Wort event: {event!r}")


def _player(game: Game, name: str) -> str:
    return game.players[player_index(game.players, name, KnackError)]


def _on_turn(game: Game, name: str) -> str:
    return game.players[on_turn(game.players, game.turn, name, KnackError, TurnError)]


def _next_turn(game: Game, entry: Entry) -> Game:
    """Log the finished turn and pass it on; a Stop among its cards makes the next player skip."""
    game = game.logged(entry)
    following = (game.turn + 1) % len(game.players)
    tasks = tuple(card for card in entry.cards if folded(card) != STOP)
    if len(tasks) < len(entry.cards):
        game = game.logged(Entry(game.players[following], "skip"))
        following = (following + 1) % len(game.players)
        tasks = ()  # the skipped player was the only one the cards affected
    return replace(game, turn=following, cards=(), tasks=tasks)


def _check_target(game: Game) -> Game:
    return replace(game, end="target") if any(game.points(p) >= TARGET for p in game.players) else game


def _cards_left(game: Game, event: CardsLeft) -> Game:
    player = _player(game, event.player)
    if game.end is None:
        raise KnackError("not_over")
    if event.cards < 0:
        raise KnackError("left_negative", player=player, cards=event.cards)
    if event.cards > MAX_LEFT:
        raise KnackError("left_range", player=player, most=MAX_LEFT, cards=event.cards)
    counted = game.cards_left(player)
    if counted is not None:
        raise KnackError("left_twice", player=player, cards=counted)
    return replace(game, left=(*game.left, (player, event.cards)))


def end_reason(game: Game, lang: str) -> str:
    if game.end == "target":
        player = game.reached or ""
        return pick(TEXTS, lang, "reason.target", player=player, points=game.points(player))
    return pick(TEXTS, lang, f"reason.{game.end}")


# --- scoring -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerScore:
    player: str
    letters: int  # 1 point per letter written
    bonus: int  # OUT_BONUS for the first player without cards, else 0
    left: int | None  # cards left at the end (None: not entered yet)
    points: int  # letters + bonus − left
    rank: int  # 1 = best; tied players share a rank (1, 1, 3)


@dataclass(frozen=True, slots=True)
class Standings:
    players: tuple[PlayerScore, ...]  # best first; ties keep the turn order
    over: bool  # the game has ended
    final: bool  # ended and every player's cards left are entered

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.players if s.rank == 1)


def score(game: Game) -> Standings:
    """Points per player (letters written + going-out bonus − cards left) and the ranking."""
    rows = []
    bonuses = {player: 0 for player in game.players}
    for e in game.log:
        if e.kind == "out":
            bonuses[e.player] += e.points
    for player in game.players:
        bonus = bonuses[player]
        letters = game.points(player) - bonus
        left = game.cards_left(player)
        rows.append((player, letters, bonus, left, letters + bonus - (left or 0)))
    rows.sort(key=lambda row: -row[4])
    ranked = tuple(PlayerScore(*row, rank=1 + sum(1 for other in rows if other[4] > row[4])) for row in rows)
    over = game.end is not None
    return Standings(ranked, over, over and all(s.left is not None for s in ranked))
