"""Who sits with whom, and where.

**The pairing rule (Swiss and duplicate alike).** Players are ranked by the standings after the previous round
(round 1: registration order shuffled by the event's secret). A field that is not a multiple of four is filled
with computers first (they take the bottom ranks). Tables are then made from the top down: the best-ranked
player not yet seated takes the next table, with the three players among the next fifteen unseated (by rank) that
make the fewest repeat meetings at that table — a meeting is two players having shared a table in an earlier
round, counted once per pair —, ties going to the three nearest in rank. So players of like standing meet,
and nobody meets the same opponent again while another choice of equal standing exists.

**Duplicate tables.** In the duplicate format a player is compared with the players who held the same seat on
the same walls at the other tables, so those should be players of like standing facing like opponents: the
ranked field is cut into four bands of as many players as there are tables (the best ``T``, the next ``T``, …),
and every table gets one player of each band (:func:`pair_bands`). Band ``b`` sits at the same seat at every
table, so each seat's comparison is within one band, and every table is a like mix of the field.

**Seats.** At each table the players sit in rank order rotated by the round: in round ``r`` the table's
``k``-th ranked player sits at seat ``(k + r − 1) mod 4`` (东 南 西 北 = 0 1 2 3). The same rule at every table:
in the duplicate format every table of a round plays the same walls with the same seat rotation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

WINDOW = 15  # candidates looked at for the three seats beside the table's top player


def met_pairs(tables: Sequence[Sequence[int]]) -> dict[int, set[int]]:
    """Who has met whom: from the players of every table so far."""
    met: dict[int, set[int]] = {}
    for players in tables:
        for a in players:
            for b in players:
                if a != b:
                    met.setdefault(a, set()).add(b)
    return met


def pair_round(ranked: Sequence[int], met: Mapping[int, set[int]]) -> list[list[int]]:
    """Tables of four from ``ranked`` (best first; its length a multiple of four), each table best first."""
    if len(ranked) % 4:
        raise ValueError("the field must be a multiple of four (fill it with computers first)")
    left = list(ranked)
    tables = []
    while left:
        top, rest = left[0], left[1:]
        window = rest[:WINDOW]
        best: tuple[tuple[int, int], tuple[int, ...]] | None = None
        for combo in combinations(range(len(window)), 3):
            group = [top] + [window[i] for i in combo]
            repeats = sum(1 for a, b in combinations(group, 2) if b in met.get(a, ()))
            key = (repeats, sum(combo))
            if best is None or key < best[0]:
                best = (key, combo)
        assert best is not None
        chosen = [window[i] for i in best[1]]
        tables.append([top, *chosen])
        left = [p for p in rest if p not in chosen]
    return tables


def pair_bands(ranked: Sequence[int], round_no: int) -> list[list[int]]:
    """The duplicate format's tables (see the module): the ranked field cut into four bands of ``T`` players
    (``T`` tables), each table one player of each band, best band first; band ``b``'s ``i``-th player sits at
    table ``(i + b·(round − 1)) mod T``, so tablemates change from round to round."""
    if len(ranked) % 4:
        raise ValueError("the field must be a multiple of four (fill it with computers first)")
    n_tables = len(ranked) // 4
    bands = [list(ranked[b * n_tables:(b + 1) * n_tables]) for b in range(4)]
    tables: list[list[int]] = [[0, 0, 0, 0] for _ in range(n_tables)]
    for b, band in enumerate(bands):
        for i, p in enumerate(band):
            tables[(i + b * (round_no - 1)) % n_tables][b] = p
    return tables


def seat_order(table: Sequence[int], round_no: int) -> list[int]:
    """The players by seat (东 南 西 北) for a table given best-ranked first, in round ``round_no`` (1-based)."""
    shift = (round_no - 1) % 4
    seats = [0] * 4
    for k, p in enumerate(table):
        seats[(k + shift) % 4] = p
    return seats
