"""The ``expert`` computer player: the hard player, checked by the evaluator (``jxbot.ai.montecarlo``).

At every decision with a real choice the hard player proposes an action; the evaluator plays the hand
out from the seat's view (the unseen tiles sampled, never read) for the proposal and the few most
promising alternatives, all on the same sampled walls. The expert leaves the proposal only for an
alternative that did better by ``MARGIN`` silver and by ``Z`` standard errors of the paired differences
(the same worlds, so the difference is measured, not guessed from two noisy means). Wins are always
taken (the hard player's rule).

Deterministic given the seed and the sequence of views (the worlds' seeds come from the player's seed,
the hand and the decision's number; the worlds per decision are fixed, the CPU budget a safety net).
Its decisions take ~10²  ms (docs/ai.md "The expert"): a Discord table runs them in the coach's worker
processes, never on the event loop.
"""

from __future__ import annotations

import math

from .base import ComputerPlayer, register
from .hard import HardPlayer
from .montecarlo import Estimate, action_key, candidates, evaluate_view
from .seatview import HU, TSUMO, Table

PLAYOUTS = 28  # playouts per decision (split between the candidates; ~0.12 per CPU ms on one core)
MIN_WORLDS = 4
MAX_DISCARDS = 4  # discards played out: the hard player's and the three nearest by shape
MARGIN = 0.3  # silver an alternative must gain over the hard player's proposal
Z = 1.5  # and by this many standard errors of the paired difference
BUDGET_MS = 600.0  # CPU safety net per decision: no new world after this (a caishen world of 7 candidates can take 300 ms)


def paired_gain(alt: Estimate, base: Estimate) -> tuple[float, float]:
    """(mean, standard error) of alt − base over the worlds both were played in."""
    diffs = [a - b for a, b in zip(alt.outcomes, base.outcomes, strict=False)]
    n = len(diffs)
    if n == 0:
        return (0.0, math.inf)
    m = sum(diffs) / n
    if n < 2:
        return (m, math.inf)
    var = sum((d - m) ** 2 for d in diffs) / (n - 1)
    return (m, math.sqrt(var / n))


@register
class ExpertPlayer(ComputerPlayer):
    """Hard player's proposal, overruled by playouts when they say so clearly."""

    level = "expert"
    slow = True  # a table runs its decisions in the worker process (jxbot.ai.offload)

    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self._hard = HardPlayer(seed)
        self._n = 0
        self.last: list[Estimate] = []  # the estimates of the last evaluated decision (tests, bench)

    def _decide(self, tb: Table) -> dict:
        view = tb.view
        proposal = self._hard.choose(view).to_json()
        self.target = self._hard.target
        if proposal["type"] in (TSUMO, HU):
            return proposal
        self._n += 1
        acts = candidates(view, MAX_DISCARDS, include=[proposal])
        if len(acts) < 2:
            return proposal
        worlds = max(MIN_WORLDS, PLAYOUTS // len(acts))
        ests = evaluate_view(view, seed=f"{self.seed}/{view.get('hand_id')}/{self._n}", worlds=worlds,
                             budget_ms=BUDGET_MS, actions=acts)
        self.last = ests
        base = next(e for e in ests if action_key(e.action) == action_key(proposal))
        best, best_gain = proposal, 0.0
        for e in ests:
            if e is base:
                continue
            m, se = paired_gain(e, base)
            if m > MARGIN and m > Z * se and m > best_gain:
                best, best_gain = e.action, m
        return best
