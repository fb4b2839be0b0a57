"""Names of the computer levels and the level options (zh-CN and en), in the shared catalog."""

from __future__ import annotations

from jxbot.i18n import register, t
from jxbot.seatnames import computer_key, computer_name, display_name, seat_name  # noqa: F401  (re-exported)

LEVEL_NAMES = ("easy", "normal", "hard", "expert")  # jxbot.ai.LEVELS, weakest first

STRINGS: dict[str, dict[str, str]] = {
    "ai.level.easy": {"zh": "简单", "en": "easy"},
    "ai.level.normal": {"zh": "普通", "en": "normal"},
    "ai.level.hard": {"zh": "困难", "en": "hard"},
    "ai.level.expert": {"zh": "专家", "en": "expert"},
    "bot.opt.level.name": {"zh": "级别", "en": "level"},
    "bot.opt.level.desc": {"zh": "电脑玩家的级别", "en": "How strong the computer players are"},
    "bot.opt.computer_level.name": {"zh": "电脑级别", "en": "computer_level"},
    "bot.opt.computer_level.desc": {"zh": "新牌桌电脑玩家的默认级别", "en": "Default level of computer players at new tables"},
    "bot.err.unknown_level": {"zh": "没有这个电脑级别：{name}（可选：简单、普通、困难、专家）。",
                              "en": "There is no computer level {name!r} (easy, normal, hard or expert)."},
}
register(STRINGS)


def level_label(level: str, lang: str | None) -> str:
    """``hard`` → 困难 / hard."""
    return t(f"ai.level.{level}", lang) if level in LEVEL_NAMES else level

