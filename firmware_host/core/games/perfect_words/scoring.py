"""Perfect Words' score (RULES.md §3, P1 and P3): each arrow's groups of equal terms (the table's merges
joined), its points by the player-count table, the doubled and the ignored arrow, the total and the team's
rank. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.core.i18n import pick

from .rules import ARROWS, MAX_PLAYERS, MIN_PLAYERS, TEXTS, Game, Term


def arrow_points(players: int, same: int) -> int:
    """An arrow's points before doubling, when the largest group of equal terms has `same` players."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Perfect Words has 2 to 6 players, not {players}")
    if players == 2:
        return 2 if same >= 2 else 0
    if players <= 4:
        return 2 if same >= 3 else 1 if same == 2 else 0
    return 2 if same >= 4 else 1 if same == 3 else 0


@dataclass(frozen=True, slots=True)
class Rank:
    key: str  # i18n key "rank.<key>"
    least: int  # the lowest total that earns it

    def name(self, lang: str) -> str:
        return pick(TEXTS, lang, f"rank.{self.key}")


RANKS = (
    Rank("bronze", 6),
    Rank("silver", 8),
    Rank("gold", 10),
    Rank("great", 12),
    Rank("incredible", 14),
    Rank("masters", 17),
)


def rank_for(total: int) -> Rank | None:
    """The team's rank for a total; None below 6 points (P3)."""
    earned = [rank for rank in RANKS if total >= rank.least]
    return earned[-1] if earned else None


@dataclass(frozen=True, slots=True)
class Group:
    """Players whose terms on one arrow count as the same; `terms` are the normalised forms joined."""

    terms: tuple[str, ...]
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ArrowScore:
    arrow: int
    role: str  # "double", "ignore" or "" (a plain arrow)
    groups: tuple[Group, ...]  # largest first
    same: int  # players in the largest group
    base: int  # points by the player-count table
    points: int  # base × 2 when doubled, 0 when ignored


@dataclass(frozen=True, slots=True)
class Standing:
    arrows: tuple[ArrowScore, ...]
    total: int
    rank: Rank | None
    chosen: bool  # False: the doubled/ignored arrows are not chosen yet and every arrow counts once


def _groups(game: Game, arrow: int) -> tuple[Group, ...]:
    written = [
        t for p in game.players if (t := game.term(p, arrow)) is not None and (p, arrow) not in game.struck
    ]
    parent = {t.key: t.key for t in written}

    def root(key: str) -> str:
        while parent[key] != key:
            key = parent[key]
        return key

    for merge in game.merges:
        if merge.arrow != arrow:
            continue
        present = [key for key in merge.terms if key in parent]
        for key in present[1:]:
            parent[root(key)] = root(present[0])
    by_root: dict[str, list[Term]] = {}
    for t in written:
        by_root.setdefault(root(t.key), []).append(t)
    groups = [
        Group(tuple(dict.fromkeys(t.key for t in members)), tuple(t.player for t in members))
        for members in by_root.values()
    ]
    return tuple(sorted(groups, key=lambda g: -len(g.players)))


def score(game: Game) -> Standing:
    """The team's standing now: each arrow's largest group, its points, the total and the rank."""
    arrows = []
    for arrow in range(1, ARROWS + 1):
        groups = _groups(game, arrow)
        same = len(groups[0].players) if groups else 0
        base = arrow_points(len(game.players), same)
        role = "double" if arrow == game.double else "ignore" if arrow == game.ignore else ""
        points = base * 2 if role == "double" else 0 if role == "ignore" else base
        arrows.append(ArrowScore(arrow, role, groups, same, base, points))
    total = sum(a.points for a in arrows)
    return Standing(tuple(arrows), total, rank_for(total), game.double is not None)
