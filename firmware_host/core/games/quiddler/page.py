"""Quiddler on the table page: what each seat's phone shows and what it may enter (pure; JSON-ready).

Entry from a phone, for its own seat, while a round is open and the box waits for lay-downs (who went
out, or a player's words and cards): first the seat's words in card notation (`PREFIX_OUT` before them:
this player went out, which records the lay-down at once), then its cards left, which records
`Lay(player, words, unused)` through the same rules core as the box's entry. `BACK_TEXT` drops the typed
words. The box's own entry moves on when the player it was asking for has laid down from a phone.
After the lay-downs a seat challenges a word (`PREFIX_CHALLENGE`), and the table's verdict comes from the
phones too (`PREFIX_VERDICT`; who may give which: `_verdicts`), recorded as the box's `Challenge`.

The view: the round (number, hand size), the stage, this seat's entry, what each player laid this round,
the round tables so far (cards per word with their values, struck challenged words, cards left, the
bonuses), the scoreboard, the best lay-downs the word list revealed, the winners at the end.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.i18n import texts
from firmware_host.core.memo import Same, remembers
from firmware_host.core.table.page_parts import action, ask, board, cell, sheet
from firmware_host.core.table.played import enter
from firmware_host.core.table.seats import named, refuse
from firmware_host.core.view_json import KnownDict, KnownList, known_dict, known_list

from .errors import RuleError
from .notation import format_cards, parse_cards
from .record import Challenge, Lay
from .rules import ROUNDS, Game, Setup
from .scoring import RoundScore
from .screens import best_items, targets
from .stages import ChallengeList, LayEntry, OutChoice, VerdictPick, next_stage
from .text import t

if TYPE_CHECKING:
    from .table import QuiddlerFlow

STAGES = {  # the page's name of each stage
    "PlayerCount": "setup", "PlayerNames": "setup", "DealerPick": "setup", "BonusPick": "setup", "Summary": "setup",
    "PlanPage": "plan", "TablePage": "table", "BoardPage": "board", "FinalPage": "final", "OutChoice": "play",
    "LayEntry": "lay", "ChallengeList": "challenges", "ChallengerPick": "challenges", "TargetPick": "challenges",
    "VerdictPick": "challenges",
}
TEXT = {  # the phone's own words (the box's are `text.py`'s)
    "de": {"laid": "{player}: {words} · übrig: {unused}", "best": "Das beste Mögliche in Runde {n}",
           "player": "Spieler", "laid_col": "Gelegt", "left": "übrig: {cards} −{value}",
           "bonus": "+{points} Bonus", "stage.plan": "Gleich beginnt die nächste Runde.",
           "stage.table": "Die Runde ist gewertet.", "stage.board": "Der Zwischenstand.",
           "stage.final": "Das Spiel ist aus.", "stage.challenges": "Jetzt kann jeder ein Wort anfechten.",
           "stage.lay": "Die Karten werden ausgelegt."},
    "en": {"laid": "{player}: {words} · left: {unused}", "best": "The best possible in round {n}",
           "player": "Player", "laid_col": "Laid down", "left": "left: {cards} −{value}",
           "bonus": "+{points} bonus", "stage.plan": "The next round begins soon.",
           "stage.table": "The round is scored.", "stage.board": "The standings.",
           "stage.final": "The game is over.", "stage.challenges": "Anyone may challenge a word now.",
           "stage.lay": "The hands are being laid down."},
}
say = texts(TEXT)
PREFIX_OUT = "!"
BACK_TEXT = "<"
PREFIX_CHALLENGE = "?"  # "?N": this seat challenges the N-th word it may name (`table._targets`)
PREFIX_VERDICT = "="  # "=1": the word is allowed, "=0": not allowed (the table's verdict, `_verdicts`)


def _asking(flow: QuiddlerFlow) -> bool:
    """Whether the box waits for lay-downs now (a round open, no challenge in progress)."""
    game = flow.played.game if flow.played is not None else None
    return game is not None and game.current is not None and isinstance(flow.stage, OutChoice | LayEntry)


def _draft(flow: QuiddlerFlow, seat: int) -> tuple[tuple[str, ...], ...] | None:
    """The words this seat typed for the open round, waiting for its cards left."""
    game = flow.played.game if flow.played is not None else None
    if game is None or game.current is None:
        return None
    return next((words for s, n, words in flow.phone if s == seat and n == game.current.plan.number), None)


def seat_entry(flow: QuiddlerFlow, seat: int, text: str, ctx: Ctx) -> Outcome:
    """A line from seat `seat`'s phone (see the module's contract)."""
    plain = replace(flow, message="")
    game = flow.played.game if flow.played is not None else None
    if game is None or not 0 <= seat < len(game.players):
        return refuse(replace(plain, message=t(ctx.lang, "page_no_seat", seat=seat + 1)), ctx)
    player = game.players[seat]
    current = game.current
    if _challenging(flow) and text.startswith(PREFIX_CHALLENGE):
        return _challenge(plain, game, player, text.removeprefix(PREFIX_CHALLENGE), ctx)
    if _judging(flow) and text.startswith(PREFIX_VERDICT):
        return _verdict(plain, game, player, text.removeprefix(PREFIX_VERDICT), ctx)
    if not _asking(flow) or current is None or current.lay_of(player) is not None:
        return refuse(replace(plain, message=t(ctx.lang, "page_not_now", name=player)), ctx)
    deck, number = game.setup.deck, current.plan.number
    others = tuple(d for d in flow.phone if d[0] != seat)
    words = _draft(flow, seat)
    try:
        if words is None:
            out = text.startswith(PREFIX_OUT)
            typed = tuple(parse_cards(word, deck) for word in text.removeprefix(PREFIX_OUT).split())
            if not out:
                return Outcome(replace(plain, phone=(*others, (seat, number, typed))))
            lay = Lay(player, tuple(map(format_cards, typed)), "", True)
            return _record(replace(plain, phone=others), lay, ctx, flow.phone)
        if text == BACK_TEXT:
            return Outcome(replace(plain, phone=others))
        unused = parse_cards(text, deck, allow_empty=True)
    except RuleError as exc:
        return refuse(replace(plain, message=f"{player}: {exc.message}"), ctx)
    lay = Lay(player, tuple(map(format_cards, words)), format_cards(unused), False)
    return _record(replace(plain, phone=others), lay, ctx, flow.phone)


def _challenging(flow: QuiddlerFlow) -> bool:
    """Whether the box shows the round's challenges (none being entered on it)."""
    return isinstance(flow.stage, ChallengeList)


