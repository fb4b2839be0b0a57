"""The coach's cache: a hand's review for one seat (``coach_reviews``, docs/coach.md), and a player's running
agreement and loss over their reviewed hands for /stats."""

from __future__ import annotations

import json
from typing import Any

from jxbot.store.base import StoreBase, _check_id, _check_text, _json_text, _retrying, _time
from jxbot.store.errors import InvalidArgument
from jxbot.store.models import ReviewStats


class CoachPart(StoreBase):
    @_retrying
    async def save_review(self, hand_id: str, seat: int, review: Any, *, version: int, decisions: int, agreed: int,
                          lost: float, now: float | None = None) -> None:
        """Keep (or replace) the review of ``seat`` in a settled hand. The player and guild are the hand's."""
        hand_id = _check_text(hand_id, "hand id", 200)
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise InvalidArgument("seat must be 0-3")
        text = _json_text(review, "review")
        at = _time(now)
        async with self._write() as db:
            row = await self._one(db, "SELECT guild_id, status FROM hands WHERE hand_id = ?", (hand_id,))
            if row is None or row[1] != "settled":
                raise InvalidArgument(f"hand {hand_id} is not a settled hand")
            who = await self._one(db, "SELECT user_id FROM hand_seats WHERE hand_id = ? AND seat = ?", (hand_id, seat))
            await db.execute(
                "INSERT INTO coach_reviews(hand_id, seat, user_id, guild_id, version, decisions, agreed, lost, review, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hand_id, seat) DO UPDATE SET "
                "version = excluded.version, decisions = excluded.decisions, agreed = excluded.agreed, "
                "lost = excluded.lost, review = excluded.review, created_at = excluded.created_at",
                (hand_id, seat, who[0] if who else None, row[0], int(version), int(decisions), int(agreed),
                 float(lost), text, at),
            )

    async def get_review(self, hand_id: str, seat: int) -> dict | None:
        """The stored review (its JSON) or None."""
        async with self._read() as db:
            row = await self._one(db, "SELECT review FROM coach_reviews WHERE hand_id = ? AND seat = ?",
                                  (hand_id, seat))
        if row is None:
            return None
        try:
            out = json.loads(row[0])
        except ValueError:
            return None
        return out if isinstance(out, dict) else None

    async def review_stats(self, guild_id: int, user_id: int, version: int | None = None) -> ReviewStats:
        """The player's reviewed hands here: how many, their decisions' agreement and the loss per hand (with
        ``version``, only the reviews of that version of the judging: an older one is redone when shown)."""
        _check_id(guild_id, "guild id")
        _check_id(user_id, "user id")
        where, args = "guild_id = ? AND user_id = ?", [guild_id, user_id]
        if version is not None:
            where, args = where + " AND version = ?", [*args, int(version)]
        async with self._read() as db:
            row = await self._one(
                db, "SELECT COUNT(*), COALESCE(SUM(decisions), 0), COALESCE(SUM(agreed), 0), COALESCE(SUM(lost), 0) "
                    f"FROM coach_reviews WHERE {where}", tuple(args))
        hands, decisions, agreed, lost = row or (0, 0, 0, 0.0)
        hands, decisions, agreed = int(hands), int(decisions), int(agreed)
        return ReviewStats(hands=hands, decisions=decisions,
                           agreement=agreed / decisions if decisions else None,
                           lost_per_hand=float(lost) / hands if hands else None)
