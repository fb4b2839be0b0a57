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


def link_buttons(msg) -> list[dict]:
    return [b for b in msg.buttons if b.get("style") == 5]


async def test_the_result_carries_a_link_to_the_hands_web_replay_when_the_pages_are_on(harness):
    h = harness
    h.bot.settings = dataclasses.replace(h.bot.settings, web_url=BASE, web_secret=SECRET)
    await h.bot.store.update_guild_settings(GUILD, web=True)
    hand_id, res = await played(h)
    (link,) = link_buttons(res)
    assert link["url"] == f"{BASE}/h/{hand_id}" and "custom_id" not in link
    assert res.button(prefix="mj:replay:") and res.button(prefix="mj:fair:")  # the custom-id buttons stay
    wa = WebApp(h.bot.store, WebConfig(secret=SECRET, rate=0))
    async with TestClient(TestServer(wa.app)) as client:
        page = await client.get(urlsplit(link["url"]).path)
        assert page.status == 200 and "/hand.png" not in await page.text()  # a stranger's view


async def test_no_web_link_on_the_result_while_the_servers_pages_are_off(harness):
    h = harness
    h.bot.settings = dataclasses.replace(h.bot.settings, web_url=BASE, web_secret=SECRET)
    _, res = await played(h)  # the bot has an address, but this server did not turn its pages on
    assert not link_buttons(res) and res.button(prefix="mj:replay:")


def test_the_watch_view_links_the_live_table_only_when_given_an_address():
    from types import SimpleNamespace

    from jxbot.shell.watch import refresh_components

    on = SimpleNamespace(web_url=BASE, web_all_servers=False)
    assert links.base_for(on, SimpleNamespace(web=True)) == BASE
    assert links.base_for(on, SimpleNamespace(web=False)) is None and links.base_for(on, None) is None
    assert links.base_for(SimpleNamespace(web_url=BASE, web_all_servers=True), None) == BASE  # a private deployment
    assert links.base_for(SimpleNamespace(web_url=None, web_all_servers=True), SimpleNamespace(web=True)) is None
    url = links.full(links.base_for(on, SimpleNamespace(web=True)), links.table_path("t1"))
    with_link = refresh_components("t1", "en", url).to_components()
    items = [c for row in with_link for c in row["components"]]
    assert [c.get("url") for c in items] == [None, f"{BASE}/t/t1"]
    assert items[0]["custom_id"].startswith("mj:") and items[1]["label"] == "Watch on the web"
    plain = [c for row in refresh_components("t1", "en").to_components() for c in row["components"]]
    assert len(plain) == 1 and "url" not in plain[0]
