"""Das perfekte Wort at the table: whole games driven through the app by events, scored by the rules core."""

import pytest

from firmware_host.core.effects import CheckWords
from firmware_host.core.events import CardScan, Tick, Turn, WordsChecked
from firmware_host.core.games.perfektes_wort.defaults import DEFAULT_DATA
from firmware_host.core.games.perfektes_wort.record import score_record
from firmware_host.core.games.perfektes_wort.stages import (
    Entering,
    Final,
    Fixing,
    Revealing,
    Reviewing,
    SeatPick,
    Timing,
)
from firmware_host.core.games.registry import parse_record
from firmware_host.core.screens import ListScreen
from firmware_host.games.perfektes_wort.data_files import emit_defaults, load_game_data
from tests.table_driver import Table

GAME = "game:perfektes-wort"


def start(*names, side=0, face_steps=0, lang="de"):
    """Open the game from the menu, seat `names`, choose the side and a face; the button deck."""
    table = Table(lang=lang).open_game(GAME)
    table.turn(len(names) - table.state.flow.seats.count)
    table.type(*names)
    table.press("start")  # players
    table.turn(side).press("start")  # side
    if face_steps:
        table.turn(face_steps)
    table.press("start")  # points card
    return table.press("start")  # button deck: the game begins


def call(table, rnd):
    deck = table.lines[0]["deck"]
    return deck[rnd][0], int(deck[rnd - 1][1:])


def run_timer(table):
    """START runs the minute; Ticks until the alarm opens the entry."""
    table.press("start")
    assert table.state.timer.running
    end = table.now + 61
    while isinstance(table.state.flow.stage, Timing) and table.now < end:
        table.now += 5
        table.step(Tick(table.now))
    assert isinstance(table.state.flow.stage, Entering)


def report(table):
    """`wordtable score`'s view of the record the table journaled."""
    return score_record(parse_record(table.record_text("perfektes-wort")))


def test_the_defaults_module_is_what_the_toml_files_hold():
    from pathlib import Path

    import firmware_host.core.games.perfektes_wort.defaults as module

    assert load_game_data() == DEFAULT_DATA
    assert Path(module.__file__).read_text(encoding="utf-8") == emit_defaults()


@pytest.mark.slow
def test_two_players_grundversion_nine_rounds_with_shortening_striking_undo_and_a_refusal():
    table = start("Geli", "Klaus")
    assert table.begun[-1].players == ("Geli", "Klaus")
    setup = table.lines[0]
    assert setup["event"] == "setup" and setup["sheet"]["side"] == "grundversion" and len(setup["deck"]) == 24
    shortened = struck = False
    for rnd in range(1, 10):
        assert table.screen.title.startswith("Runde") or table.screen.title.startswith("Stand")
        table.press("next")  # reveal
        letter, length = call(table, rnd)
        assert table.screen.big == f"{letter} {length}" and f"höchstens {length}" in table.screen.title
        if rnd == 1:
            run_timer(table)
        else:
            table.press("start").press("start")  # the timer, skipped
        assert table.screen.title == f"Geli – Runde {rnd}"
        if rnd == 2:
            table.type("Q" + "ABE")  # wrong starting letter: refused
            assert "error" in table.beeps and f"Anfangsbuchstaben von Runde {rnd}" in table.screen.footer
            table.type(letter + "OX")
            table.press("back")  # undone: Geli again
            assert table.screen.title == "Geli – Runde 2" and table.lines[-1]["event"] == "reveal"
        geli = letter + "ANE"
        if not shortened and length < 9:  # too long: shortened to its first 3 letters
            table.type(letter + "E" * length)
            table.type(letter + "U")
            assert isinstance(table.state.flow.stage, Fixing) and table.screen.title.startswith("Geli:")
            table.type("3")
            shortened = True
            assert table.lines[-1] == {"event": "shorten", "round": rnd, "player": "Geli", "to": letter + "EE"}
        else:
            table.type(geli, "" if rnd == 5 else letter + "U")
        assert isinstance(table.state.flow.stage, Reviewing)
        if rnd == 4 and not struck:  # the table declares Klaus's word invalid and strikes it
            table.turn(1).hold("start")
            assert isinstance(table.state.flow.stage, Fixing)
            table.turn(-1).press("start")  # the last option strikes
            assert table.lines[-1] == {"event": "strike", "round": rnd, "player": "Klaus"}
            struck = True
        table.press("start")  # the round's points
        assert table.screen.title == f"Runde {rnd}: Punkte"
        table.press("start")  # the scoreboard
        assert table.screen.title == f"Stand nach Runde {rnd}"
    assert shortened and struck
    table.press("next")
    assert isinstance(table.state.flow.stage, Final)
    screen = table.screen
    assert isinstance(screen, ListScreen)
    totals = {item.label.split(". ", 1)[1].split()[0]: int(item.value) for item in screen.items}
    core = _totals(table)
    assert totals == core and screen.title == "Gewonnen: " + ", ".join(_winners(table))
    table.press("start")
    assert table.state.flow is None and table.ended[-1].winner == ", ".join(_winners(table))


