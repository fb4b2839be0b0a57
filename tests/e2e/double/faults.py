"""Faults the double injects on request: 429s, slow routes, error statuses, per route pattern."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass


@dataclass
class RouteFault:
    """Applies to requests whose ``"METHOD /template"`` matches ``pattern`` (fnmatch, e.g.
    ``"PATCH /channels/{channel_id}/messages/{message_id}"``, ``"* /webhooks/*"``, ``"*"``).

    ``kind``: ``"429"`` (rate limited, ``retry_after`` seconds), ``"slow"`` (``delay`` seconds, then
    served normally), ``"error"`` (``status`` with JSON error ``code``/``message``).
    ``times``: how many requests it hits (``None`` = until removed). ``hits`` counts them.
    """

    pattern: str
    kind: str
    times: int | None = 1
    retry_after: float = 0.05
    is_global: bool = False
    delay: float = 0.0
    status: int = 500
    code: int = 0
    message: str = "Internal Server Error"
    hits: int = 0

    def matches(self, method: str, template: str) -> bool:
        pat = self.pattern if " " in self.pattern else f"* {self.pattern}"
        return fnmatch.fnmatchcase(f"{method} {template}", pat)

    @property
    def exhausted(self) -> bool:
        return self.times is not None and self.hits >= self.times


class Faults:
    def __init__(self) -> None:
        self.route_faults: list[RouteFault] = []

    def add(self, fault: RouteFault) -> RouteFault:
        self.route_faults.append(fault)
        return fault

    def take(self, method: str, template: str, kind: str) -> RouteFault | None:
        """The first live fault of ``kind`` matching the request; counts a hit."""
        for f in self.route_faults:
            if f.kind == kind and not f.exhausted and f.matches(method, template):
                f.hits += 1
                return f
        return None

    def clear(self) -> None:
        self.route_faults.clear()