def _judging(flow: QuiddlerFlow) -> bool:
    """Whether the box asks the table's verdict on a challenged word."""
    return isinstance(flow.stage, VerdictPick)


def _verdicts(flow: QuiddlerFlow, game: Game, player: str) -> tuple[bool, ...]:
    """The verdicts (allowed?) `player`'s phone may give on the challenged word. The verdict is the table's
    (RULES: Quiddler, challenges): a player not in the dispute records either; in it, only the verdict
    against oneself — the challenger concedes "allowed", the word's owner "not allowed". The box's entry
    stays for everything else."""
    entry = flow.stage
    if not isinstance(entry, VerdictPick):
        return ()
    named = targets(game, entry.challenger)
    if not 0 <= entry.target < len(named):
        return ()
    owner = named[entry.target][0]
    if player == entry.challenger:
        return (True,)
    if player == owner:
        return (False,)
    return (True, False)


def _verdict(flow: QuiddlerFlow, game: Game, player: str, value: str, ctx: Ctx) -> Outcome:
    """The table's verdict from `player`'s phone: recorded as the box's verdict is (`Challenge`)."""
    entry = flow.stage
    assert isinstance(entry, VerdictPick)
    if value not in ("0", "1"):
        return refuse(replace(flow, message=t(ctx.lang, "page_not_now", name=player)), ctx)
    allowed = value == "1"
    if allowed not in _verdicts(flow, game, player):
        return refuse(replace(flow, message=t(ctx.lang, "page_verdict_own", name=player)), ctx)
    owner, word = targets(game, entry.challenger)[entry.target]
    return flow.record(Challenge(entry.challenger, owner, format_cards(word), allowed=allowed), ctx)


