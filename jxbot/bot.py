"""The Discord bot: the client class (:class:`JxBot`), the app commands' zh-CN localisation, and running the
process (:func:`run_bot`).

Its parts live beside it, a module each: the buttons' custom ids and :class:`~jxbot.custom_ids.MjButton`
(``jxbot/custom_ids.py``; the verb of a press picks a handler registered by a cog,
:meth:`JxBot.register_button`), answering interactions and the acknowledgement guard
(``jxbot/interactions.py``), the readiness gate and the command tree (``jxbot/readiness.py``), the
per-message edit coalescer (``jxbot/edit_coalescer.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from jxbot import (
    botstrings,  # noqa: F401  (registers the bot's strings)
    drawing,
)
from jxbot.config import Settings
from jxbot.custom_ids import ButtonHandler, CustomId, MjButton, custom_ids_in, parse_custom_id
from jxbot.edit_coalescer import EditCoalescer, PicturePace
from jxbot.i18n import has, t
from jxbot.interactions import ack_later, answer_quietly, cancel_guard, connection_closed, lang_of, reply
from jxbot.readiness import OPEN_VERBS_AT_START, JxTree, ReadinessGate
from jxbot.request_budget import ChannelTokens, RequestBudget, meter

log = logging.getLogger("jxbot.bot")

EXTENSIONS = ("cogs.tables", "cogs.play", "cogs.economy", "cogs.admin", "cogs.replay", "cogs.review", "cogs.howto",
              "cogs.help", "cogs.watch", "cogs.ranked", "cogs.tournament")


async def load_cog_module(bot: commands.Bot, name: str) -> None:
    """Import ``name`` (once, as any import does) and run its ``setup(bot)``.

    Not ``load_extension``: that executes the module's file again into a fresh module object, so a cog
    module another cog had already imported (cogs.tables imports cogs.play) would exist twice, with two
    sets of classes and module state (the drawing pools, the picture gate, the counters). The bot never
    reloads a cog, so it loses nothing by this."""
    module = importlib.import_module(name)
    await module.setup(bot)


SWITCH_INTERVAL = 0.0005  # seconds: the interpreter's GIL switch interval in the running bot (run_bot)


# --------------------------------------------------------------------------------------------------
# translator


class JxTranslator(app_commands.Translator):
    """Command names/descriptions: ``locale_str(en_text, key=...)`` → the catalog's zh text for zh locales."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if not key or not has(key):
            return None
        if locale in (discord.Locale.chinese, discord.Locale.taiwan_chinese):
            return t(key, "zh")
        return None


def ls(key: str) -> app_commands.locale_str:
    """A localizable command string: English text now, zh-CN through :class:`JxTranslator`."""
    return app_commands.locale_str(t(key, "en"), key=key)


# --------------------------------------------------------------------------------------------------
# the bot


REQUIRED_CHANNEL_PERMS = ("view_channel", "send_messages", "embed_links", "attach_files",
                          "read_message_history")


def invite_url(application_id: int) -> str:
    perms = discord.Permissions(**{p: True for p in REQUIRED_CHANNEL_PERMS})
    return discord.utils.oauth_url(application_id, permissions=perms, scopes=("bot", "applications.commands"))


def missing_permissions(perms: discord.Permissions) -> list[str]:
    return [p for p in REQUIRED_CHANNEL_PERMS if not getattr(perms, p)]


# the graceful stop (docs/bot.md, "Stopping: the graceful stop"), each step bounded
STOP_PRESSES = 5.0  # seconds the presses and commands being handled get to finish and answer
STOP_TABLES = 5.0  # seconds the tables get to pause at their next safe point (then they are cancelled)
STOP_EDITS = 2.0  # seconds the pending edits (panels, table messages) get to go out


def quiet_voice_warnings() -> None:
    """discord.py warns at every start that PyNaCl and davey (voice) are not installed: jxbot uses no voice,
    so those two lines are only noise in the journal. Each is a class flag of ``VoiceClient``, read once."""
    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(discord.VoiceClient, flag):
            setattr(discord.VoiceClient, flag, False)


