"""Hands and their event logs; settlement (every ledger row, the stats and the result in one transaction, once per hand)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiosqlite

from jxbot.store.base import (
    APPEND_BATCH,
    SETTLEMENT_REASONS,
    Tx,
    _append_batch_sync,
    _check_amount,
    _check_id,
    _check_seats,
    _check_text,
    _dumps,
    _json_text,
    _loads,
    _retrying,
    _time,
    multiplier_ruleset,
)
from jxbot.store.errors import (
    MAX_AMOUNT,
    AmountOverflow,
    EventConflict,
    EventOutOfOrder,
    HandConflict,
    HandLive,
    HandSettled,
    InvalidArgument,
    UnknownHand,
    UnknownTable,
)
from jxbot.store.models import (
    AppliedTransfer,
    HandRecord,
    SettleResult,
)
from jxbot.store.wallets import WalletsPart


class HandsPart(WalletsPart):
    # ------------------------------------------------------------------------- hands & events
    _HAND_COLS = (
        "hand_id, guild_id, channel_id, table_id, ruleset, seats, commitment, reveal, status, created_at, settled_at"
    )

    @staticmethod
    def _hand(row: Any) -> HandRecord:
        return HandRecord(
            hand_id=row[0],
            guild_id=row[1],
            channel_id=row[2],
            table_id=row[3],
            ruleset=row[4],
            seats=tuple(json.loads(row[5])),
            commitment=row[6],
            reveal=_loads(row[7]),
            status=row[8],
            created_at=row[9],
            settled_at=row[10],
        )

    @_retrying
    async def create_hand(
        self,
        hand_id: str,
        guild_id: int,
        channel_id: int,
        ruleset: str,
        seats: Sequence[int | None],
        commitment: str,
        *,
        table_id: str | None = None,
        now: float | None = None,
    ) -> HandRecord:
        """Record a new hand (seats: 4 user ids, ``None`` for a computer). Idempotent for the same data;
        the same id with different data raises ``HandConflict``."""
        hand_id = _check_text(hand_id, "hand id", 200)
        _check_id(guild_id, "guild id")
        _check_id(channel_id, "channel id")
        ruleset = _check_text(ruleset, "ruleset", 50)
        seats_t = _check_seats(seats)
        commitment = _check_text(commitment, "commitment", 200)
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, f"SELECT {self._HAND_COLS} FROM hands WHERE hand_id = ?", (hand_id,))
            if row is not None:
                old = self._hand(row)
                same = (old.guild_id, old.channel_id, old.ruleset, old.seats, old.commitment) == (
                    guild_id,
                    channel_id,
                    ruleset,
                    seats_t,
                    commitment,
                ) and (table_id is None or table_id == old.table_id)
                if not same:
                    raise HandConflict(f"hand {hand_id} exists with other data")
                return old
            for uid in seats_t:
                if uid is not None:
                    await self._require_player(db, uid)
            if table_id is not None and await self._one(db, "SELECT 1 FROM tables WHERE table_id = ?", (table_id,)) is None:
                raise UnknownTable(f"table {table_id}")
            await db.execute(
                "INSERT INTO hands(hand_id, guild_id, channel_id, table_id, ruleset, seats, commitment, status, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?)",
                (hand_id, guild_id, channel_id, table_id, ruleset, _dumps(list(seats_t)), commitment, at),
            )
            await db.executemany(
                "INSERT INTO hand_seats(hand_id, seat, user_id, guild_id) VALUES (?, ?, ?, ?)",
                [(hand_id, i, uid, guild_id) for i, uid in enumerate(seats_t) if uid is not None],
            )
            row = await self._one(db, f"SELECT {self._HAND_COLS} FROM hands WHERE hand_id = ?", (hand_id,))
        return self._hand(row)

    async def get_hand(self, hand_id: str) -> HandRecord | None:
        async with self._read() as db:
            row = await self._one(db, f"SELECT {self._HAND_COLS} FROM hands WHERE hand_id = ?", (hand_id,))
        return self._hand(row) if row else None

    @_retrying
    async def append_event(self, hand_id: str, index: int, event: Any, now: float | None = None) -> bool:
        """Append event ``index`` (0, 1, 2, … in order) to a hand's log.

        Returns True when written, False when that exact event was already there (idempotent retry).
        A different event at an existing index raises ``EventConflict``; a gap ``EventOutOfOrder``.
        """
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise InvalidArgument("event index must be a non-negative integer")
        text = _json_text(event, "event")
        at = _time(now)
        async with self._write() as db:
            row = await self._one(
                db,
                "SELECT (SELECT event FROM hand_events WHERE hand_id = ?1 AND idx = ?2), "
                "(SELECT COALESCE(MAX(idx) + 1, 0) FROM hand_events WHERE hand_id = ?1), "
                "EXISTS(SELECT 1 FROM hands WHERE hand_id = ?1)",
                (hand_id, index),
            )
            existing, next_index, known = row
            if not known:
                raise UnknownHand(f"hand {hand_id}")
            if existing is not None:
                if existing == text or json.loads(existing) == json.loads(text):
                    return False
                raise EventConflict(f"hand {hand_id} event {index} differs from the stored one")
            if index != next_index:
                raise EventOutOfOrder(f"hand {hand_id}: expected event {next_index}, got {index}")
            await self._require_open(db, hand_id)
            await db.execute("INSERT INTO hand_events(hand_id, idx, event, at) VALUES (?, ?, ?, ?)", (hand_id, index, text, at))
        return True

    async def append_events(self, hand_id: str, start: int, events: Sequence[Any], now: float | None = None) -> int:
        """Append events ``start``, ``start + 1``, … in one transaction (a table's move is often two or
        three events: one commit instead of several). The rules of :meth:`append_event` hold for each:
        an index already stored must hold the same event (a retry), a gap raises ``EventOutOfOrder``.
        Returns how many were written.

        Group commit: the moves of every table that arrive while a write is in progress go into the next
        transaction together (at most APPEND_BATCH), four trips to the database thread and one commit for
        all of them, where one each would queue every table behind the others' trips under load. Each
        caller still returns only once its events are committed, and gets its own error."""
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise InvalidArgument("event index must be a non-negative integer")
        texts = [_json_text(e, "event") for e in events]
        if not texts:
            return 0
        if self._pool is not None:  # PostgreSQL: concurrent transactions, one per move (no database thread)
            return await self._append_events_txn(hand_id, start, texts, _time(now))
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._appends.append((hand_id, start, texts, _time(now), fut))
        if self._appender is None or self._appender.done():
            self._appender = asyncio.ensure_future(self._append_batches())
        return await fut

    @_retrying
    async def _append_events_txn(self, hand_id: str, start: int, texts: list[str], at: float) -> int:
        """append_events' transaction for one move (validated texts): the PostgreSQL path."""
        async with self._write() as db:
            row = await self._one(
                db,
                "SELECT (SELECT COALESCE(MAX(idx) + 1, 0) FROM hand_events WHERE hand_id = ?1), "
                "EXISTS(SELECT 1 FROM hands WHERE hand_id = ?1)",
                (hand_id,),
            )
            next_index, known = row
            if not known:
                raise UnknownHand(f"hand {hand_id}")
            if start > next_index:
                raise EventOutOfOrder(f"hand {hand_id}: expected event {next_index}, got {start}")
            if start < next_index:  # a retry of events already stored: they must be the same
                stored = dict(await self._all(
                    db, "SELECT idx, event FROM hand_events WHERE hand_id = ? AND idx >= ? AND idx < ?",
                    (hand_id, start, min(next_index, start + len(texts)))))
                for i, text in enumerate(texts[: next_index - start]):
                    old = stored.get(start + i)
                    if old != text and (old is None or json.loads(old) != json.loads(text)):
                        raise EventConflict(f"hand {hand_id} event {start + i} differs from the stored one")
            new = [(hand_id, start + i, text, at) for i, text in enumerate(texts) if start + i >= next_index]
            if new:
                await self._require_open(db, hand_id)
            await db.executemany("INSERT INTO hand_events(hand_id, idx, event, at) VALUES (?, ?, ?, ?)", new)
        return len(new)

    async def _require_open(self, db: Any, hand_id: str) -> None:
        """Inside an append's transaction: the hand is not settled (a settled hand's log is final). On
        PostgreSQL the row is share-locked, so a settlement (which locks it for update) cannot commit
        between this check and the insert."""
        row = await self._one(db, "SELECT status FROM hands WHERE hand_id = ?" + (" FOR SHARE" if self._lock else ""),
                              (hand_id,))
        if row is None:
            raise UnknownHand(f"hand {hand_id}")
        if row[0] != "running":
            raise HandSettled(f"hand {hand_id} is settled")

    async def _append_batches(self) -> None:
        while self._appends:
            batch = [b for b in self._appends[:APPEND_BATCH] if not b[4].done()]  # (a cancelled caller: skipped)
            del self._appends[:APPEND_BATCH]
            if not batch:
                continue
            try:
                results = await self._append_batch(batch)
            except BaseException as exc:  # the transaction failed: every move in it failed
                for *_, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            for (*_, fut), res in zip(batch, results, strict=True):
                if not fut.done():
                    if isinstance(res, Exception):
                        fut.set_exception(res)
                    else:
                        fut.set_result(res)

    async def _append_batch(self, batch: list[tuple[str, int, list[str], float, Any]]) -> list[int | Exception]:
        # the whole transaction in ONE trip to the connection's thread (aiosqlite runs the function there):
        # a trip costs an event-loop turn, which is long when the bot is busy
        async with self._wlock:
            return await self._db._execute(_append_batch_sync, self._db._conn, batch)

    async def hand_events(self, hand_id: str) -> list[Any]:
        """The hand's events in order (parsed JSON)."""
        async with self._read() as db:
            if await self._one(db, "SELECT 1 FROM hands WHERE hand_id = ?", (hand_id,)) is None:
                raise UnknownHand(f"hand {hand_id}")
            rows = await self._all(db, "SELECT event FROM hand_events WHERE hand_id = ? ORDER BY idx", (hand_id,))
        return [json.loads(r[0]) for r in rows]

    @_retrying
    async def settle_hand(
        self,
        hand_id: str,
        guild_id: int,
        seats: Sequence[int | None],
        settlement: Any,
        result_json: Any,
        now: float | None = None,
        *,
        abandoned_only: bool = False,
        then: Callable[[Tx, SettleResult], Awaitable[Any]] | None = None,
    ) -> SettleResult:
        """Pay a hand: every ledger row, the stats and the result in ONE transaction, once per hand id.

        ``settlement`` is a ``jxbot.rules.contract.Settlement`` (transfers between seat indexes,
        ``None`` = house). Computer seats (``None`` in ``seats``) pay and are paid by the house.
        Transfers are applied in order; a player never goes below 0 (a payer short of silver pays
        what they have, and the payee receives that; ``capped`` is then True).
        A repeated call returns the first result unchanged (``repeated=True``), writing nothing; a
        settlement of a hand already settled as void raises ``HandSettled`` (its runner must not take
        the void for its own result).

        ``abandoned_only`` (voiding at start, jxbot/shell/suspend.py): settle only if the hand's table is closed
        (suspended, or closed by a failure); else ``HandLive``, writing nothing. The table's row is read
        locked in this same transaction, so a table that is saved, resumed or dealt meanwhile — by this
        process or another — is never voided.

        ``then(tx, result)`` runs inside this same transaction after the hand is recorded, the first time only
        (a repeat returns before it): what must be written with the settlement or not at all — a ranked match's
        rating update on its last hand (jxbot/ladder/settle.py). If it raises, nothing of the settlement is
        written either.
        """
        _check_id(guild_id, "guild id")
        seats_t = _check_seats(seats)
        transfers = self._check_settlement(settlement)
        result_text = _json_text(result_json, "result")
        result_obj = json.loads(result_text)
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            row = await self._one(
                db, "SELECT guild_id, seats, status, result, ruleset, table_id FROM hands WHERE hand_id = ?" + self._lock,
                (hand_id,)
            )
            if row is None:
                raise UnknownHand(f"hand {hand_id}")
            h_guild, h_seats, status, stored, ruleset, h_table = row
            if abandoned_only:
                trow = None if h_table is None else await self._one(
                    db, "SELECT status FROM tables WHERE table_id = ?" + self._lock, (h_table,))
                if trow is None or trow[0] == "running":
                    raise HandLive(f"hand {hand_id}: its table is not closed")
            if status == "settled":
                first = SettleResult.from_json(json.loads(stored), repeated=True)
                was_void = isinstance(first.result, dict) and bool(first.result.get("void"))
                if was_void and not (isinstance(result_obj, dict) and result_obj.get("void")):
                    raise HandSettled(f"hand {hand_id} was settled as void")
                return first
            if h_guild != guild_id or tuple(json.loads(h_seats)) != seats_t:
                raise HandConflict(f"hand {hand_id}: guild or seats differ from the record")

            humans = [u for u in seats_t if u is not None]
            # the players' wallets (in wallet order), then the house: the order every operation locks them in
            found = {
                r[0]: (r[1], r[2])
                for r in await self._all(
                    db,
                    f"SELECT user_id, wallet_id, balance FROM wallets WHERE scope = ? "
                    f"AND user_id IN ({','.join('?' * len(humans))}) ORDER BY wallet_id{self._lock}",
                    (scope, *humans),
                )
            } if humans else {}
            house_id, house_bal = await self._wallet(db, scope, None, at)
            balances: dict[int, int] = {house_id: house_bal}
            seat_wallet: list[int] = []
            for uid in seats_t:
                if uid is None:
                    seat_wallet.append(house_id)
                    continue
                wid, bal = found[uid] if uid in found else await self._wallet(db, scope, uid, at)
                balances[wid] = bal
                seat_wallet.append(wid)

            def owner(seat: int | None) -> tuple[int, int | None]:
                if seat is None:
                    return house_id, None
                return seat_wallet[seat], seats_t[seat]

            txn = await self._txn(db, "settle", guild_id, at, hand_id=hand_id)
            running = dict(balances)
            entries: list[tuple[int, int | None, int, str]] = []
            applied: list[AppliedTransfer] = []
            deltas = [0, 0, 0, 0]
            house_delta = 0
            capped = False
            for payer, payee, asked, reason in transfers:
                pw, pu = owner(payer)
                qw, qu = owner(payee)
                amount = asked
                if pu is not None:
                    amount = min(amount, running[pw])
                capped = capped or amount != asked
                if amount > 0 and pw != qw:
                    if running[qw] > MAX_AMOUNT - amount:
                        raise AmountOverflow("a balance would exceed 2^63-1")
                    running[pw] -= amount
                    running[qw] += amount
                    out_reason, in_reason = SETTLEMENT_REASONS[reason]
                    entries.append((pw, pu, -amount, out_reason))
                    entries.append((qw, qu, amount, in_reason))
                for seat, sign in ((payer, -1), (payee, 1)):
                    if seat is None:
                        house_delta += sign * amount
                    else:
                        deltas[seat] += sign * amount
                        if seats_t[seat] is None:
                            house_delta += sign * amount
                applied.append(AppliedTransfer(payer, payee, amount, asked, reason))
            await self._post(db, txn, guild_id, at, entries, balances, hand_id=hand_id)

            res = SettleResult(
                hand_id=hand_id,
                deltas=tuple(deltas),
                house_delta=house_delta,
                balances=tuple(None if uid is None else balances[seat_wallet[i]] for i, uid in enumerate(seats_t)),
                transfers=tuple(applied),
                capped=capped,
                result=result_obj,
                settled_at=at,
            )
            await self._record_result(db, hand_id, guild_id, seats_t, deltas, result_obj, res, at, ruleset)
            if then is not None:
                await then(Tx(db, self.backend), res)
        self._observe("settlement", 0.0)  # committed, the first time (a repeat returned above)
        return res

    @staticmethod
    def _check_settlement(settlement: Any) -> list[tuple[int | None, int | None, int, str]]:
        try:
            raw = list(settlement.transfers)
        except (AttributeError, TypeError):
            raise InvalidArgument("settlement must have transfers") from None
        out = []
        computed = [0, 0, 0, 0]
        for t in raw:
            try:
                payer, payee, amount, reason = t.payer, t.payee, t.amount, t.reason
            except AttributeError:
                raise InvalidArgument("a transfer needs payer, payee, amount and reason") from None
            for s in (payer, payee):
                if s is not None and (not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3):
                    raise InvalidArgument("transfer seats must be 0-3 or None")
            if payer == payee:
                raise InvalidArgument("a transfer needs two different parties")
            _check_amount(amount, allow_zero=True)
            if reason not in SETTLEMENT_REASONS:
                raise InvalidArgument(f"unknown transfer reason {reason!r}")
            if payer is not None:
                computed[payer] -= amount
            if payee is not None:
                computed[payee] += amount
            out.append((payer, payee, amount, reason))
        deltas = getattr(settlement, "deltas", None)
        if deltas is not None and list(deltas) != computed:
            raise InvalidArgument("settlement deltas do not match its transfers")
        house = getattr(settlement, "house_delta", None)
        if house is not None and deltas is not None and sum(deltas) + house != 0:
            raise InvalidArgument("settlement is not zero-sum")
        return out

    async def _record_result(
        self,
        db: aiosqlite.Connection,
        hand_id: str,
        guild_id: int,
        seats: tuple[int | None, ...],
        deltas: list[int],
        result: Any,
        res: SettleResult,
        at: float,
        ruleset: str = "jiaxing",
    ) -> None:
        r = result if isinstance(result, dict) else {}
        score: dict[str, Any] = r["score"] if isinstance(r.get("score"), dict) else {}

        def as_int(v: Any) -> int | None:
            return v if isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_AMOUNT else None

        drawn = bool(r.get("drawn_game")) or r.get("winner") is None
        winner = None if drawn else as_int(r.get("winner"))
        if winner is not None and not 0 <= winner <= 3:
            winner = None
        self_draw = bool(r.get("self_draw")) and winner is not None
        tai, fan, points = (as_int(score.get(k)) for k in ("total_tai", "total_fan", "points"))
        mult: int | None = None
        if multiplier_ruleset(ruleset) or multiplier_ruleset(r.get("ruleset")):
            # caishen: the hand is worth stake × 倍; 台 and 番 do not apply (the score reports 0)
            stake = as_int(score.get("stake"))
            if points is not None and stake is not None and stake > 0 and points % stake == 0:
                mult = points // stake
            tai = fan = None
        if winner is None:
            tai = fan = points = mult = None
        patterns = [p for p in score.get("patterns") or [] if isinstance(p, str)] if winner is not None else []
        reveal = r.get("reveal")
        await db.execute(
            "UPDATE hands SET status = 'settled', result = ?, drawn = ?, winner_seat = ?, self_draw = ?, tai = ?, "
            "fan = ?, points = ?, mult = ?, reveal = COALESCE(?, reveal), settled_at = ? WHERE hand_id = ?",
            (
                _dumps(res.to_json()),
                int(drawn),
                winner,
                int(self_draw),
                tai,
                fan,
                points,
                mult,
                None if reveal is None else _dumps(reveal),
                at,
                hand_id,
            ),
        )
        seat_rows = []
        member_rows = []
        for i, uid in enumerate(seats):
            if uid is None:
                continue
            won = winner == i
            seat_rows.append((deltas[i], int(won), at, hand_id, i))
            member_rows.append(
                (
                    int(won),
                    int(won and self_draw),
                    deltas[i],
                    max(deltas[i], 0),
                    (points or 0) if won else 0,
                    (tai or 0) if won else 0,
                    (fan or 0) if won else 0,
                    (mult or 0) if won else 0,
                    at,
                    guild_id,
                    uid,
                )
            )
        await db.executemany(
            "INSERT OR IGNORE INTO members(guild_id, user_id, first_seen) VALUES (?, ?, ?)",
            [(guild_id, uid, at) for uid in seats if uid is not None],
        )
        await db.executemany(
            "UPDATE hand_seats SET delta = ?, won = ?, settled_at = ? WHERE hand_id = ? AND seat = ?", seat_rows
        )
        await db.executemany(
            "UPDATE members SET hands = hands + 1, wins = wins + ?1, self_draws = self_draws + ?2, net = net + ?3, "
            "biggest_win = MAX(biggest_win, ?4), best_points = MAX(best_points, ?5), best_tai = MAX(best_tai, ?6), "
            "best_fan = MAX(best_fan, ?7), best_mult = MAX(best_mult, ?8), last_played = ?9 "
            "WHERE guild_id = ?10 AND user_id = ?11",
            member_rows,
        )
        if winner is not None and seats[winner] is not None and patterns:
            await db.executemany(
                "INSERT INTO member_patterns(guild_id, user_id, pattern, count) VALUES (?, ?, ?, 1) "
                "ON CONFLICT(guild_id, user_id, pattern) DO UPDATE SET count = member_patterns.count + 1",
                [(guild_id, seats[winner], p) for p in dict.fromkeys(patterns)],
            )

    async def open_hands(self) -> list[HandRecord]:
        """Hands created but not settled (to resume after a restart)."""
        async with self._read() as db:
            rows = await self._all(
                db, f"SELECT {self._HAND_COLS} FROM hands WHERE status = 'running' ORDER BY created_at, hand_id"
            )
        return [self._hand(r) for r in rows]

    async def hand_live(self, hand_id: str) -> bool:
        """True while the hand may still be in play: not settled, or settled as void while its table still
        runs (a void that should not have happened; the runner goes on dealing from its events). Replays,
        exports and the fair-deal check refuse such a hand: its concealed tiles and wall are still secret."""
        async with self._read() as db:
            row = await self._one(
                db,
                "SELECT h.status, h.result, t.status FROM hands h LEFT JOIN tables t ON t.table_id = h.table_id "
                "WHERE h.hand_id = ?",
                (hand_id,),
            )
        if row is None:
            raise UnknownHand(f"hand {hand_id}")
        status, result, table_status = row
        if status != "settled":
            return True
        if table_status != "running":
            return False
        try:
            res = json.loads(result) if result else None
        except ValueError:
            return True
        inner = res.get("result") if isinstance(res, dict) else None
        return isinstance(inner, dict) and bool(inner.get("void"))

    async def hand_result(self, hand_id: str) -> SettleResult | None:
        async with self._read() as db:
            row = await self._one(db, "SELECT status, result FROM hands WHERE hand_id = ?", (hand_id,))
        if row is None:
            raise UnknownHand(f"hand {hand_id}")
        return SettleResult.from_json(json.loads(row[1])) if row[0] == "settled" else None
