"""The double against a real discord.py bot process (tests/e2e/minibot.py): what a player would see."""

from __future__ import annotations

import asyncio
import struct

import pytest

from tests.e2e.double import DiscordDouble
from tests.e2e.double import state as st
from tests.e2e.players import Player

pytestmark = pytest.mark.e2e

MINIBOT = ["-m", "tests.e2e.minibot"]


@pytest.fixture
async def world(double: DiscordDouble, start_bot):
    guild = double.add_guild("test guild", locale="zh-CN")
    channel = double.add_text_channel(guild, "mahjong")
    alice = Player.join(double, "alice", guild, channel)
    bob = Player.join(double, "bob", guild, channel, locale="en-US")
    bot = await start_bot(MINIBOT, env={"DEV_GUILD_ID": str(guild.id)})
    try:
        await double.wait_commands(timeout=20)
        await double.wait_ready(timeout=20)
    except TimeoutError:
        raise AssertionError(f"minibot did not come up:\n{bot.tail()}") from None
    return guild, channel, alice, bob, bot


def png_dims(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


async def test_sync_slash_attachment_and_button_edit(double: DiscordDouble, world) -> None:
    guild, channel, alice, bob, _ = world
    cmds = double.commands_for(guild)
    assert {"ping", "dm", "announce", "ask"} <= set(cmds)
    assert cmds["ping"]["options"][0]["name_localizations"] == {"zh-CN": "内容"}
    assert double.gateway.compressions == ["zlib-stream"], "discord.py's default zlib-stream transport was not used"

    # a zh-CN player types the localized option name; the bot gets the canonical one
    act = await alice.slash("ping", 内容="你好")
    assert act.response_type == 4 and not act.ephemeral
    msg = act.message
    assert msg is not None and msg.content == "你好"
    assert [b["label"] for b in msg.buttons()] == ["Press", "Redraw", "Edit"]
    assert png_dims(msg.image() or b"") == (4, 3)
    assert msg in bob.channel_messages(), "a public reply is visible to everyone in the channel"

    press = await bob.click(msg, label="Press")
    assert press.response_type == 7 and msg.content == "pong, pressed 1" and msg.edit_count == 1
    await alice.click(msg, custom_id="mini:press")
    assert msg.content == "pong, pressed 2" and msg.edit_count == 2
    assert len(msg.attachments) == 1, "an update without attachments keeps the image"
    # click-to-response latency is measured at the double for every answered interaction
    lat = double.latencies()
    assert len(lat) == 3 and all(0 <= x < 2.0 for x in lat)
    stats = double.latency_stats()
    assert stats["answered"] == 3 and stats["unanswered"] == 0 and 0 < stats["p50_ms"] <= stats["p99_ms"] < 2000
    assert msg in double.public_messages()

    # deferred update (type 6), then a new image through the interaction webhook's @original
    redraw = await alice.click(msg, label="Redraw")
    assert redraw.response_type == 6
    await alice.wait_edited(msg, since=2)
    assert png_dims(msg.image() or b"") == (5, 5) and len(msg.attachments) == 1
    assert msg.content == "pong, pressed 2", "an edit without content keeps it"
    # deferred update, then a REST edit of the channel message
    await alice.click(msg, label="Edit")
    await double.wait_for(lambda: msg.content == "edited by REST", 5, "the REST edit")
    assert msg.edit_count == 4 and double.rejections == []


async def test_dm_panel_and_closed_dms(double: DiscordDouble, world) -> None:
    guild, channel, alice, bob, bot = world
    assert 10_000_000 < (bot.rss_bytes() or 0) < 1_000_000_000
    act = await alice.slash("dm", text="your hand")
    assert act.ephemeral and act.content == "sent"
    assert act.message not in bob.channel_messages(), "ephemeral replies are seen by their user only"
    panel = alice.dm_panel()
    assert panel is not None and panel.content == "your hand" and png_dims(panel.image() or b"") == (2, 2)
    assert bob.dm_panel() is None
    assert panel not in double.public_messages() and act.message not in double.public_messages()
    with pytest.raises(PermissionError):
        await bob.click(panel, label="Press")  # not in bob's DMs: a client cannot reach it
    press = await alice.click(label="Press")  # defaults to her DM panel
    assert press.response_type == 7 and panel.content == "pong, pressed 1"

    with pytest.raises(LookupError):
        await alice.slash("ping", channel=alice.dm_channel())  # guild commands are not offered in DMs

    double.close_dms(bob.user)
    act = await bob.slash("dm", text="hello")
    assert act.ephemeral and act.content == "cannot DM you (50007)"
    assert bob.dm_messages() == []


async def test_missing_permissions_is_50013(double: DiscordDouble, world) -> None:
    guild, channel, alice, _, _ = world
    double.deny_permissions(channel, st.SEND_MESSAGES)
    act = await alice.slash("announce", text="secret plan")
    await act.settled()
    assert act.texts() == ["missing permissions (50013)"] and act.ephemeral
    assert not [m for m in alice.channel_messages() if m.content == "secret plan"]
    # the interaction's app_permissions told the bot so, too
    assert not int(act.interaction.payload["app_permissions"]) & st.SEND_MESSAGES

    double.restore_permissions(channel)
    act = await alice.slash("announce", text="open plan")
    await act.settled()
    assert act.texts() == ["announced"]
    assert [m.content for m in alice.channel_messages() if not m.ephemeral] == ["open plan"]


async def test_429_is_retried_after_retry_after(double: DiscordDouble, world) -> None:
    guild, channel, alice, _, _ = world
    route = "POST /channels/{channel_id}/messages"
    double.rate_limit(route, times=2, retry_after=0.3)
    act = await alice.slash("announce", text="after the storm")
    await act.settled(timeout=10)
    assert act.texts() == ["announced"]
    assert double.request_count(route, 429) == 2 and double.request_count(route, 200) == 1
    posted = [m for m in channel.messages if m.content == "after the storm"]
    assert len(posted) == 1, "a retried request must not post twice"
    times = sorted(t for t, m, tpl, _ in double.requests if m == "POST" and tpl == "/channels/{channel_id}/messages")
    assert times[1] - times[0] >= 0.29 and times[2] - times[1] >= 0.29, "the bot did not wait retry_after"

    # a storm: every send is refused until it stops; discord.py retries (5 attempts in all) and nothing is lost
    storm = double.rate_limit(route, times=None, retry_after=0.4)
    act = await alice.slash("announce", text="through the storm")
    await double.wait_for(lambda: storm.hits >= 3, 5, "three 429s")
    storm.stop()
    assert not [m for m in channel.messages if m.content == "through the storm"]
    await act.settled(timeout=10)
    assert act.texts() == ["announced"]
    assert len([m for m in channel.messages if m.content == "through the storm"]) == 1

    # a slow route: the bot waits for Discord, and the player gets the answer late but whole
    double.slow(route, delay=0.6, times=1)
    act = await alice.slash("announce", text="slowly")
    await act.settled(timeout=10)
    assert act.texts() == ["announced"]
    assert act.interaction.followups == [] and act.message is not None
    assert act.message.edit_times[-1] - act.interaction.created_at >= 0.6


async def test_enforced_rate_limits_pace_the_bot_without_429s(double: DiscordDouble, world) -> None:
    guild, channel, alice, _, _ = world
    double.enforce_rate_limits("PATCH /channels/{channel_id}/messages/{message_id}", limit=3, per=0.5)
    act = await alice.slash("burst", n=7)
    await act.settled(timeout=10)
    assert act.texts() == ["burst 7 done"]
    msg = next(m for m in channel.messages if m.author.id == double.bot.id and not m.ephemeral and m.content == "7")
    assert msg.edit_count == 7
    # never more than 3 edits inside any 0.5 s window, and discord.py paced itself from the headers
    t = msg.edit_times
    assert all(t[i + 3] - t[i] >= 0.45 for i in range(len(t) - 3))
    assert double.request_count("PATCH /channels/{channel_id}/messages/{message_id}", 429) == 0


async def test_dropped_gateway_resumes_and_replays(double: DiscordDouble, world) -> None:
    guild, channel, alice, _, bot = world
    assert double.gateway.identifies == 1
    await double.drop_gateway()  # TCP cut, no close frame
    act = await alice.slash("ping", text="while you were away", wait=False)  # sent while disconnected
    await act.response(timeout=10)
    assert act.content == "while you were away"
    assert double.gateway.resumes == 1 and double.gateway.identifies == 1, "the bot re-identified instead of resuming"
    await double.drop_gateway(code=4000)  # a close frame this time
    await double.wait_for(lambda: double.gateway.resumes == 2, 10, "second RESUME")
    assert (await alice.slash("ping", text="again")).content == "again"
    assert double.gateway.identifies == 1
    await bot.wait_log("minibot resumed")


async def test_modal_and_killed_bot_restarts(double: DiscordDouble, world) -> None:
    guild, channel, alice, _, bot = world
    shown = await alice.slash("ask")
    assert shown.response_type == 9 and shown.modal is not None and shown.modal["title"] == "Ask"
    answer = await alice.submit_modal(shown, {"mini:answer": "七对"})
    assert answer.ephemeral and answer.content == "you said 七对"

    msg = (await alice.slash("ping", text="before the crash")).message
    assert msg is not None
    await bot.kill()  # SIGKILL
    double.ack_timeout = 0.5  # (shortened so the test need not wait Discord's 3 s)
    lost = await alice.click(msg, label="Press")
    assert lost.failed, "nobody answered: the player sees 'This interaction failed'"
    double.ack_timeout = 3.0
    await bot.start()
    await double.wait_for(lambda: double.gateway.identifies == 2, 20, "the restarted bot's IDENTIFY")
    # the persistent view is rebound by custom_id: the old message's button still works
    press = await alice.click(msg, label="Press")
    assert press.response_type == 7 and msg.content == "pong, pressed 1"


async def test_late_and_double_callbacks_are_refused_like_discord(double: DiscordDouble, world) -> None:
    guild, channel, alice, _, _ = world
    msg = (await alice.slash("ping")).message
    assert msg is not None
    first, second = await alice.double_click(msg, label="Press")
    assert first.response_type == second.response_type == 7
    assert msg.edit_count == 2, "both clicks reached the bot and each was answered once"
    # each click carries the message as the player saw it: both saw "pong", so a bot that trusts the
    # clicked message's state answers both with "pressed 1" (keep state in the bot, not the message)
    assert first.interaction.payload["message"]["content"] == second.interaction.payload["message"]["content"] == "pong"
    assert msg.content == "pong, pressed 1"
    double.ack_timeout = 0.0  # every callback is now too late: Discord answers 10062 Unknown interaction
    late = await alice.click(msg, label="Press")
    assert late.failed and not late.acknowledged
    await double.wait_for(lambda: any(r[3] == 10062 for r in double.rejections), 5, "the late callback")
    assert msg.content == "pong, pressed 1" and msg.edit_count == 2, "a refused update changes nothing"
    assert double.errors == []


def test_configure_points_discord_py_at_the_double_only_when_set(monkeypatch: pytest.MonkeyPatch) -> None:
    import discord.gateway
    import discord.http

    from jxbot.discord_endpoints import configure, derive_gateway

    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    monkeypatch.delenv("DISCORD_GATEWAY_URL", raising=False)
    configure(None)
    configure("")
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"

    configure("http://127.0.0.1:8765/api/v10/")
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:8765/api/v10/users/@me"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:8765/"
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:9/gw")
    configure("https://example.test/api/v10")
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gw"
    assert derive_gateway("https://example.test/api/v10") == "wss://example.test/"
    with pytest.raises(ValueError):
        derive_gateway("example.test")


async def test_standalone_double_serves_state_and_faults() -> None:
    import json
    import sys

    import aiohttp

    from tests.e2e.conftest import REPO

    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.e2e.double", "--port", "0", "--users", "2",
                                                cwd=str(REPO), stdout=asyncio.subprocess.PIPE)
    try:
        assert proc.stdout is not None
        info = json.loads(await asyncio.wait_for(proc.stdout.readline(), 15))
        assert set(info["users"]) == {"player1", "player2"}
        base = info["api_base"]
        root = base.rsplit("/api/", 1)[0]
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {info['token']}"}) as s:
            async with s.get(f"{base}/gateway/bot") as r:
                assert (await r.json())["url"] == info["gateway"]
            async with s.get(f"{base}/users/@me", headers={"Authorization": "Bot wrong"}) as r:
                assert r.status == 401
            async with s.post(f"{root}/_double/faults", json={"kind": "close_dms", "user_id": info["users"]["player1"]}):
                pass
            async with s.post(f"{base}/users/@me/channels", json={"recipient_id": info["users"]["player1"]}) as r:
                dm = await r.json()
            async with s.post(f"{base}/channels/{dm['id']}/messages", json={"content": "hi"}) as r:
                assert r.status == 403 and (await r.json())["code"] == 50007
            async with s.post(f"{root}/_double/faults", json={"kind": "429", "pattern": "POST /channels/*", "times": 1}):
                pass
            async with s.post(f"{base}/channels/{info['channel_id']}/messages", json={"content": "x"}) as r:
                assert r.status == 429 and (await r.json())["retry_after"] > 0
            async with s.post(f"{base}/channels/{info['channel_id']}/messages", json={"content": "table open"}) as r:
                assert r.status == 200
            async with s.get(f"{root}/_double/state") as r:
                state = await r.json()
            assert [m["content"] for m in state["channels"][info["channel_id"]]] == ["table open"]
    finally:
        proc.kill()
        await proc.wait()