class JxBot(commands.Bot):
    # several processes (jxbot.cluster, docs/bot.md "Running N processes"); unset: this process is the only one
    shard_plan: Any = None  # jxbot.cluster.ShardPlan: the shards (and so the guilds' tables) of this process
    press_forwarder: Callable[[discord.Interaction, CustomId], Awaitable[bool]] | None = None  # True: forwarded
    # a command for the table another process runs (``/mahjong leave``): True when forwarded (jxbot.cluster)
    command_forwarder: Callable[[discord.Interaction, str], Awaitable[bool]] | None = None
    table_claimer: Callable[[Any], Awaitable[bool]] | None = None  # resume: False while another process runs it

    def __init__(self, settings: Settings, *, store: Any = None, sync: bool = True,
                 extensions: tuple[str, ...] = EXTENSIONS, **client_options: Any) -> None:
        quiet_voice_warnings()
        intents = discord.Intents.none()
        intents.guilds = True  # channels, roles and permissions; nothing privileged
        self._web_proc: Any = None  # the `jxbot web` process with JXBOT_WEB_PORT (docs/web.md)
        self._web_watch: asyncio.Task[None] | None = None
        self._closing_web = False
        self.web_address: str | None = None  # http://host:port/ once the web process serves
        self.metrics: Any = None  # jxbot.metrics.Metrics with JXBOT_METRICS_PORT (docs/ops.md)
        if settings.metrics_port is not None:
            from jxbot.metrics import Metrics

            self.metrics = Metrics()
            client_options.setdefault("http_trace", self.metrics.http_trace())  # every REST call counted
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         tree_cls=JxTree,
                         # nothing pings unless a message names whom it may ping (jxbot.safety.ping)
                         allowed_mentions=discord.AllowedMentions.none(), **client_options)
        self.settings = settings
        self.store = store
        self._own_store = store is None
        self._sync = sync
        self._extensions = extensions
        self.coalescer = EditCoalescer(settings.edit_interval, budget=settings.edit_budget)
        self.picture_pace = PicturePace(settings.picture_pace)  # table pictures a second, whichever route
        from jxbot.ai import offload

        offload.QUEUE_LIMIT = settings.expert_queue  # JXBOT_EXPERT_QUEUE: when an expert stops waiting for its worker
        self.budget = RequestBudget(settings.request_budget)  # counted requests, in priority order
        meter(self.http, self.budget)  # every counted REST request takes from it
        self.channel_tokens = ChannelTokens(settings.token_life)  # presses in guild channels, for follow-ups
        from jxbot.press_timing import PressTimes

        self.press_times = PressTimes(settings.lag_log)  # where a press's time goes (JXBOT_LAG_LOG)
        self._buttons: dict[str, ButtonHandler] = {}
        self.gate = ReadinessGate(settings.start_wait)  # jxbot.readiness: closed while start-up resumes the tables (docs/bot.md)
        self._stopped = False  # the graceful part of close() has run (docs/bot.md, "Stopping")
        self._stop_hooks: list[Callable[[], Awaitable[None]]] = []
        if self.metrics is not None:
            self.metrics.bind(self)
            self.press_times.listener = self.metrics.observe_press

    # -- the readiness gate (jxbot.readiness)
    @property
    def starting(self) -> bool:
        """True from the connection until every table of this process is resumed (seats, holds, leases)."""
        return self.gate.closed

    async def is_bot_owner(self, user: discord.abc.User) -> bool:
        """The bot's owner: ``JXBOT_OWNER_IDS``, or the application's owner (or its team)."""
        if user.id in self.settings.owner_ids:
            return True
        try:
            return bool(await self.is_owner(user))
        except Exception:  # the application info cannot be fetched now: only JXBOT_OWNER_IDS count
            return False

    async def login(self, token: str) -> None:
        self.gate.arm()  # before the gateway connects: interactions may come before on_ready
        await super().login(token)

    def hold_start(self, what: str) -> None:
        """Keep the gate closed until :meth:`start_done` ``(what)`` (called before the gateway connects)."""
        self.gate.hold(what)

    def start_done(self, what: str) -> None:
        self.gate.done(what)

    # -- the graceful stop
    @property
    def stopping(self) -> bool:
        """True from the start of a stop (SIGTERM): nothing new is taken, what runs finishes."""
        return self.gate.stopping

    def add_stop_hook(self, hook: Callable[[], Awaitable[None]]) -> None:
        """``hook()`` runs in a stop once the interactions being handled are done, before the HTTP session
        closes (the tables cog pauses its runners and saves every table)."""
        self._stop_hooks.append(hook)

    async def stop_gracefully(self) -> None:
        """The graceful stop (docs/bot.md, "Stopping: the graceful stop"), before the HTTP session closes:
        1. the gate closes again: a new command or press is answered "restarting, try again" (or, once the
           gateway is closed, not taken at all);
        2. the commands and presses being handled finish and their answers go out (``STOP_PRESSES``);
        3. the stop hooks run: every table pauses at its next safe point and is saved (``STOP_TABLES``);
        4. the pending edits go out (``STOP_EDITS``).
        Each step is bounded; whatever still fails afterwards on the closed session is logged as one INFO
        line, not as an error."""
        if self._stopped:
            return
        self._stopped = True
        self.gate.stopping = True
        self.coalescer.closing = True
        mine = asyncio.current_task()
        if self.settings.test_stop_delay:  # tests only: the stop's closed gate held open
            await asyncio.sleep(self.settings.test_stop_delay)
        busy = [t for t in self.gate.inflight if t is not mine and not t.done()]
        if busy:
            log.info("stopping: %d commands and presses being handled; waiting for their answers", len(busy))
            _, left = await asyncio.wait(busy, timeout=STOP_PRESSES)
            if left:
                log.warning("stopping: %d commands or presses still unanswered after %.0f s", len(left),
                            STOP_PRESSES)
        for hook in self._stop_hooks:
            try:
                await hook()
            except Exception:
                log.exception("stopping: a stop step failed")
        left_edits = await self.coalescer.drain(STOP_EDITS)
        if left_edits:
            log.info("stopping: %d message edits not sent (the restart sends them again)", left_edits)
        log.info("stopped taking commands and presses (%d told to try again); closing the connection",
                 self.gate.refused_stopping)

    # -- buttons
    def register_button(self, verb: str, handler: ButtonHandler) -> None:
        self._buttons[verb] = handler

    async def dispatch_button(self, interaction: discord.Interaction, cid: CustomId) -> None:
        handler = self._buttons.get(cid.verb)
        lang = lang_of(interaction)
        if handler is None:
            await reply(interaction, t("bot.err.stale", lang))
            return
        self.gate.track()
        if self.press_forwarder is not None and await self.press_forwarder(interaction, cid):
            return  # a DM press for a table another process runs: forwarded to it (jxbot.cluster)
        if self.stopping:  # a stop: the gate is closed again, nothing new is taken (docs/bot.md, "Stopping")
            await self.gate.refuse_stopping(interaction)
            return
        ack_later(interaction, update=True)  # (a press waiting for the gate is deferred by the guard)
        if self.settings.token_routing and interaction.guild_id is not None and interaction.channel_id is not None:
            self.channel_tokens.note(interaction.channel_id, interaction)  # a table message may follow it up
        if self.starting and cid.verb not in OPEN_VERBS_AT_START and not await self.gate.wait_open():
            # the gate: no press on a table not resumed yet (it waited JXBOT_START_WAIT s for the resume)
            cancel_guard(interaction)
            await self.gate.refuse(interaction)
            return
        try:
            await handler(interaction, cid)
        except Exception as exc:
            if self.stopping and connection_closed(exc):  # its answer could not go out: the stop's time ran out
                log.info("button %s at table %s: not answered, the bot is stopping (%s)", cid.verb, cid.table,
                         type(exc).__name__)
                return
            # the verb and table only: a tile in the id would be a concealed tile in the log
            log.exception("button %s at table %s seat %s by user %s failed", cid.verb, cid.table, cid.seat,
                          interaction.user.id if interaction.user else None)
            await self._report_failure(interaction)
        finally:
            cancel_guard(interaction)
            interaction.extras["handled"] = True  # its own answers are sent: a follow-up of ours may follow

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        cancel_guard(interaction)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """discord.py ignores a component click whose custom_id is no longer on the message (the panel moved
        on between the click and its arrival, e.g. a claim pressed after the window): the player would see
        "This interaction failed". Such an ``mj:`` click goes to its handler, which answers it as stale."""
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        cid = parse_custom_id(custom_id)
        if cid is None or custom_id in custom_ids_in(interaction.message.components):
            return  # not ours, or discord.py dispatches it to MjButton
        await self.dispatch_button(interaction, cid)

    async def _report_failure(self, interaction: discord.Interaction) -> None:
        await answer_quietly(interaction, "bot.err.internal")

    def owns_guild(self, guild_id: int | None) -> bool:
        """This process runs the guild's tables (always, unless it holds only some of the shards)."""
        return self.shard_plan is None or self.shard_plan.owns(guild_id)

    # -- life cycle
    async def setup_hook(self) -> None:
        await self.tree.set_translator(JxTranslator())
        self.tree.on_error = self._on_app_command_error  # type: ignore[method-assign]
        self.add_dynamic_items(MjButton)
        if self.store is None:
            self.store = await open_store(self.settings)
        if self.metrics is not None:
            await self._start_metrics()
        if self.settings.web_port is not None:
            await self._start_web()
        for ext in self._extensions:
            await load_cog_module(self, ext)
        if self._sync:
            await self.sync_commands()
        if self.settings.lag_log > 0:
            self._lag_task = asyncio.create_task(self._sample_lag(self.settings.lag_log), name="lag-sampler")
        from jxbot.ai.warm import warm_tables_off_loop

        await warm_tables_off_loop()  # shanten tables in a thread, before any table starts (issue 18)
        n = self.settings.draw_processes
        pictures = drawing.configure(drawing.auto_processes() if n is None else n)
        self._warm_task = asyncio.create_task(pictures.warm(), name="warm-drawing")

    async def _start_metrics(self) -> None:
        """The metrics and health listener (docs/ops.md); one that cannot listen is logged, the bot plays on."""
        if self.store is not None and hasattr(self.store, "observer"):
            self.store.observer = self.metrics.observe_store
        host, port = self.settings.metrics_host, self.settings.metrics_port
        try:
            await self.metrics.start(host, port)
        except OSError as exc:
            log.error("metrics: cannot listen on %s:%s (%s); running without metrics (JXBOT_METRICS_PORT)",
                      host, port, exc.strerror or exc)

    def web_child_env(self) -> dict[str, str]:
        """The web process's environment: the bot's, with every setting the pages read taken from the bot's
        own settings (so a bot started with another ``--env-file`` serves what it was told to)."""
        st = self.settings
        env = dict(os.environ)
        env.update(JXBOT_DB=str(st.db_path), JXBOT_WATCH_DELAY=str(st.watch_delay), JXBOT_WEB_RATE=str(st.web_rate),
                   JXBOT_WEB_ALL_SERVERS="1" if st.web_all_servers else "0", JXBOT_WEB_HOST=st.web_host,
                   PYTHONUNBUFFERED="1", JXBOT_WEB_PARENT=str(os.getpid()))
        for var, value in (("JXBOT_WEB_URL", st.web_url), ("JXBOT_WEB_SECRET", st.web_secret)):
            if value:
                env[var] = value
            else:
                env.pop(var, None)
        env.pop("DISCORD_TOKEN", None)  # the pages never talk to Discord
        return env

    async def _start_web(self) -> None:
        """The web companion (docs/web.md) in a process of its own over the same store — ``jxbot web``, started
        and stopped with the bot — so that its readers never hold up a press on the bot's event loop (issue 31:
        served inside the bot, 100 spectators doubled the players' own-panel p99; in a process of its own it
        did not change). One that cannot start or listen is logged; the bot plays on."""
        import subprocess

        argv = [sys.executable, "-m", "jxbot.cli", "web", "--port", str(self.settings.web_port or 0),
                "--env-file", os.devnull]
        try:
            proc = await asyncio.create_subprocess_exec(*argv, env=self.web_child_env(), stdin=subprocess.DEVNULL,
                                                        stdout=subprocess.PIPE)
        except OSError as exc:
            log.error("web: cannot start the web process (%s); running without the web pages (JXBOT_WEB_PORT)", exc)
            return
        self._web_proc = proc
        assert proc.stdout is not None
        try:  # ready when it says where it serves (so the pages answer once the bot is up)
            line = (await asyncio.wait_for(proc.stdout.readline(), 30.0)).decode(errors="replace").strip()
        except TimeoutError:
            line = ""
        if "serving" in line:
            self.web_address = line.split("serving", 1)[1].split()[0]
            log.info("web: the pages are served by process %s at %s", proc.pid, self.web_address)
        self._web_watch = asyncio.create_task(self._watch_web(proc), name="web-process")

    async def _watch_web(self, proc: Any) -> None:
        while await proc.stdout.readline():  # nothing more is expected; never let the pipe fill
            pass
        code = await proc.wait()
        if not self._closing_web:
            log.error("web: the web process exited (code %s); running without the web pages (JXBOT_WEB_PORT: %s)",
                      code, self.settings.web_port)

    async def _stop_web(self) -> None:
        proc = getattr(self, "_web_proc", None)
        if proc is None or proc.returncode is not None:
            return
        self._closing_web = True
        proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 5.0)
        except TimeoutError:
            proc.kill()
            await proc.wait()

    async def _sample_lag(self, every: float, tick: float = 0.05) -> None:
        """How late a ``tick``-second sleep wakes up = how long other work held the event loop."""
        lags: list[float] = []
        last = time.monotonic()
        while True:
            t0 = time.monotonic()
            await asyncio.sleep(tick)
            lags.append(max(0.0, time.monotonic() - t0 - tick) * 1000.0)
            if time.monotonic() - last >= every:
                xs = sorted(lags)
                lags.clear()
                last = time.monotonic()
                log.info("event loop lag: n=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f", len(xs), xs[len(xs) // 2],
                         xs[min(len(xs) - 1, int(0.99 * len(xs)))], xs[-1])
                log.info("pictures drawn: %s", drawing.report())

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))
        return synced

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id if self.user else "?",
                 len(self.guilds))
        if self.application_id:
            log.info("invite link: %s", invite_url(self.application_id))

    async def close(self) -> None:
        try:
            await self.stop_gracefully()  # the first close: what runs finishes, the tables are saved
        except Exception:
            log.exception("stopping gracefully failed; closing anyway")
        try:
            if getattr(self, "_lag_task", None) is not None:
                self._lag_task.cancel()
            await drawing.drawing().aclose()
            if self.metrics is not None:
                await self.metrics.stop()
            await self._stop_web()
            for task in list(self.coalescer._tasks.values()):
                task.cancel()
            if self._own_store and self.store is not None and hasattr(self.store, "close"):
                await self.store.close()
        finally:
            await super().close()

    async def _on_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        cancel_guard(interaction)
        lang = lang_of(interaction)
        if isinstance(error, app_commands.MissingPermissions):
            await reply(interaction, t("bot.err.need_manage_guild", lang))
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await reply(interaction, t("bot.err.guild_only", lang))
            return
        if isinstance(error, app_commands.CommandOnCooldown):
            await reply(interaction, t("bot.err.cooldown", lang, seconds=int(error.retry_after) + 1))
            return
        cmd = interaction.command.qualified_name if interaction.command else "?"
        if self.stopping and connection_closed(error):  # its answer could not go out: the stop's time ran out
            log.info("command /%s: not answered, the bot is stopping (%s)", cmd, type(error).__name__)
            return
        log.error("command /%s by user %s failed", cmd, interaction.user.id if interaction.user else None,
                  exc_info=error)
        await self._report_failure(interaction)


