"""The Discord side's one door to ``jxbot.ladder``: which ladder a server plays on, the ladder's table settings,
a player's standing and ``/rank`` view, the rating board, seasons and the integrity flags — as plain data and
texts (zh and en) for the cogs. Nothing here decides a rating: the ladder does.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

import jxbot.shell.ranked_strings  # noqa: F401  (the texts below)
from jxbot.i18n import t
from jxbot.shell.lobby import TableConfig

log = logging.getLogger("jxbot.shell.ranked_ladder")

GLOBAL = "global"
DAY = 86_400.0
# the guild id of every cross-server (DM) ranked table: no server's. Its wallets are the global ladder's own (with
# SILVER_SCOPE=guild each player's silver for cross-server matches; with SILVER_SCOPE=global the one wallet), its
# settings the defaults; shard 0 (the process Discord sends DMs to) resumes its tables (docs/ranked.md)
GLOBAL_GUILD = 1


def matches_text(n: int, lang: str) -> str:
    """"12 matches", "1 match" (zh: "12 场")."""
    return t("bot.ranked.matches_one" if n == 1 else "bot.ranked.matches", lang, n=n)


def ladder_key(settings: Any, guild_id: int, scope: str = "guild") -> str:
    """The ladder a server's ranked play counts on: its own, or the global one when asked for (the global ladder is
    the cross-server queue's, for a store shared by every server; docs/ranked.md)."""
    from jxbot.ladder import ladder_key as key

    return key(guild_id, "global" if scope == "global" else "guild")


def ladder_kind(ladder: str) -> str:
    return "global" if ladder == GLOBAL else "guild"


def ladder_name(ladder: str, lang: str) -> str:
    return t(f"bot.ranked.ladder.{ladder_kind(ladder)}", lang)


def make_queue(settings: Any, recent: list[tuple[str, float]]) -> Any:
    """A ladder's matchmaking queue (``jxbot.ladder.MatchQueue``) with the bot's settings, told the rated groups of
    the last 24 h (the same four play at most ``JXBOT_RANKED_MAX_TOGETHER`` rated matches a day)."""
    from jxbot.ladder import MatchQueue, QueueSettings

    q = MatchQueue(QueueSettings(band=float(getattr(settings, "ranked_band", 150.0)),
                                 widen_per_minute=float(getattr(settings, "ranked_band_widen", 100.0)),
                                 max_together_per_day=int(getattr(settings, "ranked_max_together", 3))))
    q.note_keys(recent)
    return q


async def recent_groups(store: Any, now: float) -> list[tuple[str, float]]:
    from jxbot.ladder import Ladder

    return await Ladder(store).recent_groups(now - DAY)


async def seated_in_store(store: Any, user_ids: list[int]) -> list[int]:
    """Of ``user_ids``, those the store seats at a running table (of any process: a cross-server group is formed
    by one process while its people's servers may be another's, whose tables this one does not hold)."""
    want, busy = set(user_ids), set()
    for rec in await store.running_tables():
        seats = ((rec.state or {}).get("bot_table") or {}).get("seats") or []
        for occ in seats:
            if occ and not occ.get("is_computer") and occ.get("user_id") in want:
                busy.add(int(occ["user_id"]))
    return sorted(busy)


RANKED_RULESET = "jiaxing"
RANKED_ROUNDS = 1  # one East round
RANKED_STAKE = 5
RANKED_FEE = 1
RANKED_LEVEL = "normal"  # the level of a computer on a ranked seat (where the server allows computers)


async def table_config(store: Any, ladder: str, settings: Any = None) -> TableConfig:
    """The ladder's table: its ruleset, length (one East round), stake, fee and computer level — the same for
    everyone on the ladder; the claim window and turn limit are the bot's (``JXBOT_CLAIM_WINDOW``,
    ``JXBOT_TURN_SECONDS``), not a server's."""
    claim = float(getattr(settings, "claim_window", 5.0))
    turn = float(getattr(settings, "turn_seconds", 20.0))
    return TableConfig(stake=RANKED_STAKE, ruleset=RANKED_RULESET, rounds=RANKED_ROUNDS, fee=RANKED_FEE,
                       claim_window=claim, turn_seconds=turn, level=RANKED_LEVEL, ranked=ladder)


