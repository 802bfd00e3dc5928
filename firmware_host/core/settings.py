"""The user's choices: defaults from the config, overridden by what was last chosen on the appliance."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, TypeGuard

from firmware_host.core.alarm import ALARM_CHOICES, MAX_ALARM_S
from firmware_host.core.i18n import LANGUAGES
from firmware_host.core.sounds import VOLUMES
from firmware_host.core.text_input import NAME, TextRefused, clean
from firmware_host.core.timer import format_seconds

PRESETS = (30, 60, 90, 120, 180)
MIN_DURATION_S = 5
MAX_DURATION_S = 59 * 60 + 59
MIN_PLAYERS = 2
MAX_PLAYERS = 8
WARN_CHOICES = (0, 5, 10, 15, 20)
TURN_MODES = ("limit", "bank", "hourglass", "sudden-death")
OVER_CHOICES = ("beep", "end")  # a per-turn limit run out: beep and count on, or end the turn
MIN_TURN_S, MAX_TURN_S = 5, MAX_DURATION_S  # a per-turn limit
MIN_BANK_S, MAX_BANK_S = 10, 99 * 60 + 59  # each player's time (the bank)
MAX_EXTRA_S = 60  # a Fischer increment or a Bronstein delay
GAME_TURN_CHOICES = (0, 30, 60, 90, 120, 180)  # a per-turn limit inside the games (0: none)
CONTRAST_CHOICES = (32, 128, 255)  # the OLED: dark, medium, bright
DIM_CHOICES = (0, 2, 5, 10, 30)  # minutes idle before the OLED dims (0: never)
BLANK_CHOICES = (0, 30, 60, 120)  # minutes idle before the OLED goes dark against burn-in (0: never)
MAX_IDLE_MIN = 24 * 60
REVEAL_CHOICES = ("round", "end", "off")  # the best play a word list allowed: after each round, at the end, never


@dataclass(frozen=True, slots=True)
class TurnSettings:
    """The turn timer's defaults (config `[turn_timer]`; the table changes them at the setup) and the
    per-turn limit inside the turn-based games (`game_turn_s`, 0: none; chosen in the menu, remembered)."""

    mode: str = "bank"  # limit | bank | hourglass | sudden-death
    turn_s: int = 60  # the per-turn limit (mode "limit")
    over: str = "beep"  # mode "limit": beep (count on) | end (the turn ends at the limit)
    bank_s: int = 600  # each player's time (bank, hourglass, sudden-death)
    increment_s: int = 0  # Fischer: added to the bank after each turn
    delay_s: int = 0  # Bronstein: the first seconds of each turn do not take from the bank
    game_turn_s: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "turn_s": self.turn_s,
            "over": self.over,
            "bank_s": self.bank_s,
            "increment_s": self.increment_s,
            "delay_s": self.delay_s,
            "game_turn_s": self.game_turn_s,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnSettings:
        """The inverse of `to_dict`; missing keys keep their defaults (older snapshots have none)."""
        d = cls()
        return cls(
            mode=str(data.get("mode", d.mode)),
            turn_s=int(data.get("turn_s", d.turn_s)),
            over=str(data.get("over", d.over)),
            bank_s=int(data.get("bank_s", d.bank_s)),
            increment_s=int(data.get("increment_s", d.increment_s)),
            delay_s=int(data.get("delay_s", d.delay_s)),
            game_turn_s=int(data.get("game_turn_s", d.game_turn_s)),
        )


@dataclass(frozen=True, slots=True)
class Settings:
    duration_s: int = 60
    presets: tuple[int, ...] = PRESETS
    warn_s: int = 10
    alarm_s: int = 60  # the end alarm rings this long at most (a button silences it); 0: once
    volume: str = "normal"
    lang: str = "de"
    player_names: tuple[str, ...] = ()  # the config's, then the last named at the table; else "Spieler N"
    player_count: int = 4
    turns: TurnSettings = TurnSettings()
    contrast: int = 255  # the OLED's contrast 0–255
    dim_after_min: int = 10  # idle minutes before the OLED dims (0: never)
    blank_after_min: int = 60  # idle minutes before it goes dark, the burn-in guard (0: never)
    reveal: str = "round"  # one of REVEAL_CHOICES (config `[dictionary] reveal`)
    more: tuple[tuple[str, Any], ...] = ()  # (attr, value) of the `SETTINGS` rows with no field here, sorted

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data (a session's starting settings are journaled with it)."""
        return {
            "duration_s": self.duration_s,
            "presets": list(self.presets),
            "warn_s": self.warn_s,
            "alarm_s": self.alarm_s,
            "volume": self.volume,
            "lang": self.lang,
            "player_names": list(self.player_names),
            "player_count": self.player_count,
            "turns": self.turns.to_dict(),
            "contrast": self.contrast,
            "dim_after_min": self.dim_after_min,
            "blank_after_min": self.blank_after_min,
            "reveal": self.reveal,
            **({"more": dict(self.more)} if self.more else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """The inverse of `to_dict`; raises ValueError/TypeError on data it did not write."""
        return cls(
            duration_s=int(data["duration_s"]),
            presets=tuple(int(p) for p in data["presets"]),
            warn_s=int(data["warn_s"]),
            alarm_s=int(data.get("alarm_s", cls().alarm_s)),
            volume=str(data["volume"]),
            lang=str(data["lang"]),
            player_names=tuple(n for n in map(_name, data["player_names"]) if n),
            player_count=int(data["player_count"]),
            turns=TurnSettings.from_dict(data.get("turns", {})),
            contrast=int(data.get("contrast", cls().contrast)),
            dim_after_min=int(data.get("dim_after_min", cls().dim_after_min)),
            blank_after_min=int(data.get("blank_after_min", cls().blank_after_min)),
            reveal=str(data.get("reveal", "round")),
            more=_more(data.get("more", {})),
        )

    def remembered(self) -> dict[str, Any]:
        """The choices that are saved across restarts: every setting of `SETTINGS`, and the players' names."""
        saved = {row.remembered_key: row.value(self) for row in SETTINGS}
        return {**saved, "player_names": list(self.player_names)}

    def with_remembered(self, saved: Mapping[str, Any]) -> Settings:
        """Apply saved choices, ignoring any that are not valid (a stale or hand-edited file)."""
        s = self
        for row in SETTINGS:
            value = saved.get(row.remembered_key)
            if row.takes(value):
                s = row.chosen(s, value)
        names = saved.get("player_names")
        if _are_names(names):
            s = replace(s, player_names=tuple(_name(name) for name in names))
        return s


Say = Callable[..., str]  # a text of the appliance in the table's language: say(key, **fields)


@dataclass(frozen=True, slots=True)
class Setting:
    """One user setting, as every part that offers or checks it sees it (`SETTINGS`).

    `key` names its submenu and is its title's text key; `attr` is the `Settings` field it sets (dotted into
    `turns`), whose last part is its key in `Settings.remembered`; `choices` are what the menu offers (or
    what makes them from the settings); `valid` what a remembered value may be; `option(say, value)` a
    choice's text in the submenu and `current(say, value)` the value beside its entry in the menu (None:
    the option's text); `menu`: offered in the menu (where: `app.menu.MENUS`; a row placed in none goes into
    the main menu); `config`: the config file's (section, key, valid values: a `range` or the texts) it
    defaults from (None: none); `phone`: the `SeatCommand` a phone sets it with (None: the page does not)."""

    key: str
    attr: str
    choices: tuple[Any, ...] | Callable[[Settings], tuple[Any, ...]]
    valid: range | tuple[Any, ...]
    option: Callable[[Say, Any], str]
    current: Callable[[Say, Any], str] | None = None
    menu: bool = True
    config: tuple[str, str, range | tuple[str, ...]] | None = None
    phone: str | None = None
    default: Any = None  # the value of a setting with no `Settings` field of its own (kept in `Settings.more`)

    @property
    def remembered_key(self) -> str:
        return self.attr.rpartition(".")[2]

    def value(self, settings: Settings) -> Any:
        """The setting's value in `settings`."""
        if self.attr.partition(".")[0] not in _FIELDS:
            return dict(settings.more).get(self.attr, self.default)
        value: Any = settings
        for part in self.attr.split("."):
            value = getattr(value, part)
        return value

    def chosen(self, settings: Settings, value: Any) -> Settings:
        """`settings` with this setting set to `value`."""
        head, _, last = self.attr.rpartition(".")
        if self.attr.partition(".")[0] not in _FIELDS:
            return replace(settings, more=tuple(sorted({**dict(settings.more), self.attr: value}.items())))
        if not head:
            return replace(settings, **{last: value})
        inner = getattr(settings, head)
        return replace(settings, **{head: replace(inner, **{last: value})})

    def options(self, settings: Settings) -> tuple[Any, ...]:
        return self.choices(settings) if callable(self.choices) else self.choices

    def takes(self, value: object) -> bool:
        """Whether `value` (a remembered one: JSON) is one this setting may have."""
        if isinstance(value, bool):
            return False
        kind = type(self.value(Settings()))
        return isinstance(value, kind) and value in self.valid


def _seconds(say: Say, seconds: int) -> str:
    return format_seconds(seconds)


def _minutes(say: Say, minutes: int) -> str:
    return say("after_min", n=minutes) if minutes else say("never")


def _minutes_now(say: Say, minutes: int) -> str:
    return say("min_n", n=minutes) if minutes else say("never")


def _keyed(prefix: str) -> Callable[[Say, Any], str]:
    """The option's text is the text key `prefix` + the value ("vol_" → "vol_soft")."""
    return lambda say, value: say(f"{prefix}{value}")


def _seconds_or_off(say: Say, seconds: int) -> str:
    return _seconds(say, seconds) if seconds else say("warn_off")


def _alarm(say: Say, seconds: int) -> str:
    return say("alarm_for", time=_seconds(say, seconds)) if seconds else say("alarm_once")


def _contrast_now(say: Say, contrast: int) -> str:
    return say(f"contrast_{contrast}") if contrast in CONTRAST_CHOICES else str(contrast)


SETTINGS: tuple[Setting, ...] = (
    Setting("players", "player_count", lambda s: tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
            range(MIN_PLAYERS, MAX_PLAYERS + 1), lambda say, n: str(n)),
    Setting("duration", "duration_s", lambda s: s.presets, range(MIN_DURATION_S, MAX_DURATION_S + 1), _seconds,
            config=("timer", "duration_s", range(1, 99 * 60 + 60))),
    Setting("game_turn", "turns.game_turn_s", GAME_TURN_CHOICES, GAME_TURN_CHOICES, _seconds_or_off,
            config=("turn_timer", "game_turn_s", range(0, MAX_TURN_S + 1))),
    Setting("reveal", "reveal", REVEAL_CHOICES, REVEAL_CHOICES, _keyed("reveal_"), _keyed("reveal_now_"),
            config=("dictionary", "reveal", REVEAL_CHOICES)),
    Setting("warn", "warn_s", WARN_CHOICES, range(0, 61),
            lambda say, w: say("warn_value", s=w) if w else say("warn_off"),
            lambda say, w: f"{w} s" if w else say("warn_off"), config=("timer", "warn_s", range(0, 61)),
            phone="warn"),
    Setting("alarm", "alarm_s", ALARM_CHOICES, range(0, MAX_ALARM_S + 1), _alarm,
            config=("timer", "alarm_s", range(0, MAX_ALARM_S + 1))),
    Setting("volume", "volume", VOLUMES, VOLUMES, _keyed("vol_"), config=("timer", "volume", VOLUMES),
            phone="volume"),
    Setting("contrast", "contrast", CONTRAST_CHOICES, range(0, 256), _keyed("contrast_"), _contrast_now,
            config=("screen", "contrast", range(0, 256))),
    Setting("dim", "dim_after_min", DIM_CHOICES, range(0, MAX_IDLE_MIN + 1), _minutes, _minutes_now,
            config=("screen", "dim_after_min", range(0, MAX_IDLE_MIN + 1))),
    Setting("blank", "blank_after_min", BLANK_CHOICES, range(0, MAX_IDLE_MIN + 1), _minutes, _minutes_now,
            config=("screen", "blank_after_min", range(0, MAX_IDLE_MIN + 1))),
    Setting("language", "lang", LANGUAGES, LANGUAGES, _keyed("lang_"), lambda say, lang: lang.upper(),
            config=("appliance", "language", LANGUAGES), phone="lang"),
)



def setting(key: str) -> Setting | None:
    """The row of `SETTINGS` for the submenu `key`; None when there is none."""
    return next((row for row in SETTINGS if row.key == key), None)


def phone_setting(command: str) -> Setting | None:
    """The row of `SETTINGS` that a phone sets with `command`; None when there is none."""
    return next((row for row in SETTINGS if row.phone == command), None)


def _more(data: object) -> tuple[tuple[str, Any], ...]:
    """The values of `Settings.more` from `to_dict`: those of the rows in `SETTINGS` that take them."""
    if not isinstance(data, dict):
        raise TypeError(f"expected the settings' more as an object, got {type(data).__name__}")
    rows = {row.attr: row for row in SETTINGS if row.attr.partition(".")[0] not in _FIELDS}
    return tuple(sorted((attr, value) for attr, value in data.items() if attr in rows and rows[attr].takes(value)))


_FIELDS = frozenset(field.name for field in fields(Settings))

FILE_PREFIX = "file."  # a remembered choice's companion: what the config file said when it was chosen


def remembered_with_file(chosen: Mapping[str, Any], from_file: Mapping[str, Any]) -> dict[str, Any]:
    """What the journal keeps for a menu change: each remembered choice, and beside it (`file.KEY`) what the
    config file said for that key then (`from_file`: the config's settings, `remembered()`)."""
    return {**chosen, **{FILE_PREFIX + key: from_file[key] for key in chosen if key in from_file}}


def still_chosen(saved: Mapping[str, Any], from_file: Mapping[str, Any]) -> dict[str, Any]:
    """The remembered choices that win over the config file: each one made while the file said what it
    says now. A key changed in the file since the menu change is the file's again (it applies at the next
    start); a later menu change wins until the file changes again. A choice kept without the file's value
    (journals older than this rule) still wins: when the file changed cannot be told."""
    chosen: dict[str, Any] = {}
    for key, value in saved.items():
        if key.startswith(FILE_PREFIX):
            continue
        then = FILE_PREFIX + key
        if then not in saved or key not in from_file or _same(saved[then], from_file[key]):
            chosen[key] = value
    return chosen


def _same(kept: object, now: object) -> bool:
    """Whether a value kept in the journal (JSON: lists) and the file's value now (tuples) are the same."""
    return json.dumps(kept, sort_keys=True) == json.dumps(now, sort_keys=True)


def _are_names(value: object) -> TypeGuard[list[str]]:
    """Players' names as saved: 1 to `MAX_PLAYERS` different names (`text_input.NAME`, not blank)."""
    return (
        isinstance(value, list) and 1 <= len(value) <= MAX_PLAYERS and len(set(value)) == len(value)
        and all(isinstance(name, str) and _name(name) for name in value)
    )


def _name(value: object) -> str:
    """A configured name normalised (`text_input.clean`); "" for one that is not a name."""
    try:
        return clean(str(value), NAME)
    except TextRefused:
        return ""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
