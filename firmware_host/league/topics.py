"""The league's topics and broker URL (docs/league.md "Topics"). One place for the names both sides use.

    wordtable/<venue>/<table>/state    retained, QoS 0: what the table plays now (docs/league-state.schema.json)
    wordtable/<venue>/<table>/status   retained, QoS 0: {"online": bool}; the Last Will says offline
    wordtable/<venue>/<table>/games    QoS 1: each finished game until the league acknowledges it, kept once by
                                       its id (docs/league-game.schema.json)
    wordtable/<venue>/<table>/ack      retained, QoS 1, written by the league: the ids of the table's games it
                                       has stored (docs/league-ack.schema.json)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

ROOT = "wordtable"
STATE, STATUS, GAMES, ACK = "state", "status", "games", "ack"
KINDS = (STATE, STATUS, GAMES, ACK)
FROM_TABLES = (STATE, STATUS, GAMES)  # what a table writes and the league reads; the league writes ACK
QOS = {STATE: 0, STATUS: 0, GAMES: 1, ACK: 1}  # state and status are retained: the latest is all that counts
MAX_PAYLOAD = 1024 * 1024  # the largest message either side sends or takes
_LEVEL = re.compile(r"[A-Za-z0-9_-]{1,64}")


class TopicError(ValueError):
    """A venue/table name or broker URL that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class Broker:
    host: str
    port: int
    tls: bool
    username: str | None = None  # from the URL's user part (the config's keys take precedence)
    password: str | None = None


def check_level(name: str) -> str:
    """A venue or table name as a topic level: 1–64 of A–Z a–z 0–9 _ - (no MQTT wildcards or slashes)."""
    if not _LEVEL.fullmatch(name):
        raise TopicError(f"{name!r} is no topic name: use 1-64 letters, digits, '_' or '-'")
    return name


def topic(venue: str, table: str, kind: str) -> str:
    return f"{ROOT}/{check_level(venue)}/{check_level(table)}/{kind}"


def venue_filter(venue: str, kind: str) -> str:
    """The subscription that sees `kind` on every table of a venue."""
    return f"{ROOT}/{check_level(venue)}/+/{kind}"


def split(name: str) -> tuple[str, str, str] | None:
    """(venue, table, kind) of a league topic, or None for any other."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] not in KINDS:
        return None
    if not (_LEVEL.fullmatch(parts[1]) and _LEVEL.fullmatch(parts[2])):
        return None
    return parts[1], parts[2], parts[3]


def parse_broker(url: str) -> Broker:
    """`mqtt://host[:port]` (1883) or `mqtts://host[:port]` (8883, TLS). Raises `TopicError`."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise TopicError(f"{url!r} is no broker URL: {exc}") from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise TopicError(f"{url!r}: the broker URL starts with mqtt:// or mqtts://")
    if not parts.hostname:
        raise TopicError(f"{url!r}: the broker URL names no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise TopicError(f"{url!r}: a broker URL is mqtt[s]://host[:port], nothing after it")
    tls = parts.scheme == "mqtts"
    return Broker(parts.hostname, port or (8883 if tls else 1883), tls,
                  unquote(parts.username) if parts.username else None,
                  unquote(parts.password) if parts.password else None)
