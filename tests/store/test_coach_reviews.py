"""The coach's cache in the store (jxbot/store/coach.py), on SQLite and PostgreSQL: a review is kept per hand
and seat, replaced when computed again, refused for a running hand, and summed into the player's stats."""

from __future__ import annotations

import pytest

from jxbot.store import InvalidArgument
from tests.replay.helpers import GUILD, played_hand, store_hand


async def test_reviews_are_kept_and_counted(store) -> None:
    h = played_hand(3)
    await store_hand(store, h, [21, None, 22, None])
    assert await store.get_review(h.hand_id, 0) is None
    await store.save_review(h.hand_id, 0, {"v": 1}, version=1, decisions=10, agreed=7, lost=1.5)
    await store.save_review(h.hand_id, 0, {"v": 2}, version=1, decisions=10, agreed=8, lost=1.25)  # replaced
    await store.save_review(h.hand_id, 2, {"v": 3}, version=1, decisions=4, agreed=4, lost=0.0)
    assert await store.get_review(h.hand_id, 0) == {"v": 2}
    st = await store.review_stats(GUILD, 21)
    assert (st.hands, st.decisions, st.agreement, st.lost_per_hand) == (1, 10, 0.8, 1.25)
    st = await store.review_stats(GUILD, 22)
    assert (st.hands, st.agreement, st.lost_per_hand) == (1, 1.0, 0.0)
    assert (await store.review_stats(GUILD + 1, 21)).hands == 0  # another server's stats
    # a review of an older judging (it is redone when shown) is not counted among this version's
    await store.save_review(h.hand_id, 2, {"v": 4}, version=0, decisions=4, agreed=1, lost=3.0)
    assert (await store.review_stats(GUILD, 22, version=1)).hands == 0
    assert (await store.review_stats(GUILD, 21, version=1)).hands == 1


async def test_a_running_hand_is_not_reviewed(store) -> None:
    await store.ensure_player(31, "x")
    await store.create_hand("run-1", GUILD, 6, "jiaxing", [31, None, None, None], "c" * 64)
    with pytest.raises(InvalidArgument):
        await store.save_review("run-1", 0, {}, version=1, decisions=1, agreed=1, lost=0.0)
