"""The Watch (观战) button of a table message and the Refresh button of a watcher's view: they open (or
renew) a private, delayed, public-only live view of the table (``jxbot/shell/watch.py``, docs/watch.md)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from jxbot.bot import JxBot
from jxbot.custom_ids import CustomId
from jxbot.i18n import t
from jxbot.interactions import after_guard, lang_of, reply, take_response
from jxbot.shell.binding import own_ephemeral, pressed_on, refuse
from jxbot.shell.lobby import Table
from jxbot.shell.watch import (
    VERB_REFRESH,
    WATCHERS_MAX,
    Watcher,
    lane_of,
    refresh_components,
    watch_of,
)
from jxbot.watch_view import delay_for
from jxbot.web import links as web_links

if TYPE_CHECKING:
    from cogs.tables import TablesCog

log = logging.getLogger("jxbot.cogs.watch")

DELAY_READ_EVERY = 60.0  # seconds: a server's watch_delay is read again this often at most


class WatchCog(commands.Cog):
    """Watch on a table message; Refresh on a watcher's own view."""

    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        bot.register_button("watch", self.on_watch)
        bot.register_button(VERB_REFRESH, self.on_refresh)
        bot.add_stop_hook(self.on_stop)  # after the tables' (registered first): watchers told the bot restarts

    async def on_stop(self) -> None:
        await lane_of(self.bot).stop()

    def _table(self, table_id: str) -> Table | None:
        cog: TablesCog | None = self.bot.get_cog("TablesCog")  # type: ignore[assignment]
        table = cog.manager.get(table_id) if cog is not None else None
        if table is None or table.session is None or table.session.runner is None:
            return None
        return table

    async def on_watch(self, interaction: discord.Interaction, cid: CustomId) -> None:
        lang = lang_of(interaction)
        table = self._table(cid.table)
        if table is None:
            await reply(interaction, t("watch.gone", lang))
            return
        if not pressed_on(interaction, table.table_message_id, *table.table_messages):
            await refuse(interaction, cid.verb)
            return
        await self._open(interaction, table, lang, update=False)

    async def on_refresh(self, interaction: discord.Interaction, cid: CustomId) -> None:
        """Refresh on a watcher's view (its token ran out, or the bot restarted): the same message, a new token."""
        lang = lang_of(interaction)
        if not own_ephemeral(interaction):
            await refuse(interaction, cid.verb)
            return
        table = self._table(cid.table)
        if table is not None and (table.guild_id != interaction.guild_id or table.channel_id != interaction.channel_id):
            # a view is opened in its table's channel (Watch is taken from the table message only): a Refresh naming
            # a table of another channel or server is a forged id, and must not open a table the presser may not see
            await refuse(interaction, cid.verb)
            return
        if table is None:
            if take_response(interaction):
                await interaction.response.edit_message(content=t("watch.gone", lang), view=None)
            else:
                await after_guard(interaction)
                await interaction.edit_original_response(content=t("watch.gone", lang), view=None)
            return
        await self._open(interaction, table, lang, update=True)

    async def _open(self, interaction: discord.Interaction, table: Table, lang: str, *, update: bool) -> None:
        tw = watch_of(table.session)
        store = self.bot.store
        if time.monotonic() - tw.delay_read_at > DELAY_READ_EVERY:
            # the server's own delay, when an admin set one (/admin settings watch_delay), and whether its web
            # pages are on: read before the first view is cut, then at most once a minute (a press answered
            # without waiting for the store)
            tw.delay_read_at = time.monotonic()
            gs = None
            if store is not None:
                try:
                    gs = await store.get_guild_settings(table.guild_id)
                except Exception:  # the delay it had stays (an admin's larger one is never undercut): read again next press
                    log.warning("watch: the settings of server %s could not be read; the delay stays %d moves",
                                table.guild_id, tw.follower.delay)
                    tw.delay_read_at = -1e18
                else:
                    tw.set_delay(delay_for(self.bot.settings, gs))
            tw.web_url = None if getattr(getattr(table, "config", None), "private", False) else \
                web_links.full(web_links.base_for(self.bot.settings, gs), web_links.table_path(table.id))
        content = tw.text(tw.delayed(), lang)  # the text now; the picture follows from the watch lane
        comps = refresh_components(table.id, lang, tw.web_url)
        if interaction.user.id not in tw.watchers and len(tw.watchers) >= WATCHERS_MAX:
            await reply(interaction, t("watch.full", lang, n=len(tw.watchers)))
            return
        w = Watcher(interaction.user.id, lang, interaction, None, time.monotonic())
        if update:
            if take_response(interaction):
                await interaction.response.edit_message(content=content, view=comps)
            else:  # the guard deferred it as an update: the original is the pressed view
                await after_guard(interaction)
                await interaction.edit_original_response(content=content, view=comps)
        elif take_response(interaction):
            await interaction.response.send_message(content, ephemeral=True, view=comps)
        else:  # the guard deferred it as an update of the table message: the view is a followup
            await after_guard(interaction)
            msg = await interaction.followup.send(content, ephemeral=True, view=comps, wait=True)
            w.message_id = msg.id
        tw.add(w, new_message=not update)  # Watch pressed again (a double tap): the older view is told


async def setup(bot: JxBot) -> None:
    await bot.add_cog(WatchCog(bot))
