"""The user's choices: defaults from the config, overridden by what was last chosen on the appliance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from firmware_host.core.i18n import LANGUAGES
from firmware_host.core.sounds import VOLUMES
from firmware_host.core.text_field import NAME_LENGTH

PRESETS = (30, 60, 90, 120, 180)
MIN_DURATION_S = 5
MAX_DURATION_S = 59 * 60 + 59
MIN_PLAYERS = 2
MAX_PLAYERS = 8
WARN_CHOICES = (0, 5, 10, 15, 20)


@dataclass(frozen=True, slots=True)
class Settings:
    duration_s: int = 60
    presets: tuple[int, ...] = PRESETS
    warn_s: int = 10
    volume: str = "normal"
    lang: str = "de"
    player_names: tuple[str, ...] = ()  # the config's, then the last named at the table; else "Spieler N"
    player_count: int = 4

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
            player_names=tuple(str(n) for n in data["player_names"]),
            player_count=int(data["player_count"]),
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
        names = saved.get("player_names")
        if _are_names(names):
            s = replace(s, player_names=tuple(names))
        return s


def _are_names(value: object) -> TypeGuard[list[str]]:
    """Players' names as saved: 1 to `MAX_PLAYERS` different, non-blank texts of at most `NAME_LENGTH`."""
    return (
        isinstance(value, list) and 1 <= len(value) <= MAX_PLAYERS and len(set(value)) == len(value)
        and all(isinstance(name, str) and name.strip() and len(name) <= NAME_LENGTH for name in value)
    )


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
