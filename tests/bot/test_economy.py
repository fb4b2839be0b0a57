"""Silver commands and /admin, from raw payloads, against a real store in a temporary file."""

import discord

from .conftest import GUILD, UserRef

ALICE, BOB, CAROL = 101, 102, 103
MANAGE = discord.Permissions(manage_guild=True)


async def test_balance_daily_and_cooldown(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "balance")
    assert "1000 silver" in fake.last_ephemeral(ALICE)  # the starting grant, once
    await h.command(ALICE, "daily")
    assert "You got 100 silver (streak 1)" in fake.last_ephemeral(ALICE)
    assert await h.bot.store.balance(GUILD, ALICE) == 1100
    await h.command(ALICE, "daily", locale="zh-CN")
    assert "今天已经签到过了" in fake.last_ephemeral(ALICE) and "<t:" in fake.last_ephemeral(ALICE)
    assert await h.bot.store.balance(GUILD, ALICE) == 1100


async def test_pay_checks_and_moves_silver(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "balance")
    await h.command(ALICE, "pay", user=UserRef(ALICE), amount=5)
    assert "yourself" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=300)
    assert "Unknown player" in fake.last_ephemeral(ALICE)  # /pay registers nobody (the store's rule)
    assert await h.bot.store.get_player(BOB) is None
    await h.command(BOB, "daily")  # now Bob is a player: 1000 starting grant + 100
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=5000)
    assert "Not enough silver" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=300)
    paid = fake.channel()[-1].content  # a payment is announced in the channel
    assert f"<@{BOB}>" in paid and "300" in paid and "700" in paid
    assert await h.bot.store.balance(GUILD, BOB) == 1100 + 300
    assert await h.bot.store.check() == []


async def test_leaderboard_stats_history(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "balance")
    await h.command(BOB, "balance")
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=10)
    await h.command(CAROL, "leaderboard")
    board = fake.channel()[-1].content
    assert board.index(f"<@{BOB}>") < board.index(f"<@{ALICE}>")  # 1010 before 990
    await h.command(CAROL, "leaderboard", kind="wins", period="week", locale="zh-CN")
    assert "胡牌次数" in fake.channel()[-1].content
    await h.command(ALICE, "stats", user=UserRef(BOB))
    assert "0 hands" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "history")
    assert "not played" in fake.last_ephemeral(ALICE)


async def test_admin_needs_manage_server(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "admin grant", user=UserRef(BOB), amount=50)
    assert "Manage Server" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "admin settings", fee=9)
    assert "Manage Server" in fake.last_ephemeral(ALICE)
    assert (await h.bot.store.get_guild_settings(GUILD)).fee != 9


async def test_admin_settings_grant_set(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "admin settings", member_perms=MANAGE, fee=3, max_stake=50)
    text = fake.last_ephemeral(ALICE)
    assert "fee = 3" in text and "stake_max = 50" in text
    gs = await h.bot.store.get_guild_settings(GUILD)
    assert gs.fee == 3 and gs.stake_max == 50
    await h.command(ALICE, "admin settings", member_perms=MANAGE, min_stake=80)  # min above max
    assert "stake_max" in fake.last_ephemeral(ALICE)  # says which setting is wrong
    assert (await h.bot.store.get_guild_settings(GUILD)).stake_min != 80
    await h.command(ALICE, "admin grant", member_perms=MANAGE, user=UserRef(BOB), amount=50)
    assert "now 50" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "admin grant", member_perms=MANAGE, user=UserRef(BOB), amount=-80)
    assert "Not enough silver" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "admin set", member_perms=MANAGE, user=UserRef(BOB), amount=7)
    assert await h.bot.store.balance(GUILD, BOB) == 7
    # a new table uses the guild's settings: fee 3, stakes up to 50
    await h.command(ALICE, "mahjong create", stake=60)
    assert "between 1 and 50" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "mahjong create", stake=50)
    assert "服务费 3" in fake.channel()[-1].content
    assert await h.bot.store.check() == []