def _core(table):
    return report(table).result


def _totals(table):
    return {p.name: p.total for p in _core(table).players}


def _winners(table):
    return _core(table).winners


def test_solo_profi_strikes_a_field_after_each_round():
    table = start("Mia", side=1, face_steps=3)
    assert table.lines[0]["sheet"]["side"] == "profi" and table.lines[0]["points_card"] == "2b"
    for rnd in range(1, 10):
        table.press("next")
        letter, _ = call(table, rnd)
        table.press("start").press("start")
        table.type(letter + "ACH")
        table.press("start").press("start")  # review → points → the solo strike
        if rnd < 9:
            assert table.screen.title == "Solo: ein Bonusfeld streichen"
            table.press("start")
            assert table.lines[-1]["event"] == "solo_strike"
        assert table.screen.title == f"Stand nach Runde {rnd}"
    table.press("next")
    assert isinstance(table.state.flow.stage, Final)
    *rows, placed = table.screen.items
    totals = {item.label.split(". ", 1)[1].split()[0]: int(item.value) for item in rows}
    assert totals == _totals(table)
    assert table.screen.title == "Gewonnen: Mia" and placed.label == "Platz 1 der Bestenliste"


def _solo_to_the_last_board(press, type_, flow, word):
    """Play a seated solo game's 9 rounds (the timer skipped, `word(letter)` each round) to the last board."""
    for rnd in range(1, 10):
        press("next")
        press("start", "start")
        type_(word(flow().play.letter(rnd)))
        press("start", "start")
        if rnd < 9:
            press("start")  # strike the first open bonus field


def test_a_solo_score_goes_onto_the_kept_highscore_list_of_its_side_and_undo_takes_it_off():
    from firmware_host.core.effects import Keep
    from firmware_host.core.events import kept_event
    from firmware_host.core.games.perfektes_wort.highscores import KEPT_NAME, highscores_from_data

    table = start("Mia", side=1)
    _solo_to_the_last_board(lambda *b: [table.press(x) for x in b], table.type, lambda: table.state.flow,
                            lambda letter: letter + "ACH")
    total = _totals(table)["Mia"]
    kept = {"highscores": 1, "entries": [
        {"name": "Ida", "total": total + 100, "side": "grundversion", "label": ""},
        {"name": "Ole", "total": total + 50, "side": "profi", "label": ""},
        {"name": "Eva", "total": total + 1, "side": "profi", "label": ""},
        {"name": "Tom", "total": total, "side": "profi", "label": ""},
        {"name": "Kai", "total": total - 10, "side": "profi", "label": ""},
    ]}
    table.step(kept_event({KEPT_NAME: kept}, table._at()))
    table.press("next")
    assert isinstance(table.state.flow.stage, Final)
    assert table.screen.items[-1].label == "Platz 4 der Bestenliste"  # below Tom's equal, older score
    saved = [e for e in table.effects if isinstance(e, Keep)]
    assert [e.name for e in saved] == [KEPT_NAME]
    after = highscores_from_data(saved[0].data)
    assert [(h.name, h.total) for h in after if h.side == "profi"] == [
        ("Ole", total + 50), ("Eva", total + 1), ("Tom", total), ("Mia", total), ("Kai", total - 10)]
    assert [h.name for h in after if h.side == "grundversion"] == ["Ida"]
    table.press("next")  # the side's list
    assert table.screen.title == f"Bestenliste {DEFAULT_DATA.sheets['profi'].title}"
    assert [(i.label, i.value, i.marked) for i in table.screen.items][3] == ("4. Mia", str(total), True)
    assert len(table.screen.items) == 5 and table.screen.footer == "BACK zurück · START Ende"
    table.press("back")  # back to the final standing
    assert table.screen.items[-1].label == "Platz 4 der Bestenliste"
    table.press("back")  # undo the last entry: the score leaves the list again
    assert not isinstance(table.state.flow.stage, Final)
    restored = [e for e in table.effects if isinstance(e, Keep)]
    assert [highscores_from_data(e.data) for e in restored] == [highscores_from_data(kept)]
    assert dict(app_ctx(table).kept)[KEPT_NAME] == kept


