"""The rating update rides in the transaction of a ranked match's last settlement: exactly once, never without
the settlement (nor the settlement without it), nothing for a void match."""

from __future__ import annotations

import pytest

from jxbot.ladder import Ladder, Rating, display
from jxbot.store import HandSettled  # noqa: F401

from .helpers import G, open_match, play_hand

U = [11, 12, 13, 14]


async def test_last_hand_rates_the_match_once(store):
    m = await open_match(store, "t1", U)
    _, out = await play_hand(store, m, 0, U, 0, 10, last=False, discarder=1)
    assert out is None  # not the last hand: no rating yet
    lad = Ladder(store)
    assert (await lad.rank_data(m.ladder, "jiaxing", 11)).matches == 0
    res, out = await play_hand(store, m, 1, U, 2, 5, last=True)  # seat 2 self-draws 5 from each
    assert out is not None and out.status == "rated" and not out.repeated and out.season == 1
    places = {c.user_id: c.place for c in out.changes}
    # match silver: 11 +10, 12 -15, 13 +15, 14 -5
    assert places == {13: 1, 11: 2, 14: 3, 12: 4}
    first = {c.user_id: c.after for c in out.changes}
    assert first[13].mu > first[11].mu > first[14].mu > first[12].mu
    # the same settlement again (a retry, a resumed table): same result, nothing doubled
    res2, out2 = await play_hand(store, m, 1, U, 2, 5, last=True)
    assert res2.repeated and out2 is not None and out2.repeated
    assert {c.user_id: c.after for c in out2.changes} == first
    rd = await lad.rank_data(m.ladder, "jiaxing", 13)
    assert rd.matches == 1 and rd.placements == (1, 0, 0, 0) and rd.rank == 1 and rd.players == 4
    assert rd.hands == 2 and rd.wins == 1 and rd.self_draws == 1
    assert rd.rating == display(first[13].mu, first[13].sigma) and len(rd.history) == 2
    assert (await lad.rank_data(m.ladder, "jiaxing", 12)).deal_ins == 1
    board = await lad.leaderboard(m.ladder, "jiaxing")
    assert [e.user_id for e in board.entries] == [13, 11, 14, 12] and board.total == 4


async def test_ties_share_and_escaper_is_last(store):
    m = await open_match(store, "t2", U)
    # hand 0: seat 3 escapes (the result says so), seat 0 wins 10 from seat 1
    hid = "t2-h0"
    await store.create_hand(hid, G, 2001, "jiaxing", U, "c", table_id="t2")
    from tests.store.conftest import settlement

    from .helpers import view
    v = view(0, U, last=False, discarder=1)
    v["escaped"] = [3]
    from jxbot.ladder import settle_ranked_hand
    await settle_ranked_hand(store, m, hid, G, U, settlement((1, 0, 10, "win"), (3, 2, 10, "escape")), v)
    _, out = await play_hand(store, m, 1, [11, 12, 13, None], None, 0, last=True)  # a drawn last hand
    assert out is not None
    places = {c.user_id: c.place for c in out.changes}
    # silver: 11 +10, 13 +10 (tie, share 1st), 12 -10, 14 escaped (last despite anything)
    assert places == {11: 1, 13: 1, 12: 3, 14: 4}
    after = {c.user_id: c.after for c in out.changes}
    assert after[11] == after[13]


async def test_void_match_changes_no_rating(store):
    m = await open_match(store, "t3", U)
    await play_hand(store, m, 0, U, 0, 10, last=False, discarder=1)
    lad = Ladder(store)
    out = await lad.void_match(m, 2000.0)
    assert out.status == "void" and out.changes == ()
    _, again = await play_hand(store, m, 1, U, 1, 10, last=True, discarder=0)
    assert again is not None and again.status == "void" and again.repeated
    assert (await lad.leaderboard(m.ladder, "jiaxing")).total == 0


async def test_failed_update_leaves_no_settlement(store, monkeypatch):
    """A crash inside the rating update (here: the model raising) rolls the last hand's settlement back too;
    the retry then pays the hand and rates the match once."""
    from jxbot.ladder import settle as settle_mod

    m = await open_match(store, "t4", U)
    await play_hand(store, m, 0, U, 0, 10, last=False, discarder=1)
    before = [await store.balance(G, u) for u in U]

    def boom(*a, **k):
        raise RuntimeError("crash in the middle")

    monkeypatch.setattr(settle_mod, "rate", boom)
    with pytest.raises(RuntimeError):
        await play_hand(store, m, 1, U, 2, 5, last=True)
    assert [await store.balance(G, u) for u in U] == before  # no silver moved
    assert await store.hand_result("t4-h1") is None
    assert await Ladder(store).outcome("t4") is None
    monkeypatch.undo()
    res, out = await play_hand(store, m, 1, U, 2, 5, last=True)
    assert not res.repeated and out is not None and out.status == "rated"
    assert (await Ladder(store).rank_data(m.ladder, "jiaxing", 13)).matches == 1


async def test_computer_plays_at_fixed_rating(store):
    users = [11, 12, None, 14]
    m = await open_match(store, "t5", users)
    _, out = await play_hand(store, m, 0, users, 2, 20, last=True, discarder=0, level="hard")
    assert out is not None
    cpu = [c for c in out.changes if c.user_id is None]
    assert len(cpu) == 1 and cpu[0].level == "hard" and cpu[0].place == 1 and cpu[0].before == cpu[0].after
    assert {c.user_id for c in out.changes if c.user_id} == {11, 12, 14}
    assert Rating().display == 0


async def test_a_match_closed_early_is_rated_from_its_settled_hands(store):
    m = await open_match(store, "t6", U)
    await play_hand(store, m, 0, U, 0, 10, last=False, discarder=1)
    out = await Ladder(store).finish_match(m, 3000.0)
    assert out.status == "rated" and {c.user_id: c.place for c in out.changes} == {11: 1, 13: 2, 14: 2, 12: 4}
    again = await Ladder(store).finish_match(m, 3001.0)
    assert again.repeated and (await Ladder(store).rank_data(m.ladder, "jiaxing", 11)).matches == 1
