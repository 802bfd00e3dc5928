"""`wordtable stats [--person NAME] [--json] [--lang de|en]`: the statistics per person over the games the
journal archived — everyone and the table's recent evenings, or one person's games and wins per game,
average and best totals, best word, think time (Zugzeit's, in minutes and seconds) and rivals.

It opens the journal read-only (safe beside the running service, like `wordtable journal`); `--json` prints
the data the table page's `/api/people` serves (`core.history.report`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from firmware_host.core.games import registry
from firmware_host.core.history import person_json, table_json
from firmware_host.core.i18n import DEFAULT_LANGUAGE, LANGUAGES, Table, pick
from firmware_host.journal import JournalError
from firmware_host.paths import journal_path, state_dir
from firmware_host.played_games import PlayedGames

TEXTS: Table = {
    "de": {
        "none": "noch keine beendeten Spiele",
        "people": "Personen (zuletzt gespielt zuerst)",
        "people_cols": "Name|Spiele|Siege|Serie|zuletzt",
        "evenings": "Die letzten Abende",
        "evening": "{start} – {end} · Spiele: {games} · {wins}",
        "person": "{name} · Spiele: {played} · Siege: {won} · Serie: {streak}",
        "game_cols": "Spiel|Spiele|Siege|Schnitt|Bestes|Bestes Wort",
        "think": "Denkzeit (Zugzeit): {time} min",
        "rivals": "Gegner (direkter Vergleich)",
        "rival": "{rival}: {together} zusammen · {name} {wins} : {their_wins} {rival}",
        "unknown": "niemand namens {name!r} hat ein Spiel beendet",
    },
    "en": {
        "none": "no finished games yet",
        "people": "People (most recently played first)",
        "people_cols": "Name|Games|Wins|Streak|Last played",
        "evenings": "The recent evenings",
        "evening": "{start} – {end} · games: {games} · {wins}",
        "person": "{name} · games: {played} · wins: {won} · streak: {streak}",
        "game_cols": "Game|Games|Wins|Average|Best|Best word",
        "think": "Think time (turn timer): {time} min",
        "rivals": "Rivals (head to head)",
        "rival": "{rival}: {together} together · {name} {wins} : {their_wins} {rival}",
        "unknown": "nobody called {name!r} has finished a game",
    },
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--person", default=None, metavar="NAME", help="one person's statistics (the records' name)")
    parser.add_argument("--json", action="store_true", help="print JSON (what the table page shows)")
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="language of the text")
    parser.add_argument(
        "--state-dir", type=Path, default=None, metavar="DIR",
        help="where the journal is (default: $STATE_DIRECTORY, else /var/lib/wordtable, else ./sim-state)",
    )


def run(args: argparse.Namespace) -> int:
    path = journal_path(state_dir(args.state_dir))
    try:
        games = PlayedGames().read(path)
    except JournalError as exc:
        print(f"wordtable stats: {exc}", file=sys.stderr)
        return 1
    lang = args.lang
    if args.person is None:
        data = table_json(games)
        sys.stdout.write(_json(data) if args.json else table_text(data, lang))
        return 0
    found = person_json(games, args.person)
    if found is None:
        print(f"wordtable stats: {pick(TEXTS, lang, 'unknown', name=args.person)}", file=sys.stderr)
        return 1
    sys.stdout.write(_json(found) if args.json else person_text(found, lang))
    return 0


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def table_text(data: dict[str, Any], lang: str) -> str:
    """Everyone and the recent evenings (`core.history.table_json`) as text."""
    if not data["people"]:
        return pick(TEXTS, lang, "none") + "\n"
    rows = [pick(TEXTS, lang, "people_cols").split("|")]
    rows += [[p["name"], str(p["played"]), str(p["won"]), str(p["streak"]), p["last_played"]] for p in data["people"]]
    lines = [pick(TEXTS, lang, "people"), *_columns(rows), "", pick(TEXTS, lang, "evenings")]
    lines += ["  " + _evening(evening, lang) for evening in data["evenings"]]
    return "\n".join(lines) + "\n"


def person_text(data: dict[str, Any], lang: str) -> str:
    """One person's statistics (`core.history.person_json`) as text."""
    def t(key: str, **fields: object) -> str:
        return pick(TEXTS, lang, key, **fields)

    lines = [t("person", name=data["name"], played=data["played"], won=data["won"], streak=data["streak"])]
    rows = [t("game_cols").split("|")]
    for stats in data["games"]:
        if stats["think_time"] is not None:
            continue  # a time, never shown as points: its own line
        word = stats["best_word"]
        rows.append([_title(stats["game"], lang), str(stats["played"]),
                     str(stats["won"]) if stats["with_winner"] else "–", _number(stats["average"]),
                     _number(stats["best_total"]), f"{word['word']} ({word['points']})" if word else "–"])
    if len(rows) > 1:
        lines += _columns(rows)
    timed = [stats for stats in data["games"] if stats["think_time"] is not None]
    lines += ["  " + t("think", time=stats["think_time"]) for stats in timed]
    if data["rivals"]:
        lines += ["", t("rivals")]
        lines += ["  " + t("rival", rival=r["name"], together=r["together"], name=data["name"], wins=r["wins"],
                           their_wins=r["their_wins"]) for r in data["rivals"]]
    if data["evenings"]:
        lines += ["", t("evenings")]
        lines += ["  " + _evening(evening, lang) for evening in data["evenings"]]
    return "\n".join(lines) + "\n"


def _evening(evening: dict[str, Any], lang: str) -> str:
    wins = ", ".join(f"{name} {n}" for name, n in evening["wins"].items())
    return pick(TEXTS, lang, "evening", start=_when(evening["started"]), end=_when(evening["finished"])[11:],
                games=len(evening["games"]), wins=wins)


def _when(label: str) -> str:
    """A wall-clock label to the minute ("2026-05-01 19:00"), as the records hold it (UTC)."""
    return label.replace("T", " ")[:16]


def _title(game: str, lang: str) -> str:
    kit = registry.kit(game)
    return kit.name(lang) if kit is not None else game


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:g}"


def _columns(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows]
