"""Integrity flags of the ranked ladder, for admins (``/admin flags``; docs/ranked.md, "Integrity"): pairs of
people whose doings look like passing rating or silver between them, each with its evidence.

* **pay** — a ``/pay`` (a ledger ``transfer``) between two people who shared a rated table within the 24 hours
  before it.
* **feed** — a player who deals in (放铳) to the same opponent far more often than chance: among the deal-ins of
  ``a`` in rated hands, the share that went to ``b`` is tested against 1/3 (each of the three others is
  equally likely to be the winner a deal-in pays); flagged at ``MIN_FEEDS`` or more with a one-sided binomial
  p-value below ``P_FLAG``.

Read-only: nothing here changes a rating or a wallet. The flags are computed when asked, from the ledger, the
hands and the ladder's matches (the store's own records), so nothing can be missed by a crash between a pay and
a note of it.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from jxbot.store import Store, Tx

DAY = 86_400.0
PAY_WINDOW = DAY  # a pay this soon after a shared rated table is flagged
LOOK_BACK = 30 * DAY  # how far back the flags look
MIN_FEEDS = 4  # deal-ins to one opponent before the pattern can be flagged
P_FLAG = 0.01  # flagged below this chance


@dataclass(frozen=True)
class Flag:
    kind: str  # "pay" | "feed"
    a: int  # the payer / the one who dealt in
    b: int  # the payee / the winner
    at: float  # the latest evidence's time
    evidence: dict[str, Any] = field(default_factory=dict)


def binomial_tail(n: int, k: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    return min(1.0, sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)))


async def _pays(tx: Tx, guild_id: int | None, since: float) -> list[Flag]:
    where, args = "", [since]
    if guild_id is not None:
        where, args = " AND a.guild_id = ?", [since, guild_id]
    rows = await tx.all(
        "SELECT a.user_id, b.user_id, b.delta, a.at FROM ledger a JOIN ledger b ON b.txn_id = a.txn_id "
        "AND b.delta > 0 AND b.reason = 'transfer' WHERE a.reason = 'transfer' AND a.delta < 0 AND a.at >= ?"
        + where + " ORDER BY a.at", args)
    out = []
    for payer, payee, amount, at in rows:
        if payer is None or payee is None:
            continue
        shared = await tx.one(
            "SELECT h1.match_id, h1.at FROM ladder_history h1 JOIN ladder_history h2 ON h2.match_id = h1.match_id "
            "AND h2.user_id = ? JOIN ladder_matches m ON m.match_id = h1.match_id AND m.status = 'rated' "
            "WHERE h1.user_id = ? AND h1.at <= ? AND h1.at >= ? ORDER BY h1.at DESC LIMIT 1",
            (payee, payer, at, at - PAY_WINDOW))
        if shared is not None:
            out.append(Flag("pay", int(payer), int(payee), float(at),
                            {"amount": int(amount), "table": str(shared[0]),
                             "hours": round((float(at) - float(shared[1])) / 3600.0, 1)}))
    return out


async def _feeds(tx: Tx, guild_id: int | None, since: float) -> list[Flag]:
    where, args = "", [since]
    if guild_id is not None:
        where, args = " AND m.guild_id = ?", [since, guild_id]
    rows = await tx.all(
        "SELECT h.hand_id, h.seats, h.result, h.created_at FROM hands h JOIN ladder_matches m ON m.match_id = h.table_id "
        "AND m.status = 'rated' WHERE h.status = 'settled' AND m.at >= ?" + where + " ORDER BY h.created_at", args)
    dealt: dict[int, int] = defaultdict(int)  # a -> deal-ins in rated hands
    to: dict[tuple[int, int], list[tuple[str, float]]] = defaultdict(list)  # (a, b) -> the hands
    for hand_id, seats_text, result_text, created in rows:
        seats = json.loads(seats_text or "[]")
        stored = json.loads(result_text or "{}") or {}
        inner = stored.get("result")
        view: dict[str, Any] = inner if isinstance(inner, dict) else {}
        if view.get("void") or view.get("drawn_game") or view.get("self_draw"):
            continue
        w, d = view.get("winner"), view.get("discarder")
        if not isinstance(w, int) or not isinstance(d, int) or not (0 <= w < len(seats) and 0 <= d < len(seats)):
            continue
        a, b = seats[d], seats[w]
        if a is None or b is None:
            continue  # a computer on either side
        dealt[int(a)] += 1
        to[(int(a), int(b))].append((str(hand_id), float(created or 0)))
    out = []
    for (a, b), hands in to.items():
        n, total = len(hands), dealt[a]
        if n < MIN_FEEDS:
            continue
        p = binomial_tail(total, n, 1 / 3)
        if p < P_FLAG:
            out.append(Flag("feed", a, b, hands[-1][1], {"n": n, "deal_ins": total,
                                                         "expected": round(total / 3, 1), "p": p,
                                                         "hands": [h for h, _ in hands[-5:]]}))
    return out


async def flags(store: Store, guild_id: int | None, now: float, look_back: float = LOOK_BACK) -> list[Flag]:
    """Every flag of a server's ranked play (``guild_id=None``: every server's), newest first."""
    since = now - look_back

    async def q(tx: Tx) -> list[Flag]:
        return [*await _pays(tx, guild_id, since), *await _feeds(tx, guild_id, since)]

    found = await store.in_snapshot(q)
    return sorted(found, key=lambda f: -f.at)
