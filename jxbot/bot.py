"""The Discord bot: client class, app-command tree with zh-CN localisation, structured button ids,
the per-message edit coalescer and the interaction helpers every cog uses.

Buttons carry structured custom_ids ``mj:<verb>:<table>:<seat>:<nonce>``; one
:class:`discord.ui.DynamicItem` (:class:`MjButton`) matches them all, so a button keeps working after a
restart without any view being re-registered. The verb picks a handler registered by a cog
(:meth:`JxBot.register_button`).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import re
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
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
from jxbot.i18n import has, norm_lang, register, t

log = logging.getLogger("jxbot.bot")

EXTENSIONS = ("cogs.tables", "cogs.play", "cogs.economy", "cogs.admin", "cogs.replay")


async def load_cog_module(bot: commands.Bot, name: str) -> None:
    """Import ``name`` (once, as any import does) and run its ``setup(bot)``.

    Not ``load_extension``: that executes the module's file again into a fresh module object, so a cog
    module another cog had already imported (cogs.tables imports cogs.play) would exist twice, with two
    sets of classes and module state (the drawing pools, the picture gate, the counters). The bot never
    reloads a cog, so it loses nothing by this."""
    module = importlib.import_module(name)
    await module.setup(bot)


# --------------------------------------------------------------------------------------------------
# custom ids

_CID_PATTERN = r"mj:(?P<verb>[a-z_]+(?:\.[0-9]{1,2})?):(?P<table>[0-9a-z]{1,16}):(?P<seat>[0-3x]):(?P<nonce>[0-9a-z]{1,16})"
CUSTOM_ID_RE = re.compile(_CID_PATTERN + r"\Z")


@dataclass(frozen=True, slots=True)
class CustomId:
    """``mj:<verb>:<table>:<seat>:<nonce>``; ``verb`` may carry an argument (``discard.5``)."""

    verb: str
    table: str
    seat: int | None  # None: not bound to a seat (lobby buttons)
    nonce: str
    arg: int | None = None

    def __str__(self) -> str:
        verb = self.verb if self.arg is None else f"{self.verb}.{self.arg}"
        seat = "x" if self.seat is None else str(self.seat)
        s = f"mj:{verb}:{self.table}:{seat}:{self.nonce}"
        assert len(s) <= 100
        return s


def make_custom_id(verb: str, table: str, seat: int | None, nonce: int | str, arg: int | None = None) -> str:
    nonce_s = nonce if isinstance(nonce, str) else to_base36(nonce)
    cid = str(CustomId(verb, table, seat, nonce_s, arg))
    if not CUSTOM_ID_RE.match(cid):
        raise ValueError(f"bad custom id parts: {cid!r}")
    return cid


def parse_custom_id(s: str) -> CustomId | None:
    m = CUSTOM_ID_RE.match(s)
    if not m:
        return None
    verb, _, arg = m["verb"].partition(".")
    seat = None if m["seat"] == "x" else int(m["seat"])
    return CustomId(verb, m["table"], seat, m["nonce"], int(arg) if arg else None)


def to_base36(n: int) -> str:
    if n < 0:
        raise ValueError("negative")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


ButtonHandler = Callable[[discord.Interaction, CustomId], Awaitable[None]]


class MjButton(discord.ui.DynamicItem[discord.ui.Button], template=_CID_PATTERN):
    """Every jxbot button. Built from the custom id on each press, so it survives restarts."""

    def __init__(self, cid: CustomId, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=str(cid), disabled=disabled,
                                           emoji=emoji), row=row)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MjButton:
        cid = parse_custom_id(match.group(0))
        if cid is None:  # the template matched but the full id did not (trailing junk)
            raise ValueError(f"bad custom id {match.group(0)!r}")
        return cls(cid)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        client = interaction.client
        if isinstance(client, JxBot):
            await client.dispatch_button(interaction, self.cid)


def _custom_ids(components: Any) -> set[str]:
    """Every custom_id in a message's components (rows, v2 containers and accessories included)."""
    out: set[str] = set()
    for c in components or ():
        cid = getattr(c, "custom_id", None)
        if cid:
            out.add(cid)
        out |= _custom_ids(getattr(c, "children", None) or getattr(c, "components", None))
        acc = getattr(c, "accessory", None)
        if acc is not None:
            out |= _custom_ids([acc])
    return out


# --------------------------------------------------------------------------------------------------
# interaction helpers


