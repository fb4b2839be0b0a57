"""Running tables (what a restart resumes) and suspended ones."""

from __future__ import annotations

import json
from typing import Any

from jxbot.store.base import (
    StoreBase,
    _check_id,
    _check_text,
    _json_text,
    _retrying,
    _time,
)
from jxbot.store.errors import (
    InvalidArgument,
    UnknownTable,
)
from jxbot.store.models import (
    TableRecord,
)


class TablesPart(StoreBase):
    # ------------------------------------------------------------------------- tables (resume)
    @_retrying
    async def save_table(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        config_json: Any,
        state_json: Any,
        now: float | None = None,
    ) -> bool:
        """Insert or update a running table. Returns False (and writes nothing) if it was closed."""
        table_id = _check_text(table_id, "table id", 200)
        _check_id(guild_id, "guild id")
        _check_id(channel_id, "channel id")
        config = _json_text(config_json, "config")
        state = _json_text(state_json, "state")
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, "SELECT status, guild_id FROM tables WHERE table_id = ?" + self._lock, (table_id,))
            if row is None:
                await db.execute(
                    "INSERT INTO tables(table_id, guild_id, channel_id, config, state, status, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, 'running', ?, ?)",
                    (table_id, guild_id, channel_id, config, state, at, at),
                )
                return True
            if row[0] != "running":
                return False
            if row[1] != guild_id:
                raise InvalidArgument(f"table {table_id} belongs to another guild")
            await db.execute(
                "UPDATE tables SET channel_id = ?, config = ?, state = ?, updated_at = ? WHERE table_id = ?",
                (channel_id, config, state, at, table_id),
            )
        return True

    @_retrying
    async def close_table(self, table_id: str, now: float | None = None, *, if_suspended: bool = False) -> bool:
        """Mark a table closed. True if it was running; False if already closed. ``if_suspended``: only if
        its stored state carries the ``suspended`` note (checked in this transaction; False otherwise)."""
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, "SELECT status, state FROM tables WHERE table_id = ?" + self._lock, (table_id,))
            if row is None:
                raise UnknownTable(f"table {table_id}")
            if row[0] != "running":
                return False
            if if_suspended:
                try:
                    state = json.loads(row[1])
                except ValueError:
                    state = None
                if not (isinstance(state, dict) and state.get("suspended")):
                    return False
            await db.execute(
                "UPDATE tables SET status = 'closed', closed_at = ?, updated_at = ? WHERE table_id = ?", (at, at, table_id)
            )
        return True

    async def running_table_of(self, user_id: int) -> str | None:
        """The running table a person is seated at (one query; None: none). For a command that reaches a process
        which does not run the person's table (``/mahjong leave`` of a cross-server table: jxbot.cluster)."""
        async with self._read() as db:
            # the newest first: one person sits at one table, and an older row naming them is a dead one
            rows = await self._all(db, "SELECT table_id, state FROM tables WHERE status = 'running' "
                                       "ORDER BY created_at DESC")
        for table_id, state in rows:
            d = json.loads(state) if isinstance(state, str) else state or {}
            if d.get("suspended"):  # stopped (its close did not reach the store): seats nobody any more
                continue
            seats = (d.get("bot_table") or {}).get("seats") or []  # the bot's save: {"bot_table": …, "runner": …}
            if any(isinstance(o, dict) and o.get("user_id") == user_id and not o.get("is_computer") for o in seats):
                return str(table_id)
        return None

    async def running_tables(self) -> list[TableRecord]:
        """Every running table with its config, state and hand ids (oldest first)."""
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT table_id, guild_id, channel_id, config, state, status, created_at, updated_at FROM tables "
                "WHERE status = 'running' ORDER BY created_at, table_id",
            )
            out = []
            for r in rows:
                hands = await self._all(
                    db, "SELECT hand_id, status FROM hands WHERE table_id = ? ORDER BY created_at, rowid", (r[0],)
                )
                open_ids = [h[0] for h in hands if h[1] == "running"]
                out.append(
                    TableRecord(
                        table_id=r[0],
                        guild_id=r[1],
                        channel_id=r[2],
                        config=json.loads(r[3]),
                        state=json.loads(r[4]),
                        status=r[5],
                        hand_ids=tuple(h[0] for h in hands),
                        open_hand_id=open_ids[-1] if open_ids else None,
                        created_at=r[6],
                        updated_at=r[7],
                    )
                )
        return out

    async def private_hands(self, hand_ids: list[str]) -> set[str]:
        """Of ``hand_ids``, those played at a private table (its config's ``private``: a channel @everyone cannot
        see, or DMs; docs/web.md): the web does not show them."""
        ids = list(dict.fromkeys(hand_ids))[:200]
        if not ids:
            return set()
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT h.hand_id, t.config FROM hands h JOIN tables t ON t.table_id = h.table_id "
                f"WHERE h.hand_id IN ({', '.join('?' for _ in ids)})",
                tuple(ids),
            )
        out = set()
        for hand_id, config in rows:
            try:
                if (json.loads(config) or {}).get("private"):
                    out.add(str(hand_id))
            except (TypeError, ValueError):
                out.add(str(hand_id))  # unreadable: not shown
        return out

    async def suspended_tables(self) -> list[dict[str, Any]]:
        """Tables a runner failure suspended (closed, with a ``suspended`` note in their state; see
        docs/table.md): ``{"table_id", "guild_id", "channel_id", "at", "error", "hand_id"}``, oldest first."""
        if self._pool is not None:
            return await self._suspended_tables_pg()
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT table_id, guild_id, channel_id, json_extract(state, '$.suspended') FROM tables "
                "WHERE json_valid(state) AND json_extract(state, '$.suspended') IS NOT NULL ORDER BY updated_at, table_id",
            )
        out = []
        for r in rows:
            note = json.loads(r[3]) if isinstance(r[3], str) else {}
            out.append({"table_id": r[0], "guild_id": r[1], "channel_id": r[2], **(note if isinstance(note, dict) else {})})
        return out

    async def _suspended_tables_pg(self) -> list[dict[str, Any]]:
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT table_id, guild_id, channel_id, state FROM tables WHERE state LIKE '%\"suspended\"%' "
                "ORDER BY updated_at, table_id",
            )
        out = []
        for r in rows:
            try:
                state = json.loads(r[3])
            except ValueError:
                continue
            note = state.get("suspended") if isinstance(state, dict) else None
            if note is None:
                continue
            out.append({"table_id": r[0], "guild_id": r[1], "channel_id": r[2], **(note if isinstance(note, dict) else {})})
        return out
