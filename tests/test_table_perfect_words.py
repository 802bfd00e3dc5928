"""Perfect Words at the table: whole games driven through the app by events, scored by the rules core."""

import pytest

from firmware_host.core.games.perfect_words import GAME_ID
from firmware_host.core.games.perfect_words import record as pw
from firmware_host.core.games.perfect_words import table as pw_table
from firmware_host.core.games.perfect_words.rules import ARROWS
from firmware_host.core.games.registry import parse_record
from firmware_host.core.screens import ListScreen
from tests.table_driver import Table

GAME = "game:perfect-words"


def arrow_points(screen) -> list[int]:
    """The points the final screen gives each arrow, in order ("Pfeil 1 ×2: 4 · 2: 0 · …")."""
    return [int(part.rsplit(": ", 1)[1]) for part in screen.lines[0].split(" · ")]


def start(*names, lang="de"):
    table = Table(lang=lang).open_game(GAME)
    table.turn(len(names) - table.state.flow.stage.seats.count)
    table.type(*names)
    return table.press("start")


def core_standing(table):
    return pw.score_record(parse_record(table.record_text(GAME_ID))).standing


def choose(table, double, ignore):
    """On the choice screen (cursor at arrow 1): pick the doubled, then the ignored arrow."""
    table.press("next", double - 1).press("start")
    table.turn(ignore - double).press("start")


def reveal_to_the_end(table, merges=None):
    """START reveals; arrow by arrow, merge the groups at the given positions; NEXT to the total."""
    merges = merges or {}
    table.press("start")
    for arrow in range(1, ARROWS + 1):
        assert table.screen.title.startswith(f"Pfeil {arrow}")
        if arrow in merges:
            a, b = merges[arrow]
            table.turn(a).press("start").turn(b - a).press("start")
        table.press("next")


ANNA = ["Affe", "Gold", "Urlaub", "Welle", "Angeln", "Hitze", "Ski", "Alpen", "Käse", "Falle"]
BEN = ["affe", "Gold", "Strand", "Wellen", "Hai", "HITZE", "Kalt", "Alpen", "Schweiz", "Falle"]


def test_two_players_skip_phase_1_double_ignore_merge_and_the_rank():
    table = start("Anna", "Ben")
    assert table.lines[0] == {"event": "setup", "players": ["Anna", "Ben"]}
    table.press("next")  # no phase 1
    assert table.screen.title == "Anna – Pfeil 1"
    table.type(*ANNA[:2])
    table.type("AFFE")  # Anna already wrote it for arrow 1
    assert "error" in table.beeps and "schon für Pfeil 1" in table.screen.footer
    assert table.screen.title == "Anna – Pfeil 3"
    table.type("Xylophon").press("back")  # undone
    assert table.screen.title == "Anna – Pfeil 3" and "Rückgängig" in table.text
    table.type(*ANNA[2:], *BEN)
    assert isinstance(table.screen, ListScreen) and table.screen.title == "Welcher Pfeil zählt doppelt?"
    table.press("start").press("start")  # arrow 1 twice: refused by the rules
    assert "error" in table.beeps and "verschieden" in table.text
    choose(table, 1, 2)
    assert "×2: Pfeil 1 · –: Pfeil 2" in table.text
    table.press("start")
    assert table.screen.title == "Pfeil 1 ×2: 4 P"
    assert [(i.label, i.value) for i in table.screen.items] == [("Affe", "2")]
    table.press("next", 3)
    assert table.screen.title == "Pfeil 4: 0 P"
    table.press("start").turn(1).press("start")  # merge Welle and Wellen
    assert table.screen.title == "Pfeil 4: 2 P" and table.lines[-1]["event"] == "merge"
    table.press("next", 7)
    assert isinstance(table.state.flow.stage, pw_table.Final) and "celebrate" in table.beeps
    standing = core_standing(table)
    assert standing.total == 12
    assert table.screen.title == f"{standing.total} Punkte – Großartig!"
    assert sum(arrow_points(table.screen)) == standing.total
    table.press("start")
    assert table.state.flow is None and table.ended[-1].winner == "Anna, Ben"


