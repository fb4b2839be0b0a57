"""Faults the double injects on request: 429s, slow routes, error statuses, per route pattern."""

from __future__ import annotations

import fnmatch
import time
from collections import deque
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

    def stop(self) -> None:
        """End the fault now (e.g. the end of a 429 storm started with ``times=None``)."""
        self.times = self.hits

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


@dataclass
class RateLimitRule:
    """Discord-like buckets: at most ``limit`` requests per ``per`` seconds for each route matching
    ``pattern`` and each major parameter (channel, guild, webhook token). Answers carry the
    ``X-RateLimit-*`` headers discord.py reads, so a well-behaved client waits before it is refused."""

    pattern: str
    limit: int = 5
    per: float = 5.0
    scope: str = "user"  # X-RateLimit-Scope of its 429s: "user" (the bot's own bucket) or "shared" (a resource's)

    def matches(self, method: str, template: str) -> bool:
        return RouteFault(self.pattern, "rule").matches(method, template)


class RateLimiter:
    def __init__(self) -> None:
        self.rules: list[RateLimitRule] = []
        self._windows: dict[tuple[int, str, str, str], tuple[float, int]] = {}  # key -> (reset_at, used)

    def check(self, method: str, template: str, major: str, now: float) -> tuple[bool, dict[str, str], float] | None:
        """None if no rule applies; else (allowed, headers, retry_after); a refusal's headers carry its scope."""
        for i, rule in enumerate(self.rules):
            if not rule.matches(method, template):
                continue
            key = (i, method, template, major)
            reset_at, used = self._windows.get(key, (0.0, 0))
            if now >= reset_at:
                reset_at, used = now + rule.per, 0
            allowed = used < rule.limit
            if allowed:
                used += 1
            self._windows[key] = (reset_at, used)
            after = max(0.0, reset_at - now)
            headers = {
                "X-RateLimit-Limit": str(rule.limit), "X-RateLimit-Remaining": str(max(0, rule.limit - used)),
                "X-RateLimit-Reset-After": f"{after:.3f}", "X-RateLimit-Reset": f"{time.time() + after:.3f}",
                "X-RateLimit-Bucket": f"double{i}-{abs(hash((method, template))) % 10**8}",
            }
            if not allowed:
                headers["X-RateLimit-Scope"] = rule.scope
            return allowed, headers, after
        return None


class GlobalLimit:
    """Discord's global rate limit: at most ``per_second`` requests in any second, all routes together, except
    the interaction endpoints (the callback and the webhook routes of an interaction token), which Discord
    does not count against it ("Interaction endpoints are not bound to the bot's Global Rate Limit")."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        self._recent: deque[float] = deque()
        self.refused = 0

    def check(self, now: float) -> float:
        """0.0 when a counted request may pass now (and count it); else the seconds until one may."""
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        if len(self._recent) < self.per_second:
            self._recent.append(now)
            return 0.0
        self.refused += 1
        return max(0.001, self._recent[0] + 1.0 - now)


def counted(template: str) -> bool:
    """The route counts against the bot's global rate limit (all but the interaction endpoints)."""
    return not template.startswith(("/interactions/", "/webhooks/"))
