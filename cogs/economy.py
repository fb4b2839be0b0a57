"""Silver: ``/balance``, ``/daily``, ``/pay``, ``/leaderboard``, ``/stats``, ``/history`` — thin adapters over
``jxbot.store``. Store errors carry their own localized message (``StoreError.message(lang)``)."""

from __future__ import annotations

import io
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import jxbot.rules.names  # noqa: F401  (registers the item.<code> labels)
import jxbot.shell.ranked_strings  # noqa: F401  (kind:rating's name, registered before the decorators read it)
from jxbot import rulesets
from jxbot.bot import JxBot, ls
from jxbot.coach.review import VERSION as REVIEW_VERSION
from jxbot.i18n import t
from jxbot.interactions import lang_of, reply
from jxbot.safety import display_name, ping
from jxbot.shell import ranked_ladder
from jxbot.shell.replay_buttons import hand_buttons

log = logging.getLogger("jxbot.cogs.economy")

KINDS = ("balance", "net", "wins", "biggest", "rating")
PERIODS = ("day", "week", "all")


def ts(when: float, style: str = "R") -> str:
    return f"<t:{int(when)}:{style}>"


def store_error_text(exc: Exception, lang: str) -> str | None:
    msg = getattr(exc, "message", None)
    code = getattr(exc, "code", None)
    if callable(msg) and code:
        text = str(msg(lang))
        detail = getattr(exc, "detail", "")
        if code == "invalid_argument" and detail:  # e.g. which setting is out of range (no hidden info)
            text += f" ({detail})"
        return text
    return None


def hand_worth(tai: int | None, fan: int | None, mult: int | None, ruleset: str = "jiaxing") -> str:
    """A won hand's worth: ``×8倍`` for caishen (a multiplier), ``3 台 1 番`` for Jiaxing."""
    plugin = rulesets.find(ruleset)
    if mult is not None or (plugin is not None and plugin.multiplier_scoring):
        return f"×{mult if mult is not None else '?'}倍"
    return f"{tai or 0} 台 {fan or 0} 番"


def best_text(st: Any) -> str:
    """The stats' biggest hand: its points and 台/番 or ×倍 (the store's ``best_hand``, either ruleset)."""
    bh = getattr(st, "best_hand", None)
    if bh is not None:
        return f"{bh.points} ({hand_worth(bh.tai, bh.fan, bh.mult, bh.ruleset)})"
    if st.best_points:
        return f"{st.best_points} ({st.best_tai} 台 {st.best_fan} 番)"
    return "—"


