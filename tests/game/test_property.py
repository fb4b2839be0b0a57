"""Property: random-seed hands played by random legal agents never break an invariant.

Checked after every step: 136 tiles conserved (4 of each kind), hand sizes right, no 百搭 in a meld,
the public view free of hidden tiles; random illegal actions are refused and change nothing, legal
ones are accepted; a seat that gave up never claims or wins; at most one contract. At the end:
transfers zero-sum with fees to the house, nobody below 0, and ``Hand.replay(events)`` equal to the
live hand.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jxbot.game import Action, ActionType, Hand, HandContext, IllegalAction
from jxbot.rules.ruleset import JIAXING

from .helpers import check_invariants

ALL_TYPES = list(ActionType)
NO_TILE = (ActionType.PASS, ActionType.PERSIST, ActionType.GIVE_UP)


def quick_state(h: Hand) -> tuple:
    w = h.window
    return (len(h.events), h.phase, h.turn, h.drawn, h.pending(), tuple(map(tuple, h.concealed)),
            tuple(map(tuple, h.melds)), json.dumps(h.discards), w and dict(w.answers), h.wall_remaining)


def flush_agent(h: Hand, seat: int, acts: list[Action], rng: random.Random) -> Action:
    """A crude player that goes for one suit (so that hands get won), else random."""
    by_type: dict[ActionType, list[Action]] = {}
    for a in acts:
        by_type.setdefault(a.type, []).append(a)
    for t in (ActionType.TSUMO, ActionType.HU, ActionType.CONCEALED_KONG, ActionType.ADDED_KONG):
        if t in by_type:
            return by_type[t][0]
    wc = h.wildcard
    suits = [0, 0, 0]
    for t in h.concealed[seat]:
        if t != wc and t < 27:
            suits[t // 9] += 1
    for m in h.melds[seat]:
        if m.tiles[0] < 27:
            suits[m.tiles[0] // 9] += 3
    target = max(range(3), key=lambda s: suits[s])

    def keep(t: int) -> bool:
        return t == wc or t >= 27 or t // 9 == target

    for t in (ActionType.KONG, ActionType.PUNG, ActionType.CHOW):
        for a in by_type.get(t, ()):
            if keep(h.window.tile if h.window else a.tile):
                return a
    if ActionType.DISCARD in by_type:
        discards = by_type[ActionType.DISCARD]
        off = [a for a in discards if not keep(a.tile)]
        singles = [a for a in discards if a.tile >= 27 and a.tile != wc and h.concealed[seat].count(a.tile) == 1]
        pool = off or singles or [a for a in discards if a.tile != wc] or discards
        return rng.choice(pool)
    return rng.choice(acts)


def random_action(rng: random.Random) -> Action:
    t = rng.choice(ALL_TYPES)
    tile = rng.choice([None, rng.randrange(34)])
    return Action(t, rng.randrange(4), tile)


def play_random_hand(seed: int, *, check_every: int = 1) -> Hand:
    rng = random.Random(seed)
    ruleset = JIAXING if seed % 5 else JIAXING.with_(wildcard_mode="next")
    ctx = HandContext(hand_id=f"p{seed}", dealer=seed % 4, round_wind=(seed // 4) % 4,
                      stake=1 + seed % 3, cumulative_queue=("huang",) * (seed % 2))
    h = Hand.new(seed, ruleset=ruleset, context=ctx)
    greed = rng.choice([0.0, 0.5, 1.0])  # how often a random agent takes a win it is offered
    smart = [rng.random() < 0.6 for _ in range(4)]  # which seats play the crude one-suit strategy
    gave_up: set[int] = set()
    contracts = 0
    step = 0
    while not h.ended:
        step += 1
        if step % check_every == 0:
            check_invariants(h)
        if rng.random() < 0.1:
            bad = random_action(rng)
            if bad not in h.legal_actions(bad.seat):
                before = quick_state(h)
                try:
                    h.apply(bad)
                except IllegalAction as e:
                    assert e.code and e.message
                else:  # accepted: only a legal action written differently (tile left out, or given to a pass)
                    assert bad.tile is None or bad.type in NO_TILE, f"illegal {bad} accepted"
                    continue
                assert quick_state(h) == before, f"refused {bad} changed the hand"
        if rng.random() < 0.003:
            s = rng.randrange(4)
            if s not in h.escaped:
                h.escape(s)
        pending = sorted(h.pending())
        assert pending, "a running hand always waits for someone"
        seat = rng.choice(pending)
        acts = h.legal_actions(seat)
        assert acts, f"pending seat {seat} has no legal action in {h.phase}"
        wins = [a for a in acts if a.type in (ActionType.HU, ActionType.TSUMO)]
        if smart[seat]:
            choice = flush_agent(h, seat, acts, rng)
        else:
            choice = wins[0] if wins and rng.random() < greed else rng.choice(acts)
        for e in h.apply(choice):
            if e.type in ("claimed", "won"):
                assert e.seat not in gave_up, "a seat that gave up claimed or won"
            if e.type == "contract_answered" and e.give_up:
                gave_up.add(e.seat)
            if e.type == "contract_formed":
                contracts += 1
    check_invariants(h)
    assert contracts <= 1
    return h


def check_end(h: Hand, rng: random.Random) -> None:
    balances = [rng.choice([None, 0, 3, 50, 10_000]) for _ in range(4)]
    fee = rng.choice([0, 1, 5])
    s = h.settle(balances, fee=fee)
    assert sum(s.deltas) + s.house_delta == 0
    for t in s.transfers:
        assert t.amount >= 0
        if t.reason == "fee":
            assert t.payee is None and t.payer is not None and balances[t.payer] is not None
    for b, d in zip(balances, s.deltas, strict=True):
        if b is not None:
            assert b + d >= 0
    r = h.result
    if r.winner is not None:
        assert r.score is not None and r.score.winning and r.score.points > 0
        assert r.winner not in r.gave_up
    again = Hand.replay(json.loads(json.dumps(h.events_json())))
    assert [again.view(s) for s in range(4)] == [h.view(s) for s in range(4)]
    assert again.public_view() == h.public_view()
    assert again.result_view() == h.result_view()
    assert again.events_json() == h.events_json()


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.integers(min_value=0, max_value=2**31))
def test_random_legal_agents_never_break_an_invariant(seed):
    h = play_random_hand(seed, check_every=1 if seed % 10 == 0 else 9)
    check_end(h, random.Random(seed))


def test_many_seeded_hands_reach_wins_claims_kongs_and_contracts():
    """The property above is only as good as the situations it reaches: make sure they happen."""
    seen: set[str] = set()
    for seed in range(150):
        h = play_random_hand(10_000 + seed, check_every=25)
        seen.update(e.type for e in h.events)
        if h.result.winner is not None:
            seen.add("self_draw" if h.result.self_draw else "discard_win")
        check_end(h, random.Random(seed))
    for kind in ("claimed", "konged", "kong_declared", "contract_formed", "contract_answered", "won", "drawn_game",
                 "self_draw", "discard_win", "escaped"):
        assert kind in seen, kind
