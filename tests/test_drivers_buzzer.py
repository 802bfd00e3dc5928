import threading

import pytest

from drivers.buzzer import Buzzer
from firmware_host.core.sounds import DUTY, PATTERNS, VOLUMES, duty, notes
from tests.hwhelpers import wait_until

PIN = 18


class Stepper:
    """Runs the player's job synchronously; every note's wait records what the pin does then."""

    def __init__(self, pin_factory):
        self.pin = pin_factory.pin(PIN)
        self.heard: list[tuple[float | None, float, float]] = []
        self.jobs: list = []

    def start(self, job):
        self.jobs.append(job)

    def run(self):
        while self.jobs:
            self.jobs.pop(0)()

    def wait(self, cancel: threading.Event, seconds: float) -> bool:
        self.heard.append((self.pin.frequency, float(self.pin.state), seconds))
        return cancel.is_set()


def played(stepper):
    return [(None if f is None else round(f), s > 0, round(d, 3)) for f, s, d in stepper.heard]


def make(pin_factory, **kw):
    stepper = Stepper(pin_factory)
    return stepper, Buzzer(PIN, pin_factory=pin_factory, start=stepper.start, wait=stepper.wait, **kw)


def test_warn_pattern_plays_988_hz_then_silence(pin_factory):
    stepper, buzzer = make(pin_factory)
    buzzer.play(notes("warn", "normal"))
    stepper.run()
    assert played(stepper) == [(988, True, 0.08)]
    assert stepper.pin.frequency is None and stepper.pin.state == 0


def test_alarm_pattern_frequencies_and_rests(pin_factory):
    stepper, buzzer = make(pin_factory)
    buzzer.play(notes("alarm", "normal"))
    stepper.run()
    assert played(stepper) == [
        (880, True, 0.25), (None, False, 0.1), (880, True, 0.25), (None, False, 0.1),
        (880, True, 0.25), (None, False, 0.1), (1175, True, 0.6),
    ]
    assert stepper.pin.state == 0


def test_each_volume_plays_the_same_notes_at_its_own_duty_cycle(pin_factory):
    stepper, buzzer = make(pin_factory)
    heard = {}
    for volume in VOLUMES:
        stepper.heard.clear()
        buzzer.play(notes("warn", volume), duty(volume))
        stepper.run()
        heard[volume] = list(stepper.heard)
        assert stepper.pin.state == 0  # silent after the notes
    assert heard["off"] == []  # off: nothing plays
    assert heard["soft"] == [(988.0, pytest.approx(DUTY["soft"]), 0.08)]
    assert heard["normal"] == [(988.0, pytest.approx(DUTY["normal"]), 0.08)]
    assert heard["loud"] == [(988.0, pytest.approx(0.5), 0.08)]
    assert [heard[v][0][1] for v in ("soft", "normal", "loud")] == sorted({heard[v][0][1] for v in heard if heard[v]})


def test_a_duty_beyond_half_is_played_at_half_the_loudest(pin_factory):
    stepper, buzzer = make(pin_factory)
    buzzer.play(notes("key", "loud"), 0.9)
    stepper.run()
    assert stepper.heard == [(880.0, 0.5, 0.03)]


def test_every_pattern_frequency_is_playable(pin_factory):
    stepper, buzzer = make(pin_factory)
    for name, pattern in PATTERNS.items():
        stepper.heard.clear()
        buzzer.play(pattern)
        stepper.run()
        wanted = [f for f, _ in pattern if f is not None]
        got = [f for f, _, _ in stepper.heard if f is not None]
        assert got == pytest.approx(wanted, rel=0.01), name


def test_stop_cancels_and_play_replaces(pin_factory):
    stepper, buzzer = make(pin_factory)
    buzzer.play(notes("alarm", "normal"))
    buzzer.stop()
    stepper.run()
    assert stepper.heard == [] and stepper.pin.state == 0
    buzzer.play(notes("alarm", "normal"))
    buzzer.play(notes("warn", "normal"))  # replaces the alarm before it sounded
    stepper.run()
    assert played(stepper) == [(988, True, 0.08)]


def test_active_buzzer_beeps_the_durations(pin_factory):
    stepper = Stepper(pin_factory)
    buzzer = Buzzer(PIN, tonal=False, pin_factory=pin_factory, start=stepper.start, wait=stepper.wait)
    buzzer.play(notes("error", "normal"))
    stepper.run()
    assert [(f, s, round(d, 3)) for f, s, d in stepper.heard] == [(None, 1.0, 0.12), (None, 0.0, 0.05),
                                                                   (None, 1.0, 0.12)]
    assert stepper.pin.state == 0


@pytest.mark.slow
def test_background_thread_plays_to_the_end_and_close_silences(pin_factory):
    pin = pin_factory.pin(PIN)
    with Buzzer(PIN, pin_factory=pin_factory) as buzzer:
        buzzer.play(((440.0, 0.01), (None, 0.01), (660.0, 0.01)))
        assert wait_until(lambda: len([s for _, s in pin.states if s]) >= 2 and pin.state == 0)
        buzzer.play(((440.0, 30.0),))  # a long note, cut short by close()
        assert wait_until(lambda: pin.state > 0)
    assert pin.state == 0 and pin.frequency is None
    buzzer.close()  # idempotent
    buzzer.play(((440.0, 1.0),))  # after close: ignored
    assert pin.state == 0


@pytest.mark.slow
def test_one_player_thread_plays_every_sequence_and_ends_with_close(pin_factory):
    """A click starts no thread of its own: the buzzer's one player runs each sequence (a new one cutting
    the one playing short), and close() ends it."""
    pin = pin_factory.pin(PIN)
    players: set[threading.Thread] = set()

    def wait(cancel: threading.Event, seconds: float) -> bool:
        players.add(threading.current_thread())
        return cancel.wait(seconds)

    buzzer = Buzzer(PIN, pin_factory=pin_factory, wait=wait)
    buzzer.play(((440.0, 30.0),))  # long: the next play must cut it short
    assert wait_until(lambda: len(players) == 1)
    for _ in range(5):
        buzzer.play(((660.0, 0.005), (None, 0.005), (880.0, 0.005)))
    assert wait_until(lambda: pin.state == 0)  # the long note cut, the last sequence played to its end
    (player,) = players
    assert player is not threading.current_thread() and player.name == "wordtable-buzzer"
    buzzer.close()
    player.join(5)
    assert not player.is_alive()


def test_the_first_note_sounds_before_play_returns(pin_factory):
    """The alarm's edge on the pin waits for no thread: the background job (never run here) plays the rest."""
    pin = pin_factory.pin(PIN)
    buzzer = Buzzer(PIN, pin_factory=pin_factory, start=lambda job: None)
    buzzer.play(notes("alarm", "normal"))
    assert pin.state > 0 and round(pin.frequency) == 880
    buzzer.play(())
    assert pin.state == 0