def ranked_match(table: Any) -> Any:
    """The ``jxbot.ladder.RankedMatch`` of a ranked table (None for a table of friends): its sink settles the last
    hand with the rating update in the same transaction."""
    ladder = getattr(table.config, "ranked", "")
    if not ladder:
        return None
    from jxbot.ladder import RankedMatch

    return RankedMatch(table.id, ladder, table.config.ruleset, table.guild_id)


async def void_ranked(bot: Any, table: Any) -> None:
    """A ranked table stopped before its end (suspended on an error, stopped by an admin): the ladder records the
    match as void — no rating changes, now or later — and its channel is told so. Nothing for a table of friends."""
    match = ranked_match(table)
    if match is None:
        return
    store = bot.store
    if store is not None:
        from jxbot.ladder import Ladder

        try:
            out = await Ladder(store).void_match(match, time.time())
            log.info("ranked match %s recorded as %s", match.match_id, out.status)
        except Exception:
            log.exception("recording ranked match %s as void failed", match.match_id)
    import discord

    from jxbot.shell.dmtable import channel_of

    try:  # (a DM table: each player's DM)
        await channel_of(bot, table).send(t("bot.ranked.void", table.lang, table=table.id),
                                          allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not tell ranked table %s's channel that it is void", table.id)


async def void_ranked_record(store: Any, rec: Any) -> None:
    """At start: a stored table found suspended (its close did not reach the store) is a ranked match that will
    never end: the ladder records it void (nothing if it is not ranked, or already rated or void)."""
    config = rec.config if isinstance(rec.config, dict) else {}
    ladder = config.get("ranked") or ""
    if not ladder or store is None:
        return
    from jxbot.ladder import Ladder, RankedMatch

    try:
        await Ladder(store).void_match(RankedMatch(rec.table_id, ladder, config.get("ruleset", RANKED_RULESET),
                                                   int(rec.guild_id)), time.time())
    except Exception:
        log.exception("recording ranked match %s as void failed", rec.table_id)


@dataclass
class Standing:
    rating: int  # the displayed rating (100 × (μ − 3σ))
    sigma: int  # its uncertainty on the same scale (100 × σ)
    tier: str  # the tier's name in the reader's language
    tier_index: int
    matches: int = 0

    @property
    def badge(self) -> str:
        return f"{self.tier} {self.rating}"


def _standing(rating: Any, lang: str, matches: int = 0) -> Standing:
    from jxbot.ladder import SCALE, tier_of

    tier = tier_of(rating.display)
    return Standing(rating.display, round(SCALE * rating.sigma), tier.name(lang), tier.index, matches)


async def standing(store: Any, ladder: str, user_id: int, ruleset: str, lang: str) -> Standing:
    """A player's standing this season (a newcomer's when they have none)."""
    from jxbot.ladder import Ladder, Rating

    got = await Ladder(store).ratings(ladder, ruleset, [user_id])
    return _standing(got.get(user_id, Rating()), lang)


async def rank_view(store: Any, ladder: str, user_id: int, name: str, lang: str,
                    season: int | None = None, ruleset: str = RANKED_RULESET, guild_id: int | None = None) -> dict | None:
    """The ``/rank`` picture's view (render/rank.py); None when the player has no rated match on this ladder.
    The biggest hand's id (for ``/mahjong replay``) is shown only when that hand was played in ``guild_id``, the
    server asking: on the global ladder it may be another server's (a private channel's) hand."""
    from jxbot.ladder import SCALE, Ladder, Rating

    d = await Ladder(store).rank_data(ladder, ruleset, user_id, season)
    if not d.matches:
        return None
    st = _standing(Rating(d.mu, d.sigma), lang, d.matches)
    biggest = None
    if d.best_hand:
        biggest = f"{d.best_points}"
        try:
            res = await store.hand_result(d.best_hand)
            sc = ((res.result or {}).get("score") or {}) if res is not None else {}
            if sc.get("tai") is not None:
                biggest += f" · {sc.get('tai')}{t('render.tai', lang)} {sc.get('fan') or 0}{t('render.fan', lang)}"
        except Exception:
            log.info("the biggest hand %s could not be read", d.best_hand)
        try:
            rec = await store.get_hand(d.best_hand)
        except Exception:
            rec = None
        if rec is not None and guild_id is not None and int(rec.guild_id) == int(guild_id):
            biggest += f" · {d.best_hand}"
    return {"name": name, "tier": st.tier, "tier_index": st.tier_index, "rating": st.rating, "sigma": st.sigma,
            "ladder": ladder_name(ladder, lang), "season": t("bot.ranked.season_label", lang, n=d.season),
            "matches": d.matches, "history": [float(r) for _, r in d.history], "placements": list(d.placements),
            "rates": {"win": d.win_rate, "tsumo": d.self_draw_rate, "dealin": d.deal_in_rate} if d.hands else {},
            "biggest": biggest, "provisional": d.sigma * SCALE > 400, "rank": d.rank, "players": d.players}


async def leaderboard_text(store: Any, ladder: str, lang: str, season: int | None = None, page: int = 1,
                           ruleset: str = RANKED_RULESET, guild_id: int | None = None) -> str:
    from jxbot.ladder import Ladder

    board = await Ladder(store).leaderboard(ladder, ruleset, season, page, guild_id=guild_id)
    if board.season is None or not board.entries:
        return t("bot.ranked.lb.empty", lang)
    lines = [f"**{t('bot.ranked.lb.title', lang, scope=ladder_name(ladder, lang), season=board.season)}**"]
    for e in board.entries:
        lines.append(f"{e.rank}. <@{e.user_id}> — {e.tier.name(lang)} {e.rating} · " + matches_text(e.matches, lang))
    if board.pages > 1:
        lines.append(f"{board.page}/{board.pages}")
    return "\n".join(lines)


async def season_change(store: Any, ladder: str, action: str, lang: str, actor: int, now: float | None = None,
                        days: int | None = None) -> str:
    """``/admin season start|end|schedule``: the ladder's season opened (the open one ended first) or ended, or
    its seasons put on a schedule of ``days`` days (0: off; jxbot/ladder/schedule.py)."""
    from jxbot.ladder import Ladder, schedule

    now = time.time() if now is None else now
    lad = Ladder(store)
    scope = ladder_name(ladder, lang)
    if action == "schedule":
        if days is None or not 0 <= days <= 365:
            return t("bot.ranked.season.days_needed", lang)
        end = await schedule.set_schedule(store, ladder, days, now)
        log.info("ladder %s: season schedule %d days by %s", ladder, days, actor)
        if end is None:
            return t("bot.ranked.season.unscheduled", lang, scope=scope)
        return t("bot.ranked.season.scheduled", lang, scope=scope, days=days, end=int(end))
    if action == "start":
        s = await lad.start_season(ladder, now)
        await schedule.restart(store, ladder, now)
        log.info("ladder %s: season %d started by %s", ladder, s.season, actor)
        return t("bot.ranked.season.started", lang, n=s.season, scope=scope)
    ended = await lad.end_season(ladder, now)
    if ended is None:
        return t("bot.ranked.season.none", lang)
    log.info("ladder %s: season %d ended by %s", ladder, ended.season, actor)
    return t("bot.ranked.season.ended", lang, n=ended.season, scope=scope)


async def roll_seasons(store: Any, now: float | None = None,
                       lang_for: Any = lambda ladder: "zh") -> list[tuple[Any, str]]:
    """Roll every ladder whose scheduled season is over (jxbot/ladder/schedule.py). Returns, for each roll this
    call made (another process's rolls are not returned: announced once), the roll and its announcement text in
    ``lang_for(ladder)`` — the final standings' top three, pinging nobody when sent."""
    from jxbot.ladder import Ladder, schedule

    now = time.time() if now is None else now
    done = []
    for ladder in await schedule.due_ladders(store, now):
        rolled = await schedule.roll_due(store, ladder, now)
        if rolled is None:
            continue
        log.info("ladder %s: season %s ended on schedule, season %d started", ladder, rolled.ended, rolled.started)
        lang = lang_for(ladder)
        scope = ladder_name(ladder, lang)
        if rolled.ended is None:
            done.append((rolled, t("bot.ranked.season.rolled_new", lang, new=rolled.started, scope=scope)))
            continue
        text = t("bot.ranked.season.rolled", lang, old=rolled.ended, new=rolled.started, scope=scope)
        board = await Ladder(store).leaderboard(ladder, RANKED_RULESET, rolled.ended, 1, page_size=3)
        if board.entries:
            from jxbot.ladder import tier_of

            top = " · ".join(f"{e.rank}. <@{e.user_id}> {tier_of(e.rating).name(lang)} {e.rating}"
                             for e in board.entries[:3])
            text += "\n" + t("bot.ranked.season.final", lang, top=top)
        done.append((rolled, text))
    return done


async def season_loop(bot: Any, every: float = 60.0) -> None:
    """The bot's season clock: rolls scheduled seasons and tells each server's ranked channel (pinging nobody)."""
    import asyncio

    import discord

    from jxbot.i18n import norm_lang

    def lang_for(ladder: str) -> str:
        guild = bot.get_guild(int(ladder)) if ladder != GLOBAL else None
        return norm_lang(str(guild.preferred_locale) if guild is not None and guild.preferred_locale else None)

    while True:
        try:
            for rolled, text in await roll_seasons(bot.store, lang_for=lang_for):
                if rolled.ladder == GLOBAL:
                    continue
                gs = await bot.store.get_guild_settings(int(rolled.ladder))
                channel = int(getattr(gs, "ranked_channel", 0) or 0)
                if channel:
                    try:
                        await bot.get_partial_messageable(channel).send(
                            text, allowed_mentions=discord.AllowedMentions.none())
                    except discord.HTTPException as exc:
                        log.info("season roll of %s not announced (%s)", rolled.ladder, exc.status)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("season clock")
        await asyncio.sleep(every)


def outcome_text(outcome: Any, lang: str) -> str:
    """The result's rating line of a ranked match's last hand: each person's tier, new rating and change (a void
    match: nobody's rating changes)."""
    if outcome is None:
        return ""
    if outcome.status != "rated":
        return t("bot.ranked.result_void", lang)
    from jxbot.ladder import tier_of

    parts = []
    for c in outcome.changes:
        if c.user_id is None:
            continue
        new = c.after.display
        parts.append(f"<@{c.user_id}> {tier_of(new).name(lang)} {new} ({c.delta:+d})")
    return t("bot.ranked.result", lang, lines=" · ".join(parts))


async def flags_text(store: Any, guild_id: int, lang: str, now: float | None = None) -> str:
    """``/admin flags``: the server's flagged pairs with their evidence (jxbot/ladder/flags.py)."""
    from jxbot.ladder.flags import LOOK_BACK, flags

    found = await flags(store, guild_id, time.time() if now is None else now)
    head = f"**{t('bot.ranked.flags.title', lang, days=round(LOOK_BACK / DAY))}**"
    if not found:
        return head + "\n" + t("bot.ranked.flags.none", lang)
    lines = [head]
    for f in found[:30]:
        ev = f.evidence
        if f.kind == "pay":
            lines.append(t("bot.ranked.flags.pay", lang, a=f.a, b=f.b, amount=ev["amount"], hours=ev["hours"],
                           table=ev["table"]))
        else:
            lines.append(t("bot.ranked.flags.feed", lang, a=f.a, b=f.b, n=ev["n"], shared=ev["deal_ins"],
                           expected=ev["expected"], p=f"{ev['p']:.1g}") + " · " + ", ".join(ev["hands"]))
    return "\n".join(lines)
