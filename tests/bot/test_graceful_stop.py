"""The graceful stop (docs/bot.md, "Stopping: the graceful stop"): on SIGTERM the gate closes again, the
presses being handled finish and answer, the tables pause and are saved, the pending edits go out; what
still fails on the closed HTTP session afterwards is one INFO line, never an ERROR with a traceback."""

import asyncio
import json
import logging

from jxbot.custom_ids import parse_custom_id
from jxbot.edit_coalescer import EditCoalescer
from jxbot.table import FakeClock

from .conftest import CHANNEL, Msg

ALICE, BOB = 101, 102
RESTARTING = "The bot is restarting: try again in a few seconds."


async def _table(h):
    cog = h.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = 7
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = next(m for m in h.fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    return h.table(), lobby


async def test_a_press_being_handled_at_the_stop_is_answered_and_stored_and_the_table_saved(harness, store, caplog):
    h, fake = harness, harness.fake
    table, _ = await _table(h)
    runner = table.session.runner
    panel = fake.dms(ALICE)[-1]
    button = next(b for b in panel.buttons if parse_custom_id(b["custom_id"]).verb == "discard")
    tile = parse_custom_id(button["custom_id"]).arg
    submit = runner.submit

    async def slow_submit(seat, action):  # a loaded bot: the press is still being handled when SIGTERM comes
        await asyncio.sleep(0.3)
        return await submit(seat, action)
    runner.submit = slow_submit
    pressing = asyncio.ensure_future(h.click(ALICE, panel, custom_id=button["custom_id"]))
    for _ in range(20):
        await asyncio.sleep(0)
    caplog.set_level(logging.INFO)
    await h.bot.stop_gracefully()
    iid = await pressing
    assert fake.callback_types(iid) == [7], "the press was answered with its new panel"
    (hand,) = await store.open_hands()
    events = await store.hand_events(hand.hand_id)
    assert {"type": "discarded", "seat": 0, "tile": tile} in events, "the press is in the store"
    assert not runner.running, "the table paused"
    rec = next(r for r in await store.running_tables() if r.table_id == table.id)
    state = rec.state if isinstance(rec.state, dict) else json.loads(rec.state)
    assert state["runner"] == json.loads(json.dumps(runner.state())), "the table saved as it paused"
    assert state["runner"]["hand_id"] == hand.hand_id
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_during_a_stop_a_press_or_a_command_is_told_to_try_again(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = next(m for m in h.fake.channel() if m.buttons)
    h.bot.gate.stopping = True  # the gate is closed again (stop_gracefully's first step)
    await h.click(BOB, lobby, "加入")
    assert fake.last_ephemeral(BOB) == RESTARTING
    assert h.table().seat_of(BOB) is None, "nothing was taken"
    await h.command(BOB, "balance")
    assert fake.last_ephemeral(BOB) == RESTARTING
    await h.command(BOB, "mahjong status", locale="zh-CN", channel_id=CHANNEL)
    assert "重启" in fake.last_ephemeral(BOB)


async def test_an_answer_cut_by_the_closed_session_during_a_stop_is_one_info_line(harness, caplog):
    h, fake = harness, harness.fake
    stop_begins = False

    async def cut(interaction, cid):  # a handler whose answer runs into aiohttp's closed session
        if stop_begins:
            h.bot.gate.stopping = True  # the stop began while the press was handled, and its time ran out
        raise RuntimeError("Session is closed")
    h.bot.register_button("cut", cut)
    msg = Msg(1, CHANNEL, "x", [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "?", "custom_id": "mj:cut:abc:0:0"}]}], [])
    fake.messages[1] = msg
    caplog.set_level(logging.INFO)
    await h.click(ALICE, msg, "?")  # outside a stop: an error, with its traceback, and the presser is told
    assert [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    assert "Something went wrong" in fake.last_ephemeral(ALICE)
    caplog.clear()
    before = len(fake.ephemerals(ALICE))
    stop_begins = True
    await h.click(ALICE, msg, "?")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    infos = [r for r in caplog.records if "the bot is stopping" in r.getMessage()]
    assert len(infos) == 1 and infos[0].levelno == logging.INFO and not infos[0].exc_info
    assert len(fake.ephemerals(ALICE)) == before, "no 'something went wrong' reply"


async def test_the_coalescer_sends_what_is_pending_at_a_stop_then_nothing_and_a_cut_edit_is_info(caplog):
    co = EditCoalescer(interval=5.0)
    sent: list[str] = []

    def edit(what):
        async def fn():
            sent.append(what)
        return fn
    co.submit("m", edit("a"))
    await asyncio.sleep(0.01)
    co.submit("m", edit("b"))  # waits out the 5 s interval
    assert await co.drain(2.0) == 0  # a stop does not wait the interval: the newest state goes out
    assert sent == ["a", "b"]
    co.submit("m", edit("c"))
    await asyncio.sleep(0.01)
    assert sent == ["a", "b"], "nothing is sent once stopped"

    caplog.set_level(logging.INFO)
    co2 = EditCoalescer(interval=0.0)

    async def closed():
        raise RuntimeError("Session is closed")
    co2.closing = True
    co2.submit("panel", closed)
    await co2.flush()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r for r in caplog.records if r.levelno == logging.INFO and "not sent, the bot is stopping" in r.getMessage()]
