"""A ranked match's table: opened by the bot for four people the queue matched (no lobby, no owner's Start),
in the server's ranked channel — a thread of its own there where the bot may make threads — with the
ladder's settings, not the players' (docs/ranked.md, "In Discord").

:func:`open_table` is the one step from "these people were matched" to a running table: every player is
checked free and seated (their seat reservation taken) with no await between, then registered and their
silver held, then the table is started and saved before its first hand. A player who cannot sit (seated
elsewhere meanwhile, short of silver) makes the whole table fail and is named, and everyone else's seat
and hold are released in the same step: the cog puts them back in the queue.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from jxbot.ai.strings import computer_name
from jxbot.i18n import register, t
from jxbot.rules.tiles import wind_name
from jxbot.safety import ping
from jxbot.shell.channels import is_private
from jxbot.shell.dmtable import channel_of, dm_key
from jxbot.shell.lobby import LobbyError, Table, TableConfig

log = logging.getLogger("jxbot.shell.ranked")

register({
    "bot.ranked.thread": {"zh": "排位赛 {table}", "en": "Ranked {table}"},
    "bot.ranked.intro": {
        "zh": "**排位赛开始了** · 牌桌 {table} · {ruleset} · {rounds} 圈 · 底分 {stake} · 出牌 {turn} 秒 · 吃碰 {claim} 秒\n"
              "{seats}\n结果计入{ladder}的排位分：按整场的银子排名次（同分同名次），逃跑算最后一名；"
              "连续两次超时由电脑代打，结果仍算你的。手牌在私信里。",
        "en": "**A ranked match starts** · table {table} · {ruleset} · {rounds} round(s) · stake {stake} · "
              "{turn} s a turn · {claim} s to claim\n{seats}\nIt counts on the ranked ladder of {ladder}: places by the "
              "match's silver (a tie shares the place), an escape is last place; after two turn timeouts a "
              "computer plays your seat and the result is still yours. Your hand is in your DMs.",
    },
})


@dataclass
class Entrant:
    """A matched person: who, their name and language, and what the seat line shows beside them."""

    user_id: int
    name: str
    lang: str = "zh"
    badge: str = ""  # e.g. "雀杰 1534" (their tier and rating, in the table's language)
    tier: str = ""  # e.g. "雀杰": beside their name at the table (the table and result pictures show it)

    @property
    def seat_name(self) -> str:
        return f"{self.name} · {self.tier}" if self.tier else self.name


@dataclass
class Opened:
    table: Table | None
    refused: list[int] = field(default_factory=list)  # who could not sit (the others go back to the queue)
    reason: str = ""


async def where_to_play(bot: Any, channel_id: int, title: str, user_ids: list[int]) -> int:
    """The channel the table plays in: a new public thread of the ranked channel when the bot may make one
    there (its players added to it), else the ranked channel itself."""
    ch = bot.get_channel(channel_id)
    if ch is None:
        try:
            ch = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            return channel_id
    me = getattr(getattr(ch, "guild", None), "me", None)
    perms = ch.permissions_for(me) if me is not None and hasattr(ch, "permissions_for") else None
    if not isinstance(ch, discord.TextChannel) or perms is None or not (
            perms.create_public_threads and perms.send_messages_in_threads):
        return channel_id
    try:
        thread = await ch.create_thread(name=title[:90], type=discord.ChannelType.public_thread,
                                        auto_archive_duration=1440)
    except discord.HTTPException as exc:
        log.warning("could not open a thread for a ranked table in channel %s: %s", channel_id, exc.status)
        return channel_id
    for uid in user_ids:
        with contextlib.suppress(discord.HTTPException):  # a public thread: they can open it anyway
            await thread.add_user(discord.Object(uid))
    return thread.id


def seat_lines(table: Table, entrants: dict[int, Entrant], lang: str) -> str:
    out = []
    for i, occ in enumerate(table.seats):
        if occ is None:
            continue
        if occ.is_computer:
            who = "🤖 " + computer_name(occ.name.lstrip("#"), occ.level, lang)
        else:
            e = entrants.get(occ.user_id or 0)
            who = f"<@{occ.user_id}>" + (f" · {e.badge}" if e is not None and e.badge else "")
        out.append(f"{wind_name(i, lang)} · {who}")
    return "\n".join(out)


async def open_table(host: Any, guild_id: int, channel_id: int, entrants: list[Entrant], config: TableConfig,
                     computers: list[str] | None = None, lang: str = "zh", ladder_kind: str = "guild",
                     dm: bool = False) -> Opened:
    """Open and start a ranked table for ``entrants`` (1–4 people; ``computers``: the levels of the seats
    left, where the server allows computers) in ``channel_id`` (already the thread, see
    :func:`where_to_play`). ``host`` is the tables cog (its manager, store adapters, save). ``dm``: the table
    runs in the players' DMs (a cross-server match; jxbot/shell/dmtable.py), ``channel_id`` unused."""
    manager = host.manager
    busy = []
    for e in entrants:
        try:
            manager.check_free(e.user_id)
        except LobbyError:
            busy.append(e.user_id)
    if busy:
        return Opened(None, busy, "busy")
    first = entrants[0]
    bot = getattr(host, "bot", None)
    config = replace(config, private=dm or is_private(bot.get_channel(channel_id) if bot is not None else None))
    # the seats, one step with no await: every check above still holds
    try:
        table = manager.create(guild_id, 0 if dm else channel_id, first.user_id, first.seat_name, config, lang=lang,
                               owner_lang=first.lang)
    except LobbyError:  # no thread could be made and a table plays in the ranked channel itself
        return Opened(None, [], "channel_busy")
    if dm:  # (the same step: no await since the table was created)
        table.dm, table.channel_id = True, dm_key(table.id)
    for e in entrants[1:]:
        manager.join(table, e.user_id, e.seat_name, e.lang)
    for level in computers or []:
        table.add_computer(first.user_id, level)
    async with manager.lock(table.id):
        for e in entrants:
            await host.ensure_player(guild_id, _Named(e), e.lang)
            short = await host.hold_for(table, e.user_id, e.lang)
            if short:
                manager.end(table)  # every seat and hold released in one step
                return Opened(None, [e.user_id], "poor")
        manager.start(table, first.user_id)
        channel_id = table.channel_id
        await host.save(table)  # the store knows the ranked table before its first hand
        from jxbot.shell.session import Session

        session = Session(host.bot, host, table)
        session.seed = await host.table_seed()
        by_id = {e.user_id: e for e in entrants}
        text = t("bot.ranked.intro", lang, table=table.id, ruleset=t(f"bot.choice.ruleset.{config.ruleset}", lang),
                 rounds=config.rounds, stake=config.stake, turn=f"{config.turn_seconds:g}",
                 claim=f"{config.claim_window:g}", seats=seat_lines(table, by_id, lang),
                 ladder=t(f"bot.ranked.ladder.{ladder_kind}", lang))
        try:
            await channel_of(host.bot, table).send(text, allowed_mentions=ping(*by_id))
        except discord.HTTPException:
            log.warning("could not post the intro of ranked table %s", table.id)
        session.start()
        for e in entrants:
            host.open_dm_later(table, e.user_id)
    log.info("ranked table %s opened in channel %s for %d people", table.id, channel_id, len(entrants))
    return Opened(table)


@dataclass
class _Named:
    """What ``ensure_player`` reads of a user: its id and names."""

    e: Entrant

    @property
    def id(self) -> int:
        return self.e.user_id

    @property
    def display_name(self) -> str:
        return self.e.name

    @property
    def global_name(self) -> str:
        return self.e.name

    @property
    def name(self) -> str:
        return self.e.name
