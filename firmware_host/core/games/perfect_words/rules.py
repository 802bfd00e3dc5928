"""Perfect Words (RULES.md §3, rulings P1–P3): the cooperative crossword-and-terms game, scored.

Pure rules core. Drive it event by event:
    game = new_game(Setup(("Anna", "Ben", "Cem")))
    game = apply(game, PlaceArrow(1, "row 3", ("Dschungel", "Piraten")))    # optional phase-1 helper
    game = apply(game, WriteTerm("Anna", 1, "Affe"))                         # phase 2, any order
    game = apply(game, Choose(double=4, ignore=7)); game = apply(game, Reveal())
    game = apply(game, Merge(4, ("Hund", "Hunde")))                          # the table's judgement
    standing = scoring.score(game)                                           # per arrow, total, rank
`apply` raises `PerfectWordsError` (a `RuleError`) with an explained message for an entry the rules refuse.
`grid_status(game)` tells whether phase 1 is complete; `clues.clue_warnings(game)` lists the terms the table
should look at (P2: a term sharing 4+ letters with a clue word of its arrow — a warning, not a rejection).
Order of a game: setup → arrows/clues (optional) → terms and the choice (any order) → reveal → merges and
strikes; terms may still be entered after the reveal (the table reads them out).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import ClassVar

from firmware_host.core.chain import Chain
from firmware_host.core.games.players import check_players, player_index, with_player_texts
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import Table
from firmware_host.core.record_codec import entry
from firmware_host.core.text_input import Label, Name, Word

ARROWS = 10
MIN_PLAYERS, MAX_PLAYERS = 2, 6
SHARED_LETTERS = 4  # P2: a term sharing this many letters in a row with a clue word is flagged
MIN_LINE_WORDS = 2  # phase 1: every arrow must point at a line of at least this many words

TEXTS: Table = with_player_texts({
    "de": {
        "players_count": "Perfect Words braucht 2 bis 6 Spieler, nicht {count}",
        "arrow_range": "Pfeil {arrow} gibt es nicht: die Pfeile sind 1 bis 10",
        "arrows_all_placed": "alle zehn Pfeile liegen schon",
        "arrow_order": "als Nächstes wird Pfeil {expected} gelegt, nicht Pfeil {arrow}",
        "line_taken": "an der Reihe/Spalte {line} liegt schon Pfeil {other}",
        "arrow_not_placed": "Pfeil {arrow} liegt noch nicht",
        "phase1_over": "das Gitter ist fertig: Phase 2 (Begriffe) hat begonnen",
        "grid_incomplete": "das Gitter ist nicht komplett: {placed} von 10 Pfeilen gelegt, "
        "an weniger als 2 Wörtern: {short}",
        "term_blank": "der Begriff von {player} für Pfeil {arrow} ist leer",
        "term_twice_arrow": "{player} hat für Pfeil {arrow} schon einen Begriff: „{term}“",
        "term_repeated": "{player} hat „{term}“ schon für Pfeil {other}",
        "choose_same": "der verdoppelte und der ignorierte Pfeil müssen verschieden sein (beide {arrow})",
        "chosen_already": "verdoppelt ({double}) und ignoriert ({ignore}) sind schon gewählt",
        "choose_after_reveal": "verdoppelt und ignoriert werden vor dem Aufdecken gewählt",
        "reveal_unchosen": "vor dem Aufdecken einen Pfeil zum Verdoppeln und einen zum Ignorieren wählen",
        "revealed_already": "die Begriffe sind schon aufgedeckt",
        "merge_before_reveal": "Gruppen werden erst nach dem Aufdecken zusammengelegt",
        "merge_few": "zum Zusammenlegen braucht es mindestens zwei verschiedene Begriffe von Pfeil {arrow}",
        "merge_unknown": "niemand hat „{term}“ für Pfeil {arrow} geschrieben",
        "strike_missing": "{player} hat keinen Begriff für Pfeil {arrow}",
        "struck_already": "der Begriff von {player} für Pfeil {arrow} ist schon gestrichen",
        "rank.bronze": "Bronze",
        "rank.silver": "Silber",
        "rank.gold": "Gold",
        "rank.great": "Großartig!",
        "rank.incredible": "Unglaublich!",
        "rank.masters": "Perfekte Meister!",
        "rank.none": "kein Rang (unter 6 Punkten)",
        "title": "Perfect Words – {count} Spieler: {players}",
        "col.arrow": "Pfeil",
        "col.clues": "Hinweise",
        "col.same": "gleich",
        "col.points": "Punkte",
        "legend": "×2 verdoppelt, – ignoriert, [..] gestrichen",
        "merged": "zusammengelegt: Pfeil {arrow}: {terms}",
        "warning": "Hinweis an den Tisch: {player}, Pfeil {arrow}: „{term}“ teilt „{shared}“ mit „{clue}“",
        "unchosen": "verdoppelter und ignorierter Pfeil noch nicht gewählt",
        "total": "Summe: {total} Punkte – Rang: {rank}",
        "provisional": "Noch nicht aufgedeckt: vorläufige Wertung",
    },
    "en": {
        "players_count": "Perfect Words needs 2 to 6 players, not {count}",
        "arrow_range": "there is no arrow {arrow}: arrows are numbered 1 to 10",
        "arrows_all_placed": "all ten arrows are placed already",
        "arrow_order": "the next arrow to place is arrow {expected}, not arrow {arrow}",
        "line_taken": "line {line} already has arrow {other}",
        "arrow_not_placed": "arrow {arrow} has not been placed yet",
        "phase1_over": "the grid is finished: phase 2 (writing terms) has begun",
        "grid_incomplete": "the grid is not complete: {placed} of 10 arrows placed, "
        "on fewer than 2 words: {short}",
        "term_blank": "{player}'s term for arrow {arrow} is empty",
        "term_twice_arrow": "{player} already has a term for arrow {arrow}: '{term}'",
        "term_repeated": "{player} already wrote '{term}' for arrow {other}",
        "choose_same": "the doubled and the ignored arrow must be different (both are {arrow})",
        "chosen_already": "the doubled ({double}) and the ignored ({ignore}) arrow are already chosen",
        "choose_after_reveal": "the doubled and the ignored arrow are chosen before the reveal",
        "reveal_unchosen": "choose the doubled and the ignored arrow before the reveal",
        "revealed_already": "the terms are already revealed",
        "merge_before_reveal": "groups can be merged only after the reveal",
        "merge_few": "a merge needs at least two different terms of arrow {arrow}",
        "merge_unknown": "nobody wrote '{term}' for arrow {arrow}",
        "strike_missing": "{player} has no term for arrow {arrow}",
        "struck_already": "{player}'s term for arrow {arrow} is already struck",
        "rank.bronze": "Bronze",
        "rank.silver": "Silver",
        "rank.gold": "Gold",
        "rank.great": "Amazing!",
        "rank.incredible": "Incredible!",
        "rank.masters": "Perfect Masters!",
        "rank.none": "no rank (below 6 points)",
        "title": "Perfect Words – {count} players: {players}",
        "col.arrow": "Arrow",
        "col.clues": "Clues",
        "col.same": "same",
        "col.points": "Points",
        "legend": "×2 doubled, – ignored, [..] struck",
        "merged": "merged: arrow {arrow}: {terms}",
        "warning": "For the table: {player}, arrow {arrow}: '{term}' shares '{shared}' with '{clue}'",
        "unchosen": "doubled and ignored arrow not chosen yet",
        "total": "Total: {total} points – rank: {rank}",
        "provisional": "Not revealed yet: a provisional score",
    },
})


class PerfectWordsError(RuleError):
    """An entry the Perfect Words rules refuse."""

    TEXTS: ClassVar[Table] = TEXTS


# --- events (what the table enters) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    EVENT: ClassVar[str] = "setup"

    players: tuple[Name, ...]


@dataclass(frozen=True, slots=True)
class PlaceArrow:
    """Phase 1: arrow `arrow` (placed in order 1…10) points at `line`, whose tiles are `clues`."""

    EVENT: ClassVar[str] = "arrow"

    arrow: int
    line: Label = entry("", omit=True)
    clues: tuple[Word, ...] = ()


@dataclass(frozen=True, slots=True)
class SetClues:
    """Phase 1: the line of a placed arrow now holds these tiles (a tile was added to it)."""

    EVENT: ClassVar[str] = "clues"

    arrow: int
    clues: tuple[Word, ...]


@dataclass(frozen=True, slots=True)
class WriteTerm:
    EVENT: ClassVar[str] = "term"

    player: Name
    arrow: int
    term: Word


@dataclass(frozen=True, slots=True)
class Choose:
    EVENT: ClassVar[str] = "choose"

    double: int
    ignore: int


@dataclass(frozen=True, slots=True)
class Reveal:
    EVENT: ClassVar[str] = "reveal"


@dataclass(frozen=True, slots=True)
class Merge:
    """The table judges these terms of one arrow the same (plural, spelling): their groups join (P1)."""

    EVENT: ClassVar[str] = "merge"

    arrow: int
    terms: tuple[Word, ...]


@dataclass(frozen=True, slots=True)
class Strike:
    """The table rules a player's term out (it shares parts with a clue word): it joins no group."""

    EVENT: ClassVar[str] = "strike"

    player: Name
    arrow: int


