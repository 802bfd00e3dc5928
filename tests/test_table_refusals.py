"""A refusal is data: whatever a game's flow is given, at every stage a seeded random walk of inputs reaches,
it beeps the error exactly when its `Outcome.refused` says the input was refused (`seats.refuse`), so nobody
needs to look for the beep."""

import random

import pytest

from firmware_host.core.effects import Beep
from firmware_host.core.events import Button, CardScan, LongPress, Press, TextEntry, Turn
from firmware_host.core.flow import Ctx
from firmware_host.core.games import registry

BUTTONS = (Button.START, Button.START, Button.START, Button.NEXT, Button.NEXT, Button.NEXT, Button.BACK,
           Button.ENCODER, Button.TURN)  # mostly forward, as a table plays; MENU is the appliance's
TEXTS = ("", "Haus", "Hund", "Dschungel Piraten", "3", "12", "B7", "3b", "(QU)IT", "QU I T", "Anna", "x" * 40,
         "1:30", "Stop", "?0", "=1")


def inputs(rng: random.Random, now: float):
    kind = rng.choice((0, 0, 0, 1, 2, 3, 4))
    if kind == 0:
        return Press(rng.choice(BUTTONS), now)
    if kind == 1:
        return LongPress(rng.choice(BUTTONS), now)
    if kind == 2:
        return TextEntry(rng.choice(TEXTS), now)
    if kind == 3:
        return Turn(rng.choice((-1, 1, 2)), now)
    return CardScan(rng.choice(("draw", "main")), rng.choice(("B7", "QU", "0001", "")), now)


@pytest.mark.parametrize("kit", [k for k in registry.GAMES if k.score_record is not None], ids=lambda k: k.id)
def test_a_flow_beeps_the_error_exactly_when_it_says_it_refused(kit):
    rng = random.Random(kit.id)
    now, checked = 1.0, 0
    flow = kit.new_flow(Ctx("de", "normal", now, False, False, 60.0, 60.0), ("Ann", "Bob"))
    for _ in range(6000):
        now += rng.choice((0.5, 3.0, 30.0))
        ctx = Ctx("de", "normal", now, False, False, 60.0, 60.0)
        if rng.random() < 0.05:
            outcome = flow.timer_over(ctx)
        elif rng.random() < 0.05 and hasattr(flow, "seat_entry"):
            outcome = flow.seat_entry(rng.randrange(3), rng.choice(TEXTS), ctx)
        else:
            outcome = flow.handle(inputs(rng, now), ctx)
        beeped = Beep("error", "normal") in outcome.effects
        assert beeped == (outcome.refused is not None), (type(flow.stage).__name__, outcome)
        checked += beeped
        flow = outcome.flow or kit.new_flow(ctx, ("Ann", "Bob"))
    assert checked > 0  # the walk met refusals
