"""The ranked queues of a bot process (jxbot/shell/ranked_queue.py) over the ladder's MatchQueue: one entry per
person, matched people leave the queue in the same step, computers fill only past the server's wait."""

from __future__ import annotations

from types import SimpleNamespace

from jxbot.shell import ranked_ladder
from jxbot.shell.ranked_queue import RankedQueues, Waiting

SETTINGS = SimpleNamespace(ranked_band=150.0, ranked_band_widen=100.0, ranked_max_together=1)


def queues(recent=()):
    return RankedQueues(lambda ladder: ranked_ladder.make_queue(SETTINGS, list(recent)))


def person(uid: int, rating: int = 0, since: float = 0.0, ladder: str = "7") -> Waiting:
    return Waiting(uid, 7, f"p{uid}", "zh", ladder, rating, 555, since=since)


def test_four_in_band_make_one_table_and_leave_the_queue():
    q = queues()
    for u in (1, 2, 3):
        assert q.join(person(u))
    assert not q.join(person(1))  # twice: the first entry stays
    assert q.match(10.0, unix_now=1e9) == []
    q.join(person(4))
    (g,) = q.match(10.0, unix_now=1e9)
    assert sorted(w.user_id for w in g.people) == [1, 2, 3, 4] and g.computers == 0
    assert q.people == {} and q.match(11.0, unix_now=1e9) == []
    assert "排队 0 人" in q.text(person(9), 12.0, "本服务器")


def test_out_of_band_waits_and_leaving_works():
    q = queues()
    for u, r in ((1, 0), (2, 0), (3, 0), (4, 2000)):
        q.join(person(u, r))
    assert q.match(1.0, unix_now=0.0) == []  # 2000 points apart: not yet
    assert q.leave(4) is not None and q.leave(4) is None
    q.join(person(5, 50))
    assert len(q.match(2.0)) == 1


def test_the_same_four_are_not_matched_again_the_same_day():
    import time

    q = queues(recent=[("1,2,3,4", time.time() - 3600)])  # JXBOT_RANKED_MAX_TOGETHER=1, one an hour ago
    for u in (1, 2, 3, 4):
        q.join(person(u))
    assert q.match(1.0) == []


def test_computers_fill_only_past_the_servers_wait():
    q = queues()
    q.join(person(1, since=0.0))
    q.join(person(2, since=30.0))
    assert q.match(40.0, lambda w: None) == []  # the server allows no computers
    assert q.match(40.0, lambda w: 60.0) == []  # not waited long enough
    (g,) = q.match(61.0, lambda w: 60.0)
    assert [w.user_id for w in g.people] == [1, 2] and g.computers == 2 and not q.people


def test_a_ranked_tables_settings_are_the_ladders():
    import asyncio

    cfg = asyncio.run(ranked_ladder.table_config(None, "7", SimpleNamespace(claim_window=2.0, turn_seconds=9.0)))
    assert (cfg.ruleset, cfg.rounds, cfg.stake, cfg.ranked) == ("jiaxing", 1, ranked_ladder.RANKED_STAKE, "7")
    assert (cfg.claim_window, cfg.turn_seconds) == (2.0, 9.0)
    table = SimpleNamespace(id="abc", guild_id=7, config=cfg)
    m = ranked_ladder.ranked_match(table)
    assert (m.match_id, m.ladder, m.ruleset, m.guild_id) == ("abc", "7", "jiaxing", 7)
    assert ranked_ladder.ranked_match(SimpleNamespace(config=SimpleNamespace(ranked=""))) is None
