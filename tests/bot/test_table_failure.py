"""A table whose runner fails does not keep its channel and its players hostage: suspended in the store
(events kept), the channel told, the seats free, a new table opens there, leaving charges nothing; at the
next start the suspended hand is settled as void with no silver moved."""

from __future__ import annotations

import sqlite3

from jxbot.table import FakeClock

from .conftest import GUILD, Harness, _shutdown, make_bot
from .test_play import ALICE, BOB, discard_buttons, panel, start_table


async def _bot(fake, monkeypatch, store):
    bot = await make_bot(fake, monkeypatch, store=store)
    cog = bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, 7
    return Harness(bot, fake), cog


async def test_a_failed_runner_suspends_the_table_frees_the_seats_and_the_restart_voids_the_hand(
        fake, monkeypatch, store):
    h, cog = await _bot(fake, monkeypatch, store)
    table = await start_table(h, BOB)
    tid = table.id
    runner = table.session.runner
    hand_id = runner.state()["hand_id"]
    assert hand_id
    before = {u: await store.balance(GUILD, u) for u in (ALICE, BOB)}
    house_before = await store.house_balance(GUILD)
    n_events = len(await store.hand_events(hand_id))

    real_append, real_append_many = store.append_event, store.append_events

    async def broken(*args, **kw):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "append_event", broken)  # the store fails under the running table
    monkeypatch.setattr(store, "append_events", broken)  # (a move of several events goes in one write)
    assert 0 in runner.hand.pending()  # Alice's turn
    p = panel(fake, ALICE)
    await h.click(ALICE, p, custom_id=discard_buttons(p)[0]["custom_id"])
    await h.settle()
    monkeypatch.setattr(store, "append_event", real_append)
    monkeypatch.setattr(store, "append_events", real_append_many)

    # the channel is told in plain words
    said = [m.content or "" for m in fake.channel()]
    assert any(f"牌桌 {tid} 出了错" in c and "没有人输赢银子" in c for c in said), said
    # each player's panel says so and has no button left to press
    for user in (ALICE, BOB):
        p = panel(fake, user)
        assert f"Table {tid} stopped on an error" in (p.content or "") and p.buttons == [], p.content
    # the store: closed, marked suspended with the hand, its events kept
    assert not await store.running_tables()
    row = sqlite3.connect(store.path).execute("SELECT status, json_extract(state, '$.suspended.hand_id'), "
                                               "json_extract(state, '$.suspended.error') FROM tables "
                                               "WHERE table_id = ?", (tid,)).fetchone()
    assert row == ("closed", hand_id, "TableError")
    assert len(await store.hand_events(hand_id)) == n_events
    (note,) = await store.suspended_tables()  # what `jxbot store info` lists for the operator
    assert (note["table_id"], note["hand_id"], note["error"]) == (tid, hand_id, "TableError")
    assert (await store.get_hand(hand_id)).status == "running"  # suspended, not settled yet

    # the seats are free: leaving charges nothing, Bob can open a new table in the same channel
    await h.command(ALICE, "mahjong leave")
    assert fake.last_ephemeral(ALICE) == "You are not at this table."
    await h.command(BOB, "mahjong create", stake=1)
    assert fake.last_ephemeral(BOB) == "Table created."
    new = cog.manager.in_channel(table.channel_id)
    assert new is not None and new.id != tid and new.seat_of(BOB) == 0
    assert {u: await store.balance(GUILD, u) for u in (ALICE, BOB)} == before
    await _shutdown(h.bot)

    # the next start settles the suspended hand as void: no silver moved, the books balance
    h2, cog2 = await _bot(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1  # Bob's lobby comes back; the failed table does not
    await h2.settle()
    assert [t.id for t in cog2.manager.tables.values()] == [new.id]
    rec = await store.get_hand(hand_id)
    assert rec.status == "settled"
    res = await store.hand_result(hand_id)
    assert res.result["void"] is True and all(d == 0 for d in res.deltas)
    assert {u: await store.balance(GUILD, u) for u in (ALICE, BOB)} == before
    assert await store.house_balance(GUILD) == house_before
    assert await store.check() == []
    assert any("已作废" in (m.content or "") for m in fake.channel())
    # and a third start has nothing left to void
    await _shutdown(h2.bot)
    h3, cog3 = await _bot(fake, monkeypatch, store)
    n_msgs = len(fake.channel())
    await cog3.resume_all()
    await h3.settle()
    assert not any("已作废" in (m.content or "") for m in fake.channel()[n_msgs:])
    await _shutdown(h3.bot)


async def test_when_even_the_suspension_cannot_be_stored_the_next_start_voids_nothing_on_a_guess(
        fake, monkeypatch, store):
    """The store still says the failed table runs, and a new table took its channel and a player. Which of
    the two is abandoned is not provable from the store (issue 24: a table opened in a restart window
    looked just like this and voided the running hand), so nothing is voided: the newer table resumes,
    the older one is left for an operator, no silver moves."""
    h, cog = await _bot(fake, monkeypatch, store)
    table = await start_table(h, BOB)
    tid, hand_id = table.id, table.session.runner.state()["hand_id"]
    before = {u: await store.balance(GUILD, u) for u in (ALICE, BOB)}

    async def broken(*args, **kw):
        raise sqlite3.OperationalError("database or disk is full")

    saved = {name: getattr(store, name) for name in ("append_event", "append_events", "save_table", "close_table")}
    for name in saved:  # the disk is full: nothing about the failure reaches the store
        monkeypatch.setattr(store, name, broken)
    p = panel(fake, ALICE)
    await h.click(ALICE, p, custom_id=discard_buttons(p)[0]["custom_id"])
    await h.settle()
    for name, fn in saved.items():
        monkeypatch.setattr(store, name, fn)
    assert [r.table_id for r in await store.running_tables()] == [tid]  # the store still thinks it runs
    assert any(f"牌桌 {tid} 出了错" in (m.content or "") for m in fake.channel())
    # the disk has room again; Bob opens a new table in the same channel and sits Alice
    await h.command(BOB, "mahjong create", stake=1)
    new = cog.manager.in_channel(table.channel_id)
    lobby = [m for m in fake.channel() if m.buttons and new.id in (m.content or "")][-1]
    await h.click(ALICE, lobby, "加入")
    assert new.seat_of(ALICE) is not None
    await _shutdown(h.bot)

    h2, cog2 = await _bot(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    assert [t.id for t in cog2.manager.tables.values()] == [new.id]  # not two tables in one channel
    assert (await store.get_hand(hand_id)).status == "running"  # not voided on a guess
    assert {u: await store.balance(GUILD, u) for u in (ALICE, BOB)} == before
    assert await store.check() == []
    await _shutdown(h2.bot)
