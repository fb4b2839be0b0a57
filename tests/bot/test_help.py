"""``/help`` (帮助, issue 26): every registered slash command, grouped, one line each, in the asker's
language, only to the asker — generated from the command tree, so a new command can never be missing."""

from __future__ import annotations

import pytest
from discord import app_commands

from cogs.help import commands_of, help_lines, pages
from jxbot.i18n import t


def every_path(bot, lang: str) -> list[str]:
    out = []
    for _, path in commands_of(bot.tree.get_commands()):
        out.append("/" + " ".join(t(c._locale_name.extras["key"], lang) for c in path))
    return out


@pytest.mark.parametrize("locale,lang,title", [("en-US", "en", "Commands"), ("zh-CN", "zh", "命令一览")])
async def test_help_lists_every_registered_command_privately_in_the_askers_language(harness, locale, lang, title):
    await harness.command(101, "help", locale=locale)
    shown = "\n".join(m.content or "" for m in harness.fake.ephemerals(101))
    assert title in shown
    paths = every_path(harness.bot, lang)
    assert len(paths) >= 25  # the tables, replays, silver, admin and help commands
    for path in paths:
        assert f"`{path}`" in shown, path
    assert not any(m.flags & 64 == 0 for m in harness.fake.channel())  # nothing public
    if lang == "zh":
        assert "`/麻将 开桌` — 在本频道开一张新牌桌" in shown and "**🪙 银子与战绩**" in shown
        assert "`/帮助`" in shown
    else:
        assert "`/mahjong create` — Open a new table in this channel" in shown and "**🛠️ Admin (Manage Server)**" in shown
    # one line each: every command line is a single line under its group's heading
    assert sum(1 for line in shown.splitlines() if line.startswith("`/")) == len(paths)


async def test_a_command_added_anywhere_appears_in_help(harness):
    @app_commands.command(name="newthing", description="A brand new command")
    async def newthing(interaction) -> None:  # pragma: no cover - never run
        pass

    harness.bot.tree.add_command(newthing)
    text = "\n".join(help_lines(harness.bot.tree.get_commands(), "en"))
    assert "`/newthing` — A brand new command" in text and "**Other**" in text


def test_a_long_help_is_cut_between_lines_into_discord_sized_messages():
    lines = [f"line {i} " + "x" * 90 for i in range(60)]
    msgs = pages(lines, 2000)
    assert all(len(m) <= 2000 for m in msgs) and "\n".join(msgs).splitlines() == lines
