"""The evaluator's engine: what each legal action is worth to one seat, by playing the hand out in worlds
that seat cannot tell apart (``jxbot.ai.worlds``) with fast computer players.

``evaluate_view(view, seed=…, worlds=…, budget_ms=…)`` returns one ``Estimate`` per candidate action:
its mean silver for the hand at stake 1 (the seat's delta when the hand is paid, house-backed seats, no
fee), the share of playouts the seat won and the share it dealt in (its discard won on, or its kong
robbed). Every candidate is played in the same worlds with the same players' seeds (common random
numbers): the difference between two candidates is measured on the same walls, which cuts its noise
far below the noise of either value.

Deterministic for a seed: the worlds and the players' streams come from ``seed`` alone. ``budget_ms``
(CPU time of this thread) stops early between two worlds; a run that stops early has played fewer
worlds and can differ from one that did not, so callers that must be reproducible (the ``expert``
level, the tests) size ``worlds`` to fit the budget and treat the budget as a safety net.

The candidates: every legal action, except that a turn with many discards keeps the ``max_candidates``
most promising by shape (the target shanten after the discard, ``jxbot.ai.evaluate``) plus any action
``include`` names.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..game.actions import action_from_json
from ..game.hand import Hand
from .base import ComputerPlayer, make_player
from .evaluate import IMPOSSIBLE, TARGETS, HandShape
from .players import NormalPlayer
from .seatview import DISCARD, Table
from .worlds import Skeleton

PLAYOUT_LEVEL = "normal"  # the policy every seat plays in a playout (the self-play the calibration measures)
MAX_STEPS = 2000


@dataclass
class Estimate:
    """One candidate action's value over the worlds played (``outcomes``: the seat's silver per world)."""

    action: dict
    outcomes: list[float] = field(default_factory=list)
    wins: int = 0
    deal_ins: int = 0

    @property
    def n(self) -> int:
        return len(self.outcomes)

    @property
    def ev(self) -> float:
        return sum(self.outcomes) / len(self.outcomes) if self.outcomes else 0.0

    @property
    def win(self) -> float:
        return self.wins / len(self.outcomes) if self.outcomes else 0.0

    @property
    def deal_in(self) -> float:
        return self.deal_ins / len(self.outcomes) if self.outcomes else 0.0


class FastPlayer(NormalPlayer):
    """The playouts' policy: the normal player without its useful-draw (ukeire) tie-break, the costliest
    part of its discard (not a registered level; caishen tables still play the normal caishen player)."""

    ukeire_max_shanten = -1


def _player(policy: str, seed: str) -> ComputerPlayer:
    return FastPlayer(seed) if policy == "fast" else make_player(policy, seed)


def _seed(seed: int | str, *parts: object) -> int:
    key = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def action_key(a: dict) -> tuple:
    return (a["type"], a.get("tile"))


def candidates(view: dict, max_candidates: int = 6, include: Iterable[dict] = ()) -> list[dict]:
    """The actions worth playing out: all of them, but at most ``max_candidates`` discards (the nearest
    to a win by shape; ``include`` always kept)."""
    acts = view.get("actions") or []
    discards = [a for a in acts if a["type"] == DISCARD]
    if len(discards) <= max_candidates:
        return list(acts)
    tb = Table(view)
    shape = HandShape(tb.counts, tb.melds, tb.wild)
    tabs = [shape.discard_shanten(t) for t in TARGETS if shape.shanten(t) < IMPOSSIBLE]

    def rank(a: dict) -> tuple:
        d = a["tile"]
        best = min((tab[d] for tab in tabs), default=IMPOSSIBLE)
        return (d == tb.wild, best, -_keep(d, tb.counts), d)

    keep = {action_key(a) for a in include}
    chosen = sorted(discards, key=rank)[:max_candidates]
    kept = {action_key(a) for a in chosen} | keep
    return [a for a in acts if a["type"] != DISCARD or action_key(a) in kept]


def _keep(d: int, c: Sequence[int]) -> int:
    """How lonely a tile is (more = throw first): no neighbour, no copy."""
    lonely = 3 - c[d]
    if d < 27:
        r = d % 9
        lonely -= sum(1 for x in (-2, -1, 1, 2) if 0 <= r + x < 9 and c[d + x])
    return lonely


def playout(world: Hand, viewer: int, action: dict, players: Sequence[ComputerPlayer]) -> tuple[float, bool, bool, int]:
    """Apply ``action`` for ``viewer`` in ``world``, play the hand out; (silver, won, dealt in, steps played)."""
    world.apply(action_from_json(action))
    steps = 0
    while world.phase != "ended":
        pending = world.pending()
        seat = min(pending)
        view = world.view(seat)
        world.apply(players[seat].choose(view))
        steps += 1
        if steps > MAX_STEPS:  # pragma: no cover - the game always ends
            raise RuntimeError("a playout did not end")
    r = world.result
    assert r is not None
    s = world.plugin.settle(world, [None] * 4, 0)
    won = r.winner == viewer
    dealt = r.winner is not None and (r.discarder == viewer or r.robbed_from == viewer)
    return float(s.deltas[viewer]), won, dealt, steps


def evaluate_view(view: dict, *, seed: int | str = 0, worlds: int = 16, budget_ms: float | None = None,
                  actions: Sequence[dict] | None = None, max_candidates: int = 6,
                  include: Iterable[dict] = (), policy: str = PLAYOUT_LEVEL,
                  max_steps: int | None = None, own_policy: str | None = None,
                  own_target: int | None = None) -> list[Estimate]:
    """Estimates for the candidate actions of ``view`` (one seat's view), best first by mean silver.

    ``max_steps``: a deterministic cap on the work — no new world once the playouts have played this many
    steps (decisions) in all (at least one world is always played); unlike ``budget_ms`` it does not depend
    on the machine's speed or load, so a capped evaluation is still reproducible for its seed."""
    if not view.get("actions"):
        raise ValueError("a decision needs legal actions")
    acts = list(actions) if actions is not None else candidates(view, max_candidates, include)
    me = view["viewer"]
    sk = Skeleton(view)
    ests = [Estimate(a) for a in acts]
    c0 = time.thread_time()
    played = 0
    for w in range(worlds):
        if w > 0 and max_steps is not None and played >= max_steps:
            break
        if budget_ms is not None and w > 0 and (time.thread_time() - c0) * 1e3 >= budget_ms:
            break
        rng = random.Random(_seed(seed, "world", w))
        base = sk.deal(rng)
        pseeds = [f"{seed}/w{w}/p{i}" for i in range(4)]
        for e in ests:
            world = _clone(base)
            players = [_player(policy, pseeds[i]) for i in range(4)]
            if own_policy is not None:
                own = make_player(own_policy, pseeds[me])
                own._hand_id = world.context.hand_id
                own.target = own_target
                players[me] = own
            silver, won, dealt, steps = playout(world, me, e.action, players)
            played += steps
            e.outcomes.append(silver)
            e.wins += won
            e.deal_ins += dealt
    return sorted(ests, key=lambda e: (-e.ev, action_key(e.action)))


def _clone(h: Hand) -> Hand:
    """A copy of a fresh world that can be played on without touching the original."""
    c = Hand.__new__(Hand)
    c.__dict__.update(h.__dict__)
    c.events = list(h.events)
    c.concealed = [list(x) for x in h.concealed]
    c.melds = [list(x) for x in h.melds]
    c.discards = [[list(d) for d in ds] for ds in h.discards]
    c._live = h._live  # never changed by play (indices move instead)
    c.voided = list(h.voided)
    c.queue = list(h.queue)
    c.claim_counts = h.claim_counts.copy()
    c.discarded_seats = set(h.discarded_seats)
    c.gave_up = set(h.gave_up)
    c.escaped = set(h.escaped)
    c.decisions = dict(h.decisions)
    c._legal_cache = {}
    c._seat_views = [None] * 4
    c._base_view = None
    if h.window is not None:
        w = h.window
        c.window = type(w)(w.kind, w.seat, w.tile, dict(w.options))
    return c