def _challenge(flow: QuiddlerFlow, game: Game, player: str, index: str, ctx: Ctx) -> Outcome:
    """The seat's player challenges a word: the box asks the table's verdict for it (as after choosing the
    challenger and the word on the box)."""
    named = targets(game, player)
    if not index.isdigit() or not int(index) < len(named):
        return refuse(replace(flow, message=t(ctx.lang, "page_not_now", name=player)), ctx)
    owner, word = named[int(index)]
    message = t(ctx.lang, "page_verdict", challenger=player, owner=owner, word=format_cards(word))
    return Outcome(replace(flow, stage=VerdictPick(player, int(index)), message=message))


def _record(flow: QuiddlerFlow, lay: Lay, ctx: Ctx, kept: tuple[Any, ...]) -> Outcome:
    """The lay-down entered through the rules; the box's entry moves on if it asked for this player.
    Refused: the phones' typed words stay `kept`."""
    entered, outcome = enter(flow, ctx, lay)
    if entered is None or entered.played is None:
        assert isinstance(outcome.flow, type(flow))
        return named(replace(outcome, flow=replace(outcome.flow, phone=kept)), lay.player)
    box = entered.stage
    game = entered.played.game
    if not isinstance(box, LayEntry) or box.player not in game.waiting_for:
        box = next_stage(game)
    return replace(outcome, flow=replace(entered, stage=box))


def page_data(flow: QuiddlerFlow, seat: int | None, ctx: Ctx) -> dict[str, Any]:
    """The page's view of the flow for `seat` (None: no seat)."""
    lang = ctx.lang
    data: dict[str, Any] = {"stage": STAGES[type(flow.stage).__name__], "asks": None, "message": flow.message}
    if flow.played is None:
        return data
    game = flow.played.game
    current = game.current
    plan = current.plan if current is not None else game.next_round
    if plan is not None:
        data["round_text"] = t(lang, "page_round", n=plan.number, total=ROUNDS, cards=plan.hand_size)
    if current is not None:
        data["turn"] = flow.on_turn()
        if data["turn"] is not None and not current.lays:
            data["status"] = t(lang, "page_on_turn", player=data["turn"])
        data["laid"] = [
            say(lang, "laid", player=player, words=" ".join(map(format_cards, lay.words)) or "–",
                unused=format_cards(lay.unused) or "–")
            + (" " + t(lang, "page_going_out") if lay.went_out else "")
            for player, lay in ((p, current.lay_of(p)) for p in game.players) if lay is not None
        ]
    mine = seat is not None and 0 <= seat < len(game.players)
    if mine and seat is not None and current is not None and _asking(flow) \
            and current.lay_of(game.players[seat]) is None:
        data["entry"] = _ask(flow, game, seat, lang)
        data["asks"] = data["entry"]["kind"]
    if mine and seat is not None and current is not None and _challenging(flow):
        named = targets(game, game.players[seat])
        if named:
            actions = [action(f"{owner}: {format_cards(word)}", f"{PREFIX_CHALLENGE}{i}")
                       for i, (owner, word) in enumerate(named)]
            data["entry"] = ask("choice", t(lang, "page_challenge"), lang, field=False, actions=actions)
            data["asks"] = "choice"
    if mine and seat is not None and current is not None and _judging(flow):
        verdicts = _verdicts(flow, game, game.players[seat])
        if verdicts:
            data["entry"] = _verdict_ask(flow, game, verdicts, lang)
            data["asks"] = "choice"
    data["tables"] = _tables(game, lang)
    if current is None and game.rounds:  # between rounds: the last one's best, named; gone once the next is on
        data["best"] = _best(flow, lang)
        data["best_title"] = say(lang, "best", n=len(game.rounds))
    if game.finished and current is None:
        data["winners"] = list(game.winners)
    if "status" not in data and f"stage.{data['stage']}" in TEXT["de"]:
        data["status"] = say(lang, f"stage.{data['stage']}")
    return data


