"""The lobby: /mahjong create and the Join / Leave / Add computer / Start buttons, from raw payloads."""

import discord

from jxbot.custom_ids import parse_custom_id

from .conftest import CHANNEL, UserRef

ALICE, BOB, CAROL, DAVE, ERIN = 101, 102, 103, 104, 105


def lobby(fake):
    return next(m for m in fake.channel() if m.buttons and m.buttons[0]["label"] in ("加入", "Join"))


async def test_create_posts_lobby_with_buttons(harness):
    h, fake = harness, harness.fake
    iid = await h.command(ALICE, "mahjong create", stake=5)
    msg = lobby(fake)
    assert f"<@{ALICE}>" in msg.content and "底分 5" in msg.content
    # the channel speaks the guild's language (zh-CN), the buttons are structured ids
    assert [b["label"] for b in msg.buttons] == ["加入", "离开", "加电脑", "开始"]
    cids = [parse_custom_id(b["custom_id"]) for b in msg.buttons]
    assert [c.verb for c in cids] == ["join", "leave", "addbot", "start"]
    assert len({c.table for c in cids}) == 1
    assert fake.callback_types(iid) == [5]  # acknowledged at once (deferred), then answered


async def test_create_lists_missing_permissions_and_creates_nothing(harness):
    h, fake = harness, harness.fake
    perms = discord.Permissions(view_channel=True, send_messages=True)
    await h.command(ALICE, "mahjong create", perms=perms)
    text = fake.last_ephemeral(ALICE)
    assert "Embed Links" in text and "Attach Files" in text and "Read Message History" in text
    assert "Send Messages" not in text
    assert fake.channel() == [] and h.bot.get_cog("TablesCog").manager.tables == {}
    # in the user's own language
    await h.command(BOB, "mahjong create", perms=perms, locale="zh-CN")
    assert "附加文件" in fake.last_ephemeral(BOB)


async def test_create_rejects_stake_out_of_range_and_second_table(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=1_000_000)
    assert "between 1 and 1000" in fake.last_ephemeral(ALICE)  # the bot's stake limits (JXBOT_MAX_STAKE)
    await h.command(ALICE, "mahjong create", stake=2)
    await h.command(BOB, "mahjong create", stake=2)
    assert "already has a table" in fake.last_ephemeral(BOB)
    assert len(h.bot.get_cog("TablesCog").manager.tables) == 1


async def test_join_button_updates_lobby_and_dms_the_player(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=2)
    msg = lobby(fake)
    await h.click(BOB, msg, "加入")
    assert "South" in fake.last_ephemeral(BOB)
    assert f"<@{BOB}>" in msg.content and msg.edits == 1  # the lobby message is edited, not re-sent
    assert len(fake.dms(BOB)) == 1  # the DM that will become Bob's panel
    # a second press changes nothing
    await h.click(BOB, msg, "加入")
    assert "already seated" in fake.last_ephemeral(BOB)
    assert msg.edits == 1
    # the starting grant was paid once
    assert await h.bot.store.balance(800000000000000001, BOB) == 1000


async def test_join_with_closed_dms_is_detected_and_told(harness):
    h, fake = harness, harness.fake
    fake.dm_closed.add(BOB)
    await h.command(ALICE, "mahjong create", stake=2)
    await h.click(BOB, lobby(fake), "加入")
    notice = [m for m in fake.channel() if f"<@{BOB}>" in (m.content or "") and "私信" in m.content]
    assert notice, "the channel is told that Bob's DMs are closed"
    assert "看我的牌" in notice[0].content
    table = h.table()
    assert table.seats[table.seat_of(BOB)].dm_ok is False


async def test_full_table_and_addbot_and_owner_only_actions(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=2)
    msg = lobby(fake)
    await h.click(BOB, msg, "加入")
    await h.click(CAROL, msg, "加入")
    await h.click(ALICE, msg, "加电脑")
    assert "🤖" in msg.content
    await h.click(DAVE, msg, "加入")
    assert "full" in fake.last_ephemeral(DAVE)
    await h.click(BOB, msg, "开始")
    assert "owner" in fake.last_ephemeral(BOB)
    await h.command(BOB, "mahjong kick", user=UserRef(CAROL))
    assert "owner" in fake.last_ephemeral(BOB)
    await h.command(ALICE, "mahjong kick", user=UserRef(CAROL))
    assert f"<@{CAROL}>" not in msg.content
    await h.command(CAROL, "mahjong join")
    assert f"<@{CAROL}>" in msg.content


async def test_leave_before_start_and_table_closes_when_empty(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=2)
    msg = lobby(fake)
    await h.click(BOB, msg, "加入")
    await h.click(BOB, msg, "离开")
    assert f"<@{BOB}>" not in msg.content.split("\n", 3)[3]
    await h.click(ERIN, msg, "离开")
    assert "not at this table" in fake.last_ephemeral(ERIN)
    await h.command(ALICE, "mahjong leave")
    assert h.bot.get_cog("TablesCog").manager.tables == {}
    await h.click(BOB, msg, "加入")  # the lobby of a closed table
    assert "expired" in fake.last_ephemeral(BOB)


async def test_a_player_sits_at_one_table_at_a_time(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=2)
    await h.command(ALICE, "mahjong create", stake=2, channel_id=CHANNEL + 1)
    assert f"<#{CHANNEL}>" in fake.last_ephemeral(ALICE)


async def test_status_without_table_and_in_dm(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong status")
    assert "No table" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "mahjong status", locale="zh-CN")
    assert "没有牌桌" in fake.last_ephemeral(ALICE)
