"""Card tables and the enrolment state machine."""

from __future__ import annotations

from firmware_host.core.cards import (
    Assigned,
    CardTable,
    Enrolment,
    Feedback,
    KnownCard,
    Refusal,
    Refused,
    Selected,
    UnknownCard,
    printed_codes,
    printed_table,
)


def run(state: Enrolment, script: list[tuple[str, object]]) -> tuple[Enrolment, list[Feedback]]:
    """Drive an enrolment session: ("scan", code), ("turn", steps), ("choose", face), ("undo", None)."""
    feedback: list[Feedback] = []
    for action, arg in script:
        if action == "scan":
            state, said = state.scan(str(arg))
        elif action == "turn":
            assert isinstance(arg, int)
            state, said = state.turn(arg)
        elif action == "choose":
            state, said = state.choose(str(arg))
        else:
            state, said = state.undo()
        feedback.append(said)
    return state, feedback


def test_three_cards_in_order() -> None:
    state = Enrolment.start("perfektes-wort", ["B/7", "K/5", "S/9"])
    assert state.selected == "B/7" and state.progress("de") == "0 von 3"
    state, said = run(state, [("scan", "62E3086CED"), ("scan", "0A1B2C3D4E")])
    assert said == [Assigned("62E3086CED", "B/7"), Assigned("0A1B2C3D4E", "K/5")]
    assert state.progress("de") == "2 von 3" and state.progress("en") == "2 of 3"
    assert not state.done and state.selected == "S/9"
    state, said = run(state, [("scan", "1111111111")])
    assert state.done and state.selected is None
    assert state.table() == CardTable(
        "perfektes-wort", {"62E3086CED": "B/7", "0A1B2C3D4E": "K/5", "1111111111": "S/9"}
    )


def test_duplicate_card_refused_with_its_face() -> None:
    state = Enrolment.start("perfektes-wort", ["B/7", "K/5"])
    state, said = run(state, [("scan", "AAA"), ("scan", "AAA")])
    assert said[1] == Refused(Refusal.DUPLICATE, code="AAA", face="B/7")
    refused = said[1]
    assert isinstance(refused, Refused) and refused.text("de") == "Diese Karte ist schon eingelesen: B/7."
    assert state.count == 1 and state.selected == "K/5"


def test_scan_after_done_refused() -> None:
    state, said = run(Enrolment.start("g", ["X"]), [("scan", "1"), ("scan", "2")])
    assert said[1] == Refused(Refusal.COMPLETE, code="2")
    assert state.table().faces == {"1": "X"}


def test_copies_stay_selected_until_used_up() -> None:
    state = Enrolment.start("quiddler", ["A", "A", "B", "QU"])
    state, said = run(state, [("scan", "c1"), ("scan", "c2")])
    assert said == [Assigned("c1", "A"), Assigned("c2", "A")]
    assert state.selected == "B"


def test_turn_and_choose_select_faces() -> None:
    state = Enrolment.start("quiddler", ["A", "A", "B", "QU"])
    state, said = run(state, [("turn", 1), ("turn", 1), ("turn", 1), ("turn", -1), ("choose", " qu ")])
    assert said == [Selected("B"), Selected("QU"), Selected("A"), Selected("QU"), Selected("QU")]
    state, said = run(state, [("scan", "c9"), ("choose", "QU"), ("choose", "Z")])
    assert said[0] == Assigned("c9", "QU")
    assert said[1] == Refused(Refusal.NO_SUCH_FACE, face="QU")
    assert said[2] == Refused(Refusal.NO_SUCH_FACE, face="Z")
    assert state.pending == ("A", "A", "B")


def test_undo_takes_back_the_last_card() -> None:
    state = Enrolment.start("g", ["X", "Y"])
    assert state.undo()[1] == Refused(Refusal.NOTHING_TO_UNDO)
    state, said = run(state, [("scan", "1"), ("scan", "2"), ("undo", None)])
    assert said[2] == Assigned("2", "Y", undone=True)
    assert state.selected == "Y" and state.count == 1
    state, said = run(state, [("scan", "3")])
    assert state.table().faces == {"1": "X", "3": "Y"}


def test_empty_code_refused() -> None:
    state = Enrolment.start("g", ["X"])
    assert state.scan("  ") == (state, Refused(Refusal.EMPTY_CODE))


def test_a_full_deck_session() -> None:
    faces = [f"{letter}/{5 + i % 5}" for i, letter in enumerate("BDFGHKLMNPRSTWBDFGHKLMNP")]
    state = Enrolment.start("perfektes-wort", faces)
    for i in range(17):
        state, said = state.scan(f"TAG{i:02}")
        assert isinstance(said, Assigned)
    assert state.progress("de") == "17 von 24"
    for i in range(17, 24):
        state, _ = state.scan(f"TAG{i:02}")
    assert state.done and len(state.table()) == 24
    assert sorted(state.table().faces.values()) == sorted(faces)


def test_lookup_known_and_unknown() -> None:
    table = CardTable("quiddler", {"62E3086CED": "QU"})
    assert table.lookup("62E3086CED") == KnownCard("62E3086CED", "QU")
    unknown = table.lookup("0A1B2C3D4E")
    assert unknown == UnknownCard("0A1B2C3D4E")
    assert isinstance(unknown, UnknownCard) and unknown.text("de") == "Unbekannte Karte (0A1B2C3D4E)."


def test_printed_codes_two_sided_for_perfektes_wort() -> None:
    labels = printed_codes("perfektes-wort", ["B/7", "K/5"])
    assert [(p.code, p.face, p.side) for p in labels] == [
        ("PW001L", "B/7", "L"), ("PW001N", "B/7", "N"), ("PW002L", "K/5", "L"), ("PW002N", "K/5", "N"),
    ]
    table = printed_table("perfektes-wort", ["B/7", "K/5"])
    assert table.lookup("PW002N") == KnownCard("PW002N", "K/5")


def test_printed_codes_single_sided_with_repeated_faces() -> None:
    table = printed_table("quiddler", ["A", "A", "QU"])
    assert table.faces == {"QD001": "A", "QD002": "A", "QD003": "QU"}
