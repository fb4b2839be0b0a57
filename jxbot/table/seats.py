"""Seats and table settings of the runner."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Seat(Protocol):
    """A human seat's output (the Discord layer and the terminal implement it), or a channel observer.

    ``notify`` gets the seat view (docs/views.md, with the runner fields) after every change, and a
    ``note`` saying what just happened (see docs/table.md), or ``None``. It must return quickly (store
    the view and schedule the I/O); the runner awaits it. Observers get the public view.
    """

    async def notify(self, view: dict, note: dict | None) -> None: ...

    async def on_result(self, result_view: dict) -> None: ...


@dataclass
class SeatInfo:
    """Who sits in a seat, and the runner's per-seat flags."""

    name: str
    is_computer: bool = False
    level: str = "normal"  # computer level ("easy" | "normal" | "hard" | "expert")
    user_id: Any = None  # opaque to the runner (the bot's Discord user id)
    lang: str = "zh"
    auto: bool = False  # on auto-play (a computer plays the seat)
    autowin: bool = False  # 听牌 自动胡: declare 胡 whenever possible
    escaped: bool = False  # left during the current hand
    left: bool = False  # left the table; a computer takes the seat from the next hand on
    timeouts: int = 0  # turn timeouts in a row

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> SeatInfo:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    @classmethod
    def computer(cls, name: str, level: str = "normal") -> SeatInfo:
        return cls(name=name, is_computer=True, level=level)


@dataclass
class TableConfig:
    """Table settings. ``None`` times fall back to the ruleset's defaults (5 s / 20 s / 15 s)."""

    table_id: str = "table"
    ruleset: str = "jiaxing"
    rounds: int | None = None  # None: the ruleset's match length (a caishen match is one 版: four rounds)
    stake: int = 1
    fee: int = 0
    claim_window: float | None = None
    turn_seconds: float | None = None
    contract_seconds: float | None = None
    computer_delay: float = 0.0  # pacing of computer and auto-played moves (seconds)
    between_hands: float = 0.0  # pause between the result of a hand and the next deal
    seed: int | str | None = None  # None: a fresh secret seed
    max_hands: int | None = None  # stop the match early after this many hands
    auto_level: str = "normal"  # the computer level that plays seats on auto-play

    def __post_init__(self) -> None:
        if self.rounds is None:
            self.rounds = default_rounds(self.ruleset)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> TableConfig:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


def default_rounds(ruleset: str) -> int | None:
    """How many wind rounds a match of ``ruleset`` lasts unless its creator chooses: the ruleset's own match
    length (``Ruleset.match_rounds``: one East round for jiaxing, one 版 of four for caishen, RULES B11).
    None for a ruleset not installed (the match refuses it when it is made)."""
    from jxbot.rules import get_ruleset

    try:
        return int(get_ruleset(ruleset).match_rounds)
    except ValueError:
        return None
