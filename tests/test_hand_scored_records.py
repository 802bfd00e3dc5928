"""Games scored by hand from RULES.md (not from wordtable's output), fed in as records the way
`wordtable score` reads them, and compared. Each game aims at edges the other tests leave out: a tie on
total settled by vowel points, ß typed in lower case, cells left empty by a cut-off end or a struck word,
a correction that moves bonus claims, a shared Quiddler win, ß = SS and a combining umlaut in Perfect
Words, two equal largest groups, the 20-point maximum, 50 reached exactly and negative totals in Knack
das Wort. The numbers in the comments are the hand-scoring."""

from __future__ import annotations

import json
from typing import Any

import pytest

from firmware_host.commands.score import score
from firmware_host.core.games.registry import parse_record
from firmware_host.core.record import RecordError

Event = dict[str, Any]


def report(game: str, events: list[Event]) -> dict[str, Any]:
    header = {"record": "wordtable", "version": 1, "game": game}
    text = "\n".join(json.dumps(line, ensure_ascii=False) for line in [header, *events]) + "\n"
    result: dict[str, Any] = score(parse_record(text)).to_json()
    return result


# --- Das perfekte Wort --------------------------------------------------------------------------------
# One sheet for all: grey letters T@1/2 E@1/9, U@2/3, A@3/2 E@3/5, O@4/2, E@5/5, A@6/2, L@7/2, R@8/3, U@9/2.
# The deck gives the rounds S9 T5 H6 K7 B5 M8 F6 W5 D7 (letter of card r+1, number of card r).
ROWS = [".T......E", "..U......", ".A..E....", ".O.......", "....E....", ".A.......", ".L.......", "..R......",
        ".U......."]  # fmt: skip
BONUS = ["CH", "CK", "NG", "ST", "SP", "PF", "Ä", "Ö", "Ü", "ß", "Z", "W"]
DECK = ["B9", "S5", "T6", "H7", "K5", "B8", "M6", "F5", "W7", "D6"]
VOWELS = {"A": 2, "E": 5, "I": 3, "O": 3, "U": 4}


def pw_game(players: list[str], words: list[dict[str, str]], steps: dict[int, list[Event]] | None = None,
            rows: list[str] = ROWS, bonus: list[str] = BONUS,
            arrows: tuple[tuple[list[int], list[int]], ...] = (), after: list[Event] | None = None) -> dict[str, Any]:
    sheet = {"side": "test", "title": "test", "rows": rows, "bonus": bonus,
             "arrows": [{"from": a, "to": b} for a, b in arrows]}
    events: list[Event] = [{"event": "setup", "players": players, "sheet": sheet, "vowels": VOWELS, "deck": DECK}]
    for r in range(1, 10):
        events.append({"event": "reveal", "round": r})
        entries = words[r - 1] if r <= len(words) else {}
        events += [{"event": "word", "round": r, "player": p, "word": w} for p, w in entries.items()]
        events += (steps or {}).get(r, [])
    return report("perfektes-wort", events + (after or []))


def pw_table(result: dict[str, Any]) -> dict[str, tuple[int, int, int, int, int]]:
    return {p["name"]: (p["word_points"], p["vowel_points"], p["bonus_points"], p["total"], p["rank"])
            for p in result["players"]}


def pw_rows(result: dict[str, Any], name: str) -> list[int]:
    return [row["points"] for row in next(p for p in result["players"] if p["name"] == name)["rows"]]


def circled(result: dict[str, Any], name: str) -> list[str]:
    return sorted(c["field"] for c in next(p for p in result["players"] if p["name"] == name)["circled"])


