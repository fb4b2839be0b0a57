"""Issue 32, "a restart resumes every table": the windows where a kill leaves a table stored as running without
the runner state that names its hand in play (docs/table.md, "Restart windows"). Each test writes the store as
the kill leaves it, restarts the bot, and checks the table moves again: its hand resumed as dealt, or voided
(no silver moved, the players told) and dealt afresh — never a table that sits there."""

from __future__ import annotations

from jxbot.table import FakeClock

from .conftest import CHANNEL, GUILD, Harness, _shutdown, make_bot, restarted
from .test_play import ALICE, BOB, start_table


async def _first_bot(fake, monkeypatch, store) -> Harness:
    bot = await make_bot(fake, monkeypatch, store=store)
    cog = bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, 11
    return Harness(bot, fake)


async def _killed_with(store, table_id: str, runner_state) -> None:
    """Overwrite the table's stored state with what the kill left: its lobby table and ``runner_state``."""
    rec = next(r for r in await store.running_tables() if r.table_id == table_id)
    await store.save_table(table_id, rec.guild_id, rec.channel_id, rec.config,
                           {"bot_table": rec.state["bot_table"], "runner": runner_state})


def _hid(runner) -> str:
    return str(runner.state()["hand_id"])


async def _moves(h: Harness, runner, hand_id: str) -> None:
    """The table plays on: its hand ends and is paid, and the next one is played (Alice's turns time out)."""
    for _ in range(400):
        await h.advance(5.0)
        if runner.hands_played >= 2 or runner.finished:
            assert runner.match.results[0]["hand_id"] == hand_id
            return
    raise AssertionError(f"the table did not move: {runner.hands_played} hands, hand {_hid(runner)}")


async def test_a_first_hand_dealt_before_the_runner_state_was_saved_is_resumed_as_dealt(fake, monkeypatch, store):
    h1 = await _first_bot(fake, monkeypatch, store)
    table = await start_table(h1)
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    alice_tiles = runner1.view(0)["hand"]
    n_events = len(await store.hand_events(hand_id))
    await runner1.pause()
    await _shutdown(h1.bot)
    # the kill of the old window: the first hand dealt and stored, the runner's state not yet saved
    await _killed_with(store, table.id, None)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    t2 = h2.table()
    assert t2.session is not None and t2.session.runner.running, "a table that never moves"
    runner2 = t2.session.runner
    assert _hid(runner2) == hand_id and runner2.view(0)["hand"] == alice_tiles  # she keeps her deal
    assert len(await store.hand_events(hand_id)) == n_events
    stored = next(r for r in await store.running_tables() if r.table_id == table.id)
    assert stored.state["runner"]["hand_id"] == hand_id  # its state is saved at once
    assert any("重启" in (m.content or "") for m in fake.channel())
    before = await store.balance(GUILD, ALICE)
    await _moves(h2, runner2, hand_id)
    res = await store.hand_result(hand_id)
    assert res is not None and not res.result.get("void")
    assert await store.balance(GUILD, ALICE) == before + runner2.totals[0]  # each hand paid once
    assert await store.check() == []
    await _shutdown(bot2)


async def test_a_hand_dealt_before_the_state_naming_it_was_saved_is_resumed_not_dealt_again(
        fake, monkeypatch, store):
    h1 = await _first_bot(fake, monkeypatch, store)
    table = await start_table(h1, BOB)
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    tiles = [runner1.view(0)["hand"], runner1.view(1)["hand"]]
    state = runner1.state()
    await runner1.pause()
    await _shutdown(h1.bot)
    # the state saved before the deal (no hand in play yet), the hand itself stored
    await _killed_with(store, table.id, dict(state, hand_id=None))

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    runner2 = h2.table().session.runner
    assert runner2.running and _hid(runner2) == hand_id
    assert [runner2.view(0)["hand"], runner2.view(1)["hand"]] == tiles
    await _moves(h2, runner2, hand_id)
    assert await store.check() == []
    await _shutdown(bot2)


