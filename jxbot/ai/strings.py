"""Names of the computer levels and the level options (zh-CN and en), in the shared catalog."""

from __future__ import annotations

from jxbot.i18n import register, t

LEVEL_NAMES = ("easy", "normal", "hard")  # jxbot.ai.LEVELS, weakest first

STRINGS: dict[str, dict[str, str]] = {
    "ai.level.easy": {"zh": "简单", "en": "easy"},
    "ai.level.normal": {"zh": "普通", "en": "normal"},
    "ai.level.hard": {"zh": "困难", "en": "hard"},
    # a computer seat's name: level first, its number last (电脑 1 → 困难电脑 1)
    "ai.computer.easy": {"zh": "简单电脑 {n}", "en": "Easy computer {n}"},
    "ai.computer.normal": {"zh": "普通电脑 {n}", "en": "Normal computer {n}"},
    "ai.computer.hard": {"zh": "困难电脑 {n}", "en": "Hard computer {n}"},
    "bot.opt.level.name": {"zh": "级别", "en": "level"},
    "bot.opt.level.desc": {"zh": "电脑玩家的级别", "en": "How strong the computer players are"},
    "bot.opt.computer_level.name": {"zh": "电脑级别", "en": "computer_level"},
    "bot.opt.computer_level.desc": {"zh": "新牌桌电脑玩家的默认级别", "en": "Default level of computer players at new tables"},
    "bot.err.unknown_level": {"zh": "没有这个电脑级别：{name}（可选：简单、普通、困难）。",
                              "en": "There is no computer level {name!r} (easy, normal or hard)."},
}
register(STRINGS)


def level_label(level: str, lang: str | None) -> str:
    """``hard`` → 困难 / hard."""
    return t(f"ai.level.{level}", lang) if level in LEVEL_NAMES else level


def computer_name(n: int | str, level: str, lang: str | None) -> str:
    """How a computer seat is named at the table and in the pictures: 困难电脑 1 / Hard computer 1."""
    if level not in LEVEL_NAMES:
        return t("bot.lobby.computer", lang, n=n)
    return t(f"ai.computer.{level}", lang, n=n)
