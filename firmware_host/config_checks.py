"""What the keys of the user config cannot say one by one (`config.parse_config` runs these after each key
was read): the turn timer's combinations, the page's address, the league's broker and topic levels, and the
files the config names — as the service will use them."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Any

from firmware_host.core.settings import MAX_TURN_S, MIN_TURN_S
from hw.schema import Errors


def check_sections(raw: dict[str, dict[str, Any]], errors: Errors) -> None:
    """Append to `errors` what the sections of `raw` (read key by key) say together."""
    _check_turn_timer(raw["turn_timer"], errors)
    _check_page(raw["page"], errors)
    _check_league(raw["league"], errors)
    _check_files(raw, errors)


def _check_turn_timer(turns: dict[str, Any], errors: Errors) -> None:
    """What the keys of `[turn_timer]` cannot say one by one."""
    if isinstance(turns["increment_s"], int) and isinstance(turns["delay_s"], int) and turns["increment_s"] \
            and turns["delay_s"]:
        errors.append(("turn_timer.delay_s", "a Fischer increment (turn_timer.increment_s) and a Bronstein "
                       "delay cannot both be set: set one of them to 0"))
    game_turn = turns["game_turn_s"]
    if isinstance(game_turn, int) and 0 < game_turn < MIN_TURN_S:
        errors.append(("turn_timer.game_turn_s",
                       f"{game_turn} is too short: 0 (no limit) or {MIN_TURN_S}–{MAX_TURN_S}"))


def _check_page(page: dict[str, Any], errors: Errors) -> None:
    bind = page["bind"]
    if isinstance(bind, str):
        try:
            ipaddress.ip_address(bind)
        except ValueError:
            errors.append(("page.bind", f"{bind!r} is not an IP address (e.g. \"0.0.0.0\" or \"127.0.0.1\")"))


def _check_league(league: dict[str, Any], errors: Errors) -> None:
    """The broker's URL and the topic levels (`league.url`, `wordtable/<venue>/<table>/…`)."""
    from firmware_host.league.topics import TopicError, check_level, parse_broker

    broker = league["broker"]
    if isinstance(broker, str):
        try:
            parse_broker(broker)
        except TopicError as exc:
            errors.append(("league.broker", str(exc)))
    for key in ("venue", "table"):
        if isinstance(league[key], str):
            try:
                check_level(league[key])
            except TopicError as exc:
                errors.append((f"league.{key}", str(exc)))
    if isinstance(league["password"], str) and league["username"] is None:
        errors.append(("league.password", "a password needs its league.username"))


MAX_WORD_LIST_BYTES = 64 * 1024 * 1024  # a word list is a few MB (wngerman: 4 MB); beyond this it is no list


def _check_files(raw: dict[str, dict[str, Any]], errors: Errors) -> None:
    """The files a config names, as the service will use them: a word list that is there must be a
    regular file of a word list's size (a device such as /dev/zero, a pipe or a folder never ends or never
    reads; one that is not there only leaves the assist off, as `doctor` says); a `ca_file` must be there
    and hold certificates, since the league cannot connect without it."""
    words = raw["dictionary"]["path"]
    if isinstance(words, str):
        problem = _not_a_file(Path(words), MAX_WORD_LIST_BYTES, missing_ok=True)
        if problem:
            errors.append(("dictionary.path", problem))
    ca_file = raw["league"]["ca_file"]
    if isinstance(ca_file, str):
        problem = _not_a_file(Path(ca_file), MAX_WORD_LIST_BYTES, missing_ok=False) or _not_certificates(ca_file)
        if problem:
            errors.append(("league.ca_file", problem))


def _not_a_file(path: Path, limit: int, *, missing_ok: bool) -> str | None:
    """Why `path` cannot be read as a file of at most `limit` bytes (None: it can, or is missing and
    `missing_ok`)."""
    import stat

    try:
        found = path.stat()
    except FileNotFoundError:
        return None if missing_ok else f"{path} is not there"
    except OSError as exc:
        return f"{path} cannot be looked at: {exc.strerror or exc}"
    if not stat.S_ISREG(found.st_mode):
        kind = "a folder" if stat.S_ISDIR(found.st_mode) else "a device or pipe, not a file"
        return f"{path} is {kind}: name a file"
    if found.st_size > limit:
        mb = 1024 * 1024
        return f"{path} is {found.st_size // mb} MB: too large for this ({limit // mb} MB at most)"
    if not os.access(path, os.R_OK):
        return f"{path} cannot be read (its permissions)"
    return None


def _not_certificates(path: str) -> str | None:
    """Why the file at `path` holds no certificate an encrypted connection could be checked with."""
    import ssl

    try:
        ssl.create_default_context(cafile=path)
    except (ssl.SSLError, OSError, ValueError) as exc:
        return f"{path} holds no certificates TLS can use ({exc})"
    return None