Event = PlaceArrow | SetClues | WriteTerm | Choose | Reveal | Merge | Strike


# --- state ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArrowLine:
    arrow: int
    line: str
    clues: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Term:
    player: str
    arrow: int
    text: str  # as written; `normalise(text)` decides equality

    @property
    def key(self) -> str:
        return normalise(self.text)


@dataclass(frozen=True, slots=True)
class Game:
    players: tuple[str, ...]
    lines: tuple[ArrowLine, ...] = ()  # phase 1, in arrow order (empty when phase 1 is not recorded)
    terms: tuple[Term, ...] = ()
    struck: frozenset[tuple[str, int]] = frozenset()
    double: int | None = None
    ignore: int | None = None
    revealed: bool = False
    merges: Chain[Merge] = field(default_factory=Chain)  # grows without copying: any number of merges

    @property
    def writing(self) -> bool:
        """Phase 2 has begun (a term, the choice or the reveal was entered): the grid is fixed."""
        return bool(self.terms) or self.double is not None or self.revealed

    def clues(self, arrow: int) -> tuple[str, ...]:
        return next((line.clues for line in self.lines if line.arrow == arrow), ())

    def term(self, player: str, arrow: int) -> Term | None:
        return next((t for t in self.terms if t.player == player and t.arrow == arrow), None)