def app_ctx(table):
    from firmware_host.core import app

    return app.ctx(table.state)


def test_the_highscore_list_in_english():
    table = start("Mia", lang="en")
    _solo_to_the_last_board(lambda *b: [table.press(x) for x in b], table.type, lambda: table.state.flow,
                            lambda letter: letter + "ACH")
    table.press("next")
    assert table.screen.items[-1].label == "Place 1 on the highscore list"
    assert table.screen.footer == "NEXT highscores · START leave"
    table.press("next")
    assert table.screen.title.startswith("Highscores") and table.screen.items[0].label == "1. Mia"


@pytest.mark.slow
def test_the_simulator_keeps_the_highscore_list_on_disk_across_a_restart(tmp_path, make_sim):
    import json
    import shutil

    from firmware_host.core import app
    from firmware_host.core.events import Button, Press, TextEntry
    from firmware_host.core.games.perfektes_wort import scoring as pw
    from firmware_host.core.games.perfektes_wort.highscores import KEPT_NAME

    def solo(sim, word):
        def press(*names):
            for name in names:
                sim.send(Press(Button(name), sim.clock.now))

        def type_(*texts):
            for text in texts:
                sim.send(TextEntry(text, sim.clock.now))

        if sim.state.overlay is not None:  # after a game the menu is open already: from the top
            press("menu")
        press(*[event.button.value for event in app.events_to_open(sim.state, GAME, sim.clock.now) or []])
        sim.send(Turn(1 - sim.state.flow.seats.count, sim.clock.now))
        type_("Mia")
        press("start", "start", "start", "start")  # players, side, points card, the button deck
        _solo_to_the_last_board(press, type_, lambda: sim.state.flow, word)
        total = pw.score(sim.state.flow.play).players[0].total
        press("next")
        return total, press

    state = tmp_path / "state"
    sim = make_sim(state)
    try:
        first, press = solo(sim, lambda letter: letter + "ACH")
        assert "Platz 1 der Bestenliste" in sim.screen_text()
        press("start")  # leave the game
        on_disk = json.loads((state / "kept" / "highscores" / "perfektes-wort.json").read_text(encoding="utf-8"))
        assert [(e["name"], e["total"]) for e in on_disk["entries"]] == [("Mia", first)]
        sim.restart()
        assert app.ctx(sim.state).kept[KEPT_NAME] == on_disk
        second, press = solo(sim, lambda letter: letter + "E")
        place = 1 if second > first else 2
        assert f"Platz {place} der Bestenliste" in sim.screen_text()
        press("next")
        assert sorted(int(i.value) for i in app.screen(sim.state).items) == sorted((first, second))
    finally:
        sim.close()
    fresh = tmp_path / "only-kept"  # no journal: the list comes from the file alone
    shutil.copytree(state / "kept", fresh / "kept")
    sim = make_sim(fresh)
    try:
        assert len(app.ctx(sim.state).kept[KEPT_NAME]["entries"]) == 2
    finally:
        sim.close()


def test_physical_cards_are_scanned_or_typed_and_an_unknown_card_is_refused():
    table = Table().open_game(GAME)
    table.turn(2 - table.state.flow.seats.count).press("start").press("start").press("start")
    table.press("next").press("start")  # own cards
    assert table.screen.title.startswith("Karten scannen: 0 von 10")
    table.step(CardScan("scanner", "PW999L", 50.0))
    assert "error" in table.beeps and "Unbekannte Karte" in table.screen.footer
    table.type("B7", "F6", "G8", "H9", "K5", "L6", "M7", "N8", "P9")
    assert not table.lines
    table.type("R/5")
    assert table.lines[0]["deck"] == ["B7", "F6", "G8", "H9", "K5", "L6", "M7", "N8", "P9", "R5"]
    table.press("next")
    assert table.screen.big == "F 7" and "höchstens 7" in table.screen.title


# --- the dictionary assist (R3): the flow asks, the answers come back as WordsChecked events ---------

OWN_DECK = ("B7", "F6", "G8", "H9", "K5", "L6", "M7", "N8", "P9", "R5")  # round 1: F, at most 7


def start_with_own_cards(*names, table=None):
    table = (table or Table()).open_game(GAME)
    table.turn(len(names) - table.state.flow.seats.count)
    table.type(*names)
    table.press("start").press("start").press("start")  # players, side, points card
    table.press("next").press("start")  # own cards
    return table.type(*OWN_DECK)


