"""A restart mid-hand: the new bot process resumes the table from the stored events, tells the channel,
refreshes the panel in place; the buttons of the panel from before the restart keep working when the
player's actions are still the same, older ones are stale."""

import copy

from jxbot.custom_ids import parse_custom_id
from jxbot.table import FakeClock

from .conftest import Harness, _shutdown, make_bot, restarted
from .test_play import ALICE, discard_buttons, panel, start_table


async def test_restart_resumes_table_and_rebinds_buttons(fake, monkeypatch, store):
    bot1 = await make_bot(fake, monkeypatch, store=store)
    h1 = Harness(bot1, fake)
    cog1 = bot1.get_cog("TablesCog")
    cog1.clock, cog1.computer_delay, cog1.seed = FakeClock(), 0.0, 11
    table1 = await start_table(h1)
    runner1 = table1.session.runner
    hand_id = runner1.hand.context.hand_id if hasattr(runner1.hand, "context") else runner1.hand.hand_id
    p = panel(fake, ALICE)
    first = copy.deepcopy(p)  # the panel of her first turn, as her client showed it
    await h1.click(ALICE, p, custom_id=discard_buttons(p)[0]["custom_id"])
    await h1.settle()
    discards_before = list(runner1.hand.public_view()["seats"][0]["discards"])
    before_restart = copy.deepcopy(panel(fake, ALICE))  # what Alice's client shows
    await runner1.pause()  # the process dies: everything so far is in the store
    await _shutdown(bot1)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    n_dms = len(fake.dms(ALICE))
    assert await cog2.resume_all() == 1
    await h2.settle()
    table2 = h2.table()
    runner2 = table2.session.runner
    assert str(getattr(runner2.hand, "hand_id", None) or runner2.hand.context.hand_id) == str(hand_id)
    assert runner2.hand.public_view()["seats"][0]["discards"][:len(discards_before)] == discards_before
    assert any("重启" in (m.content or "") for m in fake.channel())  # the players are told
    assert len(fake.dms(ALICE)) == n_dms  # the same panel message, edited in place
    # the copy from before the restart offers exactly what Alice may do now: its buttons keep working
    n = len(runner2.hand.public_view()["seats"][0]["discards"])
    old_ids = {parse_custom_id(b["custom_id"]).nonce for b in discard_buttons(before_restart)}
    assert {a["type"] for a in runner2.view(0)["actions"]} >= {"discard"}  # Alice's turn again
    fresh = discard_buttons(panel(fake, ALICE))
    assert fresh and {parse_custom_id(b["custom_id"]).nonce for b in fresh} == old_ids
    # an older copy (the panel before her first discard, other actions) is stale
    await h2.click(ALICE, first, custom_id=discard_buttons(first)[0]["custom_id"])
    assert "expired" in fake.last_ephemeral(ALICE)
    assert len(runner2.hand.public_view()["seats"][0]["discards"]) == n
    kept = discard_buttons(before_restart)
    await h2.click(ALICE, before_restart, custom_id=kept[0]["custom_id"])
    await h2.settle()
    assert len(runner2.hand.public_view()["seats"][0]["discards"]) == n + 1
    # the next buttons she is shown carry a nonce above every one from before the restart
    await _wait_turn(h2, runner2)
    later = discard_buttons(panel(fake, ALICE))
    assert later and int(parse_custom_id(later[0]["custom_id"]).nonce, 36) > int(old_ids.pop(), 36) + 1000
    await _shutdown(bot2)


async def _wait_turn(h: Harness, runner) -> None:
    for _ in range(60):
        await h.advance(1.0)  # computers move, claim windows pass
        v = runner.view(0)
        if v and any(a["type"] == "discard" for a in v.get("actions") or ()):
            return
    raise AssertionError("Alice's turn did not come back")