async def test_a_stored_hand_that_cannot_be_resumed_is_voided_and_the_table_deals_again(fake, monkeypatch, store):
    h1 = await _first_bot(fake, monkeypatch, store)
    table = await start_table(h1, BOB)
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    await runner1.pause()
    await _shutdown(h1.bot)
    before = {u: await store.balance(GUILD, u) for u in (ALICE, BOB)}
    house = await store.house_balance(GUILD)
    # killed with no runner state, and a hand the table cannot take over (its seats are not the table's)
    await store.create_hand("lost-1", GUILD, CHANNEL, "jiaxing", [BOB, ALICE, None, None], "-", table_id=table.id)
    await store.settle_hand(hand_id, GUILD, [ALICE, BOB, None, None],
                            __import__("jxbot.shell.suspend", fromlist=["x"]).VOID_SETTLEMENT,
                            {"void": True, "payments": []})
    await _killed_with(store, table.id, None)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    n_msgs = len(fake.channel())
    assert await cog2.resume_all() == 1
    await h2.settle()
    runner2 = h2.table().session.runner
    assert runner2.running, "a table that never moves"
    assert (await store.get_hand("lost-1")).status == "settled"
    res = await store.hand_result("lost-1")
    assert res.result["void"] is True and all(d == 0 for d in res.deltas)
    assert {u: await store.balance(GUILD, u) for u in (ALICE, BOB)} == before
    assert await store.house_balance(GUILD) == house
    told = [m.content or "" for m in fake.channel()[n_msgs:]]
    assert any("作废" in c and "重新发牌" in c for c in told), told
    new_hand = _hid(runner2)
    assert new_hand not in (hand_id, "lost-1", "None")
    assert (await store.get_hand(new_hand)).status == "running"
    assert await store.check() == []
    await _shutdown(bot2)


async def test_a_table_killed_before_its_first_deal_deals_after_the_restart(fake, monkeypatch, store):
    h1 = await _first_bot(fake, monkeypatch, store)
    table = await start_table(h1, BOB)
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    await runner1.pause()
    await _shutdown(h1.bot)
    from jxbot.shell.suspend import VOID_SETTLEMENT

    await store.settle_hand(hand_id, GUILD, [ALICE, BOB, None, None], VOID_SETTLEMENT, {"void": True, "payments": []})
    await _killed_with(store, table.id, None)  # as if killed after the start, before any deal

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    n_msgs = len(fake.channel())
    assert await cog2.resume_all() == 1
    await h2.settle()
    runner2 = h2.table().session.runner
    assert runner2.running and runner2.hand is not None and _hid(runner2) != hand_id
    assert runner2.view(0)["hand"]
    told = [m.content or "" for m in fake.channel()[n_msgs:]]
    assert any("重启" in c for c in told) and not any("作废" in c for c in told)
    await _shutdown(bot2)


async def test_a_table_whose_resume_fails_is_stopped_and_told_not_left_sitting(fake, monkeypatch, store):
    h1 = await _first_bot(fake, monkeypatch, store)
    table = await start_table(h1, BOB)
    runner1 = table.session.runner
    await runner1.pause()
    await _shutdown(h1.bot)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)

    async def unreadable(hand_id):
        raise OSError("disk I/O error")

    monkeypatch.setattr(store, "hand_events", unreadable)
    n_msgs = len(fake.channel())
    assert await cog2.resume_all() == 0
    await h2.settle()
    assert cog2.manager.get(table.id) is None  # its seats and its channel are free
    assert not [r for r in await store.running_tables() if r.table_id == table.id]
    assert any("无法继续" in (m.content or "") for m in fake.channel()[n_msgs:])
    await _shutdown(bot2)


async def _arranged(fake, monkeypatch, store, *, dm: bool = False, ruleset: str = "jiaxing", stake: int = 0,
                    lang: str = "zh", max_hands: int = 2):
    """An arranged table (a tournament's, a ranked match's): its match id is its table id."""
    from jxbot.shell import arranged

    bot = await make_bot(fake, monkeypatch, store=store)
    cog = bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay = FakeClock(), 0.0
    spec = arranged.Spec(key=f"t:gap/{dm}/{ruleset}", kind="test", guild_id=GUILD, channel_id=CHANNEL, dm=dm,
                         ruleset=ruleset, stake=stake, lang=lang,
                         seats=[arranged.Seat(ALICE, "alice"), arranged.Seat(BOB, "bob"),
                                arranged.Seat(None, "#1"), arranged.Seat(None, "#2")], max_hands=max_hands, secret="s")
    tid = await arranged.open_table(bot, spec)
    h = Harness(bot, fake)
    await h.settle()
    return h, cog.manager.get(tid)


