"""End to end: watching a running table (观战, docs/watch.md). A member who is not seated presses Watch on
the table message and follows the hand in a private view that is updated in place: every picture is the
channel's table picture of the public state a few moves back (byte for byte, rendered here from the stored
log), no text names a concealed tile, the view never shows the live move, and it says the table ended,
with the result, when it does. After a restart Refresh picks the table up again (or says it has ended);
a view whose token is about to run out says so and offers Refresh."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import (
    check_no_leak,
    check_png,
    events_of,
    gather_players,
    hand_states,
    hands_of,
    open_table,
    result_messages,
    start_world,
    wait_match_over,
)

pytestmark = pytest.mark.e2e

SHOWN_RE = re.compile(r"已显示 (\d+)/(\d+) 步|showing (\d+) of (\d+) moves")


def watch_views(player) -> list:
    return [m for m in player.ephemerals() if "👀" in m.content]


async def watch_view(double, player, timeout: float = 30.0):
    """The player's watch view, once there (the press's reply, or its followup when the bot was slow)."""
    return await double.wait_for(lambda: next(iter(watch_views(player)), None), timeout, "the watch view")


def is_table_message(m) -> bool:
    return any(b.get("label") == "观战" for b in m.buttons())


async def runner_seats(db) -> list[dict]:
    """The runner's seat fields (names, computers, balances) as the bot saved them with the running table."""
    from jxbot.store import Store

    store = await Store.open(str(db), scope=None)
    try:
        (rec,) = await store.running_tables()
    finally:
        await store.close()
    runner = rec.state["runner"]
    return [{"name": s["name"], "is_computer": s["is_computer"], "balance": b, "total": 0}
            for s, b in zip(runner["seats"], runner["balances"], strict=True)]


async def test_a_watcher_follows_the_delayed_public_table_to_its_end(double, start_bot, tmp_path):
    import render
    from jxbot.watch_view import MOVE_TYPES, delayed_public_view

    w = await start_world(double, start_bot, tmp_path, ["alice", "wendy"],
                          env={"JXBOT_CLAIM_WINDOW": "1", "JXBOT_COMPUTER_DELAY": "0.15", "JXBOT_WATCH_DELAY": "2"})
    alice, wendy = w.players
    await open_table(w, seated=[alice])
    table_msg = await wendy.wait_message(is_table_message, w.channel, timeout=30)
    act = await wendy.click(table_msg, label="观战")
    await act.response()
    assert not act.failed
    first = await watch_view(double, wendy)
    assert first.ephemeral_for == wendy.id and "只有你能看到" in first.content
    # no web companion here (no JXBOT_WEB_URL): no link button, only Refresh
    assert [b.get("label") for b in first.buttons()] == ["刷新观战"] and not any(b.get("url") for b in first.buttons())
    seats = await runner_seats(w.db)
    ap = AutoPlayer(alice, Style()).start()
    await wait_match_over(w)
    await gather_players([ap])
    (view,) = watch_views(wendy)
    # the view ends politely: the table ended, with the result, and no button is left on it
    ended = await double.wait_for(lambda: "观战也结束了" in view.content and not view.buttons(), 15, "the end shown")
    assert ended and ("胡" in view.content or "荒" in view.content), view.content

    (res,) = result_messages(w)  # nor a web link on the hand's result
    assert "回放" in [b.get("label") for b in res.buttons()] and not any(b.get("url") for b in res.buttons())
    (summary,) = await hands_of(w.db, w.guild.id, alice.id)
    events = await events_of(w.db, summary.hand_id)
    states = hand_states(events)
    from jxbot.game import events as ev

    evs = [ev.event_from_json(e) for e in events]
    moves = [i for i, e in enumerate(evs) if e.type in MOVE_TYPES]
    mine = w.recorder.private(wendy.id)
    assert mine and all(v.ephemeral_for == wendy.id for v in mine)  # nothing of it in public, nothing in DMs
    check_no_leak([v.text for v in mine], states)  # no text names a concealed tile
    pictures = shown = 0
    last_shown = -1
    for v in mine:
        m = SHOWN_RE.search(v.text)
        if m is None:
            continue
        k, n = int(m[1] or m[3]), int(m[2] or m[4])
        assert k <= max(0, n - 2), v.text  # two moves behind (the deal before that), the live move never shown
        assert k >= last_shown, "the view went back"
        last_shown = k
        if v.png is None:
            continue
        check_png(v.png)
        # the picture is the table picture of the public state after move k, byte for byte
        if k == 0:
            prefix = evs[: next(i for i, e in enumerate(evs) if e.type == "dealt") + 1]
        else:
            prefix = evs[: moves[k] + 1] if k < len(moves) else evs
        want = delayed_public_view(prefix, 1, seats=seats)
        assert want is not None and want["delayed"]["shown"] == k
        assert v.png == render.render_table(want, "zh"), f"the picture at move {k} is not the public table"
        pictures += 1
        shown += 1
    assert pictures >= 2, f"the view was updated in place only {pictures} times"
    assert len(moves) > 8


