"""Tables in DMs: a table that runs with no shared channel (a cross-server ranked match; docs/ranked.md,
"Tables in DMs").

A DM table is an ordinary table (``Table.dm``) whose *channel* is each human player's DM: everything the
bot would post in the table's channel (the table message with its picture and status text, results,
notices) goes to every human player's DM instead, and their panel comes by DM as at any table. What the
channel shows is the public view (no concealed tile), so each player's copy is the same but for its language: a
cross-server table seats players of servers that speak different languages, and the table message, the result
and the end of the match come to each in their own (:func:`langs`, :func:`send_localized`); the rarer notices
(a void hand, a suspended table) use the table's language. Their own concealed tiles are only ever in their own
panel.

``Table.channel_id`` of a DM table is :func:`dm_key` of its id: a number below 2**48 + 1, which no Discord
channel has (every snowflake since 2015 is above 2**52), so the table manager's one-table-per-channel key
and the store's ``channel_id`` column keep working and never clash with a real channel. The table message
in each DM is saved in ``Table.dm_messages`` (user -> (DM channel, message)) with the table, so a restart
edits those messages again rather than posting new ones.

What a DM table does not have: spectators (no Watch button), the "Show my hand" fallback for closed DMs
(a player whose DMs are closed is not seated at one), a channel or thread to talk in.
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from jxbot.replay_store import hand_players

log = logging.getLogger("jxbot.shell.dmtable")

DM_KEY_LIMIT = (1 << 48) + 1  # every key is below this; every Discord snowflake since 2015 is far above it

def dm_key(table_id: str) -> int:
    """The key channel of DM table ``table_id``: no channel's id (see the module)."""
    try:
        n = int(table_id, 16)
    except ValueError:
        n = -1
    if not 0 <= n < (1 << 48):
        n = int(hashlib.sha256(table_id.encode()).hexdigest()[:12], 16)
    return n + 1


def is_dm_key(channel_id: int) -> bool:
    return 0 < channel_id < DM_KEY_LIMIT


async def dm_hand_of(store: Any, rec: Any, user_id: int) -> bool:
    """A hand record of a DM table (no server's) that ``user_id`` played: its players replay and review it from
    their DM (cogs/replay.py, cogs/review.py). A points-only table's players are named in its result
    (``replay_store.hand_players``): its seats hold no wallet."""
    if rec is None or not is_dm_key(int(rec.channel_id or 0)):
        return False
    if user_id in set(rec.seats):
        return True
    return store is not None and user_id in set(await hand_players(store, rec))


def humans(table: Any) -> list[int]:
    """The user ids whose DM carries the table: its human players now (a player who left is no longer told)."""
    return [int(o.user_id) for _, o in table.humans if o.user_id is not None]


def langs(table: Any) -> dict[str, list[int]]:
    """The human players whose DM carries the table, by the language they play in (their seat's)."""
    out: dict[str, list[int]] = {}
    for _, o in table.humans:
        if o.user_id is not None:
            out.setdefault(str(getattr(o, "lang", None) or table.lang), []).append(int(o.user_id))
    return out


# a message's fields in one language: ``content``, ``files``, ``view`` … as for ``send``
Fields = Callable[[str], Awaitable[dict[str, Any]]]


async def send_localized(table: Any, open_dm: DMOpener, fields: Fields) -> list[discord.Message]:
    """:func:`send_each` in each player's language: ``fields(lang)`` is made once per language spoken at the
    table (its files afresh for each copy)."""
    sent = []
    for lang, users in langs(table).items():
        kw = await fields(lang)
        content = kw.pop("content", None)
        sent += await send_each(table, open_dm, content, users=users, **kw)
    return sent


def _copy(files: list[discord.File] | None) -> list[discord.File]:
    """Fresh copies of ``files`` (a File's stream is read by a send: each DM gets its own)."""
    out = []
    for f in files or []:
        fp = f.fp
        data = fp.getvalue() if isinstance(fp, io.BytesIO) else b""
        out.append(discord.File(io.BytesIO(data), filename=f.filename))
    return out


DMOpener = Callable[[int], Awaitable[Any]]


