"""End to end: an admin sees and cleans up the server's tables (issue 27; docs/bot.md, "Admin table control").
``/管理 牌桌`` lists them, ``/管理 关桌`` closes a lobby at once or stops a running table as a suspended one
stops (the hand void, no silver moved, the seats free, the channel told), an idle lobby closes by itself,
and a member without Manage Server is refused."""

from __future__ import annotations

import pytest

from tests.e2e.double import state as st
from tests.e2e.players import AutoPlayer, Player, Style
from tests.e2e.scenario import open_hand_ids, open_table, said, start_world, store_check

pytestmark = pytest.mark.e2e

MANAGE_GUILD = 1 << 5


def make_admin(w, name: str = "admin") -> Player:
    p = Player.join(w.double, name, w.guild, w.channel)
    role = st.Role(st.snowflake(), "admins", MANAGE_GUILD, 2)
    w.guild.roles[role.id] = role
    w.guild.members[p.id].roles.append(role.id)
    return p


async def balances(db, guild_id: int, users: list[int]) -> list[int]:
    from jxbot.store import Store

    store = await Store.open(str(db), scope=None)
    try:
        return [int(await store.balance(guild_id, u)) for u in users]
    finally:
        await store.close()


def channel_says(w, words: str) -> bool:
    return any(words in (m.content or "") for m in w.players[0].channel_messages(w.channel))


async def test_admin_lists_and_closes_a_lobby(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob"])
    alice, bob = w.players
    admin = make_admin(w)
    await open_table(w, seated=[alice, bob], start=False)
    listed = await said(await admin.slash("管理 牌桌"))
    assert w.table_id in listed and "等待开始" in listed and str(alice.id) in listed, listed
    assert "没有牌桌" not in listed

    # a member without Manage Server is refused and nothing changes
    refused = await said(await bob.slash("管理 关桌", 牌桌=w.table_id))
    assert "管理服务器" in refused and "已关闭" not in refused, refused
    assert "管理服务器" in await said(await bob.slash("管理 牌桌"))
    assert w.table_id in await said(await admin.slash("管理 牌桌"))

    done = await said(await admin.slash("管理 关桌", 牌桌=w.table_id))
    assert "已关闭" in done, done
    await double.wait_for(lambda: channel_says(w, "管理员关闭了牌桌"), 10, "the channel told")
    await double.wait_for(lambda: "已关闭" in w.lobby.content and not any(
        b.get("label") == "加入" and not b.get("disabled") for b in w.lobby.buttons()), 10, "the lobby closed")
    assert "没有牌桌" in await said(await admin.slash("管理 牌桌"))
    assert f"table {w.table_id} (lobby) closed by admin {admin.id}" in w.bot.tail(400)
    # the seats are free: Bob opens a new table in the same channel
    again = await bob.slash("麻将 开桌", 底分=5)
    await again.settled()
    assert "牌桌已开好" in " ".join(again.texts()), again.texts()
    code, out = await store_check(w.db)
    assert code == 0, out


async def test_admin_stops_a_running_table_the_hand_void(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"])
    alice = w.players[0]
    admin = make_admin(w)
    await open_table(w, computers=0)
    ap = AutoPlayer(alice, Style())
    await double.wait_for(ap._ready, 30, "alice's first panel")  # the hand runs; she does not move
    assert await open_hand_ids(w.db)
    before = await balances(w.db, w.guild.id, [alice.id])
    assert "对局中" in await said(await admin.slash("管理 牌桌"))

    done = await said(await admin.slash("管理 关桌", 牌桌=w.table_id), timeout=15)
    assert "作废" in done, done
    await double.wait_for(lambda: channel_says(w, "管理员停止了牌桌"), 10, "the channel told")
    assert await open_hand_ids(w.db) == []
    assert await balances(w.db, w.guild.id, [alice.id]) == before, "no silver moved"
    code, out = await store_check(w.db)
    assert code == 0, out
    assert f"stopped by admin {admin.id}" in w.bot.tail(400)
    # leaving is no escape (she sits nowhere) and a new table opens in the channel
    left = await alice.slash("麻将 离开")
    await left.settled()
    assert not any("逃跑" in x for x in left.texts()), left.texts()
    again = await alice.slash("麻将 开桌", 底分=5)
    await again.settled()
    assert "牌桌已开好" in " ".join(again.texts()), again.texts()


async def test_an_idle_lobby_closes_by_itself(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"])
    alice = w.players[0]
    admin = make_admin(w)
    shown = await said(await admin.slash("管理 设置", 空闲关桌分钟=0.05))  # 3 s
    assert "idle_lobby_minutes = 0.05" in shown, shown
    await open_table(w, computers=0, start=False)
    await double.wait_for(lambda: channel_says(w, "没有人动，自动关闭"), 20, "the idle close")
    await double.wait_for(lambda: "已关闭" in w.lobby.content, 10, "the lobby closed")
    assert f"table {w.table_id} (lobby) closed: idle" in w.bot.tail(400)
    again = await alice.slash("麻将 开桌", 底分=5)
    await again.settled()
    assert "牌桌已开好" in " ".join(again.texts()), again.texts()
