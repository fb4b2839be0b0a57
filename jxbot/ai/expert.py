"""The ``expert`` computer player: a faster hard player (:class:`Proposer`), checked by the evaluator
(``jxbot.ai.montecarlo``).

At every decision with a real choice the proposer (the hard player with other weights; at a caishen table
``jxbot.rulesets.caishen.ai_expert``) proposes an action; the evaluator plays the hand out from the seat's
view (the unseen tiles sampled, never read) for the proposal and the few most promising alternatives, all on the same sampled walls. The expert leaves the proposal only for an
alternative that did better by ``MARGIN`` silver and by ``Z`` standard errors of the paired differences
(the same worlds, so the difference is measured, not guessed from two noisy means). A win the proposer
takes is taken unchecked; one it declines (caishen: for 單釣財神頭) is checked like any other move.

Deterministic given the sequence of views, and reproducible from one view: the playouts' seed comes from
the view alone (:func:`view_seed`: what the seat knows, a fixed salt; never the wall's commitment), so a
review that asks the expert about the same view — with the hard player's target as it was then
(:func:`expert_choice`) — gets the very choice the expert made at the table. The work per decision is
fixed too: the worlds, and a cap on the playouts' steps (``MAX_STEPS``: machine-independent); the CPU
budget (``BUDGET_MS``) is only a last-resort net, far above what the step cap allows.
Its decisions take ~10²  ms (docs/ai.md "The expert"): a Discord table runs them in the coach's worker
processes, never on the event loop.
"""

from __future__ import annotations

import hashlib
import json
import math

from ..game.actions import Action
from .base import ComputerPlayer, register
from .hard import HardPlayer
from .montecarlo import Estimate, action_key, candidates, evaluate_view
from .seatview import HU, TSUMO, Table

PLAYOUTS = 28  # playouts per decision (split between the candidates; ~0.12 per CPU ms on one core)
MIN_WORLDS = 4
MAX_DISCARDS = 4  # discards played out: the hard player's and the three nearest by shape
MARGIN = 1.0  # silver an alternative must gain over the proposer's proposal (0.3 lost to the proposer: docs/ai.md)
Z = 3.0  # and by this many standard errors of the paired difference (1.5 before)
MAX_STEPS = 2400  # no new world once the playouts have played this many steps (~6 per CPU ms on one core)
BUDGET_MS = 900.0  # last-resort CPU net per decision (the step cap ends a decision well before it)
SALT = "expert/1"  # the playouts' seed: this salt and the view


class Proposer(HardPlayer):
    """The hard player as the expert's proposer, with the speed and contract weights the duel measured best
    (docs/ai.md "Headroom above the hard player"): a win's worth beyond its own score ``stop_value`` 24 instead
    of 2.7 (speed before a bigger hand), and a contract fed to a seat costs 4 silver instead of 16. Not a
    registered level: its ``level`` is what the ruleset plug-in is asked for. At a caishen table that is the
    hard play for 單釣財神頭 (``jxbot.rulesets.caishen.ai_expert``: +2.2 silver a hand against hard players);
    the Jiaxing plug-in answers None for every level, so there it is the hard player with the weights above."""

    level = "expert"
    stop_value = 24.0
    contract_cost = 4.0


def view_seed(view: dict, salt: str = SALT) -> str:
    """The playouts' seed for a decision: a digest of the seat's view (everything the seat knows) and a fixed
    salt. The wall's commitment is left out: it is public but a function of the hidden wall."""
    known = {k: v for k, v in view.items() if k != "commitment"}
    text = json.dumps(known, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{salt}|{text}".encode()).hexdigest()[:24]


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
        self._hard = Proposer(seed)
        self.last: list[Estimate] = []  # the estimates of the last evaluated decision (tests, bench)

    def quick_choose(self, view: dict) -> Action:
        """The proposer's move, unchecked: what the expert plays when its worker is too busy to think
        (jxbot.ai.offload: a table of experts never stalls behind the others)."""
        self._quick = True
        try:
            return self.choose(view)
        finally:
            self._quick = False

    def _decide(self, tb: Table) -> dict:
        view = tb.view
        proposal = self._hard.choose(view).to_json()
        self.target = self._hard.target
        if proposal["type"] in (TSUMO, HU) or getattr(self, "_quick", False):
            return proposal
        acts = candidates(view, MAX_DISCARDS, include=[proposal])
        if len(acts) < 2:
            return proposal
        worlds = max(MIN_WORLDS, PLAYOUTS // len(acts))
        ests = evaluate_view(view, seed=view_seed(view), worlds=worlds, budget_ms=BUDGET_MS, actions=acts,
                             max_steps=MAX_STEPS)
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


def expert_choice(view: dict, target: int | None = None) -> dict:
    """What the ``expert`` level plays at ``view`` when its hard player's target was ``target`` (the target
    the hard player had set at the seat's earlier decisions of the hand: :func:`hard_targets`)."""
    p = ExpertPlayer("review")
    p._hard._hand_id = view.get("hand_id")
    p._hard.target = target
    return p.choose(view).to_json()


def hard_targets(views: list[dict]) -> list[int | None]:
    """The hard player's target before each of a seat's views of one hand, in order (the views it was
    asked at, one legal action or more): the state an expert playing that seat carried into each."""
    h = Proposer("review")
    out = []
    for v in views:
        h._new_hand(v)
        out.append(h.target)
        h.choose(v)
    return out
