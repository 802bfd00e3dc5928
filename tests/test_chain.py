"""`Chain` behaves as the tuple of the items added, and adding leaves the chain it started from as it was."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.chain import Chain


@pytest.mark.slow
@given(st.lists(st.integers(-3, 3), max_size=40), st.integers(-45, 45))
def test_a_chain_reads_like_the_tuple_of_its_items(items, index):
    chain = Chain.of(items)
    assert tuple(chain) == tuple(items) and len(chain) == len(items)
    assert list(reversed(chain)) == items[::-1]
    if -len(items) <= index < len(items):
        assert chain[index] == items[index]
    else:
        with pytest.raises(IndexError):
            chain[index]
    assert chain[1:-1] == tuple(items[1:-1])
    assert chain == Chain.of(items) and hash(chain) == hash(Chain.of(items))
    assert chain != Chain.of([*items, 0])
    if items:
        assert chain.last == items[-1] and tuple(chain.before) == tuple(items[:-1])


def test_adding_shares_the_past_and_changes_nothing():
    base = Chain.of([1, 2])
    one, other = base.add(3), base.add(4)
    assert (tuple(base), tuple(one), tuple(other)) == ((1, 2), (1, 2, 3), (1, 2, 4))
    assert one.before is base and one != other


def test_an_empty_chain_has_no_last_item():
    with pytest.raises(IndexError):
        _ = Chain().last
    with pytest.raises(IndexError):
        _ = Chain().before
    assert Chain() == Chain.of([]) and not Chain()


def test_a_long_chain_compares_and_is_freed_without_recursion():
    a, b = Chain.of(range(50_000)), Chain.of(range(50_000))
    assert a == b
    del a, b