async def open_store(settings: Settings) -> Any:
    """Open the SQLite store (``jxbot.store``); ``None`` when it is not available in this build."""
    try:
        from jxbot.store import Store  # type: ignore[attr-defined]
    except ImportError:
        log.warning("jxbot.store is not available: silver commands are disabled")
        return None
    return await Store.open(settings.db_path, scope="global" if settings.silver_scope == "global" else "guild")


def configure_endpoints(api_base: str | None) -> None:
    try:
        from jxbot import discord_endpoints  # type: ignore[attr-defined]
    except ImportError:
        if api_base:
            discord.http.Route.BASE = api_base
        return
    discord_endpoints.configure(api_base)


# gateway close codes the admin must fix (https://discord.com/developers/docs/topics/opcodes-and-status-codes)
GATEWAY_REFUSALS = {4004: "Discord rejected the token (DISCORD_TOKEN): reset it in the Developer Portal",
                     4010: "Discord refused the shard settings (JXBOT_SHARD_IDS / JXBOT_SHARD_COUNT)",
                     4011: "Discord requires more shards for this bot (JXBOT_SHARD_COUNT)",
                     4012: "Discord refused the gateway version: upgrade jxbot",
                     4013: "Discord refused the intents: upgrade jxbot",
                     4014: "the bot asked for a privileged intent not enabled in the Developer Portal"}


