"""Caishen hands in the leaderboards and stats: they are worth stake × 倍 (台/番 are 0), so the biggest
hand ranks them by points and multiplier; Jiaxing hands keep their 台/番 boards."""

from __future__ import annotations

import re
import sqlite3

import asyncpg
import pytest

from jxbot.store import LEADERBOARD_KINDS, SCHEMA_VERSION, Store

from .conftest import CH, G, settlement, win_result

T0 = 1_700_000_000.0


def caishen_result(winner: int, mult: int, *, stake: int = 5, self_draw: bool = True,
                   patterns: tuple[str, ...] = ("caishen_head",)) -> dict:
    """A caishen result view: items are multipliers, 台/番 are 0 (as jxbot.rulesets.caishen.rules scores them)."""
    items = [{"name": p, "value": 4} for p in patterns]
    rest = mult
    for it in items:
        rest //= it["value"]
    if rest > 1:
        items.append({"name": "self_draw", "value": rest})
    return {
        "ruleset": "caishen", "drawn_game": False, "winner": winner, "self_draw": self_draw,
        "score": {"tai": [], "fan": items, "total_tai": 0, "total_fan": 0, "stake": stake, "points": stake * mult,
                  "patterns": list(patterns)},
    }


async def play(store, hand_id, winner, amount, result, *, ruleset, at, seats=(1, 2, 3, 4)):
    await store.create_hand(hand_id, G, CH, ruleset, list(seats), "c", now=at)
    transfers = [(s, winner, amount, "win") for s in range(4) if s != winner]
    return await store.settle_hand(hand_id, G, list(seats), settlement(*transfers), result, now=at)


@pytest.fixture
async def mixed(store, players):
    # user 1: a Jiaxing hand of 10 台 3 番 at stake 1 (80 points); user 2: a caishen ×32 at stake 5 (160
    # points) and a caishen ×8 at stake 1; user 3: a Jiaxing 3 台 1 番 at stake 5 (30 points)
    await play(store, "j1", 0, 80, win_result(0, tai=10, fan=3, stake=1), ruleset="jiaxing", at=T0)
    await play(store, "c1", 1, 160, caishen_result(1, 32), ruleset="caishen", at=T0 + 1)
    await play(store, "c2", 1, 8, caishen_result(1, 8, stake=1), ruleset="caishen", at=T0 + 2)
    await play(store, "j2", 2, 30, win_result(2, tai=3, fan=1, stake=5), ruleset="jiaxing", at=T0 + 3)
    return store


async def test_the_biggest_hand_board_ranks_caishen_hands_by_points_with_their_multiplier(mixed):
    assert {"biggest", "mult"} <= set(LEADERBOARD_KINDS)
    page = await mixed.leaderboard(G, "biggest")
    assert [(e.user_id, e.value) for e in page.entries] == [(2, 160), (1, 80), (3, 30)]
    top = page.entries[0].best
    assert (top.hand_id, top.ruleset, top.points, top.mult, top.tai, top.fan) == ("c1", "caishen", 160, 32, None, None)
    second = page.entries[1].best
    assert (second.ruleset, second.points, second.tai, second.fan, second.mult) == ("jiaxing", 80, 10, 3, None)
    mult = await mixed.leaderboard(G, "mult")
    assert [(e.user_id, e.value, e.best.hand_id) for e in mult.entries] == [(2, 32, "c1")]


async def test_tai_and_fan_boards_stay_jiaxing_only(mixed):
    assert [(e.user_id, e.value) for e in (await mixed.leaderboard(G, "tai")).entries] == [(1, 10), (3, 3)]
    assert [(e.user_id, e.value) for e in (await mixed.leaderboard(G, "fan")).entries] == [(1, 3), (3, 1)]
    # the old points board is the biggest hand by points, unchanged for Jiaxing
    assert [(e.user_id, e.value) for e in (await mixed.leaderboard(G, "points")).entries] == [(2, 160), (1, 80), (3, 30)]


