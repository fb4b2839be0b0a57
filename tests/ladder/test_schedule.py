"""Season schedules (docs/ranked.md, "Seasons"): seasons of N days follow each other with no gap, a roll happens
once whoever races for it, a rated match after the boundary counts in the new season, and the server's ranked
channel is told once, with the final standings and no ping."""

from __future__ import annotations

import asyncio

from jxbot.ladder import Ladder
from jxbot.ladder.schedule import DAY, due_ladders, roll_due, schedule_of, set_schedule
from jxbot.shell import ranked_ladder

from .helpers import CH, G, open_match, play_hand

U = [11, 12, 13, 14]


async def test_a_schedule_never_ends_a_season_at_once_and_rolls_at_its_boundary(store):
    lad = Ladder(store)
    await lad.start_season("g", 0.0)
    # the season is 10 days old: a 7-day schedule ends it 7 days from now, not at once
    end = await set_schedule(store, "g", 7, 10 * DAY)
    assert end == 17 * DAY and await schedule_of(store, "g") == (7, 17 * DAY)
    assert await due_ladders(store, 16 * DAY) == [] and await roll_due(store, "g", 16 * DAY) is None
    rolled = await roll_due(store, "g", 17 * DAY + 5)
    assert (rolled.ended, rolled.started, rolled.at) == (1, 2, 17 * DAY)
    assert await roll_due(store, "g", 17 * DAY + 6) is None  # once
    seasons = await lad.seasons("g")
    assert [(s.season, s.started_at, s.ended_at) for s in seasons] == [(1, 0.0, 17 * DAY), (2, 17 * DAY, None)]
    # nobody played for three periods: the empty ones are skipped, the new season opens at the last boundary
    rolled = await roll_due(store, "g", 17 * DAY + 3 * 7 * DAY + 100)
    assert (rolled.ended, rolled.started, rolled.at) == (2, 3, 24 * DAY)
    assert (await lad.seasons("g"))[-1].started_at == 38 * DAY
    assert await schedule_of(store, "g") == (7, 45 * DAY)
    # off: nothing rolls any more
    assert await set_schedule(store, "g", 0, 50 * DAY) is None
    assert await due_ladders(store, 100 * DAY) == [] and await roll_due(store, "g", 100 * DAY) is None


async def test_a_started_season_runs_its_full_period(store):
    await set_schedule(store, "g", 7, 0.0)
    await ranked_ladder.season_change(store, "g", "start", "en", actor=1, now=5 * DAY)
    assert await schedule_of(store, "g") == (7, 12 * DAY)


async def test_two_rollers_at_once_roll_once(store):
    await Ladder(store).start_season("g", 0.0)
    await set_schedule(store, "g", 1, 0.0)
    got = await asyncio.gather(*[roll_due(store, "g", 1.5 * DAY) for _ in range(4)])
    assert sum(r is not None for r in got) == 1
    assert [s.season for s in await Ladder(store).seasons("g")] == [1, 2]


async def test_a_match_rated_after_the_boundary_counts_in_the_new_season(store):
    m = await open_match(store, "s1", U)
    _, out = await play_hand(store, m, 0, U, 0, 30, last=True, discarder=3, now=1000)
    assert out.season == 1
    await set_schedule(store, m.ladder, 1, 1000.0)
    m2 = await open_match(store, "s2", U)
    _, out2 = await play_hand(store, m2, 0, U, 1, 30, last=True, discarder=3, now=1000 + DAY + 1)
    assert out2.season == 2  # the clock had not run yet: the settlement rolled the season itself
    assert [s.season for s in await Ladder(store).seasons(m.ladder)] == [1, 2]


class _Channel:
    def __init__(self, sent: list) -> None:
        self.sent = sent

    async def send(self, text, **kw):
        self.sent.append((text, kw))


class _Bot:
    def __init__(self, store, channel_id) -> None:
        self.store, self.channel_id, self.sent = store, channel_id, []

    def get_guild(self, gid):
        return None

    def get_partial_messageable(self, cid):
        assert cid == self.channel_id
        return _Channel(self.sent)


async def test_the_clock_tells_the_ranked_channel_once_with_the_final_standings(store):
    import time

    m = await open_match(store, "s1", U)
    await play_hand(store, m, 0, U, 2, 30, last=True, discarder=3, now=time.time() - 3 * DAY)
    await store.update_guild_settings(G, ranked_channel=CH)
    # set two days ago, on a season then a day old: it ended a day ago, and the clock's first look rolls it
    await set_schedule(store, m.ladder, 1, time.time() - 2 * DAY)
    bot = _Bot(store, CH)
    task = asyncio.create_task(ranked_ladder.season_loop(bot, every=0.05))
    await asyncio.sleep(0.4)
    task.cancel()
    assert len(bot.sent) == 1, bot.sent
    text, kw = bot.sent[0]
    assert "Season 1" in text or "第 1 赛季" in text
    assert "<@13>" in text.split("\n")[1].split("·")[0]  # the winner first in the final standings
    assert kw["allowed_mentions"].users is False and kw["allowed_mentions"].everyone is False


async def test_the_rank_card_names_the_biggest_hand_only_in_its_own_server(store):
    """On the global ladder the biggest hand may be another server's (a private channel's): its id (a replay
    key) is shown only where it was played. And one match is '1 match'."""
    m = await open_match(store, "s1", U, ladder="global")
    await play_hand(store, m, 0, U, 2, 30, last=True, discarder=3, now=1000)
    here = await ranked_ladder.rank_view(store, "global", 13, "p13", "en", guild_id=G)
    elsewhere = await ranked_ladder.rank_view(store, "global", 13, "p13", "en", guild_id=G + 1)
    assert here is not None and elsewhere is not None
    assert "s1-h0" in here["biggest"] and "s1-h0" not in elsewhere["biggest"]
    assert ranked_ladder.matches_text(1, "en") == "1 match" and ranked_ladder.matches_text(3, "en") == "3 matches"
    board = await ranked_ladder.leaderboard_text(store, "global", "en")
    assert "1 match" in board and "1 matches" not in board and "render." not in board
