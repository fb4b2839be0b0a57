"""The caishen players' fast shanten (``jxbot.ai.caishen_shanten``) gives exactly the rules engine's
figures: ``shape.shanten`` (白 slot wild) and ``caishen.pairs_shanten``, for a hand, the hand minus each
tile and the hand plus each kind, with 財神 and open melds (issue 18: faster, no decision changed)."""

import random

from jxbot.ai import caishen
from jxbot.ai.caishen_shanten import Faced, ukeire
from jxbot.rules.caishen import WILD, face
from jxbot.rules.shape import shanten


def _slow(faced, open_melds):
    std = shanten(faced, (), WILD)
    sp = caishen.pairs_shanten(faced, open_melds)
    return (sp, 1) if sp <= std else (std, 0)


def _random_hand(rng, n):
    pool = [k for k in range(34) for _ in range(4)]
    # bias towards one or two suits and some wilds, as real hands drift
    if rng.random() < 0.5:
        suits = rng.sample(range(4), 2)
        pool = [k for k in pool if (k // 9 if k < 27 else 3) in suits or k == WILD]
    return rng.sample(pool, n)


def test_one_tile_changes_match_the_rules_engine_on_random_hands():
    rng = random.Random(18)
    checked = 0
    for _trial in range(200):
        melds = rng.choice((0, 0, 0, 1, 2, 3))
        n13 = 13 - 3 * melds
        hand = _random_hand(rng, n13 + 1)
        fh = Faced(hand, melds)
        assert fh.shanten() == _slow(hand, melds)
        for t in set(hand):
            rest = list(hand)
            rest.remove(t)
            assert fh.without(t) == _slow(rest, melds), (hand, t, melds)
            checked += 1
        base = hand[:-1]
        fb = Faced(base, melds)
        assert fb.shanten() == _slow(base, melds)
        for k in range(34):
            if base.count(k) < 4:
                assert fb.plus(k) == _slow([*base, k], melds)[0], (base, k, melds)
                checked += 1
    assert checked > 7000


def test_ukeire_matches_the_players_count():
    rng = random.Random(7)
    for _ in range(150):
        cs = rng.randrange(34)
        real = _random_hand(rng, 13)
        faced = [face(t, cs) for t in real]
        unseen = [max(0, 4 - real.count(k) - rng.randrange(3)) for k in range(34)]
        base = _slow(faced, 0)[0]
        slow = sum(unseen[k] for k in range(34)
                   if unseen[k] and _slow([*faced, face(k, cs)], 0)[0] < base)
        assert ukeire(faced, 0, base, unseen, cs) == slow
