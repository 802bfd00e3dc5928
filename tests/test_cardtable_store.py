"""Card tables saved in and loaded from the state directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cardtable_store import CardTableError, load_game_table, load_table, save_table, table_path
from firmware_host.core.cards import CardTable, Enrolment


@pytest.mark.slow
def test_enrolled_table_round_trips(tmp_path: Path) -> None:
    state = Enrolment.start("quiddler", ["Ä", "QU"])
    state, _ = state.scan("62E3086CED")
    state, _ = state.scan("0A1B2C3D4E")
    path = save_table(tmp_path, state.table())
    assert path == table_path(tmp_path, "quiddler") and not path.with_suffix(".json.tmp").exists()
    expected = CardTable("quiddler", {"62E3086CED": "Ä", "0A1B2C3D4E": "QU"})
    assert load_game_table(tmp_path, "quiddler") == expected


def test_missing_table_is_none(tmp_path: Path) -> None:
    assert load_game_table(tmp_path, "quiddler") is None


def test_hand_written_toml(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text('cardtable = 1\ngame = "perfektes-wort"\n[cards]\nPW001L = "B/7"\n', encoding="utf-8")
    assert load_table(path).lookup("PW001L").face == "B/7"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "must hold a table"),
        ('{"cardtable": 2, "game": "x", "cards": {}}', "cardtable: version 2"),
        ('{"cardtable": 1, "cards": {}}', "game:"),
        ('{"cardtable": 1, "game": "x", "cards": []}', "cards: must map"),
        ('{"cardtable": 1, "game": "x", "cards": {"AB": 3}}', "cards.AB:"),
    ],
)
def test_bad_files_name_the_problem(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardTableError, match=message):
        load_table(path)


def test_table_of_another_game_refused(tmp_path: Path) -> None:
    save_table(tmp_path, CardTable("quiddler", {"A": "B"}))
    table_path(tmp_path, "quiddler").rename(table_path(tmp_path, "knack-das-wort"))
    with pytest.raises(CardTableError, match="holds 'quiddler'"):
        load_game_table(tmp_path, "knack-das-wort")
