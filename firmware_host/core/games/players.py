"""The players a rules core is set up with, as every turn game checks them: their number and names at the
setup, then the player an event names and whether it is their turn. Pure.

A game passes its own `RuleError` subclass and its own sameness of names (`key`; default `folded`). The
error's texts are the game's own table `with_player_texts`: the refusals' texts here (`player_blank`,
`player_twice`, `unknown_player`, `not_your_turn`) and its own `players_count` (`count`: how many it got).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import Table

Key = Callable[[str], str]

PLAYER_TEXTS: Table = {
    "de": {
        "player_blank": "ein Spielername ist leer",
        "player_twice": "Spieler {player} ist doppelt genannt",
        "unknown_player": "{player} spielt nicht mit (Spieler: {players})",
        "not_your_turn": "{current} ist am Zug, nicht {player}",
    },
    "en": {
        "player_blank": "a player's name is empty",
        "player_twice": "player {player} is named twice",
        "unknown_player": "{player} is not a player of this game (players: {players})",
        "not_your_turn": "it is {current}'s turn, not {player}'s",
    },
}


def with_player_texts(texts: Table) -> Table:
    """A game's text table with the players' refusals added, language by language."""
    return {lang: {**PLAYER_TEXTS[lang], **own} for lang, own in texts.items()}


def folded(name: str) -> str:
    """The form in which two names are the same name: case-folded, inner white space collapsed."""
    return " ".join(name.casefold().split())


def check_players(players: Sequence[str], error: type[RuleError], *, least: int, most: int | None = None,
                  key: Key = folded) -> None:
    """Raise `error` unless there are `least` to `most` players (None: no upper bound), every one named and
    no name given twice (by `key`)."""
    if len(players) < least or (most is not None and len(players) > most):
        raise error("players_count", count=len(players))
    seen: set[str] = set()
    for name in players:
        if not name.strip():
            raise error("player_blank")
        if key(name) in seen:
            raise error("player_twice", player=name)
        seen.add(key(name))


def player_index(players: Sequence[str], name: str, error: type[RuleError], key: Key = folded) -> int:
    """The index of the player that `name` names (by `key`); raises `error` when it names none."""
    for i, player in enumerate(players):
        if key(player) == key(name):
            return i
    raise error("unknown_player", player=name, players=", ".join(players))


def on_turn(players: Sequence[str], turn: int, name: str, error: type[RuleError],
            not_yours: type[RuleError] | None = None) -> int:
    """The index of the player `name` names when it is theirs, `turn`; raises `error` when it names none and
    `not_yours` (default: `error`) when it is another player's turn."""
    i = player_index(players, name, error)
    if i != turn:
        raise (not_yours or error)("not_your_turn", current=players[turn], player=players[i])
    return i
