"""A SIGTERM stop while people press (issue 24, "nothing is lost"; docs/bot.md, "Stopping: the graceful stop").

Alice plays at a table with three computers and presses her panel continuously; the bot gets SIGTERM
(``systemctl restart``). The stop closes the readiness gate again, lets the presses already being handled
finish and their answers go out, pauses the tables and saves them, and only then closes its HTTP session:

- the log holds no ERROR line and no traceback (before, in-flight answers and panel edits ran into the
  closed HTTP session: ``button discard at table … failed`` … ``RuntimeError: Session is closed``);
- a press or a command during the stop gets the polite "restarting, try again in a few seconds" (or no
  answer at all), never "something went wrong";
- every press whose result Alice was shown is in the store, and after the restart the same hand resumes
  with it and takes her next presses.

``JXBOT_TEST_STOP_DELAY`` holds the stop's closed gate open two seconds (as a stop with many presses in
flight would), so the presses during the stop are answered by a live bot.
"""

from __future__ import annotations

import asyncio
import re
import signal

import pytest

from tests.e2e.players import Action, AutoPlayer, Panel, Style, choose
from tests.e2e.scenario import events_of, open_hand_ids, open_table, said, start_world, store_check

pytestmark = pytest.mark.e2e

STOPPING_LINE = "SIGTERM: stopping"
POLITE = re.compile(r"重启|再试")  # 机器人正在重启……请几秒钟后再试 (and the starting-up answer, likewise polite)
INTERNAL = ("出错了，已记录", "Something went wrong")


def applied(ap: AutoPlayer) -> list[tuple[Panel, str, int | None]]:
    """The presses whose result Alice was shown: the panel updated in the answer (type 7), or a deferred
    update (type 6) with no refusal sent after it."""
    out = []
    for p, verb, tile, act in ap.clicks:
        i = act.interaction
        if i.response_type == 7 or (i.response_type == 6 and not i.followups):
            out.append((p, verb, tile))
    return out


def her_moves(events: list[dict], seat: int) -> list[tuple[str, object]]:
    """Alice's own moves in the stored hand: a discard (its tile) or a claim answer (its action)."""
    out: list[tuple[str, object]] = []
    for e in events:
        if e.get("seat") != seat:
            continue
        if e["type"] == "discarded":
            out.append(("discard", e["tile"]))
        elif e["type"] == "claim_answered":
            out.append((e["action"], None))
    return out


def is_subsequence(small: list, big: list) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def pressed(presses: list[tuple[Panel, str, int | None]]) -> list[tuple[str, object]]:
    return [("discard", tile) if verb == "discard" else (verb, None) for _, verb, tile in presses]


async def press(ap: AutoPlayer, *, wait: bool = True, timeout: float = 30.0) -> Action:
    """Alice presses what her newest panel offers (as an AutoPlayer chooses), recorded in ``ap.clicks``."""
    p = await ap.player.double.wait_for(ap._ready, timeout, "alice's panel", keys=[("user", ap.player.id)])
    assert isinstance(p, Panel)
    ap._done.add(p.key)
    ap.seen.append(p)
    verb, tile = choose(p.tiles, p.drawn, p.wildcard, [(v, a) for v, a, _ in p.actions], ap.style)
    act = await ap.player.click(p.message, custom_id=p.custom_id(verb, tile), wait=wait)
    ap.clicks.append((p, verb, tile, act))
    return act


async def test_sigterm_while_pressing_loses_nothing_and_logs_no_error(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"],
                          env={"JXBOT_COMPUTER_DELAY": "0.05", "JXBOT_TEST_SEED": "4242", "JXBOT_MAX_HANDS": "3",
                               "JXBOT_TURN_SECONDS": "30", "JXBOT_TEST_STOP_DELAY": "2"})
    alice = w.players[0]
    await open_table(w, computers=3)
    # she passes every claim and never wins or declares a kong: each of her presses is one stored move
    ap = AutoPlayer(alice, Style(claim="pass", kong=False, win=False))
    for _ in range(5):
        await press(ap)
    (hand_id,) = await open_hand_ids(w.db)

    proc = w.bot.proc
    assert proc is not None
    inflight = await press(ap, wait=False)  # the SIGTERM comes while this press is being handled
    await asyncio.sleep(0.05)  # (the bot has it by then, and its answer, a panel picture, is not out yet)
    proc.send_signal(signal.SIGTERM)
    await w.bot.wait_log(STOPPING_LINE, timeout=10)
    # during the stop she presses again, and types a command: a polite answer, or none
    during = [await alice.slash("麻将 状态", wait=False)]
    panel = alice.dm_panel()
    assert panel is not None
    # whatever the panel offers now (a tile when it is her turn; its auto-win switch is always there)
    button = next(b for b in panel.buttons() if (b.get("custom_id") or "").startswith("mj:") and not b.get("disabled"))
    during.append(await alice.click(panel, custom_id=button["custom_id"], wait=False))
    assert len(during) == 2
    for act in during:
        text = await said(act)
        assert not any(s in text for s in INTERNAL), text
        assert act.interaction.response_type is None or POLITE.search(text), (text, act.interaction.response_type)
    assert await asyncio.wait_for(proc.wait(), 30) == 0, w.bot.tail()
    log = w.bot.log()
    assert "Traceback" not in log, w.bot.tail(200)
    errors = [ln for ln in log.splitlines() if re.search(r"\bERROR\b", ln)]
    assert not errors, "\n".join(errors)
    said_inflight = await said(inflight)
    assert not any(s in said_inflight for s in INTERNAL), said_inflight
    told = [t for _, _, _, act in ap.clicks for t in act.texts()]
    assert not [t for t in told if any(s in t for s in INTERNAL)], told

    # every press she saw applied (the one in flight at the SIGTERM too, if it was taken) is in the store, in order
    shown = applied(ap)
    seat = int(shown[0][0].seat)
    stored = her_moves(await events_of(w.db, hand_id), seat)
    assert is_subsequence(pressed(shown), stored), (pressed(shown), stored)

    # the restart resumes the same hand, with those presses, and takes her next ones
    await w.bot.start()
    notice = await alice.wait_message(lambda m: "重启" in m.content and m.ephemeral_for is None, w.channel, timeout=30)
    assert "继续" in notice.content
    assert await open_hand_ids(w.db) == [hand_id], "the same hand goes on (it waits for her move)"
    n = len(shown)
    ap._done.clear()
    ap.start()
    try:
        await double.wait_for(lambda: len(applied(ap)) >= n + 2 or None, 60, "two more presses answered after the restart")
    except TimeoutError:
        raise AssertionError(f"{[(v, t, a.interaction.response_type, a.texts()) for _, v, t, a in ap.clicks[n:]]} "
                             f"{ap.errors} {[(m.id, m.content[:80], m.edit_count) for m in alice.dm_messages()[-3:]]}") from None
    await ap.stop()
    now = her_moves(await events_of(w.db, hand_id), seat)
    assert now[:len(stored)] == stored, "the restart kept every stored move"
    rc, out = await store_check(w.db)
    assert rc == 0, out
