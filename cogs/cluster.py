"""One process among several (``jxbot run --shards … --shard-count …`` with ``JXBOT_DB=postgresql://…``):
the table leases and the forwarding of DM presses. Loaded by ``jxbot.cluster.bot.make_bot`` only then.

* **Leases** (``jxbot.cluster.coord``): every table this process runs has a lease row it renews every
  3 s; a table is started or resumed only under its lease, so two processes never run one table. A
  lease lost (renewing failed for 20 s, the database session that signs the leases ended, or another
  process holds it) stops the table here at once — the runner is cancelled, which is safe at any point
  (the stored log is a prefix of the hand) — and the process that holds the lease resumes it from its
  events. A killed process's leases are free at once (its database session is gone); a live one's last
  30 s. At start, a table whose lease another live process holds is resumed here once it lapses.
* **DM presses**: Discord delivers every DM interaction to shard 0. A press there for a table this
  process does not run is acknowledged at once (a deferred update) and forwarded, whole, to the
  table's owner (``NOTIFY``); the owner runs the press as if it had received it and answers through
  the interaction's webhook (editing the pressed panel). A press for a table nobody holds (its process
  is down or restarting), or that its owner did not take within 2.5 s, is told "this table is restarting".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import discord
from discord.ext import commands

from jxbot.bot import JxBot
from jxbot.cluster.coord import FENCE_SECONDS, HEARTBEAT_SECONDS, LEASE_SECONDS, Coordinator
from jxbot.custom_ids import CustomId, parse_custom_id
from jxbot.i18n import register, t
from jxbot.interactions import ALREADY_ACKNOWLEDGED, after_guard, lang_of, take_response
from jxbot.shell import resume
from jxbot.shell.buttons import ACTION_VERBS

log = logging.getLogger("jxbot.cogs.cluster")

TIMINGS_EVERY = 20  # heartbeats (a minute) between two log lines of forwarding timings

# the buttons of a DM panel (cogs/play.py) and a DM table's Next (jxbot/shell/dmtable.py); other DM buttons (a
# replay viewer in /history…) are no table's
FORWARDED_VERBS = frozenset(ACTION_VERBS | {"autowin", "next"})
FORWARDED_COMMANDS = frozenset({"leave"})  # commands for a table another process runs (forward_command)

register({
    "bot.err.table_restarting": {
        "zh": "这张牌桌正在重启，请几秒钟后再按一次。",
        "en": "This table is restarting. Please press again in a few seconds.",
    },
    "bot.err.leave_restarting": {  # a forwarded /mahjong leave (forward_command): typed, not pressed
        "zh": "你的牌桌正在重启，请几秒钟后再输入一次 /麻将 离开。",
        "en": "Your table is restarting. Please type /mahjong leave again in a few seconds.",
    },
})


class ClusterCog(commands.Cog):
    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        self.coord: Coordinator | None = None
        self.held: dict[str, int] = {}  # table id -> guild id: the leases this process holds
        self.waiting: set[str] = set()  # tables to resume here once another process's lease lapses
        self.fenced = False  # renewing failed for FENCE_SECONDS: every table was stopped here
        self.last_ok = time.monotonic()
        self.forwarded = 0
        self.taken = 0
        self.timings: dict[str, list[float]] = {}  # forwarding's parts, logged once a minute (log_timings)
        self._beats = 0
        self._beat: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def tables(self) -> Any:
        return self.bot.get_cog("TablesCog")

    async def cog_load(self) -> None:
        self.coord = await Coordinator.open(self.bot.settings.db_path)
        self.coord.on_press = self._notified
        self.coord.on_lost = self._session_lost
        self.bot.press_forwarder = self.forward
        self.bot.command_forwarder = self.forward_command
        self.bot.table_claimer = self.claim
        # the readiness gate (docs/bot.md) also waits for the tables whose lease another process still held
        # at the resume: they are resumed here once it lapses (a live holder keeps it at most LEASE_SECONDS)
        self.bot.hold_start("leases")
        self.resumed_at: float | None = None
        self.last_ok = time.monotonic()
        self._beat = asyncio.create_task(self._heartbeat(), name="cluster-heartbeat")
        plan = self.bot.shard_plan
        log.info("cluster: this process is %s, %s", self.coord.node, plan.label() if plan else "all shards")

    async def cog_unload(self) -> None:
        self.log_timings()
        if self._beat is not None:
            self._beat.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self.coord is None:
            return
        cog = self.tables
        runners = [t.session.runner._task for t in (cog.manager.tables.values() if cog else ())
                   if t.session is not None and t.session.runner is not None and t.session.runner._task is not None]
        for task in runners:  # no table of this process may run once its lease is given back
            task.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
        try:
            await self.coord.release_all()  # a clean stop: the restarted process takes the tables at once
        except Exception as exc:
            log.warning("cluster: releasing the leases failed (%s); they lapse in a few seconds", type(exc).__name__)
        await self.coord.close()

    def _timing(self, what: str, seconds: float) -> None:
        self.timings.setdefault(what, []).append(seconds * 1000)

    def log_timings(self) -> None:
        """One INFO line a minute about the forwarded DM presses: on shard 0's process how long the
        acknowledgement and the hand-over (one statement: row + NOTIFY) took, on the owner how long taking
        the press and answering it (the move, its picture, the webhook edit) took; p50/p99 in ms."""
        if not self.timings:
            return
        parts = []
        for what, xs in sorted(self.timings.items()):
            xs.sort()
            parts.append(f"{what}_n={len(xs)} {what}_p50_ms={xs[len(xs) // 2]:.1f} "
                         f"{what}_p99_ms={xs[min(len(xs) - 1, int(0.99 * len(xs)))]:.1f}")
        log.info("cluster: forwarded DM presses: %s", " ".join(parts))
        self.timings.clear()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ leases
    async def claim(self, rec: Any) -> bool:
        """Before a table is resumed here: its lease (False: another process holds it; retried each beat)."""
        assert self.coord is not None
        try:
            ok = await self.coord.acquire(rec.table_id, rec.guild_id)
        except Exception as exc:
            log.warning("cluster: acquiring the lease of table %s failed: %s", rec.table_id, type(exc).__name__)
            ok = False
        if ok:
            self.held[rec.table_id] = int(rec.guild_id)
            self.waiting.discard(rec.table_id)
        else:
            if rec.table_id not in self.waiting:
                log.info("table %s: its lease is held by another process; it resumes here when that lapses",
                         rec.table_id)
            self.waiting.add(rec.table_id)
        return ok

    @commands.Cog.listener()
    async def on_tables_resumed(self) -> None:
        self.resumed_at = time.monotonic()
        self._maybe_ready()

    def _maybe_ready(self) -> None:
        """Open this process's share of the readiness gate once no table of its shards waits for a lease
        (or, should a lease never lapse, once it certainly would have: the gate does not stay shut)."""
        if self.resumed_at is None or not self.bot.starting:
            return
        if not self.waiting:
            self.bot.start_done("leases")
        elif time.monotonic() - self.resumed_at > LEASE_SECONDS + 2 * HEARTBEAT_SECONDS:
            log.warning("cluster: %d tables still wait for another process's lease; opening anyway", len(self.waiting))
            self.bot.start_done("leases")

    @commands.Cog.listener()
    async def on_table_running(self, table: Any) -> None:
        """A table started here (a new one; a resumed one holds its lease already): take its lease now."""
        if self.coord is None or table.id in self.held:
            return
        try:
            ok = await self.coord.acquire(table.id, table.guild_id)
        except Exception as exc:
            log.warning("cluster: acquiring the lease of table %s failed: %s (next beat)", table.id,
                        type(exc).__name__)
            return
        if ok:
            self.held[table.id] = int(table.guild_id)
        else:
            self.drop(table, "its lease is held by another process")

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            self._beats += 1
            if self._beats % TIMINGS_EVERY == 0:
                self.log_timings()
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: heartbeat failed")

    async def beat(self) -> None:
        """Renew every lease of this process in one statement; stop what it lost; resume what waits."""
        assert self.coord is not None
        cog = self.tables
        if cog is None:
            return
        local = {tid: int(t.guild_id) for tid, t in cog.manager.tables.items() if t.state != "ended"}
        t0 = time.monotonic()
        try:
            await self.coord.keep_listening()
            held = await asyncio.wait_for(self.coord.renew(local), HEARTBEAT_SECONDS * 2)
            gone = [tid for tid in self.held if tid not in local]
            await self.coord.release(gone)
        except (TimeoutError, OSError, Exception) as exc:
            log.warning("cluster: renewing %d leases failed: %s", len(local), type(exc).__name__)
            if time.monotonic() - self.last_ok > FENCE_SECONDS and local:
                log.error("cluster: no lease renewed for %.0f s: stopping this process's %d tables (they resume "
                          "where a lease can be taken)", time.monotonic() - self.last_ok, len(local))
                for tid in list(local):
                    table = cog.manager.get(tid)
                    if table is not None:
                        self.drop(table, "its lease could not be renewed")
                self.fenced = True
            return
        self.last_ok = t0
        self.held = {tid: local[tid] for tid in held}
        await self.share_budget()
        for tid in set(local) - held:
            table = cog.manager.get(tid)
            if table is not None:
                self.drop(table, "another process holds its lease")
        if self.waiting or self.fenced:
            self.fenced = False
            await self.resume_waiting()
        self._maybe_ready()

    async def share_budget(self) -> None:
        """This process's share of the bot token's counted requests: the budget over the live processes."""
        assert self.coord is not None
        try:
            n = await asyncio.wait_for(self.coord.live_processes(), HEARTBEAT_SECONDS)
        except (TimeoutError, OSError, Exception) as exc:
            log.warning("cluster: counting the live processes failed: %s", type(exc).__name__)
            return
        budget = self.bot.budget
        if n != budget.processes:
            budget.set_processes(n)
            log.info("cluster: request budget: %d live processes share %.0f requests/s (%.1f each)", n,
                     budget.total, budget.rate)

    async def resume_waiting(self) -> None:
        """Resume the running tables of this process's shards that no process runs: once the lease of a
        killed process lapsed, or a table stopped here (a lost lease) whose holder let it lapse."""
        cog = self.tables
        store = self.bot.store
        if cog is None or store is None:
            return
        left: set[str] = set()
        away = set(cog.manager.away)  # dropped before the store is read: a later one is judged next beat
        running = await store.running_tables()
        for rec in running:
            if self.bot.owns_guild(rec.guild_id) and cog.manager.get(rec.table_id) is None:
                left.add(rec.table_id)
                try:
                    if await resume.resume_table(cog, rec):
                        left.discard(rec.table_id)
                        log.info("table %s resumed (its lease was free)", rec.table_id)
                except Exception:
                    log.exception("could not resume table %s", rec.table_id)
        self.waiting = left  # a table closed meanwhile (by its holder) is no longer waited for
        # a table dropped here keeps its channel, seats and holds (manager.away) until it is resumed here
        # (manager.add, above) or the store no longer runs it (closed, or suspended: never resumed). While
        # another process runs it, it stays present here too: the guild's commands (/pay, /mahjong create)
        # reach this process, which must not free what that table holds (docs/bot.md)
        still = {rec.table_id for rec in running if not (rec.state or {}).get("suspended")}
        for tid in [tid for tid in cog.manager.away if tid in away and tid not in still]:
            log.info("table %s: no longer running in the store; its seats and holds are released here", tid)
            cog.manager.release_away(tid)

    def _session_lost(self) -> None:
        """The LISTEN session (the leases' sign of life) ended: another process may take any of this one's
        tables from now on, so every one stops here at once; the next beat reconnects and resumes those
        whose lease it can take again."""
        cog = self.tables
        for table in list(cog.manager.tables.values()) if cog is not None else ():
            if table.state != "ended":
                self.drop(table, "the database session holding its lease ended")
        self.fenced = True

    def drop(self, table: Any, why: str) -> None:
        """Stop running ``table`` here at once (no await): another process runs it from its stored events.
        The store still says it runs, so it stays present for the checks (``manager.away``): its channel
        takes no new table, its players sit nowhere else and the silver held for them stays held, until it
        is resumed here or provably run elsewhere (:meth:`resume_waiting`)."""
        log.warning("table %s: %s; stopped in this process", table.id, why)
        session = table.session
        runner = session.runner if session is not None else None
        if runner is not None and runner._task is not None:
            runner._task.cancel()
        cog = self.tables
        if cog is not None and cog.manager.get(table.id) is table:
            cog.manager.set_away(table.id)  # out of this process's tables; seats, channel and holds kept
        co = self.bot.coalescer
        for key in [("lobby", table.id), ("table", table.id)] + [("panel", table.id, s) for s in range(4)]:
            co.forget(key)
        self.held.pop(table.id, None)
        self.waiting.add(table.id)  # resumed here again if its lease lapses while the store says it runs

    # ------------------------------------------------------------------ DM presses
    async def forward(self, interaction: discord.Interaction, cid: CustomId) -> bool:
        """On shard 0: a DM press for a table another process runs goes to that process. True: handled here
        (forwarded, or answered "restarting"); False: the table is this process's, run it as usual."""
        if interaction.guild_id is not None or self.coord is None or cid.verb not in FORWARDED_VERBS:
            return False
        cog = self.tables
        if cog is None or cog.manager.get(cid.table) is not None:
            return False
        raw = getattr(self.bot, "raw_presses", {}).pop(interaction.id, None)
        if raw is None:
            return False
        msg = raw.get("message")
        if isinstance(msg, dict):  # the pressed panel shows the player's tiles: only its id travels
            raw = {**raw, "message": {**msg, "content": "", "components": [], "attachments": [], "embeds": []}}
        lang = lang_of(interaction)
        interaction.extras["responder"] = "handler"
        t0 = time.perf_counter()
        # acknowledged first (Discord's 3 s count from the click), then handed over: the owner's answer (an
        # edit of the pressed panel, or an ephemeral follow-up) needs the acknowledgement to have reached Discord
        if not await self._acknowledge(interaction, cid, t0):
            return True  # too late for Discord: the player saw "This interaction failed"; nothing was moved
        got: tuple[int, str] | None = None
        taken = False
        t1 = time.perf_counter()
        try:
            got = await self.coord.forward(cid.table, raw)
            self._timing("handover", time.perf_counter() - t1)
        except Exception as exc:
            log.warning("forwarding a DM press for table %s failed: %s", cid.table, type(exc).__name__)
        if got is not None:
            try:
                taken = await self.coord.wait_taken(got[0])
            except Exception as exc:
                log.warning("waiting for the owner of table %s failed: %s", cid.table, type(exc).__name__)
        if got is not None:
            self.forwarded += 1
        if not taken:
            key = "bot.err.table_restarting"
            if got is None:  # no lease row at all: the table ended (its panel's buttons are old), none restarts
                with contextlib.suppress(Exception):
                    key = "bot.err.table_restarting" if await self.coord.lease_known(cid.table) else "bot.err.stale"
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send(t(key, lang), ephemeral=True)
        return True

    async def forward_command(self, interaction: discord.Interaction, verb: str) -> bool:
        """``/mahjong leave`` typed in a server this process serves, by a person seated at a table another
        process runs (a cross-server table in DMs, or a table of another server): forwarded to that process,
        which runs it as its own (the escape) and answers. True: handled here; False: no such table."""
        if self.coord is None or verb not in FORWARDED_COMMANDS or self.bot.store is None:
            return False
        cog = self.tables
        tid = await self.bot.store.running_table_of(interaction.user.id)
        if cog is None or tid is None or cog.manager.get(tid) is not None:
            return False
        raw = getattr(self.bot, "raw_presses", {}).pop(interaction.id, None)
        if raw is None:
            return False
        lang = lang_of(interaction)
        # acknowledged first ("thinking…", private): the owner's answer is a follow-up. The acknowledgement guard
        # may have deferred it already, the same way (a slow look-up, or the readiness gate held the command)
        if take_response(interaction):
            try:
                await interaction.response.defer(ephemeral=True, thinking=True)
            except discord.HTTPException as exc:
                if exc.code != ALREADY_ACKNOWLEDGED:  # (the guard at the same moment: acknowledged all the same)
                    log.warning("deferring /%s for table %s failed: %s", verb, tid, exc.status)
                    return True
        await after_guard(interaction)  # the guard's deferral has reached Discord: the owner's follow-up needs it
        taken = False
        try:
            got = await self.coord.forward(tid, {**raw, "jx_command": verb, "jx_table": tid})
            taken = got is not None and await self.coord.wait_taken(got[0])
        except Exception as exc:
            log.warning("forwarding /%s for table %s failed: %s", verb, tid, type(exc).__name__)
        if not taken:
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send(t("bot.err.leave_restarting", lang), ephemeral=True)
        return True

    async def _run_command(self, raw: dict[str, Any]) -> None:
        """The owner: a forwarded command (acknowledged "thinking…" by the forwarder) run on its table."""
        inter = discord.Interaction(data=raw, state=self.bot._connection)  # type: ignore[arg-type]
        inter.response._response_type = discord.InteractionResponseType.deferred_channel_message
        inter.extras["responder"] = "forwarder"
        inter.extras["forwarded"] = True
        cog = self.tables
        tid = str(raw.get("jx_table"))
        table = cog.manager.get(tid) if cog is not None else None
        if table is None or table.seat_of(inter.user.id) is None:  # ended, or stopped here meanwhile (restarting)
            restarting = table is None and cog is not None and (tid in cog.manager.away or tid in self.waiting)
            key = "bot.err.leave_restarting" if restarting else "bot.err.not_seated"
            with contextlib.suppress(discord.HTTPException):
                await inter.followup.send(t(key, lang_of(inter)), ephemeral=True)
            return
        try:
            if raw.get("jx_command") == "leave":
                await cog.do_leave(inter, table)
        except Exception:  # logged here (this task is nobody's to watch), and the presser's "thinking…" answered
            log.exception("forwarded /%s at table %s by user %s failed", raw.get("jx_command"), table.id,
                          inter.user.id if inter.user else None)
            with contextlib.suppress(discord.HTTPException):
                await inter.followup.send(t("bot.err.internal", lang_of(inter)), ephemeral=True)

    async def _acknowledge(self, interaction: discord.Interaction, cid: CustomId, t0: float) -> bool:
        try:
            await interaction.response.defer()
        except discord.HTTPException as exc:
            log.warning("deferring a DM press for table %s failed: %s", cid.table, exc.status)
            return False
        self._timing("ack", time.perf_counter() - t0)
        return True

    def _notified(self, press_id: int) -> None:
        self._spawn(self._run_forwarded(press_id))

    async def _run_forwarded(self, press_id: int) -> None:
        """The owner: take a forwarded press and run it as if this process had received it. It was
        acknowledged by the forwarder, so every answer goes through the webhook (the pressed panel edited,
        or an ephemeral follow-up)."""
        assert self.coord is not None
        t0 = time.perf_counter()
        raw = await self.coord.take(press_id)
        if raw is None:
            return  # withdrawn: the forwarder answered it
        t1 = time.perf_counter()
        self.taken += 1
        if raw.get("jx_command"):  # a command, not a press
            await self._run_command(raw)
            return
        inter = discord.Interaction(data=raw, state=self.bot._connection)  # type: ignore[arg-type]
        inter.response._response_type = discord.InteractionResponseType.deferred_message_update
        # answered (deferred) by the forwarder: the handler edits it, with nothing to wait for (not "guard":
        # after_guard would wait out the acknowledgement guard's timer)
        inter.extras["responder"] = "forwarder"
        inter.extras["forwarded"] = True
        cid = parse_custom_id(str((raw.get("data") or {}).get("custom_id", "")))
        if cid is None:
            return
        cog = self.tables
        if cog is None or cog.manager.get(cid.table) is None:  # stopped here meanwhile
            with contextlib.suppress(discord.HTTPException):
                await inter.followup.send(t("bot.err.table_restarting", lang_of(inter)), ephemeral=True)
            return
        await self.bot.dispatch_button(inter, cid)
        self._timing("take", t1 - t0)
        self._timing("answer", time.perf_counter() - t1)


async def setup(bot: JxBot) -> None:
    await bot.add_cog(ClusterCog(bot))
