"""The Quiddler rules core: a game driven event by event — set-up, round start, each player's lay-down,
challenges, round end. (`record` reads and writes these events as record lines.)

Every function takes a `Game` and returns a new one, or raises a `RuleError` subclass and leaves the
given game as it was. The table UI holds the current `Game`; `game.next_round` says who deals how many
cards next, `game.current.plan` the same for the round being played.

Hand size: round r (1–8) deals r + 2 cards. Every turn is draw one, discard one, and every player's last
turn of a round (the one going out included) ends with that discard, so after it each player holds
exactly the hand size: laid cards + unused cards = r + 2 for every player. The player who went out has
laid all of them (no unused card); the card they went out with is the discard and is not recorded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .deck import STANDARD_DECK, Deck
from .errors import (
    CardCountError,
    ChallengeError,
    GoingOutError,
    HandSizeError,
    SequenceError,
    SetupError,
    ShortWordError,
    UnknownPlayerError,
    Word,
)
from .notation import format_cards
from .scoring import Bonus, Challenge, Lay, RoundScore, score_round

ROUNDS = 8
FIRST_HAND = 3
MIN_PLAYERS, MAX_PLAYERS = 1, 8


@dataclass(frozen=True, slots=True)
class Setup:
    """Players in seating order, clockwise (the player after someone sits at their left)."""

    players: tuple[str, ...]
    first_dealer: int = 0
    two_player_bonus: Bonus = Bonus.LONGEST
    deck: Deck = STANDARD_DECK


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """Who deals round `number`, how many cards each, and who plays first (left of the dealer)."""

    number: int
    hand_size: int
    dealer: str
    starter: str


@dataclass(frozen=True, slots=True)
class OpenRound:
    """The round being played: the lay-downs and challenges entered so far."""

    plan: RoundPlan
    lays: tuple[Lay, ...] = ()
    challenges: tuple[Challenge, ...] = ()

    def lay_of(self, player: str) -> Lay | None:
        return next((lay for lay in self.lays if lay.player == player), None)


@dataclass(frozen=True, slots=True)
class Game:
    setup: Setup
    rounds: tuple[RoundScore, ...] = ()
    current: OpenRound | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def totals(self) -> dict[str, int]:
        """Running totals after the last finished round, in seating order."""
        last = self.rounds[-1].rows if self.rounds else ()
        by_player = {row.player: row.total for row in last}
        return {player: by_player.get(player, 0) for player in self.players}

    @property
    def next_round(self) -> RoundPlan | None:
        """The round `start_round` would open (None once all eight are played or one is open)."""
        if self.current is not None or len(self.rounds) >= ROUNDS:
            return None
        return round_plan(self.setup, len(self.rounds) + 1)

    @property
    def finished(self) -> bool:
        return len(self.rounds) == ROUNDS

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """Players who have not laid down in the open round."""
        if self.current is None:
            return ()
        return tuple(p for p in self.players if self.current.lay_of(p) is None)

    def ranking(self) -> list[tuple[int, str, int]]:
        """(place, player, total), best first; equal totals share a place."""
        ordered = sorted(self.totals.items(), key=lambda item: -item[1])
        places: list[tuple[int, str, int]] = []
        for index, (player, total) in enumerate(ordered):
            place = places[-1][0] if places and places[-1][2] == total else index + 1
            places.append((place, player, total))
        return places

    @property
    def winners(self) -> tuple[str, ...]:
        ranking = self.ranking()
        return tuple(player for place, player, _ in ranking if place == 1)


def round_plan(setup: Setup, number: int) -> RoundPlan:
    """Round `number` (1–8): hand size number + 2; the deal passes left each round."""
    if not 1 <= number <= ROUNDS:
        raise SequenceError("rounds", rounds=ROUNDS, number=number)
    n = len(setup.players)
    dealer = (setup.first_dealer + number - 1) % n
    return RoundPlan(number, FIRST_HAND + number - 1, setup.players[dealer], setup.players[(dealer + 1) % n])


def new_game(
    players: Sequence[str],
    *,
    dealer: str | None = None,
    two_player_bonus: Bonus | str = Bonus.LONGEST,
    deck: Deck = STANDARD_DECK,
) -> Game:
    """Set up a game: 1–8 distinct non-empty names in seating order; `dealer` deals round 1 (default:
    the first player); `two_player_bonus` is the one bonus of a two-player game (Q3)."""
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise SetupError("players", low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(names))
    if any(not name.strip() for name in names):
        raise SetupError("name_needed")
    doubles = sorted({name for name in names if names.count(name) > 1})
    if doubles:
        raise SetupError("same_name", names=", ".join(doubles))
    first = 0
    if dealer is not None:
        if dealer not in names:
            raise UnknownPlayerError("no_dealer", dealer=dealer, names=", ".join(names))
        first = names.index(dealer)
    try:
        bonus = Bonus(two_player_bonus)
    except ValueError:
        choices = " or ".join(repr(b.value) for b in Bonus)
        raise SetupError("bonus", choices=choices, bonus=two_player_bonus) from None
    return Game(Setup(names, first, bonus, deck))


def start_round(game: Game) -> Game:
    """Open the next round (its plan is `game.next_round`)."""
    if game.current is not None:
        raise SequenceError("round_open", round=game.current.plan.number)
    if game.finished:
        raise SequenceError("game_over", rounds=ROUNDS)
    plan = round_plan(game.setup, len(game.rounds) + 1)
    return replace(game, current=OpenRound(plan))


def lay_down(
    game: Game,
    player: str,
    words: Sequence[Sequence[str]],
    unused: Sequence[str] = (),
    went_out: bool = False,
) -> Game:
    """Record what `player` put down at the end of the open round: words as card faces, unused cards."""
    current = _open(game, "act_lay")
    _known(game, player)
    if current.lay_of(player) is not None:
        raise SequenceError("laid_already", player=player, round=current.plan.number)
    deck = game.setup.deck
    lay = Lay(player, tuple(tuple(word) for word in words), tuple(unused), went_out)
    for cards in (*lay.words, lay.unused):
        for face in cards:
            deck.spec(face)
    for index, cards in enumerate(lay.words, start=1):
        if len(cards) < 2:
            raise ShortWordError("short_word", player=player, index=index,
                                 cards=format_cards(cards) or Word("empty"), count=len(cards))
    laid = sum(len(cards) for cards in lay.words)
    hand = current.plan.hand_size
    if laid + len(lay.unused) != hand:
        raise HandSizeError("hand_size", player=player, laid=laid, unused=len(lay.unused),
                            total=laid + len(lay.unused), round=current.plan.number, hand=hand)
    if went_out:
        if lay.unused:
            raise GoingOutError("out_unused", player=player, cards=format_cards(lay.unused))
        other = next((other.player for other in current.lays if other.went_out), None)
        if other is not None:
            raise GoingOutError("out_twice", other=other, round=current.plan.number)
    hands = (*current.lays, lay)
    counts = Counter(face for each in hands for cards in (*each.words, each.unused) for face in cards)
    for face, count in counts.items():
        if count > deck.copies(face):
            raise CardCountError("too_many", round=current.plan.number, count=count, card=format_cards([face]),
                                 copies=deck.copies(face))
    return replace(game, current=replace(current, lays=(*current.lays, lay)))


def challenge(game: Game, challenger: str, owner: str, word: Sequence[str], allowed: bool) -> Game:
    """Record a challenge of `owner`'s laid word `word` (its cards) and the table's verdict `allowed`."""
    current = _open(game, "act_challenge")
    _known(game, challenger)
    _known(game, owner)
    if challenger == owner:
        raise ChallengeError("own_word", owner=owner)
    lay = current.lay_of(owner)
    if lay is None:
        raise ChallengeError("not_laid", owner=owner, round=current.plan.number)
    cards = tuple(word)
    matching = [i for i, laid in enumerate(lay.words) if laid == cards]
    if not matching:
        laid_words = ", ".join(format_cards(w) for w in lay.words) or Word("none")
        raise ChallengeError("no_word", owner=owner, cards=format_cards(cards), words=laid_words)
    taken = {c.word for c in current.challenges if c.owner == owner}
    free = [i for i in matching if i not in taken]
    if not free:
        raise ChallengeError("challenged", owner=owner, cards=format_cards(cards))
    entry = Challenge(challenger, owner, free[0], allowed)
    return replace(game, current=replace(current, challenges=(*current.challenges, entry)))


def end_round(game: Game) -> Game:
    """Score the open round once every player has laid down; the totals move on."""
    current = _open(game, "act_end")
    missing = game.waiting_for
    if missing:
        raise SequenceError("cannot_end", round=current.plan.number, missing=", ".join(missing))
    plan = current.plan
    lays = tuple(lay for p in game.players for lay in current.lays if lay.player == p)
    scored = score_round(
        number=plan.number,
        hand_size=plan.hand_size,
        dealer=plan.dealer,
        starter=plan.starter,
        lays=lays,
        challenges=current.challenges,
        totals_before=game.totals,
        deck=game.setup.deck,
        two_player_bonus=game.setup.two_player_bonus,
    )
    return replace(game, rounds=(*game.rounds, scored), current=None)


def _open(game: Game, action: str) -> OpenRound:
    if game.current is None:
        raise SequenceError("closed_over" if game.finished else "closed_none", action=Word(action))
    return game.current


def _known(game: Game, player: str) -> None:
    if player not in game.players:
        raise UnknownPlayerError("not_player", player=player, names=", ".join(game.players))
