"""The ladder's reads and its season operations on the store (docs/ranked.md, "Queries", "Seasons").

``Ladder(store)`` answers the leaderboard by rating, a player's rank data, the seasons, the integrity count and a
match's outcome; it writes only seasons and void matches (a rating is written only by the rating update, inside
the settlement of the match's last hand: settle.py). ``season=None`` means the ladder's current season (the
open one, else the latest).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jxbot.ladder.model import Rating, display
from jxbot.ladder.settle import MatchOutcome, RankedMatch, group_key, outcome_in, rate_match
from jxbot.ladder.tiers import Tier, tier_of
from jxbot.store import Store, Tx


@dataclass(frozen=True)
class Season:
    ladder: str
    season: int
    started_at: float
    ended_at: float | None

    @property
    def open(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True)
class RatingEntry:
    rank: int
    user_id: int
    name: str | None
    mu: float
    sigma: float
    rating: int  # displayed
    matches: int

    @property
    def tier(self) -> Tier:
        return tier_of(self.rating)


@dataclass(frozen=True)
class RatingPage:
    ladder: str
    ruleset: str
    season: int | None  # None: the ladder has no season yet (no rated match)
    page: int
    pages: int
    total: int
    entries: tuple[RatingEntry, ...]


@dataclass(frozen=True)
class RankData:
    """Everything ``/rank`` shows of a player on one ladder, ruleset and season."""

    user_id: int
    ladder: str
    ruleset: str
    season: int | None
    mu: float
    sigma: float
    rating: int  # displayed (μ − 3σ scaled)
    rank: int | None  # position on the season's board (None: not rated this season)
    players: int  # rated players on the board
    matches: int
    placements: tuple[int, int, int, int]  # how many 1st, 2nd, 3rd, 4th
    hands: int
    wins: int
    self_draws: int
    deal_ins: int
    best_points: int
    best_hand: str | None  # the hand id of the biggest hand (store.hand_result gives it in full)
    history: tuple[tuple[float, int], ...]  # (time, displayed rating after the match), oldest first; starts at the
    # rating before the season's first match

    @property
    def tier(self) -> Tier:
        return tier_of(self.rating)

    def rate(self, n: int) -> float:
        return n / self.hands if self.hands else 0.0

    @property
    def win_rate(self) -> float:
        return self.rate(self.wins)

    @property
    def self_draw_rate(self) -> float:
        return self.rate(self.self_draws)

    @property
    def deal_in_rate(self) -> float:
        return self.rate(self.deal_ins)


class Ladder:
    """Queries and season operations of the ranked ladders on a store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------------- seasons
    async def seasons(self, ladder: str) -> list[Season]:
        async def q(tx: Tx) -> list[Season]:
            rows = await tx.all("SELECT season, started_at, ended_at FROM ladder_seasons WHERE ladder = ? "
                                "ORDER BY season", (ladder,))
            return [Season(ladder, int(r[0]), float(r[1]), None if r[2] is None else float(r[2])) for r in rows]

        return await self.store.in_snapshot(q)

    async def current_season(self, ladder: str) -> Season | None:
        """The open season, else the latest ended one, else None (no season yet)."""
        seasons = await self.seasons(ladder)
        return seasons[-1] if seasons else None

    async def start_season(self, ladder: str, now: float) -> Season:
        """End the open season (if any) at ``now`` and open the next one. A player's first rated match of the new
        season starts from the soft reset of their last rating (model.soft_reset)."""
        async def op(tx: Tx) -> Season:
            row = await tx.one("SELECT season, ended_at FROM ladder_seasons WHERE ladder = ? ORDER BY season DESC "
                               "LIMIT 1" + tx.lock, (ladder,))
            if row is not None and row[1] is None:
                await tx.execute("UPDATE ladder_seasons SET ended_at = ? WHERE ladder = ? AND season = ?",
                                 (now, ladder, row[0]))
            season = 1 if row is None else int(row[0]) + 1
            await tx.execute("INSERT INTO ladder_seasons(ladder, season, started_at) VALUES (?, ?, ?)",
                             (ladder, season, now))
            return Season(ladder, season, now, None)

        return await self.store.in_transaction(op)

    async def end_season(self, ladder: str, now: float) -> Season | None:
        """End the open season (its board stays as its final standings); None if none is open. The next rated
        match opens the next season."""
        async def op(tx: Tx) -> Season | None:
            row = await tx.one("SELECT season, started_at FROM ladder_seasons WHERE ladder = ? AND ended_at IS NULL"
                               + tx.lock, (ladder,))
            if row is None:
                return None
            await tx.execute("UPDATE ladder_seasons SET ended_at = ? WHERE ladder = ? AND season = ?",
                             (now, ladder, row[0]))
            return Season(ladder, int(row[0]), float(row[1]), now)

        return await self.store.in_transaction(op)

    async def _season_no(self, tx: Tx, ladder: str, season: int | None) -> int | None:
        if season is not None:
            return season
        row = await tx.one("SELECT MAX(season) FROM ladder_seasons WHERE ladder = ?", (ladder,))
        return None if row is None or row[0] is None else int(row[0])

    # ------------------------------------------------------------------------- ratings
    async def leaderboard(self, ladder: str, ruleset: str, season: int | None = None, page: int = 1,
                          page_size: int = 10, *, guild_id: int | None = None) -> RatingPage:
        """The board by displayed rating (ties: the lower user id first). ``guild_id`` limits a global ladder's
        board to the players of one server (those with a seat there)."""
        page_size = max(1, min(int(page_size), 100))

        async def q(tx: Tx) -> RatingPage:
            s = await self._season_no(tx, ladder, season)
            if s is None:
                return RatingPage(ladder, ruleset, None, 1, 1, 0, ())
            key = [ladder, ruleset, s]
            if guild_id is None:  # the bucket counts place the page: no count of the whole board, no deep offset
                (total, top) = await tx.one("SELECT COALESCE(SUM(players), 0), MAX(bucket) FROM ladder_buckets "
                                            "WHERE ladder = ? AND ruleset = ? AND season = ? AND players > 0", key)
                total = int(total)
                pages = max(1, -(-total // page_size))
                p = max(1, min(int(page), pages))
                skip, seen = (p - 1) * page_size, 0
                counts = [] if skip == 0 else await tx.all(
                    "SELECT bucket, players FROM ladder_buckets WHERE ladder = ? AND ruleset = ? AND season = ? "
                    "AND players > 0 ORDER BY bucket DESC", key)
                for bk, n in counts:
                    if seen + int(n) > skip:
                        top, skip = int(bk), skip - seen
                        break
                    seen += int(n)
                where, args = "r.ladder = ? AND r.ruleset = ? AND r.season = ? AND r.bucket <= ?", [*key, top]
                join = ""
                if top is None:
                    return RatingPage(ladder, ruleset, s, p, pages, total, ())
            else:
                join = " JOIN members m ON m.guild_id = ? AND m.user_id = r.user_id"
                where, args = "r.ladder = ? AND r.ruleset = ? AND r.season = ?", [guild_id, *key]
                (total,) = await tx.one(f"SELECT COUNT(*) FROM ladder_ratings r{join} WHERE {where}", args)
                pages = max(1, -(-int(total) // page_size))
                p = max(1, min(int(page), pages))
                skip = (p - 1) * page_size
            # the page's keys from the board index alone (skipped entries are index entries, not joined rows)
            rows = await tx.all(
                "SELECT r.user_id, pl.name, r.mu, r.sigma, r.matches FROM (SELECT r.user_id, r.bucket, r.score FROM "
                f"ladder_ratings r{join} WHERE {where} ORDER BY r.bucket DESC, r.score DESC, r.user_id LIMIT ? "
                "OFFSET ?) k JOIN ladder_ratings r ON r.ladder = ? AND r.ruleset = ? AND r.season = ? AND "
                "r.user_id = k.user_id LEFT JOIN players pl ON pl.user_id = r.user_id "
                "ORDER BY k.bucket DESC, k.score DESC, k.user_id", [*args, page_size, skip, *key])
            entries = tuple(RatingEntry((p - 1) * page_size + i + 1, int(r[0]), r[1], float(r[2]), float(r[3]),
                                        display(float(r[2]), float(r[3])), int(r[4])) for i, r in enumerate(rows))
            return RatingPage(ladder, ruleset, s, p, pages, int(total), entries)

        return await self.store.in_snapshot(q)

    async def ratings(self, ladder: str, ruleset: str, user_ids: Sequence[int],
                      season: int | None = None) -> dict[int, Rating]:
        """The players' ratings this season (badges on the lobby, the table, the queue); a player without a rating
        is left out (a newcomer: ``Rating()``, or the soft reset of an earlier season at their first match)."""
        ids = [int(u) for u in user_ids]
        if not ids:
            return {}

        async def q(tx: Tx) -> dict[int, Rating]:
            s = await self._season_no(tx, ladder, season)
            if s is None:
                return {}
            rows = await tx.all(f"SELECT user_id, mu, sigma FROM ladder_ratings WHERE ladder = ? AND ruleset = ? AND "
                                f"season = ? AND user_id IN ({','.join('?' * len(ids))})", [ladder, ruleset, s, *ids])
            return {int(r[0]): Rating(float(r[1]), float(r[2])) for r in rows}

        return await self.store.in_snapshot(q)

    async def rank_data(self, ladder: str, ruleset: str, user_id: int, season: int | None = None) -> RankData:
        async def q(tx: Tx) -> RankData:
            s = await self._season_no(tx, ladder, season)
            row = None if s is None else await tx.one(
                "SELECT mu, sigma, score, matches, p1, p2, p3, p4, hands, wins, self_draws, deal_ins, best_points, "
                "best_hand, bucket FROM ladder_ratings WHERE ladder = ? AND ruleset = ? AND season = ? AND user_id = ?",
                (ladder, ruleset, s, user_id))
            if row is None:
                total = 0 if s is None else int((await tx.one(
                    "SELECT COALESCE(SUM(players), 0) FROM ladder_buckets WHERE ladder = ? AND ruleset = ? "
                    "AND season = ?", (ladder, ruleset, s)))[0])
                r = Rating()
                return RankData(user_id, ladder, ruleset, s, r.mu, r.sigma, r.display, None, total, 0, (0, 0, 0, 0),
                                0, 0, 0, 0, 0, None, ())
            # the board's size, and ahead: the players of the higher buckets (counted), then those ahead in the
            # player's own bucket
            (total, above) = await tx.one(
                "SELECT (SELECT COALESCE(SUM(players), 0) FROM ladder_buckets WHERE ladder = ?1 AND ruleset = ?2 AND "
                "season = ?3), (SELECT COALESCE(SUM(players), 0) FROM ladder_buckets WHERE ladder = ?1 AND "
                "ruleset = ?2 AND season = ?3 AND bucket > ?6) + (SELECT COUNT(*) FROM ladder_ratings WHERE "
                "ladder = ?1 AND ruleset = ?2 AND season = ?3 AND bucket = ?6 AND score > ?4) + (SELECT COUNT(*) FROM "
                "ladder_ratings WHERE ladder = ?1 AND ruleset = ?2 AND season = ?3 AND bucket = ?6 AND score = ?4 "
                "AND user_id < ?5)", (ladder, ruleset, s, row[2], user_id, row[14]))
            total = int(total)
            hist = await tx.all("SELECT at, rating_before, rating FROM ladder_history WHERE ladder = ? AND ruleset = ? "
                                "AND season = ? AND user_id = ? ORDER BY at, match_id", (ladder, ruleset, s, user_id))
            history: list[tuple[float, int]] = []
            if hist:
                history.append((float(hist[0][0]), int(hist[0][1])))
                history.extend((float(h[0]), int(h[2])) for h in hist)
            mu, sigma = float(row[0]), float(row[1])
            return RankData(user_id, ladder, ruleset, s, mu, sigma, display(mu, sigma), int(above) + 1, total,
                            int(row[3]), (int(row[4]), int(row[5]), int(row[6]), int(row[7])), int(row[8]),
                            int(row[9]), int(row[10]), int(row[11]), int(row[12]), row[13], tuple(history))

        return await self.store.in_snapshot(q)

    # ------------------------------------------------------------------------- matches
    async def outcome(self, match_id: str) -> MatchOutcome | None:
        """A ranked match's stored outcome (rated or void), None while it is not over."""
        return await self.store.in_snapshot(lambda tx: outcome_in(tx, match_id))

    async def void_match(self, match: RankedMatch, now: float) -> MatchOutcome:
        """Record a ranked match as void (abandoned, voided at start): it changes no rating, now or later. A match
        already rated stays rated (the returned outcome says which, ``repeated=True``)."""
        async def op(tx: Tx) -> MatchOutcome:
            return await rate_match(tx, match, now, void=True)

        return await self.store.in_transaction(op)

    async def finish_match(self, match: RankedMatch, now: float) -> MatchOutcome:
        """Rate a ranked match that ends without a last settlement (closed early: every player left or escaped) from
        the hands settled so far, the same way (escapers last); once per match id, as the settlement's update."""
        async def op(tx: Tx) -> MatchOutcome:
            return await rate_match(tx, match, now)

        return await self.store.in_transaction(op)

    async def matches_together(self, user_ids: Sequence[int], since: float) -> int:
        """How many rated matches exactly these people played together since ``since`` (the integrity rule)."""
        key = group_key(user_ids)

        async def q(tx: Tx) -> int:
            row: Any = await tx.one("SELECT COUNT(*) FROM ladder_matches WHERE group_key = ? AND at >= ? "
                                    "AND status = 'rated'", (key, since))
            return int(row[0])

        return await self.store.in_snapshot(q)

    async def recent_groups(self, since: float) -> list[tuple[str, float]]:
        """(group key, time) of every rated match since ``since``: what a queue notes at start (queue.py)."""
        async def q(tx: Tx) -> list[tuple[str, float]]:
            rows = await tx.all("SELECT group_key, at FROM ladder_matches WHERE at >= ? AND status = 'rated' "
                                "ORDER BY at", (since,))
            return [(str(r[0]), float(r[1])) for r in rows]

        return await self.store.in_snapshot(q)
