"""The ``hard`` computer player: expected silver instead of distance to a shape.

Every choice (a discard, a claim, 放弃 / 坚持) is scored in expected silver at stake 1:

* **own chances.** ``win_chance(shanten, draws_left)`` is a table measured from ~76,000 decisions of
  four normal players (docs/ai.md): the share of hands a seat went on to win, by the target shanten
  after its discard and the draws it had left. Useful unseen draws (ukeire) scale it up or down.
* **value.** ``_value`` estimates the 台 × 2^番 the hand can still reach for a target: 清一色 when no
  honor is kept, 混一色 otherwise, 对对胡 when pungs are as close, the honor pungs held or likely
  (dragons, seat and round wind), 无百搭, 三百搭. A win is paid by the three others, and it also stops
  them winning, so a chance p of a hand worth V is worth p·(3·V + ``STOP_VALUE``).
* **reading the table.** For each other seat the player works out what its melds force it to play
  (a flush in one suit, pungs) and how close it is (melds laid down, how late it is). A discard that
  such a seat can win on costs its chance of being ready × the share of its waits that tile is ×
  what the deal-in loses (half their hand: they might have self-drawn anyway; and our own chances).
* **contracts (承包).** A discard that a seat with two claims on us could claim a third time costs the
  chance that it holds what it needs (hypergeometric over the unseen tiles) × ``CONTRACT_COST`` less
  what the contract would pay us if we won (×5 from the partner), so it feeds a contract only when
  that pays. A claim that makes a contract in our favour is valued with the contract's payments.
* **放弃 / 坚持** compares persisting (win ×2 from each of the pair, pay ×2 if one of them wins) with 0.
* **百搭.** Never thrown while another tile can go; 三百搭 doubles the value and 无百搭 adds one 台.

Speed: the shanten tables of ``jxbot.ai.evaluate`` (memoised), a few dozen candidates per decision,
ukeire only for the candidates within reach of the best. No sampling is needed inside the budget.
The caishen ruleset is played by ``jxbot.rulesets.caishen.ai`` with the hard player's defence (``ai_hard``).
"""

from __future__ import annotations

from math import comb
from typing import Any

from .base import register
from .claims import ClaimOption, best_claim
from .evaluate import IMPOSSIBLE, PUNGS, TARGETS, HandShape
from .players import NormalPlayer
from .seatview import ANGANG, BUGANG, CHI, CONTRACT_CLAIMS, DISCARD, GIVE_UP, PASS, PENG, PERSIST, after_kong
from .seatview import Table as _Table

# P(win) by target shanten after the discard (rows 0..6) and draws left // 3 (columns 0..6), measured
# from four normal players (jxbot/ai/hard.py docstring; docs/ai.md "The hard player").
_WIN = (
    (0.24, 0.39, 0.47, 0.57, 0.68, 0.79, 0.90),
    (0.04, 0.16, 0.22, 0.29, 0.42, 0.56, 0.70),
    (0.00, 0.03, 0.09, 0.15, 0.25, 0.39, 0.54),
    (0.00, 0.00, 0.02, 0.06, 0.13, 0.25, 0.41),
    (0.00, 0.00, 0.005, 0.02, 0.06, 0.15, 0.28),
    (0.00, 0.00, 0.00, 0.00, 0.02, 0.08, 0.17),
    (0.00, 0.00, 0.00, 0.00, 0.00, 0.03, 0.10),
)
_TYPICAL_UKEIRE = (6.0, 16.0, 30.0, 44.0)  # useful unseen draws of an average hand at shanten 0..3
STOP_VALUE = 2.7  # silver a win saves us: someone else would often have won instead (avg loss ≈ 3.4 × 0.8)
STICKY = 1.08  # the target already played for: switch only for a real gain (claims)
STICKY_SHANTEN = 0.5  # discards: the target already played for wins ties of shanten (as the normal player)
SHANTEN_SILVER = 2.0  # silver one step of shanten is worth mid-hand: how much danger it takes to move a step
CLAIM_SKEW = 6.0  # a seat holds the pairs it plays for more often than a random hand would
CONTRACT_COST = 16.0  # silver a contract against us costs (their win ×5 instead of ×1 from a near-ready seat; tuned: four hard players bind a contract in ≤ 10 % of hands)
DRAGONS = (31, 32, 33)
HONOR_PAIR_CHANCE = 0.35  # a held honor pair becomes a pung about this often
UKEIRE_RANGE = (0.4, 1.8)  # the factor useful draws apply to a chance (square-rooted), lowest and highest
DEAL_IN_WEIGHT = 0.5  # the part of a deal-in's cost that is ours: they might have self-drawn anyway
# (a deal-in costs no more than their self-draw in Jiaxing: RULES A9. Letting it move the discard by
# shanten, as a contract does, lost over a silver per hand in duels against normal players.)
PURE_FLUSH = 4.0  # 台 of 清一色 (混一色 is 2) as the value counts it
EXACT_READY = True  # score the waits of a ready hand with the rules engine
REACH = 0.7  # ukeire is counted for candidates whose value is at least this share of the best


