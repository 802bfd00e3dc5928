"""The table page for Quiddler, Perfect Words and Knack das Wort in the pure core: each phone enters what
the stage asks of its own seat (`SeatEntry`), through the same rules core and record as the box's entry;
the views show the whole sheet."""

from __future__ import annotations

import json

import pytest

from firmware_host.core.effects import Log
from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import BestRevealed, SeatCommand, SeatEntry
from firmware_host.core.games.knack_das_wort import rules as kw
from firmware_host.core.games.perfect_words import rules as pw
from firmware_host.core.games.quiddler import record as q
from firmware_host.core.games.quiddler.stages import ChallengeList, LayEntry, OutChoice, VerdictPick
from firmware_host.core.games.registry import parse_record
from firmware_host.core.page_view import page_view
from tests.table_driver import Table
from tests.test_table_knack import start as knack_start
from tests.test_table_perfect_words import start as pw_start


def phone(table: Table, seat: int, text: str) -> Table:
    table.now += 0.5
    return table.step(SeatEntry(seat, text, table.now))


def play(table: Table, seat: int | None) -> dict:
    return page_view(table.state, seat)["play"]


def quiddler_round(players: int = 3) -> Table:
    """Quiddler with `players` default names, round 1 (3 cards) on: the box asks who went out."""
    table = Table().open_game("game:quiddler")
    table.press("next", (players - 2) % 8).press("start")  # the count (2 by default)
    table.press("start", 2)  # the names, the dealer
    if players == 2:
        table.press("start")  # the two-player bonus
    table.press("start")  # the summary: the game begins
    table.press("start")  # the plan: round 1 is on
    assert isinstance(table.state.flow.stage, OutChoice)
    return table


def test_quiddler_lay_downs_from_phones_are_the_records_lay_lines_and_the_round_is_scored():
    table = quiddler_round(3)
    asked = play(table, 1)["entry"]
    assert asked["kind"] == "cards" and [a["send"] for a in asked["actions"]] == ["{text}", "!{text}"]
    assert play(table, None)["asks"] is None and "round_text" in play(table, None)
    assert play(table, None)["status"] == f"{table.state.flow.on_turn()} ist am Zug"
    phone(table, 1, "!CAT")  # Spieler 2 went out
    assert isinstance(table.state.flow.stage, LayEntry)  # the box goes on to the others
    assert (table.lines[-1]["player"], table.lines[-1]["words"], table.lines[-1]["went_out"]) == (
        "Spieler 2", ["CAT"], True)
    assert [a["send"] for a in play(table, 2)["entry"]["actions"]] == ["{text}"]  # nobody goes out twice
    assert "entry" not in play(table, 1)  # laid: nothing more to enter
    phone(table, 2, "DO")  # words first …
    assert play(table, 2)["entry"]["draft"] == "DO"
    assert not any(line.get("player") == "Spieler 3" for line in table.lines)
    phone(table, 2, "GX")  # … 2 + 2 cards: not the hand of 3
    assert "3" in table.state.flow.message and table.beeps == ["error"]
    assert any(isinstance(e, Log) and "seat 3" in e.message for e in table.effects)
    assert play(table, 2)["message"] == table.state.flow.message  # the page says why, as the OLED
    phone(table, 2, "G")
    assert table.lines[-1]["player"] == "Spieler 3" and table.lines[-1]["unused"] == "G"
    phone(table, 0, "(QU)IT")
    phone(table, 0, "")
    assert isinstance(table.state.flow.stage, ChallengeList)
    asked = play(table, 2)["entry"]
    assert asked["kind"] == "choice" and not asked["field"]
    assert [a["label"] for a in asked["actions"]] == ["Spieler 1: (QU)IT", "Spieler 2: CAT"]
    phone(table, 2, "?9")  # no such word
    assert table.beeps == ["error"]
    phone(table, 2, "?1")  # Spieler 3 challenges CAT: the box asks the table's verdict
    box = table.state.flow.stage
    assert isinstance(box, VerdictPick) and (box.challenger, box.target) == ("Spieler 3", 1)
    assert [a["send"] for a in play(table, 0)["entry"]["actions"]] == ["=1", "=0"]  # the verdict, no other challenge
    table.press("start")  # allowed
    assert table.lines[-1]["event"] == "challenge" and table.lines[-1]["challenger"] == "Spieler 3"
    table.press("next")  # the box scores the round
    view = play(table, 0)
    board, first = view["tables"][0], view["tables"][1]
    ranking = table.state.flow.played.game.ranking()
    assert [(row[1]["text"] if isinstance(row[1], dict) else row[1], row[2]) for row in board["rows"]] == [
        (player, total) for _, player, total in ranking]
    assert any("CAT" in str(row[1]) for row in first["rows"])
    assert any("übrig: G −" in str(row[1]) for row in first["rows"])  # cards left, subtracted
    rescored = q.score_record(parse_record(table.record_text("quiddler"))).game  # what `wordtable score` reads
    assert rescored.ranking() == ranking