async def test_a_second_kill_after_the_void_and_before_the_save_deals_under_a_new_id_not_the_void_hands(
        fake, monkeypatch, store):
    """A kill during the resume itself: the first hand of an arranged table (match id = its table id) was
    settled as void, the table's new runner state not yet saved. The next start deals a fresh first hand:
    under an id the void hand does not have (not a clash the store refuses, a table suspended for it)."""
    h1, table = await _arranged(fake, monkeypatch, store)
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    assert hand_id == f"{table.id}-1"
    await runner1.pause()
    await _shutdown(h1.bot)
    from jxbot.shell.suspend import VOID_SETTLEMENT, void_result

    # as the first resume's kill left it: the hand settled as void, the table still without runner state
    await store.settle_hand(hand_id, GUILD, list((await store.get_hand(hand_id)).seats), VOID_SETTLEMENT,
                            void_result(hand_id, table.id, "restart"))
    await _killed_with(store, table.id, None)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    n_msgs = len(fake.channel())
    assert await cog2.resume_all() == 1
    await h2.settle()
    t2 = cog2.manager.get(table.id)
    assert t2 is not None, [m.content for m in fake.channel()[n_msgs:]]
    runner2 = t2.session.runner
    assert runner2.running and runner2.hand is not None
    new_hand = _hid(runner2)
    assert new_hand != hand_id
    assert (await store.get_hand(new_hand)).status == "running"
    assert (await store.hand_result(hand_id)).result["void"] is True
    told = [m.content or "" for m in fake.channel()[n_msgs:]]
    assert not any("无法继续" in c for c in told), told
    assert any("作废" in c for c in told), told  # the cut-short resume may not have told them: told now
    await _moves(h2, runner2, new_hand)
    assert await store.check() == []
    await _shutdown(bot2)


async def test_a_resume_that_fails_on_a_stored_event_logs_no_tile_of_it(fake, monkeypatch, store, caplog):
    """A hand whose stored events this bot cannot read (an event type of a newer bot, after a rollback): the
    table is suspended, and no log line at any level (tracebacks included) repeats the event, which holds the
    tile a player drew."""
    import logging

    h1 = await _first_bot(fake, monkeypatch, store)
    table = await start_table(h1, BOB)
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    drawn = runner1.view(0)["hand"][-1]
    await runner1.pause()
    await _shutdown(h1.bot)
    n = len(await store.hand_events(hand_id))
    await store.append_event(hand_id, n, {"type": "drew_v9", "seat": 0, "tile": f"secret-{drawn}"})

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    caplog.set_level(logging.DEBUG, logger="jxbot")  # (the store's driver logs its SQL at DEBUG: not the bot's)
    n_msgs = len(fake.channel())
    assert await cog2.resume_all() == 0
    await h2.settle()
    assert cog2.manager.get(table.id) is None
    assert not any(store.held(GUILD, u) for u in (ALICE, BOB))  # the holds re-installed at the resume: released
    assert any("无法继续" in (m.content or "") for m in fake.channel()[n_msgs:])
    assert any("could not be resumed" in r.getMessage() for r in caplog.records)
    for r in [r for r in caplog.records if r.name.startswith("jxbot")]:
        assert f"secret-{drawn}" not in r.getMessage() and f"secret-{drawn}" not in (r.exc_text or "")
    assert not any(f"secret-{drawn}" in (m.content or "") for m in fake.channel())
    await _shutdown(bot2)


async def test_a_caishen_arranged_table_killed_before_its_runner_state_takes_its_first_hand_over(
        fake, monkeypatch, store):
    h1, table = await _arranged(fake, monkeypatch, store, ruleset="caishen")
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    tiles = [runner1.view(0)["hand"], runner1.view(1)["hand"]]
    await runner1.pause()
    await _shutdown(h1.bot)
    await _killed_with(store, table.id, None)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    runner2 = cog2.manager.get(table.id).session.runner
    assert runner2.running and _hid(runner2) == hand_id and runner2.match.ruleset.name == "caishen"
    assert [runner2.view(0)["hand"], runner2.view(1)["hand"]] == tiles
    await _moves(h2, runner2, hand_id)
    assert await store.check() == []
    await _shutdown(bot2)


