"""Quiddler at the table: setup, the eight rounds (plan, lay-downs, challenges, round table, scoreboard)
and the final standings, as a `core.flow.Flow`.

State: the game in play (`played`: the set-up and the record events entered since, through `Played`,
None during the setup) plus the entry in progress (`entry`: what the screen asks for now). A refused
entry keeps the state, beeps and shows the reason (`message`) in the footer. BACK first takes back what
is being entered; with nothing in progress it undoes the last table event (`Played.undo`); on the setup's
first step (the player count) it leaves the game, as in every game.

Lay-down entry: words typed in card notation (`(QU)IT`, several separated by spaces) or scanned card by
card (a scanned code is looked up in the enrolled Quiddler card table; a code that is a face, e.g. "QU"
or a printed label's text, stands for itself); NEXT ends a scanned word (with no word open: the
words are done), a long NEXT or START ends the words; then the unused cards the same way (not for the
player who went out, who is asked for first).

With a per-turn limit (`table.turn_limit`), while a round is played (the screen asks who went out) the
timer runs from full for each turn: the round's starter first, then clockwise; a long START (or the turn
button) passes the turn on. The footer names the player on turn and the time left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Literal

from firmware_host.core.effects import Effect, EndGame, RevealBest, Revealed
from firmware_host.core.events import BestRevealed, Button, CardScan, Event, TextEntry
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.word_groups import WordGroups
from firmware_host.core.i18n import signed
from firmware_host.core.scoreboard import player_names
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.table.played import Played, begin, enter
from firmware_host.core.table.seats import cursor_step, is_hold, is_press, refuse
from firmware_host.core.table.turn_limit import limit_text, with_limit
from firmware_host.core.text_field import TextField
from firmware_host.core.text_input import NAME, clean, refusal

from . import GAME_ID
from .errors import RuleError
from .notation import format_cards, parse_cards
from .record import RULES, Challenge, Lay, RoundEnd, RoundStart, Setup, TableEvent
from .rules import ROUNDS, Game, OpenRound
from .scoring import Bonus
from .text import t

__all__ = ["GAME_ID", "QuiddlerFlow", "new_flow"]
MAX_PLAYERS = 8

SetupStage = Literal["count", "names", "dealer", "bonus", "summary"]
Page = Literal["plan", "table", "board", "final"]
ChallengeStage = Literal["list", "challenger", "word", "verdict"]
BONUSES = (Bonus.LONGEST, Bonus.MOST)


@dataclass(frozen=True, slots=True)
class SetupEntry:
    """The setup: `names` holds a name for every possible seat; the first `count` play."""

    names: tuple[str, ...]
    count: int
    stage: SetupStage = "count"
    cursor: int = 0
    dealer: int = 0
    bonus: Bonus = Bonus.LONGEST

    @property
    def players(self) -> tuple[str, ...]:
        return self.names[: self.count]


@dataclass(frozen=True, slots=True)
class Pages:
    """Between rounds: the plan of the next round, the last round's table, the scoreboard, the final."""

    page: Page


@dataclass(frozen=True, slots=True)
class OutChoice:
    """Who went out this round (the last option: nobody); that player's lay-down is entered first."""

    cursor: int = 0


@dataclass(frozen=True, slots=True)
class LayEntry:
    player: str
    went_out: bool
    words: tuple[tuple[str, ...], ...] = ()
    partial: tuple[str, ...] = ()  # a word being scanned card by card
    unused: tuple[str, ...] = ()
    unused_stage: bool = False


@dataclass(frozen=True, slots=True)
class Challenges:
    stage: ChallengeStage = "list"
    challenger: str = ""
    target: int = 0  # index into `targets(...)`
    cursor: int = 0


Entry = SetupEntry | Pages | OutChoice | LayEntry | Challenges