async def test_refresh_after_the_token_runs_out_and_after_a_restart(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "wendy"],
                          env={"JXBOT_COMPUTER_DELAY": "0.2", "JXBOT_WATCH_TOKEN_SECONDS": "8"})
    alice, wendy = w.players
    await open_table(w, seated=[alice])
    table_msg = await wendy.wait_message(is_table_message, w.channel, timeout=30)
    act = await wendy.click(table_msg, label="观战")
    await act.response()
    view = await watch_view(double, wendy)
    refresh = next(b["custom_id"] for b in view.buttons() if b.get("label") == "刷新观战")
    # the token runs out: the view says so politely and offers Refresh, and is no longer edited
    await double.wait_for(lambda: "⏸" in view.content, 40, "the view to say it stopped updating")
    assert "刷新观战" in view.content and [b["label"] for b in view.buttons()] == ["刷新观战"]
    edits = view.edit_count
    ap = AutoPlayer(alice, Style())
    for _ in range(3):
        await ap.step()
    await asyncio.sleep(2.5)
    assert view.edit_count == edits, "a view whose token ran out was edited"
    # Refresh: the same message follows the table again (a new token)
    again = await wendy.click(view, label="刷新观战")
    assert again.response_type in (6, 7) and not again.failed
    await double.wait_for(lambda: "👀" in view.content and "⏸" not in view.content, 10, "the view to follow again")
    await wendy.wait_edited(view, since=view.edit_count, timeout=40)
    assert view.image() is not None

    fresh = await wendy.click(view, label="刷新观战")  # a fresh token, so that the stop finds her watching
    assert not fresh.failed
    await w.bot.stop(timeout=30)  # SIGTERM (systemctl restart): the watchers are told, then forgotten
    assert "重启" in view.content and [b["label"] for b in view.buttons()] == ["刷新观战"], view.content
    await w.bot.start()
    await double.wait_for(lambda: double.gateway.identifies >= 2, 30, "the bot to come back")
    await alice.wait_message(lambda m: "重启" in m.content, w.channel, timeout=20)
    await w.bot.wait_log("ready: every table resumed", timeout=30)
    after = await wendy.click_stale(view, refresh)
    assert after.response_type in (6, 7) and not after.failed, after.texts()
    await double.wait_for(lambda: "已显示" in view.content, 10, "the view to follow the resumed table")
    n = view.edit_count
    ap.start()
    await wendy.wait_edited(view, since=n, timeout=40)  # followed again after the restart (drawing lanes start)
    await wait_match_over(w)
    await gather_players([ap])
    # the table has ended: Refresh says so
    gone = await wendy.click_stale(view, refresh)
    assert not gone.failed
    await double.wait_for(lambda: "不在进行" in view.content, 10, "the view to say the table is gone")
    assert not view.buttons()


async def test_watchers_cost_the_players_nothing_measurable(double, start_bot, tmp_path):
    """Two tables play at once on one bot: one with six watchers, one with none. The player at the watched
    table gets their own panel after a click as fast as the other (median within 1.5× + 40 ms)."""
    import dataclasses
    import statistics

    from tests.e2e.feel import Timeline, own_panel_ms
    from tests.e2e.players import Player

    timeline = Timeline(double)
    w = await start_world(double, start_bot, tmp_path, ["bob"],
                          env={"JXBOT_CLAIM_WINDOW": "1", "JXBOT_COMPUTER_DELAY": "0.2"})
    (bob,) = w.players
    ch2 = double.add_text_channel(w.guild, "mahjong-2")
    carol = Player.join(double, "carol", w.guild, ch2)
    w2 = dataclasses.replace(w, channel=ch2, players=[carol])
    await open_table(w, seated=[bob])
    await open_table(w2, seated=[carol])
    table_msg = await bob.wait_message(is_table_message, w.channel, timeout=30)
    watchers = [Player.join(double, f"watcher{i}", w.guild, w.channel) for i in range(6)]
    for p in watchers:
        act = await p.click(table_msg, label="观战")
        assert not act.failed
        await watch_view(double, p)
    t0 = time.monotonic()
    aps = [AutoPlayer(bob, Style(), think=0.2).start(), AutoPlayer(carol, Style(), think=0.2).start()]
    await wait_match_over(w)
    await carol.wait_message(lambda m: "牌局结束" in m.content, ch2, timeout=90)
    await gather_players(aps)
    watched = own_panel_ms(double, timeline, since=t0, users={bob.id})
    alone = own_panel_ms(double, timeline, since=t0, users={carol.id})
    assert len(watched) >= 5 and len(alone) >= 5, (watched, alone)
    mw, ma = statistics.median(watched), statistics.median(alone)
    assert mw <= 1.5 * ma + 40, f"click → own panel: {mw:.0f} ms with watchers, {ma:.0f} ms without"
    # and the watchers were served: each view was updated in place with the table's picture
    for p in watchers:
        (view,) = watch_views(p)
        assert view.image() is not None and view.edit_count >= 2, (p.name, view.edit_count)
