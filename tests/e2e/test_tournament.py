"""End to end: tournaments (issue 32; docs/tournaments.md). Scripted people register (the Register button or
``/比赛 报名``), an admin starts the event, the people play their panels at tables opened in threads, and:

* a duplicate event of two tables plays the same walls: the per-wall scores, computed here from the stored hands
  alone, sum to zero and are the standings the bot shows; the walls' commitment is published before the first
  deal, the secret revealed at the end matches it and gives every wall, and ``/麻将 验牌 <event>`` says so;
* a Swiss event of eight over two rounds played for silver, one player leaving their first table (a computer finishes it, they
  keep the result), the bot killed in the middle: the standings are the sums of each player's hands (each
  table counted once), every player has two placements.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sqlite3
from fractions import Fraction

import pytest

from tests.e2e.double import state as st
from tests.e2e.players import AutoPlayer, Player, Style
from tests.e2e.scenario import gather_players, said, start_world

pytestmark = pytest.mark.e2e

MANAGE_GUILD = 1 << 5
NAMES = ["ann", "bo", "cy", "di", "ed", "fu", "gil", "hal"]


def make_admin(w, name: str = "admin") -> Player:
    p = Player.join(w.double, name, w.guild, w.channel)
    role = st.Role(st.snowflake(), "admins", MANAGE_GUILD, 2)
    w.guild.roles[role.id] = role
    w.guild.members[p.id].roles.append(role.id)
    return p


def stored_hands(db) -> list[dict]:
    """Every settled hand: its table, commitment, revealed wall and each seat's name and delta (from the
    stored result alone)."""
    con = sqlite3.connect(str(db))
    try:
        rows = con.execute("SELECT hand_id, table_id, commitment, reveal, result FROM hands "
                           "WHERE status = 'settled' ORDER BY created_at").fetchall()
    finally:
        con.close()
    out = []
    for hid, tid, com, reveal, result in rows:
        res = json.loads(result)
        view = res.get("result") if isinstance(res.get("result"), dict) else res
        pays = sorted(view["payments"], key=lambda p: p["seat"])
        out.append({"hand_id": hid, "table_id": tid, "commitment": com,
                    "wall": (json.loads(reveal) or {}).get("wall") if reveal else None,
                    "names": [p["name"] for p in pays], "deltas": [int(p["delta"]) for p in pays]})
    return out


def standings_lines(text: str) -> dict[str, tuple[int, Fraction, list[int]]]:
    """``rank. name points · placements`` lines of the bot's standings."""
    out = {}
    for m in re.finditer(r"^(\d+)\. (\S+) ([+-][0-9.]+) · ([0-9 ]+)$", text, re.M):
        out[m.group(2)] = (int(m.group(1)), Fraction(m.group(3)), [int(x) for x in m.group(4).split()])
    return out


async def register_all(w, admin, fmt: str, rounds: int, stake: int = 0) -> tuple[str, str]:
    act = await admin.slash("tournament create", name="cup", format=fmt, rounds=rounds, hands=1, stake=stake)
    await act.settled()
    ann = await admin.wait_message(lambda m: "🏆" in m.content, w.channel)
    event_id = re.search(r"编号 `([0-9a-f]+)`", ann.content).group(1)
    commitment = re.search(r"牌墙承诺：`([0-9a-f]{64})`", ann.content).group(1)
    for i, p in enumerate(w.players):
        a = await (p.click(ann, label="报名") if i % 2 == 0 else p.slash("比赛 报名"))
        assert "报名成功" in await said(a), p.name
    again = await w.players[0].slash("比赛 报名")
    assert "已经报名" in await said(again)
    return event_id, commitment


