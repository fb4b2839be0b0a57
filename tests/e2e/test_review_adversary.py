"""End to end: the coach's review as people press it (issue 30), against the real bot and the double.

Two hands. While the second hand is being played Alice presses 复盘 on the first hand's result twice, as fast
as a twitchy finger: both presses are answered, privately, with her review. A stranger (English client)
pressing it is refused privately in English. Bob (English) steps past his last decision with a stale client:
the viewer stays on the last one, and a costliest moment's page names the expert's move and its cost.
A step press after the kept review went stale (an older VERSION's) computes it again, with progress, on
the viewer itself. ``/stats`` in English counts "1 hand". ``/mahjong review`` with a hand id as a phone types or pastes it (a capital
first letter, the backticks copied with the message) finds the hand; an id that does not exist says so.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import gather_players, open_table, result_messages, start_world, wait_match_over

pytestmark = pytest.mark.e2e

ENV = {"JXBOT_CLAIM_WINDOW": "1", "JXBOT_REVIEW_PROCESSES": "1", "JXBOT_REVIEW_BUDGET_MS": "600",
       "JXBOT_MAX_HANDS": "2"}


def reviews(player) -> list:
    return [m for m in player.ephemerals() if m.content.startswith(("**复盘**", "**Review**")) and m.attachments]


def review_button(m) -> str:
    return next(b["custom_id"] for b in m.buttons() if b.get("custom_id", "").startswith("mj:review:"))


async def test_review_as_people_press_it(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "mallory"], env=ENV,
                          locales={"mallory": "en-US"})
    alice, bob, mallory = w.players
    await open_table(w, seated=[alice, bob], computers=2)
    aps = [AutoPlayer(p, Style()).start() for p in (alice, bob)]
    first = await double.wait_for(lambda: (result_messages(w) or [None])[0], 120, "the first hand's result")

    # while the next hand is played: Alice presses 复盘 twice at once; both answered, privately, with her review
    a1 = await alice.click(first, custom_id=review_button(first), wait=False)
    a2 = await alice.click(first, custom_id=review_button(first), wait=False)
    await a1.response(10)
    await a2.response(10)
    shown = await double.wait_for(lambda: (len(reviews(alice)) >= 2 and reviews(alice)) or None, 90, "both reviews")
    assert {m.ephemeral_for for m in shown} == {alice.id}
    hand_id = re.search(r"`([0-9a-f]{12}-1)`", shown[0].content)[1]
    assert all(f"`{hand_id}`" in m.content and "与专家一致" in m.content for m in shown)
    # a stranger: refused, privately, in their language
    act = await mallory.click(first, custom_id=review_button(first))
    await act.settled()
    assert act.ephemeral and act.texts() == ["Only the players of this hand can review their decisions."]

    await wait_match_over(w, timeout=180)
    await gather_players(aps)
    bob.user.locale = "en-US"

    # Bob steps to his last decision, then a stale client presses ▶ past it: still the last decision
    act = await bob.click(first, custom_id=review_button(first))
    await act.settled()
    v = await double.wait_for(lambda: (reviews(bob) or [None])[-1], 90, "bob's review")
    assert "Agrees with the expert" in v.content and "与专家" not in v.content
    n = int(re.search(r"\((\d+) of (\d+) decisions\)", v.content)[2])
    act = await bob.click(v, custom_id=next(b["custom_id"] for b in v.buttons() if b["custom_id"].startswith("mj:rv.3:")))
    await act.settled()
    v = await double.wait_for(lambda: next((m for m in reviews(bob) if f"decision {n}/{n}" in m.content), None), 30,
                              "bob's last decision")
    nxt = next(b for b in v.buttons() if b["custom_id"].startswith("mj:rv.2:"))
    assert nxt["disabled"]
    act = await bob.click(v, custom_id=nxt["custom_id"], force=True)
    await act.settled()
    assert f"decision {n}/{n}" in reviews(bob)[-1].content

    # a costliest moment's page says what the expert plays and what it cost, in words (not a bare "→ tile")
    costly = [b for b in reviews(bob)[-1].buttons() if b.get("label", "").startswith("#")]
    if costly:
        k = int(costly[0]["label"][1:])
        act = await bob.click(reviews(bob)[-1], custom_id=costly[0]["custom_id"])
        await act.settled()
        v = await double.wait_for(lambda: next((m for m in reviews(bob) if f"decision {k}/{n}" in m.content), None),
                                  30, "bob's costliest decision")
        assert re.search(r"→ expert: .+ \(−\d+\.\d\d\)", v.content), v.content

    # the kept review gone (an older VERSION's, or lost): a step press computes it again on the viewer itself
    import sqlite3

    con = sqlite3.connect(w.db)
    with con:
        con.execute("UPDATE coach_reviews SET version = 0, review = json_set(review, '$.version', 0) WHERE user_id = ?",
                    (bob.id,))
    con.close()
    before = len([x for x in w.recorder.private(bob.id) if "Reviewing…" in x.text])
    v = reviews(bob)[-1]
    act = await bob.click(v, custom_id=next(b["custom_id"] for b in v.buttons() if b["custom_id"].startswith("mj:rv.0:")))
    await act.settled(10)
    v = await double.wait_for(lambda: next((m for m in reviews(bob) if m.id == v.id and "Agrees with the expert" in m.content),
                                           None), 90, "bob's summary computed again")
    assert len([x for x in w.recorder.private(bob.id) if "Reviewing…" in x.text]) > before  # progress shown again

    # /mahjong review with the id as a phone types it (capital first letter) or pastes it (with the backticks)
    for typed in (hand_id[0].upper() + hand_id[1:], f"`{hand_id}`", f" {hand_id.upper()} "):
        act = await bob.slash("mahjong review", hand=typed)
        await act.settled()
        await double.wait_for(lambda a=act: any(f"`{hand_id}`" in x and "Agrees with the expert" in x
                                                for x in a.texts()), 30, f"the review of {typed!r}")
    act = await bob.slash("mahjong review", hand="ffffffffffff-9")
    await act.settled()
    assert act.ephemeral and act.texts() == ["There is no hand `ffffffffffff-9` in this server."]
    # /stats in English: one reviewed hand is "1 hand", not "1 hands"
    act = await bob.slash("stats")
    await act.settled()
    assert any("Reviewed 1 hand:" in x for x in act.texts()), act.texts()
    # nothing of a review is public
    assert not any("复盘中" in v.text or "**复盘**" in v.text or "**Review**" in v.text for v in w.recorder.public())
