"""Events: every change of a hand. A hand's state is the fold of its events (``Hand.replay``).

Each event is a small frozen dataclass with a ``type`` tag; ``to_json()`` gives the full (private)
form that the store keeps, ``event_from_json`` reads it back, and ``public_json(viewer)`` gives what a
given seat (or, with ``None``, the channel) may see: wall, salt and drawn tiles of other seats removed,
claim answers visible only to the seat that answered. ``public_json`` returns ``None`` for an event the
viewer may not see at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar


def _plain(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_plain(x) for x in v]
    return v


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


def _tuple(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuple(x) for x in v)
    return v


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"
    # fields kept out of public_json (unless the viewer is `seat`, when the event has one)
    _private: ClassVar[tuple[str, ...]] = ()
    # the whole event is hidden from everyone but `seat`
    _seat_only: ClassVar[bool] = False

    def to_json(self) -> dict:
        d: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            d[name] = _plain(getattr(self, name))
        return d

    def public_json(self, viewer: int | None = None) -> dict | None:
        seat = getattr(self, "seat", None)
        own = viewer is not None and viewer == seat
        if self._seat_only and not own:
            return None
        d = self.to_json()
        if not own:
            for name in self._private:
                d.pop(name, None)
        return d


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """First event: everything replay needs. ``wall`` and ``salt`` are secret until the hand ends."""

    type: ClassVar[str] = "hand_started"
    _private: ClassVar[tuple[str, ...]] = ("wall", "salt")
    hand_id: str
    ruleset: str
    ruleset_overrides: dict
    context: dict
    wall: tuple[int, ...] = field(repr=False)  # kept out of repr() so a logged event shows no secret
    dice: tuple[int, int]
    salt: str = field(repr=False)
    commitment: str


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """13 tiles to each seat (14 to the dealer) from the head; the indicator flipped; the 百搭 chosen."""

    type: ClassVar[str] = "dealt"
    dealer: int
    indicator: int | None
    wildcard: int | None
    cumulative_added: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Drew(Event):
    type: ClassVar[str] = "drew"
    _private: ClassVar[tuple[str, ...]] = ("tile",)
    seat: int
    tile: int = field(repr=False)
    replacement: bool  # from the tail, after a kong


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    type: ClassVar[str] = "discarded"
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class ClaimAnswered(Event):
    """A seat's answer in a claim or rob window (seen only by that seat until the window resolves)."""

    type: ClassVar[str] = "claim_answered"
    _seat_only: ClassVar[bool] = True
    seat: int
    action: str  # ActionType value: hu / peng / gang / chi / pass
    tile: int | None


@dataclass(frozen=True, slots=True)
class ClaimsClosed(Event):
    """The discard was not claimed; play passes to the next seat."""

    type: ClassVar[str] = "claims_closed"
    seat: int  # the discarder
    tile: int


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    type: ClassVar[str] = "claimed"
    seat: int
    kind: str  # MeldKind value: chow / pung / kong
    tile: int  # the claimed tile
    from_seat: int
    meld: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class KongDeclared(Event):
    """补杠 announced: a rob window (抢杠胡) is open before it completes."""

    type: ClassVar[str] = "kong_declared"
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class Konged(Event):
    """A 暗杠 or a 补杠 completed; a replacement draw follows."""

    type: ClassVar[str] = "konged"
    seat: int
    kind: str  # concealed_kong / added_kong
    tile: int


@dataclass(frozen=True, slots=True)
class TileVoided(Event):
    """Caishen (RULES B2, seed 海底): right after a kong replacement (the lower tile of the last pair at
    the tail of the live wall) the upper tile of that pair is void: out of play, shown to everyone."""

    type: ClassVar[str] = "tile_voided"
    tile: int


@dataclass(frozen=True, slots=True)
class ContractFormed(Event):
    type: ClassVar[str] = "contract_formed"
    pair: tuple[int, int]  # (claimer, the seat claimed from)
    deciders: tuple[int, ...]  # the two other seats, who choose persist / give up


@dataclass(frozen=True, slots=True)
class ContractAnswered(Event):
    type: ClassVar[str] = "contract_answered"
    seat: int
    give_up: bool


@dataclass(frozen=True, slots=True)
class Won(Event):
    """The hand is won. ``hand`` is the winner's concealed tiles without the win tile (public now)."""

    type: ClassVar[str] = "won"
    seat: int
    tile: int
    self_draw: bool
    discarder: int | None
    robbed_from: int | None
    hand: tuple[int, ...]
    cumulative_taken: tuple[str, ...]
    score: dict


@dataclass(frozen=True, slots=True)
class DrawnGame(Event):
    """荒: a draw was needed and the live wall is empty."""

    type: ClassVar[str] = "drawn_game"


@dataclass(frozen=True, slots=True)
class Escaped(Event):
    type: ClassVar[str] = "escaped"
    seat: int


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    type: ClassVar[str] = "hand_settled"
    balances: tuple[int | None, ...]
    fee: int
    settlement: dict


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (HandStarted, Dealt, Drew, Discarded, ClaimAnswered, ClaimsClosed, Claimed, KongDeclared,
                Konged, TileVoided, ContractFormed, ContractAnswered, Won, DrawnGame, Escaped, HandSettled)
}


def event_from_json(d: dict) -> Event:
    """Read back ``Event.to_json()``. Raises ``ValueError`` on an unknown type or missing field."""
    try:
        cls = EVENT_TYPES[d["type"]]
    except (KeyError, TypeError):
        raise ValueError(f"not an event: {d!r:.80}") from None
    kwargs = {}
    for name in _field_names(cls):
        if name not in d:
            raise ValueError(f"{cls.type} event without {name!r}")
        v = d[name]
        kwargs[name] = _tuple(v) if isinstance(v, list) else v
    return cls(**kwargs)