async def send_each(table: Any, open_dm: DMOpener, content: str | None = None, *,
                    files: list[discord.File] | None = None, users: list[int] | None = None,
                    **kw: Any) -> list[discord.Message]:
    """Send the same public message to each human player's DM (``users``: only these); returns the messages
    sent (a closed or failing DM is skipped and logged)."""
    sent = []
    kw.pop("allowed_mentions", None)
    for uid in humans(table) if users is None else users:
        try:
            dm = await open_dm(uid)
            sent.append(await dm.send(content=content, files=_copy(files), allowed_mentions=discord.AllowedMentions.none(),
                                      **kw))
        except (discord.HTTPException, OSError) as exc:
            log.info("table %s: a message to a player's DM failed (%s)", table.id, getattr(exc, "status", type(exc).__name__))
    return sent


class TableChannel:
    """Where a table's public messages go: ``send`` posts in the table's channel, or for a DM table in each
    human player's DM (returning the first message sent, or None). ``open_dm(user_id)`` opens a DM."""

    def __init__(self, bot: Any, table: Any, open_dm: DMOpener | None = None) -> None:
        self.bot, self.table = bot, table
        self.open_dm = open_dm or (lambda uid: open_dm_of(bot, uid))
        self.sent: list[discord.Message] = []  # a DM table: every copy of the last message sent

    async def send(self, content: str | None = None, **kw: Any) -> Any:
        if not self.table.dm:
            msg = await self.bot.get_partial_messageable(self.table.channel_id).send(content, **kw)
            self.sent = [msg]
            return msg
        self.sent = await send_each(self.table, self.open_dm, content, **kw)
        return self.sent[0] if self.sent else None

    async def send_localized(self, fields: Fields) -> Any:
        """``send`` with the message made in each reader's language (``fields(lang)``: its keyword fields); a
        channel's message is in the table's language."""
        if not self.table.dm:
            return await self.send(**(await fields(self.table.lang)))
        self.sent = await send_localized(self.table, self.open_dm, fields)
        return self.sent[0] if self.sent else None


async def open_dm_of(bot: Any, user_id: int) -> Any:
    user = bot.get_user(user_id) or await bot.fetch_user(user_id)
    return await user.create_dm()


def channel_of(bot: Any, table: Any, open_dm: DMOpener | None = None) -> Any:
    """What to send a table's public messages to: its channel (a partial messageable), or a DM table's
    :class:`TableChannel` (each human player's DM)."""
    if getattr(table, "dm", False):
        return TableChannel(bot, table, open_dm)
    return bot.get_partial_messageable(table.channel_id)


Drawn = Callable[[str], Awaitable[tuple[str, Any, bytes | None]]]


async def edit_each(bot: Any, table: Any, open_dm: DMOpener, drawn: Drawn, filename: str = "table.png") -> bool:
    """The DM table message: each human player's copy (``Table.dm_messages``) edited, or posted where they have
    none yet (or it was deleted), in the player's language (``drawn(lang)``: its content, view and picture, made
    once per language). True when any message was posted (the table is then worth saving)."""
    posted = False
    for lang, users in langs(table).items():
        content, view, png = await drawn(lang)
        for uid in users:
            posted = await _edit_one(bot, table, open_dm, uid, content, view, png, filename) or posted
    return posted


async def _edit_one(bot: Any, table: Any, open_dm: DMOpener, uid: int, content: str, view: Any, png: bytes | None,
                    filename: str) -> bool:
    files = [discord.File(io.BytesIO(png), filename=filename)] if png else []
    where = table.dm_messages.get(uid)
    if where is not None:
        try:
            await bot.get_partial_messageable(where[0]).get_partial_message(where[1]).edit(content=content, view=view,
                                                                                           attachments=files)
            return False
        except discord.NotFound:
            table.dm_messages.pop(uid, None)
        except discord.HTTPException as exc:
            log.info("table %s: editing a DM table message failed (%s)", table.id, exc.status)
            return False
    try:
        dm = await open_dm(uid)
        files = [discord.File(io.BytesIO(png), filename=filename)] if png else []
        msg = await dm.send(content=content, view=view, files=files)
    except (discord.HTTPException, OSError) as exc:
        log.info("table %s: posting a DM table message failed (%s)", table.id,
                 getattr(exc, "status", type(exc).__name__))
        return False
    table.dm_messages[uid] = (int(msg.channel.id), int(msg.id))
    table.table_messages.add(msg.id)
    return True