def test_quiddler_refuses_a_phone_out_of_turn_of_the_stage_and_drops_typed_words_on_request():
    table = quiddler_round(2)
    table.step(SeatEntry(5, "CAT", 99.0))
    assert table.beeps == ["error"] and "6" in table.state.flow.message
    phone(table, 0, "C")
    phone(table, 0, "AT")  # a one-card word: refused by the rules core with its reason, the words kept
    assert table.beeps == ["error"] and table.state.flow.message.startswith("Spieler 1")
    assert play(table, 0)["entry"]["draft"] == "C"
    phone(table, 0, "<")
    phone(table, 0, "CA")
    phone(table, 0, "<")  # change the words
    assert play(table, 0)["entry"]["draft"] == ""
    phone(table, 0, "!CAT")
    phone(table, 0, "DOG")  # laid already
    assert table.beeps == ["error"]


def test_quiddler_best_lay_down_reaches_every_page():
    table = quiddler_round(2)
    phone(table, 0, "!CAT")
    phone(table, 1, "DO")
    phone(table, 1, "G")
    table.press("next")
    table.step(BestRevealed(1, "test list", (("Spieler 1", "ACT*", 5, "CAT", 5),), 50.0))
    for seat in (0, 1, None):
        best = play(table, seat)["best"]
        assert "ACT" in best[0] and best[-1].endswith("test list")


def test_perfect_words_terms_from_phones_fill_each_seats_next_arrow_hidden_until_the_reveal():
    table = pw_start("Anna", "Ben")
    table.press("next")  # phase 1 skipped: the terms
    assert play(table, 0)["entry"]["label"].endswith("1")
    phone(table, 0, "Banane")
    phone(table, 1, "Apfel")
    phone(table, 0, "Kirsche")
    terms = [(line["player"], line["arrow"], line["term"]) for line in table.lines if line.get("event") == "term"]
    assert terms == [("Anna", 1, "Banane"), ("Ben", 1, "Apfel"), ("Anna", 2, "Kirsche")]
    assert play(table, 0)["entry"]["label"].endswith("3")
    assert "Apfel" not in json.dumps(play(table, 0))  # Ben's terms are his until the reveal
    assert "Banane" in json.dumps(play(table, 0))
    phone(table, 0, "")
    assert table.beeps == ["error"] and "Anna" in table.state.flow.message
    game = table.state.flow.played.game
    assert isinstance(game, pw.Game) and len(game.terms) == 3


def test_knack_the_phone_on_turn_writes_or_draws_the_others_are_refused():
    table = knack_start("Anna", "Ben")
    assert play(table, 0)["entry"]["kind"] == "word" and play(table, 1)["entry"]["kind"] == "choice"  # going out
    phone(table, 1, "HAUS")
    assert table.beeps == ["error"] and "Ben" in table.state.flow.message
    phone(table, 0, "HAUS")
    game = table.state.flow.played.game
    assert game.points("Anna") == 4 and game.current == "Ben"
    phone(table, 1, "-")  # Ben draws
    assert table.state.flow.played.game.current == "Anna"
    turns = play(table, 1)["tables"][1]["rows"]
    assert turns[-1][2] == "HAUS" and turns[-1][3] == 4
    assert isinstance(table.state.flow.played.game, kw.Game)