async def test_double_refuses_what_discord_refuses(double: DiscordDouble) -> None:
    """Raw REST, no bot: the bugs a bot could have are answered with Discord's error codes."""
    import json

    import aiohttp

    guild = double.add_guild()
    channel = double.add_text_channel(guild)
    alice = Player.join(double, "alice", guild, channel)
    base = double.api_base
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {double.token}"}) as s:
        async def post(path: str, body: object) -> tuple[int, dict]:
            async with s.post(base + path, json=body) as r:
                return r.status, await r.json(content_type=None) if r.status != 204 else {}

        row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "same"},
                                          {"type": 2, "style": 1, "label": "y", "custom_id": "same"}]}
        assert (await post(f"/channels/{channel.id}/messages", {"components": [row]}))[1]["code"] == 50035
        six = {"type": 1, "components": [{"type": 2, "style": 1, "label": str(i), "custom_id": str(i)} for i in range(6)]}
        assert (await post(f"/channels/{channel.id}/messages", {"components": [six]}))[1]["code"] == 50035
        assert (await post(f"/channels/{channel.id}/messages", {"content": ""}))[1]["code"] == 50006

        # multipart: the file's bytes are kept, and an edit naming the attachment keeps it
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps({"content": "hand", "attachments": [{"id": 0, "filename": "h.png"}]}))
        form.add_field("files[0]", b"\x89PNG\r\n\x1a\n" + b"\0" * 8, filename="h.png", content_type="image/png")
        async with s.post(f"{base}/channels/{channel.id}/messages", data=form) as r:
            sent = await r.json()
        att = sent["attachments"][0]
        assert att["filename"] == "h.png" and att["size"] == 16
        async with s.patch(f"{base}/channels/{channel.id}/messages/{sent['id']}",
                           json={"content": "hand 2", "attachments": [{"id": att["id"]}]}) as r:
            edited = await r.json()
        assert [a["id"] for a in edited["attachments"]] == [att["id"]]
        assert double.messages[int(sent["id"])].edit_count == 1
        async with s.get(att["url"]) as r:
            assert r.status == 200 and (await r.read()).startswith(b"\x89PNG")

        # interactions: followup before the ack, the ack, a second ack, an ephemeral reply not fetchable
        inter = double.create_interaction(2, alice.user, channel, {"id": "1", "name": "x", "type": 1})
        wh = f"/webhooks/{double.application_id}/{inter.token}"
        assert (await post(wh, {"content": "too soon"}))[1]["code"] == 10015
        cb = f"/interactions/{inter.id}/{inter.token}/callback"
        assert (await post(cb, {"type": 4, "data": {"content": "only you", "flags": 64}}))[0] == 204
        assert (await post(cb, {"type": 4, "data": {"content": "again"}}))[1]["code"] == 40060
        assert (await post(cb.replace(inter.token, "forged"), {"type": 4}))[1]["code"] == 10062
        reply = inter.original
        assert reply is not None and reply.ephemeral_for == alice.id and reply in alice.ephemerals()
        async with s.get(f"{base}/channels/{channel.id}/messages/{reply.id}") as r:
            assert r.status == 404 and (await r.json())["code"] == 10008
        async with s.get(f"{base}/channels/{channel.id}/messages") as r:
            assert [m["content"] for m in await r.json()] == ["hand 2"]
    assert {code for *_, code, _ in double.rejections} == {50035, 50006, 10015, 40060, 10062, 10008}
    assert double.errors == []


async def test_global_commands_work_in_dms(double: DiscordDouble, start_bot) -> None:
    guild = double.add_guild()
    channel = double.add_text_channel(guild)
    carol = Player.join(double, "carol", guild, channel, locale="en-US")
    await start_bot(MINIBOT)  # no DEV_GUILD_ID: global sync
    await double.wait_commands(timeout=20)
    assert double.guild_commands == {} and ("ping", 1) in double.global_commands
    await double.wait_ready()
    double.ack_timeout = 15.0  # what is tested is where the command runs, not how fast a fresh process answers
    act = await carol.slash("ping", channel=carol.dm_channel(), text="in private", timeout=15.0)
    assert act.message is not None and act.message.channel_id == carol.dm_channel().id
    assert "member" not in act.interaction.payload and act.interaction.payload["user"]["id"] == str(carol.id)
    await carol.click(act.message, label="Press")
    assert act.message.content == "pong, pressed 1" and carol.dm_panel() is act.message
