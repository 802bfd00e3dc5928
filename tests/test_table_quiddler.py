"""Quiddler played at the table through the whole app, event by event (pure: `app.step`).

The expected totals are the hand-checked ones of tests/quiddler_games.py; the record the flow writes is
scored again by the rules core (`score_record`) and must give the totals the winner's screen shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.core import app
from firmware_host.core.cards import CardTable, kept_name, table_data
from firmware_host.core.effects import Beep, BeginGame, EndGame, Record, Retract
from firmware_host.core.events import Button, CardScan, LongPress, Press, TextEntry, Turn, kept_event
from firmware_host.core.games.quiddler import solitaire as q
from firmware_host.core.games.quiddler.deck import STANDARD_DECK
from firmware_host.core.games.quiddler.notation import format_cards, parse_cards
from firmware_host.core.games.quiddler.record import score_record
from firmware_host.core.games.quiddler.stages import LayEntry
from firmware_host.core.games.registry import parse_record
from firmware_host.core.record import dump_line, header_line
from firmware_host.core.screens import ListScreen, describe
from firmware_host.core.settings import Settings
from tests import quiddler_games as games

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "scripts" / "quiddler.script"


class Table:
    """The app with a game open, driven by events; collects the record lines still standing."""

    def __init__(self, game: str = "quiddler", **settings: object) -> None:
        self.state, _ = app.initial(Settings(**settings))  # type: ignore[arg-type]
        self.at = 0.0
        self.lines: list[dict[str, object]] = []
        self.begun: list[BeginGame] = []
        self.ended: list[EndGame] = []
        self.effects: list[object] = []
        for event in app.events_to_open(self.state, f"game:{game}", self.at) or []:
            assert isinstance(event, Press)
            self.press(event.button)

    def send(self, event_type: type, *args: object) -> list[object]:
        self.at += 1.0
        self.state, effects = app.step(self.state, event_type(*args, self.at))
        for effect in effects:
            if isinstance(effect, Record):
                self.lines.append(effect.line)
            elif isinstance(effect, Retract):
                self.lines.pop()
            elif isinstance(effect, BeginGame):
                self.begun.append(effect)
            elif isinstance(effect, EndGame):
                self.ended.append(effect)
        self.effects = list(effects)
        return self.effects

    def press(self, button: Button, times: int = 1) -> None:
        for _ in range(times):
            self.send(Press, button)

    def hold(self, button: Button) -> None:
        self.send(LongPress, button)

    def type(self, text: str) -> list[object]:
        return self.send(TextEntry, text)

    def scan(self, code: str) -> list[object]:
        return self.send(CardScan, "rfid", code)

    @property
    def screen(self):  # type: ignore[no-untyped-def]
        return app.screen(self.state)

    @property
    def text(self) -> str:
        return describe(self.screen)

    def record_text(self) -> str:
        return "\n".join(dump_line(line) for line in [header_line("quiddler"), *self.lines]) + "\n"


def setup(table: Table, dealer_index: int, *, bonus_most: bool = False) -> None:
    table.press(Button.START)  # the number of players (from the configured names)
    table.press(Button.START)  # the names
    table.press(Button.NEXT, dealer_index)
    table.press(Button.START)
    if len(table.state.flow.stage.players) == 2:  # type: ignore[union-attr]
        table.press(Button.NEXT, 1 if bonus_most else 0)
        table.press(Button.START)
    table.press(Button.START)  # the summary


def play_round(table: Table, players: list[str], round_: games.Round, *, scan: bool = False) -> None:
    lays, challenges, _expected = round_
    assert set(lays) == set(players)
    assert table.text.startswith("Runde ")
    table.press(Button.START)  # the plan: the round is on
    out = next((p for p, (_, _, went_out) in lays.items() if went_out), None)
    table.press(Button.NEXT, players.index(out) if out is not None else len(players))
    table.press(Button.START)
    while isinstance(entry := table.state.flow.stage, LayEntry):  # type: ignore[union-attr]
        words, unused, went_out = lays[entry.player]
        assert entry.went_out == went_out
        if scan:
            for word in words:
                for face in parse_cards(word, STANDARD_DECK):
                    table.scan(face.lower())
                table.press(Button.NEXT)  # ends the word
        elif words:
            table.type(" ".join(words))
        table.hold(Button.NEXT)  # the words are done
        if not went_out:
            if unused:
                table.type(unused)
            table.press(Button.NEXT)
    for challenger, owner, word, allowed in challenges:
        table.press(Button.START)
        table.press(Button.NEXT, players.index(challenger))
        table.press(Button.START)
        labels = [item.label for item in table.screen.items]
        table.press(Button.NEXT, labels.index(f"{owner}: {word}"))
        table.press(Button.START)
        table.press(Button.NEXT, 0 if allowed else 1)
        table.press(Button.START)
    table.press(Button.NEXT)  # score the round


def round_totals(screen: ListScreen) -> dict[str, int]:
    """The round table: "Ann*" / "+23 → 23"."""
    return {item.label.rstrip("*"): int(item.value.split("→")[1]) for item in screen.items}


def standings(screen: ListScreen) -> dict[str, int]:
    """The scoreboard and the final standings: "1. Dora" / "165"."""
    return {item.label.split(". ", 1)[1]: int(item.value) for item in screen.items}


def play_game(table: Table, players: list[str], rounds: list[games.Round], scan_rounds: set[int]) -> dict[str, int]:
    for number, round_ in enumerate(rounds, start=1):
        play_round(table, players, round_, scan=number in scan_rounds)
        screen = table.screen
        assert isinstance(screen, ListScreen) and screen.title == f"Runde {number}: Wertung"
        expected = {player: values[4] for player, values in round_[2].items()}
        assert round_totals(screen) == expected
        table.press(Button.NEXT)
        if number < len(rounds):
            assert table.screen.title == f"Stand nach Runde {number}/8"
            assert standings(table.screen) == expected
            table.press(Button.NEXT)
    return standings(table.screen)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "dealer", "rounds", "final", "scan_rounds"),
    [
        (games.TWO_PLAYERS, "Ann", games.TWO_GAME, games.TWO_FINAL, {3}),
        (games.FOUR_PLAYERS, games.FOUR_DEALER, games.FOUR_GAME, games.FOUR_FINAL, {2, 8}),
    ],
    ids=["two-players", "four-players"],
)
def test_a_whole_game_at_the_table_scores_like_the_rules_core(players, dealer, rounds, final, scan_rounds):
    table = Table(player_names=tuple(players))
    setup(table, players.index(dealer))
    assert table.begun == [BeginGame("quiddler", tuple(players))]
    shown = play_game(table, players, rounds, scan_rounds)
    assert table.screen.title == f"Gewonnen: {max(final, key=final.__getitem__)}"
    assert shown == final  # hand-checked totals
    report = score_record(parse_record(table.record_text()))
    assert report.game.totals == shown
    assert sum(1 for line in table.lines if line["event"] == "challenge") == sum(len(r[1]) for r in rounds)
    table.press(Button.START)
    assert table.ended == [EndGame(report.game.winners[0])]
    assert table.state.flow is None


@pytest.mark.slow
def test_the_example_game_of_the_docs_is_what_the_table_records():
    example = parse_record((ROOT / "docs" / "examples" / "quiddler.jsonl").read_text(encoding="utf-8"))
    table = Table(player_names=tuple(games.FOUR_PLAYERS))
    setup(table, games.FOUR_PLAYERS.index(games.FOUR_DEALER))
    play_game(table, games.FOUR_PLAYERS, games.FOUR_GAME, set())
    ours = score_record(parse_record(table.record_text())).game
    theirs = score_record(example).game
    assert [r.rows for r in ours.rounds] == [r.rows for r in theirs.rounds]


def test_two_player_bonus_most_words_is_written_in_the_setup():
    table = Table(player_names=("Ann", "Bob"))
    setup(table, 1, bonus_most=True)
    assert table.lines == [{"event": "setup", "players": ["Ann", "Bob"], "dealer": "Bob", "bonus": "most"}]
    assert "Bob gibt je 3 Karten" in table.text and "Ann beginnt" in table.text


@pytest.mark.parametrize(("bonus_most", "shown", "not_shown"), [(False, "Längstes: Bob", "Meiste"),
                                                                 (True, "Meiste: –", "Längstes")])
def test_a_two_player_round_table_names_only_the_bonus_played(bonus_most, shown, not_shown):
    """Two players play one bonus (Q3): the round's table names that one, not the other as "–"."""
    table = Table(player_names=("Ann", "Bob"))
    setup(table, 0, bonus_most=bonus_most)
    play_round(table, ["Ann", "Bob"], ({"Ann": (["AT"], "Q", False), "Bob": (["CAT"], "", True)}, [], {}))
    assert table.screen.title == "Runde 1: Wertung"
    assert shown in table.screen.footer and not_shown not in table.screen.footer


