"""`settle_heap`: once the appliance is up, what start-up left is frozen, so a full collection (which stops
every thread, the alarm's and the buttons' included) no longer walks it; start-up's garbage goes first."""

import gc
import weakref

from firmware_host.appliance import settle_heap


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_what_start_up_left_is_frozen_and_its_garbage_collected_first():
    gc.unfreeze()
    gc.disable()  # no collection of its own in between: only settle_heap's
    try:
        kept = [[n] for n in range(1000)]  # start-up's lasting objects
        garbage = weakref.ref(Node())
        assert garbage() is not None  # not freed by reference counting
        settle_heap()
        assert garbage() is None  # collected, not frozen for the life of the process
        assert gc.get_freeze_count() >= len(kept)
        walked = {id(o) for o in gc.get_objects()}  # what a full collection now looks at
        assert not any(id(o) in walked for o in kept)
        fresh = [0]
        assert id(fresh) in {id(o) for o in gc.get_objects()}  # what comes later is collected as ever
    finally:
        gc.unfreeze()
        gc.enable()
