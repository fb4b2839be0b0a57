"""A process killed (SIGKILL) inside or right after the transaction of a ranked match's last settlement.

``python -m tests.ladder.crash_ranked DB WHEN``: plays hand 0 of match "k" (if not yet), then settles its last hand
with the rating update and stops there: WHEN = ``inside`` prints ``inside`` after the ratings are written but
before the transaction commits; ``after`` prints ``after`` once it committed. Then it sleeps until killed.
"""

from __future__ import annotations

import asyncio
import sys

from jxbot.ladder import rate_match
from jxbot.store import Store
from tests.ladder.helpers import G, open_match, view
from tests.store.conftest import settlement

U = [11, 12, 13, 14]


async def main(path: str, when: str) -> None:
    store = await Store.open(path)
    m = await open_match(store, "k", U)
    if await store.get_hand("k-h0") is None:
        await store.create_hand("k-h0", G, 2001, "jiaxing", U, "c", table_id="k")
        await store.settle_hand("k-h0", G, U, settlement((1, 0, 10, "win")), view(0, U, last=False, discarder=1))
    if await store.get_hand("k-h1") is None:
        await store.create_hand("k-h1", G, 2001, "jiaxing", U, "c", table_id="k")

    async def then(tx, res):
        await rate_match(tx, m, res.settled_at)
        if when == "inside":
            print("inside", flush=True)
            await asyncio.sleep(60)

    await store.settle_hand("k-h1", G, U, settlement((2, 3, 20, "win")), view(3, U, last=True, discarder=2),
                            then=then)
    print("after", flush=True)
    await asyncio.sleep(60)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