# --- without a game: the phones' controls (SeatCommand) ---------------------------------------------------


def command(table: Table, seat: int, name: str, value: str) -> Table:
    table.now += 0.5
    return table.step(SeatCommand(seat, name, value, table.now))


def test_phones_run_the_sand_timer_and_their_own_points_and_names_without_a_game():
    table = Table()
    command(table, 0, "length", "1:30")
    assert table.state.settings.duration_s == 90
    command(table, 0, "timer", "start")
    assert table.state.timer.running
    command(table, 1, "length", "2:00")
    assert table.beeps == ["error"] and table.state.settings.duration_s == 90  # not while it runs
    command(table, 1, "timer", "start")  # pause
    assert not table.state.timer.running
    command(table, 2, "timer", "flip")
    command(table, 2, "timer", "reset")
    assert table.state.timer.countdown.is_full()
    command(table, 1, "points", "+7")
    command(table, 1, "points", "-2")
    assert table.state.board.totals[1] == 5 and table.state.board.totals[0] == 0
    command(table, 1, "name", "Klaus")
    assert table.state.board.players[1] == "Klaus" and table.state.settings.player_names[1] == "Klaus"
    command(table, 0, "name", "Klaus")
    assert table.beeps == ["error"] and "Klaus" in table.state.notice
    command(table, 0, "points", "viele")
    assert table.beeps == ["error"] and "viele" in table.state.notice
    assert any(isinstance(e, Log) for e in table.effects)  # refusals go to the log
    view = page_view(table.state, 1)
    assert view["notice"] == table.state.notice and view["controls"]["length"]["options"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_phones_bad_points_or_empty_name_says_what_is_wanted(lang):
    """Not "„abc“ geht hier nicht": points that are not a number say how points are written, an empty name
    asks for one — in the box's language; nothing changes."""
    table = Table(lang=lang)
    before = (table.state.board.totals, table.state.board.players)
    command(table, 1, "points", "abc")
    assert table.beeps == ["error"] and "abc" in table.state.notice and "+7" in table.state.notice
    command(table, 1, "name", "  ")
    assert table.beeps == ["error"]
    assert table.state.notice == {"de": "Handy von Spieler 2: erst einen Namen eingeben",
                                  "en": "Player 2's phone: type a name first"}[lang]
    assert (table.state.board.totals, table.state.board.players) == before


def test_a_phone_joins_with_a_new_name_at_the_next_seat_only():
    table = Table()
    players = len(table.state.board.players)
    command(table, players, "join", "Mia")
    assert table.state.board.players[-1] == "Mia" and table.state.settings.player_count == players + 1
    command(table, players + 3, "join", "Ole")  # not the next seat
    assert table.beeps == ["error"] and "Ole" not in table.state.board.players
    command(table, players + 1, "join", "Mia")
    assert table.beeps == ["error"]


def test_the_settings_the_menu_has_are_set_from_a_phone_and_nothing_else():
    table = Table()
    command(table, 0, "lang", "en")
    assert table.state.settings.lang == "en" and table.state.overlay is None  # the box's menu stays closed
    command(table, 0, "volume", "off")
    command(table, 0, "warn", "0")
    assert table.state.settings.volume == "off" and table.state.settings.warn_s == 0
    command(table, 0, "lang", "fr")
    assert table.state.settings.lang == "en" and table.beeps == ["error"]
    command(table, 0, "power_off", "")
    assert table.state.overlay is None and table.beeps == ["error"]
    options = page_view(table.state, 0)["controls"]["lang"]["options"]
    assert [key for key, _, chosen in options if chosen] == ["en"]


def test_timer_and_board_controls_are_refused_while_a_game_is_on():
    table = knack_start("Anna", "Ben")
    command(table, 0, "timer", "start")
    assert table.beeps == ["error"] and not table.state.timer.running
    command(table, 0, "lang", "en")  # the settings still go
    assert table.state.settings.lang == "en"


def test_seat_commands_round_trip_through_the_journal_codec():
    event = SeatCommand(2, "points", "+3", 12.5)
    assert decode(encode(event)) == event


def test_das_perfekte_wort_a_phone_shortens_its_own_too_long_word_when_the_table_asks():
    from tests.test_table_perfektes_wort import start_with_own_cards

    table = start_with_own_cards("Geli", "Klaus")  # round 1: F, at most 7
    table.press("next").press("start").press("start")  # reveal, the minute, pens down: words now
    table.type("Frühling")  # Geli's, typed on the box: 8 letters, one too many
    phone(table, 1, "Fuchs")
    asked = play(table, 0)["entry"]
    assert asked["actions"][0]["send"] == "{text}" and [a["send"] for a in asked["actions"][1:3]] == [
        "FRÜHLIN", "FRÜHLI"]  # the box's options too
    assert "entry" not in play(table, 1)  # not Klaus's word
    phone(table, 1, "4")
    assert table.beeps == ["error"]
    phone(table, 0, "4")
    assert table.lines[-1] == {"event": "shorten", "round": 1, "player": "Geli", "to": "FRÜH"}


@pytest.mark.parametrize("name", ["quiddler", "perfect-words", "knack-das-wort", "perfektes-wort", "scoreboard",
                                  "timer", "turn-timer"])
def test_every_seats_view_is_json_at_every_step_of_the_documented_sessions(name):
    """The docs' sessions played on the pure core: after every event each seat's view (and a guest's) is
    computed and is JSON — no stage of any game leaves the page without a view."""
    from pathlib import Path

    from firmware_host.core import app
    from firmware_host.core.events import Tick
    from firmware_host.core.page_view import page_views
    from firmware_host.core.settings import Settings
    from firmware_host.script import event_for, parse_script

    script = Path(__file__).resolve().parent.parent / "docs" / "scripts" / f"{name}.script"
    state, now, seen = app.initial(Settings())[0], 0.0, set()
    for action in parse_script(script.read_text(encoding="utf-8")):
        now += 0.25
        if action.verb == "choose":
            events = app.events_to_choose(state, action.arg, now) or []
        elif action.verb == "wait":
            now += action.seconds
            events = [Tick(now)]
        else:
            event = event_for(action, now)
            events = [event] if event is not None else []
        for event in events:
            state = app.step(state, event)[0]
            views = page_views(state)
            for text in (*views.seats, views.guest):
                view = json.loads(text)
                seen.add((view["game"], (view["play"] or {}).get("stage")))
    stages = {stage for game, stage in seen if game is not None and stage is not None}
    assert len(stages) > 1 if name in ("quiddler", "perfect-words", "knack-das-wort", "perfektes-wort") else seen


def test_quiddler_the_tables_verdict_comes_from_the_phones_as_the_rules_give_it():
    table = quiddler_round(3)
    phone(table, 1, "!CAT")  # Spieler 2 went out
    phone(table, 2, "DO")
    phone(table, 2, "G")
    phone(table, 0, "(QU)IT")
    phone(table, 0, "")
    phone(table, 2, "?1")  # Spieler 3 challenges Spieler 2's CAT
    sends = {seat: [a["send"] for a in play(table, seat)["entry"]["actions"]] for seat in (0, 1, 2)}
    assert sends == {0: ["=1", "=0"], 1: ["=0"], 2: ["=1"]}  # outside the dispute either; in it, only against oneself
    assert play(table, None)["asks"] is None
    phone(table, 2, "=0")  # the challenger cannot rule the word out
    assert table.beeps == ["error"] and "Spieler 3" in table.state.flow.message
    assert any(isinstance(e, Log) and "seat 3" in e.message for e in table.effects)
    assert not any(line.get("event") == "challenge" for line in table.lines)
    phone(table, 1, "=1")  # nor its owner allow it
    assert table.beeps == ["error"]
    phone(table, 0, "=0")  # Spieler 1 records the table's verdict: not allowed
    line = table.lines[-1]
    assert (line["event"], line["challenger"], line["player"], line["word"], line["allowed"]) == (
        "challenge", "Spieler 3", "Spieler 2", "CAT", False)
    box = table.state.flow.stage
    assert isinstance(box, ChallengeList)
    assert all(play(table, seat)["entry"]["kind"] == "choice" for seat in (0, 2))  # more challenges may follow
    phone(table, 0, "?1")  # Spieler 1 challenges Spieler 3's DO
    phone(table, 2, "=0")  # its owner concedes
    assert table.lines[-1]["allowed"] is False and table.lines[-1]["challenger"] == "Spieler 1"
    phone(table, 0, "=1")  # nothing to judge now
    assert table.beeps == ["error"]


def test_knack_action_cards_going_out_and_the_end_from_the_phones():
    table = knack_start("Anna", "Ben", "Cem")
    sends = [a["send"] for a in play(table, 0)["entry"]["actions"]]
    assert sends == ["{text}", "-", "+Stop", "+Zieh 2", "+{text}", "*", "#discard", "#grid"]
    assert [a["send"] for a in play(table, 1)["entry"]["actions"]] == ["*"]  # not on turn: only its own going out
    phone(table, 1, "+Stop")  # not Ben's turn
    assert table.beeps == ["error"] and "Ben" in table.state.flow.message
    assert any(isinstance(e, Log) and "seat 2" in e.message for e in table.effects)
    phone(table, 0, "+Stop")  # Anna plays Stop: the rules core's PlayAction, as the box's long START
    assert table.lines[-1] == {"event": "action", "player": "Anna", "card": "Stop"}
    phone(table, 0, "+Tausch")  # a card named by typing, as in the box's menu
    assert table.lines[-1]["card"] == "Tausch"
    phone(table, 0, "+ ")
    assert table.beeps == ["error"] and table.state.flow.message.startswith("Anna: ")  # the rules' reason, named
    phone(table, 0, "HAUS")
    phone(table, 0, "*")  # Anna has no cards left, after the turn passed: +10, the first out
    assert table.lines[-1] == {"event": "out", "player": "Anna"}
    game = table.state.flow.played.game
    assert game.first_out == "Anna" and game.points("Anna") == 14
    assert "entry" not in play(table, 0)  # out already, not on turn
    phone(table, 0, "*")
    assert table.beeps == ["error"]
    on_turn = table.state.flow.played.game.current
    seat = table.state.flow.played.game.players.index(on_turn)
    phone(table, seat, "#voll")  # no such end: the rules core refuses it
    assert table.beeps == ["error"] and table.state.flow.played.game.end is None
    phone(table, seat, "#grid")
    assert table.lines[-1] == {"event": "end", "reason": "grid"} and table.state.flow.played.game.end == "grid"
    for s, left in ((0, "0"), (1, "3"), (2, "1")):
        assert play(table, s)["entry"]["kind"] == "number"
        phone(table, s, left)
    standings = kw.score(table.state.flow.played.game)
    assert standings.final and play(table, None)["winners"] == list(standings.winners)


def test_perfect_words_grid_strike_choice_and_reveal_from_the_phones():
    from firmware_host.core.games.perfect_words.table import Revealing, Terms

    table = pw_start("Anna", "Ben")
    asked = play(table, 1)["entry"]
    assert [a["send"] for a in asked["actions"]] == ["{text}", "!next"] and asked["label"].endswith("1")
    phone(table, 0, "Dschungel Piraten")  # arrow 1, as a typed line on the box
    phone(table, 1, "5 Schatz Insel")  # arrow 5 is not down yet: the rules core says so
    assert table.beeps == ["error"] and table.state.flow.message.startswith("Ben: ")
    phone(table, 1, "!next")  # the grid is not complete
    assert table.beeps == ["error"] and "Ben" in table.state.flow.message
    for arrow in range(2, pw.ARROWS + 1):
        phone(table, arrow % 2, f"Hut{arrow} Mond{arrow}")
    phone(table, 1, "1 Dschungel Piraten Schiff")  # arrow 1's clue words anew
    assert [line["event"] for line in table.lines[1:]] == ["arrow"] * pw.ARROWS + ["clues"]
    phone(table, 1, "!next")
    assert isinstance(table.state.flow.stage, Terms)
    phone(table, 0, "Dschungelbuch")  # shares letters with a clue word: kept and warned
    assert "Anna" in table.state.flow.message
    assert [a["send"] for a in play(table, 0)["entry"]["actions"]] == ["{text}", "!strike 1"]
    assert [a["send"] for a in play(table, 1)["entry"]["actions"]] == ["{text}"]
    phone(table, 1, "!strike 1")  # not Ben's term
    assert table.beeps == ["error"] and "Ben" in table.state.flow.message
    assert any(isinstance(e, Log) and "seat 2" in e.message for e in table.effects)
    phone(table, 0, "!strike 1")
    assert table.lines[-1] == {"event": "strike", "player": "Anna", "arrow": 1}
    phone(table, 1, "Tarzan")
    table.hold("next")  # the box goes on to the choice
    asked = play(table, 1)["entry"]
    assert asked["actions"][0]["send"] == "!choose {text}"
    phone(table, 1, "!choose drei")
    assert table.beeps == ["error"] and "drei" in table.state.flow.message
    phone(table, 1, "!choose 3 3")  # the rules core refuses the same arrow twice
    assert table.beeps == ["error"] and table.state.flow.played.game.double is None
    phone(table, 1, "!choose 3 7")
    assert table.lines[-1] == {"event": "choose", "double": 3, "ignore": 7}
    arrows = play(table, 0)["tables"][0]["rows"]  # the marks say what they mean, as on the OLED
    assert [(c[0]["text"], c[0]["mark"]) for c in arrows if isinstance(c[0], dict) and c[0].get("mark")] == \
        [("Pfeil 3 ×2", "circled"), ("Pfeil 7 –", "struck")]
    assert [a["send"] for a in play(table, 0)["entry"]["actions"]] == ["!reveal"]
    assert "Tarzan" not in json.dumps(play(table, 0))  # still secret
    phone(table, 0, "!reveal")
    assert table.lines[-1] == {"event": "reveal"} and isinstance(table.state.flow.stage, Revealing)
    assert "Tarzan" in json.dumps(play(table, 0)) and "entry" not in play(table, 0)
    phone(table, 0, "!reveal")  # once
    assert table.beeps == ["error"]


def test_phones_joining_at_once_get_the_next_free_seats_from_the_core():
    from firmware_host.core.events import SeatJoin

    table = Table()  # a fresh box: the first phone's player takes the default seats' place
    table.step(SeatJoin("Mia", "c1", 1.0))
    table.step(SeatJoin("Ole", "c2", 1.0))  # sent before the first was seen on any page: the next seat
    assert table.state.board.players == ("Mia", "Ole")
    assert table.state.settings.player_names == ("Mia", "Ole")
    mia, ole = (table.state.roster.named(name) for name in ("Mia", "Ole"))
    assert mia is not None and ole is not None and (mia.id, ole.id) == (0, 1)
    table.step(SeatJoin("Mia", "c3", 1.5))  # taken
    assert table.beeps == ["error"] and "Mia" in table.state.notice
    assert any(isinstance(e, Log) for e in table.effects)
    assert table.state.page.joined[-3:] == (("c1", 0, 0), ("c2", 1, 1), ("c3", -1, -1))
    assert decode(encode(SeatJoin("Ole", "c2", 1.0))) == SeatJoin("Ole", "c2", 1.0)
    started = knack_start("Anna", "Ben")
    started.step(SeatJoin("Mia", "c4", 99.0))  # not during a game
    assert started.state.page.joined[-1] == ("c4", -1, -1) and "Mia" not in started.state.board.players


def test_the_joins_kept_for_the_server_are_bounded():
    from firmware_host.core.events import SeatJoin
    from firmware_host.core.page_table import JOINS_KEPT

    table = Table()
    for n in range(JOINS_KEPT + 3):
        table.step(SeatJoin(f"P{n}", f"c{n}", float(n)))
    assert len(table.state.page.joined) == JOINS_KEPT and table.state.page.joined[-1][0] == f"c{JOINS_KEPT + 2}"


@pytest.mark.parametrize("game", ["knack-das-wort", "quiddler"])
def test_the_phones_seats_are_the_games_players_not_the_free_scoreboards(game):
    """A phone's seat is an index into the game's players (typed at its setup), from the setup on: the seats
    a phone picks from name them, and the seat on turn is asked for its entry — not the free scoreboard's
    four "Spieler N", whose fourth seat is nobody in a game of three."""
    from firmware_host.core.page_view import page_views

    if game == "knack-das-wort":
        table = knack_start("Cara", "Dora", "Emil")
    else:
        table = Table().open_game("game:quiddler").press("next").press("start").type("Cara", "Dora", "Emil")
        assert page_views(table.state).players == ("Cara", "Dora", "Emil")  # already while it is set up
        table.press("start", 4)  # the names, the dealer, the summary, the plan: round 1 is on
    views = page_views(table.state)
    assert views.players == ("Cara", "Dora", "Emil") and len(views.seats) == 3
    assert json.loads(views.guest)["players"] == ["Cara", "Dora", "Emil"]
    assert [page_view(table.state, seat)["name"] for seat in range(3)] == ["Cara", "Dora", "Emil"]
    assert "entry" in play(table, 0)  # Cara: on turn (Knack) or laying down (Quiddler)


@pytest.mark.parametrize("game", ["knack-das-wort", "quiddler", "perfect-words", "perfektes-wort", "zugzeit"])
def test_while_a_game_is_set_up_on_the_box_the_phones_say_so_in_their_own_words(game):
    """During a game's setup the game has nothing for the page yet: every phone (seated or not) says that the
    game is being set up at the box and shows the seats being chosen — never the OLED's text (its cursor
    marks and key hints); once the game is on, the game's view only."""
    from firmware_host.core import app
    from firmware_host.core.games import registry
    from firmware_host.core.screens import describe

    table = Table().open_game(f"game:{game}")
    assert (page_view(table.state, None)["play"] or {}).get("stage") == "setup"
    shown = describe(app.screen(table.state))
    for seat in (0, None):
        view = page_view(table.state, seat)
        assert registry.kit(game).name("de") in view["at_table"] and "eingerichtet" in view["at_table"]
        assert shown not in json.dumps(view, ensure_ascii=False) and "NEXT" not in json.dumps(view)
    assert app.table_players(table.state)[0] == "Spieler 1"  # the seats being chosen are the phones' seats
    if game == "knack-das-wort":
        table.press("start")  # the game begins
        assert page_view(table.state, 0)["at_table"] == "" and "entry" in play(table, 0)


def test_the_menu_open_at_the_box_is_said_on_the_phone_not_shown():
    table = Table().press("menu")
    view = page_view(table.state, 0)
    assert view["at_table"] == "Am Tisch ist gerade das Menü offen." and ">" not in json.dumps(view)
    table.press("menu")
    assert page_view(table.state, 0)["at_table"] == ""


def test_after_a_language_change_the_seats_default_names_are_in_the_new_language():
    """A phone joining or a rename keeps the other seats' names; switching the box to English then says
    "Player 3", not "Spieler 3", on the scoreboard and the phones (a chosen name stays as it is)."""
    table = Table()
    command(table, 0, "name", "Anna")
    command(table, len(table.state.board.players), "join", "Mia")
    command(table, 0, "lang", "en")
    assert table.state.board.players == ("Anna", "Player 2", "Player 3", "Player 4", "Mia")
    assert table.state.settings.player_names == table.state.board.players
    assert page_view(table.state, 1)["name"] == "Player 2"
    command(table, 0, "lang", "de")
    assert table.state.board.players[1:3] == ("Spieler 2", "Spieler 3")
