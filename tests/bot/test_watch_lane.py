"""The watch lane (jxbot/shell/watch.py) paces the watchers' views: each watcher at most once per ``every``
seconds with the newest state, all of them within the budget, a token about to run out told so, and the
table's end shown once to each — with fake interactions and a fake picture, no Discord."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest

import jxbot.shell.watch as watch
from jxbot.config import Settings
from jxbot.shell.watch import TableWatch, Watcher, WatchLane
from tests.replay.helpers import played_hand


class FakeInteraction:
    def __init__(self, log: list) -> None:
        self.log = log

    async def edit_original_response(self, **kw) -> None:
        self.log.append((time.monotonic(), self, kw))


@pytest.fixture
def drawn(monkeypatch):
    pictures: list[dict] = []

    async def fake_render(kind, view, lang, urgent=False):
        assert kind == "table" and not urgent and "hand" not in view and "drawn" not in view
        pictures.append(view)
        return b"png"

    monkeypatch.setattr(watch, "render_async", fake_render)
    return pictures


def table_with_watchers(n: int, lane: WatchLane, events: list, log: list) -> TableWatch:
    bot = SimpleNamespace(settings=Settings(), watch_lane=lane)
    session = SimpleNamespace(bot=bot, runner=SimpleNamespace(hand=SimpleNamespace(events=events)),
                              table=SimpleNamespace(id="t1", lang="zh"))
    tw = TableWatch(session, 2)  # type: ignore[arg-type]
    for uid in range(n):
        tw.add(Watcher(uid, "zh", FakeInteraction(log), None, time.monotonic()))  # type: ignore[arg-type]
    return tw


async def test_each_watcher_paced_all_within_the_budget_and_the_end_shown_once(drawn):
    hand = played_hand(3)
    end = next(i for i, e in enumerate(hand.events) if e.type in ("won", "drawn_game"))
    lane = WatchLane(budget=20.0, token_seconds=600.0, every=0.3)
    log: list = []
    events = list(hand.events[:3])
    tw = table_with_watchers(4, lane, events, log)
    t0 = time.monotonic()
    for e in hand.events[3:end]:  # a fast table: a move every 10 ms, far faster than the watchers' pace
        events.append(e)
        await tw.notify({"seats": None, "phase": "turn", "hand_id": hand.hand_id}, None)
        await asyncio.sleep(0.01)
    await tw.on_match_end({"totals": [1, -1, 0, 0], "names": list("ABCD"), "computers": [False] * 4})
    for _ in range(200):
        if not tw.watchers:
            break
        await asyncio.sleep(0.05)
    elapsed = time.monotonic() - t0
    assert not tw.watchers, "every watcher was shown the end"
    per: dict[int, list] = {}
    for at, inter, kw in log:
        per.setdefault(id(inter), []).append((at, kw))
    assert len(per) == 4
    for edits in per.values():
        times = [at for at, _ in edits]
        assert all(b - a >= 0.3 - 0.02 for a, b in zip(times[:-1], times[1:-1], strict=False)), times  # paced
        assert edits[-1][1]["view"] is None and "观战也结束了" in edits[-1][1]["content"]  # the end, no button
        assert sum("观战也结束了" in kw["content"] for _, kw in edits) == 1
        assert all(kw["view"] is not None for _, kw in edits[:-1])  # Refresh on every view before the end
    assert len(log) <= 20.0 * elapsed + 2, "over the budget"
    assert len(drawn) < (end - 3) / 2, "a picture per state shown, not per move"


async def test_a_token_about_to_run_out_is_told_and_left_alone(drawn):
    hand = played_hand(3)
    lane = WatchLane(budget=0.0, token_seconds=0.5, every=0.1)
    log: list = []
    events = list(hand.events[:30])
    tw = table_with_watchers(1, lane, events, log)
    await asyncio.sleep(0.8)
    events.extend(hand.events[30:40])
    await tw.notify({"seats": None, "phase": "turn", "hand_id": hand.hand_id}, None)
    await asyncio.sleep(0.3)
    assert not tw.watchers
    assert "⏸" in log[-1][2]["content"] and log[-1][2]["view"] is not None
    assert sum("⏸" in kw["content"] for _, _, kw in log) == 1


async def test_a_server_sets_its_own_delay(harness):
    """/admin settings watch_delay: the server's delay wins over JXBOT_WATCH_DELAY; unset, the bot's applies."""
    import discord

    from jxbot.watch_view import delay_for

    from .conftest import GUILD

    h, fake = harness, harness.fake
    assert delay_for(Settings(watch_delay=3), await h.bot.store.get_guild_settings(GUILD)) == 3
    await h.command(101, "admin settings", member_perms=discord.Permissions(manage_guild=True), watch_delay=5)
    assert "watch_delay = 5" in fake.last_ephemeral(101)
    gs = await h.bot.store.get_guild_settings(GUILD)
    assert gs.watch_delay == 5 and delay_for(Settings(watch_delay=3), gs) == 5
    await h.command(101, "admin settings", member_perms=discord.Permissions(manage_guild=True), watch_delay=0)
    assert delay_for(Settings(), await h.bot.store.get_guild_settings(GUILD)) == 0  # applied as 1 (effective_delay)
