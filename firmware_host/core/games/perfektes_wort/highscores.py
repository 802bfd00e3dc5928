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


# --- the list as a kept item (`effects.Keep`) --------------------------------------------------------

KEPT_NAME = "highscores/perfektes-wort"
FORMAT_VERSION = 1


def add_for_side(
    table: tuple[HighScore, ...], entry: HighScore, places: int = HIGHSCORE_PLACES
) -> tuple[tuple[HighScore, ...], int | None]:
    """`add_highscore` with one list per side of the pad: `entry` ranks among its side's scores only
    (each side keeps `places`); the other side's entries stay as they are."""
    own, place = add_highscore(tuple(h for h in table if h.side == entry.side), entry, places)
    return (*(h for h in table if h.side != entry.side), *own), place


def for_side(table: tuple[HighScore, ...], side: str) -> tuple[HighScore, ...]:
    """One side's list, highest first."""
    return tuple(h for h in table if h.side == side)


def highscores_data(table: tuple[HighScore, ...]) -> dict[str, object]:
    """The kept form: {"highscores": 1, "entries": [{"name", "total", "side", "label"}, ...]}."""
    entries = [{"name": h.name, "total": h.total, "side": h.side, "label": h.label} for h in table]
    return {"highscores": FORMAT_VERSION, "entries": entries}


def highscores_from_data(data: object) -> tuple[HighScore, ...]:
    """The list `highscores_data` wrote (None: no list yet). Raises ValueError naming what is wrong."""
    if data is None:
        return ()
    if not isinstance(data, dict) or data.get("highscores") != FORMAT_VERSION:
        raise ValueError(f"highscores: version {getattr(data, 'get', lambda _: None)('highscores')!r} "
                         f"is not {FORMAT_VERSION}")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise ValueError("entries: must be a list")
    table: list[HighScore] = []
    for i, item in enumerate(entries, start=1):
        if not isinstance(item, dict):
            raise ValueError(f"entries[{i}]: must be a table with name, total, side")
        name, total, side, label = item.get("name"), item.get("total"), item.get("side"), item.get("label", "")
        if not isinstance(name, str) or not isinstance(side, str) or not isinstance(label, str) \
                or not isinstance(total, int) or isinstance(total, bool):
            raise ValueError(f"entries[{i}]: name, side, label must be texts and total a whole number")
        table.append(HighScore(name, total, side, label))
    return tuple(table)
