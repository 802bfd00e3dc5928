"""`wordtable journal list|export`: the games kept in the journal, and one of them as a game record (JSON
Lines, for `wordtable score`) or, with `--format csv`, as a spreadsheet: one row per player per round
(columns game, round, player, entry, points, total; see docs/record-format.md). As plays, for score apps
(`firmware_host.exports`): `--format bgstats` is the game as a play in BG Stats' import format
(docs/bgstats.md), `--format plays` a CSV with one row per player per play; with `--all`, every game
(BG Stats: one play a line).

Both open the journal read-only, so they are safe beside the running service (run them as the service's
user, e.g. `sudo -u wordtable wordtable journal list`, since the state directory is the service's).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path

from firmware_host.core.games.registry import parse_record, score
from firmware_host.core.record import RecordError
from firmware_host.exports.bgstats import bgstats_play
from firmware_host.exports.plays import Play, play_of, plays_csv
from firmware_host.journal import GameSummary, Journal, JournalError
from firmware_host.journal_games import recorded, resumed_ids
from firmware_host.paths import journal_path, state_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--state-dir", type=Path, default=None, metavar="DIR",
        help="where the journal is (default: $STATE_DIRECTORY, else /var/lib/wordtable, else ./sim-state)",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("list", parents=[common], help="list the games: id, date, game, players, winner")
    export = actions.add_parser(
        "export", parents=[common], help="print a game as a record (JSON Lines) for `wordtable score`"
    )
    export.add_argument("--game", type=int, default=None, metavar="ID", help="the game (default: the latest)")
    export.add_argument(
        "--format", choices=FORMATS, default="jsonl",
        help="jsonl: the game record (default); csv: one row per player per round, scored; bgstats: the game "
             "as a play in BG Stats' import format (docs/bgstats.md); plays: CSV, one row per player per play",
    )
    export.add_argument("--all", action="store_true",
                        help="every game, oldest first (with --format bgstats: one play a line; or plays)")


FORMATS = ("jsonl", "csv", "bgstats", "plays")
PLAY_FORMATS = ("bgstats", "plays")  # what `--all` takes: a record is one game's, plays can be many


def run(args: argparse.Namespace) -> int:
    if args.action == "export" and args.all and (args.format not in PLAY_FORMATS or args.game is not None):
        print("wordtable journal: --all exports plays (--format bgstats or plays), not with --game", file=sys.stderr)
        return 2
    path = journal_path(state_dir(args.state_dir))
    try:
        with Journal.open(path, readonly=True) as journal:
            games = journal.games()
            kept = recorded(games, resumed_ids(journal, games))
            if args.action == "list":
                text = list_text(kept)
            elif args.all:
                plays = []
                for game in kept:
                    game_id = game.id  # named by the message when it cannot be scored
                    plays.append(play_of(game, journal.export_record(game.id)))
                text = plays_text(plays, args.format)
            else:
                game_id = (kept[-1].id if kept else None) if args.game is None else args.game
                kept = recorded(games)  # a part of a resumed game is exported as it was, by its id
                if game_id is None:
                    print(f"wordtable journal: no games in {path}", file=sys.stderr)
                    return 1
                other = next((g for g in games if g.id == game_id and g not in kept), None)
                if other is not None:
                    print(f"wordtable journal: {game_id} is the box's own log ({other.game}), not a game with "
                          "a record; `wordtable journal list` shows the games", file=sys.stderr)
                    return 1
                if args.format in PLAY_FORMATS:
                    text = plays_text([play_of(journal.game(game_id), journal.export_record(game_id))], args.format)
                else:
                    text = journal.export_record(game_id)
                    if args.format == "csv":
                        text = csv_text(text)
    except JournalError as exc:
        print(f"wordtable journal: {exc}", file=sys.stderr)
        return 1
    except RecordError as exc:
        print(f"wordtable journal: game {game_id} cannot be scored: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


def plays_text(plays: list[Play], form: str) -> str:
    """Plays as BG Stats' import objects (one JSON object a line) or as the plays CSV."""
    if form == "plays":
        return plays_csv(plays)
    return "".join(json.dumps(bgstats_play(play), ensure_ascii=False) + "\n" for play in plays)


CSV_COLUMNS = ("game", "round", "player", "entry", "points", "total")


def csv_text(record: str) -> str:
    """A record scored and written as CSV (`CSV_COLUMNS`, a header row first). Raises `RecordError`."""
    parsed = parse_record(record)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in score(parsed).rows():
        writer.writerow((parsed.game, row.round, row.player, row.entry, row.points, row.total))
    return out.getvalue()


def list_text(games: list[GameSummary]) -> str:
    """The table `journal list` prints: one game a line, oldest first."""
    if not games:
        return "no games yet\n"
    rows = [("id", "date", "game", "players", "winner")]
    for game in games:
        winner = game.winner or ("(open)" if game.finished is None else "-")
        rows.append((str(game.id), game.started, game.game, ", ".join(game.players), winner))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)) + "  " + row[-1] + "\n"
        for row in rows
    )
