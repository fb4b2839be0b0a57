"""``/help`` (帮助): every slash command, grouped, one line each, in the asker's language, privately.

The list is generated from the bot's command tree (``help_lines``), so a command added anywhere appears
without touching this file; its line is the command's own localized name and description (the
``bot.cmd.<key>.*`` strings, ``jxbot.botstrings``). The groups are the cogs' modules (``GROUPS``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from jxbot.bot import JxBot, ls
from jxbot.i18n import register, t
from jxbot.interactions import lang_of, reply

register({
    "bot.cmd.help.name": {"zh": "帮助", "en": "help"},
    "bot.cmd.help.desc": {"zh": "所有命令，一行一个", "en": "Every command, one line each"},
    "bot.help.title": {"zh": "**命令一览**（只有你看得到）", "en": "**Commands** (only you can see this)"},
    "bot.help.group.cogs.tables": {"zh": "🀄 牌桌", "en": "🀄 Tables"},
    "bot.help.group.cogs.replay": {"zh": "🎞️ 回放与验证", "en": "🎞️ Replays and checks"},
    "bot.help.group.cogs.economy": {"zh": "🪙 银子与战绩", "en": "🪙 Silver and statistics"},
    "bot.help.group.cogs.admin": {"zh": "🛠️ 管理（需要管理服务器权限）", "en": "🛠️ Admin (Manage Server)"},
    "bot.help.group.cogs.help": {"zh": "❓ 帮助", "en": "❓ Help"},
    "bot.help.group.other": {"zh": "其他", "en": "Other"},
    "bot.help.footer": {"zh": "怎么玩：/麻将 怎么玩 · 规则卡：/麻将 规则 · 算一手牌：/麻将 算分",
                        "en": "How to play: /mahjong howto · the rules card: /mahjong rules · score a hand: /mahjong score"},
})

# the order of the groups; a command from any other module goes under "other"
GROUPS = ("cogs.tables", "cogs.replay", "cogs.economy", "cogs.admin", "cogs.help")
MAX_MESSAGE = 2000  # Discord's message length


def _text(s: Any, plain: str, lang: str) -> str:
    key = getattr(s, "extras", {}).get("key") if s is not None else None
    return t(key, lang) if key else plain


def _name(cmd: app_commands.Command | app_commands.Group, lang: str) -> str:
    return _text(getattr(cmd, "_locale_name", None), cmd.name, lang)


def _desc(cmd: app_commands.Command | app_commands.Group, lang: str) -> str:
    return _text(getattr(cmd, "_locale_description", None), cmd.description, lang)


def commands_of(tree: Iterable[Any]) -> list[tuple[str, tuple[Any, ...]]]:
    """Every runnable slash command of the tree: (its module, the path of commands from the top)."""
    out: list[tuple[str, tuple[Any, ...]]] = []

    def walk(cmd: Any, path: tuple[Any, ...]) -> None:
        if isinstance(cmd, app_commands.Group):
            for sub in cmd.commands:
                walk(sub, (*path, cmd))
        elif isinstance(cmd, app_commands.Command):
            out.append((getattr(cmd.callback, "__module__", ""), (*path, cmd)))

    for c in tree:
        walk(c, ())
    return out


def help_lines(tree: Iterable[Any], lang: str) -> list[str]:
    """The help text's lines: a heading per group, then ``/path — description`` per command."""
    groups: dict[str, list[str]] = {}
    for module, path in commands_of(tree):
        key = module if module in GROUPS else "other"
        line = "`/" + " ".join(_name(c, lang) for c in path) + "` — " + _desc(path[-1], lang)
        groups.setdefault(key, []).append(line)
    lines = [t("bot.help.title", lang)]
    for key in (*GROUPS, "other"):
        if key in groups:
            lines.append("")
            lines.append("**" + t("bot.help.group." + key, lang) + "**")
            lines.extend(groups[key])
    lines.append("")
    lines.append(t("bot.help.footer", lang))
    return lines


def pages(lines: list[str], limit: int = MAX_MESSAGE) -> list[str]:
    """The lines in messages of at most ``limit`` characters, cut between lines."""
    out: list[str] = []
    cur = ""
    for line in lines:
        if cur and len(cur) + 1 + len(line) > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur:
        out.append(cur)
    return out


class HelpCog(commands.Cog):
    def __init__(self, bot: JxBot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("bot.cmd.help.name"), description=ls("bot.cmd.help.desc"))
    async def help(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction)
        msgs = pages(help_lines(self.bot.tree.get_commands(), lang))
        await reply(interaction, msgs[0])
        for more in msgs[1:]:
            await interaction.followup.send(more, ephemeral=True)


async def setup(bot: JxBot) -> None:
    await bot.add_cog(HelpCog(bot))
