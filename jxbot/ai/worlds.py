"""Worlds a seat cannot tell apart: a playable ``Hand`` built from ONE seat's view and a random draw of
the tiles that seat cannot see (the evaluator's determinization, docs/ai.md "The evaluator").

``world_from_view(view, rng)`` reads nothing but the seat view (docs/views.md): the seat's own tiles and
the public facts (discards, melds, the 百搭/財神 and its indicator, voided tiles, tiles left, the
cumulative queue). The tiles the seat has not seen are dealt at random to the other seats (as many as
each holds) and to the live wall; the real wall and the other hands are never read, because they are not
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
HAND_DRAWS = 60  # an other seat's hand is the nearest to a win of this many random draws (see deal)


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
        self.pool = [k for k, n in enumerate(unseen_counts(view)) for _ in range(n)]
        self.live_len = view["wall_remaining"] + self.ruleset.reserve_tiles
        claims: Counter[tuple[int, int]] = Counter()
        for s, ms in enumerate(self.melds):
            for m in ms:
                if m.from_seat is not None:
                    claims[(s, m.from_seat)] += 1
        self.claims = claims
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
        """Seat ``s``'s hidden tiles, taken out of ``pool`` (shuffled): of ``HAND_DRAWS`` random draws the
        one nearest to a win. A seat has played for a win since the deal, so its hand is nearer one than a
        random handful: uniform draws made the viewer win twice as often in playouts as in play
        (bench/calibration.py). Only the view and ``rng`` decide which (the information boundary holds)."""
        from .evaluate import TARGETS, HandShape

        n = self.counts[s]
        if n == 0:
            return []
        melds = [("chow" if m.kind is MeldKind.CHOW else "pung", m.tiles[0]) for m in self.melds[s]]
        wild = self.view.get("wildcard")
        best: tuple[int, int] | None = None
        for _k in range(HAND_DRAWS):
            start = rng.randrange(0, len(pool) - n + 1)
            counts = [0] * NUM_KINDS
            for t in pool[start:start + n]:
                counts[t] += 1
            sh = HandShape(counts, melds, wild) if n % 3 == 1 else None
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