def _verdict_ask(flow: QuiddlerFlow, game: Game, verdicts: tuple[bool, ...], lang: str) -> dict[str, Any]:
    entry = flow.stage
    assert isinstance(entry, VerdictPick)
    owner, word = targets(game, entry.challenger)[entry.target]
    actions = [action(t(lang, "allowed" if allowed else "not_allowed"), f"{PREFIX_VERDICT}{int(allowed)}")
               for allowed in verdicts]
    return ask("choice", t(lang, "page_verdict_ask", owner=owner, word=format_cards(word)), lang, field=False,
               hint=t(lang, "page_verdict_hint"), actions=actions)


def _ask(flow: QuiddlerFlow, game: Game, seat: int, lang: str) -> dict[str, Any]:
    words = _draft(flow, seat)
    if words is None:
        went_out = game.current is not None and any(lay.went_out for lay in game.current.lays)
        actions = [action(t(lang, "page_next"))]
        if not went_out:
            actions.append(action(t(lang, "page_out"), PREFIX_OUT + "{text}"))
        return ask("cards", t(lang, "page_words"), lang, hint=t(lang, "page_words_hint"), actions=actions)
    shown = " ".join(format_cards(w) for w in words) or "–"
    return ask("cards", t(lang, "page_left"), lang, hint=t(lang, "page_left_hint", words=shown), draft=shown,
               actions=[action(t(lang, "page_next")), action(t(lang, "page_back"), BACK_TEXT)])


def _tables(game: Game, lang: str) -> KnownList:
    """The round tables, the last first, below the scoreboard (made once per scored rounds and language)."""
    return _scored_tables(game.setup, Same(*game.rounds), lang)


@remembers(8)
def _scored_tables(setup: Setup, rounds: Same[RoundScore], lang: str) -> KnownList:
    tables = [_round_table(scored, lang) for scored in reversed(rounds.values)]
    if rounds.values:
        ranking = Game(setup, rounds.values).ranking()
        tables.insert(0, known_dict(board(lang, ranking, t(lang, "board_title", n=len(rounds.values), total=ROUNDS))))
    return known_list(tables)


@remembers(16)
def _round_table(scored: RoundScore, lang: str) -> KnownDict:
    """A scored round in four columns that fit a phone: the player (* went out), what they laid (each word
    with its value, then the cards left and the bonus), the round's result and the total."""
    head = (say(lang, "player"), say(lang, "laid_col"), t(lang, "page_result"), t(lang, "page_total"))
    rows = []
    for row in scored.rows:
        words = " · ".join(
            f"{format_cards(w.cards)} {w.value}" if w.allowed is not False else f"{format_cards(w.cards)} ✗"
            for w in row.words
        ) or "–"
        bonus = row.most_words_bonus + row.longest_word_bonus
        extra = [say(lang, "left", cards=format_cards(row.unused), value=row.unused_value)] if row.unused else []
        extra += [say(lang, "bonus", points=bonus)] if bonus else []
        rows.append([
            cell(row.player + (" *" if row.went_out else ""), "out" if row.went_out else ""),
            "\n".join([words, *extra]),
            cell(row.result, "circled" if bonus else ""), row.total,
        ])
    return known_dict(sheet(t(lang, "table_title", n=scored.number), head, rows))


def _best(flow: QuiddlerFlow, lang: str) -> list[str]:
    """The best lay-downs the word list found for the last scored round: the OLED's round table's lines."""
    return [f"{item.label} · {item.value}" if item.value else item.label for item in best_items(flow, lang)]
