"""Scores and standings.

**Swiss.** A player's points are the sum of their results over their tables (points at stake 1 for a
points-only event, else silver won or lost).

**Duplicate.** Every table of a round plays the same walls: hand ``n`` of each table of round ``r`` is dealt from
the same wall (the wall ``(r, n)``). A seat's score on a wall is its result on that hand minus the average result
of the same seat over the tables that played that wall. Over one wall the scores of each seat sum to zero across
the tables, so every wall is zero-sum; a player's points are the sum of their scores over the walls they played.
(A table that ended before hand ``n`` did not play that wall and is left out of its average.)

**Standings.** By points (higher first), then by average placement (lower first), then by first places, then
by registration order. Computers that filled a table are not ranked. A table that finished no hand placed nobody
(``NOT_PLACED``): it counts as the middle placement, 2.5, for each of its players — no seat favoured, and its
players neither helped nor hurt against the other tables' on the tie-breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from jxbot.events.model import NOT_PLACED, Player, TableRecord

MIDDLE = Fraction(5, 2)  # the placement an unplaced table counts as: the middle of 1-4, favouring nobody


def duplicate_scores(tables: Sequence[TableRecord]) -> dict[tuple[int, int], list[list[Fraction]]]:
    """Per table ``(round, table_no)``: the duplicate score of each hand by starting seat (exact fractions)."""
    out: dict[tuple[int, int], list[list[Fraction]]] = {}
    by_round: dict[int, list[TableRecord]] = {}
    for tr in tables:
        by_round.setdefault(tr.round, []).append(tr)
        out[(tr.round, tr.table_no)] = []
    for group in by_round.values():
        n_walls = max((len(tr.hand_deltas) for tr in group), default=0)
        for n in range(n_walls):
            played = [tr for tr in group if len(tr.hand_deltas) > n]
            for tr in played:
                out[(tr.round, tr.table_no)].append([
                    tr.hand_deltas[n][s] - Fraction(sum(o.hand_deltas[n][s] for o in played), len(played))
                    for s in range(4)])
    return out


@dataclass
class Standing:
    rank: int
    pid: int
    name: str
    points: float
    placements: list[int] = field(default_factory=list)  # by round
    tables: int = 0

    def to_json(self) -> dict:
        return {"rank": self.rank, "pid": self.pid, "name": self.name, "points": self.points,
                "placements": list(self.placements), "tables": self.tables}


def points_by_player(players: Sequence[Player], tables: Sequence[TableRecord], fmt: str) -> dict[int, Fraction]:
    pts: dict[int, Fraction] = {p.pid: Fraction(0) for p in players}
    dup = duplicate_scores(tables) if fmt == "duplicate" else {}
    for tr in tables:
        for s, pid in enumerate(tr.players):
            if fmt == "duplicate":
                gained = sum((h[s] for h in dup[(tr.round, tr.table_no)]), Fraction(0))
            else:
                gained = Fraction(tr.totals[s])
            pts[pid] = pts.get(pid, Fraction(0)) + gained
    return pts


def standings(players: Sequence[Player], tables: Sequence[TableRecord], fmt: str, *,
              with_computers: bool = False) -> list[Standing]:
    """The ranked standings (see the module). ``with_computers`` ranks computer players too (the simulation)."""
    pts = points_by_player(players, tables, fmt)
    places: dict[int, list[int]] = {p.pid: [] for p in players}
    for tr in sorted(tables, key=lambda x: (x.round, x.table_no)):
        for s, pid in enumerate(tr.players):
            places.setdefault(pid, []).append(tr.placements[s])
    ranked = [p for p in players if with_computers or not p.is_computer]

    def key(p: Player) -> tuple:
        pl = places.get(p.pid) or []
        avg = Fraction(sum((MIDDLE if x == NOT_PLACED else x for x in pl), Fraction(0)), len(pl)) if pl \
            else Fraction(5)
        return (-pts.get(p.pid, Fraction(0)), avg, -pl.count(1), p.order, p.pid)

    out: list[Standing] = []
    prev: tuple | None = None
    for i, p in enumerate(sorted(ranked, key=key)):
        k = key(p)[:3]
        rank = out[-1].rank if prev == k and out else i + 1
        prev = k
        out.append(Standing(rank, p.pid, p.name, round(float(pts.get(p.pid, 0)), 2), places.get(p.pid) or [],
                            len(places.get(p.pid) or [])))
    return out
