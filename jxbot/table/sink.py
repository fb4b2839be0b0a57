"""Where a table's events and settlements go. The store implements :class:`EventSink` on SQLite;
:class:`MemorySink` keeps everything in memory (tests, the terminal, resuming in-process)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class EventSink(Protocol):
    async def table_state(self, table_id: str, state: dict) -> None:
        """The runner's resumable state (config, seats, match), saved before a match's first deal and at every
        hand start and end."""
        ...

    async def hand_started(self, hand_id: str, info: dict) -> None:
        """A hand was dealt. ``info``: table_id, ruleset, hand_number, commitment, seats (names,
        user ids, computer flags). Called before the hand's first event is appended."""
        ...

    async def append(self, hand_id: str, index: int, event_json: dict) -> None:
        """Event number ``index`` (0-based, in order, each exactly once per run) of the hand."""
        ...

    async def settle(self, hand_id: str, settlement: Any, result_view: dict) -> None:
        """The hand's settlement (``jxbot.rules.Settlement``) and its result view; once per hand."""
        ...


@dataclass
class MemorySink:
    """Keeps states, events and settlements in dicts. ``fail_append`` makes appends raise (tests)."""

    states: dict[str, dict] = field(default_factory=dict)
    hands: dict[str, dict] = field(default_factory=dict)
    events: dict[str, list[dict]] = field(default_factory=dict)
    settlements: dict[str, tuple[Any, dict]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # hand ids in start order

    async def table_state(self, table_id: str, state: dict) -> None:
        self.states[table_id] = state

    async def hand_started(self, hand_id: str, info: dict) -> None:
        self.hands[hand_id] = info
        self.events.setdefault(hand_id, [])
        self.order.append(hand_id)

    async def append(self, hand_id: str, index: int, event_json: dict) -> None:
        evs = self.events.setdefault(hand_id, [])
        if index < len(evs):  # idempotent on (hand_id, index)
            return
        if index != len(evs):
            raise ValueError(f"event {index} of hand {hand_id} appended out of order (have {len(evs)})")
        evs.append(event_json)

    async def settle(self, hand_id: str, settlement: Any, result_view: dict) -> None:
        if hand_id in self.settlements:
            return
        self.settlements[hand_id] = (settlement, result_view)


class NullSink:
    """Discards everything."""

    async def table_state(self, table_id: str, state: dict) -> None:
        return None

    async def hand_started(self, hand_id: str, info: dict) -> None:
        return None

    async def append(self, hand_id: str, index: int, event_json: dict) -> None:
        return None

    async def settle(self, hand_id: str, settlement: Any, result_view: dict) -> None:
        return None