def asked(table):
    return [e.words for e in table.effects if isinstance(e, CheckWords)]


def test_the_round_asks_the_word_list_marks_unknown_words_and_offers_only_known_prefixes():
    table = start_with_own_cards("Geli", "Klaus")
    table.press("next").press("start").press("start")  # reveal, timer, words now
    table.type("Fxyz")
    assert asked(table) == []  # not before all the round's words are in
    table.type("Frühling")  # 8 letters, at most 7: too long
    assert asked(table) == [("FXYZ", "FXY", "FX", "FRÜHLING", "FRÜHLIN", "FRÜHLI", "FRÜHL", "FRÜH", "FRÜ", "FR")]
    assert isinstance(table.state.flow.stage, Fixing)
    before = [item.label for item in table.screen.items]
    assert before == ["FRÜHLIN", "FRÜHLI", "FRÜHL", "FRÜH", "FRÜ", "FR", "streichen"]  # no answer yet: all
    known = {"FRÜH", "FRÜHLING"}
    table.step(WordsChecked(tuple((w, w in known) for w in asked(table)[0]), table._at()))
    assert "error" not in table.beeps
    assert [item.label for item in table.screen.items] == ["FRÜH", "streichen"]
    table.press("start")
    assert table.lines[-1] == {"event": "shorten", "round": 1, "player": "Klaus", "to": "FRÜH"}
    assert isinstance(table.state.flow.stage, Reviewing)
    values = {item.label: item.value for item in table.screen.items}
    assert values == {"Geli": "FXYZ nicht im Wörterbuch", "Klaus": "FRÜHLING→FRÜH"}
    table.turn(-1).type("Fass")  # Geli's word corrected: only the new words are asked about
    assert asked(table) == [("FASS", "FAS", "FA")]
    assert table.screen.items[0].value == "FASS"  # no answer (yet): no mark
    table.step(WordsChecked((("FASS", True), ("FAS", False), ("FA", False)), table._at()))
    assert table.screen.items[0].value == "FASS"
    table.press("back")  # undo the correction: the answers stay
    assert table.screen.items[0].value == "FXYZ nicht im Wörterbuch"


def test_an_invalid_verdict_offers_the_known_prefixes_and_none_known_leaves_only_striking():
    table = start_with_own_cards("Geli", "Klaus")
    table.press("next").press("start").press("start")
    table.type("Fuchsbau", "Fummel")  # FUCHSBAU: 8 letters, too long; FUMMEL fits
    words = asked(table)[0]
    table.step(WordsChecked(tuple((w, w in {"FUCHS", "FUMMEL"}) for w in words), table._at()))
    assert [item.label for item in table.screen.items] == ["FUCHS", "streichen"]
    table.press("next")  # Turn to "streichen"
    table.press("start")
    assert table.lines[-1] == {"event": "strike", "round": 1, "player": "Geli"}
    table.turn(1).hold("start")  # the table declares FUMMEL invalid: none of FUMME, FUMM, FUM, FU is known
    assert isinstance(table.state.flow.stage, Fixing)
    assert [item.label for item in table.screen.items] == ["streichen"]
    table.type("3")  # the table may still keep a length of its own
    assert table.lines[-1] == {"event": "shorten", "round": 1, "player": "Klaus", "to": "FUM"}


def test_without_a_word_list_the_round_is_as_before_and_a_stray_answer_in_setup_is_no_error():
    table = Table().open_game(GAME)
    table.step(WordsChecked((("HUND", True),), table._at()))
    assert "error" not in table.beeps and isinstance(table.state.flow.stage, SeatPick)
    table = start_with_own_cards("Geli", "Klaus")
    table.press("next").press("start").press("start")
    table.type("Fxyz", "Fass")
    assert isinstance(table.state.flow.stage, Reviewing)
    assert [item.value for item in table.screen.items] == ["FXYZ", "FASS"]


