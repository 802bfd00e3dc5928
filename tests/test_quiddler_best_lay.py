"""Quiddler, revealed: the best lay-down of a hand against hand-known hands and against a brute force
over a small list (every permutation of every part of the hand that spells a word), the round points
of every lay-down counted by `score_round` against the other players' lays."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from firmware_host.core.games.quiddler.best_lay import (
    Rivals,
    best_label,
    best_lay,
    candidates,
    hint,
    lay_points,
    marked,
    reveal_round,
    split_marks,
)
from firmware_host.core.games.quiddler.deck import STANDARD_DECK as DECK
from firmware_host.core.games.quiddler.notation import format_cards
from firmware_host.core.games.quiddler.scoring import Bonus, Lay, score_round
from firmware_host.core.games.word_groups import GroupedWords
from firmware_host.word_index import read_list

WORDS = sorted(read_list(Path(__file__).parent / "wordlists" / "en_small.txt", "en"))  # a fixed order
LIST = GroupedWords.of("tests", WORDS)


def value(cards: tuple[str, ...] | list[str]) -> int:
    return sum(DECK.value(face) for face in cards)


def test_the_list_keeps_no_proper_names() -> None:
    assert "BOSTON" not in WORDS and "QUIT" in WORDS


def test_qu_card_quit_and_quite_go_out_where_quit_leaves_the_e() -> None:
    # (QU)IT: the card QU is the two letters of QUIT: 9 + 2 + 3 = 14, every card laid.
    quit_ = best_lay(["QU", "I", "T"], LIST, DECK)
    assert (quit_.words, quit_.value, quit_.went_out) == ((("QU", "I", "T"),), 14, True)
    # (QU)ITE or (QU)IET: 9 + 2 + 3 + 2 = 16, every card laid; (QU)IT leaves E: 14 - 2 = 12.
    best = best_lay(["QU", "I", "T", "E"], LIST, DECK)
    assert [format_cards(w) for w in best.words] in (["(QU)ITE"], ["(QU)IET"]) and best.went_out
    assert best.value == 16 and lay_points(best, "Ann", (), DECK) == (36, (Bonus.LONGEST, Bonus.MOST))  # alone


def test_qu_card_is_no_q_and_u_and_a_single_card_is_no_word() -> None:
    # Q, U, I, T: Q·U·I·T = 15 + 4 + 2 + 3 = 24. The card IN alone is no word (one card).
    assert best_lay(["Q", "U", "I", "T"], LIST, DECK).words == (("Q", "U", "I", "T"),)
    alone = best_lay(["IN", "Z"], LIST, DECK)
    assert (alone.words, alone.value, alone.went_out) == ((), -(7 + 14), False)
    # I·N is a word of two cards.
    assert best_lay(["I", "N"], LIST, DECK).words == (("I", "N"),)


def test_going_out_with_a_discard_beats_keeping_the_longer_word() -> None:
    # After drawing: I N E R T S O. INERT (17) keeps O or S unused: at best 17 - 2 = 15 with S
    # discarded. REIN + TO (14 + 5) discarding S, or REIN + SO (14 + 5) discarding T, go out: 19.
    best = best_lay(["I", "N", "E", "R", "T", "S", "O"], LIST, DECK, discard=True)
    assert (best.value, best.went_out, best.unused) == (19, True, ())
    assert ("R", "E", "I", "N") in best.words and best.discard in ("S", "T")
    inert = Lay("Ann", (("I", "N", "E", "R", "T"),), ("O",))
    ben = Lay("Ben", (("T", "H", "E", "N"),), ())
    assert lay_points(best, "Ann", (inert, ben), DECK) == (19, ())  # THEN (4) ties REIN: no bonus
    assert lay_points(best, "Ann", (Lay("Ben", (("A", "T"),), ()),), DECK, Bonus.LONGEST) == (29, (Bonus.LONGEST,))


def test_the_best_lay_down_counts_the_bonus_it_takes_issue_36() -> None:
    # Two players, the longest-word bonus; Bob went out with DOG IT. Ann's hand E A TH O I: EA (TH)O is
    # 4 + 11 - 2 = 13, its THO ties DOG (3 letters); OA(TH) is 13 - 4 = 9, but 4 letters: +10 = 19.
    words = GroupedWords.of("tests", ["EA", "THO", "OATH", "DOG", "IT"])
    bob = Lay("Bob", (("D", "O", "G"), ("I", "T")), (), went_out=True)
    hand = ["E", "A", "TH", "O", "I"]
    assert best_lay(hand, words, DECK).words == (("E", "A"), ("TH", "O"))  # by the card result alone
    best = best_lay(hand, words, DECK, rivals=Rivals.of("Ann", (bob,), Bonus.LONGEST))
    assert (best.words, best.value, best.bonuses, best.points) == ((("O", "A", "TH"),), 9, (Bonus.LONGEST,), 19)
    assert lay_points(best, "Ann", (bob,), DECK, Bonus.LONGEST) == (19, (Bonus.LONGEST,))
    # With the most-words bonus instead, two words beat Bob's two? No: a tie takes nothing, so 13 stands.
    most = best_lay(hand, words, DECK, rivals=Rivals.of("Ann", (bob,), Bonus.MOST))
    assert (most.words, most.points) == ((("E", "A"), ("TH", "O")), 13)


def test_a_negative_card_result_counts_as_zero_and_a_longer_word_still_takes_a_bonus() -> None:
    # Three players: Bob laid AT TO, Cem nothing. Ann holds Q X I T H E. IT HE is 14 - 27 = -13 (0), two
    # words and two letters tie Bob: no bonus. THE is 12 - 29 = -17 (0), but 3 letters: +10 = 10.
    hand = ["Q", "X", "I", "T", "H", "E"]
    lays = (Lay("Bob", (("A", "T"), ("T", "O")), ()), Lay("Cem", (), ("J", "Z", "V")))
    assert sorted(best_lay(hand, LIST, DECK).words) == [("H", "E"), ("I", "T")]  # by the card result
    best = best_lay(hand, LIST, DECK, rivals=Rivals.of("Ann", lays))
    assert (best.words, best.value, best.bonuses, best.points) == ((("T", "H", "E"),), -17, (Bonus.LONGEST,), 10)
    assert lay_points(best, "Ann", lays, DECK) == (10, (Bonus.LONGEST,))


def test_marks_say_which_bonuses_and_read_back() -> None:
    assert marked("OA(TH)", (Bonus.LONGEST,)) == "OA(TH) +L"
    assert marked("AT TO", (Bonus.MOST, Bonus.LONGEST)) == "AT TO +L +M"
    for text in ("OA(TH) +L", "AT TO +L +M", "AT TO +M", "CAT", ""):
        words, won = split_marks(text)
        assert marked(words, won) == text


def test_a_word_holding_two_of_the_hands_first_face_is_laid() -> None:
    # (QU)EEN: both E (the hand's lowest face, twice) in one word: 9 + 2 + 2 + 5 = 18, every card laid.
    best = best_lay(["E", "E", "N", "QU"], LIST, DECK)
    assert (best.words, best.value, best.went_out) == ((("QU", "E", "E", "N"),), 18, True)


def test_solitaire_hint_is_the_word_of_most_cards() -> None:
    found = hint(["Q", "U", "I", "T", "E", "Z", "X", "C"], LIST, DECK)
    assert found is not None and found.word == "QUIET"  # QUITE has the same cards: alphabetically after
    assert hint(["X", "Z", "J"], LIST, DECK) is None


def brute_words(hand: list[str]) -> set[tuple[str, ...]]:
    words = set(WORDS)
    found = set()
    for size in range(2, len(hand) + 1):
        for cards in permutations(hand, size):
            if "".join(cards) in words:
                found.add(cards)
    return found


def brute(hand: list[str], discard: bool) -> tuple[int, bool]:
    """The best (value, went out) over every set of disjoint words and every discard."""
    words = sorted(brute_words(hand))
    best = (-(10**9), False)

    def walk(left: Counter[str], start: int, laid: int) -> None:
        nonlocal best
        rest = list(left.elements())
        if discard:
            for drop in set(rest):
                unused = list(rest)
                unused.remove(drop)
                best = max(best, (laid - value(unused), not unused))
        else:
            best = max(best, (laid - value(rest), not rest))
        for i in range(start, len(words)):
            need = Counter(words[i])
            if all(left[face] >= n for face, n in need.items()):
                walk(left - need, i, laid + value(words[i]))

    walk(Counter(hand), 0, 0)
    return best


FACES = ["A", "E", "I", "O", "U", "T", "N", "S", "R", "H", "Q", "Z", "QU", "IN", "ER", "TH", "CL"]


@pytest.mark.slow  # hypothesis
@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FACES), min_size=1, max_size=6), st.booleans())
def test_no_lay_down_scores_more_than_the_best(hand: list[str], discard: bool) -> None:
    best = best_lay(hand, LIST, DECK, discard=discard)
    assert (best.value, best.went_out) == brute(hand, discard)
    laid = [face for word in best.words for face in word]
    rest = [*best.unused, *([best.discard] if best.discard else [])]
    assert Counter(laid + rest) == Counter(hand)
    assert all("".join(word) in WORDS and len(word) >= 2 for word in best.words)
    assert best.value == value(laid) - value(list(best.unused))
    assert (best.discard is not None) == discard


@pytest.mark.slow  # hypothesis
@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(FACES), min_size=1, max_size=6))
def test_candidates_are_exactly_the_words_the_hand_spells(hand: list[str]) -> None:
    found = {tuple(sorted(c.cards)) for c in candidates(hand, LIST, DECK)}
    assert found == {tuple(sorted(cards)) for cards in brute_words(hand)}


# --- round points against the other players' lays: a richer list of short words -----------------------

SHORT_WORDS = """AN AS IS ON OR NO SO TO HE HI AH OH AT IN IT ATE EAT TEA TEN NET NOT TON ONE
    NOR TIN SIT ITS HIS HIT THE THEN THIN THIS HAT SAT RAT ART TAR EAR ERA ARE ORE TOE TIE QUIT QUITE QUIET
    QUEEN INERT INTER REIN STERN RATE TEAR EARN NEAR NEAT NOTE TONE STONE ONSET HINT THAN HEN HER HERO SHOE
    HOSE HOST SHOT THOSE THRONE OTHER ETHER THREE THERE THESE OATH EAST SEAT"""
ROUND_WORDS = sorted({*WORDS, *SHORT_WORDS.split()})
ROUND_LIST = GroupedWords.of("tests", ROUND_WORDS)
HAND_FACES = [*"AEIOUNRSTHQXZ", "QU", "IN", "ER", "TH", *"AEIOTS"]  # vowels twice, double-letter cards


def spellings(word: str) -> list[tuple[str, ...]]:
    """Every way to spell `word` in cards of the deck (each face as often as needed)."""
    if not word:
        return [()]
    faces = {spec.face for spec in DECK.specs}
    return [(word[:n], *rest) for n in (1, 2) if word[:n] in faces and len(word) >= n for rest in spellings(word[n:])]


SHORT_LAID = sorted({cards for word in ROUND_WORDS for cards in spellings(word) if len(cards) >= 2 and len(word) <= 4})


def round_key(player: str, laid: list[tuple[str, ...]], unused: list[str], others: list[Lay], bonus: Bonus):
    """(round points, card result, went out, longest) of one lay-down, counted by `score_round`."""
    lays = [Lay(player, tuple(laid), tuple(unused), not unused), *others]
    row = score_round(number=1, hand_size=0, dealer=player, starter=player, lays=lays, challenges=(),
                      totals_before={}, deck=DECK, two_player_bonus=bonus).rows[0]
    points = row.card_score + row.most_words_bonus + row.longest_word_bonus
    card_result = sum(value(word) for word in laid) - value(unused)
    return points, card_result, not unused, max((len("".join(word)) for word in laid), default=0)


def brute_round(hand: list[str], discard: bool, others: list[Lay], bonus: Bonus):
    """The best `round_key` over every set of disjoint words of the hand and every discard."""
    spelled = {cards for size in range(2, len(hand) + 1) for cards in permutations(hand, size)}
    words = sorted(cards for cards in spelled if "".join(cards) in ROUND_WORDS)
    best = None

    def walk(left: Counter[str], start: int, laid: list[tuple[str, ...]]) -> None:
        nonlocal best
        rest = list(left.elements())
        drops = [[*rest[:i], *rest[i + 1:]] for i in range(len(rest))] if discard else [rest]
        for unused in drops:
            key = round_key("Ann", laid, unused, others, bonus)
            best = key if best is None or key > best else best
        for i in range(start, len(words)):
            need = Counter(words[i])
            if all(left[face] >= n for face, n in need.items()):
                walk(left - need, i, [*laid, words[i]])

    walk(Counter(hand), 0, [])
    return best


@pytest.mark.slow  # hypothesis
@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(HAND_FACES), min_size=1, max_size=7),
    st.booleans(),
    st.lists(st.lists(st.sampled_from(SHORT_LAID), max_size=2), max_size=7),
    st.sampled_from(list(Bonus)),
)
@example(["E", "A", "TH", "O", "I"], False, [[("D", "O", "G"), ("I", "T")]], Bonus.LONGEST)  # issue 36
@example(["Q", "X", "I", "T", "H", "E"], True, [[("A", "T"), ("T", "O")], []], Bonus.LONGEST)
@example(["A", "T", "T", "O"], False, [], Bonus.MOST)  # alone: any word takes both bonuses (Q6)
def test_no_lay_down_scores_more_round_points_than_the_revealed_one(
    hand: list[str], discard: bool, rival_words: list[list[tuple[str, ...]]], bonus: Bonus
) -> None:
    # Ann and 0–7 other players (1–8 in all) whose lays are short words of the list, either two-player
    # bonus: the best lay-down's round points, then card result, going out and longest word, are the
    # best of every lay-down of the hand, each counted by `score_round`.
    others = [Lay(f"P{i}", tuple(words), ()) for i, words in enumerate(rival_words)]
    best = best_lay(hand, ROUND_LIST, DECK, discard=discard, rivals=Rivals.of("Ann", others, bonus))
    key = round_key("Ann", list(best.words), list(best.unused), others, bonus)
    assert key == brute_round(hand, discard, others, bonus)
    assert lay_points(best, "Ann", others, DECK, bonus) == (best.points, best.bonuses) and key[0] == best.points


def issue_round(challenged: bool) -> tuple[tuple[str, str, int, str, int], ...]:
    """Round 3 of Ann and Bob (longest word): Bob goes out with DOG IT, Ann lays EA (TH)O and keeps I;
    with `challenged` Ann challenges Bob's DOG and the table refuses it."""
    from firmware_host.core.games.quiddler import rules as q

    game = q.new_game(["Ann", "Bob"])
    for hand in (3, 4):  # rounds 1 and 2: nothing laid
        game = q.start_round(game)
        game = q.lay_down(game, "Bob", [], ["X"] * 2 + ["Z"] * (hand - 2))
        game = q.lay_down(game, "Ann", [], ["J"] * 2 + ["V"] * (hand - 2))
        game = q.end_round(game)
    game = q.start_round(game)
    game = q.lay_down(game, "Bob", [("D", "O", "G"), ("I", "T")], went_out=True)
    game = q.lay_down(game, "Ann", [("E", "A"), ("TH", "O")], ["I"])
    if challenged:
        game = q.challenge(game, "Ann", "Bob", ("D", "O", "G"), allowed=False)
    game = q.end_round(game)
    return reveal_round(game, 3, GroupedWords.of("tests", ["EA", "THO", "OATH", "DOG", "IT"]))


def test_the_round_reveals_the_lay_down_of_most_round_points_and_what_each_scored() -> None:
    # Issue 36's example: OA(TH) is card 9 + 10 for the longest word = 19, more than EA (TH)O's 13 (as
    # Ann scored: THO ties DOG). Bob's DOG IT is his best: 13 + 5, no bonus (DOG ties THO).
    ann, bob = issue_round(challenged=False)
    assert ann == ("Ann", "OA(TH) +L", 19, "EA (TH)O", 13)
    assert bob == ("Bob", "DOG IT", 18, "DOG IT", 18)
    assert best_label("de", "Ann", ann[1]) == "Ann möglich: OA(TH) (+10 längstes Wort)"
    assert best_label("en", "Bob", "AT TO +L +M") == "Bob could: AT TO (+10 longest word, +10 most words)"


def test_a_word_lost_on_a_challenge_does_not_count_against_the_others_best() -> None:
    # Bob's DOG lost: his IT (2 letters) is all that counts, so Ann's EA (TH)O takes the longest word:
    # 13 + 10 = 23, as she scored; OA(TH) would take it too, but with 9 + 10.
    ann, _ = issue_round(challenged=True)
    assert ann == ("Ann", "EA (TH)O +L", 23, "EA (TH)O", 23)
