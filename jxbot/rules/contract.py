"""Data types of the scoring and settlement API (the contract between the rules engine and its users).

The functions that fill them live in ``scoring.py`` (``score_win``) and ``settle.py`` (``settle``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

# Codes of the 台 and 番 items. Labels (zh/en) are in ``jxbot.rules.names``.
TAI_CODES = (
    "red_dragon",  # 中 pung/kong
    "green_dragon",  # 发
    "white_dragon",  # 白
    "round_wind",  # 圈风
    "seat_wind",  # 门风
    "no_wildcard",  # 无百搭
    "all_pungs",  # 对对胡
    "half_flush",  # 混一色
    "full_flush",  # 清一色
    "all_honors",  # 字一色
)
FAN_CODES = (
    "three_wildcards",  # 三百搭
    "kong_bloom",  # 杠上开花
    "single_wait",  # 单吊
    "last_tile",  # 海底捞月
    "heavenly",  # 天胡
    "earthly",  # 地胡
    # cumulative 番 (A7): the name of the one taken from the queue
    "huang",  # 黄番
    "laotou_huang",  # 老头黄
    "baozi",  # 包子
    "wildcard_repeat",  # 百搭连庄
    "cumulative",  # cumulative 番 given as a bare number (``score_win(cumulative=N)``, ``jxbot score --cumulative N``)
)
CUMULATIVE_CODES = ("huang", "laotou_huang", "baozi", "wildcard_repeat")


@dataclass(frozen=True, slots=True)
class ScoreItem:
    name: str  # a code from TAI_CODES / FAN_CODES
    value: int

    def to_json(self) -> dict:
        return {"name": self.name, "value": self.value}


@dataclass(frozen=True, slots=True)
class Score:
    """Result of ``score_win``. ``winning`` False carries ``reason`` ("no_shape" or "no_pattern")."""

    winning: bool
    reason: str | None = None
    tai: tuple[ScoreItem, ...] = ()
    fan: tuple[ScoreItem, ...] = ()
    total_tai: int = 0
    total_fan: int = 0
    stake: int = 1
    points: int = 0
    # The reading used: sets as sorted tile tuples with wildcards resolved, and the pair.
    sets: tuple[tuple[int, ...], ...] = ()
    pair: tuple[int, int] | None = None
    patterns: tuple[str, ...] = ()  # e.g. ("full_flush", "all_pungs")

    def to_json(self) -> dict:
        return {
            "winning": self.winning,
            "reason": self.reason,
            "tai": [i.to_json() for i in self.tai],
            "fan": [i.to_json() for i in self.fan],
            "total_tai": self.total_tai,
            "total_fan": self.total_fan,
            "stake": self.stake,
            "points": self.points,
            "sets": [list(s) for s in self.sets],
            "pair": list(self.pair) if self.pair else None,
            "patterns": list(self.patterns),
        }


@dataclass(frozen=True, slots=True)
class Transfer:
    """Silver moved by a settlement. ``None`` as payer or payee is the house account."""

    payer: int | None
    payee: int | None
    amount: int
    reason: str  # "win", "fee", "escape"

    def to_json(self) -> dict:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Settlement:
    transfers: tuple[Transfer, ...]
    deltas: tuple[int, int, int, int]  # per seat
    house_delta: int  # sum(deltas) + house_delta == 0
    owed: tuple[int, int, int, int] = (0, 0, 0, 0)  # what each seat owed before the balance cap
    details: dict = field(default_factory=dict)

    def payments(self, balances: Sequence[int | None]) -> list[dict]:
        """The result view's ``payments`` rows (docs/views.md), one per seat: ``delta`` is the seat's whole
        balance change, the fee **included**; ``fee`` is the part of it that went to the house; ``balance``
        the silver after the hand (``None`` for a computer seat); ``owed`` what the seat owed at the table
        before the balance cap, ``capped`` whether it paid less, ``why`` the reasons ``[[code, multiplier], …]``
        (``jxbot.rules.explain``). What the seat won or lost at the table
        is therefore ``delta + fee`` (the result picture's 输赢 column: 输赢 − 服务费 = the change)."""
        rows = []
        for seat in range(4):
            fee = sum(t.amount for t in self.transfers if t.payer == seat and t.reason == "fee")
            b = balances[seat]
            why = (self.details.get("why") or [[], [], [], []])[seat]
            capped = (self.details.get("capped") or [False] * 4)[seat]
            rows.append({"seat": seat, "delta": self.deltas[seat], "fee": fee,
                         "balance": None if b is None else b + self.deltas[seat],
                         "owed": self.owed[seat], "capped": bool(capped), "why": [list(w) for w in why]})
        return rows

    def to_json(self) -> dict:
        return {
            "transfers": [t.to_json() for t in self.transfers],
            "deltas": list(self.deltas),
            "house_delta": self.house_delta,
            "owed": list(self.owed),
        }