async def test_player_stats_show_the_biggest_caishen_hand_by_multiplier_not_0_tai(mixed):
    st = await mixed.player_stats(G, 2)
    assert (st.wins, st.best_points, st.best_mult, st.best_tai, st.best_fan) == (2, 160, 32, 0, 0)
    assert (st.best_hand.hand_id, st.best_hand.mult, st.best_hand.tai) == ("c1", 32, None)
    assert st.favourite_pattern == "caishen_head"
    j = await mixed.player_stats(G, 1)
    assert (j.best_points, j.best_tai, j.best_fan, j.best_mult) == (80, 10, 3, 0)
    assert (j.best_hand.ruleset, j.best_hand.tai, j.best_hand.fan, j.best_hand.mult) == ("jiaxing", 10, 3, None)
    assert (await mixed.player_stats(G, 4)).best_hand is None
    recent = await mixed.recent_hands(G, 2, limit=4)
    by_id = {h.hand_id: h for h in recent}
    assert (by_id["c1"].mult, by_id["c1"].points, by_id["c1"].tai, by_id["c1"].fan) == (32, 160, None, None)
    assert (by_id["j1"].mult, by_id["j1"].points) == (None, None)  # a loss shows no hand value
    assert await mixed.check() == []


async def test_a_caishen_hand_played_by_the_engine_is_recorded_with_its_multiplier(store, players):
    hand_mod = pytest.importorskip("jxbot.game.hand")
    selfplay = pytest.importorskip("jxbot.ai.selfplay")
    make_player = pytest.importorskip("jxbot.ai.players").make_player
    for n in range(30):
        hand = selfplay.play_hand(hand_mod.Hand.new(f"store-cs-{n}", ruleset="caishen"),
                                  [make_player("normal", f"{n}-{s}") for s in range(4)])
        if hand.result is not None and not hand.result.drawn_game:
            break
    else:
        pytest.fail("no caishen hand was won in 30 tries")
    seats = [1, 2, 3, 4]
    await store.create_hand("real", G, CH, "caishen", seats, "c")
    s = hand.settle(await store.balances_for(G, seats), 0)
    view = hand.result_view()
    await store.settle_hand("real", G, seats, s, view)
    uid = seats[view["winner"]]
    mult = 1
    for item in view["score"]["fan"]:
        mult *= item["value"]
    st = await store.player_stats(G, uid)
    assert st.best_mult == mult >= 2 and st.best_points == view["score"]["points"] == mult * view["score"]["stake"]
    assert (st.best_tai, st.best_fan) == (0, 0)
    assert (await store.leaderboard(G, "biggest")).entries[0].best.mult == mult
    assert await store.check() == []


async def test_the_migration_fills_in_the_multiplier_of_caishen_hands_already_stored(db_url):
    path = db_url
    store = await Store.open(path)
    for uid in (1, 2, 3, 4):
        await store.ensure_player(uid, f"p{uid}")
        await store.grant_starting(G, uid)
    await play(store, "c1", 1, 48, caishen_result(1, 16, stake=3), ruleset="caishen", at=T0)
    await play(store, "j1", 0, 40, win_result(0, tai=5, fan=1, stake=4), ruleset="jiaxing", at=T0 + 1)
    await store.close()
    # take the database back to schema 1 (before multipliers were recorded)
    back = ("DROP TABLE IF EXISTS coach_reviews; DROP INDEX members_mult; ALTER TABLE members DROP COLUMN best_mult; ALTER TABLE hands DROP COLUMN mult; "
            "UPDATE hands SET tai = 0, fan = 0 WHERE hand_id = 'c1';")  # as schema 1 recorded them
    from jxbot.store.schema import MIGRATIONS

    later = [m.group(1) for step in MIGRATIONS[2:] for st in step if (m := re.match(r"\s*CREATE TABLE (\w+)", st))]
    back = "".join(f"DROP TABLE {name}; " for name in reversed(later)) + back  # the tables of later schemas
    if "://" in path:  # PostgreSQL: its migration V2 is the translated one (jsonb instead of json_extract)
        conn = await asyncpg.connect(path)
        await conn.execute(back + "UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        await conn.close()
    else:
        con = sqlite3.connect(path)
        con.executescript(back + "PRAGMA user_version = 1;")
        con.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 2
        st = await store.player_stats(G, 2)
        assert (st.best_mult, st.best_hand.mult, st.best_hand.points, st.best_hand.tai) == (16, 16, 48, None)
        assert (await store.player_stats(G, 1)).best_hand.mult is None
        assert [(e.user_id, e.value) for e in (await store.leaderboard(G, "mult")).entries] == [(2, 16)]
        assert await store.check() == []
    finally:
        await store.close()