# --- pure helpers --------------------------------------------------------------------------------------


def normalise(term: str) -> str:
    """P1: the form in which two terms are "the same": trimmed, case-folded, inner white space collapsed."""
    folded = unicodedata.normalize("NFC", term).casefold()
    return unicodedata.normalize("NFC", " ".join(folded.split()))


@dataclass(frozen=True, slots=True)
class GridStatus:
    """Phase 1 by the rule: complete when arrow 10 is placed and every arrow points at ≥ 2 words."""

    placed: int
    short: tuple[int, ...]  # arrows whose line has fewer than 2 words

    @property
    def complete(self) -> bool:
        return self.placed == ARROWS and not self.short


def grid_status(game: Game) -> GridStatus:
    short = tuple(line.arrow for line in game.lines if len(line.clues) < MIN_LINE_WORDS)
    return GridStatus(len(game.lines), short)


# --- applying events -----------------------------------------------------------------------------------


def new_game(setup: Setup) -> Game:
    check_players(setup.players, PerfectWordsError, least=MIN_PLAYERS, most=MAX_PLAYERS, key=normalise)
    return Game(players=tuple(setup.players))


def apply(game: Game, event: Event) -> Game:
    """The game after `event`. Raises `PerfectWordsError` when the rules refuse it; `game` is unchanged."""
    match event:
        case PlaceArrow():
            return _place_arrow(game, event)
        case SetClues():
            _check_phase1(game)
            if not any(line.arrow == event.arrow for line in game.lines):
                raise PerfectWordsError("arrow_not_placed", arrow=_arrow(event.arrow))
            lines = (replace(ln, clues=event.clues) if ln.arrow == event.arrow else ln for ln in game.lines)
            return replace(game, lines=tuple(lines))
        case WriteTerm():
            return _write_term(game, event)
        case Choose():
            _start_phase2(game)
            if game.revealed:
                raise PerfectWordsError("choose_after_reveal")
            if game.double is not None:
                raise PerfectWordsError("chosen_already", double=game.double, ignore=game.ignore)
            double, ignore = _arrow(event.double), _arrow(event.ignore)
            if double == ignore:
                raise PerfectWordsError("choose_same", arrow=double)
            return replace(game, double=double, ignore=ignore)
        case Reveal():
            if game.revealed:
                raise PerfectWordsError("revealed_already")
            if game.double is None:
                raise PerfectWordsError("reveal_unchosen")
            return replace(game, revealed=True)
        case Merge():
            return _merge(game, event)
        case Strike():
            player, arrow = _player(game, event.player), _arrow(event.arrow)
            if game.term(player, arrow) is None:
                raise PerfectWordsError("strike_missing", player=player, arrow=arrow)
            if (player, arrow) in game.struck:
                raise PerfectWordsError("struck_already", player=player, arrow=arrow)
            return replace(game, struck=game.struck | {(player, arrow)})
    raise TypeError(f"not a Perfect Words event: {event!r}")