@dataclass(frozen=True, slots=True)
class QuiddlerFlow:
    entry: Entry
    played: Played[Setup, Game, TableEvent] | None = None
    message: str = ""
    passes: int = 0  # turns passed on in the round being played (the per-turn limit's)
    best: tuple[BestRevealed, ...] = ()  # the word list's best lay-downs, one answer per round
    reveal: bool = True  # ask for them (the table's `reveal` setting is not "off")
    phone: tuple[tuple[int, int, tuple[tuple[str, ...], ...]], ...] = ()  # (seat, round, words) typed on phones

    def seat_entry(self, seat: int, text: str, ctx: Ctx) -> Outcome:
        """A line from seat `seat`'s phone: its words, then its cards left (`page.seat_entry`)."""
        from .page import seat_entry

        return seat_entry(self, seat, text, ctx)

    def page(self, seat: int | None, ctx: Ctx) -> dict[str, Any]:
        from .page import page_data

        return page_data(self, seat, ctx)

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order (the phones' seats): the game's, or the setup's while it is set up."""
        if self.played is not None:
            return self.played.setup.players
        return self.entry.players if isinstance(self.entry, SetupEntry) else ()

    @property
    def game(self) -> str:
        return GAME_ID

    # --- events ------------------------------------------------------------------------------------

    def handle(self, event: Event, ctx: Ctx) -> Outcome:
        if isinstance(event, BestRevealed):
            kept = tuple(b for b in self.best if b.round != event.round)
            return Outcome(replace(self, best=tuple(sorted((*kept, event), key=lambda b: b.round))))
        before = _turn_mark(self)
        if before is not None and ctx.turns.game_turn_s and (is_hold(event, Button.START)
                                                              or is_press(event, Button.TURN)):
            passed = replace(self, passes=self.passes + 1, message="")
            return with_limit(Outcome(passed), ctx, before, _turn_mark(passed))
        outcome = self._step(event, ctx)
        after = outcome.flow if isinstance(outcome.flow, QuiddlerFlow) else None
        if after is not None and _round(after) != _round(self):  # a new round: its starter begins
            after = replace(after, passes=0)
            outcome = replace(outcome, flow=after)
        return with_limit(outcome, ctx, before, _turn_mark(after))

    def on_turn(self) -> str | None:
        """The player whose turn it is while a round is played (the per-turn limit's count)."""
        game = self.played.game if self.played is not None else None
        if game is None or game.current is None:
            return None
        players = game.players
        return players[(players.index(game.current.plan.starter) + self.passes) % len(players)]

    def _step(self, event: Event, ctx: Ctx) -> Outcome:
        entry = self.entry
        if isinstance(entry, SetupEntry):
            return self._setup(entry, event, ctx)
        assert self.played is not None  # every entry after the setup has a game
        game = self.played.game
        if isinstance(entry, Pages):
            return self._pages(entry, game, event, ctx)
        if isinstance(entry, OutChoice):
            return self._out_choice(entry, game, event, ctx)
        if isinstance(entry, LayEntry):
            return self._lay(entry, game, event, ctx)
        return self._challenges(entry, game, event, ctx)

    def asks(self, ctx: Ctx) -> tuple[Effect, ...]:
        """`Asks`: the best lay-downs of the round just scored while its table is on screen, when still owed."""
        game = self.played.game if self.played is not None else None
        on_table = isinstance(self.entry, Pages) and self.entry.page == "table"
        if game is None or not on_table or any(b.round == len(game.rounds) for b in self.best):
            return ()
        return _revealing(Outcome(self)).effects

    def timer_over(self, ctx: Ctx) -> Outcome:
        return Outcome(replace(self, message=""))  # a stale footer must not stand beside "Zeit!"

    def _setup(self, e: SetupEntry, event: Event, ctx: Ctx) -> Outcome:
        back = is_press(event, Button.BACK)
        if e.stage == "count":
            if isinstance(event, TextEntry):
                text = event.text.strip()
                if not text.isdigit() or not 1 <= int(text) <= MAX_PLAYERS:
                    return self._refuse(ctx, t(ctx.lang, "not_a_count", text=text))
                return self._to(replace(e, count=int(text)))
            step = cursor_step(event)
            if step is not None:
                return self._to(replace(e, count=(e.count - 1 + step) % MAX_PLAYERS + 1))
            if _confirms(event):
                return self._to(replace(e, stage="names", cursor=0, dealer=min(e.dealer, e.count - 1)))
            if back:  # out of the setup, as from every game's first step
                return Outcome(None)
            return self._refuse(ctx, "")
        if e.stage == "names":
            if isinstance(event, TextEntry):
                refused = refusal(event.text, NAME)
                if refused is not None:
                    return self._refuse(ctx, refused.text(ctx.lang))
                name = clean(event.text, NAME)
                if not name:
                    return self._refuse(ctx, t(ctx.lang, "empty_name"))
                if name in e.players and e.players.index(name) != e.cursor:
                    return self._refuse(ctx, t(ctx.lang, "name_taken", name=name))
                names = (*e.names[: e.cursor], name, *e.names[e.cursor + 1 :])
                return self._to(replace(e, names=names, cursor=min(e.cursor + 1, e.count - 1)))
            return self._choose(
                e,
                event,
                ctx,
                e.count,
                prev=replace(e, stage="count", cursor=0),
                chosen=lambda c: replace(e, stage="dealer", cursor=e.dealer),
            )
        if e.stage == "dealer":
            return self._choose(
                e,
                event,
                ctx,
                e.count,
                prev=replace(e, stage="names", cursor=0),
                chosen=lambda c: replace(
                    e, stage="bonus" if e.count == 2 else "summary", dealer=c, cursor=BONUSES.index(e.bonus)
                ),
            )
        if e.stage == "bonus":
            return self._choose(
                e,
                event,
                ctx,
                len(BONUSES),
                prev=replace(e, stage="dealer", cursor=e.dealer),
                chosen=lambda c: replace(e, stage="summary", bonus=BONUSES[c]),
            )
        if back:
            previous: SetupStage = "bonus" if e.count == 2 else "dealer"
            cursor = BONUSES.index(e.bonus) if e.count == 2 else e.dealer
            return self._to(replace(e, stage=previous, cursor=cursor))
        if _confirms(event):
            players = e.players
            setup = Setup(players, players[e.dealer], e.bonus.value if e.count == 2 else None)
            return self._entered(*begin(replace(self, message=""), ctx, RULES, setup, players))
        return self._refuse(ctx, "")

    def _choose(
        self, e: SetupEntry, event: Event, ctx: Ctx, n: int, prev: SetupEntry, chosen: Callable[[int], SetupEntry]
    ) -> Outcome:
        step = cursor_step(event)
        if step is not None:
            return self._to(replace(e, cursor=(e.cursor + step) % n))
        if _confirms(event):
            return self._to(chosen(e.cursor))
        if is_press(event, Button.BACK):
            return self._to(prev)
        return self._refuse(ctx, t(ctx.lang, "no_text_here") if isinstance(event, TextEntry) else "")

    def _pages(self, e: Pages, game: Game, event: Event, ctx: Ctx) -> Outcome:
        back, forward = is_press(event, Button.BACK), _confirms(event) or is_press(event, Button.NEXT)
        if e.page == "final":
            if _confirms(event) or back:
                winners = game.winners
                return Outcome(None, (EndGame(", ".join(winners) if winners else None),))
            return self._refuse(ctx, "")
        if e.page == "plan":
            plan = game.next_round
            if _confirms(event) and plan is not None:
                return self._record(RoundStart(plan.number), ctx)
            if back:
                return self._to(Pages("board")) if game.rounds else self._refuse(ctx, t(ctx.lang, "nothing_to_undo"))
            return self._refuse(ctx, "")
        if e.page == "table":
            if forward:
                return self._to(Pages("final" if game.finished else "board"))
            return self._undo(ctx) if back else self._refuse(ctx, "")
        if forward:
            return self._to(Pages("plan"))
        return self._to(Pages("table")) if back else self._refuse(ctx, "")

    def _out_choice(self, e: OutChoice, game: Game, event: Event, ctx: Ctx) -> Outcome:
        options = len(game.players) + 1
        step = cursor_step(event)
        if step is not None:
            return self._to(OutChoice((e.cursor + step) % options))
        if _confirms(event):
            if e.cursor < len(game.players):
                return self._to(LayEntry(game.players[e.cursor], went_out=True))
            return self._to(LayEntry(_lay_order(game)[0], went_out=False))
        return self._undo(ctx) if is_press(event, Button.BACK) else self._refuse(ctx, "")

    def _lay(self, e: LayEntry, game: Game, event: Event, ctx: Ctx) -> Outcome:
        deck = game.setup.deck
        if isinstance(event, TextEntry):
            try:
                if e.unused_stage:
                    return self._to(replace(e, unused=e.unused + parse_cards(event.text, deck, allow_empty=True)))
                typed = tuple(parse_cards(word, deck) for word in event.text.split())
            except RuleError as exc:
                return self._refuse(ctx, exc.message)
            return self._to(replace(e, words=(*_closed(e), *typed), partial=()))
        if isinstance(event, CardScan):
            code = event.code.strip()
            face = ctx.cards.get("quiddler", {}).get(code, code).upper()
            if not deck.has(face):
                return self._refuse(ctx, t(ctx.lang, "unknown_card", code=event.code.strip()))
            if e.unused_stage:
                return self._to(replace(e, unused=(*e.unused, face)))
            return self._to(replace(e, partial=(*e.partial, face)))
        if is_press(event, Button.BACK):
            if e.unused_stage:
                return self._to(replace(e, unused=e.unused[:-1]) if e.unused else replace(e, unused_stage=False))
            if e.partial:
                return self._to(replace(e, partial=e.partial[:-1]))
            if e.words:
                return self._to(replace(e, words=e.words[:-1]))
            if game.current is not None and not game.current.lays:
                return self._to(OutChoice())
            return self._undo(ctx)
        ends_word = is_press(event, Button.NEXT) and not e.unused_stage and e.partial
        if ends_word:
            return self._to(replace(e, words=_closed(e), partial=()))
        if is_press(event, Button.NEXT) or _confirms(event) or is_hold(event, Button.NEXT):
            if e.unused_stage or e.went_out:
                words = tuple(format_cards(word) for word in _closed(e))
                return self._record(Lay(e.player, words, format_cards(e.unused), e.went_out), ctx)
            return self._to(replace(e, words=_closed(e), partial=(), unused_stage=True))
        return self._refuse(ctx, "")

    def _challenges(self, e: Challenges, game: Game, event: Event, ctx: Ctx) -> Outcome:
        back = is_press(event, Button.BACK)
        if e.stage == "list":
            if _confirms(event):
                return self._to(Challenges("challenger"))
            if is_press(event, Button.NEXT):
                return _revealing(self._record(RoundEnd(), ctx, then=Pages("table")))
            return self._undo(ctx) if back else self._refuse(ctx, "")
        if e.stage == "challenger":
            n, prev = len(game.players), Challenges()
        elif e.stage == "word":
            n, prev = (
                len(_targets(game, e.challenger)),
                Challenges("challenger", cursor=game.players.index(e.challenger)),
            )
        else:
            n, prev = 2, Challenges("word", e.challenger, cursor=e.target)
        step = cursor_step(event)
        if step is not None:
            return self._to(replace(e, cursor=(e.cursor + step) % n))
        if back:
            return self._to(prev)
        if not _confirms(event):
            return self._refuse(ctx, t(ctx.lang, "no_text_here") if isinstance(event, TextEntry) else "")
        if e.stage == "challenger":
            challenger = game.players[e.cursor]
            if not _targets(game, challenger):
                return self._refuse(ctx, t(ctx.lang, "no_words"))
            return self._to(Challenges("word", challenger))
        if e.stage == "word":
            return self._to(Challenges("verdict", e.challenger, e.cursor))
        owner, word = _targets(game, e.challenger)[e.target]
        return self._record(Challenge(e.challenger, owner, format_cards(word), allowed=e.cursor == 0), ctx)

    # --- changes -----------------------------------------------------------------------------------

    def _to(self, entry: Entry) -> Outcome:
        return Outcome(replace(self, entry=entry, message=""))

    def _refuse(self, ctx: Ctx, message: str) -> Outcome:
        return refuse(replace(self, message=message), ctx)

    def _record(self, event: TableEvent, ctx: Ctx, *, then: Entry | None = None) -> Outcome:
        """Enter a table event; refused by the rules core: stay, beep and say why."""
        return self._entered(*enter(replace(self, message=""), ctx, event), then)

    @staticmethod
    def _entered(flow: QuiddlerFlow | None, outcome: Outcome, then: Entry | None = None) -> Outcome:
        """A recorded change goes on to `then`, else to the entry the game asks for next."""
        if flow is None or flow.played is None:
            return outcome
        return replace(outcome, flow=replace(flow, entry=then or _next_entry(flow.played.game)))

    def _undo(self, ctx: Ctx) -> Outcome:
        """Take back the last table event (the setup stays: the game's record is open)."""
        undone = self.played.undo() if self.played is not None else None
        if undone is None:
            return self._refuse(ctx, t(ctx.lang, "nothing_to_undo"))
        played, _, effects = undone
        undone_flow = replace(self, entry=_next_entry(played.game), played=played, message="", passes=0)
        return Outcome(undone_flow, effects)

    # --- screens -----------------------------------------------------------------------------------

    def screen(self, ctx: Ctx) -> Screen:
        shown = _screen(self.entry, self.played.game if self.played is not None else None, ctx.lang)
        if isinstance(self.entry, Pages) and self.entry.page == "table" and isinstance(shown, ListScreen):
            shown = replace(shown, items=(*shown.items, *best_items(self, ctx.lang)))
        limit, player = limit_text(ctx), self.on_turn()
        if limit is not None and player is not None and _turn_mark(self) is not None:
            shown = replace(shown, footer=t(ctx.lang, "on_turn", player=player, time=limit))
        return replace(shown, footer=self.message) if self.message else shown

    def text_field(self, ctx: Ctx) -> TextField | None:
        """The player count and names at the setup; a player's words or unused cards in card notation."""
        e, lang = self.entry, ctx.lang
        if isinstance(e, SetupEntry) and e.stage == "count":
            return TextField(t(lang, "count"), "number")
        if isinstance(e, SetupEntry) and e.stage == "names":
            return TextField(t(lang, "name_for", n=e.cursor + 1), "name", NAME.limit)
        if isinstance(e, LayEntry) and self.played is not None and self.played.game.current is not None:
            n = self.played.game.current.plan.number
            key = "unused_title" if e.unused_stage else "words_title_out" if e.went_out else "words_title"
            return TextField(t(lang, key, n=n, player=e.player), "cards")
        return None


def _revealing(outcome: Outcome) -> Outcome:
    """A round that was scored asks the English word list for every player's best lay-down."""
    flow = outcome.flow
    if not isinstance(flow, QuiddlerFlow) or flow.played is None or not flow.played.game.rounds or not flow.reveal:
        return outcome
    number = len(flow.played.game.rounds)
    ask = RevealBest("en", number, partial(_reveal_round, flow.played.game, number))
    return replace(outcome, effects=(*outcome.effects, ask))


def _reveal_round(game: Game, number: int, lists: WordGroups) -> Revealed:
    """`best_lay.reveal_round`, loaded when the shell asks it: a replay and the first frame need no solver."""
    from .best_lay import reveal_round

    return reveal_round(game, number, lists)


def best_items(flow: QuiddlerFlow, lang: str) -> list[ListItem]:
    """The last round's best lay-downs beside the table, once the word list answered."""
    game = flow.played.game if flow.played is not None else None
    found = next((b for b in flow.best if game is not None and b.round == len(game.rounds)), None)
    if found is None:
        return []
    from .best_lay import best_label

    items = [ListItem(best_label(lang, player, text), str(points)) for player, text, points, _, _ in found.best]
    return [*items, ListItem(t(lang, "best_source", source=found.source))]


def new_flow(ctx: Ctx, names: tuple[str, ...]) -> QuiddlerFlow:
    """The flow at its setup: the configured names (else "Spieler N"), as many players as are named."""
    defaults = tuple(t(ctx.lang, "player_n", n=n + 1) for n in range(MAX_PLAYERS))
    given = tuple(n for n in player_names(names[:MAX_PLAYERS], len(names[:MAX_PLAYERS]), "") if n)
    seats = (*given, *(d for d in defaults if d not in given))[:MAX_PLAYERS]
    return QuiddlerFlow(SetupEntry(seats, len(given) if given else 2), reveal=ctx.reveal != "off")


# --- the per-turn limit ---------------------------------------------------------------------------


def _round(flow: QuiddlerFlow) -> int | None:
    game = flow.played.game if flow.played is not None else None
    return None if game is None or game.current is None else game.current.plan.number


def _turn_mark(flow: QuiddlerFlow | None) -> int | None:
    """Round and turn while a round is played (nobody has gone out yet); None otherwise."""
    if flow is None or not isinstance(flow.entry, OutChoice) or flow.played is None:
        return None
    current = flow.played.game.current
    if current is None or current.lays:
        return None
    return current.plan.number * 1000 + flow.passes


# --- the entry a game state asks for ---------------------------------------------------------------


def _next_entry(game: Game) -> Entry:
    current = game.current
    if current is None:
        return Pages("table" if game.finished else "plan")
    if not current.lays:
        return OutChoice()
    if game.waiting_for:
        return LayEntry(_lay_order(game)[0], went_out=False)
    return Challenges()


def _lay_order(game: Game) -> tuple[str, ...]:
    """Who lays down next, in order: clockwise after the player who went out (else from the starter)."""
    current = game.current
    assert current is not None
    out = next((lay.player for lay in current.lays if lay.went_out), None)
    players = game.players
    first = (players.index(out) + 1) if out is not None else players.index(current.plan.starter)
    seats = players[first:] + players[:first]
    return tuple(p for p in seats if p in game.waiting_for)


def _targets(game: Game, challenger: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The laid words `challenger` may name: every word of every other player, in seating order."""
    current = game.current
    if current is None:
        return ()
    return tuple(
        (player, word)
        for player in game.players
        if player != challenger and (lay := current.lay_of(player)) is not None
        for word in lay.words
    )


def _closed(e: LayEntry) -> tuple[tuple[str, ...], ...]:
    return (*e.words, e.partial) if e.partial else e.words


# --- input helpers ---------------------------------------------------------------------------------


def _confirms(event: Event) -> bool:
    return is_press(event, Button.START, Button.ENCODER)



# --- screens ---------------------------------------------------------------------------------------


def _screen(entry: Entry, game: Game | None, lang: str) -> Screen:
    if isinstance(entry, SetupEntry):
        return _setup_screen(entry, lang)
    assert game is not None
    if isinstance(entry, Pages):
        return _page_screen(entry.page, game, lang)
    current = game.current
    assert current is not None
    n = current.plan.number
    if isinstance(entry, OutChoice):
        items = (*(ListItem(p) for p in game.players), ListItem(t(lang, "nobody")))
        return ListScreen(t(lang, "out_title", n=n), items, entry.cursor, t(lang, "choose_hint"))
    if isinstance(entry, LayEntry):
        return _lay_screen(entry, n, current.plan.hand_size, lang)
    return _challenge_screen(entry, game, lang)


def _setup_screen(e: SetupEntry, lang: str) -> Screen:
    if e.stage == "count":
        return BigScreen(t(lang, "count"), str(e.count), t(lang, "count_hint"))
    if e.stage == "names":
        items = tuple(ListItem(name) for name in e.players)
        return ListScreen(t(lang, "names"), items, e.cursor, t(lang, "names_hint"))
    if e.stage == "dealer":
        items = tuple(ListItem(name, marked=i == e.dealer) for i, name in enumerate(e.players))
        return ListScreen(t(lang, "dealer"), items, e.cursor, t(lang, "choose_hint"))
    if e.stage == "bonus":
        items = tuple(ListItem(t(lang, b.value), marked=b is e.bonus) for b in BONUSES)
        return ListScreen(t(lang, "bonus"), items, e.cursor, t(lang, "choose_hint"))
    lines = [
        t(lang, "summary_players", names=", ".join(e.players)),
        t(lang, "summary_dealer", name=e.players[e.dealer]),
    ]
    if e.count == 2:
        lines.append(t(lang, "summary_bonus", bonus=t(lang, e.bonus.value)))
    return MessageScreen(t(lang, "title"), tuple(lines), t(lang, "summary_hint"))


def _page_screen(page: Page, game: Game, lang: str) -> Screen:
    if page == "plan":
        plan = game.next_round
        assert plan is not None
        lines = (
            t(lang, "plan_deal", dealer=plan.dealer, cards=plan.hand_size),
            t(lang, "plan_start", starter=plan.starter),
        )
        return MessageScreen(t(lang, "plan_title", n=plan.number, total=ROUNDS), lines, t(lang, "plan_hint"))
    if page == "table":
        scored = game.rounds[-1]
        items = tuple(
            ListItem(row.player + ("*" if row.went_out else ""), f"{signed(row.result)} → {row.total}")
            for row in scored.rows
        )
        most = next((r.player for r in scored.rows if r.most_words_bonus), "–")
        longest = next((r.player for r in scored.rows if r.longest_word_bonus), "–")
        two = len(game.setup.players) == 2  # one bonus is played (Q3): the footer names only that one
        key = f"table_bonus.{game.setup.two_player_bonus.value}" if two else "table_bonus"
        footer = t(lang, key, most=most, longest=longest)
        return ListScreen(t(lang, "table_title", n=scored.number), items, None, footer)
    items = tuple(
        ListItem(f"{place}. {player}", str(total), marked=place == 1) for place, player, total in game.ranking()
    )
    if page == "board":
        title = t(lang, "board_title", n=len(game.rounds), total=ROUNDS)
        return ListScreen(title, items, None, t(lang, "next_hint"))
    return ListScreen(t(lang, "final_title", names=", ".join(game.winners)), items, None, t(lang, "final_hint"))


def _lay_screen(e: LayEntry, n: int, hand: int, lang: str) -> Screen:
    words = " ".join(format_cards(w) for w in e.words) or "–"
    lines = [t(lang, "words_line", words=words)]
    if e.partial:
        lines.append(t(lang, "partial_line", cards=format_cards(e.partial)))
    laid = sum(len(w) for w in _closed(e))
    if e.unused_stage:
        lines.append(t(lang, "unused_line", cards=format_cards(e.unused) or "–"))
        title, hint = t(lang, "unused_title", n=n, player=e.player), t(lang, "unused_hint")
    else:
        key = "words_title_out" if e.went_out else "words_title"
        title, hint = t(lang, key, n=n, player=e.player), t(lang, "words_hint")
    lines.append(t(lang, "cards_line", laid=laid + len(e.unused), hand=hand))
    return MessageScreen(title, tuple(lines), hint)


def _challenge_screen(e: Challenges, game: Game, lang: str) -> Screen:
    current = game.current
    assert current is not None
    if e.stage == "list":
        lines = tuple(
            t(
                lang,
                "challenge_line",
                challenger=c.challenger,
                owner=c.owner,
                word=format_cards(_word_of(current, c.owner, c.word)),
                verdict=t(lang, "allowed" if c.allowed else "not_allowed"),
            )
            for c in current.challenges
        ) or (t(lang, "challenges_none"),)
        return MessageScreen(t(lang, "challenges_title", n=current.plan.number), lines, t(lang, "challenges_hint"))
    if e.stage == "challenger":
        items = tuple(ListItem(p) for p in game.players)
        return ListScreen(t(lang, "challenger"), items, e.cursor, t(lang, "choose_hint"))
    targets = _targets(game, e.challenger)
    if e.stage == "word":
        items = tuple(ListItem(f"{owner}: {format_cards(word)}") for owner, word in targets)
        return ListScreen(t(lang, "target", challenger=e.challenger), items, e.cursor, t(lang, "choose_hint"))
    owner, word = targets[e.target]
    items = (ListItem(t(lang, "allowed")), ListItem(t(lang, "not_allowed")))
    return ListScreen(f"{owner}: {format_cards(word)}", items, e.cursor, t(lang, "choose_hint"))


def _word_of(current: OpenRound, owner: str, index: int) -> tuple[str, ...]:
    lay = current.lay_of(owner)
    return lay.words[index] if lay is not None else ()
