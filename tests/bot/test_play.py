"""Play through Discord: DM panels, discard and claim buttons, bad presses, closed DMs, escape, a whole hand."""

import asyncio
import copy

import pytest

from jxbot.custom_ids import parse_custom_id
from jxbot.rules.tiles import tile_name
from jxbot.table import FakeClock

from .conftest import GUILD

ALICE, BOB, MALLORY = 101, 102, 666


@pytest.fixture
async def game(harness):
    cog = harness.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = 7
    return harness


async def start_table(h, *players):
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = next(m for m in h.fake.channel() if m.buttons)
    for p in players:
        await h.click(p, lobby, "加入")
    await h.click(ALICE, lobby, "开始")
    return h.table()


def panel(fake, user):
    dms = fake.dms(user)
    assert dms, "no DM"
    return dms[-1]


def discard_buttons(msg):
    return [b for b in msg.buttons if parse_custom_id(b["custom_id"]).verb == "discard"]


async def test_start_sends_panel_and_table_message(game):
    h, fake = game, game.fake
    table = await start_table(h)
    runner = table.session.runner
    view = runner.view(0)
    p = panel(fake, ALICE)
    assert len(fake.dms(ALICE)) == 1  # the sit notice became the panel: edited, not a new DM
    assert p.attachments == ["hand.png"]
    # one button per distinct tile, labelled like 5m (Alice's locale is en-US), the 百搭 marked
    tiles = set(view["hand"]) | ({view["drawn"]} if view["drawn"] is not None else set())
    labels = [b["label"] for b in discard_buttons(p)]
    assert len(labels) == len(tiles)
    assert {lab.lstrip("★") for lab in labels} == {tile_name(x, "en") for x in tiles}
    assert any(b["label"].startswith("Auto-win") for b in p.buttons)
    # the table message: image + status with a relative-timestamp countdown, no hand tiles
    tm = next(m for m in fake.channel() if m.attachments == ["table.png"])
    assert f"<t:{int(view['deadline'])}:R>" in tm.content
    assert "看我的牌" in [b["label"] for b in tm.buttons]
    hand_text = " ".join(tile_name(x, "zh") for x in view["hand"])
    assert hand_text not in tm.content


async def test_discard_button_edits_panel_in_place(game):
    h, fake = game, game.fake
    table = await start_table(h)
    runner = table.session.runner
    p = panel(fake, ALICE)
    edits = p.edits
    b = discard_buttons(p)[0]
    tile = parse_custom_id(b["custom_id"]).arg
    before = runner.hand.view(0)
    n_before = (before["hand"] + [before["drawn"]]).count(tile)
    iid = await h.click(ALICE, p, custom_id=b["custom_id"])
    # the press is answered with the new panel itself (type 7, picture included): Alice sees it at once
    assert fake.callback_types(iid) == [7]
    cb = next(c for c in fake.callbacks if c["id"] == iid)
    assert "Your hand" in cb["data"]["content"] and cb["data"].get("attachments"), cb["data"]
    discards = runner.hand.public_view()["seats"][0]["discards"]
    assert discards[0]["tile"] == tile
    after = runner.hand.view(0)
    assert (after["hand"] + ([after["drawn"]] if after["drawn"] is not None else [])).count(tile) == n_before - 1
    assert len(fake.dms(ALICE)) == 1 and p.edits > edits  # same message, edited
    # the other seats' moves do not re-send Alice's panel when nothing she sees changed
    ds = table.session.seats[0]
    assert ds.notified >= 4 and p.edits - edits < ds.notified - 1


