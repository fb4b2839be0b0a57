"""Computer levels in the product (issue 18): /mahjong create and /mahjong addbot take a level, the
server default is an admin setting, the lobby and the table's seat names show each computer's level."""

import discord
import pytest

from jxbot.table.clock import FakeClock

from .conftest import GUILD

ALICE, BOB = 101, 102
MANAGE = discord.Permissions(manage_guild=True)


@pytest.fixture
async def game(harness):
    cog = harness.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = "levels"
    return harness


def lobby(fake):
    return next(m for m in fake.channel() if m.buttons and m.buttons[0]["label"] in ("加入", "Join"))


async def test_create_and_addbot_take_a_level_and_the_lobby_shows_it(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=2, level="hard")
    msg = lobby(fake)
    await h.click(ALICE, msg, "加电脑")  # the button adds a computer of the table's level
    assert "困难电脑 1" in msg.content
    await h.command(ALICE, "mahjong addbot", level="easy")
    assert "简单电脑 2" in msg.content
    table = h.table()
    assert [o.level for o in table.seats if o is not None and o.is_computer] == ["hard", "easy"]
    # start: the empty seat is filled at the table's level, and the runner plays each seat at its own
    await h.click(ALICE, msg, "开始")
    infos = table.session.runner.seats
    assert [s.level for s in infos if s.is_computer] == ["hard", "easy", "hard"]
    assert "困难电脑 3" in [s.name for s in infos]  # the name the table picture shows


async def test_unknown_level_gets_a_clear_message(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=2, level="expert")
    assert "no computer level 'expert'" in fake.last_ephemeral(ALICE)
    assert h.bot.get_cog("TablesCog").manager.tables == {}
    await h.command(ALICE, "mahjong create", stake=2)
    await h.command(ALICE, "mahjong addbot", level="godlike")
    assert "no computer level 'godlike'" in fake.last_ephemeral(ALICE)
    assert "🤖" not in lobby(fake).content


async def test_server_default_level_is_an_admin_setting(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "admin settings", member_perms=MANAGE, computer_level="easy")
    assert "computer_level = easy" in fake.last_ephemeral(ALICE)
    assert (await h.bot.store.get_guild_settings(GUILD)).computer_level == "easy"
    await h.command(ALICE, "mahjong create", stake=2)
    await h.command(ALICE, "mahjong addbot")
    assert "简单电脑 1" in lobby(fake).content
    await h.command(BOB, "admin settings", member_perms=MANAGE, computer_level="expert")
    assert "computer_level" in fake.last_ephemeral(BOB)  # refused, and says which setting
    assert (await h.bot.store.get_guild_settings(GUILD)).computer_level == "easy"
