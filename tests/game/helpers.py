"""Shared helpers for the game tests: scripted hands, acting by notation, invariant checks."""

from __future__ import annotations

import json

from jxbot.game import Action, ActionType, Hand
from jxbot.game.scripted import scripted_hand
from jxbot.rules.tiles import parse_tile

__all__ = ["A", "T", "act", "check_invariants", "discard_drawn", "fan_codes", "pass_all", "scripted_hand", "snapshot",
           "types"]


def T(text: str) -> int:
    return parse_tile(text)


def A(kind: str, seat: int, tile: str | int | None = None) -> Action:
    t = T(tile) if isinstance(tile, str) else tile
    return Action(ActionType(kind), seat, t)


def act(hand: Hand, kind: str, seat: int, tile: str | int | None = None) -> list:
    return hand.apply(A(kind, seat, tile))


def types(events: list) -> list[str]:
    return [e.type for e in events]


def snapshot(hand: Hand) -> str:
    """Everything observable about a hand, to check that a refused action changed nothing."""
    return json.dumps({
        "views": [hand.view(s) for s in range(4)],
        "public": hand.public_view(),
        "events": hand.events_json(),
        "pending": sorted(hand.pending()),
        "census": hand.tile_census(),
    }, sort_keys=True)


def check_invariants(hand: Hand) -> None:
    """What must hold after every step of any hand."""
    assert hand.tile_census() == [4] * 34, "136 tiles conserved, 4 of each kind"
    wc = hand.wildcard
    for s in range(4):
        for m in hand.melds[s]:
            assert wc is None or wc not in m.tiles, "no 百搭 in a meld"
        size = len(hand.concealed[s]) + 3 * len(hand.melds[s])
        holds_14 = (
            (hand.phase in ("turn", "contract") and s == hand.turn and hand.need_draw is None)
            or (hand.phase == "rob" and hand.window is not None and s == hand.window.seat)
            or (hand.phase == "ended" and hand.result is not None and hand.result.winner == s)
        )
        assert size == (14 if holds_14 else 13), f"seat {s} holds {size} (sets counted as 3) in {hand.phase}"
    pub = json.dumps(hand.public_view())
    assert '"hand"' not in pub and '"drawn"' not in pub and "wall\"" not in pub
    assert hand.salt not in pub


def pass_all(hand: Hand) -> None:
    """Every seat asked in an open claim/rob window passes."""
    while hand.phase in ("claim", "rob"):
        for s in sorted(hand.pending()):
            if s in hand.pending():
                hand.apply(Action(ActionType.PASS, s))


def discard_drawn(hand: Hand, seat: int) -> None:
    """``seat`` (on turn) discards what it drew, then every open window is passed."""
    assert hand.phase == "turn" and hand.turn == seat, (hand.phase, hand.turn, seat)
    hand.apply(hand.default_action(seat))
    pass_all(hand)


def fan_codes(hand: Hand) -> set[str]:
    assert hand.result is not None and hand.result.score is not None
    return {i.name for i in hand.result.score.fan}
