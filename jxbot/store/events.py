"""Arranged tables (jxbot/shell/arranged.py) and events (jxbot/events): the rows that make a table's result
count once, whatever restarts happen between the table's end and its consumer recording it (docs/tournaments.md).

``arranged``: one row per arranged table, keyed by its caller's key; ``open`` → ``ended`` (the result is written
in the same step) → ``delivered`` (its consumer has it). ``events``: an event's settings and state (JSON),
``event_players`` its registrations, ``event_tables`` one result per (event, round, table): written with
``INSERT OR IGNORE``, so a result handed on twice counts once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from jxbot.store.base import StoreBase, _check_id, _check_text, _json_text, _retrying, _time

StateUpdate = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any] | None] | None


class EventsPart(StoreBase):
    # ------------------------------------------------------------------------- arranged tables
    @_retrying
    async def arranged_open(self, key: str, kind: str, table_id: str, spec: Any,
                            now: float | None = None) -> tuple[str, str, bool]:
        """Record an arranged table about to open. Returns (table id, status, new): an existing row's own
        table id and status when the key is known (nothing written), else ``(table_id, "open", True)``."""
        key = _check_text(key, "arranged key", 200)
        spec_text = _json_text(spec, "spec")
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, "SELECT table_id, status FROM arranged WHERE key = ?" + self._lock, (key,))
            if row is not None:
                return str(row[0]), str(row[1]), False
            await db.execute(
                "INSERT INTO arranged(key, kind, table_id, status, spec, created_at, updated_at) "
                "VALUES (?, ?, ?, 'open', ?, ?, ?)", (key, kind, table_id, spec_text, at, at))
        return table_id, "open", True

    @_retrying
    async def arranged_end(self, key: str, result: Any, now: float | None = None) -> bool:
        """The table ended with ``result``: True the first time, False (nothing written) after."""
        text = _json_text(result, "result")
        at = _time(now)
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE arranged SET status = 'ended', result = ?, updated_at = ? WHERE key = ? AND status = 'open'",
                (text, at, key))
            return bool(cur.rowcount)

    @_retrying
    async def arranged_delivered(self, key: str, now: float | None = None) -> bool:
        at = _time(now)
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE arranged SET status = 'delivered', updated_at = ? WHERE key = ? AND status = 'ended'",
                (at, key))
            return bool(cur.rowcount)

    async def arranged_get(self, key: str) -> dict[str, Any] | None:
        async with self._read() as db:
            row = await self._one(db, "SELECT key, kind, table_id, status, spec, result FROM arranged WHERE key = ?",
                                  (key,))
        return None if row is None else _arranged_row(row)

    async def hand_wall_in_play(self, hand_id: str) -> bool:
        """True while the wall of ``hand_id`` may still be in play at another table: the hand is of a duplicate
        event's table (an arranged table whose spec says ``duplicate``, its ``data`` naming the event and the
        round) and that event still runs that round — every table of a duplicate round is dealt the same walls
        (docs/tournaments.md), so a finished hand's wall is another table's hand in play until the round ends.
        Replays, the fair-deal check, reviews and exports refuse such a hand (jxbot/replay_store.py)."""
        async with self._read() as db:
            row = await self._one(db, "SELECT table_id FROM hands WHERE hand_id = ?", (hand_id,))
            if row is None or row[0] is None:
                return False
            spec_row = await self._one(db, "SELECT spec FROM arranged WHERE table_id = ?", (str(row[0]),))
            if spec_row is None:
                return False
            try:
                spec = json.loads(spec_row[0])
                data = spec.get("data") or {}
                if not spec.get("duplicate") or "event" not in data:
                    return False
                event_id, round_no = str(data["event"]), int(data["round"])
            except (ValueError, TypeError, AttributeError, KeyError):
                return False
            ev = await self._one(db, "SELECT status, state FROM events WHERE event_id = ?", (event_id,))
        if ev is None or ev[0] != "running":
            return False
        try:
            return int((json.loads(ev[1]) or {}).get("round", 0)) == round_no
        except (ValueError, TypeError, AttributeError):
            return True  # unreadable: kept secret

    async def arranged_pending(self) -> list[dict[str, Any]]:
        """Ended arranged tables whose result is not yet delivered (oldest first)."""
        async with self._read() as db:
            rows = await self._all(db, "SELECT key, kind, table_id, status, spec, result FROM arranged "
                                       "WHERE status = 'ended' ORDER BY updated_at, key")
        return [_arranged_row(r) for r in rows]

    # ------------------------------------------------------------------------- events
    @_retrying
    async def event_create(self, event_id: str, guild_id: int, channel_id: int, name: str, config: Any,
                           state: Any, now: float | None = None) -> None:
        _check_id(guild_id, "guild id")
        _check_id(channel_id, "channel id")
        at = _time(now)
        async with self._write() as db:
            await db.execute(
                "INSERT INTO events(event_id, guild_id, channel_id, name, status, config, state, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?)",
                (event_id, guild_id, channel_id, _check_text(name, "event name", 100), _json_text(config, "config"),
                 _json_text(state, "state"), at, at))

    @_retrying
    async def event_save(self, event_id: str, status: str, state: Any, now: float | None = None) -> None:
        at = _time(now)
        async with self._write() as db:
            await db.execute("UPDATE events SET status = ?, state = ?, updated_at = ? WHERE event_id = ?",
                             (status, _json_text(state, "state"), at, event_id))

    @_retrying
    async def event_advance(self, event_id: str, expected_round: int | None, expected_status: str | tuple[str, ...],
                            new_status: str | None, updates: StateUpdate = None, now: float | None = None,
                            registered: list[tuple[int, bool]] | None = None) -> bool:
        """Compare and set, for several processes sharing the store: when the event is still at
        ``expected_round`` (its state's ``round``; None: any) with a status in ``expected_status``, set
        ``new_status`` (None: unchanged) and the top-level keys ``updates`` of its state (other keys, written by
        others meanwhile, are kept; a callable gets the current state and returns the keys, or None to change
        nothing) and return True; else change nothing and return False. One transaction holding the event's row
        (``FOR NO KEY UPDATE`` on PostgreSQL; SQLite's write transaction is exclusive): of two processes advancing
        the same round at once, exactly one wins. ``registered``: also only while the registrations are still
        these ``(user id, checked in)`` in order (a start; a registration or check-in takes the row's share lock
        and so comes wholly before or after)."""
        statuses = (expected_status,) if isinstance(expected_status, str) else tuple(expected_status)
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, "SELECT status, state FROM events WHERE event_id = ?" + self._lock, (event_id,))
            if row is None or str(row[0]) not in statuses:
                return False
            state = json.loads(row[1])
            if expected_round is not None and int(state.get("round", 0)) != expected_round:
                return False
            if registered is not None:
                regs = await self._all(db, "SELECT user_id, checked_in FROM event_players WHERE event_id = ? "
                                           "ORDER BY joined_at, user_id", (event_id,))
                if [(int(r[0]), bool(r[1])) for r in regs] != [(int(u), bool(c)) for u, c in registered]:
                    return False
            change = updates(state) if callable(updates) else (updates or {})
            if change is None:
                return False
            state.update(change)
            await db.execute("UPDATE events SET status = ?, state = ?, updated_at = ? WHERE event_id = ?",
                             (new_status or str(row[0]), _json_text(state, "state"), at, event_id))
        return True

    async def event_get(self, event_id: str) -> dict[str, Any] | None:
        async with self._read() as db:
            row = await self._one(db, "SELECT event_id, guild_id, channel_id, name, status, config, state "
                                      "FROM events WHERE event_id = ?", (event_id,))
        return None if row is None else _event_row(row)

    async def events_live(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Events open or running (of one guild, or every guild), oldest first."""
        sql = ("SELECT event_id, guild_id, channel_id, name, status, config, state FROM events "
               "WHERE status IN ('open', 'running')")
        params: tuple[Any, ...] = ()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params = (guild_id,)
        async with self._read() as db:
            rows = await self._all(db, sql + " ORDER BY created_at, event_id", params)
        return [_event_row(r) for r in rows]

    async def event_latest(self, guild_id: int) -> str | None:
        """The id of the guild's most recent event (any status), or None."""
        async with self._read() as db:
            row = await self._one(db, "SELECT event_id FROM events WHERE guild_id = ? ORDER BY created_at DESC, "
                                      "event_id DESC LIMIT 1", (guild_id,))
        return None if row is None else str(row[0])

    @_retrying
    async def event_join(self, event_id: str, user_id: int, name: str, now: float | None = None) -> bool:
        """Register a player: True if new, False if already registered or the event is not open (checked under
        the event row's share lock: a start's compare-and-set orders it wholly before or after)."""
        _check_id(user_id, "user id")
        at = _time(now)
        async with self._write() as db:
            if not await self._event_open(db, event_id):
                return False
            row = await self._one(db, "SELECT 1 FROM event_players WHERE event_id = ? AND user_id = ?",
                                  (event_id, user_id))
            if row is not None:
                return False
            await db.execute("INSERT INTO event_players(event_id, user_id, name, checked_in, joined_at) "
                             "VALUES (?, ?, ?, 0, ?)", (event_id, user_id, _check_text(name, "name", 200), at))
        return True

    @_retrying
    async def event_leave(self, event_id: str, user_id: int) -> bool:
        """Withdraw: False if not registered or the event is not open."""
        async with self._write() as db:
            if not await self._event_open(db, event_id):
                return False
            cur = await db.execute("DELETE FROM event_players WHERE event_id = ? AND user_id = ?", (event_id, user_id))
            return bool(cur.rowcount)

    @_retrying
    async def event_check_in(self, event_id: str, user_id: int) -> bool:
        async with self._write() as db:
            await self._one(db, "SELECT 1 FROM events WHERE event_id = ?" + self._share, (event_id,))
            cur = await db.execute("UPDATE event_players SET checked_in = 1 WHERE event_id = ? AND user_id = ?",
                                   (event_id, user_id))
            return bool(cur.rowcount)

    @property
    def _share(self) -> str:
        return " FOR SHARE" if self._lock else ""

    async def _event_open(self, db: Any, event_id: str) -> bool:
        row = await self._one(db, "SELECT status FROM events WHERE event_id = ?" + self._share, (event_id,))
        return row is not None and str(row[0]) == "open"

    async def event_players(self, event_id: str) -> list[dict[str, Any]]:
        async with self._read() as db:
            rows = await self._all(db, "SELECT user_id, name, checked_in FROM event_players WHERE event_id = ? "
                                       "ORDER BY joined_at, user_id", (event_id,))
        return [{"user_id": int(r[0]), "name": r[1], "checked_in": bool(r[2])} for r in rows]

    @_retrying
    async def event_table_result(self, event_id: str, round_no: int, table_no: int, result: Any,
                                 now: float | None = None) -> bool:
        """Record a table's result once: True the first time, False (nothing written) after."""
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, "SELECT 1 FROM event_tables WHERE event_id = ? AND round = ? AND table_no = ?",
                                  (event_id, round_no, table_no))
            if row is not None:
                return False
            await db.execute("INSERT INTO event_tables(event_id, round, table_no, result, at) VALUES (?, ?, ?, ?, ?)",
                             (event_id, round_no, table_no, _json_text(result, "result"), at))
        return True

    async def event_results(self, event_id: str) -> list[dict[str, Any]]:
        """Every recorded table result of an event: ``{"round", "table_no", "result"}``, in order."""
        async with self._read() as db:
            rows = await self._all(db, "SELECT round, table_no, result FROM event_tables WHERE event_id = ? "
                                       "ORDER BY round, table_no", (event_id,))
        return [{"round": int(r[0]), "table_no": int(r[1]), "result": json.loads(r[2])} for r in rows]


def _arranged_row(r: Any) -> dict[str, Any]:
    return {"key": r[0], "kind": r[1], "table_id": r[2], "status": r[3], "spec": json.loads(r[4]),
            "result": json.loads(r[5]) if r[5] is not None else None}


def _event_row(r: Any) -> dict[str, Any]:
    return {"event_id": r[0], "guild_id": int(r[1]), "channel_id": int(r[2]), "name": r[3], "status": r[4],
            "config": json.loads(r[5]), "state": json.loads(r[6])}
