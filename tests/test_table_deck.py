"""The "Karten anlernen" and "Karten ziehen" (the deck) modes, driven through the appliance's state machine
by events."""

import random

import pytest

from firmware_host.core import app
from firmware_host.core.cards import CardTable, kept_name, printed_table, table_data, table_from_data
from firmware_host.core.effects import Beep, BeginGame, Keep, Log, Record
from firmware_host.core.events import Button, CardScan, LongPress, Press, TextEntry, kept_event
from firmware_host.core.games.registry import card_decks
from firmware_host.core.screens import BigScreen, ListScreen, MessageScreen, describe
from firmware_host.core.settings import Settings
from firmware_host.core.table import deck_mode, enrol_cards

DECKS = card_decks()
PERFEKTES_WORT, QUIDDLER = "perfektes-wort", "quiddler"

PW_FACES = DECKS[0].faces
QD_FACES = DECKS[1].faces


class Table:
    """An appliance driven by events at increasing times; keeps every effect."""

    def __init__(self, lang="de"):
        self.state, _ = app.initial(Settings(lang=lang))
        self.now = 1.0
        self.effects = []
        self.last = []

    def __call__(self, *events):
        self.last = []
        for make in events:
            self.now += 0.5
            self.state, more = app.step(self.state, make(self.now))
            self.last += more
        self.effects += self.last
        return self

    def screen(self):
        return app.screen(self.state)

    def text(self):
        return describe(self.screen())

    def beeps(self):
        return [e.pattern for e in self.last if isinstance(e, Beep)]

    def saved(self):
        """The card tables kept (each under its `cards/<game>` name)."""
        kept = [e for e in self.effects if isinstance(e, Keep)]
        assert all(e.name == kept_name(e.data["game"]) for e in kept)
        return [table_from_data(e.data) for e in kept]


def press(button):
    return lambda at: Press(button, at)


def hold(button):
    return lambda at: LongPress(button, at)


def typed(text):
    return lambda at: TextEntry(text, at)


def scan(reader, code):
    return lambda at: CardScan(reader, code, at)


def tables(**faces_by_game):
    data = {kept_name(g.replace("_", "-")): table_data(CardTable(g.replace("_", "-"), faces))
            for g, faces in faces_by_game.items()}
    return lambda at: kept_event(data, at)


def open_mode(table, key, choice=0):
    """From the timer: the menu, the mode `key`, then `choice` NEXTs in its list and START."""
    table(*[press(event.button) for event in app.events_to_open(table.state, key, 0.0) or []])
    table(*[press(Button.NEXT)] * choice, press(Button.START))
    return table


# --- the menu --------------------------------------------------------------------------------------


def test_both_modes_are_in_the_menu_and_back_leaves_them():
    table = Table()
    labels = [label for _, label, _ in app.menu_entries(table.state, "play")]
    assert "Karten ziehen" in labels and "Karten anlernen" in labels
    table(*[press(event.button) for event in app.events_to_open(table.state, "game:enrol-cards", 0.0) or []])
    screen = table.screen()
    assert isinstance(screen, ListScreen) and screen.title == "Karten anlernen"
    assert [item.label for item in screen.items] == ["Das perfekte Wort", "Quiddler"]
    table(press(Button.BACK))
    assert table.state.flow is None and isinstance(table.state.overlay, app.MenuView)


# --- enrolment -------------------------------------------------------------------------------------


def test_enrol_three_cards_with_a_duplicate_refused_and_an_undo():
    table = open_mode(Table(), "game:enrol-cards", choice=0)
    assert "0 von 24" in table.screen().title
    table(typed("k/5"))
    assert table.screen().big == "K/5"
    table(scan("rfid", "AAA"))
    assert table.beeps() == ["key"] and "AAA = K/5" in table.text() and "1 von 24" in table.text()
    table(scan("rfid", "AAA"))  # the same card again
    assert table.beeps() == ["error"]
    assert "schon eingelesen: K/5" in table.text() and "1 von 24" in table.text()
    table(typed("M/7"), scan("rfid", "BBB"))
    assert "2 von 24" in table.text()
    table(press(Button.BACK))  # undo BBB: M/7 is open again and selected
    assert "1 von 24" in table.text() and table.screen().big == "M/7" and "BBB" in table.text()
    table(scan("rfid", "CCC"), typed("S/6"), scan("draw", "DDD"))
    assert "3 von 24" in table.text()
    table(press(Button.START))  # stop early: keep the three
    assert [s.game for s in table.saved()] == [PERFEKTES_WORT]
    assert table.saved()[0].faces == {"AAA": "K/5", "CCC": "M/7", "DDD": "S/6"}
    screen = table.screen()
    assert isinstance(screen, MessageScreen) and "3 Karten gespeichert" in screen.lines
    table(press(Button.NEXT))
    assert table.state.flow is None
    assert not [e for e in table.effects if isinstance(e, BeginGame | Record)]


