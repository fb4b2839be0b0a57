"""End to end: the coach's Review (复盘) button on a hand's result, with the real bot process against the double.

Alice and Bob play a hand with two computers. Alice presses 复盘 on the result: a private (ephemeral) answer
shows the progress ("复盘中… N%"), then the summary picture; she steps through her decisions (each a picture of
her own tiles, what she played and the expert's choice). Bob presses 复盘 and the bot is killed while his
review is being computed; after the restart Alice's old viewer still steps (its place is in the buttons, the
review in the store) and Bob's second press finishes his review. A stranger gets no review; nothing of a
review is ever public; /stats then shows each player's running agreement.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import (
    check_png,
    gather_players,
    open_table,
    result_messages,
    start_world,
    wait_match_over,
)

pytestmark = pytest.mark.e2e

READY = "ready: every table resumed"
ENV = {"JXBOT_CLAIM_WINDOW": "1", "JXBOT_REVIEW_PROCESSES": "1", "JXBOT_REVIEW_BUDGET_MS": "1000"}


def review_of(player) -> object:
    return next((m for m in reversed(player.ephemerals()) if "**复盘**" in m.content), None)


def page(m) -> int:
    found = re.search(r"第 (\d+)/(\d+) 步", m.content.split("\n", 1)[-1])
    return int(found[1]) if found else 0


def button(m, prefix: str) -> str:
    return next(b["custom_id"] for b in m.buttons() if b.get("custom_id", "").startswith(prefix))


async def at_page(player, want: int, what: str) -> object:
    def shown() -> object:
        v = review_of(player)
        return v if v is not None and page(v) == want and v.attachments else None
    return await player.double.wait_for(shown, 60, what)


async def test_review_button_private_progress_stepping_and_a_restart(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "mallory"], env=ENV)
    alice, bob, mallory = w.players
    await open_table(w, seated=[alice, bob], computers=2)
    aps = [AutoPlayer(p, Style()).start() for p in (alice, bob)]
    await wait_match_over(w)
    await gather_players(aps)
    res = result_messages(w)[0]
    assert any(b.get("label") == "复盘" for b in res.buttons())

    # a stranger to the table: no review, and nothing about anyone's decisions
    act = await mallory.click(res, label="复盘")
    await act.settled()
    assert act.ephemeral and any("只有这手牌的玩家" in x for x in act.texts()), act.texts()

    # Alice: privately, progress first, then the summary picture
    act = await alice.click(res, label="复盘")
    await act.settled()
    summary = await at_page(alice, 0, "alice's summary")
    assert summary.ephemeral_for == alice.id
    assert "与专家一致" in summary.content
    check_png(summary.image())
    progress = [v.text for v in w.recorder.private(alice.id) if "复盘中" in v.text]
    assert progress and all(re.search(r"复盘中… \d+%", x) for x in progress), progress
    n = int(re.search(r"（\d+/(\d+) 步）", summary.content)[1])
    assert n > 0

    # stepping: ▶ from the summary to decision 1, ⏭ to the last, ◀ back one
    pictures = []
    for prefix, want in (("mj:rv.2:", 1), ("mj:rv.3:", n), ("mj:rv.1:", n - 1)):
        a = await alice.click(review_of(alice), custom_id=button(review_of(alice), prefix))
        await a.settled()
        v = await at_page(alice, want, f"decision {want}")
        assert v.ephemeral_for == alice.id and v.attachments[0].filename == f"decision-{want}.png"
        check_png(v.image())
        pictures.append(v.image())
    assert len(set(pictures)) == 3

    # Bob asks; the bot is killed while his review is computed
    act = await bob.click(res, label="复盘")
    await act.settled()
    await bob.double.wait_for(lambda: any("复盘中" in v.text for v in w.recorder.private(bob.id)), 30, "bob's progress")
    ready = w.bot.log().count(READY)
    await w.bot.restart()  # SIGKILL, then a new process
    await double.wait_for(lambda: w.bot.log().count(READY) > ready, 60, "the bot to come back")

    # after the restart: Alice's viewer still steps (its place is in the buttons, her review in the store)
    a = await alice.click(review_of(alice), custom_id=button(review_of(alice), "mj:rv.0:"))
    await a.settled()
    await at_page(alice, 0, "alice's summary after the restart")
    # a forged press on Alice's viewer by Bob changes nothing
    a = await bob.click(review_of(alice), custom_id=button(review_of(alice), "mj:rv.2:"), force=True)
    await a.settled()
    assert page(review_of(alice)) == 0
    # and Bob's second press finishes his review
    act = await bob.click(res, label="复盘")
    await act.settled()
    bs = await at_page(bob, 0, "bob's summary")
    assert bs.ephemeral_for == bob.id and "与专家一致" in bs.content

    # nothing of a review is public
    assert not any("复盘中" in v.text or "**复盘**" in v.text for v in w.recorder.public())
    # /stats: the running agreement
    act = await alice.slash("战绩")
    await act.settled()
    assert any("复盘 1 手" in x and "与专家一致" in x for x in act.texts()), act.texts()
