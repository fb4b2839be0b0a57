"""The bot of one process among several: discord.py's ``AutoShardedBot`` with the shard ids of
``--shards`` (``JXBOT_SHARD_IDS``) out of ``--shard-count`` (``JXBOT_SHARD_COUNT``).

Without shard settings :func:`make_bot` returns the plain :class:`~jxbot.bot.JxBot`, exactly as
before. With them, the process connects its shards only, runs the tables of the guilds on them
(``JxBot.owns_guild``) and, with the PostgreSQL store, loads ``cogs.cluster``: table leases and the
forwarding of DM presses to the process that runs the table (docs/bot.md, "Running N processes").
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from discord.ext import commands

from jxbot.bot import EXTENSIONS, JxBot
from jxbot.cluster.settings import is_postgres
from jxbot.cluster.shards import ShardPlan
from jxbot.config import Settings
from jxbot.i18n import t

RAW_KEPT = 512  # payloads kept (DM presses, /mahjong leave: :func:`kept`) until their handler runs (normally at once)


def forwarded_commands() -> frozenset[tuple[str, str]]:
    """The slash commands another process may have to run (``/mahjong leave``: cogs/cluster.py), by the names
    Discord sends (the default, English ones, whatever the user's language)."""
    return frozenset({(t("bot.cmd.mahjong.name", "en"), t("bot.cmd.leave.name", "en"))})


def kept(data: Any) -> bool:
    """Whether an INTERACTION_CREATE payload is kept for forwarding: a DM press, or a command another process may
    run. No other command's payload (its token, what was typed) is held, nor crowds a kept one out of the
    :data:`RAW_KEPT` while it waits (a command waits at the readiness gate before it is forwarded)."""
    if not isinstance(data, dict):
        return False
    if data.get("type") == 3:
        return not data.get("guild_id")
    if data.get("type") != 2:
        return False
    d = data.get("data")
    options = d.get("options") if isinstance(d, dict) else None
    sub = options[0] if isinstance(options, list) and options else None
    if not isinstance(d, dict) or not isinstance(sub, dict):  # (a malformed payload must not break the parsing)
        return False
    return (str(d.get("name")), str(sub.get("name"))) in forwarded_commands()


class ShardedJxBot(JxBot, commands.AutoShardedBot):  # type: ignore[misc]
    """:class:`JxBot` over ``AutoShardedBot`` (several gateway sessions in one process)."""

    def __init__(self, settings: Settings, plan: ShardPlan, **kw: Any) -> None:
        super().__init__(settings, shard_ids=list(plan.ids), shard_count=plan.count, **kw)
        self.shard_plan = plan
        # the DM presses' and the commands' gateway payloads, as Discord sent them, by interaction id: a press
        # (or ``/mahjong leave``) for a table another process runs is forwarded whole (its token included: only
        # that process answers it)
        self.raw_presses: OrderedDict[int, dict[str, Any]] = OrderedDict()
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def keep_dm_press(data: Any) -> None:
            if kept(data):
                self.raw_presses[int(data["id"])] = data
                while len(self.raw_presses) > RAW_KEPT:
                    self.raw_presses.popitem(last=False)
            parse(data)

        parsers["INTERACTION_CREATE"] = keep_dm_press


def make_bot(settings: Settings, *, store: Any = None, sync: bool = True) -> JxBot:
    plan = ShardPlan.of(settings.shard_ids, settings.shard_count)
    if plan is None:
        return JxBot(settings, store=store, sync=sync)
    extensions = EXTENSIONS + (("cogs.cluster",) if is_postgres(settings.db_path) else ())
    return ShardedJxBot(settings, plan, store=store, sync=sync, extensions=extensions)
