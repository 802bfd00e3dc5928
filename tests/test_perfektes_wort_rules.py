"""Entries the rules refuse, with the typed error and its explanation; verdicts, shortening, corrections."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.core.games.perfektes_wort.errors import (
    BadLetters,
    EntryError,
    FieldError,
    RoundError,
    SetupError,
    TooLong,
    UnknownPlayer,
    Unresolved,
    WrongStartingLetter,
)
from firmware_host.core.games.perfektes_wort.fields import Mark
from firmware_host.core.games.perfektes_wort.highscores import HighScore, add_highscore
from firmware_host.core.games.perfektes_wort.lexicon import Lexicon
from firmware_host.core.games.perfektes_wort.rules import (
    Correct,
    Reveal,
    Shorten,
    SoloStrike,
    Strike,
    Verdict,
    Word,
    apply,
    field_marks,
    new_game,
    pending,
    unknown_words,
)
from firmware_host.core.games.perfektes_wort.scoring import score
from firmware_host.word_index import first_list, read_list
from tests.perfektes_wort_support import play, setup, sheet

ROUNDS = [("F", 8), ("T", 6), ("H", 5), ("M", 9), ("S", 5), ("K", 5), ("R", 6), ("G", 4), ("P", 5)]
TWO = setup(["Geli", "Klaus"], ROUNDS)


def started(rounds: int = 1, players: tuple[str, ...] = ("Geli", "Klaus"), lexicon: Lexicon | None = None):  # type: ignore[no-untyped-def]
    game = new_game(setup(players, ROUNDS), lexicon)
    for r in range(1, rounds + 1):
        game = apply(game, Reveal(r))
    return game


def test_round_letter_and_length_follow_the_deck() -> None:
    game = started(9)
    # round r: letter of card r+1, length on the back of card r
    assert [(game.letter(r), game.max_length(r)) for r in range(1, 10)] == ROUNDS
    assert game.setup.deck[0].letter == "B"  # card 1's letter is never a starting letter


def test_wrong_starting_letter() -> None:
    with pytest.raises(WrongStartingLetter) as err:
        apply(started(), Word(1, "Geli", "Hase"), 7)
    assert "letter F" in err.value.message and err.value.ref == 7


def test_characters_that_are_not_letters() -> None:
    with pytest.raises(BadLetters, match="'-'"):
        apply(started(), Word(1, "Geli", "Fisch-Ei"))


def test_word_longer_than_the_row_is_refused_with_prefixes() -> None:
    lexicon = Lexicon.of(["Fall", "Fallschirm", "Fallsch"])
    with pytest.raises(TooLong) as err:
        apply(started(lexicon=lexicon), Word(1, "Geli", "Fallschirmspringer"))
    assert err.value.prefixes == ("FALLSCH", "FALL")  # only the known prefixes of at most 8 letters


def test_too_long_word_waits_for_shortening_and_offers_prefixes() -> None:
    game = apply(started(2), Word(2, "Klaus", "Tagträume"))
    [problem] = pending(game)
    assert isinstance(problem, TooLong)
    assert problem.prefixes == ("TAGTRÄ", "TAGTR", "TAGT", "TAG", "TA")  # no dictionary: all, longest first
    with pytest.raises(TooLong):
        score(game)
    with pytest.raises(Unresolved, match="TAGTRÄUME"):
        apply(game, Reveal(3))
    with pytest.raises(TooLong):
        apply(game, Verdict(2, "Klaus", True))
    with pytest.raises(TooLong, match="still longer"):
        apply(game, Shorten(2, "Klaus", "TAGTRÄU"))
    with pytest.raises(EntryError, match="cut letters from the end"):
        apply(game, Shorten(2, "Klaus", "TRÄUME"))
    assert score(apply(game, Shorten(2, "Klaus", "tag"))).players[1].rows[1].word == "TAG"


def test_with_a_dictionary_only_known_prefixes_are_offered() -> None:
    game = apply(started(2, lexicon=Lexicon.of(["Tag", "Tagträume", "tagt"])), Word(2, "Klaus", "Tagträume"))
    [problem] = pending(game)
    assert isinstance(problem, TooLong) and problem.prefixes == ("TAGT", "TAG")


def test_invalid_verdict_needs_shortening_or_strike() -> None:
    game = apply(apply(started(), Word(1, "Geli", "Fischers")), Verdict(1, "Geli", False))
    with pytest.raises(Unresolved, match="declared invalid"):
        score(game)
    shortened = apply(game, Shorten(1, "Geli", "Fischer"))
    assert score(shortened).players[0].rows[0].points == 5
    struck = apply(game, Strike(1, "Geli"))
    assert score(struck).players[0].rows[0].points == 0
    # the table may change its mind
    assert score(apply(game, Verdict(1, "Geli", True))).players[0].rows[0].points == 10  # valid + 8 of 8


def test_correction_may_force_shortening() -> None:
    # FILE is misspelt for FIELE... the correction I -> IE makes it one letter longer than the maximum.
    game = play(TWO, [Reveal(1), Reveal(2), Reveal(3), Word(3, "Geli", "Hirse")])
    game = apply(game, Correct(3, "Geli", "Hierse"))
    [problem] = pending(game)
    assert isinstance(problem, TooLong)
    game = apply(game, Shorten(3, "Geli", "Hier"))
    row = score(game).players[0].rows[2]
    assert (row.written, row.word, row.corrected, row.points) == ("HIERSE", "HIER", True, 5)


def test_rounds_must_exist_and_be_revealed() -> None:
    with pytest.raises(RoundError, match="not revealed"):
        apply(started(1), Word(2, "Geli", "Tor"))
    with pytest.raises(RoundError, match="rounds 1 to 9"):
        apply(started(9), Word(10, "Geli", "Tor"))
    with pytest.raises(RoundError, match="ends after round 9"):
        apply(started(9), Reveal(10))
    with pytest.raises(RoundError, match="round 2"):
        apply(started(1), Reveal(3))


def test_unknown_player() -> None:
    with pytest.raises(UnknownPlayer, match="Mia"):
        apply(started(), Word(1, "Mia", "Fisch"))


def test_second_word_and_steps_without_a_word() -> None:
    game = apply(started(), Word(1, "Geli", "Fisch"))
    with pytest.raises(EntryError, match="correction"):
        apply(game, Word(1, "Geli", "Frosch"))
    with pytest.raises(EntryError, match="no word"):
        apply(game, Verdict(1, "Klaus", False))
    with pytest.raises(EntryError, match="is struck"):
        apply(apply(game, Strike(1, "Geli")), Shorten(1, "Geli", "Fis"))


def test_solo_strikes() -> None:
    solo = new_game(setup(["Mia"], ROUNDS, sheet()))
    game = play(solo.setup, [Reveal(1), Word(1, "Mia", "Fach")])
    with pytest.raises(FieldError, match="CH was used"):
        apply(game, SoloStrike(1, "Mia", "CH"))
    with pytest.raises(Unresolved, match="solo: strike one bonus field"):
        apply(game, Reveal(2))
    with pytest.raises(FieldError, match="not a bonus field"):
        apply(game, SoloStrike(1, "Mia", "QU"))
    game = apply(game, SoloStrike(1, "Mia", "Z"))
    with pytest.raises(FieldError, match="only one"):
        apply(game, SoloStrike(1, "Mia", "W"))
    game = apply(game, Reveal(2))
    with pytest.raises(FieldError, match="already struck"):
        apply(game, SoloStrike(2, "Mia", "Z"))
    # strike first, then a word of the same round using that field: the strike comes after the round
    game = apply(game, SoloStrike(2, "Mia", "ST"))
    with pytest.raises(FieldError, match="ST was used"):
        apply(game, Word(2, "Mia", "Test"))
    marks = field_marks(game)["Mia"]
    assert (marks["CH"].mark, marks["Z"].mark, marks["ST"].mark) == (Mark.CIRCLED, Mark.STRUCK, Mark.STRUCK)
    with pytest.raises(EntryError, match="solo"):
        apply(started(), SoloStrike(1, "Geli", "Z"))


def test_solo_struck_field_cannot_be_claimed_later() -> None:
    game = play(
        setup(["Mia"], ROUNDS, sheet()),
        [Reveal(1), SoloStrike(1, "Mia", "ST"), Reveal(2), Word(2, "Mia", "Test")],
    )
    mia = score(game).players[0]
    assert mia.bonus_points == 0
    assert next(f for f in mia.fields if f.field == "ST").round == 1


def test_setup_errors() -> None:
    with pytest.raises(SetupError, match="1 to 6"):
        new_game(setup([f"P{i}" for i in range(7)], ROUNDS))
    with pytest.raises(SetupError, match="twice"):
        new_game(setup(["A", "A"], ROUNDS))
    with pytest.raises(SetupError, match="row 1"):
        new_game(setup(["A"], [("F", 12), *ROUNDS[1:]], sheet()))


def test_empty_word_is_no_word_until_a_word_is_entered() -> None:
    game = apply(started(), Word(1, "Geli", ""))
    result = score(game)
    assert result.players[0].rows[0].status == "none" and result.players[0].total == 0
    assert score(apply(game, Word(1, "Geli", "Fisch"))).players[0].rows[0].word == "FISCH"


def test_dictionary_loading(tmp_path: Path) -> None:
    path = tmp_path / "words"
    path.write_text("# list\nHund\nstraße\n\nTag\n", encoding="utf-8")
    lexicon = Lexicon.of(read_list(path, "de"))
    assert "HUND" in lexicon and "Straße" in lexicon and "Katze" not in lexicon and len(lexicon) == 3
    assert first_list(None, [tmp_path / "missing"]) is None
    assert first_list(None, [path]) == path
    latin = tmp_path / "latin1"
    latin.write_bytes("Bär\n".encode("latin-1"))
    assert "BÄR" in Lexicon.of(read_list(latin, "de"))


def test_unknown_words_are_flagged_only_with_a_word_list() -> None:
    lexicon = Lexicon.of(["Fisch", "Frosch"])
    game = play(TWO, [Reveal(1), Word(1, "Geli", "Fisch"), Word(1, "Klaus", "Fusch")])
    assert unknown_words(game) == ()
    flagged = unknown_words(replace(game, lexicon=lexicon))
    assert [(e.player, e.current) for e in flagged] == [("Klaus", "FUSCH")]


def test_highscore_list() -> None:
    table: tuple[HighScore, ...] = ()
    for total in (120, 150, 90):
        table, _ = add_highscore(table, HighScore("Mia", total, "profi"), places=3)
    table, place = add_highscore(table, HighScore("Tom", 120, "profi"), places=3)
    assert [h.total for h in table] == [150, 120, 120] and place == 3
    assert add_highscore(table, HighScore("Tom", 100, "profi"), places=3)[1] is None


def test_errors_speak_german_by_default_for_the_table_and_english_in_records() -> None:
    with pytest.raises(WrongStartingLetter) as err:
        apply(started(), Word(1, "Geli", "Hase"), 3)
    assert err.value.text("de") == "HASE beginnt nicht mit F, dem Anfangsbuchstaben von Runde 1"
    assert err.value.message == err.value.text("en") == "HASE does not start with round 1's letter F"
    game = apply(started(2), Word(2, "Klaus", "Tagträume"))
    with pytest.raises(Unresolved) as nested:
        apply(game, Reveal(3))
    assert nested.value.text("de") == (
        "vor der nächsten Karte: Klaus, Runde 2: TAGTRÄUME hat 9 Buchstaben, erlaubt sind 6; "
        "kürzen (zu TAGTRÄ, TAGTR, TAGT, TAG, TA) oder streichen"
    )
