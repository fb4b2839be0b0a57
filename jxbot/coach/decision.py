"""``Decision``, ``Candidate`` and ``evaluate`` (the interface is written down in ``jxbot/coach/__init__.py``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from ..ai.montecarlo import evaluate_view
from ..ai.seatview import HU, TSUMO
from ..game import Hand
from ..game import events as ev

DEFAULT_BUDGET_MS = 300.0
PLAYOUTS_PER_BUDGET_MS = 0.12  # playouts one core plays per CPU ms (bench/ai.py "playouts_per_second" / 1000)
# The win chance a candidate shows is its playouts' wins, shrunk and then mapped: q = (wins + a) / (n + a + b)
# (a Beta prior: a few worlds' k/n is noisy, and the decisions binned high by it are partly its lucky draws),
# then p = sigmoid(c0 + c1·logit q + c2·d + c3·d·logit q), d the share of the wall already drawn (the
# evaluator's worlds are over-optimistic at a good position late in a hand: docs/ai.md "Calibration").
# ``WIN_MAP`` is fitted by least log loss (``jxbot.coach.calibration.fit_map``, ``bench/calibration.py --fit``)
# on self-play seeds other than the one the calibration is measured on ("calib"): fitted 2 Dec 2026 on
# 42,000 decisions of 8,512 hands (seeds "calib-fit" and "calib-fit2", 6,000 each at every 8th decision with
# a choice, "calib-fit3" and "calib-fit4", 15,000 each at every 16th; 8 worlds, jiaxing), with the worlds'
# other hands played up (jxbot/ai/worlds.py); the 627 winning actions among them left out (``HU_KEPT``).


class WinMap(NamedTuple):
    """The calibration map from a candidate's playouts to the win chance shown (see ``calibrated_win``)."""

    a: float
    b: float
    c0: float = 0.0
    c1: float = 1.0
    c2: float = 0.0
    c3: float = 0.0


WIN_MAP = WinMap(4.0, 8.0, 0.1469, 1.5802, 0.3584, 1.3154)
# A winning action's chance is the rules', not the map's: 自摸 wins at once; a 胡 (on a discard, or robbing a
# 补杠) wins unless a seat before it in play order from the discarder also claims 胡 (RULES A3: one winner, the
# first in play order). So it is certain when no seat that may still claim sits between; else it is the share
# of such claims that won in self-play of four normal players (seed "calib-hu", 20,000 jiaxing hands: 4,870 of
# 4,888 with one such seat between, 4,669 of 4,719 with two; every one of 3,952 with none, and of 50 robs).
HU_KEPT = (1.0, 0.996, 0.989)
STEPS_PER_MS = 6.0  # playout steps (decisions) one core plays per CPU ms (caishen ~5.5, jiaxing ~8)


@dataclass(frozen=True)
class Candidate:
    """One legal action's estimate: expected silver for the hand (stake 1), win and deal-in chances."""

    action: dict
    ev_silver: float
    win: float
    deal_in: float
    n: int = 0
    wins: int = 0  # playouts the seat won (``win`` is this, calibrated: ``shown_win``)


@dataclass(frozen=True)
class Decision:
    """What one seat knows at one decision point: its seat view (own tiles + public facts, no wall)."""

    view: dict
    step: int | None = None  # the number of events before the decision (from an event log)
    played: dict | None = None  # the action the seat took (from an event log)

    @property
    def seat(self) -> int:
        return int(self.view["viewer"])

    @property
    def actions(self) -> list[dict]:
        return list(self.view.get("actions") or [])

    @classmethod
    def from_view(cls, view: dict, played: dict | None = None) -> Decision:
        if view.get("viewer") is None or not view.get("actions"):
            raise ValueError("a decision is a seat's view with legal actions")
        return cls(view=view, played=played)

    @classmethod
    def from_hand(cls, hand: Hand, seat: int) -> Decision:
        return cls.from_view(hand.view(seat))

    @classmethod
    def from_events(cls, events: Sequence[ev.Event | dict], k: int, seat: int) -> Decision:
        """The decision ``seat`` faced after the first ``k`` events of a hand's log."""
        hand = Hand.replay(list(events)[:k])
        played = action_of(_event(events[k]), hand) if k < len(events) else None
        if played is not None and played["seat"] != seat:
            played = None
        return cls(view=hand.view(seat), step=k, played=played)


def _event(e: ev.Event | dict) -> ev.Event:
    return ev.event_from_json(e) if isinstance(e, dict) else e


