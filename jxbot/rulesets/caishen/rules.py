"""The 財神 (caishen) ruleset, RULES part B: the winning shapes, the multipliers and the payments.

Only what really differs from Jiaxing lives here; ``shape``/``scoring``/``settle`` dispatch to it when
``ruleset.family == "caishen"``. Decisions are listed in docs/caishen.md.

How 白板 and the 財神 are read. The 財神 kind K is wild; 白板 plays as K's own face. Swapping the two
kinds (K ↔ 白) turns a caishen hand into an ordinary wildcard hand whose wildcard is the 白 slot: the
real 財神 land on 白 (wild) and the real 白板 land on K (K's face). Every function below works on
hands "seen through" that swap (``face``), so the shared shape tables do the work. When the 財神 is 白
itself, no swap is needed (the 白板 are the 財神).

A hand's worth is a multiplier (倍). Special patterns: take the largest, double once per extra one
(RULES B4: 4 × 2 × 2 = 16); their values are totals, self-drawn or not. 自摸 ×2 doubles only a plain
hand and 七對子 (×2 → ×4); then 杠底 ×2, 搶槓 ×4. Itemized so that the product of the items is
the multiplier: the largest pattern at its own value, every other pattern as ×2, then the doublers.
"""

from __future__ import annotations

from collections.abc import Sequence

from jxbot.i18n import register
from jxbot.rules.context import check_context
from jxbot.rules.contract import Score, ScoreItem, Settlement, Transfer
from jxbot.rules.melds import Meld
from jxbot.rules.ruleset import Ruleset, get_ruleset
from jxbot.rules.shape import check_hand, honor_need, is_complete, split_groups, suit_need
from jxbot.rules.tiles import EAST, NUM_KINDS, WHITE

WILD = WHITE  # the slot the 財神 take in a hand seen through ``face``

# item codes (values are multipliers, not 番)
PATTERN_CODES = (
    "seven_pairs",  # 七對子
    "caishen_head",  # 財神頭: a 財神 in the pair
    "single_caishen_head",  # 單釣財神頭: the lone 財神 waited, the win tile made the pair
    "caishen_hui",  # 財神會: three 財神
    "seven_winds",  # 七風
    "bu_da",  # 正規不搭
    "piao_cai",  # 漂財 (8, consecutive 16, 32 …)
    "piao_cai_single",  # 單釣漂財 (16 …)
    "piao_cai_hui",  # 財神會 with 漂財 (16, 32 …)
)
DOUBLER_CODES = ("self_draw", "kong_draw", "rob_kong")
CAISHEN_CODES = PATTERN_CODES + ("extra_pattern",) + DOUBLER_CODES

ITEM_NAMES: dict[str, tuple[str, str]] = {
    "seven_pairs": ("七对子", "Seven pairs"),
    "caishen_head": ("财神头", "Caishen in the pair"),
    "single_caishen_head": ("单钓财神头", "Lone caishen wait"),
    "caishen_hui": ("财神会", "Three caishen"),
    "seven_winds": ("七风", "Seven honors (unconnected)"),
    "bu_da": ("正规不搭", "All unconnected"),
    "piao_cai": ("漂财", "Floated caishen"),
    "piao_cai_single": ("单钓漂财", "Floated caishen, single wait"),
    "piao_cai_hui": ("财神会漂财", "Three caishen with a float"),
    "extra_pattern": ("叠加牌型", "Extra pattern"),
    "self_draw": ("自摸", "Self-draw"),
    "kong_draw": ("杠底", "Win on a kong replacement"),
    "rob_kong": ("抢杠", "Robbing a kong"),
}
_WORDS: dict[str, tuple[str, str]] = {
    "reason.below_minimum": ("平胡需要二倍以上", "a plain hand needs at least ×2 to win"),
    "reason.floating": ("漂财后只能自摸", "after floating a caishen only a self-draw wins"),
    "score.multiplier": ("倍数", "Multiplier"),
    "score.caishen_formula": ("{stake} × {mult}倍 = {points}", "{stake} × {mult} = {points}"),
    "score.base": ("底", "Base"),
}
register({**{f"item.{c}": {"zh": zh, "en": en} for c, (zh, en) in ITEM_NAMES.items()},
          **{k: {"zh": zh, "en": en} for k, (zh, en) in _WORDS.items()}})