def lang_of(interaction: discord.Interaction) -> str:
    """The language to answer this user in (their Discord client locale)."""
    return norm_lang(str(interaction.locale) if interaction.locale else None)


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                **kw: Any) -> int | None:
    """Answer an interaction whether or not it has been acknowledged yet. Returns the id of the message
    sent (None when Discord did not say), so a message carrying components can be bound to them."""
    try:
        if take_response(interaction):
            sent = await interaction.response.send_message(content, ephemeral=ephemeral, **kw)
            return getattr(sent, "message_id", None)
    except discord.InteractionResponded:
        pass
    except discord.HTTPException as exc:
        if exc.code != ALREADY_ACKNOWLEDGED:  # the 2 s guard acknowledged it at the same moment
            raise
    await after_guard(interaction)
    msg = await interaction.followup.send(content or "", ephemeral=ephemeral, **kw)
    return getattr(msg, "id", None)


def take_response(interaction: discord.Interaction) -> bool:
    """True when the caller may send the interaction's first response now: nothing answered it and the
    acknowledgement guard is not deferring it (so the two never both answer: Discord's 40060)."""
    if interaction.response.is_done() or interaction.extras.get("responder") == "guard":
        return False
    interaction.extras["responder"] = "handler"
    return True


async def after_guard(interaction: discord.Interaction) -> None:
    """Wait until a deferral the guard began has reached Discord (followups and original edits need it)."""
    task = interaction.extras.get("ack_guard")
    if interaction.extras.get("responder") == "guard" and task is not None and not task.done():
        await asyncio.shield(task)


ALREADY_ACKNOWLEDGED = 40060  # Discord: "Interaction has already been acknowledged"


SWITCH_INTERVAL = 0.0005  # seconds: the interpreter's GIL switch interval in the running bot (run_bot)
ACK_AFTER = 2.0  # seconds: acknowledge anything still unanswered by then (Discord allows 3)
# a button press is normally answered with its result (the updated panel) within ~0.1 s; under load it is
# deferred sooner than a command, and its result then edits the pressed message (a free webhook edit)
BUTTON_ACK_AFTER = 0.6


def ack_later(interaction: discord.Interaction, *, after: float | None = None, update: bool = False) -> asyncio.Task[None]:
    """Make sure ``interaction`` is acknowledged within Discord's 3 s even if its handler is slow: after
    ``after`` seconds, defer it if nothing answered yet (a deferred update for buttons, else an ephemeral
    "thinking…"). Cancel the returned task when the handler is done."""

    wait = ACK_AFTER if after is None else after

    async def run() -> None:
        await asyncio.sleep(wait)
        if interaction.response.is_done() or interaction.extras.get("responder") is not None:
            return  # answered, or its handler is sending the answer right now
        interaction.extras["responder"] = "guard"
        log.warning("interaction %s still unanswered after %.1f s; deferring", interaction.id, wait)
        try:
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except (discord.InteractionResponded, discord.HTTPException):
            pass

    task = asyncio.create_task(run(), name=f"ack-guard:{interaction.id}")
    interaction.extras["ack_guard"] = task
    return task


def _cancel_guard(interaction: discord.Interaction) -> None:
    task = interaction.extras.pop("ack_guard", None)
    if task is not None:
        task.cancel()


# --------------------------------------------------------------------------------------------------
# the readiness gate (docs/bot.md, "Starting up: the readiness gate"; closed again by a stop: "Stopping")

register({
    "bot.err.starting": {
        "zh": "机器人正在启动，牌桌还在恢复中，请几秒钟后再试。",
        "en": "The bot is starting up and its tables are being resumed: try again in a few seconds.",
    },
    "bot.err.stopping": {
        "zh": "机器人正在重启，请几秒钟后再试。",
        "en": "The bot is restarting: try again in a few seconds.",
    },
})

# the graceful stop (docs/bot.md, "Stopping: the graceful stop"), each step bounded
STOP_PRESSES = 5.0  # seconds the presses and commands being handled get to finish and answer
STOP_TABLES = 5.0  # seconds the tables get to pause at their next safe point (then they are cancelled)
STOP_EDITS = 2.0  # seconds the pending edits (panels, table messages) get to go out