THREE_WORDS = [
    {"Anna": "STRAßE", "Bert": "STRASSE", "Cora": "SCHWINGEN"},
    {"Anna": "", "Bert": "TRUHE", "Cora": "TÜRME"},
    {"Anna": "HAUSEN", "Bert": "HÄNGEN", "Cora": "HUMMELN"},
    {"Anna": "KOPFSTAND", "Bert": "KOCHTOPF", "Cora": "KNÖDELN"},
    {"Anna": "BRÜHE", "Bert": "BÖSE", "Cora": "BÖDEN"},
    {"Anna": "MANDELN", "Bert": "MAISFELD", "Cora": "MÄDCHEN"},
    {"Anna": "FLÜGEL", "Bert": "FLIEGE", "Cora": "FLAMME"},
    {"Anna": "WURST", "Bert": "WARZE", "Cora": "WORT"},
    {"Anna": "DUNKEL", "Bert": "DUSCHE", "Cora": "DACKEL"},
]
THREE_STEPS: dict[int, list[Event]] = {
    3: [{"event": "shorten", "round": 3, "player": "Cora", "to": "HUMMEL"}],
    4: [{"event": "shorten", "round": 4, "player": "Anna", "to": "KOPF"},
        {"event": "shorten", "round": 4, "player": "Bert", "to": "KOCH"},
        {"event": "verdict", "round": 4, "player": "Cora", "valid": False},
        {"event": "strike", "round": 4, "player": "Cora"}],
}


def test_perfektes_wort_three_players_umlauts_shortenings_and_bonus_fields() -> None:
    result = pw_game(["Anna", "Bert", "Cora"], THREE_WORDS, THREE_STEPS)
    # Word points (valid 5, exact maximum 5, grey hit 5 each):
    # R1 STRAßE/STRASSE: hit T@2 (ß is one letter: 6 and 7 letters, neither is 9); SCHWINGEN: 9 = maximum.
    # R3 HÄNGEN: Ä is not the grey A@2 ("umlauts are their own letters"); HUMMELN → HUMMEL is exactly
    #    6 = maximum (R6) and hits E@5. R4 KOPF/KOCH hit O@2; KNÖDELN struck: 0. R6 MÄDCHEN misses A@2.
    assert pw_rows(result, "Anna") == [10, 0, 20, 10, 15, 10, 15, 15, 10]
    assert pw_rows(result, "Bert") == [10, 15, 15, 10, 5, 15, 15, 15, 10]
    assert pw_rows(result, "Cora") == [10, 10, 15, 0, 10, 5, 15, 10, 5]
    # Vowels: Ä Ö Ü are not vowels; the cut-off N of HUMMELN, STAND of KOPFSTAND and TOPF of KOCHTOPF
    # count nothing (R7). Anna A3 E6 O1 U3 = 51; Bert A3 E9 I2 O1 U2 = 68; Cora A2 E7 I1 O1 U1 = 49.
    # Bonus: ST circled by Anna and Bert in the same round; ß by Anna only (STRASSE holds no ß); Bert's
    # HÄNGEN cannot take NG, struck in R1; Ö by Bert and Cora together in R5; Cora's MÄDCHEN takes
    # nothing: CH already hers, Ä struck in R3; KOPFSTAND's ST went with the cut-off end.
    assert pw_table(result) == {
        "Anna": (105, 51, 15, 171, 2),
        "Bert": (110, 68, 20, 198, 1),
        "Cora": (80, 49, 30, 159, 3),
    }
    assert circled(result, "Anna") == ["PF", "ST", "ß"]
    assert circled(result, "Bert") == ["ST", "Z", "Ä", "Ö"]
    assert circled(result, "Cora") == ["CH", "CK", "NG", "W", "Ö", "Ü"]
    assert result["winners"] == ["Bert"] and result["shared_win"] is False


def test_perfektes_wort_a_late_correction_moves_the_bonus_claims() -> None:
    # Cora's R1 SCHWINGEN corrected to SINGEN after the game: CH and W are no longer claimed in R1, so
    # Bert's R4 KOCH circles CH (Anna and Cora strike it) and in R8 WURST, WARZE, WORT all circle W.
    after = [{"event": "correct", "round": 1, "player": "Cora", "word": "SINGEN"}]
    result = pw_game(["Anna", "Bert", "Cora"], THREE_WORDS, THREE_STEPS, after=after)
    assert pw_table(result) == {
        "Anna": (105, 51, 20, 176, 2),
        "Bert": (110, 68, 30, 208, 1),
        "Cora": (75, 49, 25, 149, 3),  # SINGEN: valid 5 only; its I and E are SCHWINGEN's I and E
    }
    assert circled(result, "Cora") == ["CK", "NG", "W", "Ö", "Ü"]


