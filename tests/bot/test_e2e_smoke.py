"""The real bot process (`jxbot run`) against the local Discord API double: create, join, start, a DM panel
with an image, a discard click, closed DMs. (The double and its fixtures: tests/e2e, docs/e2e.md.)"""

import pytest

from tests.e2e.conftest import double, start_bot  # noqa: F401  (fixtures)
from tests.e2e.players import Player

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_bot_plays_against_the_double(double, start_bot, tmp_path, backend):  # noqa: F811
    if backend == "postgresql":  # the same play, kill and resume with the store on a PostgreSQL server
        from tests import pgdb

        db = await pgdb.fresh_database(migrated=False)
    else:
        db = str(tmp_path / "db.sqlite3")
    guild = double.add_guild("test", locale="zh-CN")
    channel = double.add_text_channel(guild, "mahjong")
    alice = Player.join(double, "alice", guild, channel, locale="en-US")
    bob = Player.join(double, "bob", guild, channel, locale="zh-CN", dms_open=False)
    bot = await start_bot(["-m", "jxbot.cli", "run"],
                          env={"DEV_GUILD_ID": str(guild.id), "JXBOT_DB": db,
                               "JXBOT_EDIT_INTERVAL": "0.2", "JXBOT_TURN_SECONDS": "15", "JXBOT_CLAIM_WINDOW": "1"})
    await double.wait_commands()
    await double.wait_ready()
    await bot.wait_log("ready: every table resumed", timeout=30)  # the readiness gate open
    act = await alice.slash("mahjong create", stake=2)
    await act.settled()
    assert act.ephemeral
    lobby = await alice.wait_message(lambda m: any(b.get("label") == "加入" for b in m.buttons()))
    j = await bob.click(lobby, label="加入")
    await j.settled()
    await alice.wait_message(lambda m: "私信" in (m.content or "") and str(bob.id) in (m.content or ""))
    s = await alice.click(lobby, label="开始")
    await s.settled()
    panel = await alice.wait_dm(lambda m: m.image() is not None and len(m.buttons()) > 3, timeout=30)  # loaded CI
    # Alice discards from her DM panel at once (her turn lasts 15 s, so a loaded machine cannot time her out): the press is answered with the new
    # panel (type 7), the same message edited in place
    n = panel.edit_count
    tiles = [b for b in panel.buttons() if b.get("custom_id", "").startswith("mj:discard.")]
    d = await alice.click(panel, custom_id=tiles[0]["custom_id"])
    await d.response()
    assert d.response_type in (6, 7) and not d.failed, d.texts()  # 6 when the guard deferred it first
    await alice.wait_edited(panel, since=n)
    table_msg = await alice.wait_message(lambda m: any(b.get("label") == "看我的牌" for b in m.buttons()))
    assert table_msg.attachments
    show = await bob.click(table_msg, label="看我的牌")
    await show.settled()
    assert any(e.image() is not None for e in bob.ephemerals())
    # SIGKILL mid-hand, start again: the table resumes from the store, the channel is told, the
    # same panel is refreshed and its new buttons work
    await bot.kill()
    n = panel.edit_count
    await bot.start()
    await bot.wait_log("resumed 1 tables", timeout=20)
    await alice.wait_message(lambda m: "重启" in (m.content or ""))
    await alice.wait_edited(panel, since=n, timeout=30)  # (a loaded CI machine)
    def tiles() -> list:
        return [b for b in panel.buttons() if b.get("custom_id", "").startswith("mj:discard.")]

    # Alice's turn again: Bob's DMs are closed, so his turn runs out (15 s) and two computers play (1 s each,
    # a claim window after each discard, a pung) before it comes round: 30 s was too tight on a loaded CI machine
    await double.wait_for(lambda: bool(tiles()), timeout=60)
    n_disc = len(tiles())
    d = await alice.click(panel, custom_id=tiles()[0]["custom_id"])
    await d.response()
    assert d.response_type in (6, 7) and not d.failed, (d.texts(), bot.tail())  # answered with the new panel (or deferred, then edited)
    await double.wait_for(lambda: len(tiles()) != n_disc or not tiles(), timeout=10)  # the discard was taken
    # the only refusal Discord gave is the 50007 that told the bot Bob's DMs are closed
    assert double.errors == [], bot.tail()
    assert [r[3] for r in double.rejections] == [50007], bot.tail()
