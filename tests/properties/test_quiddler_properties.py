"""Properties of Quiddler's card notation and round scoring (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.core.games.quiddler.deck import STANDARD_DECK
from firmware_host.core.games.quiddler.errors import NotationError
from firmware_host.core.games.quiddler.notation import format_cards, parse_cards
from firmware_host.core.games.quiddler.scoring import Bonus, Challenge, Lay, RoundScore, score_round

pytestmark = pytest.mark.slow  # hypothesis

FACES = [spec.face for spec in STANDARD_DECK.specs]
VALUES = {spec.face: spec.value for spec in STANDARD_DECK.specs}
faces = st.sampled_from(FACES)
card_sequences = st.lists(faces, min_size=1, max_size=12).map(tuple)


# --- notation ------------------------------------------------------------------------------------------
def test_notation_says_how_a_word_splits_into_cards() -> None:
    assert parse_cards("(QU)IT", STANDARD_DECK) == ("QU", "I", "T")
    assert parse_cards("QUIT", STANDARD_DECK) == ("Q", "U", "I", "T")
    assert parse_cards("  (th)e ", STANDARD_DECK) == ("TH", "E")
    assert format_cards(("CL", "A", "N")) == "(CL)AN"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no cards given"),
        ("QU IT", "' ' is not a card letter"),
        ("QU.IT", "'.' is not a card letter"),
        ("(QI)T", "no card QI"),
        ("(Q)UIT", "single-letter card Q without brackets"),
        ("(QU", "never closed"),
        ("QU)", r"without a '\('"),
        ("()A", "one double-letter card"),
        ("((QU))", "one double-letter card"),
        ("ÄT", "'Ä' is not a card letter"),
    ],
)
def test_notation_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_cards(text, STANDARD_DECK)


def test_notation_error_names_the_position() -> None:
    with pytest.raises(NotationError) as caught:
        parse_cards(" CA#T", STANDARD_DECK)
    assert caught.value.position == 3
    assert "at character 4" in caught.value.message


@given(card_sequences)
def test_format_then_parse_is_the_identity(cards: tuple[str, ...]) -> None:
    assert parse_cards(format_cards(cards), STANDARD_DECK) == cards


@given(st.text(alphabet="AQUITHERCLNaqu()(.·- Äß\t", max_size=14))
def test_parse_reads_canonically_or_raises_only_its_error(text: str) -> None:
    try:
        cards = parse_cards(text, STANDARD_DECK, allow_empty=True)
    except NotationError as exc:
        assert 0 <= exc.position <= len(text)
        return
    assert format_cards(cards) == text.strip().upper()


@given(card_sequences)
def test_case_does_not_matter(cards: tuple[str, ...]) -> None:
    text = format_cards(cards)
    assert parse_cards(text.lower(), STANDARD_DECK) == parse_cards(text, STANDARD_DECK)


# --- round scoring -------------------------------------------------------------------------------------
words = st.lists(st.lists(faces, min_size=2, max_size=5).map(tuple), max_size=4).map(tuple)
unused = st.lists(faces, max_size=4).map(tuple)


Spec = tuple[list[Lay], list[Challenge], dict[str, int], Bonus]


@st.composite
def rounds(draw: st.DrawFn) -> Spec:
    count = draw(st.integers(1, 8))
    players = [f"P{i}" for i in range(count)]
    lays = [Lay(p, draw(words), draw(unused)) for p in players]
    challenges = []
    if count > 1:
        for lay in lays:
            for index in range(len(lay.words)):
                if draw(st.booleans()):
                    challenger = draw(st.sampled_from([p for p in players if p != lay.player]))
                    challenges.append(Challenge(challenger, lay.player, index, draw(st.booleans())))
    totals = {p: draw(st.integers(0, 300)) for p in players}
    return lays, challenges, totals, draw(st.sampled_from(list(Bonus)))


def value(cards: tuple[str, ...]) -> int:
    return sum(VALUES[face] for face in cards)


def _score(spec: Spec) -> RoundScore:
    lays, challenges, totals, bonus = spec
    return score_round(
        number=1,
        hand_size=3,
        dealer="P0",
        starter="P0",
        lays=lays,
        challenges=challenges,
        totals_before=totals,
        deck=STANDARD_DECK,
        two_player_bonus=bonus,
    )


@given(rounds())
def test_card_score_is_words_minus_unused_then_floored(spec: Spec) -> None:
    lays, challenges, totals, _ = spec
    lost = {(c.owner, c.word) for c in challenges if not c.allowed}
    scored = _score(spec)
    for lay, row in zip(lays, scored.rows, strict=True):
        before_floor = sum(value(w) for i, w in enumerate(lay.words) if (lay.player, i) not in lost) - value(
            lay.unused
        )
        assert row.words_value - row.unused_value == before_floor
        assert row.card_score == max(0, before_floor)
        assert row.result == row.card_score + row.challenges + row.most_words_bonus + row.longest_word_bonus
        assert row.total == max(0, totals[lay.player] + row.result)


@given(rounds())
def test_challenge_results_move_exactly_the_word_values(spec: Spec) -> None:
    lays, challenges, _, _ = spec
    scored = _score(spec)
    by_player = {lay.player: lay for lay in lays}
    for row in scored.rows:
        expected = 0
        for c in challenges:
            loser = c.challenger if c.allowed else c.owner
            if loser == row.player:
                expected -= value(by_player[c.owner].words[c.word])
        assert row.challenges == expected


@given(rounds())
def test_bonuses_never_go_to_tied_players(spec: Spec) -> None:
    lays, _, _, bonus = spec
    rows = _score(spec).rows
    counts = {r.player: len(r.counted_words) for r in rows}
    longest = {r.player: max((w.letters for w in r.counted_words), default=0) for r in rows}
    for amounts, field, kind in (
        (counts, "most_words_bonus", Bonus.MOST),
        (longest, "longest_word_bonus", Bonus.LONGEST),
    ):
        winners = [r.player for r in rows if getattr(r, field)]
        assert len(winners) <= 1
        for winner in winners:
            assert amounts[winner] >= 1
            assert all(amounts[winner] > amount for p, amount in amounts.items() if p != winner)
        best = max(amounts.values())
        unique = best >= 1 and list(amounts.values()).count(best) == 1
        played = len(lays) != 2 or bonus is kind
        assert bool(winners) == (unique and played)
