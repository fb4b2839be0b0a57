"""``/mahjong create`` without ``rounds``: the ruleset's match length (RULES B11: a 財神 table plays one 版 of
four rounds, a jiaxing one the East round); the lobby says so and the started table's match has it. The
creator may still choose."""

from __future__ import annotations

from jxbot.table import FakeClock

from .conftest import CHANNEL

ALICE = 101


async def start_table(h, *, channel_id=CHANNEL, **options):
    cog = h.bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay = FakeClock(), 0.0
    await h.command(ALICE, "mahjong create", channel_id=channel_id, stake=1, **options)
    table = cog.manager.in_channel(channel_id)
    lobby = next(m for m in h.fake.channel(channel_id) if m.id == table.lobby_message_id)
    await h.click(ALICE, lobby, "开始")
    runner = table.session.runner
    rounds = (table.config.rounds, runner.match.rounds, lobby.content)
    await runner.pause()
    cog.manager.end(table)
    return rounds


async def test_a_default_caishen_table_plays_one_ban(harness):
    config, match, lobby = await start_table(harness, ruleset="caishen")
    assert config == match == 4
    assert "4 圈" in lobby


async def test_a_default_jiaxing_table_plays_the_east_round_and_the_creator_may_choose(harness):
    assert (await start_table(harness))[:2] == (1, 1)
    assert (await start_table(harness, ruleset="caishen", rounds=1))[:2] == (1, 1)
    assert (await start_table(harness, ruleset="caishen", rounds=6))[:2] == (6, 6)
