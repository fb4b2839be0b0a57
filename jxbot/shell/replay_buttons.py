"""The Replay, Fair deal and Review buttons of a finished hand, and the table message's commitment line."""

from __future__ import annotations

import discord

from jxbot.custom_ids import CustomId, MjButton
from jxbot.i18n import register, t
from jxbot.replay_store import hand_code

register({
    "bot.replay.button": {"zh": "回放", "en": "Replay"},
    "bot.replay.button_n": {"zh": "回放 {n}", "en": "Replay {n}"},
    "bot.replay.fair": {"zh": "公平发牌", "en": "Fair deal"},
    "bot.review.button": {"zh": "复盘", "en": "Review"},
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
