"""`wordtable league export`: the season (or the evening) as CSV — one row per player per game — and as
JSON Lines — one game per line, with its record and its score report."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from firmware_host.league.store import LeagueStore

CSV_COLUMNS = ("id", "venue", "table", "game", "started", "finished", "received", "played", "player", "points",
               "won", "complete", "problem")


def export(store: LeagueStore, directory: Path, since: str | None = None) -> tuple[Path, Path, int]:
    """Write `league-games.csv` and `league-games.jsonl` into `directory` (the games played since `since`,
    when given); returns both and the games."""
    directory.mkdir(parents=True, exist_ok=True)
    csv_path, jsonl_path = directory / "league-games.csv", directory / "league-games.jsonl"
    count = 0
    with csv_path.open("w", newline="", encoding="utf-8") as table, jsonl_path.open("w", encoding="utf-8") as lines:
        writer = csv.writer(table)
        writer.writerow(CSV_COLUMNS)
        for game in store.games(since):
            count += 1
            results = store.results(game["id"])
            winners = set((game["report"] or {}).get("winners", []))
            for player in game["players"] or list(results):
                writer.writerow([game["id"], game["venue"], game["table"], game["game"], game["started"] or "",
                                 game["finished"] or "", game["received"], game["played"], player,
                                 results.get(player, ""), int(player in winners), int(game["complete"]),
                                 game["problem"] or ""])
            lines.write(json.dumps({**game, "results": results}, ensure_ascii=False) + "\n")
    return csv_path, jsonl_path, count
