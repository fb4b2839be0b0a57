"""``/mahjong howto`` (怎么玩): the illustrated how-to-play, a private paged guide.

The guide is ``jxbot.howto`` (pages as data, zh/en texts, example hands scored by the rules); this cog only
translates: a page's text and picture (``render_guide`` over the drawing lanes) in an ephemeral message with
◀ ▶ buttons. The page is kept in the buttons' custom ids (``mj:howto.<0|1>:<ruleset>:x:<page>``), so they
work after a restart with nothing remembered; a press is taken only from the presser's own ephemeral
guide (jxbot/shell/binding.py), which it alone edits.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from jxbot import howto
from jxbot.bot import JxBot, ls
from jxbot.custom_ids import CustomId, MjButton, to_base36
from jxbot.i18n import register, t
from jxbot.interactions import lang_of, reply
from jxbot.shell.binding import own_ephemeral, refuse
from jxbot.shell.pictures import render_async

register({
    "bot.cmd.howto.name": {"zh": "怎么玩", "en": "howto"},
    "bot.cmd.howto.desc": {"zh": "图解怎么玩：牌、百搭、吃碰杠、四种牌型、算分、承包、台费", "en":
                           "An illustrated guide: tiles, wildcard, claims, the four patterns, scoring, contract, fee"},
})

VERB = "howto"


def _page_no(s: str) -> int | None:
    try:
        return int(s, 36)
    except ValueError:
        return None


def components(ruleset: str, k: int, n: int, lang: str) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    for arg, (emoji, key, to) in enumerate((("◀", "howto.prev", k - 1), ("▶", "howto.next", k + 1))):
        v.add_item(MjButton(CustomId(VERB, ruleset, None, to_base36(max(0, min(n - 1, to))), arg),
                            label=t(key, lang), emoji=emoji, disabled=not 0 <= to < n, row=0))
    return v


async def show(interaction: discord.Interaction, ruleset: str, k: int, *, new: bool) -> None:
    lang = lang_of(interaction)
    pages = howto.pages(ruleset)
    k = max(0, min(len(pages) - 1, k))
    page = pages[k]
    content = t("howto.head", lang, k=k + 1, n=len(pages)) + "\n" + howto.page_text(page, lang)
    png = await render_async("guide", howto.page_view(page, lang), lang, urgent=True) if page.rows else None
    files = [discord.File(io.BytesIO(png), filename="howto.png")] if png else []
    view = components(ruleset, k, len(pages), lang)
    none = discord.AllowedMentions.none()
    if new:
        await reply(interaction, content, view=view, files=files, allowed_mentions=none)
    elif not interaction.response.is_done():
        await interaction.response.edit_message(content=content, view=view, attachments=files, allowed_mentions=none)
    else:
        await interaction.edit_original_response(content=content, view=view, attachments=files, allowed_mentions=none)


class HowtoCog(commands.Cog):
    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        bot.register_button(VERB, self.on_nav)

    async def on_nav(self, interaction: discord.Interaction, cid: CustomId) -> None:
        k = _page_no(cid.nonce)
        if cid.table not in howto.RULESET_SETS or k is None:
            await reply(interaction, t("bot.err.stale", lang_of(interaction)))
            return
        if not own_ephemeral(interaction):  # the guide is the presser's own ephemeral: it alone is edited
            await refuse(interaction, cid.verb)
            return
        await show(interaction, cid.table, k, new=False)


@app_commands.command(name=ls("bot.cmd.howto.name"), description=ls("bot.cmd.howto.desc"))
@app_commands.rename(ruleset=ls("bot.opt.ruleset.name"))
@app_commands.describe(ruleset=ls("bot.opt.ruleset.desc"))
@app_commands.choices(ruleset=[app_commands.Choice(name=ls(f"bot.choice.ruleset.{n}"), value=n)
                               for n in howto.RULESET_SETS])
async def howto_command(interaction: discord.Interaction, ruleset: str = "jiaxing") -> None:
    await show(interaction, ruleset if ruleset in howto.RULESET_SETS else "jiaxing", 0, new=True)


def _group(bot: JxBot) -> app_commands.Group | None:
    cog = bot.get_cog("TablesCog")
    group = getattr(cog, "app_command", None) if cog is not None else None
    return group if isinstance(group, app_commands.Group) else None


async def setup(bot: JxBot) -> None:
    await bot.add_cog(HowtoCog(bot))
    group = _group(bot)
    if group is not None:
        group.add_command(howto_command)


async def teardown(bot: JxBot) -> None:
    group = _group(bot)
    if group is not None:
        group.remove_command(howto_command.name)