def test_perfektes_wort_equal_totals_go_to_more_vowel_points_then_are_shared() -> None:
    # RULES §1: "a tie goes to more vowel points; still tied: shared win" (R7: among all tied players).
    # STIL: valid 5 + grey T@2 5 + I 3 = 13; SEIL and SEIN: valid 5 + E 5 + I 3 = 13. No bonus field
    # (no ST on this sheet). X is tied on total but has fewer vowel points: third, not a winner.
    bonus = ["CH", "CK", "NG", "SP", "PF", "Ä", "Ö", "Ü", "ß", "Z", "W", "QU"]
    result = pw_game(["X", "Y", "Z"], [{"X": "STIL", "Y": "SEIL", "Z": "SEIN"}, {"X": ""}], bonus=bonus)
    assert pw_table(result) == {"X": (10, 3, 0, 13, 3), "Y": (5, 8, 0, 13, 1), "Z": (5, 8, 0, 13, 1)}
    assert result["winners"] == ["Y", "Z"] and result["shared_win"] is True


def test_perfektes_wort_sharp_s_typed_in_lower_case_or_as_capital_stays_one_letter() -> None:
    # RULES §1: "Ä, Ö, Ü and ß are one letter each". "straße" must not become STRASSE (7 letters, no ß
    # field); "STRAẞE" (capital ẞ) is the same word. Both: valid 5 + T@2 5, A 2 + E 5, ß circled by all
    # three in the same round (with SPAß, which also takes SP): 10 + 7 + 5 = 22 and 5 + 2 + 10 = 17.
    bonus = ["CH", "CK", "NG", "SP", "PF", "Ä", "Ö", "Ü", "ß", "Z", "W", "QU"]
    result = pw_game(["X", "Y", "Z"], [{"X": "straße", "Y": "STRAẞE", "Z": "Spaß"}], bonus=bonus)
    assert [p["rows"][0]["word"] for p in result["players"]] == ["STRAßE", "STRAßE", "SPAß"]
    assert pw_table(result) == {"X": (10, 7, 5, 22, 1), "Y": (10, 7, 5, 22, 1), "Z": (5, 2, 10, 17, 3)}


PROFI_BONUS = ["CH", "CK", "NG", "ST", "QU", "TZ", "Ä", "Ö", "Ü", "ß", "X", "Y"]
ARROWS = (([1, 5], [2, 5]), ([4, 3], [4, 4]), ([6, 3], [5, 3]), ([7, 5], [8, 5]))
PROFI_WORDS = [
    {"P": "SPIELE", "Q": "SCHALL"},
    {"P": "TAFEL", "Q": "TOLL"},
    {},
    {"P": "KOLLEGE", "Q": "KOLONIE"},
    {"P": "BALL", "Q": "BAUM"},
    {"P": "MALER", "Q": "MAUER"},
    {"P": "FEUERN", "Q": "FENSTERN"},
    {"P": "WEBER", "Q": "WEBER"},
    {"P": "DACHS", "Q": "DACHS"},
]


@pytest.mark.parametrize("cut", [False, True])
def test_perfektes_wort_arrows_across_rounds_and_cells_left_empty(cut: bool) -> None:
    # Profi arrows 1/5→2/5, 4/3→4/4, 6/3→5/3 (pointing up), 7/5→8/5; no grey letters.
    # R2 TAFEL: L@2/5 = SPIELE's L@1/5, hit in the later row (R5): 15. R6 MALER/MAUER: 6/3 matches the
    # R5 letter in 5/3 (L/L, U/U): 10 each. R8 WEBER: P's FEUERN put R in 7/5: 15; Q's FENSTERN was
    # struck, so 7/5 is empty for Q (R7): 10. With KOLLEGEN cut to KOL, 4/4 stays empty: no hit, 5.
    words = [dict(w) for w in PROFI_WORDS]
    steps: dict[int, list[Event]] = {7: [{"event": "strike", "round": 7, "player": "Q"}]}
    if cut:
        words[3]["P"] = "KOLLEGEN"
        steps[4] = [{"event": "shorten", "round": 4, "player": "P", "to": "KOL"}]
    result = pw_game(["P", "Q"], words, steps, rows=["." * 9] * 9, bonus=PROFI_BONUS, arrows=ARROWS)
    assert pw_rows(result, "P") == [5, 15, 0, 5 if cut else 15, 5, 10, 10, 15, 5]
    assert pw_rows(result, "Q") == [5, 5, 0, 10, 5, 10, 0, 10, 5]
    # P vowels A4 E10 I1 O1 U1 = 68 (KOL instead of KOLLEGE: two E fewer, 58); Q A4 E4 I1 O3 U2 = 48.
    # SCHALL circles CH for Q; DACHS adds nothing (Q has it, P struck it).
    expected_p = (70, 58, 0, 128, 1) if cut else (80, 68, 0, 148, 1)
    assert pw_table(result) == {"P": expected_p, "Q": (50, 48, 5, 103, 2)}


