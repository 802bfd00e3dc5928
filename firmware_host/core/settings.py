"""The user's choices: defaults from the config, overridden by what was last chosen on the appliance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

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
    volume: str = "normal"
    lang: str = "de"
    player_names: tuple[str, ...] = ()  # the config's, then the last named at the table; else "Spieler N"
    player_count: int = 4
    turns: TurnSettings = TurnSettings()
    reveal: str = "round"  # one of REVEAL_CHOICES (config `[dictionary] reveal`)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data (a session's starting settings are journaled with it)."""
        return {
            "duration_s": self.duration_s,
            "presets": list(self.presets),
            "warn_s": self.warn_s,
            "volume": self.volume,
            "lang": self.lang,
            "player_names": list(self.player_names),
            "player_count": self.player_count,
            "turns": self.turns.to_dict(),
            "reveal": self.reveal,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """The inverse of `to_dict`; raises ValueError/TypeError on data it did not write."""
        return cls(
            duration_s=int(data["duration_s"]),
            presets=tuple(int(p) for p in data["presets"]),
            warn_s=int(data["warn_s"]),
            volume=str(data["volume"]),
            lang=str(data["lang"]),
            player_names=tuple(n for n in map(_name, data["player_names"]) if n),
            player_count=int(data["player_count"]),
            turns=TurnSettings.from_dict(data.get("turns", {})),
            reveal=str(data.get("reveal", "round")),
        )

    def remembered(self) -> dict[str, Any]:
        """The choices that are saved across restarts."""
        return {
            "duration_s": self.duration_s,
            "warn_s": self.warn_s,
            "volume": self.volume,
            "lang": self.lang,
            "player_count": self.player_count,
            "player_names": list(self.player_names),
            "game_turn_s": self.turns.game_turn_s,
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
        names = saved.get("player_names")
        if _are_names(names):
            s = replace(s, player_names=tuple(_name(name) for name in names))
        return s


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
