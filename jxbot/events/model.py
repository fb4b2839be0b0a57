"""An event's settings, its players and the record of one table it played (plain data, JSON both ways)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from jxbot.i18n import norm_lang

Format = Literal["swiss", "duplicate"]
FORMATS: tuple[str, ...] = ("swiss", "duplicate")
SCOPES: tuple[str, ...] = ("guild", "global")


@dataclass
class EventConfig:
    name: str
    ruleset: str = "jiaxing"
    format: str = "swiss"
    rounds: int = 3  # rounds of the event (each: every player at one table)
    hands: int | None = 1  # hands per table in a round (None: ``table_rounds`` wind rounds instead)
    table_rounds: int | None = None  # wind rounds per table when ``hands`` is None
    stake: int = 0  # 0: points only (nobody's silver moves)
    start_at: float | None = None  # when check-in closes and round 1 starts (unix time), None: on /tournament start
    checkin_minutes: int = 0  # > 0: players must check in before the start (0: registering is checking in)
    substitute: bool = True  # a seat not checked in: a computer plays it (else the table waits for the player)
    wait_minutes: int = 10  # substitute off: a table waits this long for a no-show, then a computer plays the seat
    level: str = "normal"  # the computers' level (fillers, substitutes, leavers' seats)
    claim_window: float = 5.0
    # "global": open to every server sharing the store (found by its id), its tables in the players' DMs
    scope: str = "guild"
    # the language of the event's channel texts (announcements, standings, reminders, its tables' channel texts):
    # its server's when it was created ("zh"/"en"); None (an event stored before this was kept): the bot's
    lang: str | None = None

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"format is one of {FORMATS}, not {self.format!r}")
        if self.scope not in SCOPES:
            raise ValueError(f"scope is one of {SCOPES}, not {self.scope!r}")
        if self.rounds < 1:
            raise ValueError("an event plays at least one round")
        if self.lang is not None:
            self.lang = norm_lang(self.lang)

    @property
    def in_dms(self) -> bool:
        """Its tables are played in the players' DMs: a global event's (the one place players of several servers
        share) and a duplicate event's (every table of a round plays the same walls, so a table's public thread
        — its discards live, its result picture — would show the others the wall they are playing)."""
        return self.scope == "global" or self.format == "duplicate"

    @property
    def checkin_opens(self) -> float | None:
        """When check-in opens (unix time): ``checkin_minutes`` before a scheduled start; None: from registration
        on (no window, or no scheduled start to count back from)."""
        if self.checkin_minutes > 0 and self.start_at:
            return self.start_at - 60 * self.checkin_minutes
        return None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EventConfig:
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in names})


@dataclass
class Player:
    """A player of the event: ``pid`` is the Discord user id of a person; a computer filling a table (the field
    is not a multiple of four) has a negative pid and ``level``. ``order`` is the registration order."""

    pid: int
    name: str
    order: int = 0
    level: str | None = None  # a computer's level (None: a person)

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        return cls(int(d["pid"]), str(d["name"]), int(d.get("order", 0)), d.get("level"))


@dataclass
class TableRecord:
    """One table of one round, finished: ``players`` by starting seat (东 南 西 北), ``totals`` each seat's result
    over the table (points at stake 1, or silver), ``placements`` 1–4, ``hand_deltas`` each hand's result by
    starting seat (hand ``n`` of every table of a round is dealt from the same wall in the duplicate format)."""

    round: int
    table_no: int
    players: list[int]
    totals: list[int]
    placements: list[int]
    hand_deltas: list[list[int]] = field(default_factory=list)
    hand_ids: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableRecord:
        return cls(int(d["round"]), int(d["table_no"]), [int(p) for p in d["players"]], [int(x) for x in d["totals"]],
                   [int(x) for x in d["placements"]], [[int(x) for x in h] for h in d.get("hand_deltas", [])],
                   [str(h) for h in d.get("hand_ids", [])])


NOT_PLACED = 0
"""A table's placement for a player at a table that finished no hand (stopped before its first hand ended:
jxbot/shell/arranged.py gives every seat this): nobody played, so nobody is placed above anyone. The standings
count it as the middle placement (2.5) and show it as ``-``."""


def place_text(placement: int) -> str:
    """A placement as shown in the standings: ``1``–``4``, or ``-`` for a table that finished no hand."""
    return "-" if placement == NOT_PLACED else str(placement)


def placements(totals: list[int]) -> list[int]:
    """1–4 by total, ties broken by starting seat (东 first)."""
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    out = [0] * len(totals)
    for i, s in enumerate(order):
        out[s] = i + 1
    return out
