"""End to end: every component is bound to the message the bot sent it on (docs/bot.md, "Component
binding"). A custom id pressed on another message (a forged or replayed click: ``click_stale`` sends any id
on any message, as the double lets a client do) gets the polite stale answer and changes nothing: no seat
taken, no silver granted, no message edited."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.double import state as st
from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import gather_players, open_table, result_messages, said, start_world, wait_match_over

pytestmark = pytest.mark.e2e

STALE = "过期"  # bot.err.stale (zh-CN): "这个按钮已经过期了。"


def join_button(m) -> bool:
    return any(b.get("label") == "加入" for b in m.buttons())


def custom_id(m, prefix: str) -> str:
    return next(b["custom_id"] for b in m.buttons() if (b.get("custom_id") or "").startswith(prefix))


async def player_known(db, user_id: int) -> bool:
    from jxbot.store import Store

    store = await Store.open(str(db), scope=None)
    try:
        return await store.get_player(user_id) is not None
    finally:
        await store.close()


async def test_a_join_pressed_on_another_tables_lobby_seats_nobody(double, start_bot, tmp_path):
    """Mallory cannot see #back-room; Alice opens a table there. Mallory presses that table's Join id on
    Bob's lobby in #mahjong: not seated at the hidden table, and no starting silver granted."""
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "mallory"])
    alice, bob, mallory = w.players
    back = double.add_text_channel(w.guild, "back-room")
    double.deny_permissions(back, st.VIEW_CHANNEL, user_id=mallory.id)
    act = await alice.slash("麻将 开桌", channel=back, 底分=5)
    await act.settled()
    hidden = await alice.wait_message(join_button, back)
    await open_table(w, seated=[bob], start=False)
    lobby = w.lobby
    assert lobby is not None and lobby.channel_id != hidden.channel_id
    seen = (hidden.content, hidden.edit_count, lobby.content, lobby.edit_count)

    press = await mallory.click_stale(lobby, custom_id(hidden, "mj:join:"))
    assert STALE in await said(press), press.texts()
    await asyncio.sleep(1.0)  # a seat taken would show in the lobby within the edit interval
    assert (hidden.content, hidden.edit_count, lobby.content, lobby.edit_count) == seen
    assert str(mallory.id) not in hidden.content and "mallory" not in hidden.content.lower()
    assert not await player_known(w.db, mallory.id), "no starting silver for a seat never taken"
    # the id works where the bot put it: Bob (who can see #back-room) joins from the hidden lobby itself
    ok = await bob.click(hidden, label="加入")
    await ok.settled()
    assert not any(STALE in x for x in ok.texts()), ok.texts()


async def test_a_panel_button_pressed_on_the_table_message_changes_nothing(double, start_bot, tmp_path):
    """Alice's own discard and auto-win ids pressed on the public table message: the table message is not
    turned into her panel (no tiles, no seat buttons), and her hand does not move."""
    w = await start_world(double, start_bot, tmp_path, ["alice"])
    alice = w.players[0]
    await open_table(w, computers=0)
    ap = AutoPlayer(alice, Style())
    p = await double.wait_for(ap._ready, 30, "alice's first panel")  # East deals: she discards first
    table_msg = await alice.wait_message(lambda m: any(b.get("label") == "看我的牌" for b in m.buttons()),
                                         w.channel, timeout=10)
    discard = next(cid for verb, _, cid in p.actions if verb == "discard")
    autowin = custom_id(p.message, "mj:autowin:")
    for cid in (discard, autowin):
        press = await alice.click_stale(table_msg, cid)
        assert STALE in await said(press), press.texts()
    await asyncio.sleep(1.0)
    versions = [v for v in w.recorder.versions if v.message_id == table_msg.id]
    assert versions and all("你的手牌" not in v.text for v in versions), [v.text for v in versions]
    assert all(not (b.get("custom_id") or "").startswith(("mj:discard", "mj:autowin")) for b in table_msg.buttons())
    assert not any(a.filename == "hand.png" for a in table_msg.attachments)
    now = ap.panel()
    assert now is not None and now.key == p.key, "the hand did not move: nothing was discarded"
    assert "✓" not in " ".join(b.get("label") or "" for b in now.message.buttons()), "auto-win not switched on"
    ap.start()
    await wait_match_over(w)
    await gather_players([ap])


async def test_a_replay_viewer_button_pressed_on_another_message_changes_nothing(double, start_bot, tmp_path):
    """After a hand, Alice opens its replay. Her viewer's ▶ pressed on the public result message (by her),
    and on her viewer by Mallory: neither message changes."""
    w = await start_world(double, start_bot, tmp_path, ["alice", "mallory"])
    alice, mallory = w.players
    await open_table(w, seated=[alice])
    ap = AutoPlayer(alice, Style()).start()
    await wait_match_over(w)
    await gather_players([ap])
    res = result_messages(w)[0]
    opened = await alice.click(res, label="回放")
    await opened.settled()
    viewer = next(m for m in reversed(alice.ephemerals()) if "**回放**" in m.content)
    forward = custom_id(viewer, "mj:rp.2:")  # ▶
    seen = (res.content, res.edit_count, viewer.content, viewer.edit_count)

    mine = await alice.click_stale(res, forward)
    assert STALE in await said(mine), mine.texts()
    theirs = await mallory.click_stale(viewer, forward)
    assert STALE in await said(theirs), theirs.texts()
    goto = await mallory.click_stale(res, custom_id(viewer, "mj:rpgo:"))
    assert STALE in await said(goto) and goto.modal is None, goto.texts()
    await asyncio.sleep(0.5)
    assert (res.content, res.edit_count, viewer.content, viewer.edit_count) == seen
    # on her own viewer the same id steps the replay
    step = await alice.click(viewer, custom_id=forward)
    await step.response()
    await double.wait_for(lambda: viewer.edit_count > seen[3] or None, 15, "the viewer to step")