# --- Quiddler -----------------------------------------------------------------------------------------


def lay(player: str, words: list[str], unused: str = "", out: bool = False) -> Event:
    return {"event": "lay", "player": player, "words": words, "unused": unused, "went_out": out}


def challenge(challenger: str, owner: str, word: str, allowed: bool) -> Event:
    return {"event": "challenge", "challenger": challenger, "player": owner, "word": word, "allowed": allowed}


def quiddler(players: list[str], rounds: list[list[Event]]) -> dict[str, Any]:
    events: list[Event] = [{"event": "setup", "players": players}]
    for n, lays in enumerate(rounds, start=1):
        events += [{"event": "round_start", "round": n}, *lays, {"event": "round_end"}]
    return report("quiddler", events)


def test_quiddler_two_players_end_level_and_share_the_win() -> None:
    # Two players: the only bonus is the longest word, in letters (RULES §2); "Die höchste Punktzahl
    # gewinnt": equal highest totals both win. Round by round (Ann, Bob):
    rounds = [
        # (TH)EN 9+2+5 = 16, 4 letters, beats TEN 10 (3 letters): Ann +10 → 26, 10
        [lay("Ann", ["(TH)EN"], out=True), lay("Bob", ["TEN"])],
        # QUIT 24 and (QU)IT 14 − A 2 are both 4 letters: nobody gets the bonus → 50, 22
        [lay("Ann", ["QUIT"], out=True), lay("Bob", ["(QU)IT"], "A")],
        # Bob (CL)AN 17 + AT 5 + longest 10; Ann 0 − 65 floors at 0 → 50, 54
        [lay("Bob", ["(CL)AN", "AT"], out=True), lay("Ann", [], "ZQJXV")],
        # Bob's card score 4 − 56 → 0, his challenge of OX stands: −14 → 40; Ann 28 + ERA longest → 88
        [lay("Ann", ["OX", "(ER)A", "TO"], out=True), lay("Bob", ["AA"], "JJQQ"), challenge("Bob", "Ann", "OX", True)],
        # Bob's QI is rejected: 28 + 15 − 17 = 26 → 66; Ann (TH)(IN) 16 − 10 + THIN 4 letters 10 → 104
        [lay("Bob", ["ZAX", "JO", "QI"], out=True), lay("Ann", ["(TH)(IN)"], "EEEEE"),
         challenge("Ann", "Bob", "QI", False)],
        # 3-letter tie: 31 → 135; 26 − 4 = 22 → 88
        [lay("Ann", ["CAT", "DOG", "TO"], out=True), lay("Bob", ["CAT", "DOG"], "EE")],
        # STONES 6 letters: 18 − 6 + 10 → 110; Ann 27 → 162
        [lay("Ann", ["STONE", "RATE"], out=True), lay("Bob", ["STONES"], "AAI")],
        # JOKER 30 + TEASE 12 + longest 10 → 162; Ann lays nothing: 0 − 124 → 0, stays 162
        [lay("Bob", ["JOKER", "TEASE"], out=True), lay("Ann", [], "ZZQQXXVVWW")],
    ]  # fmt: skip
    result = quiddler(["Ann", "Bob"], rounds)
    assert result["totals"] == {"Ann": 162, "Bob": 162}
    assert result["finished"] and result["winners"] == ["Ann", "Bob"]
    assert [r["place"] for r in result["ranking"]] == [1, 1]


# --- Perfect Words ------------------------------------------------------------------------------------