async def test_stale_foreign_and_double_presses_change_nothing(game):
    h, fake = game, game.fake
    table = await start_table(h)
    runner = table.session.runner
    p = panel(fake, ALICE)
    old = p.payload()  # the panel as it was (buttons with the current nonce)
    b1, b2 = discard_buttons(p)[:2]
    # someone else presses Alice's button
    await h.click(MALLORY, p, custom_id=b1["custom_id"])
    assert "another player" in fake.last_ephemeral(MALLORY)
    assert runner.hand.public_view()["seats"][0]["discards"] == []
    # a double press: two presses dispatched before either is handled
    p1 = h._base(ALICE, locale="en-US", channel_id=p.channel_id, guild=False, perms=__import__("discord").Permissions.all())
    p2 = h._base(ALICE, locale="en-US", channel_id=p.channel_id, guild=False, perms=__import__("discord").Permissions.all())
    for pl, b in ((p1, b1), (p2, b2)):
        fake.ephemeral_of[pl["token"]] = ALICE
        fake._message_of[pl["token"]] = p.id
        pl.update(type=3, message=old, data={"custom_id": b["custom_id"], "component_type": 2})
    before = asyncio.all_tasks()
    h.bot._connection.parse_interaction_create(p1)
    h.bot._connection.parse_interaction_create(p2)
    await h.settle(before)
    discards = runner.hand.public_view()["seats"][0]["discards"]
    assert len(discards) == 1  # only one of the two was taken
    assert fake.ephemerals(ALICE), "the other press was told why"
    # a stale button (from the panel as it was before) is refused
    n_eph = len(fake.ephemerals(ALICE))
    stale = type(p)(p.id, p.channel_id, old["content"], old["components"], [])  # the client's old copy
    await h.click(ALICE, stale, custom_id=b2["custom_id"])
    assert len(fake.ephemerals(ALICE)) == n_eph + 1 and "expired" in fake.last_ephemeral(ALICE)
    assert len(runner.hand.public_view()["seats"][0]["discards"]) == 1


async def test_autowin_button_toggles(game):
    h, fake = game, game.fake
    table = await start_table(h)
    p = panel(fake, ALICE)
    iid = await h.click(ALICE, p, prefix="mj:autowin:")
    assert fake.callback_types(iid) == [7]  # the switch shows ✓ in the press's own response
    assert "on" in fake.last_ephemeral(ALICE)
    assert table.session.runner.seats[0].autowin is True
    assert any(b["label"] == "Auto-win ✓" for b in panel(fake, ALICE).buttons)
    await h.command(ALICE, "mahjong autowin")
    assert table.session.runner.seats[0].autowin is False


async def test_closed_dms_get_an_ephemeral_panel_that_works(game):
    h, fake = game, game.fake
    fake.dm_closed.add(ALICE)
    table = await start_table(h)
    runner = table.session.runner
    assert any("私信" in (m.content or "") for m in fake.channel())
    tm = next(m for m in fake.channel() if m.attachments == ["table.png"])
    await h.click(ALICE, tm, "看我的牌")
    eph = fake.ephemerals(ALICE)[-1]
    assert eph.attachments == ["hand.png"] and discard_buttons(eph)
    b = discard_buttons(eph)[0]
    await h.click(ALICE, eph, custom_id=b["custom_id"])
    assert runner.hand.public_view()["seats"][0]["discards"][0]["tile"] == parse_custom_id(b["custom_id"]).arg
    assert eph.edits >= 1  # the ephemeral panel itself was updated
    # someone not seated gets told so
    await h.click(MALLORY, tm, "看我的牌")
    assert "not at this table" in fake.last_ephemeral(MALLORY)


