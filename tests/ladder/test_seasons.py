"""Seasons: a season's board stays as its final standings; the next season starts from a soft reset; boards per
season, per server and global."""

from __future__ import annotations

from jxbot.ladder import Ladder, Rating, ladder_key, soft_reset

from .helpers import open_match, play_hand

U = [11, 12, 13, 14]


async def test_season_rolls_over_with_a_soft_reset(store):
    lad = Ladder(store)
    m = await open_match(store, "s1", U)
    _, out = await play_hand(store, m, 0, U, 0, 30, last=True, discarder=3, now=1000)
    assert out is not None and out.season == 1
    first = {c.user_id: c.after for c in out.changes}
    final1 = await lad.leaderboard(m.ladder, "jiaxing", season=1)
    ended = await lad.end_season(m.ladder, 5000.0)
    assert ended is not None and ended.season == 1 and ended.ended_at == 5000.0
    assert await lad.end_season(m.ladder, 5001.0) is None  # none open
    # the next rated match opens season 2; each player starts from the soft reset of their season-1 rating
    m2 = await open_match(store, "s2", U)
    _, out2 = await play_hand(store, m2, 0, U, 1, 10, last=True, discarder=0, now=6000)
    assert out2 is not None and out2.season == 2
    for c in out2.changes:
        assert c.before == soft_reset(first[c.user_id])
    assert [s.season for s in await lad.seasons(m.ladder)] == [1, 2]
    # season 1's final standings are unchanged; the current board is season 2's
    assert await lad.leaderboard(m.ladder, "jiaxing", season=1) == final1
    now_board = await lad.leaderboard(m.ladder, "jiaxing")
    assert now_board.season == 2 and now_board.entries[0].user_id == 12
    rd = await lad.rank_data(m.ladder, "jiaxing", 11, season=1)
    assert rd.placements == (1, 0, 0, 0) and rd.season == 1


async def test_start_season_ends_the_open_one(store):
    lad = Ladder(store)
    s1 = await lad.start_season("g", 100.0)
    s2 = await lad.start_season("g", 200.0)
    seasons = await lad.seasons("g")
    assert (s1.season, s2.season) == (1, 2) and seasons[0].ended_at == 200.0 and seasons[1].open


def test_soft_reset_halves_the_distance_and_widens_sigma():
    r = soft_reset(Rating(35.0, 1.0))
    assert r.mu == 30.0 and 1.0 < r.sigma <= Rating().sigma
    assert soft_reset(Rating()) == Rating()


async def test_global_ladder_and_a_servers_view_of_it(store):
    assert ladder_key(5, "global") == "global" and ladder_key(5, "guild") == "5"
    lad = Ladder(store)
    m = await open_match(store, "g1", U, ladder="global")
    await play_hand(store, m, 0, U, 0, 30, last=True, discarder=3)
    assert (await lad.leaderboard("global", "jiaxing")).total == 4
    # the per-server view of the global board: the players with a seat on that server (members of guild 1001)
    assert (await lad.leaderboard("global", "jiaxing", guild_id=1001)).total == 4
    assert (await lad.leaderboard("global", "jiaxing", guild_id=999)).total == 0
    assert (await lad.leaderboard("1001", "jiaxing")).total == 0  # the server's own ladder is another ladder


async def test_integrity_count_of_rated_matches_together(store):
    lad = Ladder(store)
    for n in range(2):
        m = await open_match(store, f"i{n}", U)
        await play_hand(store, m, 0, U, 0, 30, last=True, discarder=3, now=1000 + n)
    assert await lad.matches_together([14, 13, 12, 11], since=0) == 2
    assert await lad.matches_together([11, 12, 13], since=0) == 0
    assert await lad.matches_together(U, since=1001.5) == 0
    assert [k for k, _ in await lad.recent_groups(0)] == ["11,12,13,14"] * 2


async def test_board_pages_and_positions_follow_the_ratings(store):
    """Many players over several matches: the pages (found by bucket counts) and every player's position are the
    order of their ratings; the bucket counts match the board."""
    import random

    from jxbot.ladder.model import score

    rnd = random.Random(7)
    users = list(range(21, 33))
    lad = Ladder(store)
    for n in range(14):
        seats = rnd.sample(users, 4)
        m = await open_match(store, f"b{n}", seats)
        w, d = rnd.randrange(4), rnd.randrange(4)
        await play_hand(store, m, 0, seats, w, 5 + n, last=True, discarder=None if d == w else d, now=100 + n)
    ratings = await lad.ratings(m.ladder, "jiaxing", users)
    order = sorted(ratings, key=lambda u: (-score(ratings[u].mu, ratings[u].sigma), u))
    pages = []
    for p in (1, 2, 3):
        page = await lad.leaderboard(m.ladder, "jiaxing", page=p, page_size=5)
        assert page.total == len(ratings) and page.pages == -(-len(ratings) // 5)
        pages += [(e.rank, e.user_id) for e in page.entries]
    assert pages == list(enumerate(order, start=1))
    for pos, u in enumerate(order, start=1):
        assert (await lad.rank_data(m.ladder, "jiaxing", u)).rank == pos
    async def counts(tx):
        return (await tx.one("SELECT SUM(players) FROM ladder_buckets"))[0], \
            (await tx.one("SELECT COUNT(*) FROM ladder_ratings"))[0]
    a, b = await store.in_snapshot(counts)
    assert a == b == len(ratings)
    assert await store.check() == []

    async def tamper(tx):
        await tx.execute("UPDATE ladder_buckets SET players = players + 1 WHERE bucket = (SELECT MAX(bucket) FROM "
                         "ladder_buckets)")
        await tx.execute("UPDATE ladder_ratings SET matches = matches + 1 WHERE user_id = 21")
    await store.in_transaction(tamper)
    assert sorted(p.code for p in await store.check()) == ["ladder_mismatch", "ladder_mismatch"]