async def test_duplicate_event_same_walls_zero_sum_and_verified(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, NAMES)
    admin = make_admin(w)
    # silver kept per server (the default): no event open to other servers (docs/tournaments.md)
    refused = await admin.slash("tournament create", name="world", scope="global")
    assert "SILVER_SCOPE=global" in await said(refused)
    event_id, commitment = await register_all(w, admin, "duplicate", 1)
    assert stored_hands(w.db) == []  # the commitment was published before any deal
    # two ways of playing, so the two tables' hands can go differently on the same wall
    aps = [AutoPlayer(p, Style(claim="greedy" if i % 2 else "pass")).start() for i, p in enumerate(w.players)]
    refused = await w.players[0].slash("比赛 开始")
    assert "管理服务器" in await said(refused)
    assert "比赛开始" in await said(await admin.slash("比赛 开始"), timeout=15)
    end = await admin.wait_message(lambda m: "结束！" in m.content, w.channel, timeout=120)
    board = await admin.wait_message(lambda m: m.content.startswith("**cup**") and m.image() is not None
                                     and m.id > end.id, w.channel, timeout=20)
    await gather_players(aps)

    hands = stored_hands(w.db)
    assert len(hands) == 2 and hands[0]["table_id"] != hands[1]["table_id"]
    # the same wall at both tables (the same commitment), each table its own hand
    assert hands[0]["commitment"] == hands[1]["commitment"] and hands[0]["wall"] == hands[1]["wall"]
    # per-wall duplicate scores, computed here: a seat's delta minus the mean of that seat over both tables
    scores: dict[str, Fraction] = {}
    for h in hands:
        other = next(o for o in hands if o is not h)
        for s in range(4):
            scores[h["names"][s]] = h["deltas"][s] - Fraction(h["deltas"][s] + other["deltas"][s], 2)
    assert sum(scores.values()) == 0 and set(scores) == set(NAMES)
    shown = standings_lines(board.content)
    assert {n: v[1] for n, v in shown.items()} == scores, board.content
    ranks = sorted(shown.values(), key=lambda v: v[0])
    assert all(a[1] >= b[1] for a, b in zip(ranks, ranks[1:], strict=False))  # ranked by points
    # the secret revealed at the end matches the commitment published before the first deal
    secret = re.search(r"牌墙密钥：`([0-9a-f]+)`", end.content).group(1)
    assert hashlib.sha256(b"jxbot-event\x00" + secret.encode()).hexdigest() == commitment
    from jxbot.game import Match
    from jxbot.game.rng import shuffled_wall

    round_secret = hashlib.sha256(b"jxbot-event-table\x00" + f"{secret}/round/1".encode()).hexdigest()
    assert shuffled_wall(Match(round_secret).hand_seed(1))[0] == hands[0]["wall"]
    ok = await said(await w.players[3].slash("麻将 验牌", hand=event_id))
    assert "✅" in ok and event_id in ok and "2" in ok, ok
    assert "验牌" in end.content  # the end tells how to check
    # the standings command shows the same
    again = await said(await w.players[1].slash("比赛 排名"), timeout=20)
    assert standings_lines(again) == shown, again


async def test_swiss_event_of_eight_over_two_rounds_with_a_restart(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, NAMES)
    admin = make_admin(w)
    event_id, _ = await register_all(w, admin, "swiss", 2, stake=2)  # for silver: each table settles as any
    left = await w.players[7].slash("比赛 退出")
    assert "取消报名" in await said(left)
    assert "报名成功" in await said(await w.players[7].slash("比赛 报名"))
    aps = [AutoPlayer(p, Style()).start() for p in w.players]
    assert "比赛开始" in await said(await admin.slash("比赛 开始"), timeout=15)
    # hal leaves their round-1 table as soon as it deals: a computer finishes it, hal keeps the result
    hal = w.players[7]
    await hal.wait_dm(lambda m: m.image() is not None, timeout=30)
    await aps[7].stop()
    assert "离开" in await said(await hal.slash("mahjong leave"))
    aps[7] = AutoPlayer(hal, Style()).start()  # back for round 2
    r2 = await admin.wait_message(lambda m: "第 2 轮开始" in m.content, w.channel, timeout=120)
    # the standings after round 1, as a picture and as text, before round 2 begins
    after1 = await admin.wait_message(lambda m: m.content.startswith("**cup**") and m.image() is not None, w.channel)
    assert after1.id < r2.id and all(len(v[2]) == 1 for v in standings_lines(after1.content).values())
    assert len(standings_lines(after1.content)) == 8
    # the bot dies in the middle of round 2; the restarted bot resumes both tables and carries on
    for ap in aps:
        ap.paused = True
    await w.bot.kill()
    await w.bot.start()
    for _ in range(600):
        if w.bot.log().count("ready: every table resumed") >= 2:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(w.bot.tail())
    for ap in aps:
        ap.errors.clear()  # a press in flight when the bot died fails, as it would for a person
        ap.paused = False
    double.notify()
    end = await admin.wait_message(lambda m: "结束！" in m.content, w.channel, timeout=150)
    board = await admin.wait_message(lambda m: m.content.startswith("**cup**") and m.image() is not None
                                     and m.id > end.id, w.channel, timeout=20)
    await gather_players(aps)

    hands = stored_hands(w.db)
    assert len(hands) == 4 and len({h["table_id"] for h in hands}) == 4  # two tables a round, one hand each
    totals = {n: 0 for n in NAMES}
    for h in hands:
        for n, d in zip(h["names"], h["deltas"], strict=True):
            totals[n] += d
    shown = standings_lines(board.content)
    assert {n: int(v[1]) for n, v in shown.items()} == totals, board.content
    assert all(len(v[2]) == 2 for v in shown.values())  # each player's two tables, each counted once
    assert sorted(v[0] for v in shown.values())[0] == 1
    con = sqlite3.connect(str(w.db))
    try:
        n = con.execute("SELECT COUNT(*) FROM event_tables WHERE event_id = ?", (event_id,)).fetchone()[0]
    finally:
        con.close()
    assert n == 4
    # played for silver: each player's balance moved by exactly their hands' results (starting grant 1000)
    from jxbot.store import Store

    store = await Store.open(str(w.db), scope=None)
    try:
        for p in w.players:
            assert await store.balance(w.guild.id, p.id) == 1000 + totals[p.name], p.name
    finally:
        await store.close()
