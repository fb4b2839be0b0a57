"""Player actions. ``Hand.legal_actions(seat)`` lists them; ``Hand.apply(action)`` takes one.

JSON form: ``{"type": "discard", "seat": 0, "tile": 5}`` (``to_json`` / ``action_from_json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ActionType(StrEnum):
    DISCARD = "discard"  # tile: the tile discarded
    TSUMO = "tsumo"  # 自摸 胡 on your own turn
    CONCEALED_KONG = "angang"  # 暗杠; tile: the kind
    ADDED_KONG = "bugang"  # 补杠; tile: the kind added to your own 碰
    HU = "hu"  # 胡 on a discard, or 抢杠胡 on a 补杠 being declared
    PUNG = "peng"  # 碰 the discard
    KONG = "gang"  # 明杠 the discard
    CHOW = "chi"  # 吃 the discard; tile: the lowest kind of the resulting sequence
    PASS = "pass"  # 过 on a claim window (or a rob window)
    PERSIST = "persist"  # 坚持 in a contract decision
    GIVE_UP = "give_up"  # 放弃 in a contract decision


@dataclass(frozen=True, slots=True)
class Action:
    type: ActionType
    seat: int
    tile: int | None = None

    def to_json(self) -> dict:
        # plain dict literal: dataclasses.asdict deep-copies and dominated self-play time
        return {"type": self.type.value, "seat": self.seat, "tile": self.tile}

    def __str__(self) -> str:
        return f"{self.type.value}(seat={self.seat}" + (f", tile={self.tile})" if self.tile is not None else ")")


def action_from_json(d: dict) -> Action:
    return Action(ActionType(d["type"]), int(d["seat"]), d.get("tile"))


CLAIM_TYPES = frozenset({ActionType.HU, ActionType.PUNG, ActionType.KONG, ActionType.CHOW, ActionType.PASS})
TURN_TYPES = frozenset({ActionType.DISCARD, ActionType.TSUMO, ActionType.CONCEALED_KONG, ActionType.ADDED_KONG})
