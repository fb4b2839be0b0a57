"""Wallets, the ledger and the seat holds (RULES A10): every silver change is ledger rows that sum to zero."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import aiosqlite

from jxbot.store.base import (
    DAY,
    _check_amount,
    _check_id,
    _check_seats,
    _check_text,
    _retrying,
    _time,
)
from jxbot.store.errors import (
    MAX_AMOUNT,
    MIN_HOUSE,
    AmountOverflow,
    DailyCooldown,
    FundsHeld,
    InsufficientFunds,
    InvalidAmount,
    SelfTransfer,
)
from jxbot.store.models import (
    DailyResult,
    PayResult,
    SitCheck,
)
from jxbot.store.players import PlayersPart


class WalletsPart(PlayersPart):
    # ------------------------------------------------------------------------- wallets & ledger
    async def _wallet(self, db: aiosqlite.Connection, scope: int, user_id: int | None, now: float) -> tuple[int, int]:
        """(wallet_id, balance) of a player (user_id) or the house (None), created if missing."""
        params: tuple[int, ...]
        if user_id is None:
            sql, params = "SELECT wallet_id, balance FROM wallets WHERE scope = ? AND user_id IS NULL", (scope,)
        else:
            sql, params = "SELECT wallet_id, balance FROM wallets WHERE scope = ? AND user_id = ?", (scope, user_id)
        row = await self._one(db, sql + self._lock, params)
        if row is not None:
            return int(row[0]), int(row[1])
        cur = await db.execute(
            "INSERT INTO wallets(scope, user_id, balance, created_at) VALUES (?, ?, 0, ?)", (scope, user_id, now)
        )
        return int(cur.lastrowid), 0  # type: ignore[arg-type]

    async def _member(self, db: aiosqlite.Connection, guild_id: int, user_id: int, now: float) -> None:
        await db.execute(
            "INSERT OR IGNORE INTO members(guild_id, user_id, first_seen) VALUES (?, ?, ?)", (guild_id, user_id, now)
        )

    async def _txn(
        self,
        db: aiosqlite.Connection,
        kind: str,
        guild_id: int,
        now: float,
        hand_id: str | None = None,
        actor: int | None = None,
        note: str | None = None,
    ) -> int:
        cur = await db.execute(
            "INSERT INTO txns(kind, guild_id, hand_id, actor, note, at) VALUES (?, ?, ?, ?, ?, ?)",
            (kind, guild_id, hand_id, actor, note, now),
        )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    async def _post(
        self,
        db: aiosqlite.Connection,
        txn_id: int,
        guild_id: int,
        now: float,
        entries: Sequence[tuple[int, int | None, int, str]],
        balances: dict[int, int],
        hand_id: str | None = None,
    ) -> dict[int, int]:
        """Write ledger rows ``(wallet_id, user_id, delta, reason)`` and the new wallet balances.

        ``balances`` holds the current balance of every wallet touched; it is updated and returned.
        The entries must sum to zero (checked); each running balance is range-checked.
        """
        if sum(e[2] for e in entries) != 0:
            raise AssertionError("ledger entries of one transaction must sum to zero")
        rows = []
        for wallet_id, user_id, delta, reason in entries:
            if delta == 0:
                continue
            new = balances[wallet_id] + delta
            if user_id is not None and new < 0:
                raise InsufficientFunds(needed=-delta, balance=balances[wallet_id])
            if new > MAX_AMOUNT or new < MIN_HOUSE:
                raise AmountOverflow("balance would exceed 2^63-1")
            balances[wallet_id] = new
            rows.append((txn_id, wallet_id, guild_id, user_id, delta, new, reason, hand_id, now))
        await db.executemany(
            "INSERT INTO ledger(txn_id, wallet_id, guild_id, user_id, delta, balance_after, reason, hand_id, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        touched = {r[1] for r in rows}
        await db.executemany(
            "UPDATE wallets SET balance = ? WHERE wallet_id = ?", [(balances[w], w) for w in sorted(touched)]
        )
        return balances

    async def balance(self, guild_id: int, user_id: int) -> int:
        """A player's balance in this guild's scope (0 before any silver). Unknown player: error."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        async with self._read() as db:
            await self._require_player(db, user_id)
            row = await self._one(
                db,
                "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?",
                (self._scope_key(guild_id), user_id),
            )
        return int(row[0]) if row else 0

    async def house_balance(self, guild_id: int) -> int:
        """The house account of this guild's scope (negative: silver it has put into circulation)."""
        _check_id(guild_id, "guild id")
        async with self._read() as db:
            row = await self._one(
                db, "SELECT balance FROM wallets WHERE scope = ? AND user_id IS NULL", (self._scope_key(guild_id),)
            )
        return int(row[0]) if row else 0

    async def balances_for(self, guild_id: int, seats: Sequence[int | None]) -> list[int | None]:
        """Balances of the 4 seats for a settlement; ``None`` for computer seats (house-backed)."""
        _check_id(guild_id, "guild id")
        seats_t = _check_seats(seats)
        scope = self._scope_key(guild_id)
        out: list[int | None] = []
        async with self._read() as db:
            for uid in seats_t:
                if uid is None:
                    out.append(None)
                    continue
                await self._require_player(db, uid)
                row = await self._one(db, "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?", (scope, uid))
                out.append(int(row[0]) if row else 0)
        return out

    @_retrying
    async def grant_starting(self, guild_id: int, user_id: int, now: float | None = None) -> int:
        """Give the guild's starting grant once per wallet (call on a player's first seat).

        Returns the amount granted: the grant the first time, 0 on every later call.
        """
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, user_id)
            await self._member(db, guild_id, user_id, at)
            wid, bal = await self._wallet(db, scope, user_id, at)
            (granted,) = await self._one(db, "SELECT granted FROM wallets WHERE wallet_id = ?", (wid,))
            if granted:
                return 0
            await db.execute("UPDATE wallets SET granted = 1 WHERE wallet_id = ?", (wid,))
            amount = (await self._settings(db, guild_id)).starting_grant
            if amount:
                hid, hbal = await self._wallet(db, scope, None, at)
                txn = await self._txn(db, "starting_grant", guild_id, at)
                await self._post(
                    db,
                    txn,
                    guild_id,
                    at,
                    [(hid, None, -amount, "starting_grant"), (wid, user_id, amount, "starting_grant")],
                    {wid: bal, hid: hbal},
                )
            return amount

    @_retrying
    async def daily(self, guild_id: int, user_id: int, now: float | None = None) -> DailyResult:
        """Claim the daily silver: 24 h cooldown (``DailyCooldown`` with ``next_at``).

        A claim within 48 h of the previous one continues the streak; the amount is
        ``daily_amount + daily_streak_bonus × min(streak − 1, daily_streak_cap)``.
        """
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, user_id)
            await self._member(db, guild_id, user_id, at)
            wid, bal = await self._wallet(db, scope, user_id, at)
            last, streak = await self._one(db, "SELECT daily_last, daily_streak FROM wallets WHERE wallet_id = ?", (wid,))
            if last is not None and at < last + DAY:
                raise DailyCooldown(next_at=last + DAY)
            streak = streak + 1 if last is not None and at < last + 2 * DAY else 1
            st = await self._settings(db, guild_id)
            amount = st.daily_amount + st.daily_streak_bonus * min(streak - 1, st.daily_streak_cap)
            await db.execute(
                "UPDATE wallets SET daily_last = ?, daily_streak = ? WHERE wallet_id = ?", (at, streak, wid)
            )
            balances = {wid: bal}
            if amount:
                hid, hbal = await self._wallet(db, scope, None, at)
                balances[hid] = hbal
                txn = await self._txn(db, "daily", guild_id, at)
                await self._post(
                    db, txn, guild_id, at, [(hid, None, -amount, "daily"), (wid, user_id, amount, "daily")], balances
                )
        return DailyResult(amount=amount, streak=streak, next_at=at + DAY, balance=balances[wid])

    @_retrying
    async def pay(
        self, guild_id: int, from_user: int, to_user: int, amount: int, now: float | None = None
    ) -> PayResult:
        """Move silver between two players (positive, not to yourself, not more than you have)."""
        _check_id(guild_id, "guild id")
        _check_id(from_user, "user id")
        _check_id(to_user, "user id")
        amount = _check_amount(amount)
        if from_user == to_user:
            raise SelfTransfer()
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, from_user)
            await self._require_player(db, to_user)
            if self._lock:  # both wallets in one order (the lowest id first): two opposite payments cannot deadlock
                await self._all(db, "SELECT wallet_id FROM wallets WHERE scope = ? AND user_id IN (?, ?) "
                                "ORDER BY wallet_id" + self._lock, (scope, from_user, to_user))
            fw, fb = await self._wallet(db, scope, from_user, at)
            if fb < amount:
                raise InsufficientFunds(needed=amount, balance=fb)
            held = self._held(scope, from_user)
            if held and fb - amount < held:
                raise FundsHeld(needed=amount, balance=fb, held=held, free=max(0, fb - held))
            tw, tb = await self._wallet(db, scope, to_user, at)
            if tb > MAX_AMOUNT - amount:
                raise AmountOverflow("recipient balance would exceed 2^63-1")
            await self._member(db, guild_id, from_user, at)
            await self._member(db, guild_id, to_user, at)
            txn = await self._txn(db, "transfer", guild_id, at, actor=from_user)
            bals = await self._post(
                db,
                txn,
                guild_id,
                at,
                [(fw, from_user, -amount, "transfer"), (tw, to_user, amount, "transfer")],
                {fw: fb, tw: tb},
            )
        return PayResult(amount=amount, from_balance=bals[fw], to_balance=bals[tw])

    async def admin_grant(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        actor: int | None = None,
        now: float | None = None,
    ) -> int:
        """Add (or with a negative amount, remove) silver, from/to the house. Returns the new balance."""
        amount = _check_amount(amount, allow_negative=True)
        return await self._house_move(guild_id, user_id, "grant", reason, actor, now, lambda bal: amount)

    async def admin_set(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        actor: int | None = None,
        now: float | None = None,
    ) -> int:
        """Set a balance (≥ 0); the difference goes to/from the house. Returns the new balance."""
        amount = _check_amount(amount, allow_zero=True)
        return await self._house_move(guild_id, user_id, "admin", reason, actor, now, lambda bal: amount - bal)

    @_retrying
    async def _house_move(
        self,
        guild_id: int,
        user_id: int,
        kind: str,
        reason: str,
        actor: int | None,
        now: float | None,
        delta_of: Callable[[int], int],
    ) -> int:
        """An admin's silver change between the house and one wallet, in one transaction, with ledger rows of
        reason ``kind``; ``delta_of(balance)`` gives the change. Returns the new balance."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        note = _check_text(reason, "reason")
        at = _time(now)
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, user_id)
            await self._member(db, guild_id, user_id, at)
            wid, bal = await self._wallet(db, scope, user_id, at)
            delta = delta_of(bal)
            if bal + delta < 0:
                raise InsufficientFunds(needed=-delta, balance=bal)
            if delta:
                hid, hbal = await self._wallet(db, scope, None, at)
                txn = await self._txn(db, kind, guild_id, at, actor=actor, note=note)
                await self._post(
                    db, txn, guild_id, at, [(hid, None, -delta, kind), (wid, user_id, delta, kind)], {wid: bal, hid: hbal}
                )
        return bal + delta

    # ------------------------------------------------------------------------- holds (RULES A10)
    def _held(self, scope: int, user_id: int) -> int:
        return sum(self._holds.get((scope, user_id), {}).values())

    def held(self, guild_id: int, user_id: int) -> int:
        """Silver held for a seated player in this guild's scope (0 when they sit nowhere)."""
        return self._held(self._scope_key(guild_id), user_id)

    @_retrying
    async def hold(self, guild_id: int, user_id: int, key: str, amount: int, *, check: bool = True) -> int:
        """Hold ``amount`` of a player's silver under ``key`` (a table id) while they sit: :meth:`pay` refuses
        to touch it (``FundsHeld``). A hold is not a ledger row: balances, the ledger and :meth:`check` are
        unchanged; settlements and fees are paid from the balance as always, so the held silver is there to
        pay them. Checked in the write transaction, so no payment runs between the check and the hold:
        ``InsufficientFunds`` when the balance, less the player's other holds, is below ``amount`` (nothing is
        held then). ``check=False`` re-installs a hold after a restart whatever the balance. Setting a hold
        again under the same key replaces it. Returns the balance."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise InvalidAmount("a hold is a whole amount >= 0")
        scope = self._scope_key(guild_id)
        async with self._write() as db:
            await self._require_player(db, user_id)
            row = await self._one(db, "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?" + self._lock,
                                  (scope, user_id))
            bal = int(row[0]) if row else 0
            mine = self._holds.get((scope, user_id), {})
            others = sum(v for k, v in mine.items() if k != key)
            if check and bal - others < amount:
                raise InsufficientFunds(needed=amount, balance=max(0, bal - others))
            self._holds.setdefault((scope, user_id), {})[key] = amount
        return bal

    def release_hold(self, guild_id: int, user_id: int, key: str) -> None:
        """Release a hold (the player stood up, left, was kicked, or the table closed). No-op if none."""
        scope = self._scope_key(guild_id)
        mine = self._holds.get((scope, user_id))
        if mine is not None:
            mine.pop(key, None)
            if not mine:
                del self._holds[(scope, user_id)]

    async def can_sit(self, guild_id: int, user_id: int, stake: int) -> SitCheck:
        """Whether a player may sit at a table of this stake (within the guild's limits, enough silver).

        The minimum balance is ``stake × min_balance_multiplier + fee``.
        """
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        stake = _check_amount(stake)
        async with self._read() as db:
            await self._require_player(db, user_id)
            st = await self._settings(db, guild_id)
            row = await self._one(
                db, "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?", (self._scope_key(guild_id), user_id)
            )
        bal = int(row[0]) if row else 0
        required = st.min_balance(stake)
        if not st.stake_min <= stake <= st.stake_max:
            return SitCheck(False, "stake_out_of_range", stake, required, bal)
        if bal < required:
            return SitCheck(False, "insufficient_balance", stake, required, bal)
        return SitCheck(True, None, stake, required, bal)
