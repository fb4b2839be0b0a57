"""The cross-server ranked queue: one queue in the store, shared by every process of a shared store (PostgreSQL),
matched with the same rules as a server's queue (``queue.MatchQueue``: the band that widens with the time waited,
the same four at most ``max_together_per_day`` rated matches a day). docs/ranked.md, "The cross-server queue".

Rows of ``ranked_queue`` (one per waiting person, whatever ladder): ``claimed`` is NULL while they wait.

* ``join`` inserts the row (a person already in it: nothing changes, False).
* ``leave`` deletes it if it still waits (from any process: the row is the queue).
* ``form`` is the matching pass, **one transaction**: on PostgreSQL it first takes a transaction-level advisory lock
  (``pg_try_advisory_xact_lock``: one matcher at a time across every process; a process that does not get it forms
  nothing this pass), then reads the waiting rows locked (``FOR UPDATE``), the rated groups of the last day, forms
  the tables with a ``MatchQueue`` and marks each formed person ``claimed`` with their group's id — in the same
  transaction, so a claimed person is never read as waiting again by any matcher: nobody is put at two tables.
  (SQLite: the store's one writer serializes the passes.)
* The process that formed a group opens its table, then ``opened(group, table_id)`` records where it plays, or
  ``release(group, refused)`` deletes the people who could not sit and puts the others back (waiting, with their
  time waited kept).
* Each process tells its own waiting people: ``entries(user_ids)`` shows whose row has a table (``forget`` then
  deletes it), whose row is gone (left from another process).
* ``expire(older_than)``: groups claimed long ago whose table never opened (the matcher died) go back to waiting.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from jxbot.ladder.queue import DAY, MatchQueue, QueueSettings, Ticket
from jxbot.store import Store, Tx

LOCK_KEY = 0x6A78_5251  # the matchers' advisory lock ("jxRQ")
CLAIM_SECONDS = 120.0  # a group claimed this long ago with no table: its matcher died; back to the queue


@dataclass(frozen=True)
class Entry:
    user_id: int
    ladder: str
    guild_id: int  # the server they queued from
    rating: int  # displayed rating when they queued
    name: str
    lang: str
    joined_at: float  # unix seconds
    claimed: str | None = None  # the group a matcher put them in
    table_id: str | None = None  # once their table opened


_COLS = "user_id, ladder, guild_id, rating, name, lang, joined_at, claimed, table_id"


def _entry(r: tuple) -> Entry:
    return Entry(int(r[0]), str(r[1]), int(r[2]), int(r[3]), str(r[4]), str(r[5]), float(r[6]),
                 r[7] if r[7] is None else str(r[7]), r[8] if r[8] is None else str(r[8]))


@dataclass(frozen=True)
class Group:
    group_id: str
    ladder: str
    people: tuple[Entry, ...]  # longest waiting first


class SharedQueue:
    """The store's ranked queue (see the module). ``clock`` gives unix seconds."""

    def __init__(self, store: Store, settings: QueueSettings | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.settings = settings or QueueSettings()
        self.clock = clock

    async def join(self, user_id: int, ladder: str, guild_id: int, rating: int, name: str, lang: str) -> bool:
        async def q(tx: Tx) -> bool:
            n = await tx.execute(
                "INSERT INTO ranked_queue (user_id, ladder, guild_id, rating, name, lang, joined_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                (int(user_id), ladder, int(guild_id), int(rating), name[:100], lang, float(self.clock())))
            return n > 0

        return await self.store.in_transaction(q)

    async def leave(self, user_id: int) -> bool:
        """Out of the queue if they still wait (False: not queued, or already matched)."""
        async def q(tx: Tx) -> bool:
            return await tx.execute("DELETE FROM ranked_queue WHERE user_id = ? AND claimed IS NULL", (int(user_id),)) > 0

        return await self.store.in_transaction(q)

    async def waiting(self, ladder: str) -> list[Entry]:
        async def q(tx: Tx) -> list[Entry]:
            rows = await tx.all(f"SELECT {_COLS} FROM ranked_queue WHERE ladder = ? AND claimed IS NULL "
                                "ORDER BY joined_at, user_id", (ladder,))
            return [_entry(r) for r in rows]

        return await self.store.in_snapshot(q)

    async def entries(self, user_ids: Iterable[int]) -> dict[int, Entry]:
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}

        async def q(tx: Tx) -> dict[int, Entry]:
            marks = ", ".join("?" for _ in ids)
            rows = await tx.all(f"SELECT {_COLS} FROM ranked_queue WHERE user_id IN ({marks})", ids)
            return {int(r[0]): _entry(r) for r in rows}

        return await self.store.in_snapshot(q)

    async def forget(self, user_ids: Iterable[int]) -> None:
        """Delete the rows of people told their table opened."""
        ids = [int(u) for u in user_ids]

        async def q(tx: Tx) -> None:
            await tx.executemany("DELETE FROM ranked_queue WHERE user_id = ? AND table_id IS NOT NULL",
                                 [(u,) for u in ids])

        if ids:
            await self.store.in_transaction(q)

    async def form(self, ladder: str, now: float | None = None) -> list[Group]:
        """The matching pass (see the module): the groups formed now, each person claimed in this transaction."""
        now = self.clock() if now is None else now

        async def count(tx: Tx) -> int:
            row = await tx.one("SELECT COUNT(*) FROM ranked_queue WHERE ladder = ? AND claimed IS NULL", (ladder,))
            return int(row[0])

        if await self.store.in_snapshot(count) < self.settings.table_size:
            return []  # (a read: no write transaction each second while fewer than four wait)

        async def q(tx: Tx) -> list[Group]:
            if await count(tx) < self.settings.table_size:
                return []
            if tx.backend == "postgresql":
                got = await tx.one("SELECT pg_try_advisory_xact_lock(?)", (LOCK_KEY,))
                if not got or not got[0]:
                    return []  # another process is matching now
            lock = "" if tx.backend == "sqlite" else " FOR UPDATE"
            rows = await tx.all(f"SELECT {_COLS} FROM ranked_queue WHERE ladder = ? AND claimed IS NULL "
                                f"ORDER BY joined_at, user_id{lock}", (ladder,))
            people = {int(r[0]): _entry(r) for r in rows}
            mq = MatchQueue(self.settings, clock=lambda: now)
            recent = await tx.all("SELECT group_key, at FROM ladder_matches WHERE at >= ? AND status = 'rated'",
                                  (now - DAY,))
            mq.note_keys((str(k), float(at)) for k, at in recent)
            for e in people.values():
                mq.add(Ticket(e.user_id, e.rating, e.joined_at, e.guild_id))
            out = []
            for tickets in mq.form(now):
                gid = secrets.token_hex(6)
                group = tuple(people[tk.user_id] for tk in tickets)
                await tx.executemany("UPDATE ranked_queue SET claimed = ?, claimed_at = ? WHERE user_id = ? "
                                     "AND claimed IS NULL", [(gid, now, e.user_id) for e in group])
                out.append(Group(gid, ladder, group))
            return out

        return await self.store.in_transaction(q)

    async def opened(self, group: Group, table_id: str) -> None:
        async def q(tx: Tx) -> None:
            await tx.execute("UPDATE ranked_queue SET table_id = ? WHERE claimed = ?", (table_id, group.group_id))

        await self.store.in_transaction(q)

    async def release(self, group: Group, refused: Iterable[int] = ()) -> None:
        """The group's table did not open: the ``refused`` leave the queue, the others wait again."""
        out = [int(u) for u in refused]

        async def q(tx: Tx) -> None:
            await tx.executemany("DELETE FROM ranked_queue WHERE user_id = ? AND claimed = ?",
                                 [(u, group.group_id) for u in out])
            await tx.execute("UPDATE ranked_queue SET claimed = NULL, claimed_at = NULL WHERE claimed = ? "
                             "AND table_id IS NULL", (group.group_id,))

        await self.store.in_transaction(q)

    async def expire(self, older_than: float = CLAIM_SECONDS, now: float | None = None) -> int:
        """Groups claimed ``older_than`` seconds ago with no table (a matcher that died): back to waiting; tables'
        rows nobody forgot (their process is gone) are deleted after the same time."""
        now = self.clock() if now is None else now

        async def q(tx: Tx) -> int:
            n = await tx.execute("UPDATE ranked_queue SET claimed = NULL, claimed_at = NULL "
                                 "WHERE claimed IS NOT NULL AND table_id IS NULL AND claimed_at < ?", (now - older_than,))
            await tx.execute("DELETE FROM ranked_queue WHERE table_id IS NOT NULL AND claimed_at < ?",
                             (now - older_than,))
            return n

        return await self.store.in_transaction(q)
