"""Panels and table messages through interaction tokens (issue 28), the real bot against the double with
Discord's global limit enforced: the updates a player did not press for go through the token of their last
press (not counted), the table message is a follow-up of the press that began the hand; an expired token is
refused once and never tried again (the bot token takes over, nothing is lost); a 429 on a token's own route
is waited out. See docs/bot.md, "The request budget"."""

from __future__ import annotations

import pytest

from tests.e2e.feel import rest_calls
from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import gather_players, open_table, result_messages, start_world, wait_match_over

pytestmark = pytest.mark.e2e

ENV = {"JXBOT_MAX_HANDS": "1", "JXBOT_TEST_SEED": "11", "JXBOT_EDIT_INTERVAL": "0.3"}


async def play_one_hand(double, start_bot, tmp_path, env: dict[str, str] | None = None):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob"], env={**ENV, **(env or {})})
    await open_table(w, computers=2)
    aps = [AutoPlayer(p, Style(claim="greedy")).start() for p in w.players]
    await wait_match_over(w, timeout=120)
    for ap in aps:
        ap.stopping = True
    await gather_players(aps)
    return w


def end_messages(w):
    """The hand's result and the match's end, each exactly once (never lost, never posted twice)."""
    (result,) = result_messages(w)
    (over,) = [m for m in w.channel.messages if not m.deleted and "牌局结束" in m.content]
    return result, over


def table_messages(w):
    return [m for m in w.channel.messages if not m.deleted and m.ephemeral_for is None and m.attachments
            and any(a.filename == "table.png" for a in m.attachments)]


async def test_updates_go_through_interaction_tokens_within_the_global_limit(double, start_bot, tmp_path):
    limit = double.enforce_global_limit(50)
    # the tokens' own routes answer 429 now and then: waited out, the newest panel still shown
    storm = double.rate_limit("PATCH /webhooks/{app_id}/{token}/messages/{message_id}", times=4, retry_after=0.3)
    w = await play_one_hand(double, start_bot, tmp_path)
    assert storm.hits == 4
    assert limit.refused == 0 and double.invalid_requests == [r for r in double.invalid_requests if r[3] == 429]
    # the table message was posted as a follow-up of the Start press and edited through its token
    (table,) = table_messages(w)
    assert table.webhook_id is not None and table.edit_count >= 3
    assert len(table.rest_edits) == 0, "a fresh token: no bot-token edit of the table message"
    # other people's moves reached each panel through its player's last press: (almost) no bot-token edits
    for p in w.players:
        panels = [m for m in p.dm_messages() if any(a.filename == "hand.png" for a in m.attachments)]
        edits = sum(m.edit_count for m in panels)
        rest = sum(len(m.rest_edits) for m in panels)
        assert edits >= 5 and rest <= 2, (p.name, edits, rest)
    calls = rest_calls(double)
    assert calls["free"] > 3 * calls["edits"], calls
    # the result and the match's end: follow-ups of the freshest press in the channel, not counted
    result, over = end_messages(w)
    assert result.webhook_id is not None and over.webhook_id is not None
    assert result.ephemeral_for is None and over.ephemeral_for is None  # everyone sees them
    assert any(b.get("label") for b in result.buttons())  # its buttons (replay, fair deal) came along
    by_bot_token = [m for m in w.channel.messages if m.author.id == double.bot.id and m.webhook_id is None]
    assert len(by_bot_token) == 1, [m.content[:40] for m in by_bot_token]  # the lobby alone (before any press)
    assert double.errors == []


async def test_an_expired_token_is_refused_once_and_the_bot_token_takes_over(double, start_bot, tmp_path):
    """Discord ends tokens after 2 s here, while the bot believes in 15 minutes: every token the bot holds
    runs out under it. Each is refused once, dropped, never tried again; the panels and the table message
    go on through the bot token, and the hand plays to its end."""
    double.token_ttl = 2.0
    w = await play_one_hand(double, start_bot, tmp_path)
    refused = [i for i in double.interactions.values() if i.expired_uses]
    assert refused, "some token was used after it expired"
    assert max(i.expired_uses for i in refused) == 1, [i.expired_uses for i in refused]
    assert all(st == 401 for *_, st in double.invalid_requests)
    (table,) = table_messages(w)
    assert len(table.rest_edits) >= 1  # the table message went on through the bot token
    assert any(len(m.rest_edits) for p in w.players for m in p.dm_messages())
    result, over = end_messages(w)  # the result and the match's end: refused as follow-ups, posted by the bot token
    assert result.webhook_id is None and over.webhook_id is None
    assert double.errors == []


async def test_a_follow_ups_429_has_the_bot_token_post_the_message_at_once(double, start_bot, tmp_path):
    """Every follow-up meets a 429 on its route (Discord's per-webhook limit): the table message, the result
    and the match's end are posted by the bot token at once, each once; no token is tried again and again
    (a 429 is an invalid request too: 10,000 in 10 minutes ban the bot's IP)."""
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob"], env=ENV)
    await open_table(w, computers=2)  # (the commands' own follow-ups answered before the storm)
    table = await w.players[0].wait_message(lambda m: any(a.filename == "table.png" for a in m.attachments),
                                            w.channel, timeout=30)
    assert table.webhook_id is not None  # the hand's table message came as the Start press's follow-up
    # from here on (a long retry_after: one wait would show), including the next hand's table message
    storm = double.rate_limit("POST /webhooks/{app_id}/{token}", times=None, retry_after=5.0)
    aps = [AutoPlayer(p, Style(claim="greedy")).start() for p in w.players]
    await wait_match_over(w, timeout=120)
    for ap in aps:
        ap.stopping = True
    await gather_players(aps)
    result, over = end_messages(w)
    assert result.webhook_id is None and over.webhook_id is None
    assert 1 <= storm.hits <= 2, storm.hits  # one try per message, never retried
    assert double.errors == []


async def test_a_token_near_its_end_is_not_used(double, start_bot, tmp_path):
    """The bot knows the tokens' life (here 3 s): it stops using one before its end, so Discord refuses none."""
    double.token_ttl = 3.0
    await play_one_hand(double, start_bot, tmp_path, env={"JXBOT_TOKEN_LIFE": "3"})
    assert double.invalid_requests == []
    assert double.request_count("PATCH /webhooks/*") > 0