def connection_closed(exc: BaseException) -> bool:
    """``exc`` (or what caused it) says the HTTP call could not be made because the bot's HTTP session is
    closed or its connection went: aiohttp's ``RuntimeError('Session is closed')``, a connection error."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, RuntimeError) and "Session is closed" in str(e):
            return True
        if isinstance(e, (aiohttp.ClientConnectionError, ConnectionError)):
            return True
        e = getattr(e, "original", None) or e.__cause__ or e.__context__
    return False

# commands that stay open while the process starts: they read only what no resume changes (the rules, the
# score calculator, balances and settled hands; a replay refuses a hand still in play) — every other
# command, and every button, touches a table or silver and waits for the gate
OPEN_AT_START = frozenset(("bot.cmd.rules.name", "bot.cmd.score.name", "bot.cmd.balance.name",
                           "bot.cmd.leaderboard.name", "bot.cmd.stats.name", "bot.cmd.history.name",
                           "bot.cmd.replay.name", "bot.cmd.verify.name"))


# buttons likewise: the replay viewer's (a settled hand's pictures; a hand still in play is refused)
OPEN_VERBS_AT_START = frozenset(("replay", "rp", "rps", "rpgo", "fair"))


def open_at_start(command: Any) -> bool:
    """May this app command run before the process's tables are resumed?"""
    name = getattr(command, "name", None)
    return name is not None and any(t(key, "en") == name for key in OPEN_AT_START)