def win_chance(shanten: int, draws_left: int) -> float:
    """P(win) of a hand at ``shanten`` with ``draws_left``; never 0 for a reachable hand, so that
    nearer stays better than farther even when the table rounds both to nothing."""
    if shanten >= IMPOSSIBLE:
        return 0.0
    floor = 0.002 * 0.5 ** max(0, shanten)
    if shanten >= len(_WIN):
        return floor
    return max(floor, _WIN[max(0, shanten)][min(6, max(0, draws_left) // 3)])


def _suit(k: int) -> int:
    return k // 9 if k < 27 else 3


class _Seat:
    """What the table says about one other seat."""

    __slots__ = ("seat", "melds", "suits", "chows", "concealed", "claims_on_me", "flush_suit", "ready", "value")

    def __init__(self, s: dict, me: int, late: float) -> None:
        self.seat = s["seat"]
        ms = s["melds"]
        self.melds = len(ms)
        self.concealed = s.get("concealed_count", 13 - 3 * len(ms))
        self.suits = {_suit(m["tiles"][0]) for m in ms}
        self.chows = any(m["kind"] == "chow" for m in ms)
        self.claims_on_me = sum(1 for m in ms if m.get("from_seat") == me)
        num = self.suits - {3}
        # melds in one suit: it is playing for that flush (or pungs, which its honors/pungs allow)
        self.flush_suit = next(iter(num)) if len(num) == 1 else None
        r = (0.0, 0.12, 0.25, 0.45, 0.8)[min(4, self.melds)] + 0.3 * late
        self.ready = 0.0 if s.get("gave_up") else min(0.95, r)
        v = 3.0
        if self.flush_suit is not None:
            v = 3.5 if 3 in self.suits else 4.5
        v += sum(1 for m in ms if m["tiles"][0] in DRAGONS)
        self.value = v

    def win_share(self, d: int) -> float:
        """The share of this seat's likely waits that tile ``d`` is (0 if its melds rule ``d`` out)."""
        if self.flush_suit is not None:
            if self.chows:
                return 0.16 if _suit(d) in (self.flush_suit, 3) else 0.0
            return 0.14 if _suit(d) in (self.flush_suit, 3) else 0.05  # pungs in mixed suits stay possible
        if self.melds and not self.chows:
            return 0.07
        if self.melds >= 2 and len(self.suits - {3}) > 1:
            return 0.0  # chows in two suits: no pattern left, it cannot win
        return 0.06


def _p_hold(u: int, k: int, total: int, need: int) -> float:
    """P(a hand of ``k`` tiles drawn from ``total`` unseen holds ≥ ``need`` of a kind with ``u`` unseen)."""
    if u < need or k < need or total <= 0 or k > total:
        return 0.0
    den = comb(total, k)
    miss = sum(comb(u, i) * comb(total - u, k - i) for i in range(need))
    return max(0.0, 1.0 - miss / den)


@register
class HardPlayer(NormalPlayer):
    """Expected-silver play: value, table reading, defence (see the module docstring)."""

    level = "hard"
    stop_value = STOP_VALUE  # per class, so the expert's proposer (jxbot.ai.expert) can weigh speed differently
    contract_cost = CONTRACT_COST

    # -- the table -------------------------------------------------------------------------------
    def _read(self, tb: _Table) -> tuple[list[_Seat], int]:
        view = tb.view
        wall = view.get("wall_remaining", 60)
        late = max(0.0, 1.0 - wall / 70.0)
        seats = [_Seat(s, tb.me, late) for s in view["seats"] if s["seat"] != tb.me]
        return seats, wall // 4

    # -- value -----------------------------------------------------------------------------------
    def _value(self, tb: _Table, c: list[int], melds: list[tuple[str, int]], t: int, pung_close: bool) -> float:
        wild = tb.wild
        view = tb.view
        seat_wind = 27 + view["seats"][tb.me].get("seat_wind", 0)
        round_wind = 27 + view.get("round_wind", 0)
        honors = any(c[k] for k in range(27, 34) if k != wild) or any(b >= 27 for _k, b in melds)
        suits = {_suit(k) for k in range(27) if c[k] and k != wild} | {_suit(b) for _k, b in melds if b < 27}
        tai = 0.0
        if t == PUNGS:
            tai += 2
            if not suits:
                tai += 10
            elif len(suits) == 1:
                tai += 2 if honors else PURE_FLUSH
        else:
            tai += 2 if honors else PURE_FLUSH
            if pung_close:
                tai += 2
        for h in (*DRAGONS, seat_wind, round_wind):  # seat == round wind counts twice, as it scores
            if h == wild:
                continue
            n = c[h] + sum(3 for k, b in melds if b == h and k != "chow")
            tai += 1 if n >= 3 else HONOR_PAIR_CHANCE if n == 2 else 0.0
        w = c[wild] if wild is not None else 0
        if w == 0:
            tai += 1
        return tai * (2 if w >= 3 else 1)

    # -- discards --------------------------------------------------------------------------------
    def _rank(self, tb: _Table, counts: list[int], melds: list[tuple[str, int]], candidates: list[int],
              win_mult: float, seats: list[_Seat], draws: int, defend: bool, exact: bool = False
              ) -> list[tuple[float, int, int, int]]:
        """(expected silver, tile, shanten, target) for each candidate discard, best first."""
        shape = HandShape(counts, melds, tb.wild)
        lbs = [shape.shanten(t) for t in TARGETS]
        tables = {t: shape.discard_shanten(t) for t in TARGETS if lbs[t] < IMPOSSIBLE and lbs[t] <= min(lbs) + 2}
        un = tb.unseen
        rows: list[list[Any]] = []  # [biased shanten (+ contract danger), expected silver, tile, shanten, target]
        target = self.target
        for d in candidates:
            c = counts.copy()
            c[d] -= 1
            pung_s = tables[PUNGS][d] if PUNGS in tables else IMPOSSIBLE
            best = (float(IMPOSSIBLE), 0.0, IMPOSSIBLE, PUNGS)  # (biased shanten, -ev, shanten, target)
            for t, tab in tables.items():
                s = tab[d]
                if s >= IMPOSSIBLE:
                    continue
                p = win_chance(s, draws)
                v = self._value(tb, c, melds, t, pung_s <= s)
                ev = p * (win_mult * v + self.stop_value)
                k = (s - STICKY_SHANTEN if t == target else float(s), -ev, s, t)
                if k < best:
                    best = k
            rows.append([best[0], -best[1], d, best[2], best[3]])
        # ukeire refines the chances of the candidates as near as the best
        top = min(r[0] for r in rows)
        for r in rows:
            if r[0] <= top + 0.5 and r[3] < len(_TYPICAL_UKEIRE):
                u = shape.ukeire(r[4], r[2], un, r[3])
                f = (max(UKEIRE_RANGE[0], min(UKEIRE_RANGE[1], u / _TYPICAL_UKEIRE[r[3]]))) ** 0.5
                r[1] *= f
        if exact:  # ready after the discard: the waits' real scores (jxbot.rules), not an estimate
            for r in rows:
                if r[3] == 0 and r[0] <= top + 0.5:
                    exact_ev = self._ready_value(tb, r[2], draws, win_mult)
                    if exact_ev is not None:
                        r[1] = exact_ev
        if defend:
            contract, deal_in = self._danger_cost(tb, candidates, seats, {r[2]: r[1] for r in rows}, un)
            for r in rows:
                x = contract.get(r[2], 0.0)
                if x:  # a contract against us is worth giving up speed for
                    r[0] += x / SHANTEN_SILVER
                    r[1] -= x
                r[1] -= deal_in.get(r[2], 0.0)  # a deal-in only picks among equally near discards
        rows.sort(key=lambda r: (r[0], -r[1], self._keep_value(r[2], shape, r[4]), r[2]))
        return [(r[1], r[2], r[3], r[4]) for r in rows]

    def _ready_value(self, tb: _Table, d: int, draws: int, win_mult: float) -> float | None:
        """Expected silver of the ready hand left by discarding ``d``: the chance of a ready hand with
        this many useful unseen tiles × (what the average wait scores × the payers + ``STOP_VALUE``)."""
        from jxbot.rules import score_win
        from jxbot.rules.melds import Meld
        from jxbot.rules.shape import waits

        view = tb.view
        rest = list(tb.hand)
        rest.remove(d)
        melds = [Meld.from_json(m) for m in view["seats"][tb.me]["melds"]]
        wild = tb.wild
        un = tb.unseen
        try:
            ws = waits(rest, melds, wild)
        except ValueError:
            return None
        seat_wind = view["seats"][tb.me].get("seat_wind", 0)
        round_wind = view.get("round_wind", 0)
        live = total = 0.0
        for k in ws:
            if not un[k]:
                continue
            try:
                sc = score_win(rest, k, melds, wildcard=wild, seat_wind=seat_wind, round_wind=round_wind)
            except ValueError:
                continue
            if sc.winning:
                live += un[k]
                total += un[k] * sc.points
        if not live:
            return 0.0
        f = max(UKEIRE_RANGE[0], min(UKEIRE_RANGE[1], live / _TYPICAL_UKEIRE[0])) ** 0.5
        return win_chance(0, draws) * f * (win_mult * total / live + self.stop_value)

    def _danger_cost(self, tb: _Table, candidates: list[int], seats: list[_Seat], ev: dict[int, float],
                     un: list[int]) -> tuple[dict[int, float], dict[int, float]]:
        """Expected silver each discard costs: (a contract against us, a deal-in)."""
        view = tb.view
        me = tb.me
        total = sum(un)
        out: dict[int, float] = {}
        deal: dict[int, float] = {}
        contract_open = not view.get("contract")
        for d in candidates:
            if d == tb.wild:
                continue
            cost = 0.0
            mine = max(0.0, ev.get(d, 0.0))
            risk = 0.0
            for x in seats:
                # deal-in: they may be ready on it (a flush seat only on its suit and honors)
                share = x.win_share(d)
                if share and x.ready:
                    risk += DEAL_IN_WEIGHT * x.ready * share * x.value
                # a third claim on us: a contract
                if contract_open and x.claims_on_me == CONTRACT_CLAIMS - 1:
                    k = x.concealed
                    pc = _p_hold(un[d], k, total, 2)
                    if x.seat == (me + 1) % 4 and d < 27:
                        pc += self._p_chow(d, un, k, total)
                    if x.flush_suit is not None and _suit(d) not in (x.flush_suit, 3) and x.chows:
                        pc *= 0.15  # a flush seat rarely wants it
                    else:
                        pc *= CLAIM_SKEW
                    cost += min(1.0, pc) * max(0.0, self.contract_cost - 4 * mine / 3)
            if cost:
                out[d] = cost
            if risk:
                deal[d] = risk
        return out, deal

    @staticmethod
    def _p_chow(d: int, un: list[int], k: int, total: int) -> float:
        r = d % 9
        p = 0.0
        for a in (d - 2, d - 1, d):
            if a // 9 != d // 9 or not 0 <= a % 9 <= 6 or not a % 9 <= r <= a % 9 + 2:
                continue
            need = [x for x in (a, a + 1, a + 2) if x != d]
            q = 1.0
            for x in need:
                q *= _p_hold(un[x], k, total, 1)
            p += q
        return p

    def _turn(self, tb: _Table) -> dict:
        bt = tb.by_type
        discards = {a["tile"]: a for a in bt[DISCARD]}
        cands = sorted(discards)
        nonwild = [d for d in cands if d != tb.wild] or cands
        seats, draws = self._read(tb)
        mult = self._win_mult(tb)
        rows = self._rank(tb, tb.counts, tb.melds, nonwild, mult, seats, draws, True, exact=EXACT_READY)
        ev, tile, s, t = rows[0]
        self.target = t
        best_s = min(r[2] for r in rows)
        for a in bt.get(ANGANG, []) + bt.get(BUGANG, []):
            _sc, ks, kt = self._best_of(after_kong(tb, a))
            if ks <= best_s:
                self.target = kt
                return a
        return discards[tile]

    def _win_mult(self, tb: _Table) -> float:
        """What a win of ours is paid, in hand scores (3 = the three others ×1; more in a contract)."""
        ct = tb.view.get("contract")
        if ct and tb.me in ct:
            gave = sum(1 for s in tb.view["seats"] if s.get("gave_up"))
            return 5.0 + 2.0 * (2 - gave)
        return 3.0

    def _now(self, tb: _Table, seats: list[_Seat], draws: int, mult: float) -> float:
        """Expected silver of the 13-tile hand as it stands (for claims: the value of passing)."""
        shape = HandShape(tb.counts, tb.melds, tb.wild)
        pung_s = shape.shanten(PUNGS)
        best = 0.0
        for t in TARGETS:
            s = shape.shanten(t)
            p = win_chance(s, draws)
            if p <= 0:
                continue
            ev = p * (mult * self._value(tb, tb.counts, tb.melds, t, pung_s <= s) + self.stop_value)
            if t == self.target:
                ev *= STICKY
            best = max(best, ev)
        return best

    def _claim(self, tb: _Table) -> dict:
        """Claims as the normal player (only when they bring the hand strictly nearer, judged with the
        hard player's own discard after it), plus the claim that binds a contract in our favour (our
        third claim on the same seat: the partner then pays ×5) when it costs no shanten.

        (Measured: judging claims by expected silver instead called too rarely and lost 0.24 silver
        per hand against normal players; docs/ai.md.)"""
        choice = super()._claim(tb)
        if choice["type"] != PASS or tb.view.get("contract"):
            return choice
        ld = tb.view.get("last_discard") or {}
        x, frm = ld.get("tile"), ld.get("seat")
        if x is None:
            return choice
        claims_from = sum(1 for m in tb.view["seats"][tb.me]["melds"] if m.get("from_seat") == frm)
        if claims_from != CONTRACT_CLAIMS - 1:
            return choice
        now_s = min(HandShape(tb.counts, tb.melds, tb.wild).shanten(t) for t in TARGETS)
        best = best_claim(tb, lambda o: self._binding_value(tb, o, now_s), (PENG, CHI))
        if best is None:
            return choice
        self.target = best[1]
        return best[0].action

    @staticmethod
    def _binding_value(tb: _Table, o: ClaimOption, now_s: int) -> tuple[int, int] | None:
        """A contract-binding claim is taken when the best discard after it leaves the hand no further
        from ready (the first such claim: rank 0); the note is the target it then plays for."""
        sh = HandShape(o.counts, o.melds, tb.wild)
        c = o.counts
        after = min((sh.discard_shanten(t)[d] for t in TARGETS for d in range(34) if c[d] and d != tb.wild),
                    default=IMPOSSIBLE)
        return (0, sh.best()[1]) if after <= now_s else None

    def _contract(self, tb: _Table) -> dict:
        """坚持 when winning ×2 from each of the pair (and ×1 from the other persisting seat) is worth
        more than paying ×2 when one of the pair wins; else 放弃 (pay nothing, no more chances)."""
        bt = tb.by_type
        ct = tb.view.get("contract") or []
        seats, draws = self._read(tb)
        shape = HandShape(tb.counts, tb.melds, tb.wild)
        s = min(shape.shanten(t) for t in TARGETS)
        p_me = win_chance(s, draws)
        v_me = max((self._value(tb, tb.counts, tb.melds, t, False) for t in TARGETS
                    if shape.shanten(t) == s), default=3.0)
        pair = [x for x in seats if x.seat in ct]
        p_pair = min(0.9, sum(0.35 + 0.5 * x.ready for x in pair) / 2 + 0.1) if pair else 0.5
        v_pair = sum(x.value for x in pair) / len(pair) if pair else 4.0
        gain = p_me * 4.5 * v_me
        loss = p_pair * 2.0 * v_pair
        want = PERSIST if gain > loss else GIVE_UP
        if want in bt:
            return bt[want][0]
        return tb.actions[0]
