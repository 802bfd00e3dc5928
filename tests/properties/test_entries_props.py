"""A game's entries (`core.table.entries.Entries`) with a deferred head, grown, cut to prefixes and branched
at random, and pickled into snapshots on the way (their chunks reused), are always the tuple a plain
model holds — and a version that was read from a snapshot reads the same (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host import snapshots
from firmware_host.core.table.entries import Entries

pytestmark = pytest.mark.slow  # hypothesis

STEPS = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(0, 40)),  # that many items added to the newest version
    st.tuples(st.just("cut"), st.integers(0, 200)),  # a prefix of the newest version becomes the newest
    st.tuples(st.just("branch"), st.integers(0, 200)),  # an older version (by index) grows one item
    st.tuples(st.just("snapshot"), st.just(0)),  # the newest version through a snapshot's pickle
), max_size=60)


@settings(max_examples=150, deadline=None)
@given(head=st.integers(0, 150), after=st.integers(0, 5), steps=STEPS)
def test_entries_are_the_model_whatever_is_done_with_them(head: int, after: int, steps: list[tuple[str, int]]) -> None:
    items = list(range(head + after))
    versions = [(Entries.deferred(head, lambda: items[:head], items[head:]), tuple(items))]
    counter = 1000
    for step, value in steps:
        entries, model = versions[-1]
        if step == "add":
            for _ in range(value):
                entries, model = entries.added(counter), (*model, counter)
                counter += 1
        elif step == "cut":
            entries, model = entries[:value % (len(model) + 1)], model[:value % (len(model) + 1)]
        elif step == "branch":
            older, older_model = versions[value % len(versions)]
            entries, model = older.added(counter), (*older_model, counter)
            counter += 1
        else:
            entries = snapshots.loads(snapshots.dumps(entries))  # type: ignore[arg-type]
        versions.append((entries, model))
        assert len(entries) == len(model) and (not model or entries[-1] == model[-1])
    for entries, model in versions:
        assert tuple(entries) == model and entries == model
        assert snapshots.loads(snapshots.dumps(entries)) == model  # type: ignore[arg-type]


def test_a_branch_grown_past_a_snapshot_of_its_parent_pickles_its_own_items() -> None:
    parent = Entries(range(100))
    snapshots.dumps(parent)  # type: ignore[arg-type]  # the parent's buffer keeps its chunks
    branch = parent[:50]
    for item in range(1000, 1100):
        branch = branch.added(item)
    assert snapshots.loads(snapshots.dumps(branch)) == (*range(50), *range(1000, 1100))  # type: ignore[arg-type]
