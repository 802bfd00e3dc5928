"""The table's roster: the people who play at this box, across games, restarts and evenings.

A `Person` has a stable id (the next free int, assigned here: a replay of the same events gives the same
ids), a name (unique in the roster, a `text_input.NAME`) and optionally a mark (a colour or a symbol).
`Roster.people` is ordered recently played first; `Roster.table` is who is at the table now, in seat
order (the free scoreboard's named players, or the last game's). A default name ("Spieler 3") is a
placeholder seat, never a person. A game's seat of a person is the index of the person's name among that
game's players (`seat_of`). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.core.app_text import TEXT
from firmware_host.core.i18n import LANGUAGES, pick
from firmware_host.core.text_input import NAME, TextRefused, clean

MAX_SEATS = 16  # the most seats a placeholder name is known for ("Spieler 16")
PLACEHOLDERS = frozenset(pick(TEXT, lang, "player_n", n=n) for lang in LANGUAGES for n in range(1, MAX_SEATS + 1))


def is_placeholder(name: str) -> bool:
    """Whether `name` is a seat's default name in any language ("Spieler 2", "Player 3") or empty."""
    return not name or name in PLACEHOLDERS


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str
    mark: str = ""  # a colour or a symbol ("" : none)


@dataclass(frozen=True, slots=True)
class Roster:
    """The people (recently played first) and who is at the table now (`table`: ids in seat order)."""

    people: tuple[Person, ...] = ()
    table: tuple[int, ...] = ()

    @classmethod
    def of(cls, names: Iterable[str]) -> Roster:
        """A roster of the people named in `names` (placeholders skipped), all at the table in that order."""
        return cls().seated(tuple(names))

    def next_id(self) -> int:
        return max((p.id for p in self.people), default=-1) + 1

    def person(self, person_id: int) -> Person | None:
        return next((p for p in self.people if p.id == person_id), None)

    def named(self, name: str) -> Person | None:
        """The person called `name` (case-insensitive), None when nobody is."""
        folded = name.casefold()
        return next((p for p in self.people if p.name.casefold() == folded), None)

    def with_person(self, name: str) -> tuple[Roster, Person]:
        """The roster with a person called `name` (the one there is, or a new one with the next id, last)."""
        found = self.named(name)
        if found is not None:
            return self, found
        added = Person(self.next_id(), name)
        return replace(self, people=(*self.people, added)), added

    def seated(self, names: tuple[str, ...]) -> Roster:
        """The roster with the people named in `names` at the table, in that order (new names become
        people; placeholders are seats, not people)."""
        roster, table = self, []
        for name in names:
            if not is_placeholder(name):
                roster, person = roster.with_person(name)
                if person.id not in table:
                    table.append(person.id)
        return replace(roster, table=tuple(table))

    def played(self, names: tuple[str, ...]) -> Roster:
        """The roster after a game of `names` began: those people at the table and first in the roster."""
        roster = self.seated(names)
        first = [p for i in roster.table for p in roster.people if p.id == i]
        return replace(roster, people=(*first, *(p for p in roster.people if p.id not in roster.table)))

    def renamed(self, person_id: int, name: str) -> Roster | None:
        """The roster with person `person_id` called `name`; None when another person is called so."""
        other = self.named(name)
        if other is not None and other.id != person_id:
            return None
        return replace(self, people=tuple(replace(p, name=name) if p.id == person_id else p for p in self.people))

    def marked(self, person_id: int, mark: str) -> Roster:
        return replace(self, people=tuple(replace(p, mark=mark) if p.id == person_id else p for p in self.people))

    @property
    def at_table(self) -> tuple[Person, ...]:
        """The people at the table now, in seat order."""
        return tuple(p for i in self.table if (p := self.person(i)) is not None)

    def seat_of(self, person_id: int, players: tuple[str, ...]) -> int | None:
        """Person `person_id`'s seat among `players` (a game's or the free scoreboard's; a name there is the
        person's whatever its case, as in `named`); None when the person does not play there (or is unknown)."""
        person = self.person(person_id)
        if person is None:
            return None
        folded = person.name.casefold()
        return next((i for i, name in enumerate(players) if name.casefold() == folded), None)

    def ids_of(self, players: tuple[str, ...]) -> tuple[int, ...]:
        """Per seat of `players` the id of the person sitting there (as `seat_of` finds them), -1 for a
        placeholder seat."""
        ids = {p.name.casefold(): p.id for p in self.people}
        return tuple(ids.get(name.casefold(), -1) for name in players)

    def to_data(self) -> dict[str, Any]:
        return {"people": [[p.id, p.name, p.mark] for p in self.people], "table": list(self.table)}

    @classmethod
    def from_data(cls, data: Any) -> Roster:
        """The roster `to_data` wrote. Raises ValueError/TypeError/KeyError on anything else (a duplicate
        id or name, a name that is not one, a seat of nobody)."""
        try:
            people = tuple(Person(_id(i), clean(str(name), NAME), str(mark)) for i, name, mark in data["people"])
        except TextRefused as exc:
            raise ValueError(exc.text("en")) from None
        table = tuple(_id(i) for i in data["table"])
        ids, names = {p.id for p in people}, {p.name.casefold() for p in people}
        if len(ids) != len(people) or len(names) != len(people) or any(not p.name for p in people):
            raise ValueError("a roster's ids and names are unique")
        if not set(table) <= ids or len(set(table)) != len(table):
            raise ValueError("the table seats people of the roster, each once")
        return cls(people, table)


def _id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a person's id: {value!r}")
    return value

