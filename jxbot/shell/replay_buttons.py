"""The Replay, Fair deal and Review buttons of a finished hand, and the table message's commitment line."""

from __future__ import annotations

import logging
from typing import Any

import discord

from jxbot.custom_ids import CustomId, MjButton
from jxbot.i18n import register, t
from jxbot.replay_store import hand_code
from jxbot.web import links as web_links

log = logging.getLogger("jxbot.shell.replay_buttons")

register({
    "bot.replay.button": {"zh": "回放", "en": "Replay"},
    "bot.replay.button_n": {"zh": "回放 {n}", "en": "Replay {n}"},
    "bot.replay.fair": {"zh": "公平发牌", "en": "Fair deal"},
    "bot.review.button": {"zh": "复盘", "en": "Review"},
    "bot.web.btn.hand": {"zh": "网页回放", "en": "Replay on the web"},
    "bot.web.btn.table": {"zh": "网页观战", "en": "Watch on the web"},
    "bot.fair.line": {"zh": "-# 🔒 公平发牌 · 牌墙承诺 SHA-256 `{c}`", "en": "-# 🔒 Fair deal · wall commitment SHA-256 `{c}`"},
})

def fair_line(view: dict, lang: str) -> str | None:
    """The table message's commitment line (public: a hash of the secret wall, nothing more)."""
    c = view.get("commitment")
    return t("bot.fair.line", lang, c=c) if isinstance(c, str) and len(c) == 64 else None


def hand_buttons(hand_id: str, lang: str, *, fair: bool = True, n: int | None = None) -> list[MjButton]:
    """Replay (and Fair deal) buttons for a hand, for the result message and /history."""
    code = hand_code(hand_id)
    if code is None:
        return []
    label = t("bot.replay.button", lang) if n is None else t("bot.replay.button_n", lang, n=n)
    out = [MjButton(CustomId("replay", code, None, "0"), label=label, emoji="🎞️",
                    style=discord.ButtonStyle.secondary)]
    if fair:
        out.append(MjButton(CustomId("fair", code, None, "0"), label=t("bot.replay.fair", lang), emoji="🔒",
                            style=discord.ButtonStyle.secondary))
    return out


def review_button(hand_id: str, lang: str) -> MjButton | None:
    """The Review (复盘) button of a hand's result: each player who presses it gets their own review, privately
    (cogs/review.py, docs/coach.md)."""
    code = hand_code(hand_id)
    if code is None:
        return None
    return MjButton(CustomId("review", code, None, "0"), label=t("bot.review.button", lang), emoji="🧑‍🏫",
                    style=discord.ButtonStyle.secondary)


async def web_base(bot: Any, guild_id: int) -> str | None:
    """``JXBOT_WEB_URL`` when the web companion shows this server's pages (``/admin web on``, or
    ``JXBOT_WEB_ALL_SERVERS``), else None (docs/web.md). Without ``JXBOT_WEB_URL`` nothing is read."""
    settings = getattr(bot, "settings", None)
    if not getattr(settings, "web_url", None) or getattr(settings, "web_all_servers", False):
        return web_links.base_for(settings, None)
    try:
        gs = await bot.store.get_guild_settings(guild_id)
    except Exception:
        log.exception("reading the settings of guild %s failed", guild_id)
        return None
    return web_links.base_for(settings, gs)


def web_button(url: str, lang: str, kind: str) -> discord.ui.Button:
    """A link button to the web companion (``kind``: "hand", a hand's public replay; "table", a table's live
    page). A link button has no custom id: Discord opens the address, the bot is not asked."""
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=t(f"bot.web.btn.{kind}", lang), emoji="🌐")


async def hand_web_button(bot: Any, guild_id: int, hand_id: str, lang: str) -> discord.ui.Button | None:
    """The result message's link to the hand's public replay on the web, when the web companion is on."""
    if not web_links.HAND_RE.match(hand_id or ""):
        return None
    url = web_links.full(await web_base(bot, guild_id), web_links.hand_path(hand_id))
    return web_button(url, lang, "hand") if url else None
