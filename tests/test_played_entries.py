"""A game's entered events (`core.table.entries.Entries`): every version stays what it was while the
newest grows in place, and a long game entered event by event is the game its events rebuild."""

from __future__ import annotations

import pytest

from firmware_host.core.games.zugzeit import rules as zz
from firmware_host.core.games.zugzeit.record import RULES
from firmware_host.core.table.entries import Entries
from firmware_host.core.table.played import Played


def test_versions_keep_their_items_across_branches() -> None:
    base = Entries([1, 2])
    three = base.added(3)
    other = base.added(30)  # a branch from an older version: it must not see 3, nor change `three`
    four = three.added(4)
    assert base == (1, 2) and three == (1, 2, 3) and other == (1, 2, 30) and four == (1, 2, 3, 4)
    assert list(three) == [1, 2, 3] and len(four) == 4 and four[-1] == 4 and three[-1] == 3
    assert three[:-1] == base and three[:-1].added(9) == (1, 2, 9) and three == (1, 2, 3)
    assert four[1:3] == (2, 3) and four[::2] == (1, 3)
    assert not Entries() and Entries() == ()
    with pytest.raises(IndexError):
        three[3]
    assert hash(three) == hash(Entries([1, 2, 3])) and three != (1, 2)


def _turns(n: int) -> list[zz.Turn]:
    players = ("Anna", "Ben", "Cem")
    return [zz.Turn(players[i % 3], 1000 + i % 17) for i in range(n)]


def test_a_long_game_entered_one_by_one_is_the_game_its_events_rebuild() -> None:
    played, _ = Played.begin(RULES, zz.Setup(("Anna", "Ben", "Cem"), "bank", 3_600_000, increment_ms=10), ())
    start = played
    turns = _turns(3000)
    for turn in turns:
        played, effects = played.enter(turn)
        assert len(effects) == 1
    assert played.events == tuple(turns) and start.events == ()
    rebuilt = start.rebuilt(tuple(turns))
    assert rebuilt.game == played.game and rebuilt == played
    undone = played.undo()
    assert undone is not None
    shorter, last, _ = undone
    assert last == turns[-1] and shorter.game == start.rebuilt(tuple(turns[:-1])).game
    again, _ = shorter.enter(turns[-1])  # a branch after the undo: the same game again, `played` unchanged
    assert again == played and played.events == tuple(turns)


def test_entering_several_at_once_is_all_or_none() -> None:
    played, _ = Played.begin(RULES, zz.Setup(("Anna", "Ben"), "limit", 60_000), ())
    played, _ = played.enter(zz.Turn("Anna", 5))
    with pytest.raises(zz.ZugzeitError):
        played.enter(zz.Turn("Ben", 5), zz.Turn("Ben", 5))  # the second is out of turn
    assert played.events == (zz.Turn("Anna", 5),)
    both, effects = played.enter(zz.Turn("Ben", 5), zz.Turn("Anna", 7))
    assert len(effects) == 2 and both.events == (zz.Turn("Anna", 5), zz.Turn("Ben", 5), zz.Turn("Anna", 7))


def test_a_deferred_head_is_made_once_and_only_when_one_of_its_items_is_read() -> None:
    made: list[int] = []

    def make() -> tuple[int, ...]:
        made.append(1)
        return (1, 2, 3)

    entries = Entries.deferred(3, make, (4, 5))
    longer = entries.added(6)
    assert len(longer) == 6 and longer[-1] == 6 and entries[3] == 4 and longer.since(3) == (4, 5, 6)
    assert not made and not longer.head_made()
    assert longer == (1, 2, 3, 4, 5, 6) and entries[0] == 1 and list(entries[:2]) == [1, 2]
    assert made == [1] and entries.head_made() and entries == (1, 2, 3, 4, 5)
    branch = entries[:4].added(40)  # shares the head, not the items after it
    short = entries[:2].added(20)  # inside the head: a buffer of its own
    assert branch == (1, 2, 3, 4, 40) and short == (1, 2, 20) and longer == (1, 2, 3, 4, 5, 6)
    assert made == [1]


def test_a_deferred_head_that_makes_another_count_is_refused() -> None:
    entries = Entries.deferred(3, lambda: (1, 2), ())
    with pytest.raises(ValueError):
        list(entries)


def test_a_branch_starts_without_the_encoders_memo() -> None:
    entries = Entries([1, 2, 3])
    entries.keep((3, "encoded"))
    assert entries.added(4).memo == (3, "encoded")  # the newest version: the same buffer
    assert entries[:2].added(9).memo is None and entries[:3].added(9).memo is None


def test_versions_of_one_buffer_compare_without_making_its_deferred_head() -> None:
    entries = Entries.deferred(2, lambda: (1, 2), (3,))
    later = entries.added(4)
    assert later[:3] == entries and later != entries and not entries.head_made()
    assert later == Entries([1, 2, 3, 4]) and entries.head_made()
