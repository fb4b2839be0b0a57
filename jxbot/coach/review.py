"""The review of one hand for one seat: every decision that seat made, what the expert would have done, and
what the difference cost. Pure: no I/O, no asyncio, no Discord (the queue and cache: ``coach/reviewer.py``).

A *decision* is a moment the seat had more than one legal action: a discard (and a 暗杠 / 补杠 / 自摸 on its
turn), an answer in a claim or rob window (胡 / 碰 / 杠 / 吃 / 过), persist or give up in a contract. The
log is folded one event at a time (``Hand.replay``'s fold); just before the event the seat's answer made,
the seat's own view — its tiles, every public fact, its legal actions, nothing of the wall or another
seat's tiles — is the decision's input, and the event says what was played.

An *evaluator* turns a decision into candidates: ``{"action", "ev", "win", "deal_in"}`` per action worth
playing out, ``ev`` the expected silver of the hand for the seat, one of them marked ``expert``: what the
``expert`` computer level plays there (:func:`expert`). A played action agrees when it is the expert's or the
evaluator values it within :data:`TIE` silver of the expert's; a disagreement *lost* the difference only when
the evaluator shows the expert's choice clearly better — also by :data:`Z` standard errors of the paired
difference over the same sampled worlds, the rule by which the expert itself overrules the hard player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jxbot.game import events as ev

VERSION = 3  # of the stored review's shape and of the judging; a cached review of another version is redone
# (3: the bot's worker pool judged by the bare evaluator until then — its cached reviews are computed again)
# Not bumped when only a shown figure changes (a winning action's win chance, issue 30): /stats counts the
# reviews of this VERSION only, and agreement and loss do not depend on the win chance.
SHOWN = 2  # of the shown win chances (the calibration map, winning actions at the rules' chance): a cached
# review of an older one is computed again when it is opened, so nobody is shown the old map's chances; its
# agreement and loss come out the same, so /stats (counting VERSION) is unchanged by it. 1: before issue 30's refit.
TIE = 0.3  # silver: a played action this close to the expert's agrees with it (the expert's own check asks
Z = 1.5  # … or not this many standard errors of the paired difference below it   more: MARGIN 1.0, Z 3.0)
COSTLIEST = 3
BUDGET_HAND_MS = 15_000  # the whole hand's evaluation budget; with the expert's own choices ≤ 20 s of worker CPU
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
    target: int | None = None  # the hard player's target then (what an expert playing this seat carried)


def decision_points(events: Iterable[ev.Event | dict], seat: int) -> list[Point]:
    """Every decision ``seat`` made in the hand (a moment with one legal action only is no decision)."""
    from .decision import decisions_of

    evs = [e if isinstance(e, ev.Event) else ev.event_from_json(e) for e in events]
    if not evs or not isinstance(evs[0], ev.HandStarted):
        raise ValueError("an event log starts with hand_started")
    from jxbot.ai.expert import hard_targets

    ds = decisions_of(evs, seat)
    targets = hard_targets([d.view for d in ds])
    out = []
    for i, (d, t) in enumerate(zip(ds, targets, strict=True)):
        assert d.step is not None and d.played is not None
        out.append(Point(i, d.step, d.view, d.played, t))
    return out


def expert(point: Point, seed: int, budget_ms: int, extra: Sequence[dict] = ()) -> list[dict]:
    """The expert's evaluation of a decision, as plain candidates: its own choice (the ``expert`` computer
    level, deterministic for the seed) marked ``"expert": True``, and every candidate's value from the
    evaluator on the same sampled worlds, with ``se``, the standard error of its paired difference from the
    expert's choice (``extra``: more actions valued beside them). A top-level function, so that it runs in a
    worker process."""
    from jxbot.ai.expert import expert_choice, paired_gain
    from jxbot.ai.montecarlo import action_key as key
    from jxbot.ai.montecarlo import candidates, evaluate_view

    from .decision import STEPS_PER_MS, shown_win, worlds_for

    view = point.view
    # the expert level's own choice at this view (its playouts seeded by the view: the choice an expert
    # playing this seat made, when it did)
    choice = expert_choice(view, point.target)
    acts = candidates(view, include=[point.played, choice, *extra])
    # the worlds are planned from the budget and the work capped in playout steps (machine-independent: a
    # review is reproducible for its seed); the CPU net, three times the budget, is a last resort
    ests = evaluate_view(view, seed=seed, worlds=worlds_for(budget_ms, len(acts)), budget_ms=3 * budget_ms,
                         actions=acts, max_steps=int(budget_ms * STEPS_PER_MS))
    base = next((e for e in ests if key(e.action) == key(choice)), None)
    out = []
    for e in ests:
        c = {"action": dict(e.action), "ev": round(e.ev, 4), "win": round(shown_win(view, e.action, e.wins, e.n), 4),
             "deal_in": round(e.deal_in, 4)}
        if e is base:
            c["expert"] = True
        elif base is not None:
            se = paired_gain(base, e)[1]
            c["se"] = round(se, 4) if se != float("inf") else None
        out.append(c)
    return out


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


def judge(point: Point, candidates: Sequence[dict], tie: float = TIE, z: float = Z) -> dict:
    """One decision's record: the candidates best first, the expert's choice (the candidate marked
    ``expert``, else the best valued), agreement and the loss (the expert's value − the played one's)."""
    cands: list[dict[str, Any]] = sorted(
        ({"action": dict(c["action"]), "ev": float(c["ev"]), "win": float(c.get("win", 0.0)),
          "deal_in": float(c.get("deal_in", 0.0))} | ({"expert": True} if c.get("expert") else {})
         for c in candidates), key=lambda c: -c["ev"])
    if not cands:
        raise ValueError("an evaluation with no candidate")
    best = next((c for c in cands if c.get("expert")), cands[0])
    played_key = action_key(point.played)
    mine = next((c for c in cands if action_key(c["action"]) == played_key), None)
    raw = next((c for c in candidates if action_key(c["action"]) == played_key), None)
    played_ev = mine["ev"] if mine is not None else None
    gap = best["ev"] - played_ev if played_ev is not None else 0.0
    se = raw.get("se") if raw is not None else None
    # the expert's own choice agrees, and another one the evaluator values within ``tie`` silver of it; a
    # disagreement *loses* silver only when the evaluator shows the expert's choice clearly better (by ``z``
    # standard errors of the paired difference too: the rule by which the expert itself leaves the hard
    # player's proposal); an action the evaluator did not list is not held against the player
    agree = mine is None or mine is best or gap <= tie
    clear = not agree and (se is None or gap > z * se)
    return {
        "n": point.n, "event": point.event, "played": dict(point.played), "best": dict(best["action"]),
        "agree": agree, "loss": round(gap, 4) if clear else 0.0, "gap": round(gap, 4), "played_ev": played_ev,
        "candidates": cands,
    }


@dataclass
class Review:
    """One hand reviewed for one seat (JSON round trip: :meth:`to_json` / :meth:`from_json`)."""

    hand_id: str
    seat: int
    ruleset: str
    decisions: list[dict] = field(default_factory=list)
    version: int = VERSION
    shown: int = SHOWN  # the win chances' map (:data:`SHOWN`); a review stored without one is of map 1

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
        return {"version": self.version, "shown": self.shown, "hand_id": self.hand_id, "seat": self.seat,
                "ruleset": self.ruleset, "decisions": self.decisions}

    @classmethod
    def from_json(cls, d: dict) -> Review:
        return cls(str(d["hand_id"]), int(d["seat"]), str(d.get("ruleset", "")), list(d.get("decisions") or []),
                   int(d.get("version", 0)), int(d.get("shown", 1)))


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
