"""Worlds a seat cannot tell apart: a playable ``Hand`` built from ONE seat's view and a random draw of
the tiles that seat cannot see (the evaluator's determinization, docs/ai.md "The evaluator").

``world_from_view(view, rng)`` reads nothing but the seat view (docs/views.md): the seat's own tiles and
the public facts (discards, melds, the 百搭/財神 and its indicator, voided tiles, tiles left, the
cumulative queue). The tiles the seat has not seen are dealt at random to the other seats (as many as
each holds; in Jiaxing each hand then played up as many turns as that seat has drawn, up to 8, so that it
is as near a win as a real one at that point: ``Skeleton._hand_for``) and to the live wall; the real wall and the other hands are never read, because they are not
in the view. The result is a ``Hand`` in the same phase, waiting for the same seat, whose ``apply`` plays
on from there.

What a view does not carry is approximated: the stake (1), the dealer's streak (0), whether the drawn
tile was a kong replacement (no), the order of the discards between seats (round by round from the
dealer; caishen's 被跟 reads it), the answers other seats already gave in an open claim window (asked
again). A claim window's options are recomputed from the sampled hands.
"""

from __future__ import annotations

import random
from collections import Counter

from ..game import events as ev
from ..game.hand import Hand, HandContext, _Window
from ..rules.melds import Meld, MeldKind
from ..rules.ruleset import get_ruleset

NUM_KINDS = 34
HAND_DRAWS = 60  # without a pattern rule, an other seat's hand is the nearest to a win of this many draws
# how far an other seat's hidden tiles are played up (_hand_for): a turn per turn it has drawn, at most
# PLAY_UP_TURNS (more overshoots: real hands still in play late are those that have not won, and their mean
# shanten stalls near 1.8 while greedy play-up goes on to ~0.8); a hand waiting on a tile thrown in the last
# RECENT_ROUNDS rounds is dealt again
PLAY_UP_TURNS = 8
RECENT_ROUNDS = 3
REDEALS = 3
IMPOSSIBLE = 99


def play_up(turns: int) -> int:
    """Turns an other seat's hidden tiles are played up, for ``turns`` turns it drew in the real hand."""
    return min(PLAY_UP_TURNS, turns)


def unseen_counts(view: dict) -> list[int]:
    """Copies of each kind the viewer cannot see: 4 less its hand, every meld, every unclaimed discard,
    the indicator and the voided tiles."""
    seen = [0] * NUM_KINDS
    for t in view.get("hand") or ():
        seen[t] += 1
    if view.get("drawn") is not None:
        seen[view["drawn"]] += 1
    if view.get("indicator") is not None:
        seen[view["indicator"]] += 1
    for t in view.get("voided") or ():
        seen[t] += 1
    for s in view["seats"]:
        for m in s["melds"]:
            for t in m["tiles"]:
                seen[t] += 1
        for d in s["discards"]:
            if not d["claimed"]:
                seen[d["tile"]] += 1
    return [max(0, 4 - x) for x in seen]


def _meld(m: dict) -> Meld:
    return Meld(MeldKind(m["kind"]), tuple(m["tiles"]), m.get("from_seat"), m.get("claimed"))


