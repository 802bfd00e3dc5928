"""The reveal's round trip: the flow asks (RevealBest), the shell solves over the word list of the
language and hands the answer back as an input (BestRevealed), journaled so that a replay needs no list;
the round's points show the perfect word."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from firmware_host.core import app
from firmware_host.core.effects import RevealBest
from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import BestRevealed, Button, Press
from firmware_host.core.games.perfektes_wort.best_word import gain
from firmware_host.core.games.perfektes_wort.stages import Points, Reviewing
from firmware_host.core.games.word_groups import GroupedWords
from firmware_host.shell import Outputs, Shell
from firmware_host.word_index import read_list
from tests.test_table_perfektes_wort import start_with_own_cards
from tests.test_word_check import Null, Recorder

WORDS = sorted(read_list(Path(__file__).parent / "wordlists" / "de_small.txt", "de"))  # a fixed order
LIST = GroupedWords.of("tests", WORDS)


def reviewing(*names: str, words: tuple[str, ...]):  # type: ignore[no-untyped-def]
    table = start_with_own_cards(*names)
    table.press("next").press("start").press("start")  # reveal (F, at most 7), timer, words now
    table.type(*words)
    assert isinstance(table.state.flow.stage, Reviewing)
    return table


def shell_on(state, lists):  # type: ignore[no-untyped-def]
    null = Null()
    outputs = Outputs(bar=null, sounder=null, display=null, renderer=lambda s, size, page=0: None,
                      pager=lambda s, size: 1,
                      save_settings=lambda settings: None, power_off=lambda: None,
                      on_frame=lambda screen, image: None, on_sound=lambda pattern, notes: None,
                      keep=lambda name, data: None, check_words=lambda words: None, word_lists=lists,
                      owner_pin=lambda pin: None)
    return Shell(state, outputs, clock=lambda: 50.0, journal=Recorder())


def brute_best(game, player: str) -> int:  # type: ignore[no-untyped-def]
    legal = [w for w in WORDS if w[0] == "F" and 2 <= len(w) <= 7]
    return max(gain(game, player, 1, w) for w in legal)


def test_the_points_show_the_perfect_word_and_the_answer_is_journaled_and_replays_without_the_list() -> None:
    table = reviewing("Geli", "Klaus", words=("Fisch", "Fuß"))
    before = table.state
    shell = shell_on(before, lambda language: LIST if language == "de" else None)
    shell.handle(Press(Button.START, 40.0))
    flow = shell.state.flow
    assert isinstance(flow.stage, Points)
    journaled = shell.journal.events
    assert [type(e).__name__ for e in journaled] == ["Press", "BestRevealed"]
    answer = journaled[1]
    assert decode(encode(answer)) == answer and answer.source == "tests" and answer.round == 1
    game = flow.played.game
    best = brute_best(game, "Geli")
    assert best == brute_best(game, "Klaus")  # nothing differs between them in round 1
    (line,) = [line for line in answer.best if line[0] == "Geli"]
    assert line[2] == best and line[3:] == ("FISCH", gain(game, "Geli", 1, "FISCH"))
    labels = list(shell.screen.lines)
    assert f"Das perfekte Wort: {line[1]} – {best} Punkte" in labels
    replayed = before
    for event in journaled:  # no list needed: the answer is in the journal
        replayed, _ = app.step(replayed, event)
    assert replayed.flow == shell.state.flow


def test_without_a_word_list_nothing_is_revealed_and_nothing_breaks() -> None:
    table = reviewing("Geli", "Klaus", words=("Fisch", "Fuß"))
    shell = shell_on(table.state, lambda language: None)
    shell.handle(Press(Button.START, 40.0))
    assert [type(e).__name__ for e in shell.journal.events] == ["Press"]
    labels = list(shell.screen.lines)
    assert not any("perfekte" in label for label in labels)


def test_solo_tells_the_own_points_beside_the_possible_ones() -> None:
    table = reviewing("Geli", words=("Fuchs",))
    table.press("start")
    (ask,) = [e for e in table.effects if isinstance(e, RevealBest)]
    assert ask.language == "de" and ask.round == 1
    table.step(BestRevealed(1, "tests", ask.solve(LIST), table._at()))
    game = table.state.flow.played.game
    own, best = gain(game, "Geli", 1, "FUCHS"), brute_best(game, "Geli")
    labels = list(table.screen.lines)
    assert any(label.startswith(f"Dein Wort {own}, möglich {best} (") for label in labels), labels


def test_players_whose_best_differs_are_told_one_by_one() -> None:
    table = reviewing("Geli", "Klaus", words=("Fisch", "Fuß"))
    table.press("start")
    lines = (("Geli", "FUCHS", 20, "FISCH", 18), ("Klaus", "FISCH", 21, "FUß", 12))
    table.step(BestRevealed(1, "tests", lines, table._at()))
    labels = list(table.screen.lines)
    geli, klaus = labels  # one line per player, the perfect word on it
    assert geli.startswith("Geli: ") and geli.endswith("perfekt: FUCHS 20")
    assert klaus.startswith("Klaus: ") and klaus.endswith("perfekt: FISCH 21")


def test_the_reveal_can_be_off() -> None:
    table = reviewing("Geli", "Klaus", words=("Fisch", "Fuß"))
    table.state = replace(table.state, mode=replace(table.state.mode, flow=replace(table.state.flow, reveal="off")))
    table.press("start")
    assert not any(isinstance(e, RevealBest) for e in table.effects)


# --- Quiddler: every player's best lay-down beside the round's table --------------------------------

EN = GroupedWords.of("tests", read_list(Path(__file__).parent / "wordlists" / "en_small.txt", "en"))


def test_quiddler_round_table_shows_each_players_best_lay_down_with_the_longest_word_bonus() -> None:
    from tests.test_table_quiddler import Table as QuiddlerTable
    from tests.test_table_quiddler import play_round, setup

    table = QuiddlerTable(player_names=("Ann", "Bob"))
    setup(table, 0)
    lays = {"Ann": ([], "(QU)IT", False), "Bob": (["CAT"], "", True)}
    play_round(table, ["Ann", "Bob"], (lays, [], {}))  # type: ignore[arg-type]
    (ask,) = [e for e in table.effects if isinstance(e, RevealBest)]
    assert (ask.language, ask.round) == ("en", 1)
    lines = ask.solve(EN)
    # Ann kept (QU)IT unused: 0; laid, 9 + 2 + 3 = 14 and QUIT (4 letters) beats Bob's CAT for the
    # longest word (the one bonus of two players): 24 round points. Bob's CAT, 8 + 2 + 3 = 13, is his
    # best, and longest against what Ann laid (nothing): 23, as he scored.
    assert lines == (("Ann", "(QU)IT +L", 24, "", 0), ("Bob", "CAT +L", 23, "CAT", 23))
    table.send(BestRevealed, 1, "tests", lines)
    labels = [(item.label, item.value) for item in table.screen.items]
    assert ("Ann möglich: (QU)IT (+10 längstes Wort)", "24") in labels
    assert ("Bob möglich: CAT (+10 längstes Wort)", "23") in labels and ("Wortliste", "tests") in labels


# --- when: the config's `[dictionary] reveal` --------------------------------------------------------


def test_the_config_says_when_and_refuses_anything_else() -> None:
    import pytest

    from firmware_host.config import ConfigError, parse_config

    assert parse_config({}).dictionary.reveal == "round"
    assert parse_config({"dictionary": {"reveal": "end"}}).dictionary.reveal == "end"
    assert parse_config({}).dictionary.system is True
    assert parse_config({"dictionary": {"system": False}}).dictionary.system is False
    with pytest.raises(ConfigError) as info:
        parse_config({"dictionary": {"reveal": "never"}})
    assert "dictionary.reveal" in str(info.value)


def test_only_at_the_end_the_nine_rounds_are_revealed_on_the_final_standing() -> None:
    from tests.table_driver import Table

    table = Table(reveal="end").open_game("game:perfektes-wort")
    table.turn(2 - table.state.flow.seats.count)
    table.type("Geli", "Klaus")
    table.press("start").press("start").press("start").press("start")  # players, side, card, deck
    asks: list[RevealBest] = []
    for rnd in range(1, 10):
        table.press("next").press("start").press("start")  # reveal, timer, words now
        letter = table.state.flow.played.game.letter(rnd)
        table.type(letter + "ANE", "")  # Geli writes a word, Klaus none
        table.press("start")  # the review is done: the round's points
        asks += [e for e in table.effects if isinstance(e, RevealBest)]
        table.press("start")  # the scoreboard
    assert asks == []  # not after the rounds
    table.press("next")  # the final standing
    asks = [e for e in table.effects if isinstance(e, RevealBest)]
    assert [a.round for a in asks] == list(range(1, 10))
    for ask in asks:
        table.step(BestRevealed(ask.round, "tests", ask.solve(LIST), table._at()))
    labels = [item.label for item in table.screen.items]
    rows = [label for label in labels if label[:1] == "R" and " – " in label]
    assert len(rows) == 9 and (labels[-1], table.screen.items[-1].value) == ("Wortliste", "tests")
    game = table.state.flow.played.game
    first = next(line for line in asks[0].solve(LIST) if line[0] == "Geli")
    assert rows[0] == f"R1: {first[1] or '—'} – {first[2]}"
    assert first[2] == max((gain(game, "Geli", 1, w) for w in WORDS
                            if w[0] == game.letter(1) and len(w) <= game.max_length(1)), default=0)


def test_solitaire_hint_on_demand_and_the_won_game_says_it_was_hinted() -> None:
    from firmware_host.core.games.quiddler.best_lay import hint
    from firmware_host.core.games.quiddler.deck import STANDARD_DECK
    from firmware_host.core.games.quiddler.notation import format_cards
    from firmware_host.core.games.quiddler.solitaire import new_solitaire
    from tests.test_table_quiddler import Table as QuiddlerTable

    table = QuiddlerTable("quiddler-solitaire")
    table.type("42")
    table.press(Button.START)
    (ask,) = [e for e in table.type("?") if isinstance(e, RevealBest)]
    visible = [face for face in new_solitaire(42).visible if face is not None]
    expected = hint(visible, EN, STANDARD_DECK)
    lines = ask.solve(EN)
    assert lines == (() if expected is None else (("", format_cards(expected.cards), expected.value, "", 0),))
    table.send(BestRevealed, ask.round, "tests", lines)
    word = format_cards(expected.cards) if expected else ""
    assert table.screen.footer == (f"Hinweis: {word} (tests)" if expected else "Kein Wort der Liste (tests)")
    assert table.state.flow.hints == 1
    while table.screen.title.startswith("Solitär"):
        table.type("".join(str(p + 1) for p, item in enumerate(table.screen.items) if not item.label.endswith("–")))
    assert "mit 1 Hinweis(en)" in table.text


def test_without_system_lists_only_a_configured_list_is_used(tmp_path: Path) -> None:
    from firmware_host.shell_effects import WordLists

    assert WordLists(None, tmp_path, system=False)("de") is None
    assert WordLists(None, tmp_path, system=False)("en") is None
    mine = tmp_path / "mine.txt"
    mine.write_text("Fuchs\nFuchsbau\n", encoding="utf-8")
    index = WordLists(mine, tmp_path, system=False)("de")
    assert index is not None and index.name == "mine.txt" and "FUCHSBAU" in index
    assert (tmp_path / "words" / "mine.txt.de.idx").is_file()


def test_prepared_lists_are_built_in_the_background_and_then_served_as_built(tmp_path: Path) -> None:
    from firmware_host.shell_effects import WordLists

    mine = tmp_path / "mine.txt"
    mine.write_text("Fuchs\nFuchsbau\n", encoding="utf-8")
    lists = WordLists(mine, tmp_path, system=False)
    thread = lists.prepare(("de", "en"))
    assert thread.daemon and thread.name == "word-lists"
    thread.join(10)
    assert not thread.is_alive()
    assert (tmp_path / "words" / "mine.txt.de.idx").is_file()  # built before any reveal asked
    index = lists("de")
    assert index is not None and "FUCHSBAU" in index and lists("de") is index
    assert lists("en") is None  # no English list configured and no system lists


def test_the_service_opens_the_german_list_at_start_whether_the_reveal_is_on_or_off(tmp_path: Path) -> None:
    """Das perfekte Wort's word hint asks the German list every round, the reveal or not: building its
    index must not stop the loop at the first round."""
    from firmware_host.appliance import open_appliance
    from firmware_host.config import resolve

    mine = tmp_path / "mine.txt"
    mine.write_text("Fuchs\nFuchsbau\n", encoding="utf-8")
    for reveal, prepare in (("off", True), ("round", True), ("round", False)):
        config = tmp_path / f"{reveal}.toml"
        config.write_text(f'[dictionary]\npath = "{mine}"\nsystem = false\nreveal = "{reveal}"\n', encoding="utf-8")
        state = tmp_path / f"{reveal}-{prepare}"
        appliance = open_appliance(resolve("sim", config, environ={}), state, power_off=lambda: None,
                                   prepare_lists=prepare)
        try:
            for thread in [t for t in threading.enumerate() if t.name == "word-lists"]:
                thread.join(10)
            assert (state / "words" / "mine.txt.de.idx").is_file() is prepare
        finally:
            appliance.close()
