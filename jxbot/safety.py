"""Text that users supply, made safe for Discord messages, and the strings of table integrity.

- :func:`player_name`: a user's display name as the bot keeps it (the store, the table, the pictures):
  as they chose it, trimmed to 32 characters; a name with nothing visible in it (only spaces such as
  U+3000, zero-width or other format characters) falls back to an id-based name (``user-1234``).
- :func:`md`: a name for a message: markdown escaped and mentions defused (``<@id>``, ``@everyone``),
  so a nickname can neither ping anyone nor render as formatting. Pictures draw the name as it is.
- Neither a kept name nor a message's name holds a bidi control (:func:`no_bidi`: embeddings, overrides and
  isolates, U+202A–U+202E and U+2066–U+2069): a right-to-left override in a nickname turned the rest of its
  line around (a standings line ``1. ‮0001+ ann`` read as another score). Right-to-left letters need none.
- :func:`cap`: user input echoed back, cut to a length that fits in a Discord message.

Messages are also sent with ``AllowedMentions.none()`` by default (:class:`jxbot.bot.JxBot`): the only
pings are the ones a message names explicitly (the player told their DMs are closed, the recipient of
a payment, the player stood up).
"""

from __future__ import annotations

import functools
import unicodedata

import discord

from jxbot.i18n import register

NAME_MAX = 32
ECHO_MAX = 100
MESSAGE_MAX = 2000  # Discord's limit for a message's content


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NO_BIDI = {ord(c): None for c in BIDI_CONTROLS}


def no_bidi(text: str) -> str:
    """``text`` without bidi embeddings, overrides or isolates (they reorder what follows them on the line)."""
    return text.translate(_NO_BIDI)


def _visible(ch: str) -> bool:
    if ch.isspace():
        return False
    cat = unicodedata.category(ch)
    return cat not in ("Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me", "Co", "Cn", "Cs")


def player_name(name: str | None, user_id: int) -> str:
    """The name the bot keeps for a user: trimmed, at most 32 characters, ``user-<last 4 digits>`` when
    nothing in it is visible (blank, U+3000 spaces, zero-width characters)."""
    text = " ".join((name or "").split())  # every Unicode space (U+3000 included) is a separator here
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cs") and ch not in BIDI_CONTROLS)
    if not any(_visible(ch) for ch in text):
        return f"user-{str(user_id)[-4:]}"
    return text[:NAME_MAX]


def display_name(user: discord.abc.User) -> str:
    """:func:`player_name` of a Discord user (their server nickname, else global name, else username)."""
    return player_name(getattr(user, "display_name", None) or user.name, user.id)


def md(text: object) -> str:
    """``text`` for a Discord message: no markdown, no mention (names shown as written, never pinging)."""
    return _md(str(text))


@functools.lru_cache(maxsize=4096)  # the same few names, escaped in every status and panel text
def _md(text: str) -> str:
    s = discord.utils.escape_mentions(no_bidi(text))
    s = s.replace("<@", "<\u200b@").replace("<#", "<\u200b#")
    return discord.utils.escape_markdown(s)


def cap(text: str, limit: int = ECHO_MAX) -> str:
    """User input echoed back: at most ``limit`` characters (an ellipsis says it was cut), escaped."""
    text = str(text)
    cut = text if len(text) <= limit else text[: limit - 1] + "…"
    return md(cut)


def fit(content: str, limit: int = MESSAGE_MAX) -> str:
    """A message's content within Discord's 2000 characters."""
    return content if len(content) <= limit else content[: limit - 1] + "…"


def no_pings() -> discord.AllowedMentions:
    return discord.AllowedMentions.none()


def ping(*user_ids: int) -> discord.AllowedMentions:
    """Only these users may be pinged by the message (their ``<@id>`` is in the bot's own text)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids])


STRINGS = {
    "bot.err.closed": {"zh": "这张牌桌已经关闭了。", "en": "This table is closed."},
    "bot.err.post_failed": {
        "zh": "没能在频道里发出牌桌消息（Discord 出错了），牌桌没有开成。请稍后再试。",
        "en": "Could not post the table message in this channel (a Discord error), so no table was opened. "
              "Please try again.",
    },
    "bot.err.owner_only_global": {
        "zh": "银子在所有服务器通用：只有机器人的所有者可以改动银子和银子设置（起始银子、每日签到）。",
        "en": "Silver is shared across servers: only the bot's owner can move silver or change the silver "
              "settings (starting grant, daily amount).",
    },
    "bot.err.tiles_too_long": {
        "zh": "这手牌太长了（最多 {max} 个字符）。",
        "en": "That hand is too long (at most {max} characters).",
    },
    "bot.err.tile_notation": {
        "zh": "看不懂“{text}”：牌写成数字加花色，m 万、p 筒、s 条、z 字（1z–7z 是东南西北白发中），例如 123m456p789s11122z。",
        "en": "Can't read “{text}”: write tiles as digits and a suit, m characters, p dots, s bamboo, z honors "
              "(1z–7z: East South West North White Green Red), e.g. 123m456p789s11122z.",
    },
    "bot.err.tile_count": {
        "zh": "这手牌有 {n} 张，要写 14 张（最后一张是胡的那张）。",
        "en": "That hand has {n} tiles: write 14 (the last one is the winning tile).",
    },
    "bot.err.tile_copies": {
        "zh": "这手牌里 {tile} 有 {n} 张，每种牌只有 4 张。",
        "en": "That hand has {n} of {tile}: there are only 4 of each tile.",
    },
    "bot.err.hold_failed": {
        "zh": "银子不够：这张桌入座期间要保留 {need}，你可用的有 {have}。",
        "en": "Not enough silver: this table holds {need} while you sit, you have {have} free.",
    },
    "bot.dm.failed": {
        "zh": "<@{user}> 我暂时没能私信你。请用牌桌消息里的“看我的牌”按钮查看手牌。",
        "en": "<@{user}> I could not DM you just now. Use the Show my hand button on the table message.",
    },
    "bot.status.stood_up": {
        "zh": "<@{user}> 的银子（{have}）不够这张桌的最低要求 {need}：这一局起由电脑代打，你已离座。",
        "en": "<@{user}> has {have} silver, below this table's minimum of {need}: a computer takes the seat "
              "from this hand on and you are no longer seated.",
    },
}

register(STRINGS)
