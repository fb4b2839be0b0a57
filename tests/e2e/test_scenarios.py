"""jxbot end to end: the real bot process (``jxbot run``) against the local Discord double, played by
scripted players. Each test is a scenario a player or an operator would recognise; see docs/e2e.md."""

from __future__ import annotations

import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import (
    check_no_leak,
    check_panels,
    check_png,
    events_of,
    find_seed,
    gather_players,
    hand_states,
    hands_of,
    open_table,
    payments,
    result_messages,
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
