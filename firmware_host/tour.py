"""`wordtable sim --tour`: a first walk through the box — the sand timer, the scoreboard, one round of Das
perfekte Wort — as a sequence of expected states, each with a hint saying what to press next.

Pure: `Tour.hint(state)` looks at the appliance's state (never at the screen's pixels), moves past every
step whose goal the state has reached, and returns the hint of the next one (German or English, the
box's language). Steps are passed in order and never come back, so a quick player who does two steps
at once skips a hint, never gets stuck; one who wanders off the scoreboard or out of the game is told the
way back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_host.core.app import AppState
from firmware_host.core.app_text import TEXT as APP_TEXT
from firmware_host.core.games.perfektes_wort import stages as pw
from firmware_host.core.games.perfektes_wort.table import PerfektesWortFlow
from firmware_host.core.i18n import LANGUAGES, pick
from firmware_host.core.settings import MAX_PLAYERS

TEXT = {
    "de": {
        "timer_set": "Tour 1/12 · Sanduhr: ⏎ drücken, 0:05 tippen, ⏎ — sie läuft dann 5 Sekunden.",
        "timer_start": "Tour 2/12 · s (START) startet die Sanduhr; die LED-Leiste rinnt mit.",
        "timer_wait": "Tour 3/12 · Warten … in den letzten Sekunden piept es, dann: Zeit!",
        "timer_quiet": "Tour 4/12 · Zeit! Eine Taste macht Ruhe: b (BACK).",
        "board_open": "Tour 5/12 · m (MENU) öffnet das Menü; s (START) auf „Spielen“, n bis „Punktetafel“, s.",
        "board_name": "Tour 6/12 · Namen geben: ⏎, einen Namen tippen, ⏎.",
        "board_points": "Tour 7/12 · Punkte: ⏎, +5 tippen, ⏎ (s gibt +1, S lang −1).",
        "board_next": "Tour 8/12 · n (NEXT) wählt den nächsten Spieler; s gibt ihm einen Punkt.",
        "pw_open": "Tour 9/12 · Das perfekte Wort: m, s auf „Spielen“, n bis „Das perfekte Wort“, s.",
        "pw_setup": "Tour 10/12 · [ ] ändern die Spielerzahl; s bestätigt Spieler, Seite, Punktekarte, Karten.",
        "pw_reveal": "Tour 11/12 · n (NEXT) deckt die Karte auf: Anfangsbuchstabe und Länge der Runde.",
        "pw_timer": "Tour 11/12 · s startet die Sanduhr; noch einmal s: gleich eingeben.",
        "pw_words": "Tour 12/12 · Jeder ein Wort mit {letter}: ⏎, Wort, ⏎ (ein Wort je Spieler).",
        "pw_points": "Tour 12/12 · s: weiter zu den Punkten der Runde, s: der Stand.",
        "board_away": "Tour · zurück zur Punktetafel: m (MENU), s auf „Spielen“, n bis „Punktetafel“, s.",
        "pw_away": "Tour · zurück ins Spiel: B (BACK lang) oder m (MENU), s auf „Spielen“, s auf „Weiterspielen“.",
        "end": "Tour geschafft! Spiel weiter – oder q beendet.",
    },
    "en": {
        "timer_set": "Tour 1/12 · Sand timer: press ⏎, type 0:05, ⏎ — it then runs 5 seconds.",
        "timer_start": "Tour 2/12 · s (START) starts the sand timer; the LED bar runs down with it.",
        "timer_wait": "Tour 3/12 · Wait … it beeps in the last seconds, then: time's up!",
        "timer_quiet": "Tour 4/12 · Time's up! Any button silences it: b (BACK).",
        "board_open": "Tour 5/12 · m (MENU) opens the menu; s (START) on “Play”, n to “Scoreboard”, s.",
        "board_name": "Tour 6/12 · Name a player: ⏎, type a name, ⏎.",
        "board_points": "Tour 7/12 · Points: ⏎, type +5, ⏎ (s gives +1, S held −1).",
        "board_next": "Tour 8/12 · n (NEXT) selects the next player; s gives them a point.",
        "pw_open": "Tour 9/12 · Das perfekte Wort: m, s on “Play”, n to “Das perfekte Wort”, s.",
        "pw_setup": "Tour 10/12 · [ ] change the number of players; s confirms players, side, points card, cards.",
        "pw_reveal": "Tour 11/12 · n (NEXT) reveals the card: the round's first letter and length.",
        "pw_timer": "Tour 11/12 · s starts the sand timer; s again: enter the words now.",
        "pw_words": "Tour 12/12 · Everyone types a word with {letter}: ⏎, word, ⏎ (one word per player).",
        "pw_points": "Tour 12/12 · s: on to the round's points, s: the standings.",
        "board_away": "Tour · back to the scoreboard: m (MENU), s on “Play”, n to “Scoreboard”, s.",
        "pw_away": "Tour · back to the game: B (BACK held) or m (MENU), s on “Play”, s on “Keep playing”.",
        "end": "Tour done! Play on – or q quits.",
    },
}

_STAGES = (pw.SeatPick, pw.SidePick, pw.FacePick, pw.DeckPick, pw.Scanning, pw.Revealing, pw.Calling, pw.Timing,
           pw.Entering, pw.Reviewing, pw.Fixing, pw.Points, pw.SoloStriking, pw.Standing)
_DEFAULT_NAMES = {pick(APP_TEXT, lang, "player_n", n=n) for lang in LANGUAGES for n in range(1, MAX_PLAYERS + 1)}


def perfektes_wort_at(state: AppState) -> tuple[int, int] | None:
    """How far a game of Das perfekte Wort has come: (cards revealed, stage in a round's order); None when
    none is on."""
    flow = state.flow
    if state.home != "game" or not isinstance(flow, PerfektesWortFlow):
        return None
    revealed = flow.played.game.revealed if flow.played is not None else 0
    stage = next((i for i, kind in enumerate(_STAGES) if isinstance(flow.stage, kind)), 0)
    return revealed, stage


def _pw_reached(revealed: int, stage: type) -> Callable[[AppState], bool]:
    goal = (revealed, _STAGES.index(stage))

    def reached(state: AppState) -> bool:
        at = perfektes_wort_at(state)
        return at is not None and at >= goal

    return reached


def _letter(state: AppState) -> dict[str, str]:
    flow = state.flow
    if isinstance(flow, PerfektesWortFlow) and flow.played is not None and flow.played.game.revealed:
        return {"letter": flow.played.game.letter(flow.played.game.revealed)}
    return {"letter": "…"}


@dataclass(frozen=True, slots=True)
class Step:
    key: str  # its hint in TEXT
    done: Callable[[AppState], bool]
    fields: Callable[[AppState], dict[str, str]] = lambda state: {}
    away: str | None = None  # the hint shown instead while the player is elsewhere than the step's place
    where: Callable[[AppState], bool] = lambda state: True  # the step's place: the scoreboard, the game


def _on_board(state: AppState) -> bool:
    return state.home == "scoreboard"


def _in_game(state: AppState) -> bool:
    return perfektes_wort_at(state) is not None


STEPS = (
    Step("timer_set", lambda s: s.home == "timer" and s.timer.countdown.duration <= 20),
    Step("timer_start", lambda s: s.timer.running or s.timer.alarmed),
    Step("timer_wait", lambda s: s.timer.alarmed),
    Step("timer_quiet", lambda s: s.ringing is None),
    Step("board_open", lambda s: s.home == "scoreboard" and s.overlay is None),
    Step("board_name", lambda s: any(name not in _DEFAULT_NAMES for name in s.board.players),
         away="board_away", where=_on_board),
    Step("board_points", lambda s: any(total >= 5 for total in s.board.totals), away="board_away", where=_on_board),
    Step("board_next", lambda s: any(total > 0 for total in s.board.totals[1:]), away="board_away",
         where=_on_board),
    Step("pw_open", _in_game),
    Step("pw_setup", _pw_reached(0, pw.Revealing), away="pw_away", where=_in_game),
    Step("pw_reveal", _pw_reached(1, pw.Calling), away="pw_away", where=_in_game),
    Step("pw_timer", _pw_reached(1, pw.Entering), away="pw_away", where=_in_game),
    Step("pw_words", _pw_reached(1, pw.Reviewing), _letter, away="pw_away", where=_in_game),
    Step("pw_points", _pw_reached(1, pw.Standing), away="pw_away", where=_in_game),
)


@dataclass
class Tour:
    steps: tuple[Step, ...] = STEPS
    at: int = 0  # the step whose goal is not reached yet (len(steps): the tour is over)
    seen: list[str] = field(default_factory=list)  # the steps passed, in order

    @property
    def over(self) -> bool:
        return self.at >= len(self.steps)

    def hint(self, state: AppState) -> str:
        """Pass every step `state` has reached; the hint for what to do next."""
        while not self.over and self.steps[self.at].done(state):
            self.seen.append(self.steps[self.at].key)
            self.at += 1
        lang = state.settings.lang
        if self.over:
            return pick(TEXT, lang, "end")
        step = self.steps[self.at]
        if step.away is not None and not step.where(state):
            return pick(TEXT, lang, step.away)
        return pick(TEXT, lang, step.key, **step.fields(state))