async def test_claim_buttons_and_pass(game):
    """Alice discards her drawn tile each turn until a discard can be claimed; the claim buttons
    (胡/杠/碰/吃/过) appear for the window, and 过 closes it for her."""
    h, fake = game, game.fake
    table = await start_table(h)
    runner = table.session.runner
    for _ in range(60):
        p = panel(fake, ALICE)
        verbs = {parse_custom_id(b["custom_id"]).verb for b in p.buttons}
        if "pass" in verbs:
            break
        assert runner.hand.phase != "ended", "the hand ended before a claim"
        view = runner.view(0)
        tile = view["drawn"] if view["drawn"] is not None else view["hand"][-1]
        ids = [b["custom_id"] for b in discard_buttons(p) if parse_custom_id(b["custom_id"]).arg == tile]
        await h.click(ALICE, p, custom_id=ids[0])
    else:
        pytest.fail("no claim offered in 60 turns")
    legal = {a["type"] for a in runner.view(0)["actions"]}
    assert verbs - {"autowin"} == legal
    assert "Pass" in [b["label"] for b in p.buttons]
    n_events = len(runner.hand.events)
    shown = copy.deepcopy(p)  # the panel as Alice's client still shows it
    await h.click(ALICE, p, "Pass")
    answered = [e for e in runner.hand.events[n_events:] if type(e).__name__ == "ClaimAnswered"]
    assert answered and answered[0].seat == 0 and answered[0].action == "pass"
    # the same 过 pressed again is refused: its window is gone
    await h.click(ALICE, shown, "Pass")
    assert "expired" in fake.last_ephemeral(ALICE)


async def test_leave_during_a_hand_is_an_escape(game):
    h, fake = game, game.fake
    table = await start_table(h)
    await h.command(ALICE, "mahjong leave")
    assert "escape" in fake.last_ephemeral(ALICE)
    runner = table.session.runner
    assert runner.seats[0].left
    # the computer finished the hand for her; she was the last human, so the table closed after it
    assert len(runner.results) == 1
    assert any(m.attachments == ["result.png"] for m in fake.channel())
    assert h.bot.get_cog("TablesCog").manager.tables == {}
    assert await h.bot.store.balance(GUILD, ALICE) < 1000  # charged: the fee plus her seat's loss
    assert await h.bot.store.check() == []


async def test_whole_hand_result_posted_and_paid(game):
    h, fake = game, game.fake
    table = await start_table(h)
    runner = table.session.runner
    store = h.bot.store
    assert await store.balance(GUILD, ALICE) == 1000
    runner.config.max_hands = 1  # a one-hand match
    await runner.set_auto(0, True)  # a computer plays Alice's seat; the hand runs to its end
    await h.settle()
    assert runner.results, "the hand did not finish"
    assert any("牌局结束" in (m.content or "") for m in fake.channel())  # the match-over message
    res = next(m for m in fake.channel() if m.attachments == ["result.png"])
    delta = runner.results[0]["payments"][0]["delta"]
    assert await store.balance(GUILD, ALICE) == 1000 + delta
    assert f"{delta:+d}" in res.content
    assert await store.check() == []
    # /history lists the hand with its result picture
    await h.command(ALICE, "history")
    eph = fake.ephemerals(ALICE)[-1]
    assert f"{delta:+d}" in eph.content and eph.attachments == ["hand-1.png"]


async def test_next_button_deals_the_next_hand_at_once(game):
    h, fake = game, game.fake
    table = await start_table(h)
    runner = table.session.runner
    runner.config.max_hands = 2
    runner.config.between_hands = 600.0  # a long pause (the fake clock does not move by itself)
    await runner.set_auto(0, True)
    await h.settle()
    assert len(runner.results) == 1 and not runner.hand_running  # waiting between hands
    await runner.set_auto(0, False)
    res = next(m for m in fake.channel() if m.attachments == ["result.png"])
    await h.click(MALLORY, res, "下一局")
    assert "not at this table" in fake.last_ephemeral(MALLORY)
    await h.click(ALICE, res, "下一局")
    assert runner.hand_running and runner.hand.public_view()["hand_number"] == 2
    await h.click(ALICE, res, "下一局")  # the result of a hand already left behind
    assert "expired" in fake.last_ephemeral(ALICE)


