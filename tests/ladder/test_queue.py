"""The ranked queue: tables of four within a band that widens with waiting, deterministic on a fake clock, and the
integrity rule (the same four people at most N rated tables a day)."""

from __future__ import annotations

from jxbot.ladder import MatchQueue, QueueSettings


class Clock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def make(**kw) -> tuple[MatchQueue, Clock]:
    c = Clock()
    return MatchQueue(QueueSettings(**kw), clock=c), c


def test_four_close_players_form_a_table_and_leave_the_queue():
    q, _ = make(band=100, widen_per_minute=50)
    for u, r in ((1, 1000), (2, 1050), (3, 980), (4, 1020), (5, 2000)):
        q.join(u, r)
    tables = q.form()
    assert [[t.user_id for t in tb] for tb in tables] == [[1, 2, 3, 4]]
    assert 5 in q and len(q) == 1 and 1 not in q


def test_band_widens_with_waiting_time():
    q, c = make(band=100, widen_per_minute=100)
    for u, r in ((1, 1000), (2, 1000), (3, 1000), (4, 1400)):
        q.join(u, r)
    assert q.form() == []  # 400 apart: nobody's band reaches
    c.t += 60 * 2  # two minutes: 300 — still not
    assert q.form() == []
    c.t += 60  # three minutes: 400 — every one of them accepts the others
    assert [t.user_id for t in q.form()[0]] == [1, 2, 3, 4]


def test_a_newcomer_with_a_narrow_band_is_not_forced_on_waiting_players():
    q, c = make(band=100, widen_per_minute=100)
    for u in (1, 2, 3):
        q.join(u, 1000)
    c.t += 600  # they have waited 10 minutes: their bands are wide
    q.join(4, 2000)  # a fresh ticket: its own band is 100
    assert q.form() == []
    c.t += 600
    assert len(q.form()) == 1


def test_nearest_ratings_are_matched_and_the_result_is_deterministic():
    def run() -> list[list[int]]:
        q, c = make(band=500, widen_per_minute=0)
        ratings = [1000, 1900, 1010, 1950, 990, 1920, 1005, 1930]
        for u, r in enumerate(ratings, start=1):
            q.join(u, r)
            c.t += 1
        return [[t.user_id for t in tb] for tb in q.form()]

    first = run()
    assert first == run()
    assert sorted(map(sorted, first)) == [[1, 3, 5, 7], [2, 4, 6, 8]]


def test_leave_and_join_twice():
    q, _ = make()
    t1 = q.join(1, 500)
    assert q.join(1, 900) is t1  # already queued: unchanged
    assert q.leave(1) and not q.leave(1) and len(q) == 0


def test_the_same_four_at_most_n_times_a_day():
    q, c = make(band=1000, widen_per_minute=0, max_together_per_day=2)
    for _ in range(2):
        for u in (1, 2, 3, 4):
            q.join(u, 1000)
        assert len(q.form()) == 1
        c.t += 3600
    for u in (1, 2, 3, 4):
        q.join(u, 1000)
    assert q.form() == []  # a third table of the same four within 24 h: refused
    q.join(5, 1000)
    table = q.form()[0]  # another group forms instead, leaving one of them waiting
    assert 5 in [t.user_id for t in table] and len(q) == 1
    c.t += 86_400  # a day after the first two: the four may play together again
    q.leave(next(t.user_id for t in q.waiting()))
    for u in (1, 2, 3, 4):
        q.join(u, 1000)
    assert len(q.form()) == 1


def test_groups_from_the_store_count():
    q, c = make(max_together_per_day=1)
    q.note_keys([("1,2,3,4", c.t - 100)])
    for u in (1, 2, 3, 4):
        q.join(u, 0)
    assert q.form() == []
    assert q.together([4, 3, 2, 1]) == 1


def test_random_queues_form_only_tables_inside_every_band():
    import random

    rnd = random.Random(11)
    for _ in range(30):
        q, c = make(band=rnd.choice([50, 150, 400]), widen_per_minute=rnd.choice([0, 50, 200]))
        for u in range(rnd.randrange(4, 40)):
            q.join(u, rnd.randrange(0, 3000))
            c.t += rnd.randrange(0, 120)
        queued = {t.user_id: t for t in q.waiting()}
        seen: set[int] = set()
        for table in q.form():
            ids = [t.user_id for t in table]
            assert len(set(ids)) == 4 and not seen & set(ids)
            seen |= set(ids)
            lo, hi = min(t.rating for t in table), max(t.rating for t in table)
            for t in table:
                assert max(t.rating - lo, hi - t.rating) <= q.band_of(queued[t.user_id])
        assert set(queued) - seen == {t.user_id for t in q.waiting()}
