"""The solo variant's highscore list (the game's highscore cards), as a pure value. Keeping it on disk is
the shell's job."""

from __future__ import annotations

from dataclasses import dataclass

HIGHSCORE_PLACES = 10


@dataclass(frozen=True, slots=True)
class HighScore:
    name: str
    total: int
    side: str
    label: str = ""  # e.g. the date, for people


def add_highscore(
    table: tuple[HighScore, ...], entry: HighScore, places: int = HIGHSCORE_PLACES
) -> tuple[tuple[HighScore, ...], int | None]:
    """The list with `entry` added (highest first; an equal score ranks below the older one) and the
    entry's 1-based place, or None when it did not make the list."""
    ranked = sorted((*table, entry), key=lambda h: -h.total)  # stable: older entries stay ahead on ties
    kept = tuple(ranked[:places])
    place = next((i for i, item in enumerate(kept, start=1) if item is entry), None)
    return kept, place