def start_failure(exc: BaseException) -> tuple[int, str]:
    """What a failed start means to the admin: ``(exit code, one line)``. 2: a refusal a restart will not fix
    (a rejected or malformed token, a refused setting) — systemd's ``RestartPreventExitStatus=2`` keeps it
    down; 1: something that may pass (the network, DNS, a Discord outage) — systemd restarts it after
    ``RestartSec``. The line never holds the token: only the exception's type, status or OS error text."""
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return 2, GATEWAY_REFUSALS[4014]
    if isinstance(exc, discord.LoginFailure):
        return 2, GATEWAY_REFUSALS[4004] + " (a token has three parts separated by dots)"
    if isinstance(exc, discord.ConnectionClosed):
        if exc.code in GATEWAY_REFUSALS:
            return 2, GATEWAY_REFUSALS[exc.code]
        return 1, f"the Discord gateway closed the connection (code {exc.code}); a restart will retry"
    if isinstance(exc, discord.HTTPException):
        if exc.status >= 500 or exc.status == 429:
            return 1, f"Discord is not answering (HTTP {exc.status}, an outage?); a restart will retry"
        if exc.status in (401, 403):
            return 2, GATEWAY_REFUSALS[4004]
        return 1, f"Discord answered HTTP {exc.status} at start; a restart will retry"
    if isinstance(exc, aiohttp.ClientConnectorError):
        return 1, (f"cannot reach Discord at {exc.host}:{exc.port} ({_os_reason(exc)}): the network or DNS; "
                   "a restart will retry")
    if isinstance(exc, aiohttp.ClientError | OSError | TimeoutError):
        return 1, f"cannot reach Discord ({type(exc).__name__}: {_os_reason(exc)}); a restart will retry"
    return 1, type(exc).__name__


