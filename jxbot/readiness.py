"""The readiness gate (docs/bot.md, "Starting up: the readiness gate"): from the connection until every table of
this process is resumed, a command or button that touches a table or silver is refused, politely; the few
that read only what no resume changes stay open. :class:`JxTree` checks it for every slash command and arms
the acknowledgement guard.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from jxbot.i18n import register, t
from jxbot.interactions import ack_later, answer_quietly

log = logging.getLogger("jxbot.bot")

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

# commands that stay open while the process starts: they read only what no resume changes (the rules, the
# score calculator, balances and settled hands; a replay refuses a hand still in play) — every other
# command, and every button, touches a table or silver and waits for the gate
OPEN_AT_START = frozenset(("bot.cmd.help.name", "bot.cmd.rules.name", "bot.cmd.score.name", "bot.cmd.balance.name",
                           "bot.cmd.leaderboard.name", "bot.cmd.stats.name", "bot.cmd.history.name",
                           "bot.cmd.replay.name", "bot.cmd.verify.name", "bot.cmd.howto.name"))


# buttons likewise: the replay viewer's (a settled hand's pictures; a hand still in play is refused)
OPEN_VERBS_AT_START = frozenset(("replay", "rp", "rps", "rpgo", "fair", "howto"))


def open_at_start(command: Any) -> bool:
    """May this app command run before the process's tables are resumed?"""
    name = getattr(command, "name", None)
    return name is not None and any(t(key, "en") == name for key in OPEN_AT_START)


class JxTree(app_commands.CommandTree):
    """The command tree: every slash command gets an acknowledgement guard; while the process starts
    (its tables not resumed yet) a command that touches a table or silver is refused, politely."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        gate = getattr(interaction.client, "gate", None)  # JxBot's (jxbot.bot)
        if isinstance(gate, ReadinessGate):
            gate.track()
            if gate.stopping:  # a stop: every command, the read-only ones too (it would be cut short)
                await gate.refuse_stopping(interaction)
                return False
        ack_later(interaction)  # (a command waiting for the gate is deferred by the guard: "thinking…")
        if isinstance(gate, ReadinessGate) and gate.closed and not open_at_start(interaction.command) \
                and not await gate.wait_open():
            await gate.refuse(interaction)
            return False
        return True


class ReadinessGate:
    """What start-up still waits for ("tables": the resume, "leases": jxbot.cluster); nothing touching a table
    or silver runs until it is empty. Closed only once armed (by the login): a bot driven without a gateway
    (unit tests) has no window."""

    def __init__(self, wait: float = 0.0) -> None:
        self._waiting: set[str] = set()
        self._armed = False
        self._open = asyncio.Event()
        self._open.set()
        self.wait = wait  # seconds a command or press waits for the gate to open before it is refused
        self.refused = 0  # interactions told "starting up" (observability and tests)
        # the graceful stop (docs/bot.md, "Stopping"): the gate closed again, the interactions being handled
        # (their tasks) waited for by JxBot.stop_gracefully
        self.stopping = False
        self.inflight: set[asyncio.Task[Any]] = set()
        self.refused_stopping = 0  # interactions told "restarting" during a stop
        self.waited = 0  # interactions that waited for the gate and then ran

    @property
    def closed(self) -> bool:
        return self._armed and bool(self._waiting)

    def arm(self) -> None:
        self._armed = True

    def hold(self, what: str) -> None:
        self._waiting.add(what)
        self._open.clear()

    def done(self, what: str) -> None:
        if what in self._waiting:
            self._waiting.discard(what)
            if not self._waiting:
                self._open.set()
                log.info("ready: every table resumed; commands and buttons open (%d refused, %d waited while "
                         "starting)", self.refused, self.waited)

    async def wait_open(self) -> bool:
        """Wait up to :attr:`wait` seconds for the gate to open; True if it did (the interaction then runs, after
        the resume: nothing it checks is a partial state)."""
        if not self.closed:
            return True
        if self.wait <= 0:
            return False
        try:
            await asyncio.wait_for(self._open.wait(), self.wait)
        except TimeoutError:
            return False
        if self.closed:
            return False
        self.waited += 1
        return True

    async def refuse(self, interaction: discord.Interaction) -> None:
        self.refused += 1
        await answer_quietly(interaction, "bot.err.starting")

    def track(self) -> None:
        """The interaction being handled by the current task: a stop waits for it (bounded)."""
        task = asyncio.current_task()
        if task is not None and task not in self.inflight:
            self.inflight.add(task)
            task.add_done_callback(self.inflight.discard)

    async def refuse_stopping(self, interaction: discord.Interaction) -> None:
        self.refused_stopping += 1
        await answer_quietly(interaction, "bot.err.stopping")