def _rs(ruleset: str | Ruleset) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)


# ------------------------------------------------------------------------------------- faces


def face(t: int, caishen: int) -> int:
    """A tile as the shape analysis sees it: a 財神 → the wild slot (白), a 白板 → the 財神's face."""
    if caishen == WHITE:
        return t
    if t == caishen:
        return WHITE
    if t == WHITE:
        return caishen
    return t


def faces(tiles: Sequence[int], caishen: int) -> list[int]:
    return [face(t, caishen) for t in tiles]


def face_melds(melds: Sequence[Meld], caishen: int) -> list[Meld]:
    if caishen == WHITE or not any(WHITE in m.tiles for m in melds):
        return list(melds)
    return [Meld(m.kind, tuple(face(t, caishen) for t in m.tiles), m.from_seat, m.claimed) for m in melds]


# ------------------------------------------------------------------------------------- shapes (faced tiles)


def _sets_only(tiles: Sequence[int]) -> bool:
    """Can the faced tiles (3k of them) be read as sets only, the 白 slot wild?"""
    if len(tiles) % 3:
        return False
    c0, c1, c2, c3, w = split_groups(tiles, WILD)
    return suit_need(c0)[0] + suit_need(c1)[0] + suit_need(c2)[0] + honor_need(c3)[0] <= w


