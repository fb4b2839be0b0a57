from __future__ import annotations

import pytest

from jxbot.store import InvalidArgument, UnknownPlayer

from .conftest import CH, G, settlement, win_result

DAY = 86_400.0
T0 = 1_700_000_000.0


async def play(store, hand_id, seats, winner, amount, *, at, self_draw=False, tai=3, fan=1, patterns=("half_flush",)):
    await store.create_hand(hand_id, G, CH, "jiaxing", seats, "c", now=at)
    transfers = [(s, winner, amount, "win") for s in range(4) if s != winner] if winner is not None else []
    await store.settle_hand(hand_id, G, seats, settlement(*transfers),
                            win_result(winner, self_draw=self_draw, tai=tai, fan=fan, patterns=patterns), now=at)


@pytest.fixture
async def history(store, players):
    # user 1 wins twice (one self-draw), user 3 wins a big one; a drawn hand
    await play(store, "a", [1, 2, 3, 4], 0, 30, at=T0 - 10 * DAY, self_draw=True, patterns=("full_flush",))
    await play(store, "b", [1, 2, 3, 4], 0, 20, at=T0 - 3 * DAY, patterns=("full_flush", "all_pungs"))
    await play(store, "c", [1, 2, 3, 4], 2, 100, at=T0 - 3600, tai=10, fan=3, patterns=("all_honors",))
    await play(store, "d", [1, 2, 3, 4], None, 0, at=T0 - 60)
    return store


async def test_balance_leaderboard_is_paged(history):
    store = history
    p1 = await store.leaderboard(G, "balance", page=1, page_size=2)
    assert [(e.rank, e.user_id, e.value, e.name) for e in p1.entries] == [(1, 3, 1300 - 50, "p3"), (2, 1, 1050, "p1")]
    assert (p1.total, p1.pages) == (4, 2)
    p2 = await store.leaderboard(G, "balance", page=2, page_size=2)
    assert [(e.rank, e.user_id) for e in p2.entries] == [(3, 2), (4, 4)]  # ties by user id
    assert (await store.leaderboard(G, "balance", page=3, page_size=2)).entries == ()
    assert (await store.leaderboard(G + 1, "balance")).total == 0  # another guild's board is empty


async def test_net_over_periods_wins_and_biggest_hand(history):
    store = history
    net_all = await store.leaderboard(G, "net", "all", now=T0)
    assert [(e.user_id, e.value) for e in net_all.entries] == [(3, 250), (1, 50), (2, -150), (4, -150)]
    week = await store.leaderboard(G, "net", "week", now=T0)  # hands b and c
    assert {e.user_id: e.value for e in week.entries} == {1: -40, 2: -120, 3: 280, 4: -120}
    day = await store.leaderboard(G, "net", "day", now=T0)  # hand c only
    assert [(e.user_id, e.value) for e in day.entries] == [(3, 300), (1, -100), (2, -100), (4, -100)]
    wins = await store.leaderboard(G, "wins")
    assert [(e.user_id, e.value) for e in wins.entries] == [(1, 2), (3, 1)]
    pts = await store.leaderboard(G, "points")
    assert [(e.user_id, e.value) for e in pts.entries] == [(3, 5 * 10 * 8), (1, 5 * 3 * 2)]
    assert [(e.user_id, e.value) for e in (await store.leaderboard(G, "tai")).entries] == [(3, 10), (1, 3)]
    assert [(e.user_id, e.value) for e in (await store.leaderboard(G, "fan")).entries] == [(3, 3), (1, 1)]
    for bad in ({"kind": "luck"}, {"period": "year"}, {"page": 0}, {"page_size": 1000}):
        with pytest.raises(InvalidArgument):
            await store.leaderboard(G, **bad)


async def test_player_stats_and_history(history):
    store = history
    s1 = await store.player_stats(G, 1)
    assert (s1.hands, s1.wins, s1.self_draws, s1.win_rate) == (4, 2, 1, 0.5)
    assert (s1.biggest_win, s1.best_points, s1.favourite_pattern, s1.net) == (90, 30, "full_flush", 50)
    assert s1.balance == 1050
    s4 = await store.player_stats(G, 4)
    assert (s4.hands, s4.wins, s4.win_rate, s4.favourite_pattern, s4.biggest_win) == (4, 0, 0.0, None, 0)
    empty = await store.player_stats(G + 1, 1)
    assert (empty.hands, empty.win_rate, empty.balance) == (0, 0.0, 0)
    with pytest.raises(UnknownPlayer):
        await store.player_stats(G, 99)
    recent = await store.recent_hands(G, 3, limit=3)
    assert [(h.hand_id, h.delta, h.won, h.drawn) for h in recent] == [("d", 0, False, True), ("c", 300, True, False),
                                                                      ("b", -20, False, False)]
    assert (recent[1].tai, recent[1].fan, recent[1].points) == (10, 3, 400)
    assert recent[2].points is None  # only the winner's hand value is shown as theirs
    assert await store.recent_hands(G + 1, 3) == []
    with pytest.raises(InvalidArgument):
        await store.recent_hands(G, 3, limit=0)
