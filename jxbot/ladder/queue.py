"""The ranked queue as pure logic (no Discord, no store, no clock of its own): who waits, and which tables of four
form (docs/ranked.md, "The queue").

A player waits with their displayed rating. Their **band** is ``band + widen_per_minute × minutes waited`` (at
most ``max_band``): a table forms of four people each of whom has the three others within their own band. The
longest-waiting player is served first: for them, the queue takes the three others (among the players within
band) whose ratings are nearest to theirs, then the next longest-waiting player left, and so on. Ties are broken
by join time, then user id, so the same queue and clock always form the same tables.

**Integrity**: the same four people form at most ``max_together_per_day`` rated tables in any 24 hours; the queue
remembers the groups it formed (``note``), and at start is told the ones the store knows
(``Ladder.recent_groups``).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

DAY = 86_400.0


@dataclass(frozen=True)
class QueueSettings:
    band: float = 150.0  # half-width of a newly queued player's band, in displayed rating points
    widen_per_minute: float = 100.0  # the band grows by this much per minute waited
    max_band: float | None = None  # None: the band grows without limit (everyone is matched eventually)
    max_together_per_day: int = 3  # rated tables of the same four people in any 24 h
    table_size: int = 4


@dataclass(frozen=True)
class Ticket:
    user_id: int
    rating: int  # displayed rating
    joined_at: float
    guild_id: int | None = None  # where they queued from (cross-server tables run in DMs)


@dataclass
class MatchQueue:
    """Pure, deterministic matchmaking. ``clock`` gives unix seconds (a fake one in tests)."""

    settings: QueueSettings = field(default_factory=QueueSettings)
    clock: Callable[[], float] = time.time
    _tickets: dict[int, Ticket] = field(default_factory=dict)
    _groups: list[tuple[frozenset[int], float]] = field(default_factory=list)

    def join(self, user_id: int, rating: int, guild_id: int | None = None) -> Ticket:
        """Queue a player (already queued: their ticket unchanged)."""
        old = self._tickets.get(user_id)
        if old is not None:
            return old
        tk = Ticket(int(user_id), int(rating), float(self.clock()), guild_id)
        self._tickets[tk.user_id] = tk
        return tk

    def add(self, ticket: Ticket) -> None:
        """Queue a ticket as it is, joined at its own time (a queue rebuilt from the store: shared_queue.py)."""
        self._tickets.setdefault(ticket.user_id, ticket)

    def leave(self, user_id: int) -> bool:
        return self._tickets.pop(user_id, None) is not None

    def __contains__(self, user_id: object) -> bool:
        return user_id in self._tickets

    def __len__(self) -> int:
        return len(self._tickets)

    def waiting(self) -> list[Ticket]:
        """The queued players, longest waiting first."""
        return sorted(self._tickets.values(), key=lambda t: (t.joined_at, t.user_id))

    def band_of(self, ticket: Ticket, now: float | None = None) -> float:
        now = self.clock() if now is None else now
        s = self.settings
        band = s.band + s.widen_per_minute * max(0.0, now - ticket.joined_at) / 60.0
        return band if s.max_band is None else min(band, s.max_band)

    # ------------------------------------------------------------------------- integrity
    def note(self, user_ids: Iterable[int], at: float) -> None:
        """A rated table of these people formed (or was played) at ``at``."""
        self._groups.append((frozenset(int(u) for u in user_ids), float(at)))

    def note_keys(self, groups: Iterable[tuple[str, float]]) -> None:
        """The store's recent groups (``Ladder.recent_groups``): keys as ``settle.group_key`` writes them."""
        for key, at in groups:
            self.note((int(u) for u in key.split(",") if u), at)

    def _recent(self, now: float) -> Counter[frozenset[int]]:
        self._groups = [(g, at) for g, at in self._groups if at > now - DAY]
        return Counter(g for g, _ in self._groups)

    def together(self, user_ids: Iterable[int], now: float | None = None) -> int:
        """Rated tables these exact people formed in the 24 h before ``now``."""
        now = self.clock() if now is None else now
        return self._recent(now)[frozenset(user_ids)]

    # ------------------------------------------------------------------------- forming tables
    def _fits(self, group: Sequence[Ticket], now: float) -> bool:
        lo = min(t.rating for t in group)
        hi = max(t.rating for t in group)
        return all(max(t.rating - lo, hi - t.rating) <= self.band_of(t, now) for t in group)

    def form(self, now: float | None = None) -> list[tuple[Ticket, ...]]:
        """Form every table the queue can now; the players of each leave the queue (and the group is noted).
        Each table lists its players longest waiting first."""
        now = self.clock() if now is None else now
        n = self.settings.table_size
        tables: list[tuple[Ticket, ...]] = []
        recent = self._recent(now)
        cap = self.settings.max_together_per_day
        left = self.waiting()
        i = 0
        while i < len(left) and len(left) >= n:
            anchor = left[i]
            band = self.band_of(anchor, now)
            near = sorted((t for t in left if t is not anchor and abs(t.rating - anchor.rating) <= band),
                          key=lambda t: (abs(t.rating - anchor.rating), t.joined_at, t.user_id))[:12]
            chosen = None
            for others in itertools.combinations(near, n - 1):  # nearest first (lexicographic over `near`)
                group = (anchor, *others)
                if self._fits(group, now) and recent[frozenset(t.user_id for t in group)] < cap:
                    chosen = group
                    break
            if chosen is None:
                i += 1
                continue
            table = tuple(sorted(chosen, key=lambda t: (t.joined_at, t.user_id)))
            tables.append(table)
            self.note([t.user_id for t in table], now)
            recent[frozenset(t.user_id for t in table)] += 1
            for t in table:
                self._tickets.pop(t.user_id, None)
            left = [t for t in left if t not in table]
        return tables
