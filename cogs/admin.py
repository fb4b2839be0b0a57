"""``/admin`` (Manage Server): the guild's table settings, granting and setting silver.

With ``SILVER_SCOPE=global`` one wallet serves every server, so the commands that move silver
(``grant``, ``set``) and the money settings (``starting_grant``, ``daily_amount``) are the bot owner's
(the application's owner, or a user in ``JXBOT_OWNER_IDS``); a server's admins keep the table options.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import jxbot.shell.ranked_strings  # noqa: F401  (the ranked options' names, registered before the decorators read them)
from cogs.economy import store_error_text
from jxbot.ai.strings import LEVEL_NAMES
from jxbot.bot import JxBot, ls
from jxbot.i18n import t
from jxbot.interactions import lang_of, reply
from jxbot.safety import cap, display_name, fit
from jxbot.shell import admin_tables, ranked_ladder
from jxbot.shell.channels import channels_text, parse_channels
from jxbot.shell.watch import STRINGS_LOADED  # noqa: F401 - the watch_delay option's names

SETTING_FIELDS = ("stake_min", "stake_max", "fee", "claim_window", "turn_limit", "starting_grant", "daily_amount",
                  "computer_level", "idle_lobby_minutes", "ranked_channel", "ranked_computer_wait", "watch_delay")
MONEY_SETTINGS = ("starting_grant", "daily_amount")  # in global scope: the bot owner's


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class AdminCog(commands.GroupCog, group_name=ls("bot.cmd.admin.name"),  # type: ignore[call-arg]
               group_description=ls("bot.cmd.admin.desc")):
    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        self._idle: asyncio.Task[None] | None = None
        self._seasons: asyncio.Task[None] | None = None
        super().__init__()

    @property
    def host(self) -> Any:
        """The tables cog (its manager and close_table): jxbot/shell/admin_tables.py acts through it."""
        return self.bot.get_cog("TablesCog")

    @commands.Cog.listener()
    async def on_tables_resumed(self) -> None:
        """The idle-lobby timeout runs from the end of the start-up resume (the readiness gate open)."""
        if self._idle is None and self.host is not None:
            self._idle = asyncio.create_task(admin_tables.idle_loop(self.host), name="idle-lobbies")
        if self._seasons is None and self.bot.store is not None:
            self._seasons = asyncio.create_task(ranked_ladder.season_loop(self.bot), name="season-clock")

    async def cog_unload(self) -> None:
        for task in (self._idle, self._seasons):
            if task is not None:
                task.cancel()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        if not (perms.manage_guild or perms.administrator):
            raise app_commands.MissingPermissions(["manage_guild"])
        if self.bot.store is None:
            await reply(interaction, t("bot.err.no_store", lang_of(interaction)))
            return False
        return True

    async def is_bot_owner(self, user: discord.abc.User) -> bool:
        return await self.bot.is_bot_owner(user)

    async def money_refused(self, interaction: discord.Interaction) -> bool:
        """In global scope, a silver-moving change by someone who is not the bot's owner: refused (and said)."""
        if self.bot.settings.silver_scope != "global" or await self.is_bot_owner(interaction.user):
            return False
        await reply(interaction, t("bot.err.owner_only_global", lang_of(interaction)))
        return True

    @app_commands.command(name=ls("bot.cmd.settings.name"), description=ls("bot.cmd.settings.desc"))
    @app_commands.rename(min_stake=ls("bot.opt.min_stake.name"), max_stake=ls("bot.opt.max_stake.name"),
                         fee=ls("bot.opt.fee.name"), claim_window=ls("bot.opt.claim_window.name"),
                         turn_seconds=ls("bot.opt.turn_seconds.name"), starting_grant=ls("bot.opt.starting_grant.name"),
                         daily_amount=ls("bot.opt.daily_amount.name"), computer_level=ls("bot.opt.computer_level.name"),
                         channels=ls("bot.opt.channels.name"), idle_minutes=ls("bot.opt.idle_minutes.name"),
                         ranked_channel=ls("bot.opt.ranked_channel.name"),
                         ranked_computer_wait=ls("bot.opt.ranked_computer_wait.name"),
                         watch_delay=ls("bot.opt.watch_delay.name"))
    @app_commands.describe(min_stake=ls("bot.opt.min_stake.desc"), max_stake=ls("bot.opt.max_stake.desc"),
                           fee=ls("bot.opt.fee.desc"), claim_window=ls("bot.opt.claim_window.desc"),
                           turn_seconds=ls("bot.opt.turn_seconds.desc"), starting_grant=ls("bot.opt.starting_grant.desc"),
                           daily_amount=ls("bot.opt.daily_amount.desc"), computer_level=ls("bot.opt.computer_level.desc"),
                           channels=ls("bot.opt.channels.desc"), idle_minutes=ls("bot.opt.idle_minutes.desc"),
                           ranked_channel=ls("bot.opt.ranked_channel.desc"),
                           ranked_computer_wait=ls("bot.opt.ranked_computer_wait.desc"),
                           watch_delay=ls("bot.opt.watch_delay.desc"))
    @app_commands.choices(computer_level=[app_commands.Choice(name=ls(f"ai.level.{lv}"), value=lv) for lv in LEVEL_NAMES])
    async def settings(self, interaction: discord.Interaction,
                       min_stake: app_commands.Range[int, 1, 10**9] | None = None,
                       max_stake: app_commands.Range[int, 1, 10**9] | None = None,
                       fee: app_commands.Range[int, 0, 10**9] | None = None,
                       claim_window: app_commands.Range[float, 1.0, 60.0] | None = None,
                       turn_seconds: app_commands.Range[float, 3.0, 600.0] | None = None,
                       starting_grant: app_commands.Range[int, 0, 10**12] | None = None,
                       daily_amount: app_commands.Range[int, 0, 10**12] | None = None,
                       computer_level: str | None = None,
                       channels: app_commands.Range[str, 1, 1000] | None = None,
                       idle_minutes: app_commands.Range[float, 0.0, 10080.0] | None = None,
                       ranked_channel: discord.TextChannel | None = None,
                       ranked_computer_wait: app_commands.Range[float, 0.0, 3600.0] | None = None,
                       watch_delay: app_commands.Range[int, 0, 50] | None = None) -> None:
        lang = lang_of(interaction)
        store = self.bot.store
        gid = interaction.guild_id or 0
        allowed = None if channels is None else parse_channels(channels)
        if channels is not None and allowed is None:
            await reply(interaction, t("bot.err.bad_channels", lang, text=cap(channels)))
            return
        changes = {k: v for k, v in {"stake_min": min_stake, "stake_max": max_stake, "fee": fee,
                                     "claim_window": claim_window, "turn_limit": turn_seconds,
                                     "starting_grant": starting_grant, "daily_amount": daily_amount,
                                     "computer_level": computer_level, "allowed_channels": allowed,
                                     "idle_lobby_minutes": idle_minutes,
                                     "ranked_channel": ranked_channel.id if ranked_channel is not None else None,
                                     "ranked_computer_wait": ranked_computer_wait, "watch_delay": watch_delay}.items()
                   if v is not None}
        if any(k in changes for k in MONEY_SETTINGS) and await self.money_refused(interaction):
            return
        if changes:
            try:
                await store.update_guild_settings(gid, **changes)
            except Exception as exc:
                text = store_error_text(exc, lang)
                if text is None:
                    raise
                await reply(interaction, text)
                return
        gs = await store.get_guild_settings(gid)
        lines = "\n".join(f"• {k} = {getattr(gs, k)}" for k in SETTING_FIELDS if hasattr(gs, k))
        lines += f"\n• allowed_channels = {channels_text(tuple(getattr(gs, 'allowed_channels', ()) or ()), lang)}"
        head = t("bot.admin.updated", lang) + "\n" if changes else ""
        await reply(interaction, head + t("bot.admin.settings", lang, lines=lines))

    @app_commands.command(name=ls("bot.cmd.admin_tables.name"), description=ls("bot.cmd.admin_tables.desc"))
    async def tables(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction)
        host = self.host
        text = admin_tables.tables_text(host, interaction.guild_id or 0, lang) if host is not None \
            else t("bot.admin.tables.none", lang)
        await reply(interaction, fit(text), allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("bot.cmd.admin_close.name"), description=ls("bot.cmd.admin_close.desc"))
    @app_commands.rename(table=ls("bot.opt.table.name"))
    @app_commands.describe(table=ls("bot.opt.table.desc"))
    async def close(self, interaction: discord.Interaction, table: app_commands.Range[str, 1, 40]) -> None:
        lang = lang_of(interaction)
        host = self.host
        if host is None:
            await reply(interaction, t("bot.admin.close.unknown", lang, table=cap(table, 20)))
            return
        # (a running table's runner is waited for, up to 5 s: the acknowledgement guard defers at 2 s)
        text = await admin_tables.close_by_admin(host, interaction.guild_id or 0, table, interaction.user.id, lang)
        await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())

    @close.autocomplete("table")
    async def close_table_ids(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        host = self.host
        ids = admin_tables.table_ids(host, interaction.guild_id or 0) if host is not None else []
        return [app_commands.Choice(name=i, value=i) for i in ids if i.startswith(current.strip().lower())][:25]

    @app_commands.command(name=ls("bot.cmd.grant.name"), description=ls("bot.cmd.grant.desc"))
    @app_commands.rename(user=ls("bot.opt.user.name"), amount=ls("bot.opt.amount.name"), reason=ls("bot.opt.reason.name"))
    @app_commands.describe(user=ls("bot.opt.user.desc"), amount=ls("bot.opt.amount.desc"), reason=ls("bot.opt.reason.desc"))
    async def grant(self, interaction: discord.Interaction, user: discord.User,
                    amount: app_commands.Range[int, -(2**53), 2**53], reason: str = "admin") -> None:
        lang = lang_of(interaction)
        store = self.bot.store
        gid = interaction.guild_id or 0
        if amount == 0:
            await reply(interaction, t("bot.err.amount", lang))
            return
        if await self.money_refused(interaction):
            return
        try:
            await store.ensure_player(user.id, display_name(user), None)
            balance = await store.admin_grant(gid, user.id, amount, reason=reason, actor=interaction.user.id)
        except Exception as exc:
            text = store_error_text(exc, lang)
            if text is None:
                raise
            await reply(interaction, text)
            return
        if not isinstance(balance, int):
            balance = await store.balance(gid, user.id)
        await reply(interaction, t("bot.eco.granted", lang, user=user.id, amount=amount, balance=balance),
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("bot.cmd.set.name"), description=ls("bot.cmd.set.desc"))
    @app_commands.rename(user=ls("bot.opt.user.name"), amount=ls("bot.opt.amount.name"), reason=ls("bot.opt.reason.name"))
    @app_commands.describe(user=ls("bot.opt.user.desc"), amount=ls("bot.opt.amount.desc"), reason=ls("bot.opt.reason.desc"))
    async def set_(self, interaction: discord.Interaction, user: discord.User,
                   amount: app_commands.Range[int, 0, 2**53], reason: str = "admin") -> None:
        lang = lang_of(interaction)
        store = self.bot.store
        gid = interaction.guild_id or 0
        if await self.money_refused(interaction):
            return
        try:
            await store.ensure_player(user.id, display_name(user), None)
            await store.admin_set(gid, user.id, amount, reason=reason, actor=interaction.user.id)
        except Exception as exc:
            text = store_error_text(exc, lang)
            if text is None:
                raise
            await reply(interaction, text)
            return
        await reply(interaction, t("bot.eco.set", lang, user=user.id, balance=amount),
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("bot.cmd.season.name"), description=ls("bot.cmd.season.desc"))
    @app_commands.rename(action=ls("bot.opt.action.name"), scope=ls("bot.opt.scope.name"), days=ls("bot.opt.days.name"))
    @app_commands.describe(action=ls("bot.opt.action.desc"), scope=ls("bot.opt.scope.desc"), days=ls("bot.opt.days.desc"))
    @app_commands.choices(action=[app_commands.Choice(name=ls(f"bot.choice.season.{a}"), value=a)
                                  for a in ("start", "end", "schedule")],
                          scope=[app_commands.Choice(name=ls(f"bot.choice.scope.{s}"), value=s) for s in ("guild", "global")])
    async def season(self, interaction: discord.Interaction, action: str, scope: str = "guild",
                     days: app_commands.Range[int, 0, 365] | None = None) -> None:
        """Start or end the ranked season of this server's ladder (the global ladder's: the bot owner's), or put
        its seasons on a schedule of ``days`` days."""
        lang = lang_of(interaction)
        if scope == "global" and not await self.is_bot_owner(interaction.user):
            await reply(interaction, t("bot.err.owner_only_global", lang))
            return
        ladder = ranked_ladder.ladder_key(self.bot.settings, interaction.guild_id or 0, scope)
        text = await ranked_ladder.season_change(self.bot.store, ladder, action, lang, actor=interaction.user.id,
                                                 days=days)
        await reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("bot.cmd.flags.name"), description=ls("bot.cmd.flags.desc"))
    async def flags(self, interaction: discord.Interaction) -> None:
        """Flagged pairs (ranked integrity), with the evidence; privately, pinging nobody."""
        lang = lang_of(interaction)
        text = await ranked_ladder.flags_text(self.bot.store, interaction.guild_id or 0, lang)
        await reply(interaction, fit(text), allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: JxBot) -> None:
    await bot.add_cog(AdminCog(bot))
