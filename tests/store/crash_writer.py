"""A writer process for the crash test: it hammers the store until it is killed.

``python -m tests.store.crash_writer DB SEED``. On start it settles the hands a previous,
killed writer left open (as the bot does on resume), prints ``ready N`` (N: hands it resumed), then loops forever.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections import namedtuple

from jxbot.store import InsufficientFunds, Store, StoreError

# Duck-typed stand-ins for jxbot.rules.contract.Settlement / Transfer: importing jxbot.rules builds
# its shape tables (~0.3 s), which would make each of the many writer start-ups slow.
Transfer = namedtuple("Transfer", "payer payee amount reason")
Settlement = namedtuple("Settlement", "transfers deltas house_delta")

G, CH = 1001, 2001
USERS = (1, 2, 3, 4, 5)


def make_settlement(rng: random.Random) -> tuple[Settlement, dict]:
    winner = rng.randrange(4)
    amount = rng.choice((1, 7, 40, 250))
    tr = [Transfer(s, winner, amount, "win") for s in range(4) if s != winner]
    tr += [Transfer(s, None, 1, "fee") for s in range(4)]
    deltas = [0, 0, 0, 0]
    for t in tr:
        deltas[t.payer] -= t.amount
        if t.payee is not None:
            deltas[t.payee] += t.amount
    result = {"winner": winner, "self_draw": False, "score": {"total_tai": 2, "total_fan": 1, "points": 10}}
    return Settlement(tuple(tr), tuple(deltas), -sum(deltas)), result


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    store = await Store.open(path)
    for uid in USERS:
        await store.ensure_player(uid, f"p{uid}")
        await store.grant_starting(G, uid)
    resumed = 0
    for h in await store.open_hands():  # resume: finish what a killed writer left
        s, r = make_settlement(random.Random(h.hand_id))
        resumed += not (await store.settle_hand(h.hand_id, G, list(h.seats), s, r)).repeated
    print(f"ready {resumed}", flush=True)
    n = 0
    while True:
        n += 1
        op = rng.random()
        try:
            if op < 0.5:
                hand_id = f"{os.getpid()}-{n}"
                seats: list[int | None] = list(rng.sample(USERS, 4))
                if rng.random() < 0.3:
                    seats[rng.randrange(4)] = None
                await store.create_hand(hand_id, G, CH, "jiaxing", seats, "c")
                for i in range(rng.randrange(1, 4)):
                    await store.append_event(hand_id, i, {"type": "discard", "n": i})
                s, r = make_settlement(random.Random(hand_id))
                await store.settle_hand(hand_id, G, seats, s, r)
            elif op < 0.8:
                a, b = rng.sample(USERS, 2)
                await store.pay(G, a, b, rng.choice((1, 10, 100)))
            elif op < 0.9:
                await store.daily(G, rng.choice(USERS), now=rng.uniform(0, 1e9))
            else:
                await store.admin_grant(G, rng.choice(USERS), rng.choice((5, 500)), "crash test")
        except InsufficientFunds:
            pass
        except StoreError as exc:  # e.g. daily cooldown
            if exc.code != "daily_cooldown":
                raise


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
