"""Das perfekte Wort on the table page: what each seat's phone shows (pure; JSON-ready data).

The round's card (round, letter, maximum length), the stage (a paused minute says in `status` that the
box's START runs it on) and what it asks of this seat (`asks`: "word" while the sand runs or, after the
alarm, while this seat has no word yet), the seat's own hidden draft and only a count of the others'
(`written`), the round's words once the alarm has entered them, and the whole sheet: each player's rows
(word, status, points and their breakdown), vowel and bonus points, total, rank.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from firmware_host.core.events import TextEntry
from firmware_host.core.flow import Ctx, Outcome
from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import texts
from firmware_host.core.memo import remembers, remembers_last
from firmware_host.core.table.page_parts import action, ask
from firmware_host.core.table.page_parts import t as part_text
from firmware_host.core.table.seats import refuse
from firmware_host.core.timer import format_seconds
from firmware_host.core.view_json import KnownDict, KnownList, known_dict, known_list

from .errors import TooLong, Unresolved
from .fields import FieldMark
from .rules import Entry, Game, Word
from .scoring import PlayerResult, Result, RowScore, score
from .stages import Entering, Fixing, Timing
from .text import t

if TYPE_CHECKING:
    from .table import PerfektesWortFlow

TEXT = {  # the phone's own words (the box's, with its keys, are `text.py`'s); "stage.*": what happens now
    "de": {"fix_hint": "Eine Länge antippen, oder ein kürzeres Wort oder seine Länge tippen.",
           "stage.reveal": "Am Tisch wird die nächste Karte aufgedeckt.",
           "stage.call": "Die Karte liegt – gleich läuft die Sanduhr.",
           "stage.entering": "Die Sanduhr ist abgelaufen: die Wörter werden eingetragen.",
           "stage.review": "Am Tisch werden die Wörter geprüft.",
           "stage.fix": "Ein zu langes Wort wird gekürzt.",
           "stage.points": "Die Runde ist gewertet.",
           "stage.solo_strike": "Am Tisch wird ein Bonusfeld gestrichen.",
           "stage.standing": "Der Zwischenstand – gleich geht es weiter.",
           "stage.final": "Das Spiel ist aus."},
    "en": {"fix_hint": "Tap a length, or type a shorter word or its length.",
           "stage.reveal": "The next card is being turned over at the table.",
           "stage.call": "The card is out – the sand timer runs soon.",
           "stage.entering": "Time is up: the words are being entered.",
           "stage.review": "The words are being checked at the table.",
           "stage.fix": "A word that is too long is being shortened.",
           "stage.points": "The round is scored.",
           "stage.solo_strike": "A bonus field is being struck at the table.",
           "stage.standing": "The standings – the game goes on soon.",
           "stage.final": "The game is over."},
}
say = texts(TEXT)

STAGES = {
    "SeatPick": "setup", "SidePick": "setup", "FacePick": "setup", "DeckPick": "setup", "Scanning": "setup",
    "Revealing": "reveal", "Calling": "call", "Timing": "timing", "Entering": "entering", "Reviewing": "review",
    "Fixing": "fix", "Points": "points", "SoloStriking": "solo_strike", "Standing": "standing", "Final": "final",
}


def seat_entry(flow: PerfektesWortFlow, seat: int, text: str, ctx: Ctx) -> Outcome:
    """A word from the phone of seat `seat`: while the sand runs it is the seat's draft (hidden, checked
    by the rules core, replaced by a later one, withdrawn by an empty line) until the alarm enters all
    drafts at once; after the alarm it is the seat's word at once, if the seat has none yet; while the
    table shortens this seat's word (`Fixing`), the shortened word or its length."""
    plain, stage = replace(flow, message=""), flow.stage
    if flow.played is None or not 0 <= seat < len(flow.players):
        return refuse(replace(plain, message=t(ctx.lang, "phone_no_seat", seat=seat + 1)), ctx)
    play, player = flow.played.game, flow.players[seat]
    others = tuple(d for d in flow.drafts if d[0] != seat)
    if isinstance(stage, Timing):
        if not text:
            return Outcome(replace(plain, drafts=others))
        try:
            flow.played.enter(Word(play.revealed, player, text))  # checked only: entered at the alarm
        except RuleError as exc:
            return refuse(replace(plain, message=exc.text(ctx.lang)), ctx)
        return Outcome(replace(plain, drafts=tuple(sorted((*others, (seat, text))))))
    if isinstance(stage, Entering) and play.entry(play.revealed, player) is None:
        return plain.enter_word(Word(play.revealed, player, text), ctx)
    if isinstance(stage, Fixing) and stage.slot == seat:  # the own word shortened, as typed on the box
        return plain.fix_word(TextEntry(text, ctx.now), ctx)
    return refuse(replace(plain, message=t(ctx.lang, "phone_not_now", name=player)), ctx)


def page_data(flow: PerfektesWortFlow, seat: int | None, ctx: Ctx) -> dict[str, Any]:
    """The page's view of the flow for `seat` (None: no seat): what every seat sees (`_shared`, made once
    per flow value and language) and what this seat is asked and has drafted."""
    data = dict(_shared(flow, ctx.lang))
    if flow.explains_pause(ctx):  # the minute came back paused: the box's START runs it on
        data["status"] = t(ctx.lang, "page_paused", left=format_seconds(ctx.timer_left))
    elif f"stage.{data['stage']}" in TEXT["de"]:
        data["status"] = say(ctx.lang, f"stage.{data['stage']}")
    play = flow.play
    if play is None or seat is None or not 0 <= seat < len(flow.players):
        return data
    rnd, stage = play.revealed, data["stage"]
    if stage == "timing":
        data["asks"] = "word"
        data["draft"] = next((w for s, w in flow.drafts if s == seat), "")
    elif rnd:
        if stage == "entering" and flow.players[seat] not in _round_entries(play):
            data["asks"] = "word"
        if stage == "fix" and seat == getattr(flow.stage, "slot", None):
            data["entry"] = _fix_ask(flow, seat, ctx.lang)
            data["asks"] = "word"
    return data


