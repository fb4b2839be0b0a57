"""The review of one hand for one seat: every decision that seat made, what the expert would have done, and
what the difference cost. Pure: no I/O, no asyncio, no Discord (the queue and cache: ``coach/reviewer.py``).

A *decision* is a moment the seat had more than one legal action: a discard (and a 暗杠 / 补杠 / 自摸 on its
turn), an answer in a claim or rob window (胡 / 碰 / 杠 / 吃 / 过), persist or give up in a contract. The
log is folded one event at a time (``Hand.replay``'s fold); just before the event the seat's answer made,
the seat's own view — its tiles, every public fact, its legal actions, nothing of the wall or another
seat's tiles — is the decision's input, and the event says what was played.

An *evaluator* turns a view into candidates: ``{"action", "ev", "win", "deal_in"}`` per legal action,
``ev`` the expected silver of the hand for the seat. The expert's choice is the highest ``ev``. A played
action counts as agreeing when its value is within :data:`TIE` silver of the best one (two discards that
the evaluator cannot tell apart are both the expert's); otherwise the decision *lost* the difference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jxbot.game import events as ev

VERSION = 1  # of the stored review's shape and of the judging; a cached review of another version is redone
TIE = 0.05  # silver: a played action this close to the best one agrees with the expert
COSTLIEST = 3
BUDGET_HAND_MS = 18_000  # the whole hand's evaluation budget (≤ 20 s of worker CPU, docs/coach.md)
BUDGET_MIN_MS, BUDGET_MAX_MS = 20, 900  # one decision's

# (decision, seed, budget_ms) -> candidates (plain dicts); a top-level function to run in a process pool
Evaluator = Callable[["Point", int, int], list[dict]]


@dataclass(frozen=True, slots=True)
class Point:
    """A decision of the seat found in the log."""

    n: int  # 0-based among the seat's decisions
    event: int  # index in the log of the event its answer made
    view: dict  # the seat's own view just before (tiles, public facts, legal actions)
    played: dict  # the action taken, as JSON ({"type", "seat", "tile"})


def decision_points(events: Iterable[ev.Event | dict], seat: int) -> list[Point]:
    """Every decision ``seat`` made in the hand (a moment with one legal action only is no decision)."""
    from .decision import decisions_of

    evs = [e if isinstance(e, ev.Event) else ev.event_from_json(e) for e in events]
    if not evs or not isinstance(evs[0], ev.HandStarted):
        raise ValueError("an event log starts with hand_started")
    out = []
    for i, d in enumerate(decisions_of(evs, seat)):
        assert d.step is not None and d.played is not None
        out.append(Point(i, d.step, d.view, d.played))
    return out


def expert(point: Point, seed: int, budget_ms: int) -> list[dict]:
    """The expert's evaluation of a decision (``jxbot.coach.evaluate``), as plain candidates; a top-level
    function, so that it runs in a worker process."""
    from .decision import Decision, evaluate

    cands = evaluate(Decision(point.view, step=point.event, played=point.played), budget_ms=budget_ms, seed=seed)
    return candidates_json(cands)


def candidates_json(cands: Iterable[Any]) -> list[dict]:
    return [{"action": dict(c.action), "ev": float(c.ev_silver), "win": float(c.win), "deal_in": float(c.deal_in)}
            for c in cands]


def action_key(a: dict) -> tuple[str, int | None]:
    return str(a.get("type")), a.get("tile")


def per_decision_budget(n: int, total_ms: int = BUDGET_HAND_MS) -> int:
    """One decision's budget so the hand's ``n`` decisions stay within ``total_ms`` (:data:`BUDGET_HAND_MS`)."""
    if n <= 0:
        return BUDGET_MAX_MS
    return max(BUDGET_MIN_MS, min(BUDGET_MAX_MS, total_ms // n))


def seed_of(hand_id: str, seat: int, n: int, base: int = 0) -> int:
    """The evaluation's seed for a decision: fixed by the hand, seat and ordinal (a review is reproducible)."""
    import hashlib

    d = hashlib.sha256(f"{base}:{hand_id}:{seat}:{n}".encode()).digest()
    return int.from_bytes(d[:8], "big") >> 1


