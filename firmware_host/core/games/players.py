"""The players a rules core is set up with, as every turn game checks them: their number and names at the
setup, then the player an event names and whether it is their turn. Pure.

A game passes its own `RuleError` subclass, whose texts hold the codes `players_count` (`count`),
`player_blank`, `player_twice` (`player`), `unknown_player` (`player`, `players`) and `not_your_turn`
(`current`, `player`), and its own sameness of names (`key`; default `folded`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_host.core.games.rule_error import RuleError

Key = Callable[[str], str]


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
