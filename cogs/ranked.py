"""Ranked play in Discord: ``/mahjong ranked`` (排位, the queue and its Leave button), ``/rank`` (段位, the
picture). The queue, the ladder and the table are not here: the people waiting are ``jxbot.shell.ranked_queue``,
the matchmaking, ratings and seasons ``jxbot.ladder`` (through ``jxbot.shell.ranked_ladder``), the table a
ranked match plays at ``jxbot.shell.ranked``. docs/ranked.md, "In Discord".
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import jxbot.shell.ranked_strings  # noqa: F401  (the commands' names, registered before the decorators read them)
import render.labels  # noqa: F401  (/rank's card: its "biggest hand" words are made here, the picture in a worker)
import render.rank  # noqa: F401  (… and "12 matches", also the ranked leaderboard's lines)
from jxbot.bot import JxBot, ls
from jxbot.custom_ids import CustomId, MjButton
from jxbot.i18n import t
from jxbot.interactions import after_guard, lang_of, reply, take_response
from jxbot.safety import display_name
from jxbot.shell import ranked, ranked_ladder
from jxbot.shell.lobby import LobbyError
from jxbot.shell.pictures import render_async
from jxbot.shell.ranked_queue import Group, RankedQueues, Waiting

log = logging.getLogger("jxbot.cogs.ranked")

TICK = 1.0  # seconds between two matchmaking passes (and queue-message refreshes)
REFRESH_EVERY = 5.0  # a waiting person's queue message shows the time waited, at most this often


@dataclass
class GlobalWait:
    """A person of this process in the cross-server queue: their queue message and what it shows."""

    message: Any  # the interaction whose private answer is their queue message
    lang: str
    badge: str = ""
    since: float = field(default_factory=time.monotonic)
    refreshed: str = ""


def leave_view(lang: str) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    v.add_item(MjButton(CustomId("rqleave", "q", None, "0"), label=t("bot.rq.btn.leave", lang),
                        style=discord.ButtonStyle.secondary))
    return v


class RankedCog(commands.Cog):
    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        self._recent: list[tuple[str, float]] = []  # rated groups of the last 24 h, read at start (integrity)
        self.queues = RankedQueues(lambda ladder: ranked_ladder.make_queue(bot.settings, self._recent))
        self._task: asyncio.Task[None] | None = None
        self._opening: set[asyncio.Task[None]] = set()
        self._computer_wait: dict[int, float] = {}
        # the cross-server queue (jxbot.ladder.shared_queue, in the store): this process's people in it, their
        # queue message (the interaction), language, badge and when they joined
        self.shared: Any = None
        self.global_waiting: dict[int, GlobalWait] = {}
        self._passes = 0
        bot.register_button("rqleave", self.on_leave)
        bot.add_stop_hook(self.tell_stopping)

        @app_commands.rename(scope=ls("bot.opt.scope.name"))
        @app_commands.describe(scope=ls("bot.opt.scope.desc"))
        @app_commands.choices(scope=[app_commands.Choice(name=ls(f"bot.choice.scope.{s}"), value=s)
                                     for s in ("guild", "global")])
        async def ranked_cmd(interaction: discord.Interaction, scope: str = "guild") -> None:
            if scope == "global":
                await self.join_global(interaction)
            else:
                await self.join_queue(interaction)

        self.ranked_command: app_commands.Command[Any, ..., None] = app_commands.Command(name=ls("bot.cmd.ranked.name"),
                                                   description=ls("bot.cmd.ranked.desc"), callback=ranked_cmd)
        self.ranked_command.guild_only = True

    @property
    def tables(self) -> Any:
        return self.bot.get_cog("TablesCog")

    async def cog_load(self) -> None:
        tables = self.tables
        if tables is not None:  # /mahjong ranked: a subcommand of the tables cog's group
            tables.app_command.add_command(self.ranked_command)

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()

    @commands.Cog.listener()
    async def on_tables_resumed(self) -> None:
        if self.bot.store is not None and not self.queues.queues:
            try:
                self._recent[:] = await ranked_ladder.recent_groups(self.bot.store, time.time())
            except Exception:
                log.exception("reading the rated groups of the last day failed")
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="ranked-queue")

    # ------------------------------------------------------------------ the queue
    async def join_queue(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction)
        store, tables = self.bot.store, self.tables
        gid = interaction.guild_id or 0
        if store is None or tables is None or not gid:
            await reply(interaction, t("bot.err.no_store", lang))
            return
        gs = await store.get_guild_settings(gid)
        channel_id = int(getattr(gs, "ranked_channel", 0) or 0)
        if not channel_id:
            await reply(interaction, t("bot.ranked.no_channel", lang))
            return
        user = interaction.user
        if self.queues.queued(user.id) is not None or user.id in self.global_waiting:
            await reply(interaction, t("bot.ranked.already", lang), view=leave_view(lang))
            return
        try:
            tables.manager.check_free(user.id)
        except LobbyError as err:
            await reply(interaction, t(f"bot.err.{err.code}", lang, **err.kw))
            return
        ladder = ranked_ladder.ladder_key(self.bot.settings, gid)
        cfg = await ranked_ladder.table_config(store, ladder, self.bot.settings)
        if self._task is None:  # (before the start-up resume ends the queue does not run: the gate is closed)
            self._task = asyncio.create_task(self._loop(), name="ranked-queue")
        await tables.ensure_player(gid, user, lang)
        check = await store.can_sit(gid, user.id, cfg.stake)
        if check.balance < check.required:
            await reply(interaction, t("bot.ranked.poor", lang, stake=cfg.stake, need=check.required, have=check.balance))
            return
        standing = await ranked_ladder.standing(store, ladder, user.id, cfg.ruleset, lang)
        w = Waiting(user.id, gid, display_name(user), lang, ladder, standing.rating, channel_id, standing.badge,
                    message=interaction)
        if not self.queues.join(w):  # pressed twice: the first entry stays
            await reply(interaction, t("bot.ranked.already", lang))
            return
        w.refreshed = self.queues.text(w, time.monotonic(), ranked_ladder.ladder_name(ladder, lang))
        await reply(interaction, w.refreshed, view=leave_view(lang))
        log.info("ranked queue %s: a player joined (%d waiting)", ladder, len(self.queues.waiting(ladder)))
        self.refresh(ladder, but=user.id)

    async def on_leave(self, interaction: discord.Interaction, cid: CustomId) -> None:
        lang = lang_of(interaction)
        w = self.queues.leave(interaction.user.id)
        text = t("bot.rq.left", lang)
        if self.bot.store is not None and w is None:  # the cross-server queue: its row, from any process
            shared = self.shared_queue()
            if await shared.leave(interaction.user.id):
                self.global_waiting.pop(interaction.user.id, None)
            else:
                e = (await shared.entries([interaction.user.id])).get(interaction.user.id)
                if e is not None and e.claimed is not None:  # matched this second: their table opens in their DMs
                    text = t("bot.rq.global.too_late", lang)
        try:
            if not interaction.response.is_done():
                await interaction.response.edit_message(content=text, view=None)
            else:
                await interaction.edit_original_response(content=text, view=None)
        except discord.HTTPException:
            await reply(interaction, text)
        if w is not None:
            self.refresh(w.ladder)

    def refresh(self, ladder: str, but: int | None = None, force: bool = True) -> None:
        """Each waiting person's queue message shows the queue as it is now (edited, coalesced per person)."""
        now = time.monotonic()
        name: dict[str, str] = {}
        for w in self.queues.waiting(ladder):
            if w.user_id == but or w.message is None:
                continue
            lang = w.lang
            text = self.queues.text(w, now, name.setdefault(lang, ranked_ladder.ladder_name(ladder, lang)))
            if text == w.refreshed:
                continue
            w.refreshed = text
            self.bot.coalescer.submit(("rq", w.user_id), self._editor(w, text))

    def _editor(self, w: Waiting, text: str) -> Any:
        async def edit() -> None:
            if self.queues.queued(w.user_id) is not w:
                return  # matched or left meanwhile
            try:
                await w.message.edit_original_response(content=text, view=leave_view(w.lang))
            except discord.HTTPException:
                w.message = None  # the token expired (15 min): the person still waits, unrefreshed

        return edit

    async def _loop(self) -> None:
        last_refresh = 0.0
        refresh: Any = False
        while True:
            await asyncio.sleep(TICK)
            try:
                await self._load_computer_waits()
                groups = self.queues.match(time.monotonic(), self._fill_after, unix_now=time.time())
                for g in groups:
                    task = asyncio.create_task(self.open_group(g), name=f"ranked-open:{g.ladder}")
                    self._opening.add(task)
                    task.add_done_callback(self._opening.discard)
                refresh = groups or time.monotonic() - last_refresh >= REFRESH_EVERY
                if refresh:
                    last_refresh = time.monotonic()
                    for ladder in list(self.queues.queues):
                        self.refresh(ladder)
            except Exception:
                log.exception("the ranked queue's pass failed")
            try:
                await self.global_pass(bool(refresh))
            except Exception:
                log.exception("the cross-server ranked queue's pass failed")

    async def _load_computer_waits(self) -> None:
        """Each server with someone waiting: how long before computers fill its ranked seats (0: never)."""
        store = self.bot.store
        self._computer_wait = {}
        for gid in {w.guild_id for w in self.queues.people.values()}:
            gs = await store.get_guild_settings(gid)
            self._computer_wait[gid] = float(getattr(gs, "ranked_computer_wait", 0.0) or 0.0)

    def _fill_after(self, w: Waiting) -> float | None:
        wait = self._computer_wait.get(w.guild_id)
        return wait if wait else None

    async def open_group(self, g: Group) -> None:
        """A matched group: its table opens in the ranked channel (a thread there), each person's queue
        message says where; if someone cannot sit, the others go back to the queue."""
        tables, store = self.tables, self.bot.store
        first = g.people[0]
        lang = first.lang
        cfg = await ranked_ladder.table_config(store, g.ladder, self.bot.settings)
        cfg.ranked = g.ladder
        entrants = []
        for w in g.people:
            st = await ranked_ladder.standing(store, g.ladder, w.user_id, cfg.ruleset, lang)
            entrants.append(ranked.Entrant(w.user_id, w.name, w.lang, st.badge, st.tier))
        where = await ranked.where_to_play(self.bot, first.channel_id, t("bot.ranked.thread", lang, table="…"),
                                           [w.user_id for w in g.people])
        opened = await ranked.open_table(tables, first.guild_id, where, entrants, cfg,
                                         computers=[cfg.level] * g.computers, lang=lang,
                                         ladder_kind=ranked_ladder.ladder_kind(g.ladder))
        if opened.table is None:
            log.info("ranked table for %d people not opened (%s)", len(g.people), opened.reason)
            for w in g.people:
                key = "bot.rq.requeued" if w.user_id not in opened.refused else "bot.rq.dropped"
                await self._say(w, t(key, w.lang))
            self.queues.requeue([w for w in g.people if w.user_id not in opened.refused])
            self.refresh(g.ladder)
            return
        for w in g.people:
            await self._say(w, t("bot.rq.matched", w.lang, table=opened.table.id, channel=where))

    async def _say(self, w: Waiting, text: str) -> None:
        if w.message is None or text == w.refreshed:
            return
        w.refreshed = text
        with contextlib.suppress(discord.HTTPException):
            await w.message.edit_original_response(content=text, view=None)

    async def tell_stopping(self) -> None:
        """A stop: the queue lives in memory, so each waiting person is told it is gone."""
        for w in list(self.queues.people.values()):
            await self._say(w, t("bot.rq.stopped", w.lang))

    # ------------------------------------------------------------------ the cross-server queue
    def shared_queue(self) -> Any:
        if self.shared is None:
            from jxbot.ladder.shared_queue import SharedQueue

            self.shared = SharedQueue(self.bot.store, ranked_ladder.make_queue(self.bot.settings, []).settings)
        return self.shared

    async def join_global(self, interaction: discord.Interaction) -> None:
        """``/mahjong ranked scope:global``: the cross-server queue of the global ladder (one queue in the store
        for every process and server); the table runs in the players' DMs, so closed DMs are refused here."""
        lang = lang_of(interaction)
        store, tables = self.bot.store, self.tables
        if store is None or tables is None:
            await self._answer(interaction, t("bot.err.no_store", lang))
            return
        user = interaction.user
        shared = self.shared_queue()
        if self.queues.queued(user.id) is not None or (await shared.entries([user.id])).get(user.id) is not None:
            await self._answer(interaction, t("bot.ranked.already", lang), view=leave_view(lang))
            return
        try:
            tables.manager.check_free(user.id)
        except LobbyError as err:
            await self._answer(interaction, t(f"bot.err.{err.code}", lang, **err.kw))
            return
        ladder, gid = ranked_ladder.GLOBAL, ranked_ladder.GLOBAL_GUILD
        cfg = await ranked_ladder.table_config(store, ladder, self.bot.settings)
        await tables.ensure_player(gid, user, lang)  # the cross-server tables' wallet (docs/ranked.md)
        check = await store.can_sit(gid, user.id, cfg.stake)
        if check.balance < check.required:
            await self._answer(interaction, t("bot.ranked.poor", lang, stake=cfg.stake, need=check.required, have=check.balance))
            return
        try:  # the table will be in their DMs: they must be open (a player who cannot be sent one is not matched)
            dm = await user.create_dm()
            await dm.send(t("bot.rq.global.dm", lang))
        except discord.HTTPException:
            await self._answer(interaction, t("bot.rq.global.dm_closed", lang))
            return
        standing = await ranked_ladder.standing(store, ladder, user.id, cfg.ruleset, lang)
        if not await shared.join(user.id, ladder, interaction.guild_id or 0, standing.rating, display_name(user), lang):
            await self._answer(interaction, t("bot.ranked.already", lang))
            return
        g = self.global_waiting[user.id] = GlobalWait(interaction, lang, standing.badge)
        n = len(await shared.waiting(ladder))
        g.refreshed = t("bot.rq.global.waiting", lang, badge=g.badge or "—", n=n, waited=0)
        await self._answer(interaction, g.refreshed, view=leave_view(lang))
        log.info("the cross-server ranked queue: a player joined (%d waiting)", n)
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="ranked-queue")

    @staticmethod
    async def _answer(interaction: discord.Interaction, text: str, view: discord.ui.View | None = None) -> None:
        """The private answer to ``/mahjong ranked scope:global``, which becomes the queue message: the interaction's
        original response (edited later), whether or not the acknowledgement guard deferred it meanwhile."""
        kw: dict[str, Any] = {"view": view} if view is not None else {}
        if take_response(interaction):
            await interaction.response.send_message(text, ephemeral=True, **kw)
            return
        await after_guard(interaction)
        await interaction.edit_original_response(content=text, **kw)

    async def global_pass(self, refresh: bool) -> None:
        """Every tick, in every process: match the cross-server queue (one matcher at a time, in the store), open
        the tables this process formed, and tell this process's waiting people what became of their row."""
        store = self.bot.store
        if store is None or self.tables is None:
            return
        shared = self.shared_queue()
        self._passes += 1
        if self._passes % 30 == 0:
            await shared.expire()
        for g in await shared.form(ranked_ladder.GLOBAL):
            task = asyncio.create_task(self.open_global(g), name="ranked-open:global")
            self._opening.add(task)
            task.add_done_callback(self._opening.discard)
        if not self.global_waiting:
            return
        rows = await shared.entries(self.global_waiting)
        told = []
        n = None
        for uid, g in list(self.global_waiting.items()):
            e = rows.get(uid)
            if e is None:  # left (from another process) or dropped (could not sit)
                self.global_waiting.pop(uid, None)
                await self._say_global(g, t("bot.rq.global.gone", g.lang))
            elif e.table_id is not None:
                self.global_waiting.pop(uid, None)
                told.append(uid)
                await self._say_global(g, t("bot.rq.global.matched", g.lang, table=e.table_id))
            elif refresh and e.claimed is None:
                if n is None:
                    n = len(await shared.waiting(ranked_ladder.GLOBAL))
                await self._say_global(g, t("bot.rq.global.waiting", g.lang, badge=g.badge or "—", n=n,
                                            waited=int(time.monotonic() - g.since)), view=True)
        if told:
            await shared.forget(told)

    async def _say_global(self, g: GlobalWait, text: str, view: bool = False) -> None:
        if g.message is None or text == g.refreshed:
            return
        g.refreshed = text
        try:
            await g.message.edit_original_response(content=text, view=leave_view(g.lang) if view else None)
        except discord.HTTPException:
            g.message = None  # the token expired (15 min): they still wait, unrefreshed

    async def open_global(self, g: Any) -> None:
        """A cross-server group this process formed: its table opens in the four players' DMs, here."""
        tables, store = self.tables, self.bot.store
        shared = self.shared_queue()
        ladder = ranked_ladder.GLOBAL
        first = g.people[0]
        try:
            busy = await ranked_ladder.seated_in_store(store, [e.user_id for e in g.people])
            if busy:  # sat down somewhere (maybe in another process) since they queued: they leave the queue
                log.info("cross-server ranked group not opened: %d of them sit at a table", len(busy))
                await shared.release(g, busy)
                return
            cfg = await ranked_ladder.table_config(store, ladder, self.bot.settings)
            entrants = []
            for e in g.people:
                st = await ranked_ladder.standing(store, ladder, e.user_id, cfg.ruleset, first.lang)
                entrants.append(ranked.Entrant(e.user_id, e.name, e.lang, st.badge, st.tier))
            opened = await ranked.open_table(tables, ranked_ladder.GLOBAL_GUILD, 0, entrants, cfg, lang=first.lang,
                                             ladder_kind="global", dm=True)
        except Exception:
            log.exception("opening a cross-server ranked table failed")
            await shared.release(g)
            return
        if opened.table is None:
            log.info("cross-server ranked table for %d people not opened (%s)", len(g.people), opened.reason)
            await shared.release(g, opened.refused)
            return
        await shared.opened(g, opened.table.id)
        log.info("cross-server ranked table %s opened in DMs (players from %d servers)", opened.table.id,
                 len({e.guild_id for e in g.people}))

    # ------------------------------------------------------------------ /rank
    @app_commands.command(name=ls("bot.cmd.rank.name"), description=ls("bot.cmd.rank.desc"))
    @app_commands.guild_only()
    @app_commands.rename(user=ls("bot.opt.user.name"), scope=ls("bot.opt.scope.name"))
    @app_commands.describe(user=ls("bot.opt.user.desc"), scope=ls("bot.opt.scope.desc"))
    @app_commands.choices(scope=[app_commands.Choice(name=ls(f"bot.choice.scope.{s}"), value=s)
                                 for s in ("guild", "global")])
    async def rank(self, interaction: discord.Interaction, user: discord.User | None = None,
                   scope: str = "guild") -> None:
        lang = lang_of(interaction)
        store = self.bot.store
        if store is None:
            await reply(interaction, t("bot.err.no_store", lang))
            return
        target = user or interaction.user
        ladder = ranked_ladder.ladder_key(self.bot.settings, interaction.guild_id or 0, scope)
        view = await ranked_ladder.rank_view(store, ladder, target.id, display_name(target), lang,
                                             guild_id=interaction.guild_id)
        if view is None:
            await reply(interaction, t("bot.ranked.rank.none", lang, user=target.id), ephemeral=False,
                        allowed_mentions=discord.AllowedMentions.none())
            return
        png = await render_async("rank", view, lang, urgent=True)
        files = [discord.File(io.BytesIO(png), filename="rank.png")] if png else []
        text = t("bot.ranked.rank.text", lang, user=target.id, tier=view["tier"], rating=f"{view['rating']:.0f}",
                 sigma=f"{view['sigma']:.0f}", matches=ranked_ladder.matches_text(int(view["matches"]), lang))
        await reply(interaction, text, files=files, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: JxBot) -> None:
    await bot.add_cog(RankedCog(bot))
