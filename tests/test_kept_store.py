"""Kept items in the state directory: atomic JSON files, read back at start, checked by kind."""

import re
from pathlib import Path

import pytest

from firmware_host.core.cards import CardTable, kept_name, table_data
from firmware_host.core.event_codec import decode, encode
from firmware_host.core.events import kept_event
from firmware_host.kept_store import kept_path, load_kept, save_kept


def test_items_round_trip_and_the_event_survives_the_journal_codec(tmp_path: Path) -> None:
    scores = {"highscores": 1, "entries": [{"name": "Mia", "total": 180, "side": "profi", "label": ""}]}
    table = table_data(CardTable("quiddler", {"62E3086CED": "QU"}))
    save_kept(tmp_path, "highscores/perfektes-wort", scores)
    path = save_kept(tmp_path, kept_name("quiddler"), table)
    assert path == tmp_path / "kept" / "cards" / "quiddler.json" and not path.with_suffix(".json.tmp").exists()
    items, problems = load_kept(tmp_path)
    assert items == {"highscores/perfektes-wort": scores, "cards/quiddler": table} and problems == []
    event = kept_event(items, 3.0)
    assert decode(encode(event)) == event


def test_a_journaled_cards_event_of_old_reads_as_kept_card_tables() -> None:
    old = {"type": "cards", "tables": {"quiddler": {"A1": "QU"}}, "at": 1.0}
    assert decode(old) == kept_event({"cards/quiddler": table_data(CardTable("quiddler", {"A1": "QU"}))}, 1.0)


def test_an_enrolled_table_from_before_kept_is_still_read(tmp_path: Path) -> None:
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "quiddler.json").write_text(
        '{"cardtable": 1, "game": "quiddler", "cards": {"A1": "QU"}}', encoding="utf-8")
    items, _ = load_kept(tmp_path)
    assert items == {"cards/quiddler": table_data(CardTable("quiddler", {"A1": "QU"}))}


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("highscores/perfektes-wort", '{"highscores": 1, "entries": [{"name": "Mia"}]}', "entries\\[1\\]"),
        ("highscores/perfektes-wort", '{"entries": []}', "highscores: version"),
        ("cards/quiddler", '{"cardtable": 1, "game": "knack-das-wort", "cards": {}}', "holds 'knack-das-wort'"),
        ("anything", "{", "not valid JSON"),
    ],
)
def test_a_damaged_item_is_left_out_and_named(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = kept_path(tmp_path, name)
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    items, problems = load_kept(tmp_path)
    assert items == {} and len(problems) == 1
    assert str(path) in problems[0]
    assert re.search(message, problems[0])


@pytest.mark.parametrize("name", ["../evil", "/abs", "Cards/x", "a//b", ""])
def test_a_name_that_is_no_safe_path_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="kept item name"):
        kept_path(tmp_path, name)