def judge(point: Point, candidates: Sequence[dict], tie: float = TIE) -> dict:
    """One decision's record: the candidates best first, the expert's choice, agreement and the loss."""
    cands: list[dict[str, Any]] = sorted(({"action": dict(c["action"]), "ev": float(c["ev"]), "win": float(c.get("win", 0.0)),
                     "deal_in": float(c.get("deal_in", 0.0))} for c in candidates),
                   key=lambda c: -c["ev"])
    if not cands:
        raise ValueError("an evaluation with no candidate")
    best = cands[0]
    played_key = action_key(point.played)
    mine = next((c for c in cands if action_key(c["action"]) == played_key), None)
    played_ev = mine["ev"] if mine is not None else None
    gap = best["ev"] - played_ev if played_ev is not None else 0.0
    agree = mine is None or gap <= tie  # an action the evaluator did not list is not held against the player
    return {
        "n": point.n, "event": point.event, "played": dict(point.played), "best": dict(best["action"]),
        "agree": agree, "loss": 0.0 if agree else round(gap, 4), "played_ev": played_ev, "candidates": cands,
    }


@dataclass
class Review:
    """One hand reviewed for one seat (JSON round trip: :meth:`to_json` / :meth:`from_json`)."""

    hand_id: str
    seat: int
    ruleset: str
    decisions: list[dict] = field(default_factory=list)
    version: int = VERSION

    @property
    def agreement(self) -> float:
        """The share of decisions that agree with the expert (1.0 for a hand with none)."""
        if not self.decisions:
            return 1.0
        return sum(1 for d in self.decisions if d["agree"]) / len(self.decisions)

    @property
    def lost(self) -> float:
        """The estimated silver lost against the expert's choices."""
        return round(sum(d["loss"] for d in self.decisions), 4)

    def costliest(self, k: int = COSTLIEST) -> list[dict]:
        """The ``k`` decisions that lost the most (only those that lost anything), costliest first."""
        lost = [d for d in self.decisions if d["loss"] > 0]
        return sorted(lost, key=lambda d: (-d["loss"], d["n"]))[:k]

    def to_json(self) -> dict:
        return {"version": self.version, "hand_id": self.hand_id, "seat": self.seat, "ruleset": self.ruleset,
                "decisions": self.decisions}

    @classmethod
    def from_json(cls, d: dict) -> Review:
        return cls(str(d["hand_id"]), int(d["seat"]), str(d.get("ruleset", "")), list(d.get("decisions") or []),
                   int(d.get("version", 0)))


def review_points(hand_id: str, ruleset: str, seat: int, points: Sequence[Point], results: Sequence[Sequence[dict]],
                  tie: float = TIE) -> Review:
    """The review from the points and each point's candidates (in the same order)."""
    return Review(hand_id, seat, ruleset, [judge(p, c, tie) for p, c in zip(points, results, strict=True)])


def review_hand(events: Iterable[ev.Event | dict], seat: int, evaluate: Evaluator = expert, *, seed: int = 0,
                budget_ms: int | None = None, progress: Callable[[int, int], Any] | None = None,
                tie: float = TIE) -> Review:
    """The review of ``seat``'s decisions in a finished hand, evaluated here, one decision after another
    (the terminal and the benches; the bot queues the points into its worker pool: ``coach/reviewer.py``)."""
    evs = [e if isinstance(e, ev.Event) else ev.event_from_json(e) for e in events]
    first = evs[0]
    assert isinstance(first, ev.HandStarted)
    points = decision_points(evs, seat)
    budget = budget_ms if budget_ms is not None else per_decision_budget(len(points))
    results = []
    for p in points:
        results.append(evaluate(p, seed_of(first.hand_id, seat, p.n, seed), budget))
        if progress is not None:
            progress(len(results), len(points))
    return review_points(first.hand_id, first.ruleset, seat, points, results, tie)