class Skeleton:
    """The public part of a world, built once per decision; ``deal(rng)`` makes one world from it."""

    def __init__(self, view: dict) -> None:
        if view.get("viewer") is None:
            raise ValueError("a world is built from a seat's view (viewer set)")
        self.view = view
        self.viewer = me = view["viewer"]
        self.ruleset = get_ruleset(view["ruleset"])
        self.context = HandContext(hand_id=view.get("hand_id") or "world", hand_number=view.get("hand_number", 1),
                                   dealer=view["dealer"], round_wind=view.get("round_wind", 0),
                                   cumulative_queue=tuple(view.get("cumulative_queue") or ()))
        own = list(view.get("hand") or ())
        if view.get("drawn") is not None:
            own.append(view["drawn"])
        self.own = own
        self.melds = [[_meld(m) for m in s["melds"]] for s in view["seats"]]
        self.counts = [len(own) if s["seat"] == me else s["concealed_count"] for s in view["seats"]]
        self.discards = [[[d["tile"], d["claimed"]] for d in s["discards"]] for s in view["seats"]]
        unseen = unseen_counts(view)
        # a 补杠 being robbed: the tile is public and still in the declarer's hand (the win takes it from
        # there), so it is dealt to the declarer, not at random
        self.fixed: list[list[int]] = [[] for _ in range(4)]
        pk = view.get("pending_kong")
        if pk and pk["seat"] != me and unseen[pk["tile"]] > 0:
            self.fixed[pk["seat"]].append(pk["tile"])
            unseen[pk["tile"]] -= 1
        self.pool = [k for k, n in enumerate(unseen) for _ in range(n)]
        self.live_len = view["wall_remaining"] + self.ruleset.reserve_tiles
        claims: Counter[tuple[int, int]] = Counter()
        for s, ms in enumerate(self.melds):
            for m in ms:
                if m.from_seat is not None:
                    claims[(s, m.from_seat)] += 1
        self.claims = claims
        # the turns each seat drew a tile in the real hand (a discard after a claim followed no draw), and
        # its melds as the shape evaluation reads them: how far its hidden tiles are played up (_hand_for)
        claimed = [sum(1 for m in ms if m.from_seat is not None) for ms in self.melds]
        self.turns = [max(0, len(self.discards[s]) - claimed[s]) for s in range(4)]
        wild = view.get("wildcard")
        self.recent = [[d[0] for o in range(4) if o != s for d in self.discards[o][-RECENT_ROUNDS:]
                        if d[0] != wild or self.ruleset.wildcard_discard_claimable] for s in range(4)]
        self.shape_melds = [[("chow" if m.kind is MeldKind.CHOW else "pung", m.tiles[0]) for m in ms]
                            for ms in self.melds]
        # the discards in an approximate order (round by round from the dealer) and the chows, for the
        # rules that read the log (caishen 被跟, 大包)
        log: list[ev.Event] = []
        d0 = view["dealer"]
        for i in range(max((len(x) for x in self.discards), default=0)):
            for k in range(4):
                s = (d0 + k) % 4
                if i < len(self.discards[s]):
                    log.append(ev.Discarded(seat=s, tile=self.discards[s][i][0]))
        for s, ms in enumerate(self.melds):
            for m in ms:
                if m.kind is MeldKind.CHOW and m.from_seat is not None:
                    log.append(ev.Claimed(seat=s, kind="chow", tile=m.claimed if m.claimed is not None else m.tiles[0],
                                          from_seat=m.from_seat, meld=m.tiles))
        self.log = log

    def _hand_for(self, s: int, pool: list[int], rng: random.Random) -> list[int]:
        """Seat ``s``'s hidden tiles, taken out of ``pool`` (shuffled). A seat has played for a win since the
        deal, so its hand is nearer one than a random handful, the more so the longer it has played: dealt
        at random (or the best of 60 random draws, as before), the viewer won more often in playouts than in
        play (bench/calibration.py). In a ruleset that needs a pattern (Jiaxing) the hand is played up:
        a random deal, then ``play_up(turns)`` turns of drawing a random unseen tile and throwing the one
        that leaves it nearest a win (the best target's shanten, ties by ``rng``), the thrown tile going
        back to the pool; and a hand left waiting on a tile another seat threw in the last ``RECENT_ROUNDS``
        rounds is dealt again (up to ``REDEALS`` times: it would have won on it, so the real one is not
        that hand). Only the view and ``rng`` decide (the information boundary holds)."""
        fixed = self.fixed[s]
        n = self.counts[s] - len(fixed)
        if n <= 0:
            return list(fixed)
        if not self.ruleset.require_pattern:
            return self._best_draw(s, n, pool, rng) + fixed
        turns = play_up(self.turns[s])
        keep = list(pool)
        for _try in range(REDEALS + 1):
            pool[:] = keep
            counts = self._played_up(s, n, turns, pool, rng)
            if not self._waits_on_recent(s, counts):
                break
        return [k for k in range(NUM_KINDS) for _ in range(counts[k])] + fixed

    def _played_up(self, s: int, n: int, turns: int, pool: list[int], rng: random.Random) -> list[int]:
        from .evaluate import TARGETS, HandShape

        counts = [0] * NUM_KINDS
        for t in pool[len(pool) - n:]:
            counts[t] += 1
        del pool[len(pool) - n:]
        if n % 3 != 1:
            return counts
        melds, wild = self.shape_melds[s], self.view.get("wildcard")
        for _turn in range(turns):
            if not pool:
                break
            i = rng.randrange(len(pool))
            t = pool[i]
            pool[i] = pool[-1]
            pool.pop()
            counts[t] += 1
            sh = HandShape(counts, melds, wild)
            best: dict[int, int] = {}
            for target in TARGETS:
                for k, v in sh.discard_shanten(target).items():
                    if v < best.get(k, IMPOSSIBLE):
                        best[k] = v
            low = min(best.values())
            throw = [k for k in sorted(best) if best[k] == low]
            d = throw[rng.randrange(len(throw))] if len(throw) > 1 else throw[0]
            counts[d] -= 1
            pool.append(d)
        return counts

    def _waits_on_recent(self, s: int, counts: list[int]) -> bool:
        """Whether the hand ``counts`` of seat ``s`` would have won on a tile another seat threw lately."""
        from .evaluate import TARGETS, HandShape

        recent = self.recent[s]
        if not recent or sum(counts) % 3 != 1:
            return False
        sh = HandShape(counts, self.shape_melds[s], self.view.get("wildcard"))
        if min(sh.shanten(t) for t in TARGETS) > 0:
            return False
        return any(sh.shanten_delta(t, add=x) < 0 for x in recent for t in TARGETS)

    def _best_draw(self, s: int, n: int, pool: list[int], rng: random.Random) -> list[int]:
        """Of ``HAND_DRAWS`` random draws of ``n`` tiles the one nearest to a win (the rulesets without a
        pattern)."""
        from .evaluate import TARGETS, HandShape

        wild = self.view.get("wildcard")
        best: tuple[int, int] | None = None
        for _k in range(HAND_DRAWS):
            start = rng.randrange(0, len(pool) - n + 1)
            counts = [0] * NUM_KINDS
            for t in pool[start:start + n]:
                counts[t] += 1
            sh = HandShape(counts, self.shape_melds[s], wild) if n % 3 == 1 else None
            score = min(sh.shanten(t) for t in TARGETS) if sh is not None else 0
            if best is None or score < best[0]:
                best = (score, start)
        assert best is not None
        start = best[1]
        tiles = pool[start:start + n]
        del pool[start:start + n]
        return tiles

    def deal(self, rng: random.Random) -> Hand:
        """One world: the unseen tiles shuffled by ``rng`` into the other hands and the live wall."""
        v = self.view
        me = self.viewer
        pool = list(self.pool)
        rng.shuffle(pool)
        h = Hand()
        h.ruleset = self.ruleset
        h.context = self.context
        h.dice = (v["dice"][0], v["dice"][1])
        h.indicator, h.wildcard = v.get("indicator"), v.get("wildcard")
        concealed: list[list[int]] = [[] for _ in range(4)]
        concealed[me] = list(self.own)
        for s in range(4):
            if s != me:
                concealed[s] = self._hand_for(s, pool, rng)
        rng.shuffle(pool)  # the tiles thrown back while the hands were played up go anywhere in the wall
        h.concealed = concealed
        live = pool[:self.live_len]
        h.wall = tuple(live)
        h._live = list(range(len(live)))
        h._h, h._t = 0, len(live) - 1
        h.melds = [list(ms) for ms in self.melds]
        h.discards = [[list(d) for d in ds] for ds in self.discards]
        h.voided = list(v.get("voided") or ())
        h.queue = list(v.get("cumulative_queue") or ())
        h.events = list(self.log)
        h.claim_counts = Counter(self.claims)
        h.any_claim = bool(self.claims)
        h.discarded_seats = {s for s in range(4) if self.discards[s]}
        h.gave_up = {s["seat"] for s in v["seats"] if s.get("gave_up")}
        h.turn = v["turn"]
        h.phase = v["phase"]
        h.drawn = v.get("drawn")
        h.last_tile = h.drawn is not None and h.wall_remaining == 0
        ld = v.get("last_discard")
        h.last_discard = (ld["seat"], ld["tile"]) if ld else None
        c = v.get("contract")
        h.contract = (c[0], c[1]) if c else None
        if h.phase == "claim":
            assert ld is not None
            h.window = _Window("claim", ld["seat"], ld["tile"], h._claim_options(ld["seat"], ld["tile"]))
        elif h.phase == "rob":
            pk = v["pending_kong"]
            h.window = _Window("rob", pk["seat"], pk["tile"], h._rob_options(pk["seat"], pk["tile"]))
        elif h.phase == "contract":
            assert h.contract is not None
            h.deciders = tuple(s for s in range(4) if s not in h.contract)
            h.decisions = {}
        return h