def test_next_and_the_encoder_select_other_faces_and_unknown_faces_are_refused():
    table = open_mode(Table(lang="en"), "game:enrol-cards", choice=1)  # Quiddler
    first = table.screen().big
    assert "0 of 118" in table.screen().title
    table(press(Button.NEXT))
    second = table.screen().big
    table(hold(Button.NEXT))
    assert table.screen().big == first != second
    table(typed("qu"))
    assert table.screen().big == "QU"
    table(typed("ÄÖ"))
    assert table.beeps() == ["error"] and "No card “ÄÖ” left to enrol" in table.text()


@pytest.mark.slow
def test_enrolling_every_card_saves_the_table_by_itself():
    table = open_mode(Table(), "game:enrol-cards", choice=0)
    for number in range(24):
        table(scan("rfid", f"TAG{number:02d}"))
    saved = table.saved()
    assert len(saved) == 1 and len(saved[0].faces) == 24
    assert sorted(saved[0].faces.values()) == sorted(PW_FACES)
    assert "celebrate" in table.beeps()
    assert isinstance(table.screen(), MessageScreen)


def test_enrolment_continues_a_saved_table():
    table = Table()(tables(perfektes_wort={"AAA": "K/5", "BBB": "B/5"}))
    table = open_mode(table, "game:enrol-cards", choice=0)
    assert "2 von 24" in table.text()
    table(scan("rfid", "AAA"))
    assert table.beeps() == ["error"] and "K/5" in table.text()
    table(typed("K/5"))  # its only copy is enrolled already
    assert table.beeps() == ["error"]
    table(scan("rfid", "CCC"), press(Button.START))
    assert set(table.saved()[0].faces) == {"AAA", "BBB", "CCC"}


def test_resume_enrolment_keeps_a_physical_decks_own_cards_and_drops_a_copy_too_many():
    enrolment = enrol_cards.resume_enrolment(DECKS[0], {"X1": "B/5", "X2": "Q/4", "X3": "B/5", "X4": "QQ"})
    assert enrolment.enrolled == (("X1", "B/5"), ("X2", "Q/4"))  # one B/5 in the deck; Q/4 is a card of
    assert enrolment.total == 25  # a physical deck's own (any length a row may hold); QQ is no card


def test_a_physical_decks_card_the_shipped_deck_lacks_is_enrolled_by_its_face():
    table = open_mode(Table(), "game:enrol-cards", choice=0)
    for face, code in (("K/4", "AAA"), ("q/3", "BBB"), ("Z/10", "CCC")):
        table(typed(face), scan("rfid", code))
        assert table.beeps() == ["key"], table.text()
    assert "3 von 27" in table.text()
    table(typed("K/0"))  # no card
    assert table.beeps() == ["error"]
    table(press(Button.START))
    assert table.saved()[0].faces == {"AAA": "K/4", "BBB": "Q/3", "CCC": "Z/10"}


def test_back_with_nothing_enrolled_returns_to_the_list_and_start_saves_nothing():
    table = open_mode(Table(), "game:enrol-cards", choice=0)
    table(press(Button.BACK))
    assert isinstance(table.screen(), ListScreen)
    table(press(Button.START), press(Button.START))
    assert table.saved() == [] and "Nichts angelernt" in table.text()


# --- the button deck -------------------------------------------------------------------------------


def shuffled(faces, seed):
    cards = list(faces)
    random.Random(seed).shuffle(cards)
    return cards


def test_button_deck_is_seeded_from_the_event_time_and_reproducible():
    def session(wait):
        table = Table()
        table.now += wait
        open_mode(table, "game:deck", choice=deck_mode.choices(DECKS).index((DECKS[1], "buttons")))
        table(press(Button.NEXT), press(Button.NEXT), press(Button.NEXT))
        return table

    one, again, other = session(0.0), session(0.0), session(7.25)
    assert one.text() == again.text()
    assert one.state.flow.buttons.draw != other.state.flow.buttons.draw
    seeds = [e.message for e in one.effects if isinstance(e, Log) and "seed" in e.message]
    seed = one.state.flow.buttons.seed
    assert seeds == [f"deck: quiddler button deck shuffled with seed {seed}"]
    assert seed == int(one.now * 1000) - 3 * 500  # the choosing event's time, three NEXTs ago


def test_next_draws_and_back_puts_the_card_back():
    table = open_mode(Table(), "game:deck", choice=deck_mode.choices(DECKS).index((DECKS[1], "buttons")))
    table(typed("42"))
    order = shuffled(QD_FACES, 42)
    screen = table.screen()
    assert [(i.label, i.value) for i in screen.items] == [
        ("Nachziehstapel", order[0]), ("Ablagestapel", "–"), ("118 übrig", "")]
    table(press(Button.NEXT), press(Button.NEXT))
    assert [(i.label, i.value) for i in table.screen().items] == [
        ("Nachziehstapel", order[2]), ("Ablagestapel", order[1]), ("116 übrig", "")]
    table(press(Button.BACK))
    assert [(i.label, i.value) for i in table.screen().items] == [
        ("Nachziehstapel", order[1]), ("Ablagestapel", order[0]), ("117 übrig", "")]
    table(press(Button.BACK), press(Button.BACK))  # nothing to undo: back to the list
    assert table.screen().title == "Karten ziehen"


