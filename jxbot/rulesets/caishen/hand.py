"""The few places where a hand of the 財神 (caishen) ruleset plays differently (RULES part B).

``Hand`` calls these through the ruleset's hooks (``plugin.Caishen``); everything else (deal, turns, claims, kongs,
events, views, replay) is the shared engine. Pure functions of the hand state: no I/O, no clock.

* the wall: the 20 tiles (10 pairs) at the tail are dead, holding the flipped 財神 (``dead_indices``);
  kong replacements come from the tail of the live wall; the hand is drawn after the 116th tile;
* who may win: complete and worth ×2 or more, and a seat whose latest discards are 財神 (漂財) wins
  only by self-draw (``can_win``); a discarded 財神 is never claimable (``wildcard_discard_claimable``);
* the score (``score``) and the payments (``settle``), with 被跟 and 大包 read from the event log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from jxbot.game import events as ev
from jxbot.game.actions import Action, ActionType
from jxbot.rules.contract import Score, Settlement
from jxbot.rules.melds import Meld, MeldKind
from jxbot.rules.tiles import WALL_SIZE, WHITE

from . import rules as rules_cs

if TYPE_CHECKING:
    from jxbot.game.hand import Hand


def dead_indices(hand: Hand, indicator_index: int | None) -> frozenset[int]:
    """Wall indices out of play: the reserve (with the flipped 財神), or just the indicator."""
    pairs = hand.ruleset.reserve_pairs
    if indicator_index is None:
        return frozenset()
    if pairs > 0:
        return rules_cs.reserve_indices(indicator_index, WALL_SIZE, pairs)
    return frozenset((indicator_index,))


def float_run(hand: Hand, seat: int) -> int:
    """How many 財神 ``seat`` has discarded in a row as its latest discards (0 = not floating)."""
    wc = hand.wildcard
    if wc is None:
        return 0
    n = 0
    for tile, _claimed in reversed(hand.discards[seat]):
        if tile != wc:
            break
        n += 1
    return n


def meld_claims(hand: Hand, seat: int, tile: int, *, chow: bool) -> list[Action]:
    """The 明杠 / 碰 / 吃 ``seat`` may make on the discard ``tile`` (RULES B1, B5).

    * A seat whose float is live (漂財, ``float_run`` > 0) may not 吃, 碰 or 明杠 at all.
    * 白板 plays as the 財神's face: the claims are read on faced tiles (``rules.caishen.face``), so with
      財神 = 3万 a 2万 + 白板 chows a 1万 or a 4万, and a discarded 白板 is a 3万 to 吃 and 碰. The 財神
      themselves (the faced wild slot) never take part. A chow's ``tile`` is the lowest faced kind of
      the run, as for every ruleset; ``chow_tiles`` gives the tiles that go down.
    """
    wc = hand.wildcard
    if wc is None or tile == wc or float_run(hand, seat) > 0:
        return []
    held = hand.concealed[seat]
    ft = rules_cs.face(tile, wc)
    faced = [rules_cs.face(t, wc) for t in held]
    acts: list[Action] = []
    n = faced.count(ft)  # the face swap is one-to-one: the same count as the printed tile
    if n >= 3 and hand.wall_remaining > 0:
        acts.append(Action(ActionType.KONG, seat, tile))
    if n >= 2:
        acts.append(Action(ActionType.PUNG, seat, tile))
    if chow and ft < 27:
        for a in (ft - 2, ft - 1, ft):
            if a < 0 or a // 9 != ft // 9 or a % 9 > 6:
                continue
            if all(x in faced for x in (a, a + 1, a + 2) if x != ft):
                acts.append(Action(ActionType.CHOW, seat, a))
    return acts


def chow_tiles(hand: Hand, lo: int) -> tuple[int, int, int]:
    """The tiles of the chow whose faced run starts at ``lo``: the 財神's face is played by a 白板."""
    wc = hand.wildcard
    if wc is None or wc == WHITE:
        return (lo, lo + 1, lo + 2)
    a, b, c = (WHITE if k == wc else k for k in (lo, lo + 1, lo + 2))
    return (a, b, c)


