"""The user's choices: defaults from the config, overridden by what was last chosen on the appliance."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from firmware_host.core.alarm import MAX_ALARM_S
from firmware_host.core.i18n import LANGUAGES
from firmware_host.core.sounds import VOLUMES
from firmware_host.core.text_input import NAME, TextRefused, clean

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
        )

    def remembered(self) -> dict[str, Any]:
        """The choices that are saved across restarts."""
        return {
            "duration_s": self.duration_s,
            "warn_s": self.warn_s,
            "alarm_s": self.alarm_s,
            "volume": self.volume,
            "lang": self.lang,
            "player_count": self.player_count,
            "player_names": list(self.player_names),
            "game_turn_s": self.turns.game_turn_s,
            "contrast": self.contrast,
            "dim_after_min": self.dim_after_min,
            "blank_after_min": self.blank_after_min,
            "reveal": self.reveal,
        }

    def with_remembered(self, saved: Mapping[str, Any]) -> Settings:
        """Apply saved choices, ignoring any that are not valid (a stale or hand-edited file)."""
        s = self
        duration = saved.get("duration_s")
        if _is_int(duration) and MIN_DURATION_S <= duration <= MAX_DURATION_S:
            s = replace(s, duration_s=duration)
        warn = saved.get("warn_s")
        if _is_int(warn) and 0 <= warn <= 60:
            s = replace(s, warn_s=warn)
        alarm = saved.get("alarm_s")
        if _is_int(alarm) and 0 <= alarm <= MAX_ALARM_S:
            s = replace(s, alarm_s=alarm)
        if saved.get("volume") in VOLUMES:
            s = replace(s, volume=str(saved["volume"]))
        if saved.get("lang") in LANGUAGES:
            s = replace(s, lang=str(saved["lang"]))
        count = saved.get("player_count")
        if _is_int(count) and MIN_PLAYERS <= count <= MAX_PLAYERS:
            s = replace(s, player_count=count)
        game_turn = saved.get("game_turn_s")
        if _is_int(game_turn) and game_turn in GAME_TURN_CHOICES:
            s = replace(s, turns=replace(s.turns, game_turn_s=game_turn))
        contrast = saved.get("contrast")
        if _is_int(contrast) and 0 <= contrast <= 255:
            s = replace(s, contrast=contrast)
        dim = saved.get("dim_after_min")
        if _is_int(dim) and 0 <= dim <= MAX_IDLE_MIN:
            s = replace(s, dim_after_min=dim)
        blank = saved.get("blank_after_min")
        if _is_int(blank) and 0 <= blank <= MAX_IDLE_MIN:
            s = replace(s, blank_after_min=blank)
        if saved.get("reveal") in REVEAL_CHOICES:
            s = replace(s, reveal=str(saved["reveal"]))
        names = saved.get("player_names")
        if _are_names(names):
            s = replace(s, player_names=tuple(_name(name) for name in names))
        return s


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