def test_the_button_deck_refuses_scans_and_an_empty_draw_pile():
    table = open_mode(Table(), "game:deck", choice=deck_mode.choices(DECKS).index((DECKS[0], "buttons")))
    table(scan("rfid", "AAA"))
    assert table.beeps() == ["error"] and "AAA" in table.text()
    table(*[press(Button.NEXT)] * 24)
    assert "0 übrig" in table.text() and "kein Anfangsbuchstabe" in table.text()
    table(press(Button.NEXT))
    assert table.beeps() == ["error"] and "leer" in table.text()


def test_das_perfekte_wort_reveal_shows_letter_and_maximum_length():
    table = open_mode(Table(), "game:deck", choice=deck_mode.choices(DECKS).index((DECKS[0], "buttons")))
    table(typed("7"))
    order = shuffled(PW_FACES, 7)
    for round_number in (1, 2, 3):
        table(press(Button.NEXT))
        screen = table.screen()
        letter = order[round_number].split("/")[0]  # the draw pile: card r+1, letter side
        length = order[round_number - 1].split("/")[1]  # the discard pile: card r, number side
        assert isinstance(screen, BigScreen)
        assert screen.big == f"{letter} · {length}"
        assert screen.title == f"Runde {round_number} · {24 - round_number} übrig"
        assert screen.footer == f"Anfang {letter}, höchstens {length} Buchstaben"


def test_start_runs_the_timer_in_the_deck_mode():
    table = open_mode(Table(), "game:deck", choice=0)
    table(press(Button.START))
    assert table.state.timer.running
    table(press(Button.START))
    assert not table.state.timer.running


# --- physical cards --------------------------------------------------------------------------------


QD_TABLE = {"A1": "QU", "B2": "E", "C3": "TH"}


def cards_mode(game_index=1):
    table = Table()(tables(quiddler=QD_TABLE, perfektes_wort={"P1": "B/8", "P2": "K/5"}))
    return open_mode(table, "game:deck", choice=deck_mode.choices(DECKS).index((DECKS[game_index], "cards")))


def rows(table):
    return [(i.label, i.value, i.marked) for i in table.screen().items]


def test_scans_on_draw_and_discard_readers_show_their_faces():
    table = cards_mode()
    assert rows(table)[:2] == [("Nachziehstapel", "–", True), ("Ablagestapel", "–", False)]
    table(scan("draw", "A1"))
    assert rows(table)[:2] == [("Nachziehstapel", "QU", True), ("Ablagestapel", "–", False)]
    table(scan("discard", "B2"))
    assert rows(table) == [("Nachziehstapel", "QU", True), ("Ablagestapel", "E", False), ("1 aufgedeckt", "", False)]
    table(scan("discard", "C3"))
    assert rows(table)[1:] == [("Ablagestapel", "TH", False), ("2 aufgedeckt", "", False)]
    table(press(Button.BACK))
    assert rows(table)[1:] == [("Ablagestapel", "E", False), ("1 aufgedeckt", "", False)]


def test_a_single_reader_puts_cards_on_the_pile_chosen_by_next():
    table = cards_mode()
    table(scan("rfid", "A1"), press(Button.NEXT), scan("rfid", "B2"))
    assert rows(table)[:2] == [("Nachziehstapel", "QU", False), ("Ablagestapel", "E", True)]
    assert "Ablagestapel: E" in table.text()


def test_printed_codes_need_no_enrolment():
    table = cards_mode()
    first = printed_table(QUIDDLER, QD_FACES)
    code, face = next(iter(first.faces.items()))
    table(scan("draw", code))
    assert rows(table)[0][1] == face


def test_an_unknown_card_beeps_and_changes_nothing():
    table = cards_mode()
    table(scan("draw", "A1"))
    before = table.state.flow.piles
    table(scan("draw", "ZZZ999"))
    assert table.beeps() == ["error"]
    assert "Unbekannte Karte (ZZZ999)" in table.text()
    assert table.state.flow.piles == before and rows(table)[0][1] == "QU"
    assert not [e for e in table.last if isinstance(e, Keep)]


def test_physical_das_perfekte_wort_cards_reveal_the_call():
    table = cards_mode(game_index=0)
    table(scan("discard", "P2"), scan("draw", "P1"))
    screen = table.screen()
    assert isinstance(screen, BigScreen) and screen.big == "B · 5"
    assert "Runde 1" in screen.title



def test_no_shared_table_module_imports_a_game():
    """The decks (and the round their piles call) come from the game kits: `core/table` names no game."""
    import ast
    from pathlib import Path

    import firmware_host.core.table as shared

    for path in Path(shared.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            games = [n for n in names if n.startswith("firmware_host.core.games.") and n.count(".") >= 3
                     and n.split(".")[3] not in ("kit", "registry", "rules", "rule_error")]
            assert not games, f"{path.name} imports {games}"
