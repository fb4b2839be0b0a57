"""The expert's proposer at a caishen table plays for 單釣財神頭 (jxbot/rulesets/caishen/ai_expert.py): exactly
the play measured by bench/proposer_headroom.py as ``cs_singleclaim+cs_decline2+cs_headfirst+cs_claimhead``,
while the hard caishen player is unchanged."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from jxbot.ai import base
from jxbot.ai.expert import Proposer
from jxbot.ai.hard import HardPlayer
from jxbot.ai.players import make_player
from jxbot.ai.seatview import Table
from jxbot.game import Hand, HandContext
from jxbot.rulesets.caishen import ai_expert, ai_hard

from .helpers import T, cs_hand, discard

ROOT = Path(__file__).resolve().parents[2]
COMBO = "cs_singleclaim+cs_decline2+cs_headfirst+cs_claimhead"
HANDS = 40
JUNK0 = "147p258s1234567z6m"  # 14 tiles for the dealer: nothing anyone here claims
JUNK2 = "369p147s1234567z"
JUNK3 = "258p369s1234567z"


@pytest.fixture(scope="module")
def bench() -> Any:
    """bench/proposer_headroom.py, loaded without leaving its bench-only level ``hardx`` registered."""
    classes, path = dict(base._CLASSES), list(sys.path)
    spec = importlib.util.spec_from_file_location("_proposer_headroom", ROOT / "bench" / "proposer_headroom.py")
    assert spec is not None and spec.loader is not None
    mod: ModuleType = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "bench"))  # its caishen variants: bench/proposer_headroom_cs.py
    try:
        spec.loader.exec_module(mod)
    finally:
        base._CLASSES.clear()
        base._CLASSES.update(classes)
        sys.path[:] = path
    return mod


def _bench_choice(bench: Any, view: dict) -> dict:
    """What the bench's challenger plays at ``view``: the hard caishen player under the combo's patches,
    applied in the bench's order (a later patch of the same attribute wins) and undone after."""
    saved = []
    for obj, attr, val in bench._combo(COMBO):
        saved.append((obj, attr, obj.__dict__[attr]))
        setattr(obj, attr, val)
    try:
        return ai_hard.decide(Table(view))
    finally:
        for obj, attr, val in reversed(saved):
            setattr(obj, attr, val)


def test_the_expert_proposer_plays_exactly_the_benched_combination(bench: Any) -> None:
    # seat 0 is the expert's proposer, so the hands reach the positions its own declines and claims make;
    # every seat's decisions are compared (seats 1-3 are hard players: what the proposer would play there)
    compared = differ = 0
    for n in range(HANDS):
        seed = f"cs-expert-eq/{n}"
        hand = Hand.new(seed.encode(), ruleset="caishen",
                        context=HandContext(hand_id=f"eq-{n}", hand_number=1, dealer=n % 4, round_wind=0, stake=1))
        players = [Proposer(f"{seed}/0"), *(make_player("hard", f"{seed}/{i}") for i in (1, 2, 3))]
        while hand.phase != "ended":
            seat = min(hand.pending())
            view = hand.view(seat)
            action = players[seat].choose(view)
            if len(view["actions"]) > 1:
                shipped = ai_expert.decide(Table(view))
                assert seat != 0 or shipped == action.to_json()
                assert shipped == _bench_choice(bench, view), (seed, view)
                compared += 1
                differ += shipped != ai_hard.decide(Table(view))
            hand.apply(action)
    print(f"compared {compared} decisions, {differ} differ from the hard player's")
    assert compared > 1500 and differ >= 20


def _single_head_draw() -> dict:
    """Seat 1 holds four sets, a 財神 (9p) and 5s and draws 3p: 財神頭 (×4) on offer by self-draw."""
    h = cs_hand({0: JUNK0, 1: "123456789m12p5s9p", 2: JUNK2, 3: JUNK3}, draws="3p")
    discard(h, 0, "6m")
    v = h.view(1)
    assert v["wildcard"] == T("9p") and v["drawn"] == T("3p")
    assert "tsumo" in {a["type"] for a in v["actions"]}
    return v


def test_the_expert_declines_a_caishen_head_self_draw_for_a_lone_caishen_wait() -> None:
    v = _single_head_draw()
    # discarding the 5s leaves four sets and the lone 財神: every tile then wins ×8
    assert Proposer("p").choose(v).to_json() == {"type": "discard", "seat": 1, "tile": T("5s")}


def test_the_hard_player_still_takes_the_caishen_head_self_draw() -> None:
    v = _single_head_draw()
    assert HardPlayer("h").choose(v).to_json()["type"] == "tsumo"
    assert make_player("hard", "h").choose(v).to_json()["type"] == "tsumo"


def test_the_expert_takes_a_single_caishen_head_win() -> None:
    h = cs_hand({0: JUNK0, 1: "123456789m123p9p", 2: JUNK2, 3: JUNK3}, draws="7z")
    discard(h, 0, "6m")
    v = h.view(1)
    assert "tsumo" in {a["type"] for a in v["actions"]}  # the lone 財神 waited: ×8
    assert Proposer("p").choose(v).to_json()["type"] == "tsumo"