def test_setup_count_names_typed_and_default_names():
    table = Table()
    assert table.screen.big == "2"
    table.send(Turn, 2)
    assert table.screen.big == "4"
    table.type("9")
    assert "1 bis 8" in table.screen.footer
    table.type("3")
    table.press(Button.START)
    assert [i.label for i in table.screen.items] == ["Spieler 1", "Spieler 2", "Spieler 3"]
    table.type("Zoë")
    table.type("Zoë")  # the cursor moved on: a second Zoë is refused
    assert "Zoë" in table.screen.footer and Beep("error", "normal") in table.effects
    table.type("Ülf")
    table.press(Button.START)
    table.press(Button.START)  # dealer: the first
    assert table.screen.lines[0] == "Spieler: Zoë, Ülf, Spieler 3"
    table.press(Button.START)
    assert table.lines[0]["players"] == ["Zoë", "Ülf", "Spieler 3"]


def test_refused_entries_beep_explain_and_change_nothing():
    table = Table(player_names=("Ann", "Bob"))
    setup(table, 0)
    table.press(Button.START)  # round 1: 3 cards
    table.press(Button.START)  # Ann went out
    before = table.state.flow
    effects = table.type("(QI)T")
    assert Beep("error", "normal") in effects and "QI" in table.screen.footer
    assert table.state.flow.stage == before.stage
    effects = table.scan("Ä7")
    assert Beep("error", "normal") in effects and "Ä7" in table.screen.footer
    table.type("CA")
    table.hold(Button.NEXT)  # two cards laid, but the round deals 3
    assert Beep("error", "normal") in table.effects and "gibt 3" in table.screen.footer
    assert [line["event"] for line in table.lines] == ["setup", "round_start"]  # no lay recorded
    table.press(Button.BACK)  # drop the word CA
    table.type("CAT")
    assert table.screen.footer.startswith("Tippen")  # the error is gone
    table.hold(Button.NEXT)
    assert table.lines[-1] == {"event": "lay", "player": "Ann", "words": ["CAT"], "went_out": True}
    table.hold(Button.NEXT)  # Bob: no words …
    table.type("QXJ")
    table.press(Button.NEXT)  # … and three unused cards
    table.press(Button.START)  # a challenge …
    table.press(Button.START)  # … by Ann: Bob laid no word to name
    assert "Keine Wörter" in table.screen.footer
    table.press(Button.NEXT)
    table.press(Button.START)  # … by Bob …
    table.press(Button.START)  # … of Ann's CAT (the only word of another) …
    assert table.screen.title == "Ann: CAT"
    table.press(Button.START)  # … allowed
    table.press(Button.START)
    table.press(Button.NEXT)
    table.press(Button.START)  # Bob again, the same word
    table.press(Button.START)
    table.press(Button.START)
    assert "schon angezweifelt" in table.screen.footer
    assert [line["event"] for line in table.lines].count("challenge") == 1


