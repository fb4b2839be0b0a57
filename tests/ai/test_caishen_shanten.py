"""The caishen players' fast shanten (``jxbot.ai.caishen_shanten``) gives exactly the rules engine's
figures: ``shape.shanten`` (白 slot wild) and ``caishen.pairs_shanten``, for a hand, the hand minus each
tile and the hand plus each kind, with 財神 and open melds (issue 18: faster, no decision changed)."""

import random

from jxbot.ai.caishen_shanten import Faced, ukeire
from jxbot.rules.shape import shanten
from jxbot.rulesets.caishen import ai as caishen  # the caishen ruleset's own package (issue 16)
from jxbot.rulesets.caishen.rules import WILD, face


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


def _slow_players(monkeypatch):
    """The caishen players as before the fast shanten: the rules engine's shanten for every hand."""
    from jxbot.ai import caishen_shanten

    def slow_ukeire(faced13, open_melds, base, unseen, cs):
        return sum(unseen[k] for k in range(34) if unseen[k] and _slow([*faced13, face(k, cs)], open_melds)[0] < base)

    def slow_discards(faced, open_melds, tiles):
        out = []
        for t in tiles:
            rest = list(faced)
            rest.remove(t)
            out.append(_slow(rest, open_melds))
        return out

    monkeypatch.setattr(caishen, "hand_shanten", _slow)
    monkeypatch.setattr(caishen, "_ukeire", slow_ukeire)
    monkeypatch.setattr(caishen_shanten, "discard_shanten", slow_discards)


def _duel_logs(walls, challenger, field):
    from jxbot.ai.duel import wall_seed
    from jxbot.ai.players import make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Hand
    from jxbot.game.hand import HandContext

    logs = []
    for wall in walls:
        ws = wall_seed("fast-shanten", wall)
        for k in range(4):
            players = [make_player(challenger if i == k else field, f"{ws}/seat/{i}") for i in range(4)]
            ctx = HandContext(hand_id=f"w{wall}-{k}", hand_number=1, dealer=0, round_wind=0, stake=1)
            hand = Hand.new(ws.encode(), ruleset="caishen", context=ctx)
            play_hand(hand, players)
            logs.append(hand.events_json())
    return logs


def test_the_caishen_players_play_the_same_hands_as_with_the_rules_engines_shanten(monkeypatch):
    # hard challenger against normal field (both caishen players), two walls × four rotations
    fast = _duel_logs(range(2), "hard", "normal")
    with monkeypatch.context() as m:
        _slow_players(m)
        slow = _duel_logs(range(2), "hard", "normal")
    assert len(fast) == 8
    assert sum(1 for log in fast for e in log if e["type"] == "discarded") > 200
    assert fast == slow


def test_useful_draws_match_one_by_one_changes():
    from jxbot.ai.caishen_shanten import _useful

    rng = random.Random(11)
    for _ in range(300):
        melds = rng.choice((0, 0, 1, 2))
        hand = _random_hand(rng, 13 - 3 * melds)
        fh = Faced(hand, melds)
        for base in range(-1, 8):
            want = sum(1 << f for f in range(34) if fh.counts[f] < 4 and fh.plus(f) < base)
            assert _useful(fh, base) == want, (hand, melds, base)
