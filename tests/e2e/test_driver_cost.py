"""The load driver's own cost (bench/e2e_load.py runs the double and 100 scripted players in one process,
on the same cores as the bot it measures): a change wakes only the players it concerns, and what they
read is re-parsed only when a message changes — while every player still sees every change at once.

In-process, no bot: a second or so."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e.double import DiscordDouble, Message
from tests.e2e.double import server as double_server
from tests.e2e.players import AutoPlayer, Player, Style


def buttons(*custom_ids: str) -> list[dict[str, Any]]:
    return [{"type": 1, "components": [{"type": 2, "style": 2, "label": c, "custom_id": c} for c in custom_ids]}]


@pytest.fixture
def no_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    """Waiters re-check only when woken (no 0.25 s safety poll), so a test sees exactly who was woken."""
    monkeypatch.setattr(double_server, "POLL", 30.0)


async def test_a_dm_wakes_its_player_only(no_poll: None) -> None:
    double = DiscordDouble()
    guild = double.add_guild("g")
    channel = double.add_text_channel(guild, "mahjong")
    players = [Player.join(double, f"p{i}", guild, channel) for i in range(50)]
    checks = [0] * len(players)

    def counting(i: int):
        def pred(m: Message) -> bool:
            checks[i] += 1
            return "your turn" in m.content
        return pred

    for p in players:  # one message each, so that every re-check of a player's wait calls its predicate
        double.post_message(double.dm_channel(p.user), {"content": "welcome"}, [])
    waits = [asyncio.ensure_future(p.wait_dm(counting(i), timeout=10)) for i, p in enumerate(players)]
    anyone = asyncio.ensure_future(double.wait_for(lambda: len(double.messages) >= len(players) + 2, 10, "two messages"))
    await asyncio.sleep(0)
    before = list(checks)
    assert all(before), "each wait checked once"

    double.post_message(double.dm_channel(players[7].user), {"content": "your turn"}, [])
    got = await asyncio.wait_for(waits[7], 10)
    assert got.content == "your turn"
    await asyncio.sleep(0.05)
    woken = [i for i in range(len(players)) if checks[i] != before[i]]
    assert woken == [7], f"a DM to p7 re-checked {len(woken)} players' panels"

    # a message in the channel wakes the unkeyed waiter (it may read anything) but no player's DM wait
    double.post_message(channel, {"content": "table"}, [])
    await asyncio.wait_for(anyone, 10)
    await asyncio.sleep(0.05)
    assert [i for i in range(len(players)) if checks[i] != before[i]] == [7]

    # a change notified without keys (a fault, the gateway) wakes everyone, as before
    double.notify()
    await asyncio.sleep(0.05)
    assert all(checks[i] > before[i] for i in range(len(players)) if i != 7)
    for w in waits:
        w.cancel()
    await asyncio.gather(*waits, return_exceptions=True)
    assert not any(double._waiters.values()), "cancelled waiters are forgotten"


async def test_keyed_waits_see_edits_and_answers_at_once(no_poll: None) -> None:
    double = DiscordDouble()
    guild = double.add_guild("g")
    channel = double.add_text_channel(guild, "mahjong")
    alice = Player.join(double, "alice", guild, channel)
    table = double.post_message(channel, {"content": "table"}, [])
    mine = double.post_message(channel, {"content": "just for alice"}, [], ephemeral_for=alice.id)

    edited = asyncio.ensure_future(alice.wait_edited(table, timeout=5))
    seen = asyncio.ensure_future(alice.wait_message(lambda m: m.content == "new", timeout=5))
    await asyncio.sleep(0)
    double.edit_message(table, {"content": "table, edited"}, [])
    double.post_message(channel, {"content": "new"}, [])
    assert (await asyncio.wait_for(edited, 10)).content == "table, edited"
    assert (await asyncio.wait_for(seen, 10)).content == "new"

    # an ephemeral panel wakes its player's AutoPlayer (keyed by user), which reads the new buttons
    ap = AutoPlayer(alice, Style())
    ready = asyncio.ensure_future(double.wait_for(ap._ready, 5, "alice's panel", keys=[("user", alice.id)]))
    await asyncio.sleep(0)
    double.edit_message(mine, {"content": "panel\n1万 2万", "components": buttons("mj:discard.0:t1:0:n1")}, [])
    p = await asyncio.wait_for(ready, 10)
    assert [cid for _, _, cid in p.actions] == ["mj:discard.0:t1:0:n1"]


async def test_buttons_and_panels_follow_every_edit() -> None:
    double = DiscordDouble()
    guild = double.add_guild("g")
    channel = double.add_text_channel(guild, "mahjong")
    alice = Player.join(double, "alice", guild, channel)
    dm = double.dm_channel(alice.user)
    msg = double.post_message(dm, {"content": "panel\n1万 2万", "components": buttons("mj:discard.0:t1:0:a")}, [])
    ap = AutoPlayer(alice, Style())
    assert [b["custom_id"] for b in msg.buttons()] == ["mj:discard.0:t1:0:a"]
    first = ap.panel()
    assert first is not None and first.nonce == "a"
    assert ap.panel() is first  # the same version is read once

    double.edit_message(msg, {"components": buttons("mj:pass:t1:0:b", "mj:peng.1:t1:0:b")}, [])
    assert [b["custom_id"] for b in msg.buttons()] == ["mj:pass:t1:0:b", "mj:peng.1:t1:0:b"]
    again = ap.panel()
    assert again is not None and again.nonce == "b" and [v for v, _, _ in again.actions] == ["pass", "peng"]

    msg.components = buttons("mj:discard.1:t1:0:c")  # replaced by hand, without an edit: still followed
    assert [b["custom_id"] for b in msg.buttons()] == ["mj:discard.1:t1:0:c"]
    third = ap.panel()
    assert third is not None and third.nonce == "c"

    double.edit_message(msg, {"content": "hand over", "components": []}, [])
    assert msg.buttons() == [] and ap.panel() is None


async def test_uploads_read_in_one_go_as_aiohttps_reader_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message with files, sent as discord.py sends it (aiohttp's FormData), is kept the same whether the
    double splits the body at once or streams it through aiohttp's multipart reader (bodies > 20 MiB)."""
    import json

    import aiohttp

    png = b"\x89PNG\r\n\x1a\n" + b"\r\n--not-the-boundary\r\n\r\n" * 50 + bytes(range(256)) * 40
    kept: list[tuple[str, list[tuple[str, bytes, str | None]]]] = []
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(double_server, "FAST_MULTIPART_MAX", 0)
        async with DiscordDouble() as double:
            guild = double.add_guild("g")
            channel = double.add_text_channel(guild, "mahjong")
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps({"content": "牌 hand", "attachments": [
                {"id": 0, "filename": "hand.png"}, {"id": 1, "filename": "表.png"}]}), content_type="application/json")
            form.add_field("files[0]", png, filename="hand.png", content_type="image/png")
            form.add_field("files[1]", png[::-1], filename="表.png", content_type="application/octet-stream")
            async with aiohttp.ClientSession() as http, http.post(
                    f"{double.api_base}/channels/{channel.id}/messages", data=form,
                    headers={"Authorization": f"Bot {double.token}"}) as resp:
                assert resp.status == 200, await resp.text()
            msg = channel.messages[-1]
            kept.append((msg.content, [(a.filename, a.data, a.content_type) for a in msg.attachments]))
            assert not double.errors and not double.rejections
    assert kept[0] == kept[1]
    assert kept[0][0] == "牌 hand" and [f for f, _, _ in kept[0][1]] == ["hand.png", "表.png"]
    assert kept[0][1][0][1] == png and kept[0][1][1][1] == png[::-1]