class JxTree(app_commands.CommandTree):
    """The command tree: every slash command gets an acknowledgement guard; while the process starts
    (its tables not resumed yet) a command that touches a table or silver is refused, politely."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        client = interaction.client
        if isinstance(client, JxBot):
            client.track_interaction()
            if client.stopping:  # a stop: every command, the read-only ones too (it would be cut short)
                await client.refuse_stopping(interaction)
                return False
        if isinstance(client, JxBot) and client.starting and not open_at_start(interaction.command):
            await client.refuse_starting(interaction)
            return False
        ack_later(interaction)
        return True


# --------------------------------------------------------------------------------------------------
# edit coalescer


class EditCoalescer:
    """At most one edit per message every ``interval`` seconds; the last submitted state wins.

    ``submit(key, fn)`` stores ``fn`` (a zero-argument coroutine function doing the edit) as the latest
    state for ``key`` (e.g. a message id) and makes sure a worker applies it. A 429 is retried after
    its ``retry_after`` with the newest state; a 404 (message gone) drops the key.

    ``submit(key, fn, urgent=True)`` skips the interval (not a 429's wait): a claim offer goes out at
    once, still in order with the key's other edits (one edit in flight per key).

    ``budget``: edits per second of the keys submitted with ``spare=True`` (the table messages in the
    channels), all together: they take turns for it (a token bucket of one second's worth; the newest
    state of a message replaces the one waiting). Discord allows a bot about 50 requests a second in
    all; the players' panels (paced by the players themselves) and the sends use the rest. When a busy
    bot would need more, the table pictures simply update less often.
    """

    def __init__(self, interval: float = 1.0, *, budget: float = 0.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.budget = budget  # edits per second, all keys (0: no limit)
        self._tokens = budget
        self._filled = clock()
        self._clock = clock
        self._pending: dict[Any, Callable[[], Awaitable[Any]]] = {}
        self._tasks: dict[Any, asyncio.Task[None]] = {}
        self._last: dict[Any, float] = {}
        self.edits: dict[Any, int] = {}  # applied edits per key (observability and tests)
        self.submitted: dict[Any, int] = {}
        self._retired: set[Any] = set()
        self._hold: dict[Any, float] = {}  # no edit before this time (a 429's retry_after)
        self._urgent: set[Any] = set()
        self._spare: set[Any] = set()  # keys whose edits wait for the budget
        self._hurry: dict[Any, asyncio.Event] = {}
        self.closing = False  # the bot is stopping: an edit its closed HTTP session cannot send is not an error
        self.closed = False  # the bot stopped: nothing new is sent

    async def drain(self, timeout: float) -> int:
        """A stop: let the pending edits go out (their waits between edits skipped), at most ``timeout``
        seconds; then nothing more is sent. Returns how many keys still had an edit pending."""
        self.closing = True
        for key in list(self._pending):
            self._urgent.add(key)
            ev = self._hurry.get(key)
            if ev is not None:
                ev.set()
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        left = sum(1 for k in self._pending if self._tasks.get(k) is not None and not self._tasks[k].done())
        self.closed = True
        for task in list(self._tasks.values()):
            task.cancel()
        return left

    def submit(self, key: Any, fn: Callable[[], Awaitable[Any]], *, urgent: bool = False,
               spare: bool = False) -> None:
        if self.closed:  # stopped: the restart sends every panel and table message again
            return
        self._pending[key] = fn
        if spare:
            self._spare.add(key)
        else:
            self._spare.discard(key)
        self.submitted[key] = self.submitted.get(key, 0) + 1
        if urgent:
            self._urgent.add(key)
            ev = self._hurry.get(key)
            if ev is not None:
                ev.set()
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.create_task(self._worker(key))

    def _spend(self) -> float:
        """Take one edit from the budget: 0.0 if taken, else the seconds until one is there."""
        now = self._clock()
        self._tokens = min(self.budget, self._tokens + (now - self._filled) * self.budget)
        self._filled = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return 0.0
        return (1.0 - self._tokens) / self.budget

    async def flush(self, key: Any = None) -> None:
        """Wait until the pending edits (of ``key``, or all) are applied."""
        keys = [key] if key is not None else list(self._tasks)
        for k in keys:
            task = self._tasks.get(k)
            if task is not None:
                await asyncio.shield(task)

    def retire(self, key: Any) -> None:
        """The message will not be edited again: drop its bookkeeping once its pending edit is applied."""
        self._retired.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._drop(key)

    def _drop(self, key: Any) -> None:
        self._retired.discard(key)
        self._tasks.pop(key, None)
        self._last.pop(key, None)
        self._hold.pop(key, None)
        self._urgent.discard(key)
        self._spare.discard(key)
        self._hurry.pop(key, None)
        self.edits.pop(key, None)
        self.submitted.pop(key, None)

    def forget(self, key: Any) -> None:
        self._pending.pop(key, None)
        task = self._tasks.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _worker(self, key: Any) -> None:
        while key in self._pending:
            hold = self._hold.get(key, -1e18)
            due = hold if key in self._urgent else max(hold, self._last.get(key, -1e18) + self.interval)
            wait = due - self._clock()
            if wait > 0:
                ev = self._hurry.setdefault(key, asyncio.Event())
                ev.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ev.wait(), wait)
                continue  # an urgent edit may have come meanwhile: look again
            urgent = key in self._urgent
            if self.budget > 0 and key in self._spare and not urgent:
                short = self._spend()
                if short > 0:  # over the request budget: wait a turn (a newer state may replace this one)
                    await asyncio.sleep(short)
                    continue
            fn = self._pending.pop(key, None)
            self._urgent.discard(key)
            if fn is None:
                break
            try:
                await fn()
            except discord.NotFound:
                log.info("message %s is gone; dropping its edits", key)
                self._pending.pop(key, None)
                break
            except discord.HTTPException as exc:
                if exc.status == 429:
                    retry = float(getattr(exc, "retry_after", None) or 1.0)
                    if self._pending.setdefault(key, fn) is fn and urgent:  # keep the newest state
                        self._urgent.add(key)
                    self._hold[key] = self._clock() + retry
                    continue
                log.warning("editing message %s failed: %s", key, exc)
            except Exception as exc:
                if self.closing and connection_closed(exc):  # a stop: the restart sends it again
                    log.info("editing message %s: not sent, the bot is stopping (%s)", key, type(exc).__name__)
                    self._pending.pop(key, None)
                    break
                log.exception("editing message %s failed", key)
            self._last[key] = self._clock()
            self.edits[key] = self.edits.get(key, 0) + 1
        if key in self._retired and key not in self._pending:
            self._drop(key)


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


class JxBot(commands.Bot):
    # several processes (jxbot.cluster, docs/bot.md "Running N processes"); unset: this process is the only one
    shard_plan: Any = None  # jxbot.cluster.ShardPlan: the shards (and so the guilds' tables) of this process
    press_forwarder: Callable[[discord.Interaction, CustomId], Awaitable[bool]] | None = None  # True: forwarded
    table_claimer: Callable[[Any], Awaitable[bool]] | None = None  # resume: False while another process runs it

    def __init__(self, settings: Settings, *, store: Any = None, sync: bool = True,
                 extensions: tuple[str, ...] = EXTENSIONS, **client_options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels, roles and permissions; nothing privileged
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
        from jxbot.press_timing import PressTimes

        self.press_times = PressTimes(settings.lag_log)  # where a press's time goes (JXBOT_LAG_LOG)
        self._buttons: dict[str, ButtonHandler] = {}
        # the readiness gate: what start-up still waits for ("tables": the resume, "leases": jxbot.cluster);
        # nothing touching a table or silver runs until it is empty (docs/bot.md)
        self._starting: set[str] = set()
        self._gate_armed = False  # set by login(): a bot driven without a gateway (unit tests) has no window
        self.refused_starting = 0  # interactions told "starting up" (observability and tests)
        # the graceful stop (docs/bot.md, "Stopping"): the gate closed again, the interactions being handled
        # (their tasks) waited for, then what the cogs registered (the tables pause and are saved)
        self._stopping = False
        self._stopped = False  # the graceful part of close() has run
        self._inflight: set[asyncio.Task[Any]] = set()
        self._stop_hooks: list[Callable[[], Awaitable[None]]] = []
        self.refused_stopping = 0  # interactions told "restarting" during a stop

    # -- the readiness gate
    @property
    def starting(self) -> bool:
        """True from the connection until every table of this process is resumed (seats, holds, leases)."""
        return self._gate_armed and bool(self._starting)

    async def login(self, token: str) -> None:
        self._gate_armed = True  # before the gateway connects: interactions may come before on_ready
        await super().login(token)

    def hold_start(self, what: str) -> None:
        """Keep the gate closed until :meth:`start_done` ``(what)`` (called before the gateway connects)."""
        self._starting.add(what)

    def start_done(self, what: str) -> None:
        if what in self._starting:
            self._starting.discard(what)
            if not self._starting:
                log.info("ready: every table resumed; commands and buttons open (%d refused while starting)",
                         self.refused_starting)

    async def refuse_starting(self, interaction: discord.Interaction) -> None:
        self.refused_starting += 1
        await self._answer_quietly(interaction, "bot.err.starting")

    # -- the graceful stop
    @property
    def stopping(self) -> bool:
        """True from the start of a stop (SIGTERM): nothing new is taken, what runs finishes."""
        return self._stopping

    def track_interaction(self) -> None:
        """The interaction being handled by the current task: a stop waits for it (bounded)."""
        task = asyncio.current_task()
        if task is not None and task not in self._inflight:
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)

    def add_stop_hook(self, hook: Callable[[], Awaitable[None]]) -> None:
        """``hook()`` runs in a stop once the interactions being handled are done, before the HTTP session
        closes (the tables cog pauses its runners and saves every table)."""
        self._stop_hooks.append(hook)

    async def refuse_stopping(self, interaction: discord.Interaction) -> None:
        self.refused_stopping += 1
        await self._answer_quietly(interaction, "bot.err.stopping")

    async def _answer_quietly(self, interaction: discord.Interaction, key: str) -> None:
        try:
            await reply(interaction, t(key, lang_of(interaction)))
        except discord.HTTPException:
            pass
        except Exception as exc:
            if not connection_closed(exc):
                raise
            log.info("interaction %s not answered: the bot is stopping (%s)", interaction.id, type(exc).__name__)

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
        self._stopping = True
        self.coalescer.closing = True
        mine = asyncio.current_task()
        if self.settings.test_stop_delay:  # tests only: the stop's closed gate held open
            await asyncio.sleep(self.settings.test_stop_delay)
        busy = [t for t in self._inflight if t is not mine and not t.done()]
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
                 self.refused_stopping)

    # -- buttons
    def register_button(self, verb: str, handler: ButtonHandler) -> None:
        self._buttons[verb] = handler

    async def dispatch_button(self, interaction: discord.Interaction, cid: CustomId) -> None:
        handler = self._buttons.get(cid.verb)
        lang = lang_of(interaction)
        if handler is None:
            await reply(interaction, t("bot.err.stale", lang))
            return
        self.track_interaction()
        if self.press_forwarder is not None and await self.press_forwarder(interaction, cid):
            return  # a DM press for a table another process runs: forwarded to it (jxbot.cluster)
        if self.stopping:  # a stop: the gate is closed again, nothing new is taken (docs/bot.md, "Stopping")
            await self.refuse_stopping(interaction)
            return
        if self.starting and cid.verb not in OPEN_VERBS_AT_START:  # the gate: no press on a table not resumed yet
            await self.refuse_starting(interaction)
            return
        ack_later(interaction, update=True)
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
            _cancel_guard(interaction)

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        _cancel_guard(interaction)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """discord.py ignores a component click whose custom_id is no longer on the message (the panel moved
        on between the click and its arrival, e.g. a claim pressed after the window): the player would see
        "This interaction failed". Such an ``mj:`` click goes to its handler, which answers it as stale."""
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        cid = parse_custom_id(custom_id)
        if cid is None or custom_id in _custom_ids(interaction.message.components):
            return  # not ours, or discord.py dispatches it to MjButton
        await self.dispatch_button(interaction, cid)

    async def _report_failure(self, interaction: discord.Interaction) -> None:
        await self._answer_quietly(interaction, "bot.err.internal")

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
            for task in list(self.coalescer._tasks.values()):
                task.cancel()
            if self._own_store and self.store is not None and hasattr(self.store, "close"):
                await self.store.close()
        finally:
            await super().close()

    async def _on_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        _cancel_guard(interaction)
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
    except discord.LoginFailure:
        log.error("Discord rejected the token (DISCORD_TOKEN). Reset it in the Developer Portal.")
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("the bot asked for an intent not enabled in the Developer Portal")
        return 1
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