class EconomyCog(commands.Cog):
    def __init__(self, bot: JxBot, *, clock: Any = time.time) -> None:
        self.bot = bot
        self.now = clock

    async def _store(self, interaction: discord.Interaction) -> Any:
        if self.bot.store is None:
            await reply(interaction, t("bot.err.no_store", lang_of(interaction)))
            return None
        if interaction.guild_id is None and self.bot.settings.silver_scope == "guild":
            await reply(interaction, t("bot.err.guild_only", lang_of(interaction)))
            return None
        return self.bot.store

    async def _ensure(self, store: Any, user: discord.abc.User, guild_id: int, lang: str | None) -> None:
        await store.ensure_player(user.id, display_name(user), lang)
        await store.grant_starting(guild_id, user.id)

    async def _run(self, interaction: discord.Interaction, coro: Any) -> Any:
        try:
            return await coro
        except Exception as exc:
            text = store_error_text(exc, lang_of(interaction))
            if text is None:
                raise
            await reply(interaction, text)
            return _FAILED

    @app_commands.command(name=ls("bot.cmd.balance.name"), description=ls("bot.cmd.balance.desc"))
    @app_commands.guild_only()
    @app_commands.rename(user=ls("bot.opt.user.name"))
    @app_commands.describe(user=ls("bot.opt.user.desc"))
    async def balance(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        store = await self._store(interaction)
        if store is None:
            return
        target = user or interaction.user
        gid = interaction.guild_id or 0
        if target.id == interaction.user.id:
            await self._ensure(store, target, gid, lang_of(interaction))
        amount = await self._run(interaction, store.balance(gid, target.id))
        if amount is _FAILED:
            return
        await reply(interaction, t("bot.eco.balance", lang_of(interaction), user=target.id, amount=amount),
                    ephemeral=user is None, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("bot.cmd.daily.name"), description=ls("bot.cmd.daily.desc"))
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction) -> None:
        store = await self._store(interaction)
        if store is None:
            return
        lang = lang_of(interaction)
        gid = interaction.guild_id or 0
        await self._ensure(store, interaction.user, gid, lang)
        try:
            res = await store.daily(gid, interaction.user.id, self.now())
        except Exception as exc:
            next_at = getattr(exc, "next_at", None)
            if next_at is not None:
                await reply(interaction, t("bot.eco.daily_wait", lang, next=ts(next_at)))
                return
            text = store_error_text(exc, lang)
            if text is None:
                raise
            await reply(interaction, text)
            return
        await reply(interaction, t("bot.eco.daily", lang, amount=res.amount, streak=res.streak, next=ts(res.next_at)))

    @app_commands.command(name=ls("bot.cmd.pay.name"), description=ls("bot.cmd.pay.desc"))
    @app_commands.guild_only()
    @app_commands.rename(user=ls("bot.opt.user.name"), amount=ls("bot.opt.amount.name"))
    @app_commands.describe(user=ls("bot.opt.user.desc"), amount=ls("bot.opt.amount.desc"))
    async def pay(self, interaction: discord.Interaction, user: discord.User,
                  amount: app_commands.Range[int, 1, 2**53]) -> None:
        store = await self._store(interaction)
        if store is None:
            return
        lang = lang_of(interaction)
        if user.id == interaction.user.id:
            await reply(interaction, t("bot.err.self_pay", lang))
            return
        if user.bot:
            await reply(interaction, t("bot.err.bot_user", lang))
            return
        gid = interaction.guild_id or 0
        await self._ensure(store, interaction.user, gid, lang)
        # the recipient must be a known player (the store's rule): /pay does not register anyone
        res = await self._run(interaction, store.pay(gid, interaction.user.id, user.id, amount))
        if res is _FAILED:
            return
        await reply(interaction, t("bot.eco.paid", lang, user=user.id, amount=res.amount, balance=res.from_balance),
                    ephemeral=False, allowed_mentions=ping(user.id))

    @app_commands.command(name=ls("bot.cmd.leaderboard.name"), description=ls("bot.cmd.leaderboard.desc"))
    @app_commands.guild_only()
    @app_commands.rename(kind=ls("bot.opt.kind.name"), period=ls("bot.opt.period.name"),
                         season=ls("bot.opt.season.name"), scope=ls("bot.opt.scope.name"))
    @app_commands.describe(kind=ls("bot.opt.kind.desc"), period=ls("bot.opt.period.desc"),
                           season=ls("bot.opt.season.desc"), scope=ls("bot.opt.scope.desc"))
    @app_commands.choices(
        kind=[app_commands.Choice(name=ls(f"bot.choice.kind.{k}"), value=k) for k in KINDS],
        period=[app_commands.Choice(name=ls(f"bot.choice.period.{p}"), value=p) for p in PERIODS],
        scope=[app_commands.Choice(name=ls(f"bot.choice.scope.{s}"), value=s) for s in ("guild", "global")])
    async def leaderboard(self, interaction: discord.Interaction, kind: str = "balance", period: str = "all",
                          page: app_commands.Range[int, 1, 1000] = 1,
                          season: app_commands.Range[int, 1, 10_000] | None = None, scope: str = "guild") -> None:
        store = await self._store(interaction)
        if store is None:
            return
        lang = lang_of(interaction)
        if kind == "rating":  # the ladder's board (jxbot.ladder through jxbot/shell/ranked_ladder.py)
            ladder = ranked_ladder.ladder_key(self.bot.settings, interaction.guild_id or 0, scope)
            text = await ranked_ladder.leaderboard_text(store, ladder, lang, season=season, page=page)
            await reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())
            return
        res = await self._run(interaction, store.leaderboard(interaction.guild_id or 0, kind, period, page=page))
        if res is _FAILED:
            return
        head = t("bot.eco.leaderboard", lang, kind=t(f"bot.choice.kind.{kind}", lang), period=t(f"bot.choice.period.{period}", lang))
        lines = [f"**{head}**"]
        for e in res.entries:
            lines.append(f"{e.rank}. <@{e.user_id}> — {e.value}")
        if not res.entries:
            lines.append(t("bot.eco.lb_empty", lang))
        elif res.pages > 1:
            lines.append(f"{res.page}/{res.pages}")
        await reply(interaction, "\n".join(lines), ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("bot.cmd.stats.name"), description=ls("bot.cmd.stats.desc"))
    @app_commands.guild_only()
    @app_commands.rename(user=ls("bot.opt.user.name"))
    @app_commands.describe(user=ls("bot.opt.user.desc"))
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        store = await self._store(interaction)
        if store is None:
            return
        target = user or interaction.user
        lang = lang_of(interaction)
        st = await self._run(interaction, store.player_stats(interaction.guild_id or 0, target.id))
        if st is _FAILED:
            return
        best = best_text(st)
        text = t("bot.eco.stats", lang, user=target.id, hands=st.hands, wins=st.wins, rate=round(100 * st.win_rate, 1),
                 tsumo=st.self_draws, best=best, net=st.net)
        if st.favourite_pattern:
            text += f"\n★ {t('item.' + st.favourite_pattern, lang)}"
        rs = await self._run(interaction, store.review_stats(interaction.guild_id or 0, target.id,
                                                            REVIEW_VERSION))  # an older judging's: not counted
        if rs is _FAILED:
            return
        if rs.hands and rs.agreement is not None:  # the coach's running figures (docs/coach.md)
            key = "bot.eco.review_stats_one" if rs.hands == 1 else "bot.eco.review_stats"  # not "1 hands"
            text += "\n" + t(key, lang, hands=rs.hands, pct=round(100 * rs.agreement),
                              lost=f"{rs.lost_per_hand:.2f}")
        await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("bot.cmd.history.name"), description=ls("bot.cmd.history.desc"))
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        store = await self._store(interaction)
        if store is None:
            return
        lang = lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        hands = await store.recent_hands(interaction.guild_id or 0, interaction.user.id, 5)
        if not hands:
            await interaction.followup.send(t("bot.eco.history_empty", lang), ephemeral=True)
            return
        lines: list[str] = []
        files: list[discord.File] = []
        for h in hands:
            if h.drawn:
                what = t("bot.result.draw", lang)
            elif h.won:
                what = f"🀄 {hand_worth(h.tai, h.fan, h.mult, h.ruleset)} = {h.points}"
            else:
                what = "—"
            lines.append(t("bot.eco.history_line", lang, when=ts(h.settled_at, "f"), result=what, delta=h.delta)
                         + f" · `{h.hand_id}`")
            png = await self._result_png(store, h.hand_id, lang)
            if png is not None and len(files) < 5:
                files.append(discord.File(io.BytesIO(png), filename=f"hand-{len(files) + 1}.png"))
        view = discord.ui.View(timeout=None)  # a Replay button per hand, numbered like the pictures
        for n, h in enumerate(hands, start=1):
            for b in hand_buttons(h.hand_id, lang, fair=False, n=n):
                view.add_item(b)
        await interaction.followup.send("\n".join(lines), files=files, view=view, ephemeral=True)

    async def _result_png(self, store: Any, hand_id: str, lang: str) -> bytes | None:
        from jxbot.shell.pictures import render_async

        getter = getattr(store, "hand_result", None)
        if getter is None:
            return None
        try:
            res = await getter(hand_id)
        except Exception:
            log.exception("reading the result of hand %s failed", hand_id)
            return None
        result = getattr(res, "result", res)
        return await render_async("result", result, lang) if isinstance(result, dict) else None


_FAILED = object()


async def setup(bot: JxBot) -> None:
    await bot.add_cog(EconomyCog(bot))