def _os_reason(exc: BaseException) -> str:
    """The OS's words for a network failure ("Name or service not known"), never a URL or a header."""
    os_error = getattr(exc, "os_error", None) or (exc if isinstance(exc, OSError) else None)
    if os_error is not None and getattr(os_error, "strerror", None):
        return str(os_error.strerror)
    return type(exc).__name__


def run_bot(settings: Settings, make_bot: Callable[..., JxBot], *, sync: bool = True) -> int:
    """Open the store, then log in and run until stopped. A store that cannot be opened (a schema or
    scope this program refuses, an unreadable file) ends the start-up before the login: one line, exit 2.
    ``make_bot`` is :func:`jxbot.cluster.bot.make_bot` (JxBot, or the sharded one: the caller passes it,
    the cluster being built on this module, docs/architecture.md)."""
    log.info("starting with settings:\n%s", settings.describe())  # the token shows as (set)
    configure_endpoints(settings.discord_api_base)
    # The store's and the drawing threads release the GIL around every SQLite step and most Pillow calls,
    # then wait for the busy event loop to hand it back: by default up to 5 ms each time, which under load
    # queued every table's moves behind the store thread. 0.5 ms keeps those hand-backs short.
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        return asyncio.run(_serve(settings, sync, make_bot))
    except KeyboardInterrupt:
        return 0


