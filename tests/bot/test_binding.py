"""Every component bound to its message (docs/bot.md, "Component binding"): Show my hand, Replay and Fair
deal pressed on a message the bot did not send them on get the stale answer and change nothing; on their
own message they work. (Lobby, panel and replay viewer buttons: tests/e2e/test_binding.py.)"""

from __future__ import annotations

from jxbot.table import FakeClock

from .conftest import CHANNEL
from .test_replay import played

ALICE, MALLORY = 101, 666
OTHER = CHANNEL + 1
STALE = "expired"  # bot.err.stale (en)


def show_id(fake) -> tuple[object, str]:
    tm = next(m for m in fake.channel() if m.attachments == ["table.png"])
    return tm, next(b["custom_id"] for b in tm.buttons if b["custom_id"].startswith("mj:show:"))


async def test_show_my_hand_is_taken_from_the_table_message_only(harness):
    h, fake = harness, harness.fake
    cog = h.bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, 7
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = next(m for m in fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    tm, cid = show_id(fake)
    dms = len(fake.dms(ALICE))
    await h.click(ALICE, lobby, custom_id=cid)  # the table's own lobby message: not where Show was sent
    assert STALE in fake.last_ephemeral(ALICE)
    assert len(fake.dms(ALICE)) == dms, "no panel sent"
    await h.click(ALICE, tm, custom_id=cid)
    assert STALE not in fake.last_ephemeral(ALICE)
    assert len(fake.dms(ALICE)) == dms + 1, "the panel sent again from the table message"


async def test_replay_and_fair_deal_are_taken_from_the_hands_result_or_ones_own_history(harness):
    h, fake = harness, harness.fake
    hand_id, res = await played(h)
    elsewhere = fake._new(OTHER, {"content": "a message of the bot's in another channel"}, [])
    for verb in ("replay", "fair"):
        cid = next(b["custom_id"] for b in res.buttons if b["custom_id"].startswith(f"mj:{verb}:"))
        n = len(fake.ephemerals(MALLORY))
        await h.click(MALLORY, elsewhere, custom_id=cid)
        assert STALE in fake.last_ephemeral(MALLORY), verb
        assert len(fake.ephemerals(MALLORY)) == n + 1, "the stale answer alone"
        await h.click(MALLORY, res, custom_id=cid)
        assert STALE not in fake.last_ephemeral(MALLORY), verb
    assert elsewhere.edits == 0 and res.edits == 0
