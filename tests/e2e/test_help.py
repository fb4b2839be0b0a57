"""End to end: ``/help`` (帮助, issue 26). A zh and an en player each ask; each gets, privately, every
command Discord has registered for the guild, in their own language, one line each."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.scenario import said, start_world

END = {"zh-CN": "怎么玩：/麻将 怎么玩", "en-US": "How to play: /mahjong howto"}  # the footer, on the last page

pytestmark = pytest.mark.e2e


def registered(double, guild, locale: str) -> list[str]:
    """Every runnable command path as the player's client shows it (``/麻将 开桌``, ``/balance``)."""
    out = []

    def name(d: dict) -> str:
        return (d.get("name_localizations") or {}).get(locale) or d["name"]

    for cmd in double.commands_for(guild).values():
        subs = [o for o in cmd.get("options") or [] if o.get("type") == 1]
        if subs:
            out += [f"/{name(cmd)} {name(s)}" for s in subs]
        else:
            out.append(f"/{name(cmd)}")
    return out


async def test_a_zh_and_an_en_player_each_get_every_command_privately(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob"], locales={"bob": "en-US"})
    alice, bob = w.players
    for p, word, title, locale in ((alice, "帮助", "命令一览", "zh-CN"), (bob, "help", "Commands", "en-US")):
        action = await p.slash(word)
        text = await said(action)
        for _ in range(100):  # a long help comes as several private messages: wait for the last page's footer
            if END[locale] in text:
                break
            await asyncio.sleep(0.05)
            text = await said(action)
        assert title in text, text
        assert action.interaction.original is not None and action.interaction.original.flags & 64  # ephemeral
        paths = registered(double, w.guild, locale)
        assert len(paths) >= 25
        for path in paths:
            assert f"`{path}`" in text, (path, text)
    assert not any("命令一览" in (m.content or "") or "Commands" in (m.content or "")
                   for m in alice.channel_messages(w.channel) if m.ephemeral_for is None)
