"""Leaderboards, player statistics and history."""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

from jxbot.store.base import (
    _BEST_HAND_SQL,
    _MEMBER_COLUMN,
    LEADERBOARD_KINDS,
    PERIODS,
    _check_id,
    _time,
)
from jxbot.store.errors import (
    InvalidArgument,
)
from jxbot.store.models import (
    BestHand,
    HandSummary,
    LeaderEntry,
    LeaderPage,
    PlayerStats,
)
from jxbot.store.players import PlayersPart


class BoardsPart(PlayersPart):
    # ------------------------------------------------------------------------- leaderboards & stats
    async def leaderboard(
        self,
        guild_id: int,
        kind: str = "balance",
        period: str = "all",
        page: int = 1,
        page_size: int = 10,
        now: float | None = None,
    ) -> LeaderPage:
        """A page of a guild's leaderboard.

        kinds: ``balance``; ``net`` (silver won − lost in hands, fees included) over ``period``
        ``day`` / ``week`` (rolling, ending ``now``) or ``all``; ``wins``; the biggest hand: ``biggest``
        (= ``points``: stake × 台 × 2^番 in Jiaxing, stake × 倍 in caishen; every ruleset), ``mult`` (caishen
        倍), ``tai`` or ``fan`` (Jiaxing only: a caishen hand has no 台/番). For ``biggest``/``points``/``mult``
        each entry's ``best`` is the hand that holds the value. Players with nothing to show (0) are left
        out, except for balance.
        """
        _check_id(guild_id, "guild id")
        if kind not in LEADERBOARD_KINDS:
            raise InvalidArgument(f"kind must be one of {', '.join(LEADERBOARD_KINDS)}")
        if period not in PERIODS:
            raise InvalidArgument("period must be day, week or all")
        if not isinstance(page, int) or page < 1 or not isinstance(page_size, int) or not 1 <= page_size <= 100:
            raise InvalidArgument("page >= 1 and 1 <= page_size <= 100")
        offset = (page - 1) * page_size
        at = _time(now)
        async with self._read() as db:
            if kind == "balance":
                if self.scope == "guild":
                    base = "FROM wallets w WHERE w.scope = ?1 AND w.user_id IS NOT NULL"
                    params: tuple[Any, ...] = (guild_id,)
                else:
                    base = (
                        "FROM members m JOIN wallets w ON w.scope = 0 AND w.user_id = m.user_id WHERE m.guild_id = ?1"
                    )
                    params = (guild_id,)
                (total,) = await self._one(db, f"SELECT COUNT(*) {base}", params)
                rows = await self._all(
                    db,
                    f"SELECT w.user_id, w.balance {base} ORDER BY w.balance DESC, w.user_id LIMIT ?2 OFFSET ?3",
                    (*params, page_size, offset),
                )
            elif kind == "net" and period != "all":
                since = at - PERIODS[period]  # type: ignore[operator]
                base = (
                    "FROM ledger WHERE guild_id = ?1 AND at >= ?2 AND at <= ?3 "
                    "AND hand_id IS NOT NULL AND user_id IS NOT NULL GROUP BY user_id HAVING SUM(delta) != 0"
                )
                # one aggregation gives the page and (as a window count) the number of entries
                rows = await self._all(
                    db,
                    f"SELECT user_id, v, COUNT(*) OVER () FROM (SELECT user_id, SUM(delta) AS v {base}) AS t "
                    "ORDER BY v DESC, user_id LIMIT ?4 OFFSET ?5",
                    (guild_id, since, at, page_size, offset),
                )
                if rows:
                    total = rows[0][2]
                else:  # a page past the end: count separately
                    (total,) = await self._one(
                        db, f"SELECT COUNT(*) FROM (SELECT user_id {base}) AS t", (guild_id, since, at)
                    )
            else:
                col = _MEMBER_COLUMN[kind]
                base = f"FROM members WHERE guild_id = ?1 AND {col} != 0"
                (total,) = await self._one(db, f"SELECT COUNT(*) {base}", (guild_id,))
                rows = await self._all(
                    db,
                    f"SELECT user_id, {col} {base} ORDER BY {col} DESC, user_id LIMIT ?2 OFFSET ?3",
                    (guild_id, page_size, offset),
                )
            names = await self._names(db, [r[0] for r in rows])
            bests: dict[int, BestHand | None] = {}
            if kind in ("biggest", "points", "mult"):
                for r in rows:
                    bests[r[0]] = await self._best_hand(db, guild_id, r[0], "mult" if kind == "mult" else "points")
        entries = tuple(
            LeaderEntry(rank=offset + i + 1, user_id=r[0], name=names.get(r[0], str(r[0])), value=int(r[1]),
                        best=bests.get(r[0]))
            for i, r in enumerate(rows)
        )
        return LeaderPage(
            kind=kind,
            period=period if kind == "net" else "all",
            page=page,
            pages=max(1, -(-total // page_size)),
            total=total,
            entries=entries,
        )

    async def _best_hand(self, db: aiosqlite.Connection, guild_id: int, user_id: int, by: str) -> BestHand | None:
        """The player's biggest won hand in the guild by ``points`` or ``mult`` (ties: the first one won)."""
        r = await self._one(db, _BEST_HAND_SQL.format(col="mult" if by == "mult" else "points"), (guild_id, user_id))
        if r is None:
            return None
        return BestHand(hand_id=r[0], ruleset=r[1], points=r[2], tai=r[3], fan=r[4], mult=r[5],
                        self_draw=bool(r[6]), settled_at=r[7])

    async def _names(self, db: aiosqlite.Connection, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._all(db, f"SELECT user_id, name FROM players WHERE user_id IN ({marks})", ids)
        return {r[0]: r[1] for r in rows}

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        async with self._read() as db:
            await self._require_player(db, user_id)
            m = await self._one(
                db,
                "SELECT hands, wins, self_draws, net, biggest_win, best_points, best_tai, best_fan, best_mult FROM members "
                "WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            fav = await self._one(
                db,
                "SELECT pattern FROM member_patterns WHERE guild_id = ? AND user_id = ? ORDER BY count DESC, pattern LIMIT 1",
                (guild_id, user_id),
            )
            w = await self._one(
                db, "SELECT balance FROM wallets WHERE scope = ? AND user_id = ?", (self._scope_key(guild_id), user_id)
            )
            best = await self._best_hand(db, guild_id, user_id, "points")
        hands, wins, self_draws, net, biggest, bp, bt, bf, bm = m or (0,) * 9
        return PlayerStats(
            user_id=user_id,
            guild_id=guild_id,
            balance=int(w[0]) if w else 0,
            hands=hands,
            wins=wins,
            win_rate=wins / hands if hands else 0.0,
            self_draws=self_draws,
            biggest_win=biggest,
            best_points=bp,
            best_tai=bt,
            best_fan=bf,
            favourite_pattern=fav[0] if fav else None,
            net=net,
            best_mult=bm,
            best_hand=best,
        )

    async def recent_hands(self, guild_id: int, user_id: int, limit: int = 10) -> list[HandSummary]:
        """The player's last settled hands in this guild, newest first (for /history)."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        if not isinstance(limit, int) or not 1 <= limit <= 100:
            raise InvalidArgument("limit must be 1-100")
        async with self._read() as db:
            await self._require_player(db, user_id)
            rows = await self._all(
                db,
                "SELECT s.hand_id, s.seat, s.settled_at, s.delta, s.won, h.drawn, h.self_draw, h.tai, h.fan, "
                "h.points, h.ruleset, h.mult FROM hand_seats s JOIN hands h ON h.hand_id = s.hand_id "
                "WHERE s.guild_id = ? AND s.user_id = ? AND s.settled_at IS NOT NULL "
                "ORDER BY s.settled_at DESC, s.hand_id DESC LIMIT ?",
                (guild_id, user_id, limit),
            )
        return [
            HandSummary(
                hand_id=r[0],
                seat=r[1],
                settled_at=r[2],
                delta=r[3],
                won=bool(r[4]),
                drawn=bool(r[5]),
                self_draw=bool(r[6]) and bool(r[4]),
                tai=r[7] if r[4] else None,
                fan=r[8] if r[4] else None,
                points=r[9] if r[4] else None,
                ruleset=r[10],
                mult=r[11] if r[4] else None,
            )
            for r in rows
        ]

    # ------------------------------------------------------------------------- the web companion (docs/web.md)
    async def balance_history(self, guild_id: int, user_id: int, limit: int = 200) -> list[tuple[float, int]]:
        """The player's silver after each of their last ``limit`` ledger rows in this guild's scope, oldest
        first: ``[(at, balance), …]`` (a profile's graph)."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        if not isinstance(limit, int) or not 1 <= limit <= 5000:
            raise InvalidArgument("limit must be 1-5000")
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT l.at, l.balance_after FROM ledger l JOIN wallets w ON w.wallet_id = l.wallet_id "
                "WHERE w.scope = ? AND w.user_id = ? ORDER BY l.entry_id DESC LIMIT ?",
                (self._scope_key(guild_id), user_id, limit),
            )
        return [(float(r[0]), int(r[1])) for r in reversed(rows)]

    async def guild_hands(self, guild_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The guild's last settled hands, newest first: ``{"hand_id", "ruleset", "settled_at", "winner_seat",
        "drawn", "points", "seats", "names"}`` (seats: the user ids, None for a computer; names: each seat's
        name in the stored result, a computer's as its key ``cpu:<level>:<n>``)."""
        _check_id(guild_id, "guild id")
        if not isinstance(limit, int) or not 1 <= limit <= 100:
            raise InvalidArgument("limit must be 1-100")
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT hand_id, ruleset, settled_at, winner_seat, drawn, points, seats, result FROM hands "
                "WHERE guild_id = ? AND status = 'settled' ORDER BY settled_at DESC, hand_id DESC LIMIT ?",
                (guild_id, limit),
            )
        out = []
        for r in rows:
            names: list[str | None] = [None] * 4
            try:
                res = json.loads(r[7]) if isinstance(r[7], str) else (r[7] or {})
                for p in (res.get("result") or res).get("payments") or []:
                    if isinstance(p.get("seat"), int) and 0 <= p["seat"] < 4:
                        names[p["seat"]] = p.get("name")
            except (ValueError, AttributeError, TypeError):
                pass
            out.append({"hand_id": r[0], "ruleset": r[1], "settled_at": r[2], "winner_seat": r[3],
                        "drawn": bool(r[4]), "points": r[5], "names": names,
                        "seats": json.loads(r[6]) if isinstance(r[6], str) else r[6]})
        return out

    async def names_of(self, user_ids: list[int]) -> dict[int, str]:
        """The stored names of these players (the web pages name seats with them)."""
        async with self._read() as db:
            return await self._names(db, [int(u) for u in user_ids if isinstance(u, int)])