def _arrow(arrow: int) -> int:
    if not 1 <= arrow <= ARROWS:
        raise PerfectWordsError("arrow_range", arrow=arrow)
    return arrow


def _player(game: Game, name: str) -> str:
    return game.players[player_index(game.players, name, PerfectWordsError, normalise)]


def _check_phase1(game: Game) -> None:
    if game.writing:
        raise PerfectWordsError("phase1_over")


def _start_phase2(game: Game) -> None:
    """Phase 2 may begin only on a complete grid, when phase 1 was recorded at all."""
    status = grid_status(game)
    if game.lines and not game.writing and not status.complete:
        short = ", ".join(map(str, status.short)) or "–"
        raise PerfectWordsError("grid_incomplete", placed=status.placed, short=short)


def _place_arrow(game: Game, event: PlaceArrow) -> Game:
    _check_phase1(game)
    arrow = _arrow(event.arrow)
    expected = len(game.lines) + 1
    if expected > ARROWS:
        raise PerfectWordsError("arrows_all_placed")
    if arrow != expected:
        raise PerfectWordsError("arrow_order", expected=expected, arrow=arrow)
    label = normalise(event.line)
    for line in game.lines:
        if label and normalise(line.line) == label:
            raise PerfectWordsError("line_taken", line=event.line, other=line.arrow)
    return replace(game, lines=(*game.lines, ArrowLine(arrow, event.line.strip(), event.clues)))


def _write_term(game: Game, event: WriteTerm) -> Game:
    _start_phase2(game)
    player, arrow = _player(game, event.player), _arrow(event.arrow)
    key = normalise(event.term)
    if not key:
        raise PerfectWordsError("term_blank", player=player, arrow=arrow)
    existing = game.term(player, arrow)
    if existing is not None:
        raise PerfectWordsError("term_twice_arrow", player=player, arrow=arrow, term=existing.text)
    for other in game.terms:
        if other.player == player and other.key == key:
            raise PerfectWordsError("term_repeated", player=player, term=other.text, other=other.arrow)
    return replace(game, terms=(*game.terms, Term(player, arrow, event.term.strip())))


def _merge(game: Game, event: Merge) -> Game:
    if not game.revealed:
        raise PerfectWordsError("merge_before_reveal")
    arrow = _arrow(event.arrow)
    written = {t.key for t in game.terms if t.arrow == arrow and (t.player, arrow) not in game.struck}
    keys = []
    for text in event.terms:
        key = normalise(text)
        if key not in written:
            raise PerfectWordsError("merge_unknown", term=text, arrow=arrow)
        if key not in keys:
            keys.append(key)
    if len(keys) < 2:
        raise PerfectWordsError("merge_few", arrow=arrow)
    return replace(game, merges=game.merges.add(Merge(arrow, tuple(keys))))
