"""The user config (optional TOML: /etc/wordtable/config.toml on the Pi, or `--config FILE`) and the
resolved configuration: board profile + user config, validated together, printable as TOML.

Every error is reported with its dotted key; `ConfigError` carries the whole list.
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

from drivers.keymap import DEFAULT_LAYOUT, LAYOUTS
from firmware_host.core.alarm import MAX_ALARM_S
from firmware_host.core.i18n import DEFAULT_LANGUAGE, LANGUAGES
from firmware_host.core.settings import (
    MAX_BANK_S,
    MAX_EXTRA_S,
    MAX_IDLE_MIN,
    MAX_TURN_S,
    MIN_BANK_S,
    MIN_TURN_S,
    OVER_CHOICES,
    REVEAL_CHOICES,
    TURN_MODES,
    Settings,
    TurnSettings,
)
from firmware_host.core.sounds import VOLUMES
from firmware_host.core.text_input import NAME
from hw.profile import Profile, ProfileError, load_profile, profile_path
from hw.schema import (
    Errors,
    Field,
    ValidationError,
    boolean,
    integer,
    listing,
    load_toml,
    read_sections,
    shown_text,
    text,
)

DEFAULT_CONFIG_PATH = Path("/etc/wordtable/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/wordtable")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_DURATION_S = 99 * 60 + 59  # what the OLED can show as MM:SS


class ConfigError(ValidationError):
    """The user config is unusable; `errors` lists (dotted key, message) for every problem."""


@dataclass(frozen=True, slots=True)
class ApplianceConfig:
    language: str
    state_dir: Path


@dataclass(frozen=True, slots=True)
class TimerConfig:
    duration_s: int
    presets: tuple[int, ...]
    warn_s: int  # 0 = no warning beeps
    alarm_s: int  # the end alarm rings on this long at most (any button silences it); 0 = once
    volume: str  # off | soft | normal | loud


@dataclass(frozen=True, slots=True)
class TurnTimerConfig:
    """`[turn_timer]`: the turn timer's defaults (the table changes them at each game's setup) and the
    per-turn limit inside Knack das Wort and Quiddler (`game_turn_s`, 0: none)."""

    mode: str  # limit | bank | hourglass | sudden-death
    turn_s: int  # the per-turn limit (mode limit)
    over: str  # mode limit, past the limit: beep (count on) | end (the turn ends)
    bank_s: int  # each player's time (bank, hourglass, sudden-death)
    increment_s: int  # Fischer increment per turn (bank, sudden-death)
    delay_s: int  # Bronstein delay per turn (bank, sudden-death)
    game_turn_s: int

    def settings(self) -> TurnSettings:
        return TurnSettings(self.mode, self.turn_s, self.over, self.bank_s, self.increment_s, self.delay_s,
                            self.game_turn_s)


@dataclass(frozen=True, slots=True)
class ScreenConfig:
    """`[screen]`: the OLED's contrast 0–255, and the idle minutes before it dims and before it goes dark
    (the burn-in guard); 0: never."""

    contrast: int
    dim_after_min: int
    blank_after_min: int


@dataclass(frozen=True, slots=True)
class ScoreboardConfig:
    players: tuple[str, ...]  # empty: the UI names them "Spieler 1…"


REVEAL_WORDS = ("allowed", "all")  # `[dictionary] reveal_words`


@dataclass(frozen=True, slots=True)
class DictionaryConfig:
    """`[dictionary]`: the German word list (else, when `system`, Debian's `wngerman`; English: `wamerican`
    or `wbritish` when `system`), when the best play is revealed: "round" (after each round's review),
    "end" (Das perfekte Wort: the nine at the end), "off", and which of the German list's words the reveal
    may offer: "allowed" (base forms, no proper names, by the system's Ding lexicon when `system`) or "all"."""

    path: Path | None
    reveal: str = "round"
    system: bool = True
    reveal_words: str = "allowed"


@dataclass(frozen=True, slots=True)
class KeyboardLayoutConfig:
    layout: str  # the USB keyboards' layout: "de" (QWERTZ) or "us" (`drivers.keymap.LAYOUTS`)


@dataclass(frozen=True, slots=True)
class LoggingConfig:
    level: str


@dataclass(frozen=True, slots=True)
class PageConfig:
    """`[page]`: the table page (phones join the box). `enabled` unset: on with real pins, off on mock pins
    (the simulator); see `page_enabled`."""

    enabled: bool | None
    port: int
    bind: str


@dataclass(frozen=True, slots=True)
class LeagueConfig:
    """`[league]`: report to a venue's league over MQTT (docs/league.md). `broker` unset: the box is an
    island. `mqtts://` connects with TLS, checked against `ca_file` (unset: the system's CAs)."""

    broker: str | None
    venue: str
    table: str
    username: str | None
    password: str | None
    ca_file: Path | None

    @property
    def enabled(self) -> bool:
        return self.broker is not None


@dataclass(frozen=True, slots=True)
class Config:
    appliance: ApplianceConfig
    timer: TimerConfig
    turn_timer: TurnTimerConfig
    screen: ScreenConfig
    scoreboard: ScoreboardConfig
    dictionary: DictionaryConfig
    logging: LoggingConfig
    page: PageConfig = PageConfig(None, 8080, "0.0.0.0")
    keyboard: KeyboardLayoutConfig = KeyboardLayoutConfig(DEFAULT_LAYOUT)
    league: LeagueConfig = LeagueConfig(None, "cafe", "table", None, None, None)
    source: str | None = None  # the file it came from; None: built-in defaults


@dataclass(frozen=True, slots=True)
class Resolved:
    """What the appliance runs with: the board profile and the user config."""

    profile: Profile
    config: Config


_DURATION = integer(1, MAX_DURATION_S)
_TURNS = TurnSettings()  # the turn timer's defaults


def _sections(state_dir: Path) -> dict[str, tuple[dict[str, Field], bool]]:
    return {
        "appliance": (
            {
                "language": Field(text(LANGUAGES), DEFAULT_LANGUAGE),
                "state_dir": Field(text(), str(state_dir)),
            },
            False,
        ),
        "timer": (
            {
                "duration_s": Field(_DURATION, 60),
                "presets": Field(
                    listing(_DURATION, min_len=1, max_len=8, unique=True), (30, 60, 90, 120, 180)
                ),
                "warn_s": Field(integer(0, 60), 10),
                "alarm_s": Field(integer(0, MAX_ALARM_S), Settings().alarm_s),
                "volume": Field(text(VOLUMES), "normal"),
            },
            False,
        ),
        "turn_timer": (
            {
                "mode": Field(text(TURN_MODES), _TURNS.mode),
                "turn_s": Field(integer(MIN_TURN_S, MAX_TURN_S), _TURNS.turn_s),
                "over": Field(text(OVER_CHOICES), _TURNS.over),
                "bank_s": Field(integer(MIN_BANK_S, MAX_BANK_S), _TURNS.bank_s),
                "increment_s": Field(integer(0, MAX_EXTRA_S), _TURNS.increment_s),
                "delay_s": Field(integer(0, MAX_EXTRA_S), _TURNS.delay_s),
                "game_turn_s": Field(integer(0, MAX_TURN_S), _TURNS.game_turn_s),
            },
            False,
        ),
        "screen": (
            {
                "contrast": Field(integer(0, 255), Settings().contrast),
                "dim_after_min": Field(integer(0, MAX_IDLE_MIN), Settings().dim_after_min),
                "blank_after_min": Field(integer(0, MAX_IDLE_MIN), Settings().blank_after_min),
            },
            False,
        ),
        "scoreboard": (
            {"players": Field(listing(shown_text(NAME), min_len=2, max_len=8, unique=True), ())},
            False,
        ),
        "dictionary": (
            {
                "path": Field(text(), None),
                "reveal": Field(text(REVEAL_CHOICES), "round"),
                "system": Field(boolean(), True),
                "reveal_words": Field(text(REVEAL_WORDS), "allowed"),
            },
            False,
        ),
        "logging": ({"level": Field(text(LOG_LEVELS), "INFO")}, False),
        "page": (
            {
                "enabled": Field(boolean(), None),
                "port": Field(integer(0, 65535), 8080),
                "bind": Field(text(), "0.0.0.0"),
            },
            False,
        ),
        "keyboard": ({"layout": Field(text(tuple(LAYOUTS)), DEFAULT_LAYOUT)}, False),
        "league": (
            {
                "broker": Field(text(), None),
                "venue": Field(text(max_len=64), "cafe"),
                "table": Field(text(max_len=64), "table"),
                "username": Field(text(), None),
                "password": Field(text(), None),
                "ca_file": Field(text(), None),
            },
            False,
        ),
    }


def parse_config(
    data: Mapping[str, Any], source: str | None = None, *, environ: Mapping[str, str] | None = None
) -> Config:
    """Validate a parsed TOML document. `state_dir` defaults to systemd's $STATE_DIRECTORY, else
    /var/lib/wordtable. Raises ConfigError with every error."""
    env = os.environ if environ is None else environ
    state_default = (
        Path(env["STATE_DIRECTORY"].split(":")[0]) if env.get("STATE_DIRECTORY") else DEFAULT_STATE_DIR
    )
    errors: Errors = []
    raw = read_sections(data, _sections(state_default), errors)
    _check_turn_timer(raw["turn_timer"], errors)
    _check_page(raw["page"], errors)
    _check_league(raw["league"], errors)
    if errors:
        raise ConfigError(errors)
    dictionary = raw["dictionary"]["path"]
    return Config(
        appliance=ApplianceConfig(
            language=raw["appliance"]["language"], state_dir=Path(raw["appliance"]["state_dir"])
        ),
        timer=TimerConfig(**raw["timer"]),
        turn_timer=TurnTimerConfig(**raw["turn_timer"]),
        screen=ScreenConfig(**raw["screen"]),
        scoreboard=ScoreboardConfig(players=raw["scoreboard"]["players"]),
        dictionary=DictionaryConfig(
            path=None if dictionary is None else Path(dictionary),
            reveal=raw["dictionary"]["reveal"],
            system=raw["dictionary"]["system"],
            reveal_words=raw["dictionary"]["reveal_words"],
        ),
        logging=LoggingConfig(**raw["logging"]),
        page=PageConfig(**raw["page"]),
        keyboard=KeyboardLayoutConfig(**raw["keyboard"]),
        league=_league(raw["league"]),
        source=source,
    )


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


def _league(raw: dict[str, Any]) -> LeagueConfig:
    ca_file = raw["ca_file"]
    return LeagueConfig(raw["broker"], raw["venue"], raw["table"], raw["username"], raw["password"],
                        None if ca_file is None else Path(ca_file))


def page_enabled(resolved: Resolved, asked: bool = False) -> bool:
    """Whether the table page is served: as the config says; unset, on with real pins and off on mock pins
    unless `asked` (`wordtable sim --page`)."""
    enabled = resolved.config.page.enabled
    if enabled is not None:
        return enabled
    return asked or resolved.profile.board.pin_factory != "mock"


def load_config(path: Path | None = None, *, environ: Mapping[str, str] | None = None) -> Config:
    """Load the user config from `path`; None: /etc/wordtable/config.toml if it exists, else the defaults.
    An explicitly given file must exist. Raises ConfigError."""
    if path is None:
        if not DEFAULT_CONFIG_PATH.is_file():
            return parse_config({}, None, environ=environ)
        path = DEFAULT_CONFIG_PATH
    try:
        data = load_toml(path, "config")
    except ValidationError as exc:
        raise ConfigError(exc.errors) from None
    return parse_config(data, str(path), environ=environ)


class ResolveError(ValidationError):
    """The profile and/or the user config are unusable. `profile_errors` and `config_errors` hold the
    (dotted key, message) pairs; `errors` holds both with the key prefixed by its file."""

    def __init__(
        self, profile_source: str, profile_errors: Errors, config_source: str, config_errors: Errors
    ):
        self.profile_errors = list(profile_errors)
        self.config_errors = list(config_errors)
        super().__init__(
            [(f"{profile_source}: {key}", message) for key, message in profile_errors]
            + [(f"{config_source}: {key}", message) for key, message in config_errors]
        )


def resolve(
    profile: str | Path = "default", config: Path | None = None, *, environ: Mapping[str, str] | None = None
) -> Resolved:
    """Load the board profile (bundled name or path) and the user config (see `load_config`) together.
    Raises ResolveError listing the errors of both."""
    profile_errors: Errors = []
    config_errors: Errors = []
    loaded_profile: Profile | None = None
    loaded_config: Config | None = None
    try:
        loaded_profile = load_profile(profile)
    except ProfileError as exc:
        profile_errors = exc.errors
    try:
        loaded_config = load_config(config, environ=environ)
    except ConfigError as exc:
        config_errors = exc.errors
    if loaded_profile is None or loaded_config is None:
        raise ResolveError(
            str(profile_path(profile)), profile_errors, str(config or DEFAULT_CONFIG_PATH), config_errors
        )
    return Resolved(loaded_profile, loaded_config)


def _toml_value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"0x{value:02X}" if key == "address" else str(value)
    if isinstance(value, (str, Path)):
        return json.dumps(str(value), ensure_ascii=False)
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(key, v) for v in value) + "]"
    return json.dumps(value)


def _dump_sections(obj: Any, comment: str = "") -> list[str]:
    """Each dataclass field of `obj` as a TOML section; a value that is not set (None, an empty list) as a
    comment. `comment` ("# ") makes every line a comment."""
    lines: list[str] = []
    for f in fields(obj):
        section = getattr(obj, f.name)
        if not is_dataclass(section):
            continue
        lines.append(f"{comment}[{f.name}]")
        for g in fields(section):
            value = getattr(section, g.name)
            unset = value is None or value == () or g.name == "password"
            line = f"{g.name} = (not set)" if value is None else f"{g.name} = {_toml_value(g.name, value)}"
            if g.name == "password" and value is not None:
                line = f"{g.name} = (set, not shown)"
            lines.append(f"{comment or '# ' if unset else comment}{line}")
        lines.append("")
    return lines


def dump(resolved: Resolved) -> str:
    """The resolved configuration as TOML: the user config's sections as the file has them (pasted into
    /etc/wordtable/config.toml as is, it means the same), then the board profile's, as comments (they
    belong in the profile, not in the config)."""
    lines = [
        f"# user config: {resolved.config.source or '(none: built-in defaults)'}",
        "",
    ]
    lines += _dump_sections(resolved.config)
    lines += [f"# board profile: {resolved.profile.source} (not part of the config file)", ""]
    lines += _dump_sections(resolved.profile, "# ")
    return "\n".join(lines).rstrip("\n") + "\n"
