"""The claim loop every computer player shares (碰 / 杠 / 吃 of the last discard, or pass).

``claim_options`` lists the claims on offer with the hand each leaves; ``best_claim`` walks them with a
level's own valuation and keeps the best. The core players (``jxbot.ai.players``, ``jxbot.ai.hard``) and
the caishen players (``jxbot.rulesets.caishen.ai``, ``ai_hard``) differ only in that valuation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from .seatview import CHI, GANG, PENG, Table

CLAIMS = (PENG, GANG, CHI)  # the order the options are tried in: the first of equally good ones wins


class ClaimOption(NamedTuple):
    """A claim on offer and the hand it leaves (before the discard that follows a 碰 or 吃)."""

    action: dict
    type: str  # PENG | GANG | CHI
    counts: list[int]  # the concealed tiles' counts after the claim
    melds: list[tuple[str, int]]  # the melds after it (Table.melds' form)

    def tiles(self) -> list[int]:
        """The concealed tiles after the claim, by kind."""
        return [k for k, n in enumerate(self.counts) for _ in range(n)]


# A level's valuation of an option: None when it would not claim it, else (rank, note): the lowest rank
# is claimed; the note (e.g. the target it would play for) is handed back with it.
Valuation = Callable[[ClaimOption], "tuple[Any, Any] | None"]


def claim_options(tb: Table, types: Sequence[str] = CLAIMS,
                  face: Callable[[int], int] | None = None) -> Iterator[ClaimOption]:
    """The claims of ``types`` on offer for the last discard, each with the hand it leaves; a claim the
    hand cannot make is left out. ``face`` maps a kind of a 吃 run to the tile that stands for it in the
    hand (caishen: the 財神's face is a 白板, RULES B1)."""
    ld = tb.view.get("last_discard") or {}
    x = ld.get("tile")
    if x is None:
        return
    bt = tb.by_type
    for typ in types:
        for a in bt.get(typ, []):
            c = tb.counts.copy()
            melds = list(tb.melds)
            if typ == PENG:
                c[x] -= 2
                melds.append(("pung", x))
            elif typ == GANG:
                c[x] -= 3
                melds.append(("kong", x))
            else:
                lo = a["tile"]
                for k in (lo, lo + 1, lo + 2):
                    if face is not None:
                        k = face(k)
                    if k != x:
                        c[k] -= 1
                melds.append(("chow", lo))
            if min(c) < 0:
                continue
            yield ClaimOption(a, typ, c, melds)


def best_claim(tb: Table, value: Valuation, types: Sequence[str] = CLAIMS,
               face: Callable[[int], int] | None = None) -> tuple[ClaimOption, Any] | None:
    """The option ``value`` ranks lowest (the first of equal ones) and its note, or None: pass."""
    best: tuple[Any, ClaimOption, Any] | None = None
    for o in claim_options(tb, types, face):
        v = value(o)
        if v is not None and (best is None or v[0] < best[0]):
            best = (v[0], o, v[1])
    return None if best is None else (best[1], best[2])
