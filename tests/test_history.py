"""Statistics per person (`core.history`) from games played at the table: the documented game scripts
played through `app.step` to their end, their records scored by the registry, as the journal keeps them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from firmware_host.core import app
from firmware_host.core.events import Highlight
from firmware_host.core.history import (
    Seat,
    Word,
    evenings,
    highlight,
    highlight_text,
    minutes_seconds,
    people,
    person_of,
)
from firmware_host.core.history.evenings import seconds_of
from firmware_host.core.screens import describe
from firmware_host.core.settings import Settings
from tests.history_games import script_game


def at(hour: int, day: int = 1) -> str:
    return f"2026-05-{day:02d}T{hour:02d}:00:00Z"


def test_a_scripted_das_perfekte_wort_counts_totals_win_and_best_word_per_person():
    game = script_game("perfektes-wort", 1, at(19), at(20))
    assert game.winners == ("Geli",)  # the script's "Gewonnen: Geli", 180 to 139
    geli, klaus = person_of([game], "Geli"), person_of([game], "Klaus")
    assert geli is not None and klaus is not None
    stats = geli.of("perfektes-wort")
    assert stats is not None
    assert (stats.played, stats.won, stats.best_total, stats.average) == (1, 1, 180, 180.0)
    assert klaus.of("perfektes-wort").won == 0 and klaus.of("perfektes-wort").best_total == 139
    assert geli.streak == 1 and klaus.streak == 0
    word = stats.best_word  # a word as scored (a shortened one's kept part), the most word points
    assert word is not None and word.points == 15 and word.text.isupper()
    assert geli.rivals[0].name == "Klaus" and (geli.rivals[0].wins, geli.rivals[0].their_wins) == (1, 0)


def test_quiddler_best_word_is_in_card_notation_and_a_word_lost_on_a_challenge_never_counts():
    from firmware_host.core.games import registry
    from tests.history_games import script_record

    game = script_game("quiddler", 1, at(19), at(20))
    assert game.winners == ("Bob",)
    report = registry.score(registry.parse_record(script_record("quiddler"))).to_json()
    for seat in game.seats:
        laid = [w for r in report["rounds"] for row in r["players"] if row["player"] == seat.name
                for w in row["words"]]
        counted = [w for w in laid if w["allowed"] is not False]
        assert any(w["allowed"] is False for r in report["rounds"] for row in r["players"] for w in row["words"])
        assert seat.best_word is not None and seat.best_word.points == max(w["value"] for w in counted)
        assert seat.best_word.text in [w["cards"] for w in counted]


def test_zugzeit_gives_think_time_never_points_and_a_cooperative_game_no_winner():
    clock = script_game("zugzeit", 1, at(19), at(20))
    assert all(seat.total is None and seat.think_ms for seat in clock.seats)
    cem = person_of([clock], "Cem")
    assert cem is not None
    stats = cem.of("zugzeit")
    assert stats.average is None and stats.best_total is None  # a time is no total
    assert minutes_seconds(cem.think_ms) == f"{cem.think_ms // 60000}:{cem.think_ms // 1000 % 60:02d}"
    assert cem.to_json()["games"][0]["think_time"] == minutes_seconds(cem.think_ms)
    team = script_game("perfect-words", 2, at(20), at(21))
    assert team.winners == ()  # the team plays together: nobody wins against anyone
    anna = person_of([clock, team], "Anna")
    assert anna is not None and anna.won == 0 and anna.of("perfect-words").best_total == team.seats[0].total


def test_averages_and_bests_are_per_game_and_streaks_skip_games_without_winners():
    word = script_game("perfektes-wort", 1, at(18), at(19))
    games = [
        word,
        replace(word, id=2, started=at(19), finished=at(20)),
        script_game("perfect-words", 3, at(20), at(21)),  # no winner: the streak goes on
        replace(word, id=4, started=at(21), finished=at(22),
                seats=(Seat("Geli", 100), Seat("Klaus", 120)), winners=("Klaus",)),
    ]
    geli = person_of(games, "Geli")
    assert geli is not None
    stats = geli.of("perfektes-wort")
    assert (stats.played, stats.won, stats.best_total) == (3, 2, 180)
    assert stats.average == round((180 + 180 + 100) / 3, 1)
    assert geli.streak == 0
    assert person_of(games, "Klaus").streak == 1
    assert person_of(games[:3], "Geli").streak == 2
    assert person_of(games, "Nobody") is None


def test_evenings_split_at_a_gap_of_more_than_six_hours():
    game = script_game("knack-das-wort", 1, at(19), at(20))
    games = [game, replace(game, id=2, started="2026-05-02T02:00:00Z", finished="2026-05-02T03:00:00Z"),
             replace(game, id=3, started="2026-05-02T09:00:01Z", finished="2026-05-02T10:00:00Z")]
    found = evenings(games)
    assert [[g.id for g in evening.games] for evening in found] == [[3], [1, 2]]  # the latest first
    assert found[1].wins() == {"Anna": 2, "Ben": 0}
    assert seconds_of("2026-05-02T02:00:00+02:00") == seconds_of("2026-05-02T00:00:00Z")
    assert seconds_of("yesterday") is None


def test_the_people_are_the_most_recently_played_first():
    game = script_game("knack-das-wort", 1, at(19), at(20))
    later = replace(game, id=2, seats=(Seat("Cem", 3), Seat("Ben", 5)), winners=("Ben",))
    assert [p.name for p in people([game, later])] == ["Ben", "Cem", "Anna"]


def test_the_end_of_game_line_tells_a_streak_then_a_record_then_a_win():
    game = script_game("perfektes-wort", 1, at(18), at(19))
    once = highlight([game], 1, 5.0)
    assert once == Highlight("Geli", "win", "1", 5.0)
    twice = [game, replace(game, id=2)]
    assert highlight(twice, 2, 5.0) == Highlight("Geli", "streak", "2", 5.0)
    assert highlight_text(highlight(twice, 2, 5.0), "de") == "Geli: 2. Sieg in Folge"
    assert highlight_text(Highlight("Anna", "streak", "3", 0.0), "en") == "Anna: 3rd win in a row"
    beaten = replace(game, id=2, seats=(Seat("Geli", 90), Seat("Klaus", 150)), winners=("Klaus",))
    assert highlight([game, beaten], 2, 5.0) == Highlight("Klaus", "total", "150", 5.0)  # beyond his 139
    assert highlight([game, beaten], 3, 5.0) is None  # no such game
    worded = replace(beaten, seats=(Seat("Geli", 90), Seat("Klaus", 150, best_word=Word("FUCHSBAU", 20))))
    assert highlight([game, worded], 2, 5.0) == Highlight("Klaus", "word", "FUCHSBAU (20)", 5.0)  # beyond 15
    assert highlight_text(highlight([game, worded], 2, 5.0), "en") == "Klaus: best word ever FUCHSBAU (20)"


def test_the_end_of_game_line_is_the_footer_only_and_moves_no_clock():
    state, _ = app.initial(Settings())
    before = state
    state, _ = app.step(state, Highlight("Anna", "streak", "3", 99.0))
    assert state.notice == "Anna: 3. Sieg in Folge" and state.now == before.now
    assert "Anna: 3. Sieg in Folge" in describe(app.screen(state))


@pytest.mark.parametrize(("n", "text"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"),
                                          (12, "12th"), (13, "13th"), (21, "21st"), (102, "102nd")])
def test_english_ordinals(n, text):
    assert highlight_text(Highlight("A", "win", str(n), 0.0), "en") == f"A: {text} win"


def test_a_person_is_asked_for_by_the_name_as_a_record_reads_it():
    import unicodedata

    from firmware_host.core.history import person_json

    game = replace(script_game("knack-das-wort", 1, at(19), at(20)), seats=(Seat("Jörg Müller", 3), Seat("Ben", 5)))
    asked = unicodedata.normalize("NFD", "  Jörg   Müller ")
    found = person_json([game], asked)
    assert found is not None and found["name"] == "Jörg Müller" and found["evenings"][0]["people"][0] == "Jörg Müller"
    assert person_json([game], "Jörg\x00") is None and person_json([game], "Jörg") is None