def test_back_undoes_entry_then_record_lines_and_rebuilds_the_game():
    table = Table(player_names=("Ann", "Bob"))
    setup(table, 0)
    table.press(Button.BACK)  # nothing to undo before round 1: the setup stays
    assert "Nichts" in table.screen.footer and len(table.lines) == 1
    table.press(Button.START)
    table.press(Button.NEXT)
    table.press(Button.START)  # Bob went out
    table.scan("A")
    table.scan("T")
    table.press(Button.BACK)  # drops the scanned T only
    assert "Wort: A …" in table.text
    table.scan("X")
    table.scan("e")
    table.press(Button.NEXT)  # ends AXE
    table.type("(QU)I")
    assert "Wörter: AXE (QU)I" in table.text
    table.press(Button.BACK)  # drops the word (QU)I
    table.hold(Button.NEXT)
    table.type("IT")
    table.hold(Button.NEXT)
    table.type("(ER)")
    table.press(Button.NEXT)  # Ann: IT + ER
    assert [line["event"] for line in table.lines] == ["setup", "round_start", "lay", "lay"]
    assert table.text.startswith("Runde 1: Anfechtungen")
    table.press(Button.BACK)  # Ann's lay goes
    assert [line["event"] for line in table.lines] == ["setup", "round_start", "lay"]
    assert table.screen.title == "R1 Ann: Wörter"
    table.press(Button.BACK)  # Bob's lay goes: who went out is asked again
    table.press(Button.BACK)  # the round start goes
    assert [line["event"] for line in table.lines] == ["setup"]
    assert table.screen.title == "Runde 1 von 8"
    assert table.state.flow.played.game.current is None
    table.press(Button.START)
    table.press(Button.START)  # Ann went out this time
    table.type("CAT")
    table.hold(Button.NEXT)
    table.hold(Button.NEXT)
    table.type("QXJ")
    table.press(Button.NEXT)
    table.press(Button.NEXT)  # no challenge: score
    assert round_totals(table.screen) == {"Ann": 23, "Bob": 0}  # CAT 13 + longest 10; Bob 0 − 40 floored
    table.press(Button.BACK)  # the round end goes
    assert table.text.startswith("Runde 1: Anfechtungen")
    table.press(Button.NEXT)
    report = score_record(parse_record(table.record_text()))
    assert report.game.totals == {"Ann": 23, "Bob": 0}


