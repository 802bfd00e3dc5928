"""The user config (optional TOML: /etc/wordtable/config.toml on the Pi, or `--config FILE`) and the
resolved configuration: board profile + user config, validated together, printable as TOML.

Every error is reported with its dotted key; `ConfigError` carries the whole list.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

from drivers.keymap import DEFAULT_LAYOUT, LAYOUTS
from firmware_host.config_checks import check_sections
from firmware_host.core import settings as table
from firmware_host.core.settings import (
    MAX_BANK_S,
    MAX_EXTRA_S,
    MAX_TURN_S,
    MIN_BANK_S,
    MIN_TURN_S,
    OVER_CHOICES,
    TURN_MODES,
    Setting,
    Settings,
    TurnSettings,
)
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
    more: tuple[tuple[str, str, Any], ...] = ()  # (section, key, value) of settings no section has a field for


_SECTION_TYPES = {
    "appliance": ApplianceConfig, "timer": TimerConfig, "turn_timer": TurnTimerConfig, "screen": ScreenConfig,
    "scoreboard": ScoreboardConfig, "dictionary": DictionaryConfig, "logging": LoggingConfig, "page": PageConfig,
    "keyboard": KeyboardLayoutConfig, "league": LeagueConfig,
}


@dataclass(frozen=True, slots=True)
class Resolved:
    """What the appliance runs with: the board profile and the user config."""

    profile: Profile
    config: Config


_DURATION = integer(1, MAX_DURATION_S)
_TURNS = TurnSettings()  # the turn timer's defaults


FROM_SETTINGS = Field(text(), None)  # a key whose field comes from its row in `core.settings.SETTINGS`


def _sections(state_dir: Path) -> dict[str, tuple[dict[str, Field], bool]]:
    """The config file's sections: (fields, required?). The settings' keys stand where `FROM_SETTINGS` marks
    them (a new setting's key at the end of its section), each checked and defaulted as its row says."""
    sections = _file_sections(state_dir)
    for row in table.SETTINGS:
        if row.config is not None:
            section, key, valid = row.config
            check = integer(valid.start, valid.stop - 1) if isinstance(valid, range) else text(valid)
            sections[section][0][key] = Field(check, row.value(Settings()))
    unset = [f"{name}.{key}" for name, (keys, _) in sections.items() for key, spec in keys.items()
             if spec is FROM_SETTINGS]
    assert not unset, f"no row of SETTINGS for {', '.join(unset)}"
    return sections


def _file_sections(state_dir: Path) -> dict[str, tuple[dict[str, Field], bool]]:
    return {
        "appliance": (
            {
                "language": FROM_SETTINGS,
                "state_dir": Field(text(), str(state_dir)),
            },
            False,
        ),
        "timer": (
            {
                "duration_s": FROM_SETTINGS,
                "presets": Field(
                    listing(_DURATION, min_len=1, max_len=8, unique=True), (30, 60, 90, 120, 180)
                ),
                "warn_s": FROM_SETTINGS,
                "alarm_s": FROM_SETTINGS,
                "volume": FROM_SETTINGS,
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
                "game_turn_s": FROM_SETTINGS,
            },
            False,
        ),
        "screen": (
            {
                "contrast": FROM_SETTINGS,
                "dim_after_min": FROM_SETTINGS,
                "blank_after_min": FROM_SETTINGS,
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
                "reveal": FROM_SETTINGS,
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
    more = _more_settings(raw)
    check_sections(raw, errors)
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
        more=more,
    )


def _more_settings(raw: dict[str, dict[str, Any]]) -> tuple[tuple[str, str, Any], ...]:
    """Take the keys of settings that no section's dataclass has a field for (a new row of `SETTINGS`) out
    of `raw`: (section, key, value) each."""
    more = []
    for name, section in _SECTION_TYPES.items():
        known = {f.name for f in fields(section)}
        more += [(name, key, raw[name].pop(key)) for key in list(raw[name]) if key not in known]
    return tuple(more)


def setting_value(config: Config, row: Setting) -> Any:
    """What the config says for a setting of `SETTINGS` that it has a key for (`row.config`)."""
    assert row.config is not None
    section, key, _valid = row.config
    values = getattr(config, section)
    if hasattr(values, key):
        return getattr(values, key)
    return next(value for name, field, value in config.more if (name, field) == (section, key))


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
        for name, key, value in getattr(obj, "more", ()):
            if name == f.name:
                lines.append(f"{comment}{key} = {_toml_value(key, value)}")
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
