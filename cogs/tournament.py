"""``/tournament`` (比赛): events a server runs on its own (jxbot/events), or global events open to every server
sharing the store (their tables in the players' DMs). Thin: commands and the Register button translate to
:class:`~jxbot.events.service.EventService`; its tables are arranged tables (jxbot/shell/arranged.py) whose results
come back here. docs/tournaments.md."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import io
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import jxbot.shell.tournament_strings  # noqa: F401  (the commands' names, registered before the decorators read them)
from jxbot import rulesets
from jxbot.ai.strings import LEVEL_NAMES
from jxbot.bot import JxBot, ls, missing_permissions
from jxbot.cluster.settings import is_postgres
from jxbot.custom_ids import CustomId, MjButton
from jxbot.events import fairness
from jxbot.events.model import FORMATS, SCOPES, EventConfig, place_text
from jxbot.events.rounds import TablePlan
from jxbot.events.service import Event, EventError, EventService, meant_event, record_from_result, table_key
from jxbot.i18n import t
from jxbot.interactions import guild_lang, lang_of, reply
from jxbot.safety import display_name, md, no_bidi
from jxbot.shell import admin_tables, arranged
from jxbot.shell.dmtable import open_dm_of
from jxbot.shell.seat import DM_CLOSED

log = logging.getLogger("jxbot.cogs.tournament")
NONE = discord.AllowedMentions.none()
THREAD_PERMS = ("create_public_threads", "send_messages_in_threads")  # a server's event: its tables' threads

FORMAT_CHOICES = [app_commands.Choice(name=ls(f"tour.choice.{f}"), value=f) for f in FORMATS]
RULESET_CHOICES = [app_commands.Choice(name=ls(f"bot.choice.ruleset.{n}"), value=n) for n in rulesets.names()]
LEVEL_CHOICES = [app_commands.Choice(name=ls(f"ai.level.{lv}"), value=lv) for lv in LEVEL_NAMES]
SCOPE_CHOICES = [app_commands.Choice(name=ls(f"bot.choice.scope.{s}"), value=s) for s in SCOPES]


def _manager(interaction: discord.Interaction) -> bool:
    p = interaction.permissions
    return bool(p.manage_guild or p.administrator)


class TournamentCog(commands.GroupCog, group_name=ls("tour.cmd.name"),  # type: ignore[call-arg]
                    group_description=ls("tour.cmd.desc")):
    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        self.service = EventService(bot.store, self._open_table, self._notify) if bot.store is not None else None
        self._scheduler: asyncio.Task[None] | None = None
        arranged.on_result("tournament", self._on_result)
        bot.register_button("treg", self.on_register)
        super().__init__()

    # ------------------------------------------------------------------ the service's callbacks
    async def _open_table(self, ev: Event, plan: TablePlan) -> None:
        # the start and a round's advance open their tables after the event's lock, one by one (a thread each): a
        # cancel can come in between, and stops only the tables open by then — read again before and after
        if not await self._still_running(ev):
            log.info("event %s: round %d table %d not opened (the event is no longer running)", ev.event_id,
                     plan.round, plan.table_no)
            return
        players = {p.pid: p for p in ev.players()}
        absent = ev.substitutes(plan.round)
        seats = []
        for pid in plan.players:
            p = players[pid]
            if p.is_computer:
                seats.append(arranged.Seat(None, p.name, level=p.level or ev.config.level))
            elif pid in absent:  # not checked in (or not back yet): a computer plays the seat
                seats.append(arranged.Seat(None, p.name, level=ev.config.level))
            else:  # their panel in their language (the locale of their registration or last table)
                seats.append(arranged.Seat(pid, p.name, lang=await self._player_lang(pid)))
        c = ev.config
        spec = arranged.Spec(
            key=table_key(ev.event_id, plan.round, plan.table_no), kind="tournament", guild_id=ev.guild_id,
            channel_id=ev.channel_id, seats=seats, ruleset=c.ruleset, rounds=c.table_rounds,
            max_hands=c.hands, stake=c.stake, claim_window=c.claim_window, secret=plan.secret,
            thread=f"{c.name} · R{plan.round} · T{plan.table_no + 1}", lang=self._lang(ev), level=c.level,
            data={"event": ev.event_id, "round": plan.round, "table": plan.table_no, "players": plan.players},
            duplicate=c.format == "duplicate",
            dm=c.in_dms)  # global: the one place the four share; duplicate: out of the other tables' sight
        try:
            try:
                table_id = await arranged.open_table(self.bot, spec)
            except arranged.ArrangedError as err:
                if err.code != "table_exists" or spec.dm:
                    raise
                # no thread (the permission was taken away after the create) and the channel holds a table (the
                # round's first, or an ordinary one): in its players' DMs, rather than a round that never ends
                spec = dataclasses.replace(spec, dm=True)
                table_id = await arranged.open_table(self.bot, spec)
                with contextlib.suppress(discord.HTTPException):
                    await self.bot.get_partial_messageable(ev.channel_id).send(
                        t("tour.no_thread", self._lang(ev), r=plan.round, table=plan.table_no + 1),
                        allowed_mentions=NONE)
            log.info("event %s: round %d table %d is table %s%s", ev.event_id, plan.round, plan.table_no, table_id,
                     " (in DMs)" if spec.dm else "")
        except arranged.ArrangedError as err:
            log.error("event %s: table %s could not open (%s)", ev.event_id, spec.key, err.code)
            return
        if not await self._still_running(ev):  # cancelled while it opened: the cancel's stop missed it
            await self._stop_tables(ev, self.bot.user.id if self.bot.user else 0, self._lang(ev))

    async def _still_running(self, ev: Event) -> bool:
        assert self.service is not None
        try:
            return (await self.service.get(ev.event_id)).status == "running"
        except EventError:
            return False

    async def _stop_tables(self, ev: Event, by: int, lang: str) -> None:
        """Stop the event's tables playing in this process, as ``/admin close`` stops a table (the hand in play
        void, seats and holds released, the players told); another process's at its tick (stop_cancelled_tables)."""
        host: Any = self.bot.get_cog("TablesCog")
        prefix = table_key(ev.event_id, 0, 0).split("/")[0] + "/"
        for tb in list(host.manager.tables.values()) if host is not None else []:
            if str((tb.arranged or {}).get("key", "")).startswith(prefix):
                await admin_tables.close_by_admin(host, tb.guild_id, tb.id, by, lang)

    async def _on_result(self, result: dict[str, Any]) -> None:
        assert self.service is not None
        event_id, round_no, rec = record_from_result(result)
        await self.service.record(event_id, round_no, rec)

    def _lang(self, ev: Event) -> str:
        """The language of the event's channel texts: its server's when it was created, else the bot's."""
        return ev.config.lang or self.bot.settings.lang

    async def _notify(self, ev: Event, what: str) -> None:
        lang = self._lang(ev)
        ch = self.bot.get_partial_messageable(ev.channel_id)
        if what == "round_started" and ev.round == 1:
            await self._refresh_announcement(ev, "started")
        try:
            if what == "round_started":
                if ev.round > 1:  # the standings after the round just played
                    assert self.service is not None
                    _ev, rows = await self.service.standings(ev.event_id)
                    await ch.send(standings_text(ev, rows, lang), files=await self._standings_files(ev.event_id, lang),
                                  allowed_mentions=NONE)
                await ch.send(t("tour.round", lang, name=md(ev.name), r=ev.round, n=len(ev.plans(ev.round))),
                              allowed_mentions=NONE)
            elif what == "ended":
                await ch.send(t("tour.ended", lang, name=md(ev.name), secret=ev.state.get("secret"),
                                c=ev.commitment, id=ev.event_id), allowed_mentions=NONE)
                assert self.service is not None
                files = await self._standings_files(ev.event_id, lang)
                _ev, rows = await self.service.standings(ev.event_id)
                await ch.send(standings_text(ev, rows, lang), files=files, allowed_mentions=NONE)
        except discord.HTTPException:
            log.warning("could not tell event %s's channel (%s)", ev.event_id, what)
        await self._tell_players(ev, what)

    async def _tell_players(self, ev: Event, what: str) -> None:
        """An event played in DMs (global, duplicate): each human player told by DM too; a closed DM skipped."""
        if not ev.config.in_dms:  # (a server's Swiss event: its channel says it all)
            return
        players = {p.pid: p for p in ev.players()}
        texts: dict[int, Callable[[str], str]] = {}  # user -> the text in a language
        absent = ev.substitutes(ev.round)
        if what == "round_started":
            for plan in ev.plans(ev.round):
                seats = " · ".join(md(players[p].name) if p in players else "?" for p in plan.players)
                for pid in plan.players:  # (a player not checked in, whose seat a computer plays: not told)
                    if pid in players and not players[pid].is_computer and pid not in absent:
                        texts[pid] = functools.partial(t, "tour.dm.round", name=md(ev.name), r=ev.round,
                                                       table=plan.table_no + 1, seats=seats)
        elif what == "ended":
            assert self.service is not None
            _ev, rows = await self.service.standings(ev.event_id)
            def ended(lang: str) -> str:
                head = t("tour.ended", lang, name=md(ev.name), secret=ev.state.get("secret"), c=ev.commitment,
                         id=ev.event_id)
                return head + "\n" + standings_text(ev, rows, lang, limit=2000 - len(head) - 1)

            texts = {p.pid: ended for p in players.values() if not p.is_computer}
        elif what in ("cancelled", "not_started") and self.service is not None:  # (other servers: no channel)
            texts = {pid: functools.partial(t, f"tour.{what}", name=md(ev.name)) for pid in await self.service.people(ev)}

        async def tell(uid: int, text: Callable[[str], str]) -> None:
            try:
                msg = text(await self._player_lang(uid))
                await (await open_dm_of(self.bot, uid)).send(msg[:2000], allowed_mentions=NONE)
            except (discord.HTTPException, OSError) as exc:
                log.info("event %s: a player's DM failed (%s)", ev.event_id, getattr(exc, "status", type(exc).__name__))

        await asyncio.gather(*(tell(uid, text) for uid, text in texts.items()))

    # ------------------------------------------------------------------ helpers
    async def _event(self, interaction: discord.Interaction, event: str | None, own: bool = False,
                     mine: str = "") -> Event | None:
        """The event named (a global event from any server; ``own``: only from the server that created it, for
        start and cancel), else this server's latest — ``mine`` ("checkin", "leave"): of several live ones, the one the
        presser means (:func:`~jxbot.events.service.meant_event`: a substituted player of a running event checks
        in to it, not to a newer open one; a leave is of an open one)."""
        lang = lang_of(interaction)
        if self.service is None:
            await reply(interaction, t("tour.err.no_store", lang))
            return None
        try:
            if event:
                ev = await self.service.get(event.strip().lower())
                if ev.guild_id != interaction.guild_id:
                    if ev.config.scope != "global":  # a server's own event is invisible elsewhere
                        raise EventError("not_found")
                    if own:
                        raise EventError("own_server")
                return ev
            # the server's latest live event, else its most recent one (its standings stay to be seen)
            live = await self.bot.store.events_live(interaction.guild_id or 0)
            latest = live[-1]["event_id"] if live else await self.bot.store.event_latest(interaction.guild_id or 0)
            if mine and len(live) > 1:
                uid = interaction.user.id
                regs = {str(r["event_id"]): next((p for p in await self.bot.store.event_players(r["event_id"])
                                                  if p["user_id"] == uid), None) for r in live}
                latest = meant_event(live, regs, uid, mine, time.time()) or latest
            if latest is None:
                raise EventError("not_found")
            return await self.service.get(latest)
        except EventError as err:
            await reply(interaction, t(f"tour.err.{err.code}", lang))
            return None

    def _announcement(self, ev: Event, n: int, lang: str) -> str:
        c = ev.config
        stake = t("tour.points_only", lang) if c.stake <= 0 else t("tour.staked", lang, stake=c.stake)
        text = t("tour.announce", lang, name=md(c.name), id=ev.event_id, fmt=t(f"tour.choice.{c.format}", lang),
                 rounds=c.rounds, hands=c.hands or "-", stake=stake, c=ev.commitment)
        if c.in_dms:
            text += "\n" + t("tour.announce.global" if c.scope == "global" else "tour.announce.dm", lang, id=ev.event_id)
        if c.start_at:
            text += "\n" + t("tour.starts_at", lang, at=int(c.start_at))
        if c.checkin_opens is not None:
            text += "\n" + t("tour.checkin_opens", lang, at=int(c.checkin_opens))
        elif c.checkin_minutes > 0:  # started by hand: check-in is open from registration on, and needed
            text += "\n" + t("tour.checkin_needed", lang)
        return text + "\n" + t("tour.players", lang, n=n)

    async def _standings_files(self, event_id: str, lang: str) -> list[discord.File]:
        assert self.service is not None
        ev, rows = await self.service.standings(event_id)
        view = {"title": ev.name, "format": ev.config.format,
                "subtitle": t("tour.standings.sub" if ev.round else "tour.standings.sub0", lang,
                              fmt=t(f"tour.choice.{ev.config.format}", lang), r=ev.round, n=ev.config.rounds),
                "rows": [s.to_json() for s in rows]}
        import render

        png = await asyncio.to_thread(render.render_standings, view, lang)
        return [discord.File(io.BytesIO(png), filename="standings.png")]

    # ------------------------------------------------------------------ commands
    @app_commands.command(name=ls("tour.cmd.create.name"), description=ls("tour.cmd.create.desc"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(name=ls("tour.opt.name.name"), format=ls("tour.opt.format.name"),
                         rounds=ls("tour.opt.rounds.name"), hands=ls("tour.opt.hands.name"),
                         ruleset=ls("bot.opt.ruleset.name"), stake=ls("tour.opt.stake.name"),
                         start_in=ls("tour.opt.start.name"), checkin=ls("tour.opt.checkin.name"),
                         substitute=ls("tour.opt.substitute.name"), level=ls("bot.opt.level.name"),
                         wait=ls("tour.opt.wait.name"), scope=ls("bot.opt.scope.name"))
    @app_commands.describe(name=ls("tour.opt.name.desc"), format=ls("tour.opt.format.desc"),
                           rounds=ls("tour.opt.rounds.desc"), hands=ls("tour.opt.hands.desc"),
                           ruleset=ls("bot.opt.ruleset.desc"), stake=ls("tour.opt.stake.desc"),
                           start_in=ls("tour.opt.start.desc"), checkin=ls("tour.opt.checkin.desc"),
                           substitute=ls("tour.opt.substitute.desc"), level=ls("bot.opt.level.desc"),
                           wait=ls("tour.opt.wait.desc"), scope=ls("bot.opt.scope.desc"))
    @app_commands.choices(format=FORMAT_CHOICES, ruleset=RULESET_CHOICES, level=LEVEL_CHOICES, scope=SCOPE_CHOICES)
    async def create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60],
                     format: str = "swiss", rounds: app_commands.Range[int, 1, 12] = 3,
                     hands: app_commands.Range[int, 1, 16] = 1, ruleset: str = "jiaxing",
                     stake: app_commands.Range[int, 0, 1000] = 0, start_in: app_commands.Range[int, 1, 10080] | None = None,
                     checkin: app_commands.Range[int, 0, 1440] = 0, substitute: bool = True,
                     level: str = "normal", wait: app_commands.Range[int, 1, 240] = 10,
                     scope: str = "guild") -> None:
        lang = lang_of(interaction)
        if not _manager(interaction):
            await reply(interaction, t("tour.err.manage", lang))
            return
        if self.service is None:
            await reply(interaction, t("tour.err.no_store", lang))
            return
        name = no_bidi(name)  # (kept without: a right-to-left override turns every line it is written in around)
        if not name.strip():  # "   " passes the option's length: the announcement would read "🏆 ****"
            await reply(interaction, t("tour.err.no_name", lang))
            return
        # the announcement, the standings pictures, and (a server's Swiss event) its tables' threads: refused here
        threads = scope == "guild" and format != "duplicate"  # rather than an event announced nowhere / stuck
        missing = missing_permissions(interaction.app_permissions) + (
            [p for p in THREAD_PERMS if not getattr(interaction.app_permissions, p)] if threads else [])
        if missing:
            await reply(interaction, t("tour.err.missing_perms", lang,
                                       perms=", ".join(t(f"bot.perm.{p}", lang) for p in missing)))
            return
        if format not in FORMATS or rulesets.find(ruleset) is None or level not in LEVEL_NAMES or scope not in SCOPES:
            await reply(interaction, t("tour.err.bad", lang, what=md(f"{format} {ruleset} {level} {scope}")))
            return
        refused = await self._global_refused(interaction, stake) if scope == "global" else None
        if refused is not None:
            await reply(interaction, t(refused, lang))
            return
        # the event's channel texts in its server's language, kept with it for what the bot posts later
        config = EventConfig(name=name.strip(), ruleset=ruleset, format=format, rounds=rounds, hands=hands,
                             stake=stake, start_at=time.time() + 60 * start_in if start_in else None,
                             checkin_minutes=checkin, substitute=substitute, level=level, wait_minutes=wait,
                             scope=scope, lang=guild_lang(interaction, self.bot.settings.lang))
        ev = await self.service.create(interaction.guild_id or 0, interaction.channel_id or 0, config)
        view = discord.ui.View(timeout=None)
        view.add_item(MjButton(CustomId("treg", ev.event_id, None, "0"), label=t("tour.btn.register", self._lang(ev)),
                               style=discord.ButtonStyle.primary))
        await reply(interaction, t("tour.ok.created", lang))
        ch = self.bot.get_partial_messageable(ev.channel_id)
        msg = await ch.send(self._announcement(ev, 0, self._lang(ev)), view=view, allowed_mentions=NONE)
        ev.state["announcement"] = msg.id  # this key only (a process sharing the store may have started it)
        await self.bot.store.event_advance(ev.event_id, None, ("open", "running"), None, {"announcement": msg.id})

    async def _global_refused(self, interaction: discord.Interaction, stake: int) -> str | None:
        """Why a global event cannot be created here (a string key), or None. It needs a store the servers share
        (PostgreSQL, which several processes may share, or the global silver of one process); one played for
        silver needs the one wallet everywhere and the bot's owner (docs/tournaments.md)."""
        settings = self.bot.settings
        if settings.silver_scope != "global" and not is_postgres(settings.db_path):
            return "tour.err.global_store"
        if stake > 0 and settings.silver_scope != "global":
            return "tour.err.global_silver"
        if stake > 0 and not await self._bot_owner(interaction.user):
            return "tour.err.global_stake"
        return None

    async def _player_lang(self, user_id: int) -> str:
        """A player's language: the store's (their client's locale when they registered or last sat), else the
        bot's."""
        store = self.bot.store
        p = await store.get_player(user_id) if store is not None and hasattr(store, "get_player") else None
        return str(p.lang) if p is not None and p.lang else self.bot.settings.lang

    async def _bot_owner(self, user: discord.abc.User) -> bool:
        return await self.bot.is_bot_owner(user)

    async def _join(self, interaction: discord.Interaction, ev: Event) -> None:
        lang = lang_of(interaction)
        assert self.service is not None
        try:
            await self.service.join(ev.event_id, interaction.user.id, display_name(interaction.user))
        except EventError as err:
            await reply(interaction, t(f"tour.err.{err.code}", lang))
            return
        if ev.config.in_dms and not await self._dm_works(interaction, ev):
            with contextlib.suppress(EventError):  # its tables are in DMs: no registration without them
                await self.service.leave(ev.event_id, interaction.user.id)
            await reply(interaction, t("tour.err.dm_closed", lang))
            return
        c = ev.config
        if c.checkin_minutes > 0:  # registering is not checking in: said to the one who registers
            opens = c.checkin_opens
            when = t("tour.checkin_when.now", lang) if opens is None or opens <= time.time() else t(
                "tour.checkin_when.at", lang, at=int(opens))
            await reply(interaction, t("tour.ok.joined_checkin", lang, when=when))
        else:
            await reply(interaction, t("tour.ok.joined", lang))
        if hasattr(self.bot.store, "ensure_player"):  # their language, for their DMs and their tables' panels
            await self.bot.store.ensure_player(interaction.user.id, display_name(interaction.user), lang)
        await self._refresh_announcement(ev)

    async def _refresh_announcement(self, ev: Event, closed: str | None = None) -> None:
        """The announcement's count of registered players; once registration is over ("started", "cancelled",
        from the event's status), said on it, and its Register button removed (a press on a stale copy is still
        answered). Through the edit coalescer, read when the edit is made: a burst of registrations (or one
        person toggling join and leave) is one edit a second, not one PATCH a press against the channel's rate
        limit, and the newest count is the one shown (two edits racing could leave an older count on it)."""
        if not ev.state.get("announcement"):
            return
        urgent = closed is not None  # registration closed: said at once

        async def edit() -> None:
            assert self.service is not None
            now = await self.service.get(ev.event_id)
            mid = now.state.get("announcement") or ev.state.get("announcement")
            if not mid:
                return
            n = len(await self.bot.store.event_players(ev.event_id))
            lang = self._lang(now)
            text = self._announcement(now, n, lang)
            extra: dict[str, Any] = {}
            over = {"running": "started", "ended": "started", "cancelled": "cancelled"}.get(now.status, closed)
            if over is not None:
                text += "\n" + t(f"tour.reg_closed.{over}", lang)
                extra["view"] = None
            try:
                await self.bot.get_partial_messageable(ev.channel_id).get_partial_message(int(mid)).edit(
                    content=text, allowed_mentions=NONE, **extra)
            except discord.HTTPException as exc:
                if exc.status == 429:
                    raise  # the coalescer waits and edits with the newest state
                log.info("could not update event %s's announcement", ev.event_id)

        self.bot.coalescer.submit(("event-announcement", ev.event_id), edit, urgent=urgent)

    async def _dm_works(self, interaction: discord.Interaction, ev: Event) -> bool:
        """A global event's registration is confirmed by DM: False when the player's DMs are closed."""
        try:
            dm = await open_dm_of(self.bot, interaction.user.id)
            await dm.send(t("tour.dm.registered", lang_of(interaction), name=md(ev.name), id=ev.event_id),
                          allowed_mentions=NONE)
        except discord.Forbidden as exc:
            return exc.code != DM_CLOSED
        except (discord.HTTPException, OSError) as exc:  # not known to be closed: the registration stands
            log.info("event %s: the registration DM failed (%s)", ev.event_id, getattr(exc, "status", type(exc).__name__))
        return True

    async def on_register(self, interaction: discord.Interaction, cid: CustomId) -> None:
        ev = await self._event(interaction, cid.table)
        if ev is not None:
            await self._join(interaction, ev)

    @app_commands.command(name=ls("tour.cmd.join.name"), description=ls("tour.cmd.join.desc"))
    @app_commands.guild_only()
    @app_commands.rename(event=ls("tour.opt.event.name"))
    @app_commands.describe(event=ls("tour.opt.event.desc"))
    async def join(self, interaction: discord.Interaction, event: str | None = None) -> None:
        ev = await self._event(interaction, event)
        if ev is not None:
            await self._join(interaction, ev)

    @app_commands.command(name=ls("tour.cmd.leave.name"), description=ls("tour.cmd.leave.desc"))
    @app_commands.guild_only()
    @app_commands.rename(event=ls("tour.opt.event.name"))
    @app_commands.describe(event=ls("tour.opt.event.desc"))
    async def leave(self, interaction: discord.Interaction, event: str | None = None) -> None:
        ev = await self._event(interaction, event, mine="leave")
        if ev is None:
            return
        lang = lang_of(interaction)
        assert self.service is not None
        try:
            await self.service.leave(ev.event_id, interaction.user.id)
        except EventError as err:
            await reply(interaction, t(f"tour.err.{err.code}", lang))
            return
        await reply(interaction, t("tour.ok.left", lang))
        await self._refresh_announcement(ev)

    @app_commands.command(name=ls("tour.cmd.checkin.name"), description=ls("tour.cmd.checkin.desc"))
    @app_commands.guild_only()
    @app_commands.rename(event=ls("tour.opt.event.name"))
    @app_commands.describe(event=ls("tour.opt.event.desc"))
    async def checkin(self, interaction: discord.Interaction, event: str | None = None) -> None:
        ev = await self._event(interaction, event, mine="checkin")
        if ev is None:
            return
        lang = lang_of(interaction)
        assert self.service is not None
        try:
            ev = await self.service.check_in(ev.event_id, interaction.user.id)
        except EventError as err:
            await reply(interaction, t(f"tour.err.{err.code}", lang, at=int(err.at or 0)))
            return
        back = ev.back_from(interaction.user.id)
        await reply(interaction, t("tour.ok.back", lang, r=back) if back else t("tour.ok.checked_in", lang))

    @app_commands.command(name=ls("tour.cmd.start.name"), description=ls("tour.cmd.start.desc"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(event=ls("tour.opt.event.name"))
    @app_commands.describe(event=ls("tour.opt.event.desc"))
    async def start(self, interaction: discord.Interaction, event: str | None = None) -> None:
        lang = lang_of(interaction)
        if not _manager(interaction):
            await reply(interaction, t("tour.err.manage", lang))
            return
        ev = await self._event(interaction, event, own=True)
        if ev is None:
            return
        assert self.service is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.service.start(ev.event_id)
        except EventError as err:
            await interaction.followup.send(t(f"tour.err.{err.code}", lang), ephemeral=True)
            return
        await interaction.followup.send(t("tour.ok.started", lang), ephemeral=True)

    @app_commands.command(name=ls("tour.cmd.standings.name"), description=ls("tour.cmd.standings.desc"))
    @app_commands.guild_only()
    @app_commands.rename(event=ls("tour.opt.event.name"))
    @app_commands.describe(event=ls("tour.opt.event.desc"))
    async def standings(self, interaction: discord.Interaction, event: str | None = None) -> None:
        ev = await self._event(interaction, event)
        if ev is None:
            return
        if not interaction.response.is_done():  # the picture takes a moment: a public "thinking…" first
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.defer(thinking=True)
        files = await self._standings_files(ev.event_id, lang_of(interaction))
        assert self.service is not None
        _ev, rows = await self.service.standings(ev.event_id)
        await interaction.followup.send(standings_text(ev, rows, lang_of(interaction)), files=files,
                                        allowed_mentions=NONE)

    @app_commands.command(name=ls("tour.cmd.cancel.name"), description=ls("tour.cmd.cancel.desc"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(event=ls("tour.opt.event.name"))
    @app_commands.describe(event=ls("tour.opt.event.desc"))
    async def cancel(self, interaction: discord.Interaction, event: str | None = None) -> None:
        lang = lang_of(interaction)
        if not _manager(interaction):
            await reply(interaction, t("tour.err.manage", lang))
            return
        ev = await self._event(interaction, event, own=True)
        if ev is None:
            return
        assert self.service is not None
        try:
            ev = await self.service.cancel(ev.event_id)
        except EventError as err:
            await reply(interaction, t(f"tour.err.{err.code}", lang))
            return
        await reply(interaction, t("tour.ok.cancelled", lang))
        # its tables still playing count for nothing now: stopped (their hand void), and the channel told, so
        # nobody plays on for an event that is gone (a table still being opened stops itself: _open_table)
        await self._stop_tables(ev, interaction.user.id, lang)
        await self._tell_channel(ev, "tour.cancelled")
        await self._tell_players(ev, "cancelled")
        await self._refresh_announcement(ev, "cancelled")

    # ------------------------------------------------------------------ restart, scheduled starts
    @commands.Cog.listener()
    async def on_tables_resumed(self) -> None:
        """After a restart: a running event's current round is opened again (tables found, not doubled), and
        the scheduled starts are watched."""
        if self.service is None:
            return
        for row in await self.bot.store.events_live():
            if row["status"] == "running" and self.bot.owns_guild(row["guild_id"]):
                try:
                    await self.service.reopen(row["event_id"])
                except Exception:
                    log.exception("could not reopen event %s", row["event_id"])
        if self._scheduler is None:
            self._scheduler = asyncio.create_task(self._scheduled_starts(), name="events-scheduler")

    async def _scheduled_starts(self) -> None:
        """Every ``JXBOT_EVENT_TICK`` seconds (and at once after a start), from the store alone — so a restart
        re-arms everything: the scheduled starts, the check-in reminders, the waiting tables' limits."""
        while True:
            for work in (self.tick, self.stop_cancelled_tables):  # one failing does not skip the other
                try:
                    await work()
                except Exception:
                    log.exception("the events' scheduled work failed (%s)", work.__name__)
            await asyncio.sleep(self.bot.settings.event_tick)

    async def stop_cancelled_tables(self) -> int:
        """The tables this process runs for an event cancelled in another process (a global event's tables run
        in each player's server's process, or in DMs; ``/tournament cancel`` stops those of the process it
        reached): stopped at the next tick as the cancel stops them there. Returns how many were stopped."""
        host: Any = self.bot.get_cog("TablesCog")
        store = self.bot.store
        if host is None or store is None or not hasattr(store, "event_get"):
            return 0
        by_event: dict[str, list[Any]] = {}
        for tb in list(host.manager.tables.values()):
            key = str((tb.arranged or {}).get("key", ""))
            if key.startswith("ev:") and tb.state != "ended":
                by_event.setdefault(key[3:].split("/")[0], []).append(tb)
        stopped = 0
        for event_id, tables in by_event.items():
            if ((await store.event_get(event_id)) or {}).get("status") == "cancelled":
                for tb in tables:
                    await admin_tables.close_by_admin(host, tb.guild_id, tb.id, 0, tb.lang)
                stopped += len(tables)
                log.info("event %s was cancelled elsewhere: %d table(s) of it stopped here", event_id, len(tables))
        return stopped

    async def tick(self) -> None:
        assert self.service is not None
        for row in await self.bot.store.events_live():
            if not self.bot.owns_guild(row["guild_id"]):
                continue
            event_id = row["event_id"]
            try:
                if row["status"] == "open":
                    who = await self.service.checkin_reminder(event_id)
                    if who:
                        await self._remind(await self.service.get(event_id), who)
                    ev = await self.service.start_due(event_id)
                    if ev is not None and ev.status == "cancelled":  # its time came with nobody to play
                        await self._tell_channel(ev, "tour.not_started")
                        await self._tell_players(ev, "not_started")
                        await self._refresh_announcement(ev, "cancelled")
                elif row["status"] == "running" and row["state"].get("wait_until") is not None:
                    late = await self.service.expire_waits(event_id)
                    if late:
                        await self._tell_expired(await self.service.get(event_id), late)
            except EventError as err:
                log.info("event %s: %s", event_id, err.code)

    async def _remind(self, ev: Event, who: list[int]) -> None:
        """The check-in reminder: a post in the event's channel that mentions (and pings) only the registered
        players not checked in; long lists in several posts (a message holds 2,000 characters)."""
        lang = self._lang(ev)
        ch = self.bot.get_partial_messageable(ev.channel_id)
        for i in range(0, len(who), 50):
            part = who[i:i + 50]
            text = t("tour.reminder", lang, name=md(ev.name), start=int(ev.config.start_at or 0),
                     who=" ".join(f"<@{u}>" for u in part))
            mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                               users=[discord.Object(u) for u in part])
            try:
                await ch.send(text, allowed_mentions=mentions)
            except discord.HTTPException:
                log.warning("could not remind event %s's players to check in", ev.event_id)

    async def _tell_channel(self, ev: Event, key: str) -> None:
        try:
            await self.bot.get_partial_messageable(ev.channel_id).send(
                t(key, self._lang(ev), name=md(ev.name)), allowed_mentions=NONE)
        except discord.HTTPException:
            log.warning("could not tell event %s's channel (%s)", ev.event_id, key)

    async def _tell_expired(self, ev: Event, late: list[int]) -> None:
        names = {p.pid: p.name for p in ev.players()}
        who = ", ".join(md(names.get(u, str(u))) for u in late)
        try:
            await self.bot.get_partial_messageable(ev.channel_id).send(
                t("tour.wait_expired", self._lang(ev), name=md(ev.name), m=ev.config.wait_minutes, who=who),
                allowed_mentions=NONE)
        except discord.HTTPException:
            log.warning("could not tell event %s's channel of its waiting limit", ev.event_id)

    async def cog_unload(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()


def standings_text(ev: Event, rows: list[Any], lang: str = "en", limit: int = 2000) -> str:
    """The standings as text beside the picture (screen readers, search): ``rank. name points · placements``.
    Whole rows, at most 25, within ``limit`` characters (a message's 2,000): the rows left out are counted on a
    last line (names full of markdown, each escape doubling a character, over many rounds ran past Discord's
    limit, and the post was refused: no standings at the end, ``/tournament standings`` failing)."""
    lines = [f"**{md(ev.name)}**"]
    size = len(lines[0])
    for i, r in enumerate(rows[:25]):
        pts = f"{r.points:+.1f}" if r.points != int(r.points) else f"{int(r.points):+d}"
        line = f"{r.rank}. {md(r.name)} {pts} · {' '.join(place_text(p) for p in r.placements) or '-'}"
        more = t("tour.standings.more", lang, n=len(rows) - i - 1) if i + 1 < len(rows) else ""
        if size + 1 + len(line) + (1 + len(more) if more else 0) > limit:
            lines.append(t("tour.standings.more", lang, n=len(rows) - i))
            break
        lines.append(line)
        size += 1 + len(line)
    else:
        if len(rows) > 25:
            lines.append(t("tour.standings.more", lang, n=len(rows) - 25))
    return "\n".join(lines)


async def event_fair_text(store: Any, event_id: str, lang: str, guild_id: int | None = None) -> str | None:
    """``/mahjong verify <event id>``: the event's commitment checked against its revealed secret and every
    hand's wall. None when ``event_id`` is no event — here: a server's own event is invisible elsewhere, as to
    every ``/tournament`` command. A cancelled event never reveals its secret (a global event's tables another
    process runs may still be dealt from it): said so, with the way left to check its hands."""
    if store is None or not hasattr(store, "event_get"):
        return None
    row = await store.event_get(event_id)
    if row is None:
        return None
    state = row["state"]
    if row["guild_id"] != guild_id and (row["config"] or {}).get("scope") != "global":
        return None
    if row["status"] == "cancelled":
        return t("tour.verify.cancelled", lang, id=event_id, c=state.get("commitment"))
    if row["status"] != "ended":
        return t("tour.verify.running", lang, id=event_id, c=state.get("commitment"))
    hands = []
    for r in await store.event_results(event_id):
        for n, hid in enumerate(r["result"].get("hand_ids") or [], start=1):
            rec = await store.get_hand(hid)
            reveal = rec.reveal if rec is not None and isinstance(rec.reveal, dict) else {}
            hands.append((int(r["round"]), int(r["table_no"]), n, reveal.get("wall")))
    ok, problems = fairness.verify_event(state.get("secret", ""), state.get("commitment", ""),
                                         row["config"].get("format", "swiss"), hands)
    if ok:
        return t("tour.verify.ok", lang, id=event_id, n=len(hands))
    return t("tour.verify.bad", lang, id=event_id, what=", ".join(problems))


async def setup(bot: JxBot) -> None:
    await bot.add_cog(TournamentCog(bot))
