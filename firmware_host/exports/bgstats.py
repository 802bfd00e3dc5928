"""A play (`plays.Play`) in BG Stats' documented import format: the JSON object its "push plays from other
apps" link carries (`https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`). What is filled
and from where: docs/bgstats.md; the shape, as a JSON Schema: docs/bgstats-play.schema.json."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from firmware_host.exports.plays import Play, parse_utc

SOURCE_NAME = "wordtable"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="


def bgstats_play(play: Play) -> dict[str, Any]:
    """The play as BG Stats' import object. `sourcePlayId` is the journal's game id with its start, so a
    play imported twice (or from a restored box) is the same play; `sourcePlayerId` is the person's name,
    unique at the table."""
    started = parse_utc(play.started)
    players: list[dict[str, Any]] = []
    for player in play.players:
        entry: dict[str, Any] = {"name": player.name, "sourcePlayerId": player.name, "winner": player.winner}
        if player.score is not None:
            entry["score"] = player.score
        if player.rank is not None:
            entry["rank"] = player.rank
        players.append(entry)
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{play.game_id}@{play.started}",
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S") if started else play.started,
        "game": {"name": play.title, "sourceGameId": play.game, "highestWins": play.highest_wins,
                 "noPoints": play.no_points},
        "players": players,
    }
    if play.duration_min is not None:
        data["durationMin"] = play.duration_min
    return data


def create_play_link(data: dict[str, Any]) -> str:
    """The link that opens BG Stats' import dialog with the play (on a phone that has the app)."""
    return CREATE_PLAY + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
