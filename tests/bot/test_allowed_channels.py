"""Issue 24 finding 10: a server's ``allowed_channels`` (set with ``/admin settings channels:``) is enforced:
``/mahjong create`` elsewhere is refused with a localized message naming the allowed channels, pinging nobody;
``channels:all`` opens every channel again; nonsense is refused and changes nothing."""

import discord

from .conftest import CHANNEL, GUILD

ALICE = 101
MANAGE = discord.Permissions(manage_guild=True)
OTHER = 820000000000000002


def lobbies(fake, channel_id):
    return [m for m in fake.channel(channel_id) if m.buttons]


async def test_tables_open_only_in_the_allowed_channels(harness):
    h, fake = harness, harness.fake
    await h.bot.store.update_guild_settings(GUILD, allowed_channels=[OTHER])
    await h.command(ALICE, "mahjong create", stake=1)  # in CHANNEL: not allowed
    refusal = fake.ephemerals(ALICE)[-1]
    assert f"<#{OTHER}>" in refusal.content and "only be opened in" in refusal.content
    assert refusal.allowed_mentions is not None and not any(refusal.allowed_mentions.get(k) for k in
                                                           ("parse", "users", "roles", "replied_user"))
    assert not lobbies(fake, CHANNEL) and not h.bot.get_cog("TablesCog").manager.tables
    await h.command(ALICE, "mahjong create", stake=1, locale="zh-CN")
    assert "只能在这些频道开牌桌" in fake.last_ephemeral(ALICE)

    await h.command(ALICE, "mahjong create", stake=1, channel_id=OTHER)  # the allowed channel
    assert lobbies(fake, OTHER)


async def test_all_channels_again_and_bad_input(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "admin settings", member_perms=MANAGE, channels=f"<#{OTHER}>")
    assert f"allowed_channels = <#{OTHER}>" in fake.last_ephemeral(ALICE)
    assert (await h.bot.store.get_guild_settings(GUILD)).allowed_channels == (OTHER,)
    await h.command(ALICE, "admin settings", member_perms=MANAGE, channels=f"<#{OTHER}>, 830000000000000003")
    assert (await h.bot.store.get_guild_settings(GUILD)).allowed_channels == (OTHER, 830000000000000003)
    await h.command(ALICE, "admin settings", member_perms=MANAGE, channels="#general please")
    assert "is not a list of channels" in fake.last_ephemeral(ALICE)
    assert (await h.bot.store.get_guild_settings(GUILD)).allowed_channels == (OTHER, 830000000000000003)
    await h.command(ALICE, "admin settings", member_perms=MANAGE, channels="all")
    assert "allowed_channels = every channel" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "mahjong create", stake=1)
    assert lobbies(fake, CHANNEL)