def _seven_pairs(tiles: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Seven pairs (four of a kind counts as two pairs); 財神 pair any single."""
    if melds or len(tiles) != 14:
        return False
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    w = counts[WILD]
    singles = sum(c % 2 for k, c in enumerate(counts) if k != WILD)
    return singles <= w


def _valid_ranks(mask: int) -> bool:
    ranks = [r for r in range(9) if mask >> r & 1]
    return all(b - a >= 3 for a, b in zip(ranks, ranks[1:], strict=False))


_MAX_EXT = [0] * 512  # for a valid set of ranks: the most ranks a valid superset holds
for _m in range(512):
    if _valid_ranks(_m):
        _MAX_EXT[_m] = max(bin(s).count("1") for s in range(512) if s & _m == _m and _valid_ranks(s))
    else:
        _MAX_EXT[_m] = -1


def _bu_da(tiles: Sequence[int], melds: Sequence[Meld]) -> tuple[bool, bool]:
    """(正規不搭, 七風): 14 concealed tiles, no two alike, same-suit tiles at least 3 ranks apart;
    七風 also holds all seven honors. The 財神 stand for whatever completes it."""
    if melds or len(tiles) != 14:
        return False, False
    real = [t for t in tiles if t != WILD]
    if len(set(real)) != len(real):
        return False, False
    room = 0
    suited = 0
    for s in range(3):
        mask = 0
        for t in real:
            if s * 9 <= t < s * 9 + 9:
                mask |= 1 << (t - s * 9)
        if _MAX_EXT[mask] < 0:
            return False, False
        room += _MAX_EXT[mask]
        suited += bin(mask).count("1")
    honors = len(real) - suited
    w = 14 - len(real)
    # fill the wilds: honors not held (7 - honors) and suited room left (room - suited)
    ok = (7 - honors) + (room - suited) >= w
    # 七風: all 7 honors, so exactly 7 suited tiles
    winds = ok and suited <= 7 and room >= 7
    return ok, winds


def _standard_features(before: Sequence[int], win: int, melds: Sequence[Meld]) -> tuple[bool, bool, bool, bool]:
    """(complete, 財神頭, 單釣財神頭, 單釣) for faced tiles: ``before`` is the hand without the win tile."""
    hand = [*before, win]
    if not is_complete(hand, melds, WILD):
        return False, False, False, False
    kinds = sorted(set(hand))
    w = hand.count(WILD)
    head = False
    if w:
        rest = list(hand)
        rest.remove(WILD)
        for x in kinds:
            if x == WILD and w < 2:
                continue
            r = list(rest)
            r.remove(x)
            if _sets_only(r):
                head = True
                break
    single_head = False
    single = False
    for x in sorted(set(before)):
        if not (x in (win, WILD) or win == WILD):
            continue
        r = list(before)
        r.remove(x)
        if _sets_only(r):
            single = True
            if x == WILD:
                single_head = True
    if single_head:
        head = True
    return True, head, single_head, single


# ------------------------------------------------------------------------------------- scoring


def float_multiplier(base: int, run: int) -> int:
    """漂財 values double for each further consecutive float: base, 2·base, 4·base …"""
    return base * 2 ** max(0, run - 1) if run > 0 else 0


def _combine(patterns: list[tuple[str, int]], doublers: list[tuple[str, int]]) -> tuple[int, list[ScoreItem]]:
    patterns = sorted(patterns, key=lambda p: (-p[1], PATTERN_CODES.index(p[0])))
    items: list[ScoreItem] = []
    mult = 1
    if patterns:
        code, v = patterns[0]
        items.append(ScoreItem(code, v))
        mult = v
        for code, _v in patterns[1:]:
            items.append(ScoreItem(code, 2))  # each extra pattern doubles (RULES B4)
            mult *= 2
    for code, v in doublers:
        items.append(ScoreItem(code, v))
        mult *= v
    return mult, items


def analyse(concealed: Sequence[int], win_tile: int, melds: Sequence[Meld] = (), *, caishen: int,
            self_draw: bool = False, kong_draw: bool = False, robbing_kong: bool = False, float_run: int = 0,
            ruleset: str | Ruleset = "caishen") -> tuple[int, list[ScoreItem], tuple[str, ...], bool]:
    """(multiplier, items, patterns, complete) of the best reading. ``concealed`` excludes ``win_tile``."""
    rs = _rs(ruleset)
    before = faces(concealed, caishen)
    win = face(win_tile, caishen)
    fm = face_melds(melds, caishen)
    hand = [*before, win]
    w = hand.count(WILD)
    doublers: list[tuple[str, int]] = []
    if self_draw and kong_draw and rs.cs_kong_draw > 1:
        doublers.append(("kong_draw", rs.cs_kong_draw))
    if robbing_kong and rs.cs_rob_kong > 1:
        doublers.append(("rob_kong", rs.cs_rob_kong))
    common: list[tuple[str, int]] = []
    hui = w >= 3
    if hui:
        common.append(("caishen_hui", rs.cs_caishen_hui))
    readings: list[list[tuple[str, int]]] = []
    complete, head, single_head, single = _standard_features(before, win, fm)
    if complete:
        pats: list[tuple[str, int]] = []
        if single_head:
            pats.append(("single_caishen_head", rs.cs_single_caishen_head))
        elif head:
            pats.append(("caishen_head", rs.cs_caishen_head))
        readings.append(pats + _floats(rs, float_run, w, single))
    if rs.seven_pairs and _seven_pairs(hand, fm):
        readings.append([("seven_pairs", rs.cs_seven_pairs), *_floats(rs, float_run, w, False)])
    bu_da, winds = _bu_da(hand, fm)
    if bu_da and rs.cs_bu_da:
        pats = [("bu_da", rs.cs_bu_da)]
        if winds and rs.cs_seven_winds:
            pats.append(("seven_winds", rs.cs_seven_winds))
        readings.append(pats + _floats(rs, float_run, w, False))
    if not readings:
        return 0, [], (), False
    best: tuple[int, list[ScoreItem], tuple[str, ...]] | None = None
    sd = self_draw and rs.cs_self_draw > 1
    for pats in readings:
        pats = list(pats)
        if hui and not any(c == "piao_cai_hui" for c, _ in pats):
            pats += common
        pats = [p for p in pats if p[1] > 0]
        dbl = doublers
        if sd:  # RULES B4: self-draw doubles a plain hand and 七對子 only; the other values are totals
            if all(c == "seven_pairs" for c, _ in pats):
                dbl = [("self_draw", rs.cs_self_draw), *doublers]
            else:  # 七對子 stacked with another pattern counts at its self-drawn value
                pats = [(c, v * rs.cs_self_draw if c == "seven_pairs" else v) for c, v in pats]
        mult, items = _combine(pats, dbl)
        if best is None or mult > best[0]:
            best = (mult, items, tuple(sorted(c for c, v in pats if v > 0)))
    assert best is not None
    return best[0], best[1], best[2], True


def _floats(rs: Ruleset, run: int, w: int, single: bool) -> list[tuple[str, int]]:
    """The 漂財 item (one of its three variants, the largest that applies) for a winner that floated
    ``run`` 財神 in a row; ``w`` 財神 in the winning hand."""
    if run <= 0:
        return []
    opts = []  # on equal values the first wins: 財神會漂財, then 單釣漂財, then 漂財
    if w + run >= 3:  # three 財神 counting the floated ones
        opts.append(("piao_cai_hui", float_multiplier(rs.cs_piao_cai_hui, run)))
    if single:
        opts.append(("piao_cai_single", float_multiplier(rs.cs_piao_cai_single, run)))
    opts.append(("piao_cai", float_multiplier(rs.cs_piao_cai, run)))
    return [max(opts, key=lambda o: o[1])]


def is_complete_caishen(concealed: Sequence[int], melds: Sequence[Meld] = (), caishen: int | None = None,
                        ruleset: str | Ruleset = "caishen") -> bool:
    """Shape only: four sets and a pair, seven pairs, or 不搭 (3k+2 concealed tiles incl. the win tile)."""
    if caishen is None or len(concealed) % 3 != 2:
        return False
    rs = _rs(ruleset)
    hand = faces(concealed, caishen)
    fm = face_melds(melds, caishen)
    if is_complete(hand, fm, WILD):
        return True
    if rs.seven_pairs and _seven_pairs(hand, fm):
        return True
    return rs.cs_bu_da > 0 and _bu_da(hand, fm)[0]


def can_win(concealed: Sequence[int], win_tile: int, melds: Sequence[Meld] = (), *, caishen: int,
            self_draw: bool = False, kong_draw: bool = False, robbing_kong: bool = False, float_run: int = 0,
            ruleset: str | Ruleset = "caishen") -> bool:
    """Complete and worth at least the minimum (×2). A floater (``float_run`` > 0) wins only by self-draw."""
    rs = _rs(ruleset)
    if float_run > 0 and not self_draw:
        return False
    if not is_complete_caishen([*concealed, win_tile], melds, caishen, rs):
        return False
    mult, _i, _p, ok = analyse(concealed, win_tile, melds, caishen=caishen, self_draw=self_draw,
                               kong_draw=kong_draw, robbing_kong=robbing_kong, float_run=float_run, ruleset=rs)
    return ok and mult >= rs.cs_min_multiplier


def is_winning_any(concealed: Sequence[int], melds: Sequence[Meld] = (), caishen: int | None = None,
                   ruleset: str | Ruleset = "caishen") -> bool:
    """``shape.is_winning`` for the caishen family: the hand (win tile included) would win as a self-draw
    (the most favourable ordinary way; on a discard a plain hand is short of ×2)."""
    if caishen is None or len(concealed) % 3 != 2:
        return False
    ts = list(concealed)
    return can_win(ts[:-1], ts[-1], melds, caishen=caishen, self_draw=True, ruleset=ruleset)


def score_win(concealed: Sequence[int], win_tile: int, melds: Sequence[Meld] = (), *, wildcard: int | None,
              self_draw: bool = False, kong_draw: bool = False, robbing_kong: bool = False, float_run: int = 0,
              stake: int = 1, ruleset: str | Ruleset = "caishen") -> Score:
    """Score a caishen win: ``points`` = stake × multiplier (one share); items are multipliers.

    Not winning → ``reason`` "no_shape", "floating" (a floater's discard/rob win) or "below_minimum"."""
    rs = _rs(ruleset)
    if wildcard is None:
        raise ValueError("the caishen ruleset needs the 財神 (wildcard) kind")
    check_hand(concealed, melds, extra=(win_tile,), wildcard=wildcard, tiles_mod3=2)
    check_context(melds, self_draw=self_draw, kong_draw=kong_draw, robbing_kong=robbing_kong)
    if float_run < 0:
        raise ValueError("float_run cannot be negative")
    held = sum(1 for t in (*concealed, win_tile) if t == wildcard)
    if float_run and held + float_run > 3:  # the flipped one is out of play: three 財神 in all
        raise ValueError(f"only three 財神 are in play: {held} in the hand and {float_run} floated make {held + float_run}")
    mult, items, patterns, ok = analyse(concealed, win_tile, melds, caishen=wildcard, self_draw=self_draw,
                                        kong_draw=kong_draw, robbing_kong=robbing_kong, float_run=float_run,
                                        ruleset=rs)
    if not ok:
        return Score(winning=False, reason="no_shape", stake=stake)
    if float_run > 0 and not self_draw:
        return Score(winning=False, reason="floating", stake=stake, fan=tuple(items))
    if mult < rs.cs_min_multiplier:
        return Score(winning=False, reason="below_minimum", stake=stake, fan=tuple(items))
    return Score(winning=True, fan=tuple(items), stake=stake, points=stake * mult, patterns=patterns)


def multiplier_of(score: Score) -> int:
    m = 1
    for i in score.fan:
        m *= i.value
    return m


# ------------------------------------------------------------------------------------- settlement


def dealer_base(streak: int, ruleset: str | Ruleset = "caishen") -> int:
    """底 of a hand whose dealer has already kept the deal ``streak`` hands in a row (牢莊): 2, 3, 4 …"""
    return _rs(ruleset).cs_base_start + max(0, streak)


def shares(*, winner: int, dealer: int, base: int, unit: int, discarder: int | None = None,
           ruleset: str | Ruleset = "caishen") -> list[int]:
    """What each seat owes the winner before 包 and 搶槓 (``unit`` = stake × multiplier).

    Dealer wins: each other seat base × unit. A non-dealer wins: the dealer base × unit, each other
    non-dealer 1 × unit. The discarder (放銃) pays its share once more."""
    rs = _rs(ruleset)
    owe = [0, 0, 0, 0]
    for s in range(4):
        if s == winner:
            continue
        owe[s] = base * unit if (winner == dealer or s == dealer) else unit
        if s == discarder and rs.cs_discarder_extra:
            owe[s] *= 2
    return owe


def win_debts(*, winner: int, dealer: int, base: int, unit: int, discarder: int | None = None,
              robbed: int | None = None, dabao: tuple[int, int] | None = None,
              ruleset: str | Ruleset = "caishen") -> tuple[list[int], str | None]:
    """Each seat's payment to the winner, and which rule moved it (None, "rob", "shun_bao", "fan_bao").

    搶槓: the robbed seat pays everyone's share (the ×4 is in the multiplier). 大包 (A fed its next
    seat B three chows; ``dabao`` = (A, B)): B wins → A pays everyone's share (順包); A wins → B pays
    (everyone's share) × 2 (反包). With ``cs_dabao_literal`` the two others still pay their own share."""
    rs = _rs(ruleset)
    owe = shares(winner=winner, dealer=dealer, base=base, unit=unit, discarder=discarder, ruleset=rs)
    if robbed is not None:
        total = sum(owe)
        return [total if s == robbed else 0 for s in range(4)], "rob"
    if dabao is not None:
        a, b = dabao
        if winner in dabao:
            payer, how, factor = (a, "shun_bao", 1) if winner == b else (b, "fan_bao", 2)
            total = sum(owe) * factor
            out = [0, 0, 0, 0]
            out[payer] = total
            if rs.cs_dabao_literal:
                for s in range(4):
                    if s not in (winner, payer):
                        out[s] = owe[s]
            return out, how
    return owe, None


def settle(*, winner: int | None, dealer: int, points: int = 0, base: int = 2, stake: int = 1,
           discarder: int | None = None, robbed: int | None = None, dabao: tuple[int, int] | None = None,
           beigen: Sequence[int] = (), escaped: Sequence[int] = (), balances: Sequence[int | None],
           fee: int = 0, ruleset: str | Ruleset = "caishen") -> Settlement:
    """Payments of a caishen hand. ``points`` = stake × multiplier (``Score.points``); ``base`` = 底.

    Drawn hand (``winner`` None): the dealer pays each other seat 2 × stake. ``beigen``: seats that
    were 被跟 (each pays every other seat 2 × stake), whatever the outcome. Then the balance cap, the
    fee and escapes as in Jiaxing (``jxbot.rules.settle``). Every seat-to-seat transfer has reason
    "win" ("escape" when the payer escaped); ``details["items"]`` says why each was owed."""
    rs = _rs(ruleset)
    if len(balances) != 4:
        raise ValueError("balances needs one entry per seat (4)")
    for s in (winner, discarder, robbed, dealer, *beigen, *escaped, *(dabao or ())):
        if s is not None and (not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < 4):
            raise ValueError(f"a seat is 0–3, not {s!r}")
    if points < 0 or fee < 0 or base < 1 or stake < 1:
        raise ValueError("points, fee ≥ 0; base, stake ≥ 1")
    if winner is not None and winner in (discarder, robbed):
        raise ValueError("the winner cannot be the robbed seat or the discarder")
    escaped_set = set(escaped)
    debts: list[tuple[int, int, int, str]] = []  # payer, payee, amount, what
    how = None
    if winner is None:
        for s in range(4):  # an escaped seat's own winnings are not paid out (as in Jiaxing)
            if s != dealer and rs.cs_drawn_payment and (s not in escaped_set or rs.escape_winnings_paid):
                debts.append((dealer, s, rs.cs_drawn_payment * stake, "drawn"))
    elif points and (winner not in escaped_set or rs.escape_winnings_paid):
        owe, how = win_debts(winner=winner, dealer=dealer, base=base, unit=points, discarder=discarder,
                             robbed=robbed, dabao=dabao, ruleset=rs)
        for k in range(1, 4):
            s = (winner + k) % 4
            if owe[s]:
                debts.append((s, winner, owe[s], how or "win"))
    for a in beigen:
        for k in range(1, 4):
            s = (a + k) % 4
            if rs.cs_beigen_payment and (s not in escaped_set or rs.escape_winnings_paid):
                debts.append((a, s, rs.cs_beigen_payment * stake, "beigen"))
    left: list[int | None] = list(balances)
    transfers: list[Transfer] = []
    deltas = [0, 0, 0, 0]
    owed = [0, 0, 0, 0]
    paid = [0, 0, 0, 0]
    items = []
    for payer, payee, amount, what in debts:
        owed[payer] += amount
        bal = left[payer]
        pay = amount if bal is None else min(amount, bal)
        if bal is not None:
            left[payer] = bal - pay
        pb = left[payee]
        if pb is not None:
            left[payee] = pb + pay
        deltas[payer] -= pay
        deltas[payee] += pay
        paid[payer] += pay
        items.append({"payer": payer, "payee": payee, "owed": amount, "paid": pay, "why": what})
        if pay:
            transfers.append(Transfer(payer, payee, pay, "escape" if payer in escaped_set else "win"))
    house = 0
    if fee:
        payers = [s for s in range(4) if s in escaped_set] if escaped_set and not rs.escape_fee_all else range(4)
        for s in payers:
            bal = left[s]
            if bal is None:
                continue
            amount = min(fee, bal)
            left[s] = bal - amount
            deltas[s] -= amount
            house += amount
            transfers.append(Transfer(s, None, amount, "fee"))
    assert sum(deltas) + house == 0
    why: list[list] = [[], [], [], []]  # per seat [[code, multiplier], ...] (jxbot.rules.explain)
    for p, _, _, w in debts:
        if w == "win":
            if p == dealer or winner == dealer:
                why[p].append(["dealer_base", base])
            else:
                why[p].append(["share", 1])
            if p == discarder and rs.cs_discarder_extra:
                why[p].append(["discarder", 2])
        elif ["cs_" + w, 0] not in why[p]:
            why[p].append(["cs_" + w, 0])
        if p in escaped_set and ["escape", 0] not in why[p]:
            why[p].append(["escape", 0])
    details = {"base": base, "dealer": dealer, "how": how, "items": items, "paid": paid, "why": why,
               "capped": [paid[s] < owed[s] for s in range(4)], "escaped": sorted(escaped_set),
               "beigen": list(beigen), "dabao": list(dabao) if dabao else None}
    return Settlement(transfers=tuple(transfers), deltas=(deltas[0], deltas[1], deltas[2], deltas[3]),
                      house_delta=house, owed=(owed[0], owed[1], owed[2], owed[3]), details=details)


# ------------------------------------------------------------------------------------- the wall


def reserve_indices(flip_index: int, wall_size: int = 136, pairs: int = 10) -> frozenset[int]:
    """Wall indices kept back (dead): the last ``pairs`` pairs at the tail (index wall_size-1 is the
    tail). If the flipped 財神 is not among them, its pair is moved into the ``pairs``-th place, i.e.
    it replaces that pair in the reserve (the displaced pair is drawn in its stead)."""
    if pairs <= 0:
        return frozenset((flip_index,))
    tail = [(wall_size - 1 - 2 * j, wall_size - 2 - 2 * j) for j in range(pairs)]
    dead = {i for p in tail for i in p}
    if flip_index not in dead:
        from_tail = wall_size - 1 - flip_index  # 0 = the tail tile
        j = from_tail // 2
        cs_pair = {wall_size - 1 - 2 * j, wall_size - 2 - 2 * j}
        dead -= set(tail[-1])
        dead |= cs_pair
    return frozenset(dead)


# ------------------------------------------------------------------------------------- 被跟 / 大包 from a record


def beigen_seats(discard_log: Sequence[tuple[int, int, bool]], dealer: int, first_round_only: bool = True
                 ) -> list[int]:
    """Seats 被跟. ``discard_log`` = the hand's discards in order: (seat, tile, claim_followed), where
    claim_followed says a claim (吃/碰/杠) or a kong interrupted play right after that discard.

    A go-round is four discards in a row by four seats in play order with no claim or kong among them;
    when the three later ones all match the first, its discarder is 被跟. Default: only the first
    go-round of the hand (the dealer's first discard and the three after it)."""
    out: list[int] = []
    n = len(discard_log)
    starts = [0] if first_round_only else range(n)
    i_skip = -1
    for i in starts:
        if i < i_skip or i + 3 >= n:
            continue
        run = discard_log[i:i + 4]
        s0, t0, _ = run[0]
        if first_round_only and s0 != dealer:
            continue
        if any(run[k][0] != (s0 + k) % 4 or run[k][1] != t0 for k in range(4)):
            continue
        if any(run[k][2] for k in range(3)):
            continue
        out.append(s0)
        i_skip = i + 4
    return out


def dabao_pair(chows: Sequence[tuple[int, int]], needed: int = 3) -> tuple[int, int] | None:
    """(A, B) when seat B has claimed ``needed`` chows from A's discards (the first pair to get there)."""
    counts: dict[tuple[int, int], int] = {}
    for claimer, fed_by in chows:
        k = (fed_by, claimer)
        counts[k] = counts.get(k, 0) + 1
        if needed > 0 and counts[k] == needed:
            return k
    return None


# ------------------------------------------------------------------------------------- reseating


def reseat(draw: Sequence[int]) -> list[int]:
    """After a 版 each player draws one of 东南西北: ``draw[i]`` is the wind tile (EAST..NORTH or 0..3)
    player i (now at seat i) drew. Returns ``new_seat[i]``: the seat player i sits at next (东 = the old
    dealer's position, seat 0, then 南西北 in play order)."""
    winds = [d - EAST if d >= EAST else d for d in draw]
    if sorted(winds) != [0, 1, 2, 3]:
        raise ValueError("the four players draw 东南西北, one each")
    return winds
