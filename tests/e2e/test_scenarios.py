"""jxbot end to end: the real bot process (``jxbot run``) against the local Discord double, played by
scripted players. Each test is a scenario a player or an operator would recognise; see docs/e2e.md."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.players import AutoPlayer, Style, choose
from tests.e2e.scenario import (
    check_no_leak,
    check_panels,
    check_png,
    events_of,
    find_seed,
    gather_players,
    hand_states,
    hands_of,
    open_hand_ids,
    open_table,
    payments,
    result_messages,
    said,
    start_world,
    store_check,
    wait_match_over,
)

pytestmark = pytest.mark.e2e

GREEDY = Style(claim="greedy")


async def test_four_players_play_a_match_to_the_end(double, start_bot, tmp_path):
    # a seed where the first hand is won (the scripted players claim what they can)
    seed, expected = find_seed(lambda h: h.result is not None and h.result.winner is not None, [GREEDY] * 4, hint=4)
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "carol", "dave"],
                          env={"JXBOT_TEST_SEED": str(seed)})
    await open_table(w)
    aps = [AutoPlayer(p, GREEDY).start() for p in w.players]
    over = await wait_match_over(w)
    await gather_players(aps)

    # the result: one message, the winner expected from the seed, payments that add up
    results = result_messages(w)
    assert len(results) == 1
    winner = w.players[expected.result.winner]
    assert results[0].content.startswith(f"{winner.name} 胡了"), results[0].content
    pays = payments(results[0])
    assert set(pays) == {p.name for p in w.players}
    check_png(results[0].image())
    assert "牌局结束" in over.content

    # the books balance and /银子 agrees with the result message
    rc, out = await store_check(w.db)
    assert rc == 0, out
    for p in w.players:
        bal = await p.slash("银子")
        await bal.settled()
        assert str(pays[p.name][1]) in bal.content, (p.name, pays[p.name], bal.response_type, bal.texts(), bal.interaction.error)
        assert pays[p.name][1] == 1000 + pays[p.name][0]

    # every panel showed the player's real hand and choices; every DM image is that hand's PNG
    hands = await hands_of(w.db, w.guild.id, w.players[0].id)
    assert len(hands) == 1
    states = hand_states(await events_of(w.db, hands[0].hand_id))
    same_png = 0
    for seat, ap in enumerate(aps):
        assert ap.seen, f"{ap.player.name} never got to act"
        same_png += check_panels(ap, seat, states)
        for v in w.recorder.private(ap.player.id):
            if v.png is not None:
                check_png(v.png)
    assert same_png == sum(len(ap.seen) for ap in aps), "a DM image is not the hand it should show"

    # nothing public ever showed a concealed tile: every version of every channel message, and the log
    public = [v.text for v in w.recorder.public()]
    assert len(public) > 20
    check_no_leak(public, states)
    for v in w.recorder.public():
        if v.png is not None:
            check_png(v.png)
    check_no_leak([w.bot.log()], states)
    assert double.errors == [] and double.rejections == [], (double.errors, double.rejections)


async def play_seeded(double, start_bot, tmp_path, styles, seed, think_on=frozenset({"give_up", "bugang"})):
    """Four scripted players with ``styles`` play the first hand of ``seed``; returns (world, autoplayers,
    result message, the hand as the pure engine plays it)."""
    from tests.e2e.scenario import simulate

    expected = simulate(seed, styles)
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "carol", "dave"],
                          env={"JXBOT_TEST_SEED": str(seed)})
    await open_table(w)
    # a person takes a moment over a contract or a kong (so the channel has shown it)
    aps = [AutoPlayer(p, st, think=0.8, think_on=think_on).start() for p, st in zip(w.players, styles, strict=True)]
    await wait_match_over(w)
    await gather_players(aps)
    results = result_messages(w)
    assert len(results) == 1, [m.content for m in results]
    pays = payments(results[0])
    want = expected.settle([1000] * 4, 1).deltas
    assert [pays[p.name][0] for p in w.players] == list(want), (results[0].content, want)
    rc, out = await store_check(w.db)
    assert rc == 0, out
    return w, aps, results[0], expected


async def test_contract_with_one_give_up(double, start_bot, tmp_path):
    styles = [Style(claim="greedy", contract="give_up" if i == 3 else "persist") for i in range(4)]
    seed, _ = find_seed(lambda h: h.result.contract is not None and 3 not in h.result.contract
                        and h.result_view()["gave_up"] == [3], styles, hint=7)
    w, aps, result, expected = await play_seeded(double, start_bot, tmp_path, styles, seed)
    dave = aps[3]
    asked = [p for p in dave.seen if {"give_up", "persist"} <= {v for v, _, _ in p.actions}]
    assert len(asked) == 1 and "互为承包" in asked[0].text
    later = dave.seen[dave.seen.index(asked[0]) + 1:]
    assert later, "dave went on drawing and discarding"
    assert all({v for v, _, _ in p.actions} <= {"discard", "angang", "bugang"} for p in later), \
        "a seat that gave up cannot claim or win any more"
    assert any("承包" in v.text for v in w.recorder.public()), "the channel shows the contract"
    assert payments(result)["dave"][0] == -1, "dave gave up: he pays only the fee"


async def test_robbed_kong(double, start_bot, tmp_path):
    styles = [GREEDY] * 4
    seed, expected = find_seed(lambda h: h.result.robbed_from is not None, styles, hint=1139)
    robber, robbed = expected.result.winner, expected.result.robbed_from
    w, aps, result, _ = await play_seeded(double, start_bot, tmp_path, styles, seed)
    rob_panels = [p for p in aps[robber].seen if {"hu", "pass"} <= {v for v, _, _ in p.actions}]
    assert rob_panels, "the robber was offered 胡 on the added kong"
    assert any("补杠" in v.text for v in w.recorder.public()), "the channel showed the added kong being declared"
    deltas = [payments(result)[p.name][0] for p in w.players]
    others = [d for i, d in enumerate(deltas) if i not in (robber, robbed)]
    assert others == [-1, -1], "only the robbed seat pays (the others pay the fee)"
    assert deltas[robbed] < -1 and deltas[robber] > 0


async def test_one_player_with_three_computers_late_foreign_and_double_clicks(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "mallory"],
                          env={"JXBOT_CLAIM_WINDOW": "1.5", "JXBOT_COMPUTER_DELAY": "0.05"})
    alice, mallory = w.players
    await open_table(w, seated=[alice], computers=1)  # one added by hand, two more at the start
    ap = AutoPlayer(alice, Style())
    lobby = w.lobby
    assert lobby is not None
    await double.wait_for(lambda: lobby.content.count("🤖") == 3 and "牌局已开始" in lobby.content, 5,
                          "the lobby message to show three computers and the start")

    late = foreign = dbl = None
    for _ in range(200):
        if late is not None and foreign is not None and dbl is not None:
            break
        try:
            p = await alice.double.wait_for(ap._ready, 30, "alice's panel")
        except TimeoutError:
            raise AssertionError(f"no panel to act on: late={late} foreign={foreign} double={dbl}\n"
                                 f"{w.bot.tail(30)}") from None
        verbs = {v for v, _, _ in p.actions}
        if late is None and "pass" in verbs and verbs - {"pass"}:
            # a claim offered: wait for the window to close, then press it anyway
            ap._done.add(p.key)
            claim = next(v for v in ("gang", "peng", "chi") if v in verbs)
            await asyncio.sleep(2.5)
            late = await alice.click_stale(p.message, p.custom_id(claim))
            late_text = await said(late)
            assert any(s in late_text for s in ("太晚", "过期")), (late.response_type, late.interaction.error, late_text)
            continue
        if "discard" in verbs and foreign is None:
            foreign = await mallory.click(p.message, custom_id=p.actions[0][2], force=True)
            assert "不是你的" in await said(foreign) and foreign.ephemeral, foreign.texts()
            assert ap.panel().key == p.key, "a foreign click changed nothing"
            continue
        if "discard" in verbs and dbl is None:
            ap._done.add(p.key)
            tile = choose(p.tiles, p.drawn, p.wildcard, [(v, a) for v, a, _ in p.actions], Style())[1]
            dbl = await alice.double_click(p.message, custom_id=p.custom_id("discard", tile))
            assert not any(a.failed for a in dbl), "both clicks were acknowledged"
            await asyncio.sleep(1.0)
            # one press is answered with the new panel (type 7), the other is told why (an ephemeral reply)
            # (under load either may first be deferred by the acknowledgement guard: 6, then an edit / a followup)
            refused = [a for a in dbl if a.response_type == 4 or a.interaction.followups]
            assert len(refused) == 1, [(a.response_type, a.texts()) for a in dbl]
            continue
        await ap.step()
    assert late is not None and foreign is not None and dbl is not None
    ap.start()
    await wait_match_over(w)
    await gather_players([ap])

    hands = await hands_of(w.db, w.guild.id, alice.id)
    events = await events_of(w.db, hands[0].hand_id)
    # the double click discarded once: alice's discards are her accepted clicks
    mine = [e for e in events if e["type"] == "discarded" and e["seat"] == 0]
    accepted = [c for c in ap.clicks if c[1] == "discard" and c[3].response_type in (6, 7)
                and not c[3].interaction.followups]
    assert len(mine) >= len(accepted) + 1
    assert not [e for e in events if e["type"] == "claimed" and e.get("seat") == 0 and False]
    rc, out = await store_check(w.db)
    assert rc == 0, out
    assert double.rejections == [], double.rejections


async def test_closed_dms_get_the_ephemeral_panel(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"], closed_dms=["alice"])
    alice = w.players[0]
    await open_table(w, computers=0)
    notice = await alice.wait_message(lambda m: "私信" in m.content and f"<@{alice.id}>" in m.content, w.channel)
    assert "看我的牌" in notice.content
    table_msg = await alice.wait_message(lambda m: any(b.get("label") == "看我的牌" for b in m.buttons()), w.channel,
                                         timeout=10)
    show = await alice.click(table_msg, label="看我的牌")
    await show.settled()
    eph = [m for m in alice.ephemerals() if m.image() is not None]
    assert eph, f"no ephemeral panel: {show.texts()}"
    check_png(eph[-1].image())
    assert any((b.get("custom_id") or "").startswith("mj:") for b in eph[-1].buttons())
    assert not any(m.image() for m in alice.dm_messages()), "nothing reached the closed DMs"
    ap = AutoPlayer(alice, Style()).start()
    await wait_match_over(w)
    await gather_players([ap])
    assert len(ap.seen) >= 3, "alice played from the ephemeral panel"
    for p in ap.seen:
        assert p.message.ephemeral_for == alice.id
    rc, out = await store_check(w.db)
    assert rc == 0, out


async def test_sigkill_mid_hand_resumes_where_it_was(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"], env={"JXBOT_COMPUTER_DELAY": "0.2"})
    alice = w.players[0]
    await open_table(w)
    ap = AutoPlayer(alice, Style())
    for _ in range(4):
        await ap.step()
    open_hands = await open_hand_ids(w.db)
    assert len(open_hands) == 1
    before = await events_of(w.db, open_hands[0])

    panel = alice.dm_panel()
    edits = panel.edit_count if panel is not None else 0
    await w.bot.kill()  # SIGKILL in the middle of the hand
    await w.bot.start()
    await double.wait_for(lambda: double.gateway.identifies >= 2, 30, "the bot to come back")
    notice = await alice.wait_message(lambda m: "重启" in m.content, w.channel, timeout=20)
    assert "继续" in notice.content
    if panel is not None:  # the resumed table refreshes the panel (its clock running): press the fresh one
        await alice.wait_edited(panel, since=edits, timeout=20)
        await asyncio.sleep(0.5)
    clicks_before = len(ap.clicks)
    ap.start()
    await wait_match_over(w)
    await gather_players([ap])

    assert len(ap.clicks) > clicks_before, "alice played on after the restart"
    first_after = ap.clicks[clicks_before][3]
    assert not first_after.failed and first_after.response_type in (6, 7) and not first_after.interaction.followups, \
        ("the buttons work after the restart", first_after.texts())  # 7: answered with the panel (6 if the guard deferred it first)
    hands = await hands_of(w.db, w.guild.id, alice.id)
    assert [h.hand_id for h in hands] == open_hands, "the same hand went on and was settled once"
    after = await events_of(w.db, open_hands[0])
    assert after[: len(before)] == before, "the hand resumed where it was (no re-deal)"
    results = result_messages(w)
    assert len(results) == 1
    delta, balance = payments(results[0])["alice"]
    assert balance == 1000 + delta == 1000 + hands[0].delta
    bal = await alice.slash("银子")
    assert str(balance) in await said(bal)
    rc, out = await store_check(w.db)
    assert rc == 0, out


def max_edits_within(times: list[float], window: float) -> int:
    best = 0
    j = 0
    for i, t in enumerate(times):
        while t - times[j] >= window:
            j += 1
        best = max(best, i - j + 1)
    return best


async def test_429_storm_on_message_edits(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"],
                          env={"JXBOT_EDIT_INTERVAL": "1.0", "JXBOT_COMPUTER_DELAY": "0.2"})
    alice = w.players[0]
    await open_table(w)
    ap = AutoPlayer(alice, Style()).start()
    # conditions with generous deadlines, not fixed sleeps alone (a loaded machine plays slower): the hand is
    # under way before the storm, and the storm lasts 8 s and at least until it has hit five edits
    await double.wait_for(lambda: len(ap.clicks) >= 1, 60, "alice to play")
    storm = double.rate_limit("PATCH /channels/{channel_id}/messages/{message_id}", times=None, retry_after=1.0)
    await asyncio.sleep(8.0)
    await double.wait_for(lambda: storm.hits >= 5, 60, "the storm to hit the bot's edits")
    storm.stop()
    await wait_match_over(w, timeout=120)
    await gather_players([ap])

    assert storm.hits >= 5, "the storm hit the bot's edits"
    assert not [c for c in ap.clicks if c[3].failed], "every click was answered during the storm"
    edited = [m for m in double.messages.values() if m.rest_edits]
    assert edited
    for m in edited:
        # REST edits are coalesced (a press's own answer is an interaction response, not a REST edit; a
        # claim offer goes out at once, but after a 429's retry_after like every edit)
        times = [t for t, ids in m.rest_edits if not any(i.startswith("mj:pass") for i in ids)]
        # at most one paced edit a second; one more may be an offer's urgent edit whose offer ended before it
        # went out (it then shows no pass button: on a loaded machine that happens), never a burst of three
        assert max_edits_within(times, 0.9) <= 2, (m.id, m.content[:40], m.rest_edits)
    hands = await hands_of(w.db, w.guild.id, alice.id)
    events = await events_of(w.db, hands[0].hand_id)
    table_msg = next(m for m in w.channel.messages if any(b.get("label") == "看我的牌" for b in m.buttons()))
    assert table_msg.edit_count < len(events) / 3, "the table message's edits were coalesced"
    rc, out = await store_check(w.db)
    assert rc == 0, out
    assert double.errors == []


async def test_a_table_opened_and_started_at_once_after_the_bot_starts(double, start_bot, tmp_path):
    """Players may press buttons the moment the bot is online (before its on_ready work) and start a
    table as soon as it is open: no "the bot restarted" notice, no second copy of the table, and the
    hand is dealt (the store knows the table before its first hand)."""
    w = await start_world(double, start_bot, tmp_path, ["alice"], wait_ready=False)
    alice = w.players[0]
    await open_table(w)
    panel = await alice.wait_dm(lambda m: m.image() is not None and bool(m.buttons()), timeout=10)
    await asyncio.sleep(3.0)  # past the bot's on_ready
    assert not [m for m in w.channel.messages if "重启" in m.content], "a fresh table was 'resumed'"
    ap = AutoPlayer(alice, Style()).start()
    await double.wait_for(lambda: len(ap.clicks) >= 3, 30, "alice to play three times")
    await ap.stop()
    assert not [c for c in ap.clicks if c[3].failed or c[3].interaction.followups], "her buttons work"
    assert panel.image() is not None
    log = w.bot.log()
    assert "stopped with an error" not in log and "Traceback" not in log, w.bot.tail(40)