def perfect_words(players: list[str], terms: dict[int, list[str | None]], double: int, ignore: int,
                  merges: tuple[tuple[int, list[str]], ...] = (),
                  strikes: tuple[tuple[str, int], ...] = ()) -> dict[str, Any]:
    events: list[Event] = [{"event": "setup", "players": players},
                           {"event": "choose", "double": double, "ignore": ignore}, {"event": "reveal"}]
    for arrow, written in terms.items():
        events += [{"event": "term", "player": p, "arrow": arrow, "term": t}
                   for p, t in zip(players, written, strict=True) if t is not None]
    events += [{"event": "merge", "arrow": a, "terms": ts} for a, ts in merges]
    events += [{"event": "strike", "player": p, "arrow": a} for p, a in strikes]
    return report("perfect-words", events)


def groups(arrow: int, sizes: list[int]) -> list[str | None]:
    """Terms for one arrow: a group of `size` equal terms per entry, all groups different."""
    return [f"t{arrow}-{g}" if size > 1 else f"t{arrow}-{g}-{i}" for g, size in enumerate(sizes) for i in range(size)]


def test_perfect_words_two_players_sharp_s_combining_umlaut_and_no_term() -> None:
    # P1: equal after trimming, case-folding (ß folds to ss) and collapsing spaces; text is NFC.
    terms: dict[int, list[str | None]] = {
        1: ["Baum", "baum"],  # doubled: 2 → 4
        2: ["Haus", "Haus"],  # ignored: 0
        3: ["Straße", "STRASSE"],  # 2
        4: ["Neue  Welt", " neue welt"],  # 2
        5: ["Hund", "Hunde"],  # merged by the table: 2
        6: ["Katze", None],  # B wrote nothing: 0
        7: ["Müll", "Mu\u0308ll"],  # U + combining diaeresis = Ü: 2
        8: ["Rot", "Rot"],  # B's struck: 0
        9: ["Blau", "Grün"],  # 0
        10: ["Gelb", "Gelb"],  # 2
    }
    result = perfect_words(["A", "B"], terms, 1, 2, merges=((5, ["Hund", "Hunde"]),), strikes=(("B", 8),))
    assert [a["points"] for a in result["arrows"]] == [4, 0, 2, 2, 2, 0, 2, 0, 0, 2]
    assert result["total"] == 14 and result["rank"]["key"] == "incredible"  # 14–16 Unglaublich!


@pytest.mark.parametrize(("fourth", "total", "rank"), [([3, 1, 1, 1], 6, "bronze"), ([1] * 6, 5, None)])
def test_perfect_words_six_players_two_equal_groups_and_the_bronze_boundary(
    fourth: list[int], total: int, rank: str | None
) -> None:
    # 5–6 players: 3 the same → 1, 4 or more → 2. Arrow 3 has two groups of 3: the largest group is 3 → 1
    # (P1), not 2. Arrow 1 (6 the same) doubled 4, arrow 2 ignored 0. 6 is Bronze; 5 has no rank (P3).
    terms: dict[int, list[str | None]] = {1: groups(1, [6]), 2: groups(2, [6]), 3: groups(3, [3, 3]),
                                          4: groups(4, fourth)}
    terms |= {a: groups(a, [1] * 6) for a in range(5, 11)}
    result = perfect_words(["A", "B", "C", "D", "E", "F"], terms, 1, 2)
    assert [a["points"] for a in result["arrows"]][:4] == [4, 0, 1, 1 if total == 6 else 0]
    assert result["total"] == total
    assert (result["rank"]["key"] if result["rank"] else None) == rank


def test_perfect_words_the_most_a_team_can_score_is_twenty() -> None:
    # 3 players, all three the same on every arrow: 2 × 8 + 4 (doubled) + 0 (ignored) = 20, 17+ Perfekte Meister!
    result = perfect_words(["A", "B", "C"], {a: groups(a, [3]) for a in range(1, 11)}, 1, 10)
    assert result["total"] == 20 and result["rank"]["de"] == "Perfekte Meister!"


