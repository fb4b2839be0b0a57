"""Views of one state share their public part (docs/views.md, "Shared parts"): what each seat sees must
stay exactly what a freshly built view shows, never another seat's concealed tiles, and nobody's change
to a view it was given may reach another view."""

from __future__ import annotations

import asyncio
import random

import pytest

from jxbot.game import Hand, HandContext
from jxbot.table import SeatInfo, TableConfig, TableRunner

from .test_property import flush_agent

OWN_KEYS = {"hand", "drawn", "actions"}


def _all_views(h: Hand) -> list[dict]:
    return [h.view(s) for s in range(4)] + [h.public_view()]


def _check_step(h: Hand) -> None:
    live = _all_views(h)  # the live hand's views come from its caches, warm from the steps before
    fresh = _all_views(Hand.replay(h.events))  # a new hand: every part built afresh
    assert live == fresh, "a view of the live hand differs from a freshly built one"
    public = live[4]
    for s in range(4):
        v = live[s]
        assert set(v) - set(public) == OWN_KEYS
        assert {k: x for k, x in v.items() if k not in OWN_KEYS and k != "viewer"} == \
            {k: x for k, x in public.items() if k != "viewer"}, "a seat view's shared part is not the public one"
        mine = sorted(v["hand"] + ([v["drawn"]] if v["drawn"] is not None else []))
        assert mine == sorted(h.concealed[s])


@pytest.mark.parametrize("ruleset,seed", [("jiaxing", 3), ("jiaxing", 11), ("caishen", 5), ("caishen", 8)])
def test_views_equal_freshly_built_ones_at_every_step(ruleset: str, seed: int) -> None:
    rng = random.Random(seed)
    h = Hand.new(f"shared/{seed}", ruleset=ruleset, context=HandContext(hand_id=f"s{seed}", dealer=seed % 4))
    steps = 0
    while not h.ended:
        _check_step(h)
        seat = rng.choice(sorted(h.pending()))
        h.apply(flush_agent(h, seat, h.legal_actions(seat), rng))
        steps += 1
    _check_step(h)
    assert steps > 40


def test_changing_a_view_given_out_changes_no_other_view() -> None:
    h = Hand.new("shared/mutate")
    v0, v1, pub = h.view(0), h.view(1), h.public_view()
    v0["hand"].append(33)
    v0["actions"].clear()
    v0["seats"] = []  # a caller may replace what its own dict holds
    v0["phase"] = "ended"
    assert h.view(0) != v0 and h.view(0)["phase"] == "turn" and len(h.view(0)["seats"]) == 4
    assert h.view(1) == v1 and h.public_view() == pub


def test_the_runner_decorates_copies_never_the_games_shared_parts() -> None:
    seats = [SeatInfo(name="Ann", user_id=1)] + [SeatInfo.computer(f"c{i}") for i in (1, 2, 3)]
    runner = TableRunner(seats, TableConfig(table_id="t1", seed="shared/runner"))
    runner.hand = runner.match.next_hand()
    mine, pub = runner.view(0), runner.public_view()
    assert mine is not None and pub is not None
    assert [s["name"] for s in mine["seats"]] == ["Ann"] + [s.name for s in seats[1:]]
    assert "hand" not in pub and pub["seats"] == mine["seats"]
    for v in (runner.hand.view(0), runner.hand.view(2), runner.hand.public_view()):
        assert all("name" not in s and "balance" not in s for s in v["seats"]), "runner fields reached the game"


def test_one_notification_decorates_the_seats_once_for_every_view() -> None:
    got: list[dict] = []

    class Rec:
        async def notify(self, view: dict, note: dict | None) -> None:
            got.append(view)

        async def on_result(self, result_view: dict) -> None:
            return None

    seats = [SeatInfo(name="Ann", user_id=1), SeatInfo(name="Bo", user_id=2)] + [
        SeatInfo.computer(f"c{i}") for i in (2, 3)]
    runner = TableRunner(seats, TableConfig(table_id="t2", seed="shared/notify"),
                         interfaces={0: Rec(), 1: Rec()}, observers=[Rec()])
    runner.hand = runner.match.next_hand()
    asyncio.run(runner._notify_all({"kind": "resume"}))
    a, b, pub = got
    assert a["seats"] is b["seats"] is pub["seats"] and a["seats"][1]["name"] == "Bo"
    assert "hand" not in pub and a["hand"] != b["hand"]
    assert sorted(a["hand"] + ([a["drawn"]] if a["drawn"] is not None else [])) == sorted(runner.hand.concealed[0])
    assert sorted(b["hand"]) == sorted(runner.hand.concealed[1])
    seat = min(runner.hand.pending())
    runner.hand.apply(runner.hand.legal_actions(seat)[-1])
    got.clear()
    asyncio.run(runner._notify_all(None))
    assert got[0]["seats"] is not a["seats"], "a new state gets new seat parts"
