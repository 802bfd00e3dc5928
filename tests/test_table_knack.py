"""Knack das Wort at the table: whole games driven through the app by events, scored by the rules core."""

from firmware_host.core.games.knack_das_wort import GAME_ID
from firmware_host.core.games.knack_das_wort import record as kw
from firmware_host.core.games.registry import parse_record
from firmware_host.core.screens import BigScreen, ListScreen
from tests.table_driver import Table

GAME = "game:knack-das-wort"


def start(*names, lang="de"):
    table = Table(lang=lang).open_game(GAME)
    table.turn(len(names) - table.state.flow.stage.seats.count)
    table.type(*names)
    return table.press("start")


def final_points(screen):
    """{player: points} from the final ranking's rows ("1. Anna" / "49")."""
    return {item.label.split(". ", 1)[1]: int(item.value) for item in screen.items}


def check_against_core(table):
    report = kw.score_record(parse_record(table.record_text(GAME_ID)))
    shown = final_points(table.screen)
    assert shown == {s.player: s.points for s in report.standings.players}
    assert table.ended[-1].winner == ", ".join(report.standings.winners) if table.ended else True
    return report


def test_two_players_reach_50_with_a_stop_and_cards_left():
    table = start("Anna", "Ben")
    assert table.begun[-1].players == ("Anna", "Ben")
    assert table.lines[0] == {"event": "setup", "players": ["Anna", "Ben"]}
    assert isinstance(table.screen, BigScreen) and table.screen.big.split()[0] == "Anna"
    table.type("Donaudampfschiff")  # 16
    assert "Anna +16 → 16" in table.text and table.screen.big.split()[0] == "Ben"
    table.type("Haus")
    table.hold("start")  # Anna plays Stop: Ben skips
    assert "Stop" in table.text
    table.type("Kartoffelsalat")  # 14 → 30
    assert table.screen.big.split()[0] == "Anna"  # Ben skipped
    table.type("Schwimmbad")  # 40
    table.press("next")  # Ben draws
    table.type("Straßenbahn")  # 11 → 51: the game ends at 50
    assert "Restkarten: Anna" in table.text
    table.type("2")
    table.turn(3).press("start")  # Ben: 3 cards
    assert "celebrate" in table.beeps
    screen = table.screen
    assert isinstance(screen, ListScreen) and screen.title == "Gewonnen: Anna"
    report = check_against_core(table)
    assert final_points(screen) == {"Anna": 49, "Ben": 1}
    assert report.game.end == "target"
    table.press("start")
    assert table.state.flow is None and table.ended[-1].winner == "Anna"


def test_four_players_menu_actions_going_out_undo_and_refusals():
    table = start("Anna", "Ben", "Cem", "Dora")
    table.type("Regenschirm")  # Anna 11
    table.press("start")  # the action menu: Zieh 2 is the second entry
    assert isinstance(table.screen, ListScreen) and table.screen.title == "Aktionen: Ben"
    table.press("next").press("start")
    table.type("Hausaufgabe")  # Ben 11
    assert "Aufgabe: Zieh 2" in table.text  # Cem's task
    table.type("0")
    assert "error" in table.beeps and "mindestens einen Buchstaben" in table.text
    table.type("Zitronenfalter")  # Cem 14
    table.type("Bleistift")  # Dora 9
    table.type("Xylophon")  # mistyped for Anna
    table.press("back")
    assert "Rückgängig" in table.text and table.screen.big.split()[0] == "Anna"
    assert not any(line.get("word") == "Xylophon" for line in table.lines)
    table.type("Schmetterling")  # Anna 13 → 24
    table.type("Tischtennisplatte")  # Ben 17 → 28
    table.press("start").type("Tausch")  # a typed action card for Cem
    table.type("Sonnenblumenfeld")  # Cem 16 → 30
    # Cem went out: pick "Cem: keine Karten mehr" in the menu
    table.press("start")
    labels = [item.label for item in table.screen.items]
    table.press("next", labels.index("Cem: keine Karten mehr")).press("start")  # +10 → 40
    table.hold("next")  # the scoreboard with all players
    board = table.screen
    assert [(i.label, i.value) for i in board.items] == [("Anna", "24"), ("Ben", "28"), ("Cem", "40"), ("Dora", "9")]
    assert board.items[3].marked  # Dora's turn
    table.press("next")  # back to the turn
    table.type("Weihnachtsbaum")  # Dora 14 → 23
    table.type("Gartenzwerg")  # Anna 11 → 35
    table.type("Kuckucksuhr")  # Ben 11 → 39
    table.type("Apfelbaum")  # Cem 9 → 49
    table.press("next")  # Dora draws
    table.type("Fahrrad")  # Anna 7 → 42
    table.type("Regenbogen")  # Ben 10 → 49
    table.type("2")  # Cem: 2 letters agreed → 51, game over
    assert "Restkarten: Anna" in table.text
    table.type("drei")
    assert "error" in table.beeps and "keine Anzahl" in table.text
    table.type("3", "1", "0")
    table.press("back")  # undo Dora's count... Dora's count is not yet entered: undo Cem's 0
    assert "Restkarten: Cem" in table.text
    table.type("0", "4")
    report = check_against_core(table)
    assert final_points(table.screen) == {"Cem": 51, "Ben": 48, "Anna": 39, "Dora": 19}
    assert [line["event"] for line in table.lines].count("left") == 4
    assert report.game.first_out == "Cem"


def test_end_reported_by_the_table_and_english():
    table = start("Ann", "Bob", lang="en")
    table.type("house")
    table.press("start")
    labels = [item.label for item in table.screen.items]
    table.press("next", labels.index("End: grid full")).press("start")
    assert "Cards left: Ann" in table.text
    table.type("1", "5")
    assert table.screen.title == "Winner: Ann"
    check_against_core(table)


def test_nothing_to_undo_after_setup_and_back_at_setup_leaves():
    table = start("Anna", "Ben")
    table.press("back")
    assert "error" in table.beeps and "Nichts rückgängig" in table.text
    table = Table().open_game(GAME)
    table.press("back")
    assert table.state.flow is None and not table.begun

