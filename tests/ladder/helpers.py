"""Playing a ranked match into a store without a runner: hands created and settled as the table's sink does."""

from __future__ import annotations

from jxbot.ladder import RankedMatch, settle_ranked_hand
from jxbot.store import Store
from tests.store.conftest import settlement, win_result

G = 1001
CH = 2001


async def open_match(store: Store, match_id: str, users: list[int | None], ladder: str = str(G)) -> RankedMatch:
    for u in users:
        if u is not None:
            await store.ensure_player(u, f"p{u}")
            await store.grant_starting(G, u)
    await store.save_table(match_id, G, CH, {"ranked": True}, {})
    return RankedMatch(match_id, ladder, "jiaxing", G)


def view(winner: int | None, users: list[int | None], *, last: bool, discarder: int | None = None,
         self_draw: bool = False, **kw) -> dict:
    v = win_result(winner, self_draw=self_draw)
    v["discarder"] = discarder
    v["match_over"] = last
    v["payments"] = [{"seat": i, "name": f"p{u}" if u is not None else f"cpu:{kw.get('level', 'normal')}:{i}",
                      "is_computer": u is None} for i, u in enumerate(users)]
    return v


async def play_hand(store: Store, match: RankedMatch, n: int, users: list[int | None], winner: int | None,
                    amount: int, *, last: bool, discarder: int | None = None, now: float = 1000.0, **kw):
    """Hand ``n`` of the match: ``winner`` takes ``amount`` from ``discarder`` (or from each other seat on a self
    draw)."""
    hid = f"{match.match_id}-h{n}"
    await store.create_hand(hid, G, CH, "jiaxing", users, "c", table_id=match.match_id)
    if winner is None:
        st = settlement()
    elif discarder is not None:
        st = settlement((discarder, winner, amount, "win"))
    else:
        st = settlement(*[(i, winner, amount, "win") for i in range(4) if i != winner])
    v = view(winner, users, last=last, discarder=discarder, self_draw=discarder is None and winner is not None, **kw)
    return await settle_ranked_hand(store, match, hid, G, users, st, v, now=now + n)