def test_perfect_words_five_players_two_the_same_score_nothing() -> None:
    # 5 players: 2 the same → 0, 3 → 1, 4 → 2 (doubled 4), 5 → 2; 2 + 2 → 0; a struck term leaves 2 → 0;
    # 2 + 2 merged → 4 → 2; all different 0; ignored 0. Total 10: Gold.
    terms: dict[int, list[str | None]] = {
        1: groups(1, [2, 1, 1, 1]), 2: groups(2, [3, 1, 1]), 3: groups(3, [4, 1]), 4: groups(4, [5]),
        5: groups(5, [2, 2, 1]), 6: groups(6, [3, 1, 1]), 7: groups(7, [2, 2, 1]), 8: groups(8, [3, 1, 1]),
        9: groups(9, [1] * 5), 10: groups(10, [5]),
    }  # fmt: skip
    result = perfect_words(["A", "B", "C", "D", "E"], terms, 3, 10, merges=((7, ["t7-0", "t7-1"]),),
                           strikes=(("A", 6),))
    assert [a["points"] for a in result["arrows"]] == [0, 1, 4, 2, 0, 0, 2, 1, 0, 0]
    assert result["total"] == 10 and result["rank"]["key"] == "gold"


# --- Knack das Wort -----------------------------------------------------------------------------------


def knack(players: list[str], events: list[Event]) -> dict[str, Any]:
    return report("knack-das-wort", [{"event": "setup", "players": players}, *events])


def word(player: str, text: str | int) -> Event:
    return {"event": "word", "player": player, ("letters" if isinstance(text, int) else "word"): text}


def left(player: str, cards: int) -> Event:
    return {"event": "left", "player": player, "cards": cards}


def standings(result: dict[str, Any]) -> list[tuple[str, int, int, int, int, int]]:
    return [(s["player"], s["letters"], s["bonus"], s["left"], s["points"], s["rank"]) for s in result["standings"]]


def test_knack_fifty_exactly_ends_the_game_and_the_cards_left_come_off_after() -> None:
    # K1: the game ends the moment a player reaches 50; 32 + 18 = 50 ends it (49 would not).
    # Cards left are deducted afterwards: 50 − 10 = 40.
    opening = [word("A", 32), word("B", 1), word("A", 17)]
    assert knack(["A", "B"], opening)["end"] is None  # 49: play goes on
    result = knack(["A", "B"], [*opening, word("B", 1), word("A", 1), left("A", 10), left("B", 0)])
    assert result["end"] == "target"
    assert standings(result) == [("A", 50, 0, 10, 40, 1), ("B", 2, 0, 0, 2, 2)]
    with pytest.raises(RecordError, match="already over"):
        knack(["A", "B"], [*opening, word("B", 1), word("A", 1), word("B", "HAUS")])


def test_knack_the_going_out_bonus_ends_it_and_stop_gives_two_players_the_turn_back() -> None:
    # A 20 + 20 + HAUS 4 = 44, goes out: +10 = 54 ≥ 50 ends the game (K2). B: Stop makes A skip and B
    # plays again (FLUSS-UFER 9: the hyphen is no letter; MÄßIG 5: Ä and ß one letter each), TÜR 3 → 17.
    events = [word("A", 20), {"event": "action", "player": "B", "card": "Stop"}, word("B", "FLUSS-UFER"),
              word("B", "MÄßIG"), word("A", 20), {"event": "draw", "player": "B"}, word("A", "HAUS"),
              word("B", "TÜR"), {"event": "out", "player": "A"}, left("A", 0), left("B", 7)]
    result = knack(["A", "B"], events)
    assert result["end"] == "target"
    assert standings(result) == [("A", 44, 10, 0, 54, 1), ("B", 17, 0, 7, 10, 2)]


def test_knack_negative_totals_tie_and_share_the_win() -> None:
    # 2 − 3 = −1 and 4 − 5 = −1: "−1 per card left" may take a total below zero; equal totals share (K3).
    result = knack(["A", "B"], [word("A", "JA"), word("B", "NEIN"), {"event": "end", "reason": "discard"},
                                left("A", 3), left("B", 5)])
    assert standings(result) == [("A", 2, 0, 3, -1, 1), ("B", 4, 0, 5, -1, 1)]
    assert result["finished"] and result["winners"] == ["A", "B"]
