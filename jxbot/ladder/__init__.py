"""Ranked play, the core half (issue 29, docs/ranked.md): ratings (openskill Plackett–Luce), tiers, seasons, the
rating update inside the settlement of a ranked match's last hand, the queue, the computers' published ratings.
No Discord here: the cogs and the shell translate.

The interface (kept stable):

* ``model``: ``Rating(mu, sigma)`` (``.display``), ``display(mu, sigma)``, ``placements(totals, escaped)``,
  ``rate(ratings, places, frozen=)``, ``soft_reset(r)``, ``SCALE``.
* ``tiers``: ``TIERS``, ``tier_of(rating) -> Tier(key, floor, index)``, ``Tier.name(lang)``.
* ``settle``: ``RankedMatch(match_id, ladder, ruleset, guild_id)``, ``ladder_key(guild_id, scope)``,
  ``settle_ranked_hand(store, match, hand_id, guild_id, seats, settlement, result_view, now=None)`` →
  ``(SettleResult, MatchOutcome | None)``; ``MatchOutcome(match_id, status, season, changes, repeated)``,
  ``RatingChange(user_id, level, place, total, escaped, before, after, .delta)``.
* ``records``: ``Ladder(store)``: ``leaderboard``, ``ratings``, ``rank_data``, ``seasons``, ``current_season``,
  ``start_season``, ``end_season``, ``outcome``, ``void_match``, ``finish_match``, ``matches_together``, ``recent_groups``.
* ``queue``: ``MatchQueue(settings, clock)``: ``join``, ``leave``, ``form``, ``note``, ``note_keys``;
  ``QueueSettings``, ``Ticket``.
* ``computers``: ``COMPUTER_RATINGS``, ``computer_rating(level)``.
* ``shared_queue``: ``SharedQueue(store)``, the cross-server queue in the store (one matcher at a time).
"""

from jxbot.ladder.computers import COMPUTER_RATINGS, computer_rating
from jxbot.ladder.model import SCALE, Rating, display, placements, rate, soft_reset
from jxbot.ladder.queue import MatchQueue, QueueSettings, Ticket
from jxbot.ladder.records import Ladder, RankData, RatingEntry, RatingPage, Season
from jxbot.ladder.settle import (
    MatchOutcome,
    RankedMatch,
    RatingChange,
    group_key,
    ladder_key,
    rate_match,
    settle_ranked_hand,
)
from jxbot.ladder.tiers import TIERS, Tier, tier_of

__all__ = [
    "COMPUTER_RATINGS", "SCALE", "TIERS", "Ladder", "MatchOutcome", "MatchQueue", "QueueSettings", "RankData",
    "RankedMatch", "Rating", "RatingChange", "RatingEntry", "RatingPage", "Season", "Ticket", "Tier",
    "computer_rating", "display", "group_key", "ladder_key", "placements", "rate", "rate_match",
    "settle_ranked_hand", "soft_reset", "tier_of",
]
