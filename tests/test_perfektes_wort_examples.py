"""The rulebook's worked examples (RULES.md §1), each as a game whose numbers are checked by hand."""

from __future__ import annotations

from firmware_host.core.games.perfektes_wort.fields import Mark
from firmware_host.core.games.perfektes_wort.rules import Reveal, Shorten, Strike, Word
from firmware_host.core.games.perfektes_wort.scoring import score
from firmware_host.games.perfektes_wort.data_files import load_game_data
from tests.perfektes_wort_support import play, setup, sheet

# Nine rounds; the tests only use the first few unless they say otherwise.
ROUNDS = [("F", 8), ("T", 6), ("H", 5), ("M", 9), ("S", 5), ("K", 5), ("R", 6), ("G", 4), ("P", 5)]


def mark(result, player, field):  # type: ignore[no-untyped-def]
    return next(f for f in result.players[player].fields if f.field == field)


def test_fuchsbau_scores_15_and_claims_ch_fruehling_circles_ue_and_ng() -> None:
    the_sheet = sheet({1: ".....B..."})  # a grey B in cell 6: FUCHSBAU uses it there
    game = play(
        setup(["Geli", "Klaus"], ROUNDS, the_sheet),
        [Reveal(1), Word(1, "Geli", "Fuchsbau"), Word(1, "Klaus", "Frühling")],
    )
    result = score(game)
    geli, klaus = result.players
    row = geli.rows[0]
    assert (row.valid_points, row.length_points, row.hit_points, row.points) == (5, 5, 5, 15)
    assert [(h.cell, h.letter) for h in row.grey_hits] == [(6, "B")]
    assert mark(result, 0, "CH").mark is Mark.CIRCLED
    assert mark(result, 1, "CH").mark is Mark.STRUCK
    for field in ("Ü", "NG"):
        assert mark(result, 1, field).mark is Mark.CIRCLED
        assert mark(result, 0, field).mark is Mark.STRUCK
        assert mark(result, 0, field).by == ("Klaus",)
    assert klaus.rows[0].points == 10  # valid 5 + exact length 5, no grey letter used
    assert (geli.bonus_points, klaus.bonus_points) == (5, 10)


def test_same_field_in_the_same_round_is_circled_by_all_who_used_it() -> None:
    game = play(
        setup(["A", "B", "C"], ROUNDS, sheet()),
        [Reveal(1), Word(1, "A", "Fach"), Word(1, "B", "Fächer"), Word(1, "C", "Farbe"), Reveal(2)],
    )
    game = play(game.setup, [Word(2, "C", "Teich")], game)  # CH is gone for C
    result = score(game)
    assert mark(result, 0, "CH").mark is Mark.CIRCLED and mark(result, 0, "CH").by == ("A", "B")
    assert mark(result, 1, "CH").mark is Mark.CIRCLED
    assert mark(result, 2, "CH").mark is Mark.STRUCK and mark(result, 2, "CH").round == 1
    assert [p.bonus_points for p in result.players] == [5, 10, 0]  # B also circles Ä


def test_gelis_game_115_word_56_vowel_20_bonus_191() -> None:
    # Grey letters placed so that exactly six are hit: B@1/6, E@2/3, E@4/2, L@4/5, T@5/4, K@9/5;
    # two more grey letters that her words do not use (O@3/5, A@6/2).
    the_sheet = sheet(
        {
            1: ".....B...",
            2: "..E......",
            3: "....O....",
            4: ".E..L....",
            5: "...T.....",
            6: ".A.......",
            9: "....K....",
        }
    )
    rounds = [("F", 8), ("S", 5), ("K", 5), ("H", 5), ("M", 5), ("D", 5), ("R", 6), ("G", 4), ("P", 5)]
    words = ["FUCHSBAU", "STERN", "KLANG", "HEBEL", "MIETE", "DURST", "RABE", "GRÜN", "PANIK"]
    events = []
    for r, word in enumerate(words, start=1):
        events += [Reveal(r), Word(r, "Geli", word)]
    result = score(play(setup(["Geli", "Klaus"], rounds, the_sheet), events))
    geli = result.players[0]
    # by hand: 15 15 10 20 15 10 5 10 15 (RABE is 4 of 6 letters: no length points)
    assert [row.points for row in geli.rows] == [15, 15, 10, 20, 15, 10, 5, 10, 15]
    assert geli.word_points == 115
    assert dict(geli.vowels.counts) == {"A": 4, "E": 6, "I": 2, "O": 0, "U": 3}
    assert geli.vowels.points_of("E") == 30
    assert geli.vowels.points == 56  # 8 + 30 + 6 + 0 + 12
    assert [f.field for f in geli.fields if f.mark is Mark.CIRCLED] == ["CH", "NG", "ST", "Ü"]
    assert geli.bonus_points == 20
    assert geli.total == 191
    assert result.winners == ("Geli",)