def test_nobody_went_out_starts_with_the_starter():
    table = Table(player_names=("Ann", "Bob", "Cem"))
    setup(table, 0)  # Ann deals, Bob starts
    table.press(Button.START)
    table.press(Button.NEXT, 3)
    table.press(Button.START)
    assert table.screen.title == "R1 Bob: Wörter"


def test_back_on_the_first_step_of_the_setup_leaves_the_game():
    for game in ("quiddler", "quiddler-solitaire"):
        table = Table(game)
        table.press(Button.BACK)
        assert table.state.flow is None and table.begun == [], game


def test_english_texts():
    table = Table(player_names=("Ann", "Bob"), lang="en")
    setup(table, 0)
    assert table.screen.title == "Round 1 of 8" and "Ann deals 3 cards each" in table.text


# --- solitaire ---------------------------------------------------------------------------------------


def test_solitaire_deals_from_a_typed_seed_and_takes_words_until_won():
    table = Table("quiddler-solitaire")
    table.type("42")
    assert table.screen.big == "42"
    table.press(Button.START)
    layout = q.new_solitaire(42)
    assert [item.label for item in table.screen.items] == [f"{p + 1}: {face}" for p, face in enumerate(layout.visible)]
    assert table.screen.title == "Solitär · 48 Karten"
    table.press(Button.BACK)  # nothing taken yet: nothing to put back, and it says so
    assert table.screen.footer == "Nichts rückgängig zu machen" and table.screen.title == "Solitär · 48 Karten"
    table.type("2 1")
    layout = q.take_word(layout, [1, 0])
    assert table.screen.title == "Solitär · 46 Karten"
    assert table.screen.footer == f"Genommen: {format_cards(layout.words[-1])}"
    table.press(Button.NEXT, 2)
    table.press(Button.START)  # pile 3
    table.press(Button.NEXT)
    table.press(Button.START)  # pile 4
    assert [item.marked for item in table.screen.items][2:4] == [True, True]
    table.hold(Button.NEXT)
    layout = q.take_word(layout, [2, 3])
    assert table.screen.title == "Solitär · 44 Karten"
    table.press(Button.BACK)  # puts the last word back
    assert table.screen.title == "Solitär · 46 Karten"
    table.type(format_cards(layout.visible[4:6]))  # typed by its cards
    assert table.screen.title == "Solitär · 44 Karten"
    table.type("1 1")
    assert "used twice" in table.screen.footer
    while table.screen.title.startswith("Solitär"):
        table.type("".join(str(p + 1) for p, item in enumerate(table.screen.items) if not item.label.endswith("–")))
    assert table.screen.title == "Gewonnen!"
    table.press(Button.START)
    assert table.state.flow is None
    assert table.begun == [] and table.lines == [] and table.ended == []  # practice: no record


# --- the action script -------------------------------------------------------------------------------


def test_record_lines_are_json():
    table = Table(player_names=("Ann", "Bob"))
    setup(table, 0)
    assert all(json.loads(dump_line(line)) == line for line in table.lines)


@pytest.mark.slow
@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 99999), order=st.permutations(range(8)), length=st.integers(2, 8))
def test_solitaire_word_typed_as_cards_takes_the_same_cards_as_typed_as_piles(seed, order, length):
    layout = q.new_solitaire(seed)
    piles = order[:length]
    cards = format_cards([layout.visible[p] for p in piles])
    by_piles, by_cards = Table("quiddler-solitaire"), Table("quiddler-solitaire")
    for table, typed in ((by_piles, "".join(str(p + 1) for p in piles)), (by_cards, cards)):
        table.type(str(seed))
        table.press(Button.START)
        table.type(typed)
    assert by_piles.state.flow.layout.words == by_cards.state.flow.layout.words == (q.take_word(layout, piles).words)


def test_a_scanned_tag_is_read_through_the_enrolled_card_table():
    table = Table(player_names=("Ann", "Bob"))
    own = CardTable("quiddler", {"0A1B2C3D4E": "QU", "0A1B2C3D4F": "I", "0A1B2C3D50": "T"})
    table.send(lambda at: kept_event({kept_name(own.game): table_data(own)}, at))
    setup(table, 0)
    table.press(Button.START)  # round 1: 3 cards
    table.press(Button.START)  # Ann went out
    for tag in ("0A1B2C3D4E", "0A1B2C3D4F", "0A1B2C3D50"):
        table.scan(tag)
    table.press(Button.NEXT)  # the word is complete
    table.press(Button.NEXT)  # Ann's words are done
    lay = table.lines[-1]
    assert lay["event"] == "lay" and lay["player"] == "Ann" and lay["words"] == ["(QU)IT"]
    effects = table.scan("FFFFFFFFFF")  # a tag nobody enrolled
    assert Beep("error", "normal") in effects and "FFFFFFFFFF" in table.screen.footer
