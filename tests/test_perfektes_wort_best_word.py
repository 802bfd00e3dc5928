"""Das perfekte Wort, revealed: the solver's best word against hand-counted sheets and against a brute
force over a small list that scores every legal word with the game's own scoring."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.core.games.perfektes_wort.best_word import as_of, best_words, gain, group_points
from firmware_host.core.games.perfektes_wort.rules import Reveal, SoloStrike, Word
from firmware_host.core.games.word_groups import GroupedWords
from firmware_host.word_index import read_list
from tests.perfektes_wort_support import play, setup, sheet

WORDS = sorted(read_list(Path(__file__).parent / "wordlists" / "de_small.txt", "de"))  # a fixed order
LIST = GroupedWords.of("tests", WORDS)
FIELDS = ("CH", "SCH", "NG", "ST", "SP", "PF", "Ä", "Ö", "Ü", "ß", "Z", "W")
VOWELS = {"A": 2, "E": 5, "I": 3, "O": 3, "U": 4}
ROUNDS = [("F", 8), ("T", 5), ("H", 5), ("S", 9), ("S", 5), ("K", 5), ("F", 6), ("H", 4), ("T", 5)]


def test_card_f8_fuchsbau_hits_the_grey_b_the_length_and_ch() -> None:
    # FUCHSBAU: valid 5 + exact length 8: 5 + grey B in cell 6: 5 + U U A = 4+4+2 + CH 5 = 30;
    # FRÜHLING 5+5+I 3+Ü 5+NG 5 = 23; FISCHE 5+E 5+I 3+CH 5+SCH 5 = 23.
    game = play(setup(["Geli"], ROUNDS, sheet({1: ".....B..."}, bonus=FIELDS), VOWELS), [Reveal(1)])
    (best,) = best_words(game, 1, LIST)
    assert (best.word, best.points, best.written) == ("FUCHSBAU", 30, 0)
    assert gain(game, "Geli", 1, "FISCHE") == 23 and gain(game, "Geli", 1, "FRÜHLING") == 23


def test_a_field_struck_for_one_player_changes_only_their_best_word() -> None:
    # Round 1: Klaus writes FACH (claims CH), so Geli strikes CH. Round 7 (F/6): for Klaus CH is
    # circled already, for Geli struck: FISCHE is worth 5+5 (length)+E 5+I 3+SCH 5 = 23 to both;
    # FLASCHE (7) is too long for 6.
    game = play(
        setup(["Geli", "Klaus"], ROUNDS, sheet(bonus=FIELDS), VOWELS),
        [Reveal(1), Word(1, "Klaus", "Fach")] + [Reveal(r) for r in range(2, 8)],
    )
    geli, klaus = best_words(game, 7, LIST)
    assert (geli.word, geli.points) == ("FISCHE", 23)
    assert (klaus.word, klaus.points) == ("FISCHE", 23)
    # In round 1 (F/8) the same game gives both FUCHSBAU with CH still open: 5+5+U4+U4+A2+CH 5 = 25.
    assert [(b.word, b.points) for b in best_words(game, 1, LIST)] == [("FUCHSBAU", 25)] * 2
    assert best_words(game, 1, LIST)[1].written_word == "FACH"


def test_exact_length_rule_keeps_longer_words_out_and_rewards_the_exact_length() -> None:
    # Round 2: T/5. TASCHE (6) is too long. TANNE 5+5+A2+E5 = 17, TEICH 5+5+E5+I3+CH5 = 23, TISCH
    # 5+5+I3+CH5+SCH5 = 23: equal points, TEICH is the alphabetically first.
    game = play(setup(["Geli", "Klaus"], ROUNDS, sheet(bonus=FIELDS), VOWELS), [Reveal(1), Reveal(2)])
    best, _ = best_words(game, 2, LIST)
    assert (best.word, best.points) == ("TEICH", 23)
    assert gain(game, "Geli", 2, "TUCH") == 5 + 4 + 5  # one short of the length: no length points


def test_profi_arrows_from_an_earlier_row_and_within_the_row() -> None:
    # Round 3 is H/5. An arrow from cell 3 of row 1 to cell 3 of row 3: Geli wrote FUCHSBAU in round 1
    # (cell 3: C, and it circled CH). HECHT: 5 + 5 + E 5 + arrow hit 5 = 20 (CH is hers already);
    # HUNDE: 5 + 5 + U 4 + E 5 = 19; HÜTTE: 5 + 5 + E 5 + Ü 5 = 20, alphabetically after HECHT.
    solo = [Reveal(1), Word(1, "Geli", "Fuchsbau"), SoloStrike(1, "Geli", "ST"), Reveal(2)]
    solo += [SoloStrike(2, "Geli", "SP"), Reveal(3)]
    game = play(setup(["Geli"], ROUNDS, sheet(arrows=[((1, 3), (3, 3))], bonus=FIELDS), VOWELS), solo)
    assert [gain(game, "Geli", 3, w) for w in ("HECHT", "HUNDE", "HÜTTE", "HONIG")] == [20, 19, 20, 16]
    (best,) = best_words(game, 3, LIST)
    assert (best.word, best.points) == ("HECHT", 20)
    # An arrow within row 3, cell 3 to cell 4: HÜTTE's T T hit it: 20 + 5 = 25.
    pair = play(setup(["Geli"], ROUNDS, sheet(arrows=[((3, 3), (3, 4))], bonus=FIELDS), VOWELS), solo)
    (best,) = best_words(pair, 3, LIST)
    assert (best.word, best.points) == ("HÜTTE", 25)
    assert gain(pair, "Geli", 3, "HECHT") == 15  # no arrow from row 1 now, and CH is hers already


def test_no_legal_word_reveals_nothing() -> None:
    game = play(setup(["Geli"], [("X", 5)] * 9, sheet(bonus=FIELDS), VOWELS), [Reveal(1)])
    (best,) = best_words(game, 1, LIST)
    assert (best.word, best.points) == ("", 0)


LETTERS = sorted({w[0] for w in WORDS})
GREY = "ABCEHNSTU"


@st.composite
def games(draw: st.DrawFn):  # type: ignore[no-untyped-def]
    rounds = [(draw(st.sampled_from(LETTERS)), draw(st.integers(5, 9))) for _ in range(9)]
    rows = {
        r: "." + "".join(draw(st.sampled_from(["."] * 4 + list(GREY))) for _ in range(8)) for r in (1, 2, 3)
    }
    free = [(r, c) for r in (1, 2, 3) for c in range(2, 10) if rows[r][c - 1] == "."]
    cells = draw(st.lists(st.sampled_from(free), unique=True, max_size=6)) if free else []  # all grey: no field
    arrows = [(cells[i], cells[i + 1]) for i in range(0, len(cells) - 1, 2)]
    vowels = {v: draw(st.integers(0, 9)) for v in "AEIOU"}
    players = ["A", "B"][: draw(st.integers(1, 2))]
    the_sheet = sheet(rows, arrows, bonus=FIELDS)
    rnd = draw(st.integers(1, 3))
    events: list = []
    for r in range(1, rnd + 1):
        if len(players) == 1 and r > 1:  # the solo strike; no word of the list holds PF or Ö
            events.append(SoloStrike(r - 1, "A", ("PF", "Ö")[r - 2]))
        events.append(Reveal(r))
        for player in players:
            choices = [w for w in WORDS if w[0] == rounds[r - 1][0] and len(w) <= rounds[r - 1][1]]
            if choices and draw(st.booleans()):
                events.append(Word(r, player, draw(st.sampled_from(choices))))
    return play(setup(players, rounds, the_sheet, vowels), events), rnd


@pytest.mark.slow  # hypothesis
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_no_legal_word_of_the_list_scores_more_than_the_revealed_one(case) -> None:  # type: ignore[no-untyped-def]
    game, rnd = case
    letter, limit = game.letter(rnd), game.max_length(rnd)
    legal = [w for w in WORDS if w[0] == letter and 2 <= len(w) <= limit]
    for best in best_words(game, rnd, LIST):
        brute = max((gain(game, best.player, rnd, w) for w in legal), default=0)
        assert best.points == brute
        assert best.word == "" if not legal else best.word in legal
        if best.word:
            assert gain(game, best.player, rnd, best.word) == best.points


@pytest.mark.slow  # hypothesis
@settings(max_examples=100, deadline=None)
@given(games())
def test_the_solvers_evaluation_equals_the_scoring_for_every_word(case) -> None:  # type: ignore[no-untyped-def]
    game, rnd = case
    letter, limit = game.letter(rnd), game.max_length(rnd)
    for player in game.setup.players:
        base = as_of(game, rnd)
        base = base.__class__(
            base.setup, base.revealed, tuple(e for e in base.entries if (e.round, e.player) != (rnd, player)),
            base.strikes, base.lexicon,
        )
        for length in range(2, limit + 1):
            text = LIST.group(letter, length)
            if text:
                expected = [gain(game, player, rnd, w) for w in text.split("\n")]
                assert group_points(base, player, rnd, text, length) == expected