def test_tagtraeume_shortened_to_tag_loses_u_e_and_the_ae_field() -> None:
    game = play(
        setup(["Klaus", "Geli"], ROUNDS, sheet()),
        [
            Reveal(1),
            Reveal(2),
            Word(2, "Klaus", "Tagträume"),
            Shorten(2, "Klaus", "TAG"),
            Word(2, "Geli", "Tante"),
        ],
    )
    result = score(game)
    klaus = result.players[0]
    row = klaus.rows[1]
    assert (row.written, row.word, row.status, row.points) == ("TAGTRÄUME", "TAG", "shortened", 5)
    assert dict(klaus.vowels.counts) == {"A": 1, "E": 0, "I": 0, "O": 0, "U": 0}
    assert mark(result, 0, "Ä").mark is Mark.OPEN
    assert mark(result, 1, "Ä").mark is Mark.OPEN  # nobody has to strike Ä


def test_hummel_struck_scores_nothing() -> None:
    game = play(
        setup(["Klaus", "Geli"], ROUNDS, sheet({3: ".U......."})),
        [Reveal(1), Reveal(2), Reveal(3), Word(3, "Klaus", "Hummel"), Strike(3, "Klaus")],
    )
    result = score(game)
    klaus = result.players[0]
    assert klaus.rows[2].status == "struck"
    assert (klaus.rows[2].points, klaus.vowels.points, klaus.bonus_points, klaus.total) == (0, 0, 0, 0)
    assert klaus.rows[2].grey_hits == ()  # the U in cell 2 is not a hit once struck


def test_mirabelle_arrow_hit() -> None:
    # Profi: an arrow printed in cell 8 of row 4 points at cell 7; MIRABELLE puts an L in both.
    the_sheet = sheet(arrows=[((4, 8), (4, 7))], side="profi")
    game = play(
        setup(["Klaus", "Geli"], ROUNDS, the_sheet),
        [Reveal(1), Reveal(2), Reveal(3), Reveal(4), Word(4, "Klaus", "Mirabelle")],
    )
    row = score(game).players[0].rows[3]
    assert [(str(a.source), str(a.target), a.letter) for a in row.arrow_hits] == [("4/8", "4/7", "L")]
    assert (row.valid_points, row.length_points, row.hit_points, row.points) == (5, 5, 5, 15)


def test_arrow_across_rows_scores_in_the_later_row_r5() -> None:
    the_sheet = sheet(arrows=[((1, 3), (2, 3))], side="profi")
    game = play(
        setup(["A", "B"], ROUNDS, the_sheet),
        [Reveal(1), Word(1, "A", "FELD"), Reveal(2), Word(2, "A", "TALK"), Word(2, "B", "TELL")],
    )
    a = score(game).players[0]
    assert a.rows[0].arrow_hits == () and a.rows[0].points == 5
    assert [(str(h.source), str(h.target), h.letter) for h in a.rows[1].arrow_hits] == [("1/3", "2/3", "L")]
    assert a.rows[1].points == 10  # valid 5 + arrow 5 (4 of 6 letters: no length points)
    b = score(game).players[1]
    assert b.rows[1].arrow_hits == ()  # B's cell 1/3 is empty


def test_vowel_card_u_4_a_2() -> None:
    data = load_game_data()
    face = data.face("1a")
    assert (face.values["U"], face.values["A"]) == (4, 2)
    game = play(
        setup(["A", "B"], ROUNDS, sheet(), dict(face.values)),
        [Reveal(1), Word(1, "A", "FAUL"), Word(1, "B", "FÖHN")],
    )
    a, b = score(game).players
    assert (a.vowels.points_of("U"), a.vowels.points_of("A"), a.vowels.points) == (4, 2, 6)
    assert b.vowels.points == 0  # Ö is not a vowel