def white_as(hand: Hand) -> int | None:
    """The kind a 白板 stands for (the 財神's face) at a caishen table; None elsewhere or when the 財神
    is 白板 itself (then the 白板 are the 財神)."""
    wc = hand.wildcard
    if wc is None or wc == WHITE:
        return None
    return wc


def meld_json(hand: Hand, m: Meld) -> dict:
    """A meld as the views show it. At a caishen table a meld holding a 白板 as the 財神's face says so
    (``white_as``) and a chow lists its tiles in run order (1万 白板 3万 when the 財神 is 2万)."""
    d = m.to_json()
    wa = white_as(hand)
    if wa is None or WHITE not in m.tiles:
        return d
    d["white_as"] = wa
    if m.kind is MeldKind.CHOW:
        d["tiles"] = sorted(m.tiles, key=lambda t: wa if t == WHITE else t)
    return d


def can_win(hand: Hand, seat: int, tiles: Sequence[int], win_tile: int, *, self_draw: bool,
            robbing: bool = False) -> bool:
    """``tiles`` holds the win tile. Complete, ×2 or more, and a floater only by self-draw."""
    wc = hand.wildcard
    if wc is None:
        return False
    before = list(tiles)
    before.remove(win_tile)
    return rules_cs.can_win(before, win_tile, hand.melds[seat], caishen=wc, self_draw=self_draw,
                            kong_draw=self_draw and hand.kong_draw, robbing_kong=robbing,
                            float_run=float_run(hand, seat), ruleset=hand.ruleset)


def score(hand: Hand, seat: int, concealed: Sequence[int], tile: int, *, self_draw: bool,
          robbed_from: int | None) -> Score:
    return rules_cs.score_win(concealed, tile, hand.melds[seat], wildcard=hand.wildcard, self_draw=self_draw,
                              kong_draw=self_draw and hand.kong_draw, robbing_kong=robbed_from is not None,
                              float_run=float_run(hand, seat), stake=hand.context.stake, ruleset=hand.ruleset)


def discard_log(hand: Hand) -> list[tuple[int, int, bool]]:
    """(seat, tile, interrupted): every discard in order; ``interrupted`` when a claim or a kong came
    right after it (the go-round of 被跟 is broken)."""
    log: list[list] = []
    for e in hand.events:
        if isinstance(e, ev.Discarded):
            log.append([e.seat, e.tile, False])
        elif isinstance(e, ev.Claimed | ev.Konged | ev.KongDeclared) and log:
            log[-1][2] = True
    return [(s, t, i) for s, t, i in log]


def beigen(hand: Hand) -> list[int]:
    rs = hand.ruleset
    if not rs.cs_beigen_payment:
        return []
    return rules_cs.beigen_seats(discard_log(hand), hand.context.dealer, rs.cs_beigen_first_round_only)


def dabao(hand: Hand) -> tuple[int, int] | None:
    """(A, B): B claimed three chows from A's discards (the first pair to do so), or None."""
    n = hand.ruleset.cs_dabao_chows
    if n <= 0:
        return None
    chows = [(e.seat, e.from_seat) for e in hand.events if isinstance(e, ev.Claimed) and e.kind == "chow"]
    return rules_cs.dabao_pair(chows, n)


def base(hand: Hand) -> int:
    """底 of this hand: 2 + the hands its dealer has already kept in a row (牢莊)."""
    return rules_cs.dealer_base(hand.context.dealer_streak, hand.ruleset)


def settle(hand: Hand, balances: Sequence[int | None], fee: int) -> Settlement:
    r = hand.result
    assert r is not None
    return rules_cs.settle(
        winner=r.winner, dealer=hand.context.dealer, points=r.score.points if r.score else 0, base=base(hand),
        stake=hand.context.stake, discarder=r.discarder, robbed=r.robbed_from, dabao=dabao(hand),
        beigen=beigen(hand), escaped=r.escaped, balances=list(balances), fee=fee, ruleset=hand.ruleset,
    )
