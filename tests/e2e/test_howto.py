"""End to end: ``/mahjong howto`` (怎么玩), the private paged guide. A zh and an en player page through it
with ◀ ▶: every page is their own ephemeral message, in their language, with the engine's picture where the
page has one, and the 台/番 it states; a page button pressed by someone else's hand on another message is
refused and changes nothing (docs/bot.md, "Component binding")."""

from __future__ import annotations

import asyncio

import pytest

from jxbot import howto
from tests.e2e.scenario import said, start_world

pytestmark = pytest.mark.e2e

STALE = "过期"


def guide(player, head: str):
    return next(m for m in reversed(player.ephemerals()) if head in m.content)


async def page_through(player, command: str, head: str, nxt: str, lang: str) -> None:
    act = await player.slash(command)
    await act.settled()
    msg = guide(player, head)
    pages = howto.pages("jiaxing")
    for k, page in enumerate(pages):
        assert msg.ephemeral_for == player.user.id
        assert howto.title(page, lang) in msg.content, (k, msg.content)
        assert howto.body(page, lang) in msg.content  # with the 台, 番 and points the engine computed
        assert any(a.filename == "howto.png" for a in msg.attachments) == bool(page.rows), k
        if k + 1 < len(pages):
            before = msg.edit_count
            press = await player.click(msg, label=nxt)
            await press.settled()
            await player.double.wait_for(lambda m=msg, b=before: m.edit_count > b, 30, "the next page")  # (a loaded machine)
    last = msg.buttons()
    assert any(b.get("disabled") for b in last), last  # ▶ off on the last page


async def test_a_zh_and_an_en_player_page_through_the_guide(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "mallory"], locales={"bob": "en-US"})
    alice, bob, mallory = w.players
    await page_through(alice, "麻将 怎么玩", "**怎么玩**", "下一页", "zh")
    await page_through(bob, "mahjong howto", "**How to play**", "Next", "en")
    zh = guide(alice, "**怎么玩**")
    # Mallory presses Alice's page id on her own guide… and Alice's ◀ on Alice's message stays hers
    back = next(b["custom_id"] for b in zh.buttons() if b.get("label") == "上一页")
    seen = (zh.content, zh.edit_count)
    press = await mallory.click_stale(zh, back)
    assert STALE in await said(press), press.texts()
    await asyncio.sleep(0.5)
    assert (zh.content, zh.edit_count) == seen
    # the 財神 page set
    act = await bob.slash("mahjong howto", ruleset="caishen")
    await act.settled()
    cs = guide(bob, "**How to play**")
    assert howto.title(howto.pages("caishen")[0], "en") in cs.content


async def test_the_guides_buttons_work_after_a_restart(double, start_bot, tmp_path):
    """The page is in the buttons' ids: a guide opened before the bot restarts pages on after it."""
    w = await start_world(double, start_bot, tmp_path, ["alice"])
    alice = w.players[0]
    act = await alice.slash("麻将 怎么玩")
    await act.settled()
    msg = guide(alice, "**怎么玩**")
    assert "第 1/" in msg.content
    await w.bot.kill()
    await w.bot.start()
    await double.wait_for(lambda: double.gateway.identifies >= 2, 30, "the bot to come back")
    before = msg.edit_count
    press = await alice.click(msg, label="下一页", timeout=30)
    await press.settled()
    await double.wait_for(lambda: msg.edit_count > before, 30, "the second page")
    assert "第 2/" in msg.content and howto.title(howto.pages("jiaxing")[1], "zh") in msg.content
