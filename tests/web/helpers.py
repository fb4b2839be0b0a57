"""A played database for the web companion's tests: finished hands of a server whose pages are on, one of a
server whose pages are off, and a running table whose hand is written move by move as the bot's sink would."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from typing import Any

from jxbot.store import Store
from tests.replay.helpers import CHANNEL, GUILD, played_hand, store_hand

OFF_GUILD = 8  # a server whose pages are off
EVIL = '<script>alert("x")</script>&\'"'  # a player's name that must come out as text
USERS = [101, 102, None, None]
TABLE = "tbl1"
LIVE_HAND = "fedcba987654-1"


_TEMPLATE: list[str] = []  # the database built once per test process, copied for each test


async def played_store(path: str) -> Store:
    """A copy of the played database (built once per process: playing the hands is the slow part)."""
    if not _TEMPLATE:
        tmp = os.path.join(tempfile.mkdtemp(prefix="jxbot-web-"), "played.sqlite3")
        await (await _build(tmp)).close()
        _TEMPLATE.append(tmp)
    shutil.copyfile(_TEMPLATE[0], path)
    return await Store.open(path)


async def _build(path: str) -> Store:
    store = await Store.open(path)
    for n in range(1, 4):
        await store_hand(store, played_hand(n + 2, hand_id=f"0123456789ab-{n}"), list(USERS))
    await store.ensure_player(101, EVIL)  # the name the bot keeps for 101 (escaped on every page)
    await store.update_guild_settings(GUILD, web=True, web_name="Test <b>server</b>")
    off = played_hand(9, hand_id="aaaaaaaaaaaa-1")
    await store.create_hand(off.hand_id, OFF_GUILD, CHANNEL, off.ruleset.name, [None] * 4, off.commitment)
    for i, e in enumerate(off.events_json()):
        await store.append_event(off.hand_id, i, e)
    await store.settle_hand(off.hand_id, OFF_GUILD, [None] * 4, off.settlement, off.result_view())
    return store


def bot_table_state(names: list[str]) -> dict:
    seats = [{"user_id": None, "name": f"cpu:normal:{i}", "is_computer": True, "lang": "zh", "dm_ok": None,
              "level": "normal"} for i in range(4)]
    for i, name in enumerate(names):
        seats[i] = {**seats[i], "user_id": 101 + i, "name": name, "is_computer": False}
    return {"bot_table": {"id": TABLE, "seats": seats}, "runner": {}}


class LiveTable:
    """A running table in the store: ``await step()`` writes the next move's events (what the sink writes)."""

    def __init__(self, store: Any, seed: int = 11) -> None:
        self.store = store
        self.hand = played_hand(seed, hand_id=LIVE_HAND)
        self.events = self.hand.events_json()
        self.written = 0

    async def open(self, upto: int = 3) -> None:
        await self.store.save_table(TABLE, GUILD, CHANNEL, {"stake": 5}, bot_table_state([EVIL, "Bob"]))
        await self.store.create_hand(LIVE_HAND, GUILD, CHANNEL, self.hand.ruleset.name, [101, 102, None, None],
                                     self.hand.commitment, table_id=TABLE)
        await self.write(upto)

    async def write(self, upto: int) -> None:
        upto = min(upto, len(self.events) - 1)  # the last event (the settlement) is never written: still running
        while self.written < upto:
            await self.store.append_event(LIVE_HAND, self.written, self.events[self.written])
            self.written += 1

    async def play(self, moves: int, every: float = 0.05) -> None:
        for _ in range(moves):
            await self.write(self.written + 2)
            await asyncio.sleep(every)

    @property
    def secrets(self) -> list[str]:
        """Strings that would betray the running hand's wall: its salt, its wall as hex and as notation."""
        from jxbot.replay import wall_notation

        return [self.hand.salt, bytes(self.hand.wall).hex(), wall_notation(self.hand.wall)[:60]]