CLUES = ["Dschungel Piraten", "Piraten Schatz", "Schatz Insel", "Insel Meer", "Meer Fisch",
         "Sonne Sommer", "Winter Schnee", "Schnee Berg", "Berg Käse", "Käse Maus"]
TERMS = {
    "Anna": ["Abenteuer", "Gold", "Urlaub", "Welle", "Angeln", "Hitze", "Ski", "Gipfel", "Schweiz", "Falle"],
    "Ben": ["Abenteuer", "Gold", "Urlaub", "Wellen", "Hai", "Hitze", "Kalt", "Alpen", "Schweiz", "Mausefalle"],
    "Cem": ["Tarzan", "Karte", "Urlaub", "Ozean", "Netz", "Hitze", None, "Alpen", "Fondue", "Falle"],
    "Dora": [" abenteuer ", "Schiff", "Strand", "Welle", "Wasser", "HITZE", "Kälte", "Alpen", "Schweiz", "Katze"],
}


@pytest.mark.slow
def test_four_players_with_phase_1_a_warning_struck_and_a_merge():
    table = start("Anna", "Ben", "Cem", "Dora")
    table.type(*CLUES[:9], "Käse")  # arrow 10 on one word: the grid is not complete
    table.press("next")
    assert "error" in table.beeps and "nicht komplett" in table.text
    table.type("10 Käse Maus", "3 Schatz Insel Sonne")
    assert "Gitter fertig" in table.text
    table.press("next")
    assert table.screen.title == "Anna – Pfeil 1" and "Dschungel · Piraten" in table.text
    for name, terms in TERMS.items():
        for arrow, term in enumerate(terms, start=1):
            assert table.screen.title == f"{name} – Pfeil {arrow}"
            if term is None:
                table.press("next")  # Cem wrote nothing
                continue
            table.type(term)
            if term == "Mausefalle":
                assert "„maus“" in table.text and "streichen" in table.text
                table.hold("start")
                assert table.lines[-1] == {"event": "strike", "player": "Ben", "arrow": 10}
    choose(table, 6, 5)
    reveal_to_the_end(table, merges={4: (0, 1)})
    standing = core_standing(table)
    assert standing.total == 16
    assert table.screen.title == "16 Punkte – Unglaublich!"
    assert arrow_points(table.screen) == [a.points for a in standing.arrows]


def test_back_at_the_choice_undoes_the_last_term_and_typing_is_refused_there():
    table = start("Ann", "Bob", lang="en")
    table.press("next")
    table.type(*ANNA, *BEN)
    table.type("word")
    assert "error" in table.beeps and "No typing here" in table.text
    table.press("back")
    assert table.screen.title == "Bob – arrow 10" and table.lines[-1]["term"] == "Schweiz"
    table.type("Falle")
    choose(table, 3, 7)
    table.press("start")
    table.press("next", 10)
    assert core_standing(table).total == int(table.screen.title.split()[0])


def test_a_long_next_ends_only_this_players_terms_the_next_player_writes_theirs():
    """The hint "lang NEXT: fertig" stands on one player's screen: it ends that player's terms, not the
    table's; after the last player it goes on to the choice."""
    table = start("Anna", "Ben", "Cem")
    table.press("next")  # no phase 1
    table.type("Affe", "Gold").hold("next")  # Anna is done after two arrows
    assert table.screen.title == "Ben – Pfeil 1"
    table.type("Affe").hold("next")
    assert table.screen.title == "Cem – Pfeil 1"
    table.hold("next")  # Cem writes nothing
    assert isinstance(table.screen, ListScreen) and table.screen.title == "Welcher Pfeil zählt doppelt?"
    assert [(line["player"], line["term"]) for line in table.lines if line["event"] == "term"] == [
        ("Anna", "Affe"), ("Anna", "Gold"), ("Ben", "Affe")]

