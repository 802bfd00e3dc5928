"""What Quiddler's stages after the setup show (`table.QuiddlerFlow.STAGES`): the pages between rounds,
who went out, a lay-down being entered, the challenges; and the typed line of a lay-down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware_host.core.flow import Ctx
from firmware_host.core.i18n import signed, word_list
from firmware_host.core.screens import ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.text_field import TextField

from . import stages
from .notation import format_cards
from .rules import ROUNDS, Game, OpenRound
from .text import t

if TYPE_CHECKING:
    from .table import QuiddlerFlow as Flow


def game_of(flow: Flow) -> Game:
    assert flow.played is not None, "every stage after the setup has a game"
    return flow.played.game


def round_of(flow: Flow) -> OpenRound:
    current = game_of(flow).current
    assert current is not None, "a round is open"
    return current


def plan_screen(flow: Flow, stage: stages.PlanPage, ctx: Ctx) -> Screen:
    lang, plan = ctx.lang, game_of(flow).next_round
    assert plan is not None
    lines = (
        t(lang, "plan_deal", dealer=plan.dealer, cards=plan.hand_size),
        t(lang, "plan_start", starter=plan.starter),
    )
    return MessageScreen(t(lang, "plan_title", n=plan.number, total=ROUNDS), lines, t(lang, "plan_hint"))


def table_screen(flow: Flow, stage: stages.TablePage, ctx: Ctx) -> Screen:
    """The round just scored, the word list's best lay-downs under it once it answered."""
    lang, game = ctx.lang, game_of(flow)
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
    return ListScreen(t(lang, "table_title", n=scored.number), (*items, *best_items(flow, lang)), None, footer)


def _ranking(game: Game) -> tuple[ListItem, ...]:
    return tuple(
        ListItem(f"{place}. {player}", str(total), marked=place == 1) for place, player, total in game.ranking()
    )


def board_screen(flow: Flow, stage: stages.BoardPage, ctx: Ctx) -> Screen:
    game = game_of(flow)
    title = t(ctx.lang, "board_title", n=len(game.rounds), total=ROUNDS)
    return ListScreen(title, _ranking(game), None, t(ctx.lang, "next_hint"))


def final_screen(flow: Flow, stage: stages.FinalPage, ctx: Ctx) -> Screen:
    game = game_of(flow)
    return ListScreen(t(ctx.lang, "final_title", names=", ".join(game.winners)), _ranking(game), None,
                      t(ctx.lang, "final_hint"))


def out_screen(flow: Flow, stage: stages.OutChoice, ctx: Ctx) -> Screen:
    game, lang = game_of(flow), ctx.lang
    items = (*(ListItem(p) for p in game.players), ListItem(t(lang, "nobody")))
    return ListScreen(t(lang, "out_title", n=round_of(flow).plan.number), items, stage.cursor, t(lang, "choose_hint"))


def closed(e: stages.LayEntry) -> tuple[tuple[str, ...], ...]:
    """The lay-down's words with the one being scanned closed."""
    return (*e.words, e.partial) if e.partial else e.words


def lay_screen(flow: Flow, e: stages.LayEntry, ctx: Ctx) -> Screen:
    lang, plan = ctx.lang, round_of(flow).plan
    n = plan.number
    words = " ".join(format_cards(w) for w in e.words) or "–"
    lines = [t(lang, "words_line", words=words)]
    if e.partial:
        lines.append(t(lang, "partial_line", cards=format_cards(e.partial)))
    laid = sum(len(w) for w in closed(e))
    if e.unused_stage:
        lines.append(t(lang, "unused_line", cards=format_cards(e.unused) or "–"))
        title, hint = t(lang, "unused_title", n=n, player=e.player), t(lang, "unused_hint")
    else:
        key = "words_title_out" if e.went_out else "words_title"
        title, hint = t(lang, key, n=n, player=e.player), t(lang, "words_hint")
    lines.append(t(lang, "cards_line", laid=laid + len(e.unused), hand=plan.hand_size))
    return MessageScreen(title, tuple(lines), hint)


def lay_field(flow: Flow, e: stages.LayEntry, ctx: Ctx) -> TextField | None:
    """A player's words or unused cards in card notation."""
    current = game_of(flow).current
    if current is None:
        return None
    key = "unused_title" if e.unused_stage else "words_title_out" if e.went_out else "words_title"
    return TextField(t(ctx.lang, key, n=current.plan.number, player=e.player), "cards")


def challenges_screen(flow: Flow, stage: stages.ChallengeList, ctx: Ctx) -> Screen:
    lang, current = ctx.lang, round_of(flow)
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


def challenger_screen(flow: Flow, stage: stages.ChallengerPick, ctx: Ctx) -> Screen:
    items = tuple(ListItem(p) for p in game_of(flow).players)
    return ListScreen(t(ctx.lang, "challenger"), items, stage.cursor, t(ctx.lang, "choose_hint"))


def target_screen(flow: Flow, stage: stages.TargetPick, ctx: Ctx) -> Screen:
    items = tuple(ListItem(f"{owner}: {format_cards(word)}") for owner, word in targets(game_of(flow),
                                                                                        stage.challenger))
    return ListScreen(t(ctx.lang, "target", challenger=stage.challenger), items, stage.cursor,
                      t(ctx.lang, "choose_hint"))


def verdict_screen(flow: Flow, stage: stages.VerdictPick, ctx: Ctx) -> Screen:
    owner, word = targets(game_of(flow), stage.challenger)[stage.target]
    items = (ListItem(t(ctx.lang, "allowed")), ListItem(t(ctx.lang, "not_allowed")))
    return ListScreen(f"{owner}: {format_cards(word)}", items, stage.cursor, t(ctx.lang, "choose_hint"))


def targets(game: Game, challenger: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
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


def _word_of(current: OpenRound, owner: str, index: int) -> tuple[str, ...]:
    lay = current.lay_of(owner)
    return lay.words[index] if lay is not None else ()


def best_items(flow: Flow, lang: str) -> list[ListItem]:
    """The last round's best lay-downs beside the table, once the word list answered."""
    game = flow.played.game if flow.played is not None else None
    found = next((b for b in flow.best if game is not None and b.round == len(game.rounds)), None)
    if found is None:
        return []
    from .best_lay import best_label

    items = [ListItem(best_label(lang, player, text), str(points)) for player, text, points, _, _ in found.best]
    return [*items, ListItem(t(lang, "best_source"), word_list(lang, found.source))]
