"""Hand-made seat views (docs/views.md) for the computer-player tests."""

from __future__ import annotations

import pytest

from jxbot.rules.melds import Meld
from jxbot.rules.tiles import parse_tiles, sort_hand


def build_view(hand: str, *, drawn: str | None = None, wildcard: str | None = None, seat: int = 0,
               melds: dict[int, list[Meld]] | None = None, discards: dict[int, str] | None = None,
               actions: list[dict] | None = None, phase: str = "turn",
               last_discard: tuple[int, str] | None = None, contract: list[int] | None = None,
               hand_id: str = "h1", indicator: str | None = None) -> dict:
    tiles = parse_tiles(hand)
    wild = parse_tiles(wildcard)[0] if wildcard else None
    d = parse_tiles(drawn)[0] if drawn else None
    melds = melds or {}
    discards = discards or {}
    if actions is None:
        kinds = sorted(set(tiles + ([d] if d is not None else [])))
        actions = [{"type": "discard", "seat": seat, "tile": k} for k in kinds]
    seats = []
    for s in range(4):
        seats.append({
            "seat": s, "seat_wind": s, "is_dealer": s == 0,
            "concealed_count": 13 - 3 * len(melds.get(s, [])),
            "melds": [m.to_json() for m in melds.get(s, [])],
            "discards": [{"tile": t, "claimed": False} for t in parse_tiles(discards.get(s, ""))],
            "gave_up": False, "name": f"p{s}", "is_computer": True, "balance": None, "auto": False,
        })
    return {
        "hand_id": hand_id, "ruleset": "jiaxing", "viewer": seat, "hand_number": 1, "round_wind": 0,
        "dealer": 0, "dice": [3, 4], "wildcard": wild,
        "indicator": parse_tiles(indicator)[0] if indicator else None,
        "wall_remaining": 60, "turn": seat, "phase": phase,
        "last_discard": ({"seat": last_discard[0], "tile": parse_tiles(last_discard[1])[0]}
                         if last_discard else None),
        "contract": contract, "cumulative_queue": [], "commitment": "0" * 64, "seats": seats,
        "hand": sort_hand(tiles, wild), "drawn": d, "actions": actions, "deadline": None,
    }


@pytest.fixture
def make_view():
    return build_view
