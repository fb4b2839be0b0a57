"""End to end: the real bot process against the double. A player plays a hand, opens its replay from the
result, steps to the end and back, switches seats and jumps to a move — every hand picture is the one the
event log gives for that step — while a stranger to the table sees no concealed tile; the commitment is in
the channel before the first discard and the reveal after the result checks out with a few lines of
hashlib."""

from __future__ import annotations

import hashlib
import re

import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import (
    check_no_leak,
    check_png,
    events_of,
    gather_players,
    hand_states,
    hands_of,
    open_table,
    result_messages,
    start_world,
    wait_match_over,
)

pytestmark = pytest.mark.e2e


def viewer_of(player) -> object:
    return next((m for m in reversed(player.ephemerals()) if "**Replay**" in m.content or "**回放**" in m.content),
                None)


async def at_move(player, want: int, what: str) -> object:
    """The player's viewer once it shows move ``want`` (a press answered late is deferred, then edited)."""
    def shown() -> object:
        v = viewer_of(player)
        return v if v is not None and move(v) == want else None
    return await player.double.wait_for(shown, 15, what)


def move(m) -> int:
    found = re.search(r"move (\d+)/(\d+)|第 (\d+)/(\d+) 步", m.content)
    assert found, m.content
    return int(found[1] or found[3])


def attachment(m, name: str) -> bytes | None:
    return next((a.data for a in m.attachments if a.filename == name), None)


def button(m, prefix: str) -> str:
    return next(b["custom_id"] for b in m.buttons() if b.get("custom_id", "").startswith(prefix))


async def test_replay_from_the_result_and_the_fair_deal(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "mallory"], env={"JXBOT_CLAIM_WINDOW": "1"},
                          locales={"mallory": "en-US"})  # Alice plays in zh-CN, the stranger reads English
    alice, mallory = w.players
    await open_table(w, seated=[alice])
    # Alice is East and deals: nothing is discarded until she plays, and the commitment is already shown
    table_msg = await alice.wait_message(lambda m: "SHA-256" in m.content, w.channel, timeout=10)
    published = re.search(r"`([0-9a-f]{64})`", table_msg.content)[1]
    ap = AutoPlayer(alice, Style()).start()
    await wait_match_over(w)
    await gather_players([ap])
    res = result_messages(w)[0]
    (summary,) = await hands_of(w.db, w.guild.id, alice.id)
    events = await events_of(w.db, summary.hand_id)
    assert events[0]["commitment"] == published
    states = hand_states(events)

    import render
    from jxbot.game import events as ev
    from jxbot.replay import cut_steps

    steps = cut_steps([ev.event_from_json(e) for e in events])

    def expected_hand_png(k: int, seat: int) -> bytes:
        v = states[steps[k].last].view(seat)
        v["actions"] = []  # a replay shows the tiles, not the buttons of that moment
        return render.render_hand(v, "zh")

    # Alice opens the replay from the result: step 0, her own seat, her hand as the log gives it
    act = await alice.click(res, label="回放")
    await act.settled()
    v = await at_move(alice, 0, "alice's viewer")
    assert summary.hand_id in v.content
    check_png(attachment(v, "table.png"))
    assert attachment(v, "hand.png") == expected_hand_png(0, 0)
    last = len(steps) - 1
    seen = []
    for prefix, want, seat in (("mj:rp.3:", last, 0), ("mj:rp.1:", last - 1, 0), ("mj:rps.2:", last - 1, 2),
                               ("mj:rp.0:", 0, 2), ("mj:rp.2:", 1, 2)):
        a = await alice.click(v, custom_id=button(v, prefix))
        await a.settled()
        if prefix.startswith("mj:rps."):  # same move, another seat: wait for the seat's button to light up
            await alice.double.wait_for(lambda p=prefix: any(b["custom_id"].startswith(p) and b.get("style") == 1
                                                             for b in viewer_of(alice).buttons()), 15, "the seat")
        v = await at_move(alice, want, f"move {want}")  # the same ephemeral message, edited by the press
        assert attachment(v, "hand.png") == expected_hand_png(want, seat), (prefix, want, seat)
        seen.append(attachment(v, "table.png"))
        if want == last:
            check_png(attachment(v, "result.png"))
    assert len(set(seen)) >= 3  # the table picture follows the steps
    # go to move N through the box
    shown = await alice.click(v, custom_id=button(v, "mj:rpgo:"))
    await shown.response()
    assert shown.modal is not None
    sub = await alice.submit_modal(shown, {"move": "5"})
    await sub.settled()
    v = await at_move(alice, 5, "move 5")
    assert attachment(v, "hand.png") == expected_hand_png(5, 2)

    # a stranger to the table: public tiles only, whatever seat and step
    act = await mallory.click(res, label="回放")
    await act.settled()
    m = await at_move(mallory, 0, "mallory's viewer")
    assert "public tiles only" in m.content
    for prefix, want in (("mj:rps.1:", 0), ("mj:rp.3:", last), ("mj:rps.3:", last), ("mj:rp.1:", last - 1),
                         ("mj:rp.0:", 0)):
        a = await mallory.click(m, custom_id=button(m, prefix))
        await a.settled()
        m = await at_move(mallory, want, f"mallory at move {want}")
        assert attachment(m, "hand.png") is None
    texts = [v.text for v in w.recorder.private(mallory.id)]
    check_no_leak(texts, states)

    # the reveal, only now, and an independent check of it
    act = await mallory.click(res, label="公平发牌")
    await act.settled()
    fair = await mallory.double.wait_for(
        lambda: next((m for m in reversed(mallory.ephemerals()) if "Fair deal" in m.content), None), 15, "fair deal")
    assert fair.content.count("✅") == 3
    note = attachment(fair, next(a.filename for a in fair.attachments if a.filename.startswith("fair-deal-")))
    assert note is not None
    lines = dict(ln.split(": ", 1) for ln in note.decode().splitlines() if ": " in ln and not ln.startswith(" "))
    wall = bytes.fromhex(lines["wall bytes (hex, one byte per tile kind 0-33)"])
    salt = lines["salt"]
    assert len(wall) == 136 and sorted(wall) == sorted(list(range(34)) * 4)
    assert hashlib.sha256(wall + salt.encode()).hexdigest() == published
    assert salt not in "".join(v.text for v in w.recorder.public() if "SHA-256" in v.text)  # never before

    # the id as a phone types it (a capital first letter) or pastes it (with the message's backticks): the
    # replay and the fair-deal check find the hand as /mahjong review does
    hid = summary.hand_id
    for typed in (hid[0].upper() + hid[1:], f"`{hid}`", f" {hid.upper()} "):
        act = await mallory.slash("mahjong replay", hand=typed)
        await act.settled()
        await mallory.double.wait_for(lambda: any(hid in x for x in [m.content for m in mallory.ephemerals()][-1:]),
                                      15, f"the replay of {typed!r}")
        assert not any("no hand" in x for x in act.texts()), (typed, act.texts())
        act = await mallory.slash("mahjong verify", hand=typed)
        await act.settled()
        await mallory.double.wait_for(
            lambda: next((m for m in reversed(mallory.ephemerals()) if "Fair deal" in m.content and hid in m.content),
                         None), 15, f"the fair deal of {typed!r}")