async def _serve(settings: Settings, sync: bool, make_bot: Callable[..., JxBot]) -> int:
    import sqlite3

    import asyncpg

    from jxbot.store import StoreError

    try:
        store = await open_store(settings)
    except (StoreError, sqlite3.Error, OSError, asyncpg.PostgresError) as exc:  # PostgreSQL: gone since the check
        hint = ""
        if getattr(exc, "code", None) == "scope_mismatch":
            hint = " (set SILVER_SCOPE to the database's scope; switching needs a migration of balances)"
        print(f"jxbot: database {settings.db_shown}: {exc}{hint}", file=sys.stderr)
        return 2
    bot = make_bot(settings, store=store, sync=sync)  # JxBot, or the sharded one with --shards
    loop = asyncio.get_running_loop()

    def stop() -> None:  # SIGTERM (systemctl stop / restart): log out and close the store cleanly
        log.info("SIGTERM: stopping; every running table resumes from its stored events at the next start")
        loop.create_task(bot.close())

    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        async with bot:
            await bot.start(settings.discord_token or "")
    except (discord.LoginFailure, discord.PrivilegedIntentsRequired, discord.ConnectionClosed,
            discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
        code, why = start_failure(exc)
        log.error("%s (exit %d)", why, code)  # one line, no traceback (docs/bot.md, "Exit codes")
        return code
    finally:
        await _stop_tables()  # before the store closes: no runner writes to a closed store
        if store is not None:
            await store.close()
    return 0


async def _stop_tables() -> None:
    """Cancel the table runners (safe at any point: the stored log is always a prefix of the hand)."""
    tasks = [t for t in asyncio.all_tasks() if t.get_name().startswith("table:") and not t.done()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
