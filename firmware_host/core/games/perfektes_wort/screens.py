"""What Das perfekte Wort's stages of a round show and the lines they wait for
(`table.PerfektesWortFlow.STAGES`): the reveal, the call and the sand, the word entry, the review and the
shortening, the points, the scoreboard, the final."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware_host.core.flow import Ctx
from firmware_host.core.i18n import word_list
from firmware_host.core.screens import BigScreen, ListItem, ListScreen, MessageScreen, Screen
from firmware_host.core.text_field import TextField
from firmware_host.core.timer import format_seconds

from .data import ROUNDS
from .fields import Mark
from .rules import Game, field_marks
from .scoring import score
from .stages import Calling, Entering, Final, Fixing, Points, Revealing, Reviewing, SoloStriking, Standing, Timing
from .text import t

if TYPE_CHECKING:
    from .table import PerfektesWortFlow as Flow


def card_hint(play: Game, lang: str) -> str | None:
    """The footer asking for the next card when the deck lacks it for the next round; else None."""
    if play.revealed < ROUNDS and cards_wanted(play):
        return t(lang, "hint_card", n=len(play.setup.deck) + 1)
    return None


def revealing_screen(flow: Flow, stage: Revealing, ctx: Ctx) -> Screen:
    play, lang = play_of(flow), ctx.lang
    return BigScreen(t(lang, "reveal_title", round=play.revealed + 1), t(lang, "reveal_big"),
                     flow.message or card_hint(play, lang) or t(lang, "hint_reveal"))


def calling_screen(flow: Flow, stage: Calling | Timing, ctx: Ctx) -> Screen:
    play, lang = play_of(flow), ctx.lang
    rnd = play.revealed
    title = t(lang, "call_title", round=rnd, length=play.max_length(rnd))
    if isinstance(stage, Calling):  # the big view: the card as it looks, letter and longest length
        return BigScreen(title, f"{play.letter(rnd)} {play.max_length(rnd)}", flow.message or t(lang, "hint_call"))
    big = f"{play.letter(rnd)}  {format_seconds(ctx.timer_left)}"
    if sand_paused(ctx):  # a minute that came back from a power cut paused: START runs it on
        return BigScreen(title, big, flow.message or t(lang, "hint_paused", left=format_seconds(ctx.timer_left)))
    drafts = t(lang, "hint_drafts", n=len(flow.drafts), count=len(flow.players)) if flow.drafts else ""
    return BigScreen(title, big, flow.message or drafts or t(lang, "hint_timing"))


def sand_paused(ctx: Ctx) -> bool:
    """Whether the round's sand stands paused with time left (after a restart, or paused on the timer's
    screen): then START runs it on instead of ending the minute."""
    return not ctx.timer_running and not ctx.timer_over and ctx.timer_left > 0


def entering_screen(flow: Flow, stage: Entering, ctx: Ctx) -> Screen:
    play, lang = play_of(flow), ctx.lang
    rnd = play.revealed
    title = t(lang, "entry_title", player=flow.players[stage.slot], round=rnd)
    lines = (t(lang, "entry_lines", letter=play.letter(rnd), length=play.max_length(rnd)), t(lang, "hint_entry"))
    return MessageScreen(title, lines, flow.message)


def reviewing_screen(flow: Flow, stage: Reviewing, ctx: Ctx) -> Screen:
    play, lang, footer = play_of(flow), ctx.lang, flow.message
    items = tuple(ListItem(p, _status(flow, play, p, lang)) for p in flow.players)
    entry = play.entry(play.revealed, flow.players[stage.slot])
    if not footer and entry is not None and flow.known(entry.current) is False and not entry.struck:
        footer = f"{entry.current}: {t(lang, 'unknown_word')}"  # the row's value may be cut short
    return ListScreen(t(lang, "review_title", round=play.revealed), items, stage.slot,
                      footer or t(lang, "hint_review"))


def fixing_screen(flow: Flow, stage: Fixing, ctx: Ctx) -> Screen:
    play, lang = play_of(flow), ctx.lang
    entry = play.entry(play.revealed, flow.players[stage.slot])
    word = entry.current if entry else ""
    options = flow.options(play, stage.slot)
    items = (*(ListItem(p, str(len(p))) for p in options), ListItem(t(lang, "strike_option")))
    title = t(lang, "fix_title", player=flow.players[stage.slot], word=word)
    return ListScreen(title, items, stage.choice % len(items), flow.message or t(lang, "hint_fix"))


def solo_striking_screen(flow: Flow, stage: SoloStriking, ctx: Ctx) -> Screen:
    items = tuple(ListItem(f) for f in flow.open_fields(play_of(flow)))
    return ListScreen(t(ctx.lang, "solo_title"), items, stage.choice % max(1, len(items)),
                      flow.message or t(ctx.lang, "hint_solo"))


def points_screen(flow: Flow, stage: Points, ctx: Ctx) -> Screen:
    play, lang = play_of(flow), ctx.lang
    rnd = play.revealed
    # one line per player: the word, its points, the bonus fields, and the perfect word where it is theirs
    marks, best = _field_marks(flow, play, rnd, lang), _best_of(flow, rnd)
    lines = []
    for p in score(play).players:
        row = p.rows[rnd - 1]
        parts = [t(lang, "points_line", name=p.name, word=row.word or t(lang, "no_word"), points=row.points)]
        parts += marks[p.name]
        word, points = best.get(p.name, ("", 0))
        parts += [t(lang, "best_mine", word=word, points=points)] if word else []
        lines.append(" ".join(parts))
    lines += [item.label for key, item in zip(best, best_items(flow, rnd, lang), strict=False) if key not in marks]
    return MessageScreen(t(lang, "points_title", round=rnd), tuple(lines), flow.message or t(lang, "hint_points"))


def _best_of(flow: Flow, rnd: int) -> dict[str, tuple[str, int]]:
    """The word list's answer for round `rnd` as (key, (best word, points)), keyed as `reveal_text` keys it
    (a player's name, "all", "solo:<own points>"); empty before it answered."""
    found = next((b for b in flow.best if b.round == rnd), None)
    if found is None:
        return {}
    from .best_word import reveal_text

    return {key: (word, points) for key, word, points in reveal_text(found.best, play_of(flow).solo)}


def standing_screen(flow: Flow, stage: Standing, ctx: Ctx) -> Screen:
    play, lang = play_of(flow), ctx.lang
    rnd = play.revealed
    items = tuple(ListItem(p.name, str(p.total), p.winner) for p in score(play).players)
    hint = card_hint(play, lang) or t(lang, "hint_board" if rnd < ROUNDS else "hint_board_last")
    return ListScreen(t(lang, "board_title", round=rnd), items, None, flow.message or hint)


def final_screen(flow: Flow, stage: Final, ctx: Ctx) -> Screen:
    play, lang, footer = play_of(flow), ctx.lang, flow.message
    if stage.listing:
        items = tuple(ListItem(t(lang, "hs_row", place=i, name=h.name), str(h.total), i == stage.place)
                      for i, h in enumerate(stage.best, start=1))
        return ListScreen(t(lang, "hs_title", side=play.setup.sheet.title), items, None, footer or t(lang, "hint_hs"))
    result = score(play)
    ranked = sorted(result.players, key=lambda p: (p.rank, flow.players.index(p.name)))
    items = tuple(
        ListItem(t(lang, "final_row", rank=p.rank, name=p.name, word=p.word_points, vowel=p.vowels.points,
                   bonus=p.bonus_points), t(lang, "final_value", total=p.total), p.winner)
        for p in ranked
    )
    if flow.reveal == "end" and flow.best:
        from .best_word import reveal_text

        items = (*items, *(ListItem(t(lang, "best_round", round=b.round, word=word or "—", points=points))
                           for b in flow.best for _, word, points in reveal_text(b.best, play.solo)[:1]),
                 ListItem(t(lang, "best_source"), word_list(lang, flow.best[0].source)))
    title = t(lang, "final_shared" if result.shared else "final_title", names=", ".join(result.winners))
    if play.solo:
        placed = t(lang, "hs_place", place=stage.place) if stage.place else t(lang, "hs_missed")
        return ListScreen(title, (*items, ListItem(placed)), None, footer or t(lang, "hint_final_solo"))
    return ListScreen(title, items, None, footer or t(lang, "hint_final"))


def best_items(flow: Flow, rnd: int, lang: str) -> list[ListItem]:
    """The perfect word of round `rnd` once the word list answered; nothing before (or without a list)."""
    found = next((b for b in flow.best if b.round == rnd), None)
    if found is None:
        return []
    from .best_word import reveal_text

    items = []
    for key, word, points in reveal_text(found.best, play_of(flow).solo):
        if not word:
            items.append(ListItem(t(lang, "best_none")))
        elif key == "all":
            items.append(ListItem(t(lang, "best_all", word=word, points=points)))
        elif key.startswith("solo:"):
            items.append(ListItem(t(lang, "best_solo", own=key[5:], word=word, points=points)))
        else:
            items.append(ListItem(t(lang, "best_for", player=key, word=word, points=points)))
    return [*items, ListItem(t(lang, "best_source"), word_list(lang, found.source))]


def play_of(flow: Flow) -> Game:
    assert flow.played is not None, "a round's stage has a game in play"
    return flow.played.game


def _status(flow: Flow, play: Game, player: str, lang: str) -> str:
    entry = play.entry(play.revealed, player)
    if entry is None or not entry.written:
        return t(lang, "no_word")
    if entry.struck:
        return f"{entry.written} {t(lang, 'struck')}"
    shown = entry.written if entry.kept is None else f"{entry.written}→{entry.current}"
    if len(entry.current) > play.max_length(play.revealed):
        return f"{shown} {t(lang, 'too_long')}"
    if entry.invalid:
        return f"{shown} {t(lang, 'invalid')}"
    if flow.known(entry.current) is False:
        return f"{shown} {t(lang, 'unknown_word')}"
    return shown


def _field_marks(flow: Flow, play: Game, rnd: int, lang: str) -> dict[str, list[str]]:
    """Each player's bonus fields of round `rnd`: each one circled ("◯CH"), each one struck because
    another circled it ("✗CH")."""
    marks = field_marks(play)
    shown: dict[str, list[str]] = {p: [] for p in flow.players}
    for field in play.setup.sheet.bonus_fields:
        circled = [p for p in flow.players if marks[p][field].mark is Mark.CIRCLED and marks[p][field].round == rnd]
        struck = [p for p in flow.players if marks[p][field].mark is Mark.STRUCK and marks[p][field].round == rnd]
        for p in circled:
            shown[p].append(t(lang, "circled", field=field))
        for p in struck if circled else ():
            shown[p].append(t(lang, "struck_field", field=field))
    return shown


def cards_wanted(play: Game) -> int:
    """How many cards the deck still lacks for the next round to begin (its length and its letter)."""
    return max(0, play.revealed + 2 - len(play.setup.deck))


def card_field(flow: Flow, stage: Revealing | Standing, ctx: Ctx) -> TextField | None:
    """A letter card ("B7") when the deck lacks the next round's."""
    play = play_of(flow)
    if card_hint(play, ctx.lang) is None:
        return None
    return TextField(t(ctx.lang, "card_field", n=len(play.setup.deck) + 1), "card")


def entering_field(flow: Flow, stage: Entering, ctx: Ctx) -> TextField:
    """A player's word, the only input at the word entry."""
    play, lang = play_of(flow), ctx.lang
    rnd = play.revealed
    note = t(lang, "entry_note", letter=play.letter(rnd), length=play.max_length(rnd))
    title = t(lang, "entry_title", player=flow.players[stage.slot], round=rnd)
    return TextField(title, "word", note=note, only=True, message=flow.message)


def reviewing_field(flow: Flow, stage: Reviewing, ctx: Ctx) -> TextField:
    """A correction of the word under the cursor."""
    return TextField(t(ctx.lang, "review_field", player=flow.players[stage.slot]), "word")


def fixing_field(flow: Flow, stage: Fixing, ctx: Ctx) -> TextField:
    """A shortening: the word's new length or the prefix itself."""
    entry = play_of(flow).entry(play_of(flow).revealed, flow.players[stage.slot])
    return TextField(t(ctx.lang, "fix_field", word=entry.current if entry else ""), "text")


def solo_field(flow: Flow, stage: SoloStriking, ctx: Ctx) -> TextField:
    """A bonus field to strike."""
    return TextField(t(ctx.lang, "solo_field"), "text")
