"""A table's series of hands: dealer rotation, round wind, the cumulative 番 queue, the previous 百搭.

Order decision (documented in docs/game.md): the cumulative 番 that a hand's own deal triggers
(老头黄, 包子, 百搭连庄) join the queue at the deal, *before* that hand is scored, so a win in the same
hand takes one of them when it is the oldest entry. The queue therefore lives in the hand while it is
played; the match carries the hand's final queue to the next hand's context.
"""

from __future__ import annotations

from jxbot.rules.ruleset import Ruleset, get_ruleset
from jxbot.rulesets import behaviour

from .errors import IllegalAction
from .hand import Hand, HandContext, HandResult, ruleset_from_json, ruleset_to_json
from .rng import HashDrbg, derive_id, seed_bytes


class Match:
    """``Match(seed, ruleset=..., rounds=1, stake=1, fee=0)``; then ``next_hand()`` → play →
    ``hand.settle(...)`` → ``finish_hand(hand)`` until ``over``.

    ``rounds`` counts wind rounds (圈): one round ends when the deal returns to seat 0.
    ``max_hands`` (optional) ends the match after that many hands whatever the rounds.
    ``duplicate`` (duplicate events, docs/tournaments.md): the deal passes after every hand, whoever won, and
    no cumulative 番 is carried from one hand to the next — so hand ``n`` of every table on one secret is dealt
    from the same wall to the same dealer in the same context, whatever happened at each table before.
    ``to_json()`` contains the seed, from which every future wall follows: keep it private.
    """

    def __init__(self, seed: int | str, *, ruleset: str | Ruleset = "jiaxing", rounds: int | None = None,
                 stake: int = 1, fee: int = 0, max_hands: int | None = None, match_id: str | None = None,
                 duplicate: bool = False) -> None:
        seed_bytes(seed)  # validates
        self.seed = seed
        self.ruleset = get_ruleset(ruleset)
        self.rounds = self.ruleset.match_rounds if rounds is None else rounds
        if self.rounds < 1:
            raise ValueError("a match plays at least one round")
        if stake < 1 or fee < 0:
            raise ValueError("stake ≥ 1 and fee ≥ 0")
        self.stake = stake
        self.fee = fee
        self.max_hands = max_hands
        self.duplicate = duplicate
        self.match_id = match_id or derive_id(seed, "jxbot-match-id")
        self.dealer = 0
        self.rounds_done = 0
        self.queue: tuple[str, ...] = ()
        self.previous_wildcard: int | None = None
        self.results: list[dict] = []
        self.dealer_streak = 0  # hands the dealer has kept the deal in a row (caishen 牢莊)
        self.seating = [0, 1, 2, 3]  # seating[seat] = the player (their seat at the start) sitting there

    @property
    def round_wind(self) -> int:
        return self.rounds_done % 4

    @property
    def hand_number(self) -> int:
        """The number of the next (or current) hand, 1-based."""
        return len(self.results) + 1

    @property
    def over(self) -> bool:
        if self.max_hands is not None and len(self.results) >= self.max_hands:
            return True
        return self.rounds_done >= self.rounds

    def hand_seed(self, number: int) -> bytes:
        return seed_bytes(self.seed) + f"/hand/{number}".encode()

    def next_context(self) -> HandContext:
        n = self.hand_number
        return HandContext(hand_id=f"{self.match_id}-{n}", hand_number=n, dealer=self.dealer,
                           round_wind=self.round_wind, stake=self.stake, cumulative_queue=self.queue,
                           previous_wildcard=self.previous_wildcard, dealer_streak=self.dealer_streak)

    def next_hand(self) -> Hand:
        """The next hand (deterministic: calling it again before ``finish_hand`` deals the same hand)."""
        if self.over:
            raise IllegalAction("match_over")
        return Hand.new(self.hand_seed(self.hand_number), ruleset=self.ruleset, context=self.next_context())

    def ends_with(self, hand: Hand) -> bool:
        """Will recording ``hand`` (this match's current hand, ended) end the match? Then its cumulative 番
        queue is dropped (RULES A7), and its result says so instead of "carried over"."""
        r = hand.result
        if r is None:
            raise IllegalAction("not_ended")
        if self.max_hands is not None and len(self.results) + 1 >= self.max_hands:
            return True
        rounds_done = self.rounds_done
        if self._passes(r) and (self.dealer + 1) % 4 == 0:
            rounds_done += 1  # the deal passes back to seat 0: a round is done (as in finish_hand)
        return rounds_done >= self.rounds

    def finish_hand(self, hand: Hand) -> dict:
        """Record an ended hand and move the deal on; returns the hand's result record."""
        if self.over:
            raise IllegalAction("match_over")
        if hand.context.hand_id != f"{self.match_id}-{self.hand_number}":
            raise IllegalAction("wrong_hand")
        r = hand.result
        if r is None:
            raise IllegalAction("not_ended")
        s = hand.settlement
        rec = {
            "hand_id": hand.hand_id,
            "hand_number": hand.context.hand_number,
            "dealer": hand.dealer,
            "round_wind": hand.context.round_wind,
            "wildcard": hand.wildcard,
            "drawn_game": r.drawn_game,
            "winner": r.winner,
            "self_draw": r.self_draw,
            "discarder": r.discarder,
            "robbed_from": r.robbed_from,
            "points": r.score.points if r.score else 0,
            "cumulative_taken": list(r.cumulative_taken),
            "deltas": list(s.deltas) if s else None,
            "house_delta": s.house_delta if s else None,
        }
        per_ban = behaviour(self.ruleset).reseat_every(self.ruleset)  # None: no seating record (jiaxing)
        if per_ban is not None:
            rec["seating"] = list(self.seating)  # players may change seats after a 版 (caishen)
        self.results.append(rec)
        self.queue = () if self.duplicate else tuple(hand.queue)
        self.previous_wildcard = hand.wildcard
        if self._passes(r):
            self.dealer = (self.dealer + 1) % 4
            self.dealer_streak = 0
            if self.dealer == 0:
                self.rounds_done += 1
                if per_ban and self.rounds_done % per_ban == 0 and not self.over:
                    rec["reseat"] = self._reseat()
        else:
            self.dealer_streak += 1
        return rec

    def _passes(self, r: HandResult) -> bool:
        """Does the deal pass after a hand with result ``r``? (Not when the dealer wins or the hand is drawn,
        except in a duplicate match, where it always does.)"""
        return self.duplicate or not (r.drawn_game or r.winner == self.dealer)

    def _reseat(self) -> list[int]:
        """RULES B11: after a 版 each player draws one of 东南西北 (a deterministic draw from the seed);
        the player at seat i moves to the seat of the wind drawn (东 = seat 0, the new dealer).
        Returns the winds drawn, by old seat."""
        winds = [0, 1, 2, 3]
        HashDrbg(seed_bytes(self.seed) + f"/reseat/{self.rounds_done}".encode(), "jxbot-reseat").shuffle(winds)
        new = [0, 0, 0, 0]
        for old_seat, w in enumerate(winds):
            new[w] = self.seating[old_seat]
        self.seating = new
        self.dealer = 0
        self.dealer_streak = 0
        return winds

    def totals(self) -> list[int]:
        """Silver won or lost per seat over the settled hands."""
        tot = [0, 0, 0, 0]
        for rec in self.results:
            for i, d in enumerate(rec["deltas"] or (0, 0, 0, 0)):
                tot[i] += d
        return tot

    def to_json(self) -> dict:
        name, overrides = ruleset_to_json(self.ruleset)
        return {
            "seed": self.seed, "match_id": self.match_id, "ruleset": name, "ruleset_overrides": overrides,
            "rounds": self.rounds, "stake": self.stake, "fee": self.fee, "max_hands": self.max_hands,
            "dealer": self.dealer, "rounds_done": self.rounds_done, "queue": list(self.queue),
            "previous_wildcard": self.previous_wildcard, "results": [dict(r) for r in self.results],
            "dealer_streak": self.dealer_streak, "seating": list(self.seating),
            **({"duplicate": True} if self.duplicate else {}),
        }

    @classmethod
    def from_json(cls, d: dict) -> Match:
        m = cls(d["seed"], ruleset=ruleset_from_json(d["ruleset"], d.get("ruleset_overrides") or {}),
                rounds=d["rounds"], stake=d["stake"], fee=d["fee"], max_hands=d.get("max_hands"),
                match_id=d["match_id"], duplicate=bool(d.get("duplicate", False)))
        m.dealer = d["dealer"]
        m.rounds_done = d["rounds_done"]
        m.queue = tuple(d["queue"])
        m.previous_wildcard = d["previous_wildcard"]
        m.results = [dict(r) for r in d["results"]]
        m.dealer_streak = d.get("dealer_streak", 0)
        m.seating = list(d.get("seating", [0, 1, 2, 3]))
        return m