@pytest.mark.slow
def test_the_simulator_with_a_configured_word_list_marks_the_unknown_word(tmp_path, make_sim):
    from firmware_host.core.events import Button, Press, TextEntry

    words = tmp_path / "wörter.txt"
    words.write_text("# a tiny list\nFass\nFrüh\n", encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text(f'[dictionary]\npath = "{words}"\n', encoding="utf-8")
    sim = make_sim(tmp_path / "state", config)
    try:
        def press(*names):
            for name in names:
                sim.send(Press(Button(name), sim.clock.now))

        def type_(*texts):
            for text in texts:
                sim.send(TextEntry(text, sim.clock.now))

        from firmware_host.core import app

        press(*[event.button.value for event in app.events_to_open(sim.state, GAME, sim.clock.now) or []])
        sim.send(Turn(2 - sim.state.flow.seats.count, sim.clock.now))
        press("start", "start", "start", "next", "start")
        type_(*OWN_DECK)
        press("next", "start", "start")
        type_("Fxyz", "Fass")
        assert "Runde 1: prüfen" in sim.screen_text()
        assert "FXYZ nicht im Wörterbuch" in sim.screen_text()
        assert "FASS nicht" not in sim.screen_text()
    finally:
        sim.close()


def test_the_unknown_mark_is_spelled_out_in_the_footer_for_the_row_under_the_cursor():
    table = start_with_own_cards("Geli", "Klaus")
    table.press("next").press("start").press("start")
    table.type("Fxyz", "Fass")
    table.step(WordsChecked((("FXYZ", False), ("FASS", True)), table._at()))
    assert table.screen.cursor == 0 and table.screen.footer == "FXYZ: nicht im Wörterbuch"
    table.turn(1)
    assert table.screen.footer == "START weiter · NEXT nächstes · lang START ungültig"


def test_own_cards_can_come_round_by_round_at_the_reveal_scanned_or_typed_and_undone():
    from firmware_host.core.cards import CardTable, kept_name, table_data
    from firmware_host.core.events import kept_event

    table = Table().open_game(GAME)
    own = CardTable("perfektes-wort", {"PW01": "F/6", "PW02": "G/8"})
    table.step(kept_event({kept_name(own.game): table_data(own)}, table._at()))
    table.turn(2 - table.state.flow.seats.count).press("start").press("start").press("start")
    table.press("next").press("start")  # own cards
    table.type("B7")
    table.press("start")  # the rest round by round
    assert table.lines[0]["deck"] == ["B7"]
    assert table.screen.title == "Runde 1 von 9" and table.screen.footer == "Karte 2: scannen, tippen (B7) oder MENU"
    table.press("next")  # card 2 is not known: refused
    assert "error" in table.beeps and "Runde 1 braucht Karte 2" in table.screen.footer
    table.step(CardScan("scanner", "PW01", table._at()))  # F/6: round 1 begins with F, at most 7
    assert table.lines[-2:] == [{"event": "card", "card": "F6"}, {"event": "reveal", "round": 1}]
    assert table.screen.big == "F 7" and "höchstens 7" in table.screen.title
    table.press("back")  # undo the reveal, then the card
    assert isinstance(table.state.flow.stage, Revealing) and table.lines[-1] == {"event": "card", "card": "F6"}
    table.type("B9")  # the card is known now: no second one
    assert "error" in table.beeps and "schon bekannt" in table.screen.footer
    table.press("back")
    assert table.lines[-1]["event"] == "setup" and table.screen.footer.startswith("Rückgängig")
    table.type("F6")
    table.press("start").press("start")
    table.type("Fass", "Fisch")
    table.press("start").press("start")  # review → points → the board
    assert table.screen.footer == "Karte 3: scannen, tippen (B7) oder MENU"
    table.step(CardScan("scanner", "PW02", table._at()))  # G/8: round 2 with G, at most 6
    assert table.screen.big == "G 6" and "höchstens 6" in table.screen.title
    assert report(table).result.rounds == 2


def test_with_no_card_at_the_start_the_first_reveal_takes_two():
    table = Table().open_game(GAME)
    table.turn(1 - table.state.flow.seats.count).press("start").press("start").press("start")
    table.press("next").press("start").press("start")  # own cards, none scanned
    assert table.lines[0]["deck"] == []
    table.type("B7")
    assert isinstance(table.state.flow.stage, Revealing)
    assert table.screen.footer == "Karte 2: scannen, tippen (B7) oder MENU"
    table.type("F6")
    assert [line["event"] for line in table.lines] == ["setup", "card", "card", "reveal"]
    assert table.screen.big.split()[0] == "F"


def test_a_word_typed_on_the_box_while_the_sand_runs_is_refused_saying_when_to_type_it():
    table = start("Geli", "Klaus")
    table.press("next")  # reveal round 1
    table.press("start")  # the sand runs
    assert table.state.timer.running
    lines = len(table.lines)
    table.type("Haus")
    assert table.beeps == ["error"]
    assert "HAUS" in table.screen.footer.upper() and "nach dem Alarm" in table.screen.footer
    assert table.state.timer.running and len(table.lines) == lines  # nothing entered, the sand runs on
