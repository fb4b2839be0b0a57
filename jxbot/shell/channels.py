"""Where a server's tables may be opened: its ``allowed_channels`` setting (``/admin settings channels:``).

Empty (the default) allows every channel. Otherwise ``/mahjong create`` in any other channel is refused with
a message naming the allowed channels (channel mentions, which never ping; the reply allows no mention).
A thread counts as its parent channel. Tables already open keep playing when the list changes.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from jxbot.i18n import register, t

register({
    "bot.err.channel_not_allowed": {
        "zh": "这个服务器只能在这些频道开牌桌：{channels}",
        "en": "On this server tables can only be opened in: {channels}",
    },
    "bot.opt.channels.name": {"zh": "开桌频道", "en": "channels"},
    "bot.opt.channels.desc": {
        "zh": "可以开牌桌的频道：写 #频道（可以多个），或 all 表示所有频道",
        "en": "Channels where tables may be opened: #channel (one or more), or all for every channel",
    },
    "bot.err.bad_channels": {
        "zh": "看不懂“{text}”：请写一个或多个 #频道，或 all 表示所有频道。",
        "en": "“{text}” is not a list of channels: give one or more #channels, or all for every channel.",
    },
    "bot.admin.every_channel": {"zh": "所有频道", "en": "every channel"},
})

ALL_WORDS = ("all", "*", "全部", "所有", "所有频道")
_CHANNEL = re.compile(r"<#(\d{1,20})>|(\d{1,20})")


def parse_channels(text: str) -> tuple[int, ...] | None:
    """The channel ids of ``"<#1> <#2>"`` / ``"1, 2"``; ``()`` for ``all``; None when it is neither."""
    text = text.strip()
    if text.lower() in ALL_WORDS:
        return ()
    ids: list[int] = []
    pos = 0
    for m in _CHANNEL.finditer(text):
        if text[pos:m.start()].strip(" ,，、;；\t\n"):
            return None
        ids.append(int(m[1] or m[2]))
        pos = m.end()
    if text[pos:].strip(" ,，、;；\t\n") or not ids or any(i <= 0 for i in ids):
        return None
    return tuple(sorted(set(ids)))


def channels_text(channel_ids: tuple[int, ...] | list[int], lang: str) -> str:
    return ", ".join(f"<#{c}>" for c in channel_ids) if channel_ids else t("bot.admin.every_channel", lang)


async def channel_refusal(store: Any, interaction: Any, lang: str) -> str | None:
    """Why a table may not be opened in the interaction's channel (the localized text), or None."""
    if store is None or not hasattr(store, "get_guild_settings") or not interaction.guild_id:
        return None
    gs = await store.get_guild_settings(interaction.guild_id)
    allowed = gs.get("allowed_channels") if isinstance(gs, dict) else getattr(gs, "allowed_channels", ())
    allowed = tuple(allowed or ())
    if not allowed:
        return None
    here = {interaction.channel_id, getattr(interaction.channel, "parent_id", None)}  # a thread: its channel
    if here & set(allowed):
        return None
    return t("bot.err.channel_not_allowed", lang, channels=channels_text(allowed, lang))


def is_private(channel: Any) -> bool:
    """Whether a table in ``channel`` is hidden from the server at large: the channel (a thread: its parent; a
    private thread always) is not visible to @everyone, so the web's pages, which show only what the whole server
    could see in Discord, leave it out (docs/web.md). A channel whose permissions cannot be read (not in the bot's
    cache, which holds every channel of its servers) counts as visible, as tables did before the check."""
    try:
        if isinstance(channel, discord.Thread):
            if channel.type == discord.ChannelType.private_thread:
                return True
            channel = channel.parent
        guild = getattr(channel, "guild", None)
        everyone = getattr(guild, "default_role", None)
        if channel is None or everyone is None or not hasattr(channel, "permissions_for"):
            return False
        return not channel.permissions_for(everyone).view_channel
    except Exception:
        return False
