"""Named regressions of issue 18 (one text at the edge, the record as a contract) and of issue 11's text
poison (failures 3 and 7): each case as it was reported, and what it does now."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from firmware_host import cli
from firmware_host.core import app
from firmware_host.core.events import TextEntry
from firmware_host.core.games.registry import parse_record
from firmware_host.core.record import RecordError, dump_line
from firmware_host.core.record_schema import record_schema
from firmware_host.core.screens import describe
from firmware_host.core.settings import Settings
from firmware_host.core.text_input import LINE, at_edge
from firmware_host.render import render
from firmware_host.script import event_for, parse_script
from tests.cli import ROOT, wordtable
from tests.game_scripts import PureApp, actions
from tests.schema_check import validator
from tests.screens import PANEL_SIZES

EXAMPLES = ROOT / "docs" / "examples"
POISON = ["\n", "\r", "\x1c", "\x1d", "\x1e", "\x85", "\u2029", "\u2028"]  # issue 11.3, and U+2028


def lines_of(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").split("\n")[:-1]


def score_json(text: str) -> dict:
    from firmware_host.commands.score import score

    return score(parse_record(text)).to_json()


@pytest.fixture
def score_cli(tmp_path, capsys):
    def run(text: str, *args: str) -> tuple[int, str, str]:
        path = tmp_path / "record.jsonl"
        path.write_text(text, encoding="utf-8")
        code = cli.main(["score", str(path), *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


# --- issue 18: the scorer's soft edges -------------------------------------------------------------------


def test_nfd_juergen_is_the_same_player_as_nfc_juergen(score_cli) -> None:
    lines = lines_of("perfektes-wort.jsonl")
    lines[1] = lines[1].replace('"Geli"', '"J\u00fcrgen"')
    lines[2:] = [line.replace('"Geli"', '"Ju\u0308rgen"') for line in lines[2:]]  # NFD, as copy/paste gives
    code, out, err = score_cli("\n".join(lines) + "\n")
    assert code == 0, err
    assert "Jürgen" in out and "not playing" not in err


def test_a_name_with_a_trailing_space_is_the_name(score_cli) -> None:
    lines = lines_of("perfektes-wort.jsonl")
    lines[3] = lines[3].replace('"player": "Geli"', '"player": "Geli "')
    code, out, err = score_cli("\n".join(lines) + "\n", "--json")
    assert code == 0, err
    assert json.loads(out)["players"][0]["rows"][0]["word"] == "FUCHSBAU"


def test_an_invisible_difference_is_shown_in_the_message(score_cli) -> None:
    lines = lines_of("perfektes-wort.jsonl")
    lines[3] = lines[3].replace('"player": "Geli"', '"player": "Geli\u200b"')
    code, out, err = score_cli("\n".join(lines) + "\n", "--lang", "en")
    assert code == 2 and out == ""
    assert "line 4: word: 'player': control character U+200B ZERO WIDTH SPACE not allowed: „Geli⟨U+200B⟩“" in err


def test_u2028_in_a_word_is_written_escaped_and_splits_no_line() -> None:
    line = dump_line({"event": "word", "round": 1, "player": "Geli", "word": "Fuchs\u2028bau\u2029\x85"})
    assert "\u2028" not in line and "\\u2028" in line and "\\u2029" in line and "\\u0085" in line
    assert json.loads(line)["word"] == "Fuchs\u2028bau\u2029\x85"
    lines = lines_of("perfektes-wort.jsonl")
    lines[3] = lines[3].replace("Fuchsbau", "Fuchs\u2028bau")  # raw, as an older writer wrote it
    with pytest.raises(RecordError) as caught:
        score_json("\n".join(lines))
    assert caught.value.line == 4  # the line is one line: the reader splits at "\n" only
    assert "U+2028 LINE SEPARATOR" in str(caught.value)


def test_crlf_and_a_byte_order_mark_are_read(score_cli) -> None:
    text = "\ufeff" + "\r\n".join(lines_of("knack-das-wort.jsonl")) + "\r\n"
    code, out, err = score_cli(text)
    assert code == 0, err
    assert "Gewonnen: Cem" in out


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly() -> None:
    record = str(EXAMPLES / "perfektes-wort.jsonl")  # ten times: more than a pipe's buffer holds
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware_host", "score", "--json", *[record] * 10],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == b"[\n"
    process.stdout.close()  # `| head -1`
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err and err == ""


def test_unfinished_quiddler_names_its_leader_not_a_winner(score_cli) -> None:
    text = "\n".join(lines_of("quiddler.jsonl")[:8]) + "\n"  # round 1 ended, 7 to go
    code, out, err = score_cli(text, "--lang", "en")
    assert code == 0, err
    assert "Leading after 1 of 8 rounds: Ann" in out and "Winner" not in out
    data = json.loads(score_cli(text, "--json")[1])
    assert data["finished"] is False and data["leaders"] == ["Ann"] and "winners" not in data


def test_a_quiddler_round_still_open_is_named_not_refused(score_cli) -> None:
    text = "\n".join(lines_of("quiddler.jsonl")[:10]) + "\n"  # round 2 open, Bob has laid down
    code, out, err = score_cli(text, "--lang", "en")
    assert code == 0, err
    assert "Round 2 is still open (not scored): 1 of 4 have laid down" in out
    assert json.loads(score_cli(text, "--json")[1])["open_round"] == 2


def test_unfinished_perfektes_wort_lists_leaders_and_no_winners(score_cli) -> None:
    text = "\n".join(lines_of("perfektes-wort.jsonl")[:12]) + "\n"
    data = json.loads(score_cli(text, "--json")[1])
    assert data["finished"] is False and data["leaders"] and "winners" not in data
    assert data["shared_win"] is None and not any(p["winner"] for p in data["players"])


def test_every_game_reports_finished_leaders_and_winners_the_same_way(score_cli) -> None:
    for example in sorted(EXAMPLES.glob("*.jsonl")):
        data = json.loads(score_cli(example.read_text(encoding="utf-8"), "--json")[1])
        assert data["finished"] is True and data["winners"] == data["leaders"] and data["leaders"], example
        header, setup, *_rest = lines_of(example.name)
        unfinished = json.loads(score_cli(f"{header}\n{setup}\n", "--json")[1])
        assert unfinished["finished"] is False and "winners" not in unfinished, example
        assert isinstance(unfinished["leaders"], list)


@pytest.mark.parametrize("card", ["F0", "F17", "Z99", "FF"])
def test_card_lengths_no_row_can_hold_are_refused_with_the_line(score_cli, card: str) -> None:
    lines = lines_of("perfektes-wort.jsonl")
    setup = json.loads(lines[1])
    setup["deck"][3] = card
    lines[1] = json.dumps(setup, ensure_ascii=False)
    code, out, err = score_cli("\n".join(lines) + "\n")  # German by default, the deck's problem too
    assert code == 2 and out == ""
    assert "Zeile 2: setup: deck[4]:" in err and ("erlaubt 1 bis 16" in err or "ist keine Karte" in err)
    code, out, err = score_cli("\n".join(lines) + "\n", "--lang", "en")
    assert "line 2: setup: deck[4]:" in err and ("length is 1 to 16" in err or "is not a card" in err)


def test_a_card_line_longer_than_its_row_is_refused_with_its_line() -> None:
    lines = lines_of("perfektes-wort.jsonl")[:2]
    setup = json.loads(lines[1])
    setup["deck"] = setup["deck"][:2]
    lines[1] = json.dumps(setup)
    for card, message in (("K17", "1 to 16"), ("K12", "card 3 allows 12 letters")):  # the rows have 9 cells
        with pytest.raises(RecordError) as caught:
            score_json("\n".join([*lines, f'{{"event": "card", "card": "{card}"}}']))
        assert caught.value.line == 3 and message in caught.value.message


@pytest.mark.parametrize(("line", "message"), [
    ('{"event": "word", "player": "Anna", "letters": 33}', "a word has at most 32 letters, not 33"),
    ('{"event": "word", "player": "Anna", "letters": 1000000000}', "at most 32 letters"),
    ('{"event": "word", "player": "Anna", "word": "' + "A" * 33 + '"}', "too long for a word"),
])
def test_knack_letter_counts_are_bounded(line: str, message: str) -> None:
    lines = [*lines_of("knack-das-wort.jsonl")[:2], line]
    with pytest.raises(RecordError) as caught:
        score_json("\n".join(lines))
    assert caught.value.line == 3 and message in caught.value.message


def test_knack_cards_left_are_bounded() -> None:
    lines = [*lines_of("knack-das-wort.jsonl")[:2], '{"event": "end", "reason": "grid"}',
             '{"event": "left", "player": "Anna", "cards": 100}']
    with pytest.raises(RecordError, match="at most 99 cards left, not 100") as caught:
        score_json("\n".join(lines))
    assert caught.value.line == 4


def test_several_files_and_stdin(tmp_path, capsys, monkeypatch) -> None:
    import io

    knack, quiddler = EXAMPLES / "knack-das-wort.jsonl", EXAMPLES / "quiddler.jsonl"
    assert cli.main(["score", str(knack), str(quiddler)]) == 0
    out = capsys.readouterr().out
    assert f"== {knack} ==" in out and f"== {quiddler} ==" in out
    assert cli.main(["score", "--json", str(knack), str(quiddler)]) == 0
    assert [r["game"] for r in json.loads(capsys.readouterr().out)] == ["knack-das-wort", "quiddler"]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(knack.read_bytes())))
    assert cli.main(["score", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["Cem"]
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"record": "wordtable"}\n', encoding="utf-8")
    assert cli.main(["score", "--lang", "en", str(knack), str(broken), str(tmp_path / "missing.jsonl")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{broken}: line 1" in captured.err and "missing.jsonl: cannot read it" in captured.err


def test_values_in_record_messages_are_shortened() -> None:
    header = '{"record": "wordtable", "version": 1, "game": "' + "x" * 10_000_000 + '"}'
    with pytest.raises(RecordError) as caught:
        parse_record(header)
    assert len(str(caught.value)) < 300
    with pytest.raises(RecordError, match="nested too deeply"):
        parse_record("[" * 100_000 + "]" * 100_000)


# --- the record as a contract ----------------------------------------------------------------------------


def test_the_published_schema_is_the_generated_one(capsys) -> None:
    published = (ROOT / "docs" / "record-schema.json").read_text(encoding="utf-8")
    assert json.loads(published) == record_schema()
    assert cli.main(["score", "--schema"]) == 0
    assert capsys.readouterr().out == published


def test_every_example_line_is_valid_by_the_schema_of_its_game() -> None:
    schema = record_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    for example in sorted(EXAMPLES.glob("*.jsonl")):
        header, *events = [json.loads(line) for line in lines_of(example.name)]
        game = header["game"]
        validator("header").validate(header)
        for event in events:
            validator(game).validate(event)


def test_the_schema_refuses_what_the_reader_refuses() -> None:
    bad = [
        ("knack-das-wort", {"event": "word", "player": "Ge\nli", "word": "HAUS"}),
        ("knack-das-wort", {"event": "word", "player": "Anna", "letters": 33}),
        ("perfektes-wort", {"event": "card", "card": "F17"}),
        ("perfektes-wort", {"event": "card", "card": "F0"}),
        ("quiddler", {"event": "lay", "player": "x" * 17}),
        ("perfect-words", {"event": "term", "player": "A", "arrow": 1}),
    ]
    for game, line in bad:
        assert not validator(game).is_valid(line), line


@pytest.mark.slow
def test_journal_export_as_csv(tmp_path) -> None:
    state = tmp_path / "state"
    played = wordtable("sim", "--script", str(ROOT / "docs" / "scripts" / "knack-das-wort.script"),
                       "--state-dir", str(state))
    assert played.returncode == 0, played.stderr
    result = wordtable("journal", "export", "--format", "csv", "--state-dir", str(state))
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()
    assert rows[0] == "game,round,player,entry,points,total"
    assert "knack-das-wort,1,Anna,Donaudampfschiff,16,16" in rows
    assert rows[-2:] == ["knack-das-wort,end,Anna,2 cards left,-2,49", "knack-das-wort,end,Ben,3 cards left,-3,1"]


# --- issue 11: text poison ------------------------------------------------------------------------------


def test_config_player_name_with_a_newline_is_refused_by_key(tmp_path, capsys) -> None:
    config = tmp_path / "config.toml"
    names = ["Ge\\nli", "Klaus", "Mia\\u2029", "Jo\\u0085", "x\\u001c", "A" * 17]
    config.write_text("[scoreboard]\nplayers = [" + ", ".join(f'"{n}"' for n in names) + "]\n", encoding="utf-8")
    assert cli.main(["check-config", "--profile", "sim", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "scoreboard.players[0]: control character U+000A LINE FEED not allowed: „Ge⟨U+000A⟩li“" in err
    assert "scoreboard.players[2]: control character U+2029 PARAGRAPH SEPARATOR" in err
    assert "scoreboard.players[3]: control character U+0085 NEXT LINE" in err
    assert "scoreboard.players[4]: control character U+001C" in err
    assert "scoreboard.players[5]: too long for a name (at most 16 characters)" in err
    assert "scoreboard.players[1]" not in err and "5 errors" in err


def test_config_names_are_normalised(tmp_path) -> None:
    from firmware_host.config import load_config

    config = tmp_path / "config.toml"
    config.write_text('[scoreboard]\nplayers = ["Ju\\u0308rgen ", " Geli"]\n', encoding="utf-8")
    assert load_config(config).scoreboard.players == ("Jürgen", "Geli")


@pytest.mark.slow  # a 10 MB config
def test_deeply_nested_toml_and_a_10_mb_value_give_short_errors(tmp_path, capsys) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    big = tmp_path / "big.toml"
    big.write_text('[appliance]\nlanguage = "' + "x" * 10_000_000 + '"\n', encoding="utf-8")
    assert cli.main(["check-config", "--profile", "sim", "--config", str(deep)]) == 2
    assert "nested too deeply" in capsys.readouterr().err
    assert cli.main(["check-config", "--profile", "sim", "--config", str(big)]) == 2
    err = capsys.readouterr().err
    assert "appliance.language" in err and len(err) < 500


def _at_word_entry() -> PureApp:
    """Das perfekte Wort, round 1, the first word asked for (the documented script up to there)."""
    pure = PureApp()
    script = actions("perfektes-wort.script")
    first_word = next(a for a in script if a.verb == "type" and a.arg == "Fuchsbau")
    from firmware_host.script import run_script

    run_script([a for a in script if a.line < first_word.line], pure.hooks(), lambda _: None)
    assert "Geli – Runde 1" in describe(app.screen(pure.state))
    return pure


def test_a_million_character_typed_word_is_refused_and_drawn_fast() -> None:
    pure = _at_word_entry()
    word = "Q" * 1_000_000
    edged = at_edge(word, LINE)  # what the keyboard edge journals
    assert len(edged) == 4 * LINE.limit + 1
    for text in (edged, word):  # and the core refuses the whole word, too (a journal of before)
        state, _effects = app.step(pure.state, TextEntry(text, pure.now))
        shown = describe(app.screen(state))
        assert "zu lang für eine Zeile (höchstens 120 Zeichen)" in shown
        assert state.flow == pure.state.flow  # nothing entered
        for size in PANEL_SIZES:
            render(app.screen(state), size)


def test_a_word_longer_than_a_word_is_refused_with_its_bound() -> None:
    pure = _at_word_entry()
    state, _ = app.step(pure.state, TextEntry("F" + "x" * 40, pure.now))
    assert "zu lang für ein Wort (höchstens 32 Zeichen)" in describe(app.screen(state))


@pytest.mark.parametrize("char", POISON)
def test_poison_characters_typed_anywhere_are_refused_with_their_code_point(char: str) -> None:
    pure = _at_word_entry()
    state, effects = app.step(pure.state, TextEntry(f"Fuchs{char}bau", pure.now))
    shown = describe(app.screen(state))
    assert f"Steuerzeichen U+{ord(char):04X}" in shown and state.flow == pure.state.flow
    assert any(getattr(e, "message", "").startswith("Steuerzeichen") for e in effects)  # and in the log
    for size in PANEL_SIZES:
        render(app.screen(state), size)


@pytest.mark.parametrize("char", [c for c in POISON if c != "\n"])  # a script line ends at "\n" only
def test_poison_in_a_script_reaches_the_core_as_typed(char: str) -> None:
    (action,) = parse_script(f"type Fuchs{char}bau\n")
    event = event_for(action, 0.0)
    assert isinstance(event, TextEntry) and char in event.text


def test_poison_names_from_an_old_journal_never_reach_the_screen() -> None:
    snapshot = app.snapshot(app.initial(Settings(player_names=("Geli", "Klaus")))[0])
    snapshot["settings"]["player_names"] = ["Ge\nli", "Klaus"]
    snapshot["board"]["players"] = ["Ge\u2029li", "Klaus", "x" * 1000, "Mia"]
    state = app.restore(snapshot)
    assert state.settings.player_names == ("Klaus",)
    assert state.board.players == ("Spieler 1", "Klaus", "Spieler 3", "Mia")


def test_a_decomposed_umlaut_in_a_word_is_the_umlaut(score_cli) -> None:
    lines = lines_of("perfektes-wort.jsonl")
    assert "Frühling" in lines[4]
    nfc = score_cli("\n".join(lines) + "\n", "--json")[1]
    lines[4] = lines[4].replace("Frühling", "Fru\u0308hling")  # U + combining diaeresis
    code, nfd, err = score_cli("\n".join(lines) + "\n", "--json")
    assert code == 0, err
    assert nfd == nfc


def test_a_lone_combining_mark_is_named_not_shown_bare() -> None:
    lines = lines_of("perfektes-wort.jsonl")
    lines[3] = lines[3].replace("Fuchsbau", "F \u0308uchsbau")  # a mark on a space
    with pytest.raises(RecordError) as caught:
        score_json("\n".join(lines))
    assert caught.value.line == 4 and "U+0308 COMBINING DIAERESIS" in caught.value.message