async def test_a_dm_arranged_table_whose_hand_is_voided_tells_each_player_in_the_tables_language(
        fake, monkeypatch, store):
    """The void at a DM table (a tournament's in DMs): each human's DM is told, in English at an English table,
    with no tile in it; the fresh first hand does not reuse the void one's id (the table id is the match id)."""
    h1, table = await _arranged(fake, monkeypatch, store, dm=True, lang="en")
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    await runner1.pause()
    await _shutdown(h1.bot)
    # two open hands at the table (the kill left one the table cannot take over): both are voided
    await store.create_hand("lost-1", GUILD, table.channel_id, "jiaxing", [None] * 4, "-", table_id=table.id)
    await _killed_with(store, table.id, None)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    n_dms = {u: len(fake.dms(u)) for u in (ALICE, BOB)}
    assert await cog2.resume_all() == 1
    await h2.settle()
    runner2 = cog2.manager.get(table.id).session.runner
    assert runner2.running and _hid(runner2) not in (hand_id, "lost-1")
    for hid in (hand_id, "lost-1"):
        assert (await store.hand_result(hid)).result["void"] is True
    for u in (ALICE, BOB):
        told = [m.content or "" for m in fake.dms(u)[n_dms[u]:]]
        void = [c for c in told if "void" in c and "fresh deal" in c]
        assert len(void) == 1, told
        assert table.id in void[0] and not any(ch in void[0] for ch in "万筒条") and "<@" not in void[0]
    assert not fake.channel(CHANNEL)
    await _moves(h2, runner2, _hid(runner2))
    assert await store.check() == []
    await _shutdown(bot2)


async def test_the_hold_of_a_player_who_escaped_a_hand_voided_at_the_restart_is_released_with_the_void(
        fake, monkeypatch, store):
    """Bob left the first hand (an escape: his silver stays held until that hand is settled, for its penalty);
    the kill left no runner state and the hand cannot be taken over (its seats are no longer the table's). It is
    settled as void at the restart (no penalty): his silver is free then, not only after the next hand."""
    h1 = await _first_bot(fake, monkeypatch, store)
    table = await start_table(h1, BOB)
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    await h1.command(BOB, "mahjong leave")
    await h1.settle()
    assert BOB in table.escapers and store.held(GUILD, BOB) > 0 and not runner1.results
    await runner1.pause()
    await h1.bot.get_cog("TablesCog").save(table)
    await _shutdown(h1.bot)
    bob_before = await store.balance(GUILD, BOB)
    await _killed_with(store, table.id, None)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    runner2 = h2.table().session.runner
    assert runner2.running and _hid(runner2) != hand_id and not runner2.results
    assert (await store.hand_result(hand_id)).result["void"] is True
    assert await store.balance(GUILD, BOB) == bob_before  # no escape penalty for a void hand
    assert store.held(GUILD, BOB) == 0, "his silver is held for a hand that is settled"
    assert store.held(GUILD, ALICE) > 0  # she still sits
    assert await store.check() == []
    await _shutdown(bot2)


