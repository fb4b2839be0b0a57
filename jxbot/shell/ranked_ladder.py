"""The Discord side's one door to ``jxbot.ladder``: which ladder a server plays on, the ladder's table settings,
a player's standing and ``/rank`` view, the rating board, seasons and the integrity flags — as plain data and
texts (zh and en) for the cogs. Nothing here decides a rating: the ladder does.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from jxbot.i18n import t
from jxbot.shell.lobby import TableConfig

log = logging.getLogger("jxbot.shell.ranked_ladder")

GLOBAL = "global"


def ladder_key(settings: Any, guild_id: int, scope: str = "guild") -> str:
    """The ladder a server's ranked play counts on: its own (``guild:<id>``), or the global one when asked for
    and the store is shared (``SILVER_SCOPE=global``)."""
    if scope == "global":
        return GLOBAL
    return f"guild:{int(guild_id)}"


def ladder_kind(ladder: str) -> str:
    return "global" if ladder == GLOBAL else "guild"


def ladder_name(ladder: str, lang: str) -> str:
    return t(f"bot.ranked.ladder.{ladder_kind(ladder)}", lang)


class _FifoQueue:  # (provisional, until jxbot.ladder.queue is merged)
    def __init__(self) -> None:
        self.members: dict[int, float] = {}

    def join(self, user_id: int, rating: float, now: float) -> None:
        self.members[user_id] = now

    def leave(self, user_id: int) -> None:
        self.members.pop(user_id, None)

    def match(self, now: float) -> list[list[int]]:
        out = []
        ids = sorted(self.members, key=self.members.__getitem__)
        while len(ids) >= 4:
            group, ids = ids[:4], ids[4:]
            for u in group:
                self.leave(u)
            out.append(group)
        return out


def make_queue(ladder: str) -> Any:
    return _FifoQueue()


async def table_config(store: Any, ladder: str, settings: Any = None) -> TableConfig:
    """The ladder's table: its ruleset, length, stake, fee and computer level; the claim window and turn limit
    are the bot's (``JXBOT_CLAIM_WINDOW``, ``JXBOT_TURN_SECONDS``: the same on every server's ladder)."""
    claim = float(getattr(settings, "claim_window", 5.0))
    turn = float(getattr(settings, "turn_seconds", 20.0))
    return TableConfig(stake=5, ruleset="jiaxing", rounds=1, fee=1, claim_window=claim, turn_seconds=turn,
                       level="normal", ranked=ladder)


@dataclass
class Standing:
    rating: float  # the displayed rating (conservative, scaled)
    sigma: float  # its uncertainty, on the same scale
    tier: str  # the tier's name in the reader's language
    tier_index: int
    matches: int

    @property
    def badge(self) -> str:
        return f"{self.tier} {self.rating:.0f}"


async def standing(store: Any, ladder: str, user_id: int, ruleset: str, lang: str) -> Standing | None:
    return None


async def rank_view(store: Any, ladder: str, user_id: int, name: str, lang: str) -> dict | None:
    return None


async def leaderboard_text(store: Any, ladder: str, lang: str, season: int | None = None, page: int = 1) -> str:
    return t("bot.ranked.lb.empty", lang)


async def season_change(store: Any, ladder: str, action: str, lang: str, actor: int) -> str:
    return t("bot.ranked.season.none", lang)


async def flags_text(store: Any, guild_id: int, lang: str) -> str:
    return t("bot.ranked.flags.none", lang)