async def test_panel_says_when_a_computer_plays_for_you(game):
    h, fake = game, game.fake
    h.bot.get_cog("TablesCog").computer_delay = 1.0  # computers take a (fake) second per move
    table = await start_table(h)
    runner = table.session.runner
    for _ in range(40):  # Alice lets her turns time out; after two in a row a computer takes over
        if runner.seats[0].auto:
            break
        await h.advance(5.0)
    assert runner.seats[0].auto and runner.hand_running
    assert "computer is playing for you" in panel(fake, ALICE).content
    # pressing a button takes the seat back (catch her turn before the computer moves for her)
    for _ in range(100):
        if discard_buttons(panel(fake, ALICE)):
            break
        await h.advance(0.25)
    p = panel(fake, ALICE)
    await h.click(ALICE, p, custom_id=discard_buttons(p)[0]["custom_id"])
    assert not runner.seats[0].auto
    assert "computer is playing for you" not in panel(fake, ALICE).content


async def test_store_failure_stops_the_table_and_says_so(game, monkeypatch):
    h, fake = game, game.fake
    table = await start_table(h)

    async def broken(*a, **kw):
        raise OSError("disk full")

    monkeypatch.setattr(h.bot.store, "append_event", broken)
    monkeypatch.setattr(h.bot.store, "append_events", broken)  # a move of several events goes in one write
    p = panel(fake, ALICE)
    await h.click(ALICE, p, custom_id=discard_buttons(p)[0]["custom_id"])
    assert "stopped because of an error" in fake.last_ephemeral(ALICE)  # no traceback for the player
    await h.settle()
    assert not table.session.runner.running
    assert any(f"牌桌 {table.id} 出了错" in (m.content or "") for m in fake.channel())  # suspended: seats free
    assert h.bot.get_cog("TablesCog").manager.in_channel(table.channel_id) is None


async def test_claim_button_press_is_taken(game):
    """When Alice may 碰/吃/杠/胡 a discard, pressing that button answers the window with that claim."""
    h, fake = game, game.fake
    table = await start_table(h)
    runner = table.session.runner
    claim = None
    for _ in range(80):
        if runner.hand.phase == "ended":
            break
        p = panel(fake, ALICE)
        cids = [parse_custom_id(b["custom_id"]) for b in p.buttons]
        claim = next((c for c in cids if c.verb in ("hu", "peng", "gang", "chi")), None)
        if claim is not None:
            break
        if "pass" in {c.verb for c in cids}:
            await h.click(ALICE, p, "Pass")
            continue
        view = runner.view(0)
        tile = view["drawn"] if view["drawn"] is not None else view["hand"][-1]
        ids = [b["custom_id"] for b in discard_buttons(p) if parse_custom_id(b["custom_id"]).arg == tile]
        await h.click(ALICE, p, custom_id=ids[0])
    assert claim is not None, "no claim offered"
    n_events = len(runner.hand.events)
    await h.click(ALICE, panel(fake, ALICE), custom_id=str(claim))
    events = [e.to_json() for e in runner.hand.events[n_events:]]
    answered = [e for e in events if e.get("seat") == 0 and e.get("action") == claim.verb]
    took = [e for e in events if e.get("seat") == 0 and e.get("type") in ("claimed", "won")]
    assert answered or took, events[:5]


async def test_a_refused_action_is_told_in_words_not_as_a_code(game):
    # a press the game refuses for a reason of its own (a tile not held: a forged or replayed id with the
    # current nonce) is answered in the player's language, never as the engine's code "tile_not_held"
    import dataclasses

    h, fake = game, game.fake
    table = await start_table(h)
    runner = table.session.runner
    p = panel(fake, ALICE)
    cid = parse_custom_id(discard_buttons(p)[0]["custom_id"])
    view = runner.view(0)
    held = set(view["hand"]) | {view["drawn"]}
    missing = next(x for x in range(34) if x not in held)
    for locale, want in (("en-US", "You do not hold that tile."), ("zh-CN", "你手里没有这张牌。")):
        await h.click(ALICE, p, custom_id=str(dataclasses.replace(cid, arg=missing)), locale=locale)
        text = fake.last_ephemeral(ALICE)
        assert want in text and "tile_not_held" not in text, text
    assert runner.hand.public_view()["seats"][0]["discards"] == []
