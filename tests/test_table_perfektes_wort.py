"""Das perfekte Wort at the table: whole games driven through the app by events, scored by the rules core."""

from firmware_host.core.events import CardScan, Tick
from firmware_host.core.games.perfektes_wort import score_record
from firmware_host.core.games.perfektes_wort.defaults import DEFAULT_DATA
from firmware_host.core.record import parse_record
from firmware_host.core.screens import ListScreen
from firmware_host.perfektes_wort_data import emit_defaults, load_game_data
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
    while table.state.flow.stage == "timing" and table.now < end:
        table.now += 5
        table.step(Tick(table.now))
    assert table.state.flow.stage == "entry"


def report(table):
    """`wordtable score`'s view of the record the table journaled."""
    return score_record(parse_record(table.record_text("perfektes-wort")))


def test_the_defaults_module_is_what_the_toml_files_hold():
    from pathlib import Path

    import firmware_host.core.games.perfektes_wort.defaults as module

    assert load_game_data() == DEFAULT_DATA
    assert Path(module.__file__).read_text(encoding="utf-8") == emit_defaults()


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
        assert table.screen.big == letter and f"höchstens {length}" in table.screen.title
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
            assert table.state.flow.stage == "fix" and table.screen.title.startswith("Geli:")
            table.type("3")
            shortened = True
            assert table.lines[-1] == {"event": "shorten", "round": rnd, "player": "Geli", "to": letter + "EE"}
        else:
            table.type(geli, "" if rnd == 5 else letter + "U")
        assert table.state.flow.stage == "review"
        if rnd == 4 and not struck:  # the table declares Klaus's word invalid and strikes it
            table.turn(1).press("next")
            assert table.state.flow.stage == "fix"
            table.turn(-1).press("start")  # the last option strikes
            assert table.lines[-1] == {"event": "strike", "round": rnd, "player": "Klaus"}
            struck = True
        table.press("start")  # the round's points
        assert table.screen.title == f"Runde {rnd}: Punkte"
        table.press("start")  # the scoreboard
        assert table.screen.title == f"Stand nach Runde {rnd}"
    assert shortened and struck
    table.press("next")
    assert table.state.flow.stage == "final"
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
    assert table.state.flow.stage == "final"
    totals = {item.label.split(". ", 1)[1].split()[0]: int(item.value) for item in table.screen.items}
    assert totals == _totals(table)
    assert table.screen.title == "Gewonnen: Mia"


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
    assert table.screen.big == "F" and "höchstens 7" in table.screen.title
