"""The web companion from Discord: /admin web on|off, the replay viewer's shareable link to the same step,
and a player's private link (signed, expiring) to their own view of the hand, sent in a DM once — which the
web pages then open, while the public link shows a stranger's view (docs/web.md)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from urllib.parse import parse_qs, urlsplit

import discord
from aiohttp.test_utils import TestClient, TestServer

from jxbot.web import links
from jxbot.web.app import WebApp, WebConfig

from .conftest import GUILD
from .test_replay import ALICE, MALLORY, played, viewer

MANAGE = discord.Permissions(manage_guild=True)
BASE = "https://mj.example.org"
SECRET = "web-links-secret-0123456789"


async def test_admin_web_on_puts_links_in_the_replay_and_a_private_link_in_a_dm(harness):
    h, fake = harness, harness.fake
    h.bot.settings = dataclasses.replace(h.bot.settings, web_url=BASE, web_secret=SECRET)
    hand_id, res = await played(h)
    # pages off (the default): the viewer carries no web link
    await h.click(ALICE, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    assert "🌐" not in viewer(fake, ALICE).content
    # only a server admin turns the pages on
    await h.command(MALLORY, "admin web", state="on")
    assert "Manage Server" in fake.last_ephemeral(MALLORY)
    assert not (await h.bot.store.get_guild_settings(GUILD)).web
    await h.command(ALICE, "admin web", member_perms=MANAGE, state="on")
    said = fake.last_ephemeral(ALICE)
    assert "web pages: on" in said and f"{BASE}/g/{GUILD}" in said
    assert (await h.bot.store.get_guild_settings(GUILD)).web
    dms_before = len(fake.dms(ALICE))
    await h.click(ALICE, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    v = viewer(fake, ALICE)
    assert f"<{BASE}/h/{hand_id}?step=0&seat=0>" in v.content
    for _ in range(50):  # the DM goes out beside the viewer
        if len(fake.dms(ALICE)) > dms_before:
            break
        await asyncio.sleep(0.02)
    dm = fake.dms(ALICE)[-1].content or ""
    url = re.search(r"<(https://\S+/me\?\S+)>", dm)[1]
    q = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    assert links.check(SECRET, hand_id, q["seat"], q["exp"], q["sig"]) == 0
    # a second open sends no second DM; a stranger gets the public link and no DM
    await h.click(ALICE, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    await asyncio.sleep(0.1)
    assert len(fake.dms(ALICE)) == dms_before + 1
    await h.click(MALLORY, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    assert f"<{BASE}/h/{hand_id}?step=0&seat=0>" in viewer(fake, MALLORY).content
    assert not fake.dms(MALLORY)
    # the web pages over the bot's store open both links: the private one with the player's own hand
    wa = WebApp(h.bot.store, WebConfig(secret=SECRET, rate=0))
    async with TestClient(TestServer(wa.app)) as client:
        private = await client.get(urlsplit(url).path + "?" + urlsplit(url).query)
        assert private.status == 200 and "/hand.png" in await private.text()
        public = await client.get(f"/h/{hand_id}?step=0&seat=0")
        assert public.status == 200 and "/hand.png" not in await public.text()
    # pages off again: no link
    await h.command(ALICE, "admin web", member_perms=MANAGE, state="off")
    await h.click(ALICE, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    assert "🌐" not in viewer(fake, ALICE).content
