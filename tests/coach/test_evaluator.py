"""The coach's evaluator (issue 30): the information boundary, determinism, decisions from a log."""

from __future__ import annotations

import random

import pytest

from jxbot.ai import make_player
from jxbot.coach import Candidate, Decision, decisions_of, evaluate
from jxbot.game import Hand


def _midhand(ruleset: str, seed: str, steps: int) -> Hand:
    h = Hand.new(seed, ruleset=ruleset)
    ps = [make_player("normal", f"{seed}/{i}") for i in range(4)]
    for _ in range(steps):
        s = min(h.pending())
        h.apply(ps[s].choose(h.view(s)))
    assert h.phase != "ended"
    return h


def _shuffle_hidden(h: Hand, seat: int, rng: random.Random) -> None:
    """Deal the tiles ``seat`` cannot see (other hands, live wall, dead wall but the indicator) again, each
    hand keeping its size: a world the seat cannot tell from the real one."""
    others = [o for o in range(4) if o != seat]
    dead = h._dead_indices() - {h._indicator_index()}
    idx = list(h._live[h._h:h._t + 1]) + sorted(dead)
    pool = [t for o in others for t in h.concealed[o]] + [h.wall[i] for i in idx]
    rng.shuffle(pool)
    pos = 0
    for o in others:
        n = len(h.concealed[o])
        h.concealed[o] = pool[pos:pos + n]
        pos += n
    wall = list(h.wall)
    for i in idx:
        wall[i] = pool[pos]
        pos += 1
    h.wall = tuple(wall)
    h._legal_cache = {}
    h._seat_views = [None] * 4
    h._base_view = None


@pytest.mark.parametrize("ruleset", ["jiaxing", "caishen"])
def test_hidden_tiles_do_not_change_the_evaluation(ruleset: str) -> None:
    """Shuffling the other hands and the wall consistently with what the seat knows changes nothing."""
    h = _midhand(ruleset, f"boundary-{ruleset}", 16)
    seat = min(h.pending())
    before = [list(x) for x in h.concealed]
    d1 = Decision.from_hand(h, seat)
    e1 = evaluate(d1, worlds=3, seed=7, budget_ms=1e9)
    _shuffle_hidden(h, seat, random.Random(5))
    assert [h.concealed[o] for o in range(4) if o != seat] != [before[o] for o in range(4) if o != seat]
    d2 = Decision.from_hand(h, seat)
    assert d2.view == d1.view
    e2 = evaluate(d2, worlds=3, seed=7, budget_ms=1e9)
    assert e1 == e2
    assert all(isinstance(c, Candidate) and c.n == 3 for c in e1)
    # the figures do depend on the seed (the evaluation is not a constant)
    e3 = evaluate(d1, worlds=3, seed=8, budget_ms=1e9)
    assert [(c.ev_silver, c.win) for c in e3] != [(c.ev_silver, c.win) for c in e1] or len(e1) == 1


def test_decisions_from_a_finished_hand() -> None:
    h = Hand.new("coach-log")
    ps = [make_player("normal", f"coach-log/{i}") for i in range(4)]
    while h.phase != "ended":
        s = min(h.pending())
        h.apply(ps[s].choose(h.view(s)))
    ds = decisions_of(h.events, 1)
    assert ds and all(d.played in d.actions and d.seat == 1 for d in ds)
    again = Decision.from_events(h.events_json(), ds[-1].step, 1)
    assert again.view == ds[-1].view and again.played == ds[-1].played
    c = evaluate(ds[-1], worlds=2, seed=1)
    assert any(x.action == ds[-1].played for x in c)


def test_the_expert_is_the_hard_player_checked_by_playouts_and_deterministic() -> None:
    h = _midhand("jiaxing", "expert-decision", 12)
    seat = min(h.pending())
    view = h.view(seat)
    a = make_player("expert", "e1").choose(view)
    p = make_player("expert", "e1")
    b = p.choose(view)
    assert a == b and a.to_json() in view["actions"]
    if len(view["actions"]) > 1 and view["actions"][0]["type"] not in ("tsumo", "hu"):
        assert p.last and all(e.n >= 4 for e in p.last)  # the proposal and its rivals were played out


def test_the_expert_seeds_its_playouts_from_the_view_only() -> None:
    """The expert's playouts are seeded by what the seat knows: hidden tiles dealt again change nothing, and
    neither does the player's own seed (a review asking about the same view gets the same choice)."""
    from jxbot.ai.expert import ExpertPlayer, view_seed

    h = _midhand("caishen", "expert-view-seed", 14)
    seat = min(h.pending())
    view = h.view(seat)
    p = ExpertPlayer("one")
    a = p.choose(view)
    first = [(e.action, e.outcomes) for e in p.last]
    _shuffle_hidden(h, seat, random.Random(9))
    q = ExpertPlayer("another")
    assert q.choose(h.view(seat)) == a
    assert [(e.action, e.outcomes) for e in q.last] == first
    assert view_seed(h.view(seat)) == view_seed(view)
    moved = dict(view, wall_remaining=view["wall_remaining"] - 1)
    assert view_seed(moved) != view_seed(view)


def test_the_review_reproduces_the_experts_own_choices() -> None:
    """Every decision an expert made in a hand is the expert's choice the review finds for it (its hard
    player's target carried from the seat's earlier decisions)."""
    from jxbot.ai.expert import expert_choice
    from jxbot.coach import review as rv

    h = Hand.new("expert-self", ruleset="jiaxing")
    ps = [make_player("expert" if s == 2 else "hard", f"expert-self/{s}") for s in range(4)]
    while h.phase != "ended":
        s = min(h.pending())
        h.apply(ps[s].choose(h.view(s)))
    points = rv.decision_points(h.events_json(), 2)
    assert len(points) >= 5
    assert [rv.action_key(expert_choice(p.view, p.target)) for p in points] == \
        [rv.action_key(p.played) for p in points]


def test_a_seat_that_can_rob_a_kong_gets_an_evaluation() -> None:
    """At a rob window the 补杠's tile is public and still in the declarer's hand: the worlds deal it there
    (dealt at random, the win that robs it could not take it from the declarer's hand and the playout failed)."""
    h = Hand.new("rob/53")
    ps = [make_player("normal", f"rob/53/{i}") for i in range(4)]
    while h.phase != "rob":
        s = min(h.pending())
        h.apply(ps[s].choose(h.view(s)))
    seat = min(h.pending())
    d = Decision.from_hand(h, seat)
    hu = [a for a in d.actions if a["type"] == "hu"]
    assert hu, d.actions
    c = evaluate(d, worlds=8, seed=3, budget_ms=1e9, actions=hu)
    # robbing the kong is a win in every world
    assert c[0].n == 8 and c[0].wins == 8
