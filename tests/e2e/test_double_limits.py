"""The double's model of Discord's request limits (issue 28), raw REST, no bot: the global 50 requests/s
that interaction endpoints are exempt from, an interaction token's 15 minutes (shortened here) and the
invalid requests an expired token costs, per-route 429s with their X-RateLimit-Scope."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from tests.e2e.double import DiscordDouble
from tests.e2e.players import Player


async def _pressed(double: DiscordDouble, s: aiohttp.ClientSession, player: Player, channel: Any) -> Any:
    """A component press on a message of the bot's, answered with an update (type 7): its token opens
    the webhook routes (edit original, follow-ups)."""
    base = double.api_base
    async with s.post(f"{base}/channels/{channel.id}/messages", json={"content": "panel v1"}) as r:
        msg = double.messages[int((await r.json())["id"])]
    inter = double.create_interaction(3, player.user, channel, {"custom_id": "mj:x", "component_type": 2},
                                      message=msg)
    async with s.post(f"{base}/interactions/{inter.id}/{inter.token}/callback",
                      json={"type": 7, "data": {"content": "panel v2"}}) as r:
        assert r.status == 204
    return inter


async def test_interaction_endpoints_are_outside_the_global_limit(double: DiscordDouble) -> None:
    guild = double.add_guild()
    channel = double.add_text_channel(guild)
    alice = Player.join(double, "alice", guild, channel)
    base = double.api_base
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {double.token}"}) as s:
        inter = await _pressed(double, s, alice, channel)
        limit = double.enforce_global_limit(5)
        statuses = []
        for i in range(8):  # 8 bot-token requests in one second: 5 pass, 3 are global 429s
            async with s.patch(f"{base}/channels/{channel.id}/messages/{inter.message.id}",
                               json={"content": f"bot {i}"}) as r:
                statuses.append(r.status)
                if r.status == 429:
                    body = await r.json()
                    assert body["global"] is True
                    assert r.headers["X-RateLimit-Scope"] == "global" and r.headers["X-RateLimit-Global"] == "true"
        assert statuses == [200] * 5 + [429] * 3 and limit.refused == 3
        # the same second, over the limit: the interaction token's webhook routes still pass
        wh = f"{base}/webhooks/{double.application_id}/{inter.token}"
        for i in range(6):
            async with s.patch(f"{wh}/messages/@original", json={"content": f"token {i}"}) as r:
                assert r.status == 200
        async with s.post(f"{wh}?wait=true", json={"content": "follow-up"}) as r:
            assert r.status == 200
        assert inter.message.content == "token 5"
        assert limit.refused == 3
        await asyncio.sleep(1.05)  # a second later the bot token may speak again
        async with s.patch(f"{base}/channels/{channel.id}/messages/{inter.message.id}", json={"content": "ok"}) as r:
            assert r.status == 200
    assert len(double.invalid_requests) == 3  # the three global 429s


async def test_an_expired_token_is_refused_and_counted_invalid(double: DiscordDouble) -> None:
    guild = double.add_guild()
    channel = double.add_text_channel(guild)
    alice = Player.join(double, "alice", guild, channel)
    base = double.api_base
    double.token_ttl = 0.3
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {double.token}"}) as s:
        inter = await _pressed(double, s, alice, channel)
        wh = f"{base}/webhooks/{double.application_id}/{inter.token}"
        async with s.patch(f"{wh}/messages/@original", json={"content": "fresh"}) as r:
            assert r.status == 200
        await asyncio.sleep(0.35)
        for _ in range(2):
            async with s.patch(f"{wh}/messages/@original", json={"content": "stale"}) as r:
                assert r.status == 401 and (await r.json())["code"] == 50027
        async with s.post(wh, json={"content": "late follow-up"}) as r:
            assert r.status == 401
        assert inter.message.content == "fresh"  # nothing an expired token sent was shown
        # an unknown token is a 404 (10015), as Discord answers it
        async with s.patch(f"{base}/webhooks/{double.application_id}/nope/messages/@original",
                           json={"content": "x"}) as r:
            assert r.status == 404 and (await r.json())["code"] == 10015
        # the bot token still edits the message (its author is the bot)
        async with s.patch(f"{base}/channels/{channel.id}/messages/{inter.message.id}", json={"content": "bot"}) as r:
            assert r.status == 200
    assert [st for *_, st in double.invalid_requests] == [401, 401, 401]
    assert inter.message.content == "bot"


async def test_per_route_limits_answer_429_with_their_scope(double: DiscordDouble) -> None:
    guild = double.add_guild()
    channel = double.add_text_channel(guild)
    alice = Player.join(double, "alice", guild, channel)
    bob = Player.join(double, "bob", guild, channel)
    base = double.api_base
    double.enforce_rate_limits("PATCH /webhooks/{app_id}/{token}/messages/{message_id}", limit=2, per=5.0)
    shared = double.enforce_rate_limits("POST /channels/{channel_id}/messages", limit=1, per=5.0)
    shared.scope = "shared"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {double.token}"}) as s:
        a = await _pressed(double, s, alice, channel)  # (its panel's send takes the shared bucket's one)
        out = []
        for _ in range(3):
            async with s.patch(f"{base}/webhooks/{double.application_id}/{a.token}/messages/@original",
                               json={"content": "a"}) as r:
                out.append((r.status, r.headers.get("X-RateLimit-Scope"), r.headers.get("X-RateLimit-Remaining")))
        assert out[:2] == [(200, None, "1"), (200, None, "0")]
        assert out[2][0] == 429 and out[2][1] == "user"
        # per token: another interaction's webhook has its own bucket
        async with s.post(f"{base}/channels/{channel.id}/messages", json={"content": "second"}) as r:
            assert r.status == 429 and r.headers["X-RateLimit-Scope"] == "shared"
            assert (await r.json())["global"] is False
        b = double.create_interaction(3, bob.user, channel, {"custom_id": "mj:y", "component_type": 2},
                                      message=a.message)
        async with s.post(f"{base}/interactions/{b.id}/{b.token}/callback", json={"type": 6}) as r:
            assert r.status == 204
        async with s.patch(f"{base}/webhooks/{double.application_id}/{b.token}/messages/@original",
                           json={"content": "b"}) as r:
            assert r.status == 200
    # the user-scoped 429 is an invalid request; the shared resource's is not (Discord's rule)
    assert [(m, st) for _, m, _, st in double.invalid_requests] == [("PATCH", 429)]


async def test_a_token_routes_429_is_raised_to_the_caller_not_slept_out(double: DiscordDouble, monkeypatch) -> None:
    """A panel update through a token holds its seat's lock while it is sent; discord.py's webhook adapter
    would sleep a 429 out inside the request (up to five times), and the player's next press would wait for
    that lock. Within ``no_inline_429`` the 429 comes back at once with its ``retry_after`` (the edit
    coalescer waits it out with no lock held), and nothing else changes."""
    import time

    import discord

    from jxbot.interactions import no_inline_429

    guild = double.add_guild()
    channel = double.add_text_channel(guild)
    alice = Player.join(double, "alice", guild, channel)
    adapter = discord.webhook.async_.async_context
    monkeypatch.setattr(discord.webhook.async_.Route, "BASE", double.api_base.rstrip("/"))
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {double.token}"}) as s:
        inter = await _pressed(double, s, alice, channel)

        async def edit(text: str) -> Any:
            return await adapter.get().edit_original_interaction_response(
                str(double.application_id), inter.token, session=s, payload={"content": text})

        double.rate_limit("PATCH /webhooks/*", times=1, retry_after=1.5)
        t0 = time.monotonic()
        with no_inline_429(), pytest.raises(discord.HTTPException) as refused:
            await edit("panel v3")
        assert time.monotonic() - t0 < 1.0, "the 429 was slept out inside the request"
        assert refused.value.status == 429 and refused.value.retry_after == 1.5  # type: ignore[attr-defined]
        assert inter.message.content == "panel v2"
        with no_inline_429():
            await edit("panel v4")  # no 429: sent as ever
        assert inter.message.content == "panel v4"
        # outside it (the press's own answer), discord.py's own handling is unchanged: waited out, then sent
        double.rate_limit("PATCH /webhooks/*", times=1, retry_after=0.3)
        t0 = time.monotonic()
        await edit("panel v5")
        assert time.monotonic() - t0 >= 0.3 and inter.message.content == "panel v5"