@remembers_last
def _shared(flow: PerfektesWortFlow, lang: str) -> dict[str, Any]:
    """What every seat's view holds for `flow` in `lang`: the stage, the card, who has written, the words,
    the sheet, the best words, the winners. Remembered for the last flow value asked (by identity: a flow is
    immutable), so the views of one step score the game once, not once per seat. Callers copy, never change."""
    stage = STAGES[type(flow.stage).__name__]
    data: dict[str, Any] = {"stage": stage, "asks": None, "message": flow.message}
    play = flow.play
    if play is not None:
        data["sand"] = True  # every round's minute: the phone shows the sand timer
        rnd = play.revealed
        if rnd:
            data["card"] = {"round": rnd, "letter": play.letter(rnd), "max_length": play.max_length(rnd)}
        if stage == "timing":
            data["written"] = [any(s == i for s, _ in flow.drafts) for i in range(len(flow.players))]
        elif rnd:
            entries = _round_entries(play)
            data["words"] = known_list([_word(flow, p, entries.get(p), lang) for p in flow.players])
        data["sheet"] = _sheet(flow)
        data["best"] = _best(flow, stage, lang)
        if stage == "final":
            data["winners"] = list(score(play).winners)
    return data


def _best(flow: PerfektesWortFlow, stage: str, lang: str) -> list[str]:
    """The perfect word as the OLED reveals it: the last round's after its review (option "round"), every
    round's at the end (option "end"); nothing before the word list answered."""
    from .screens import best_items

    if not flow.best:
        return []
    if flow.reveal == "end":
        if stage != "final":
            return []
        return [f"{part_text(lang, 'round')} {b.round}: {item.label}" for b in flow.best
                for item in best_items(flow, b.round, lang)[:1]]
    last = flow.best[-1].round
    return [f"{part_text(lang, 'round')} {last}: {item.label}" for item in best_items(flow, last, lang)]


def _fix_ask(flow: PerfektesWortFlow, seat: int, lang: str) -> dict[str, Any]:
    """The seat's own word to shorten: the box's options as buttons, or a typed word or length."""
    assert flow.play is not None
    entry = flow.play.entry(flow.play.revealed, flow.players[seat])
    word = entry.current if entry else ""
    options = flow.options(flow.play, seat)
    return ask("word", t(lang, "fix_title", player=flow.players[seat], word=word), lang, hint=say(lang, "fix_hint"),
               actions=[action(part_text(lang, "send")), *(action(o, o) for o in options)])


@remembers_last
def _round_entries(play: Game) -> dict[str, Entry]:
    """The entries of the round revealed last, by player."""
    return {entry.player: entry for entry in play.entries if entry.round == play.revealed}


def _word(flow: PerfektesWortFlow, player: str, entry: Entry | None, lang: str) -> KnownDict:
    """`player`'s word in the round revealed last: their `entry` (None: none yet)."""
    assert flow.play is not None
    if entry is None:
        return _unwritten(player)
    return _written(entry, flow.play.max_length(entry.round), flow.known(entry.current), lang)


@remembers(8)
def _unwritten(player: str) -> KnownDict:
    return known_dict({"name": player, "entered": False, "written": "", "current": "", "struck": False, "flags": []})


@remembers(16)
def _written(entry: Entry, limit: int, known: bool | None, lang: str) -> KnownDict:
    """The word of `entry` (in a round of at most `limit` letters; `known`: the word list's answer)."""
    flags = []
    if len(entry.current) > limit:
        flags.append(t(lang, "too_long"))
    if entry.invalid:
        flags.append(t(lang, "invalid"))
    if known is False and not entry.struck:
        flags.append(t(lang, "unknown_word"))
    return known_dict({"name": entry.player, "entered": True, "written": entry.written, "current": entry.current,
                       "struck": entry.struck, "flags": flags})


def _sheet(flow: PerfektesWortFlow) -> KnownList | None:
    """Each player's sheet (None while a word is still to shorten or strike: no score yet). A player's
    part is remembered for their scored value, which stays the very same while their sheet does."""
    assert flow.play is not None
    try:
        result: Result = score(flow.play)
    except (TooLong, Unresolved):
        return None
    return known_list([_player_sheet(p) for p in result.players])


@remembers(16)
def _player_sheet(p: PlayerResult) -> KnownDict:
    return known_dict({
        "name": p.name,
        "rows": _rows(p.rows),
        "vowels": p.vowels.points,
        "bonus": p.bonus_points,
        "fields": _fields(p.fields),
        "total": p.total,
        "rank": p.rank,
        "winner": p.winner,
    })


@remembers(16)
def _rows(rows: tuple[RowScore, ...]) -> KnownList:
    return known_list([_row(r) for r in rows])


@remembers(128)
def _row(r: RowScore) -> KnownDict:
    return known_dict({"round": r.round, "letter": r.letter, "word": r.word, "written": r.written,
                       "status": r.status, "points": r.points, "valid": r.valid_points,
                       "length": r.length_points, "hits": r.hit_points})


@remembers(16)
def _fields(fields: tuple[FieldMark, ...]) -> KnownList:
    return known_list([known_dict({"field": f.field, "mark": f.mark.value, "round": f.round}) for f in fields])