async def test_a_ranked_table_whose_first_hand_is_voided_at_the_restart_charges_no_fee_and_plays_on(
        fake, monkeypatch, store):
    """A ranked table (its fee and stake, its holds) killed with no runner state and a first hand it cannot
    take over: voided (no fee, no transfer), the holds kept for the seated players, the table deals again."""
    from jxbot.shell import ranked, ranked_ladder

    h1 = await _first_bot(fake, monkeypatch, store)
    cog1 = h1.bot.get_cog("TablesCog")
    cfg = await ranked_ladder.table_config(store, f"guild:{GUILD}", h1.bot.settings)
    assert cfg.fee > 0 and cfg.stake > 0
    opened = await ranked.open_table(cog1, GUILD, CHANNEL, [ranked.Entrant(ALICE, "alice"), ranked.Entrant(BOB, "bob")],
                                     cfg, computers=["normal", "normal"])
    table = opened.table
    assert table is not None and table.config.ranked
    await h1.settle()
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    await runner1.pause()
    await _shutdown(h1.bot)
    before = {u: await store.balance(GUILD, u) for u in (ALICE, BOB)}
    house = await store.house_balance(GUILD)
    await store.create_hand("lost-1", GUILD, CHANNEL, cfg.ruleset, [BOB, ALICE, None, None], "-", table_id=table.id)
    await _killed_with(store, table.id, None)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    t2 = cog2.manager.get(table.id)
    runner2 = t2.session.runner
    assert runner2.running and _hid(runner2) not in (hand_id, "lost-1")
    assert all(store.held(GUILD, u) == t2.hold > 0 for u in (ALICE, BOB))
    for hid in (hand_id, "lost-1"):
        res = await store.hand_result(hid)
        assert res.result["void"] is True and all(d == 0 for d in res.deltas) and res.house_delta == 0
    assert {u: await store.balance(GUILD, u) for u in (ALICE, BOB)} == before  # no fee for the void hands
    assert await store.house_balance(GUILD) == house
    await _moves(h2, runner2, _hid(runner2))
    first = runner2.match.results[0]
    paid = await store.hand_result(first["hand_id"])
    assert not paid.result.get("void")  # the fresh hand is paid (and once: store.check)
    assert await store.check() == []
    await _shutdown(bot2)


def _collect(monkeypatch) -> list[dict]:
    """The results handed on for arranged tables of kind "test" (what a tournament's round waits for)."""
    from jxbot.shell import arranged

    got: list[dict] = []

    async def handler(result: dict) -> None:
        got.append(result)

    monkeypatch.setitem(arranged._HANDLERS, "test", handler)
    return got


async def test_an_arranged_table_suspended_at_its_resume_hands_on_a_result_so_its_round_can_end(
        fake, monkeypatch, store):
    """An event's table whose resume fails is suspended: its record ends (nothing finished, every seat 0, marked
    stopped) and is handed on, instead of an open record the event waits for and reopens at every start into a
    table that fails again."""
    got = _collect(monkeypatch)
    h1, table = await _arranged(fake, monkeypatch, store)
    key = table.arranged["key"]
    runner1 = table.session.runner
    hand_id = _hid(runner1)
    await runner1.pause()
    await _shutdown(h1.bot)
    n = len(await store.hand_events(hand_id))
    await store.append_event(hand_id, n, {"type": "drew_v9", "seat": 0, "tile": "x"})  # unreadable: resume fails

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 0
    await h2.settle()
    assert cog2.manager.get(table.id) is None
    row = await store.arranged_get(key)
    assert row["status"] == "delivered" and row["result"]["stopped"] == "suspended"
    assert [r["key"] for r in got] == [key]
    assert got[0]["hands"] == 0 and [s["total"] for s in got[0]["seats"]] == [0, 0, 0, 0]
    await _shutdown(bot2)


async def test_an_arranged_table_stopped_by_an_admin_hands_on_its_result(fake, monkeypatch, store):
    """/admin close on an event's running table: the hand in play is void (no silver moves) and the table's
    result so far is handed on at once, marked stopped — the round was left waiting for a table that no longer
    exists."""
    from jxbot.shell import admin_tables

    got = _collect(monkeypatch)
    h, table = await _arranged(fake, monkeypatch, store, stake=10)
    runner = table.session.runner
    assert runner.running and runner.hands_played == 0
    cog = h.bot.get_cog("TablesCog")
    text = await admin_tables.close_by_admin(cog, GUILD, table.id, 999, "en")
    await h.settle()
    assert cog.manager.get(table.id) is None and text
    assert [r["stopped"] for r in got] == ["closed_by_admin"]
    assert got[0]["hands"] == 0 and [s["total"] for s in got[0]["seats"]] == [0, 0, 0, 0]
    assert (await store.arranged_get(table.arranged["key"]))["status"] == "delivered"
    assert not any(store.held(GUILD, u) for u in (ALICE, BOB))
    assert await store.check() == []
    await _shutdown(h.bot)
