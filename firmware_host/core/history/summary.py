"""The one line the OLED shows when a game ends: what that game meant for someone's history (`highlight`),
said in the table's language (`highlight_text`). Pure: the shell computes it once the journal has archived
the game and hands it to the core as the display-only event `events.Highlight`.

What is told, the first that applies (`KINDS`, in order): a winner's win streak of 2 or more ("streak"), a
new best word of a person who had one before ("word"), a new best total of a person who had played the game
before ("total"), else a winner's count of wins in this game ("win"). A game without winners and without
a record broken says nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.core.events import Highlight
from firmware_host.core.history.people import GameStats, person_of
from firmware_host.core.history.played import PlayedGame
from firmware_host.core.i18n import Table, pick

KINDS = ("streak", "word", "total", "win")

TEXTS: Table = {
    "de": {
        "streak": "{person}: {value}. Sieg in Folge",
        "word": "{person}: bestes Wort {value}",
        "total": "{person}: neuer Rekord {value}",
        "win": "{person}: {value}. Sieg",
    },
    "en": {
        "streak": "{person}: {value} win in a row",
        "word": "{person}: best word ever {value}",
        "total": "{person}: new best {value}",
        "win": "{person}: {value} win",
    },
}


def highlight(games: Sequence[PlayedGame], game_id: int, at: float) -> Highlight | None:
    """The line for the end of game `game_id`, counted over `games` (oldest first) up to that game; None
    when there is nothing to tell (or no such game)."""
    upto = [game for game in games if game.id <= game_id]
    if not upto or upto[-1].id != game_id:
        return None
    game, before = upto[-1], upto[:-1]
    for winner in game.winners:
        person = person_of(upto, winner)
        if person is not None and person.streak >= 2:
            return Highlight(winner, "streak", str(person.streak), at)
    earlier = {seat.name: _stats(before, seat.name, game.game) for seat in game.seats}
    for seat in game.seats:
        word, was = seat.best_word, earlier[seat.name]
        if word is not None and was is not None and was.best_word is not None and word.points > was.best_word.points:
            return Highlight(seat.name, "word", f"{word.text} ({word.points})", at)
    for seat in game.seats:
        total, was = seat.total, earlier[seat.name]
        if total is not None and was is not None and was.best_total is not None and total > was.best_total:
            return Highlight(seat.name, "total", str(total), at)
    for winner in game.winners:
        now = _stats(upto, winner, game.game)
        if now is not None:
            return Highlight(winner, "win", str(now.won), at)
    return None


def _stats(games: Sequence[PlayedGame], name: str, game: str) -> GameStats | None:
    person = person_of(games, name)
    return None if person is None else person.of(game)


def highlight_text(event: Highlight, lang: str) -> str:
    """The line in `lang` ("Anna: 3. Sieg in Folge", "Anna: 3rd win in a row")."""
    value = event.value
    if lang == "en" and event.kind in ("streak", "win") and value.isdigit():
        value = ordinal(int(value))
    return pick(TEXTS, lang, event.kind if event.kind in KINDS else "win", person=event.person, value=value)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