def action_of(e: ev.Event, hand: Hand) -> dict | None:
    """The action (JSON) an event records a seat taking, or None for an event nobody chose."""
    if isinstance(e, ev.Discarded):
        return {"type": "discard", "seat": e.seat, "tile": e.tile}
    if isinstance(e, ev.ClaimAnswered):
        return {"type": e.action, "seat": e.seat, "tile": e.tile}
    if isinstance(e, ev.Won) and e.self_draw:
        return {"type": "tsumo", "seat": e.seat, "tile": e.tile}
    if isinstance(e, ev.Konged) and e.kind == "concealed_kong":
        return {"type": "angang", "seat": e.seat, "tile": e.tile}
    if isinstance(e, ev.KongDeclared):
        return {"type": "bugang", "seat": e.seat, "tile": e.tile}
    if isinstance(e, ev.ContractAnswered):
        return {"type": "give_up" if e.give_up else "persist", "seat": e.seat, "tile": None}
    return None


def decisions_of(events: Iterable[ev.Event | dict], seat: int, *, trivial: bool = False) -> list[Decision]:
    """Every decision ``seat`` took in a hand's log, in order (with ``trivial``, also those where it had
    one legal action). Each carries the view it had then and the action it took (``played``)."""
    evs = [_event(e) for e in events]
    out: list[Decision] = []
    hand: Hand | None = None
    for k, e in enumerate(evs):
        if k > 0:
            assert hand is not None
            a = action_of(e, hand)
            if a is not None and a["seat"] == seat and seat in hand.pending():
                view = hand.view(seat)
                acts = view.get("actions") or []
                if a in acts and (trivial or len(acts) > 1):
                    out.append(Decision(view=view, step=k, played=a))
        hand = Hand.replay(evs[: k + 1]) if hand is None else _fold(hand, e)
    return out


def _fold(hand: Hand, e: ev.Event) -> Hand:
    hand._fold(e)
    hand.events.append(e)
    return hand


@cache
def _wall_at_deal(ruleset: str) -> int:
    return Hand.new("wall", ruleset=ruleset).wall_remaining


def wall_drawn(view: dict) -> float:
    """The share of the drawable wall already drawn at ``view`` (0 at the deal, 1 at the last tile)."""
    full = _wall_at_deal(view["ruleset"])
    return min(1.0, max(0.0, 1 - view["wall_remaining"] / full)) if full else 0.0


def calibrated_win(wins: int, n: int, drawn: float, cal: WinMap = WIN_MAP) -> float:
    """The win chance ``wins`` of ``n`` playouts predict when ``drawn`` of the wall is drawn, by the fitted
    map :data:`WIN_MAP`."""
    if n + cal.a + cal.b <= 0:
        return 0.0
    q = min(1 - 1e-9, max(1e-9, (wins + cal.a) / (n + cal.a + cal.b)))
    lq = math.log(q / (1 - q))
    z = cal.c0 + cal.c1 * lq + cal.c2 * drawn + cal.c3 * drawn * lq
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def certain_win(view: dict, action: dict) -> float | None:
    """The win chance the rules give ``action`` at ``view`` if it is a winning action (自摸 1; 胡 by how many
    seats that may claim sit before the viewer: :data:`HU_KEPT`), else None (the playouts and the map say)."""
    t = action.get("type")
    if t == TSUMO:
        return 1.0
    if t != HU:
        return None
    src = view.get("pending_kong") or view.get("last_discard")
    if not src:
        return None
    me, first = int(view["viewer"]), int(src["seat"])
    seats = view["seats"]
    between = sum(1 for k in range(1, (me - first) % 4) if not seats[(first + k) % 4].get("gave_up"))
    return HU_KEPT[min(between, len(HU_KEPT) - 1)]


def shown_win(view: dict, action: dict, wins: int, n: int, cal: WinMap = WIN_MAP) -> float:
    """The win chance shown for ``action`` at ``view`` whose playouts won ``wins`` of ``n``: the rules' for a
    winning action (:func:`certain_win`), else the map's (:func:`calibrated_win`)."""
    fixed = certain_win(view, action)
    return fixed if fixed is not None else calibrated_win(wins, n, wall_drawn(view), cal)


def worlds_for(budget_ms: float, n_actions: int) -> int:
    """How many worlds fit ``budget_ms`` with ``n_actions`` candidates (at least 2)."""
    return max(2, int(budget_ms * PLAYOUTS_PER_BUDGET_MS / max(1, n_actions)))


def evaluate(decision: Decision, *, budget_ms: float = DEFAULT_BUDGET_MS, seed: int | str = 0,
             worlds: int | None = None, actions: Sequence[dict] | None = None) -> list[Candidate]:
    """Every candidate action of ``decision``, best expected silver first (see the package docstring)."""
    include = [decision.played] if decision.played is not None else []
    from ..ai.montecarlo import candidates

    acts = list(actions) if actions is not None else candidates(decision.view, include=include)
    n = worlds if worlds is not None else worlds_for(budget_ms, len(acts))
    ests = evaluate_view(decision.view, seed=seed, worlds=n, budget_ms=budget_ms, actions=acts)
    v = decision.view
    return [Candidate(e.action, round(e.ev, 4), round(shown_win(v, e.action, e.wins, e.n), 4), round(e.deal_in, 4),
                      e.n, e.wins) for e in ests]
