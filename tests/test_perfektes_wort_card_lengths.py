"""Letter cards of any length a row can hold (issue 36): the rulebook gives no range ("Sie entspricht der
Zahl vom Ablagestapel"), so a physical deck's card of 3, 4 or 10 is a card; the row's cells are the bound.
The appliance's own deck keeps 5–9 (ruling R2)."""

from __future__ import annotations

import json

import pytest

from firmware_host.commands.score import score
from firmware_host.core.events import CardScan
from firmware_host.core.games.perfektes_wort.data import CARD_LENGTHS, MAX_CELLS, card_from_code
from firmware_host.core.games.perfektes_wort.defaults import DEFAULT_DATA
from firmware_host.core.games.perfektes_wort.errors import DataError
from firmware_host.core.games.registry import parse_record
from tests.schema_check import validator
from tests.table_driver import Table

TEN_CELLS = {"side": "eigen", "title": "Eigenes Blatt", "rows": [".........."] * 9, "arrows": [],
             "bonus": ["CH", "CK", "NG", "ST", "SP", "PF", "Ä", "Ö", "Ü", "ß", "Z", "W"]}
LINES = [
    {"record": "wordtable", "version": 1, "game": "perfektes-wort"},
    {"event": "setup", "players": ["Geli", "Klaus"], "sheet": TEN_CELLS,
     "vowels": {"A": 2, "E": 5, "I": 3, "O": 3, "U": 4},
     "deck": ["G3", "F4", "T10", "H9", "M7", "S8", "K5", "B5", "W8", "D6"], "house_rules": []},
    {"event": "reveal", "round": 1},  # F, at most 3 (the back of G3)
    {"event": "word", "round": 1, "player": "Geli", "word": "Fee"},
    {"event": "word", "round": 1, "player": "Klaus", "word": "Fuß"},
    {"event": "reveal", "round": 2},  # T, at most 4
    {"event": "word", "round": 2, "player": "Geli", "word": "Tanz"},
    {"event": "word", "round": 2, "player": "Klaus", "word": "Tee"},
    {"event": "reveal", "round": 3},  # H, at most 10
    {"event": "word", "round": 3, "player": "Geli", "word": "Handschuhe"},
    {"event": "word", "round": 3, "player": "Klaus", "word": "Hund"},
]


def test_a_record_with_cards_of_3_4_and_10_on_ten_cell_rows_scores_as_by_hand() -> None:
    for line in LINES[1:]:
        validator("perfektes-wort").validate(line)
    result = score(parse_record("\n".join(json.dumps(line, ensure_ascii=False) for line in LINES))).to_json()
    assert [(c["letter"], c["max_length"]) for c in result["cards"]] == [("F", 3), ("T", 4), ("H", 10)]
    # By hand: Geli FEE 5 + 5 (3 of 3), TANZ 5 + 5, HANDSCHUHE 5 + 5 (10 of 10) = 30; vowels E E, A, A U E:
    # 10 + 2 + 11 = 23; Z and CH circled: 10 → 63. Klaus FUß 5 + 5, TEE 5, HUND 5 = 20; U, E E, U: 18;
    # ß circled: 5 → 43.
    totals = {p["name"]: (p["word_points"], p["vowel_points"], p["bonus_points"], p["total"])
              for p in result["players"]}
    assert totals == {"Geli": (30, 23, 10, 63), "Klaus": (20, 18, 5, 43)}


@pytest.mark.parametrize(("code", "length"), [("B1", 1), ("B3", 3), ("F4", 4), ("T10", 10), ("Z16", 16)])
def test_any_length_a_row_can_hold_is_a_card(code: str, length: int) -> None:
    assert card_from_code(code, "").length == length


@pytest.mark.parametrize("code", ["B0", "B17", "B99"])
def test_a_length_no_row_can_hold_is_refused(code: str) -> None:
    with pytest.raises(DataError) as caught:
        card_from_code(code, "deck[1]")
    assert f"1 to {MAX_CELLS}" in caught.value.text("en")


def test_the_appliances_own_deck_stays_5_to_9() -> None:
    assert {card.length for card in DEFAULT_DATA.deck} == {5, 6, 7, 8, 9} and CARD_LENGTHS[0] == 1


def test_at_the_table_a_card_of_4_or_3_is_taken_typed_and_scanned_and_a_10_meets_the_row() -> None:
    from firmware_host.core.cards import CardTable, kept_name, table_data
    from firmware_host.core.events import kept_event

    table = Table().open_game("game:perfektes-wort")
    own = CardTable("perfektes-wort", {"PW01": "F/3", "PW02": "G/8"})  # enrolled: a card whose back says 3
    table.step(kept_event({kept_name(own.game): table_data(own)}, table._at()))
    table.turn(2 - table.state.flow.seats.count).press("start").press("start").press("start")
    table.press("next").press("start")  # own cards
    table.type("B4")  # typed: a card whose back says 4
    table.press("start")  # the rest round by round
    assert table.lines[0]["deck"] == ["B4"] and "error" not in table.beeps
    table.step(CardScan("scanner", "PW01", table._at()))  # F/3: round 1 begins with F, at most 4
    assert table.lines[-2:] == [{"event": "card", "card": "F3"}, {"event": "reveal", "round": 1}]
    assert table.screen.big == "F 4" and "error" not in table.beeps
    table.press("start").press("start")
    table.type("Fee", "Fass")
    table.press("start").press("start")  # review → points → the board
    table.type("K10")  # card 3 gives round 3 ten letters: the shipped rows have 9 cells
    assert "error" in table.beeps and "Zeile 3 hat nur 9 Felder" in table.screen.footer
