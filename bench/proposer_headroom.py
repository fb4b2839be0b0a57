"""Is there headroom above the hard player? Cheap variants of its policy against a hard field (issue 30).

The expert (``jxbot/ai/expert.py``) can only be as good as the player that proposes its moves: its 28 playouts
cannot tell moves a few tenths of a silver apart (docs/ai.md, "Why the expert is not ahead of the hard player").
This bench asks whether systematic, cheap changes to the hard player's policy beat the unchanged hard player in
duplicate — i.e. whether a stronger proposer is within reach of a few knobs.

Each variant is a bench-only level ``hardx`` (never registered by ``jxbot.ai``): the hard player with some of its
module constants or methods swapped **only while the challenger decides** (the patches are applied around its
``choose`` and undone after it, in this one thread, so the three hard field players see the shipped code). At a
caishen table the hard player is played by ``jxbot.rulesets.caishen.ai_hard`` (the plug-in is asked for the
level ``"hard"``), so a variant of ``jxbot/ai/hard.py`` alone plays the caishen ruleset exactly as hard does;
the ``cs_*`` variants change the caishen play. The duel is ``jxbot.ai.duel.duel`` (what ``jxbot duel --jobs 1``
runs), figures by ``summary`` (the 95 % interval clustered by wall).

    python bench/proposer_headroom.py --variants stop1,deal2 --walls 1000 --seed hx-screen [--ruleset caishen]
    python bench/proposer_headroom.py --list

One JSON line per variant (``--out`` appends them to a file as well; ``--walls-out`` each wall's total, to pair two
variants wall by wall). ``same`` (no change) must score exactly 0. The ``cs_*`` pattern-play variants (單釣財神頭,
claim instead of a 財神頭 胡, decline a plain self-draw, 正規不搭) are described in docs/ai.md "Caishen: the patterns
that win on a discard".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proposer_headroom_cs import (  # noqa: E402  (bench/, the script's own folder)
    _cs_beigen_turn,
    _cs_budai_claim,
    _cs_budai_turn,
    _cs_claim_head,
    _cs_defend_turn,
    _cs_head_key_turn,
    _cs_head_turn,
    _cs_pairs_bias,
    _cs_ready_value_head,
    _cs_single_claim_decide,
    _cs_single_head,
    _cs_single_turn,
)

import jxbot.ai  # noqa: E402,F401  (registers the shipped levels)
from jxbot.ai import hard, players  # noqa: E402
from jxbot.ai.base import register  # noqa: E402
from jxbot.ai.claims import ClaimOption, best_claim  # noqa: E402
from jxbot.ai.duel import duel, summary  # noqa: E402
from jxbot.ai.evaluate import TARGETS, HandShape  # noqa: E402
from jxbot.ai.hard import HardPlayer  # noqa: E402
from jxbot.ai.seatview import CHI, GANG, GIVE_UP, PENG, PERSIST  # noqa: E402
from jxbot.rules.tiles import WHITE  # noqa: E402
from jxbot.rulesets.caishen import ai as cs_ai  # noqa: E402
from jxbot.rulesets.caishen import ai_hard as cs_hard  # noqa: E402

_NormalClaimValue = players.NormalPlayer._claim_value
_HardContract = HardPlayer._contract
_HardValue = HardPlayer._value
_CsClaim = cs_ai.claim
_CsHandShanten = cs_ai.hand_shanten
_RulesetDecision = players.ruleset_decision


# -- method variants (each stands in for a shipped method while the challenger decides) -------------------
def _claim_no_chow(self: Any, tb: Any, o: ClaimOption, now_sc: float) -> Any:
    """Never 吃 for speed (the contract-binding claim of the hard player is left as it is)."""
    return None if o.type == CHI else _NormalClaimValue(self, tb, o, now_sc)


def _claim_pung_level(self: Any, tb: Any, o: ClaimOption, now_sc: float) -> Any:
    """碰 also when it leaves the hand no further from ready (not only strictly nearer): a free meld's tempo."""
    v = _NormalClaimValue(self, tb, o, now_sc)
    if v is not None or o.type != PENG:
        return v
    sh = HandShape(o.counts, o.melds, tb.wild)
    cands = [k for k in range(34) if o.counts[k]]
    if not cands:
        return None
    sc, _tile, _s, t = self._best_discard(sh, tb, cands, with_ukeire=False)
    return ((sc, 1), t) if sc <= now_sc else None


def _claim_level(self: Any, tb: Any, o: ClaimOption, now_sc: float) -> Any:
    """碰 and 吃 also when the hand is left no further from ready (the shipped player: strictly nearer)."""
    v = _NormalClaimValue(self, tb, o, now_sc)
    if v is not None or o.type == GANG:
        return v
    sh = HandShape(o.counts, o.melds, tb.wild)
    cands = [k for k in range(34) if o.counts[k]]
    if not cands:
        return None
    sc, _tile, _s, t = self._best_discard(sh, tb, cands, with_ukeire=False)
    return ((sc, 1 if o.type == PENG else 2), t) if sc <= now_sc else None


def _claim_only_near(self: Any, tb: Any, o: ClaimOption, now_sc: float) -> Any:
    """Claim (碰/吃) only when the hand is then at most one step from ready: keep a far hand concealed."""
    v = _NormalClaimValue(self, tb, o, now_sc)
    if v is None or o.type == GANG:
        return v
    return v if v[0][0] <= 1.0 else None


def _no_bind(tb: Any, o: ClaimOption, now_s: int) -> Any:
    return None


def _contract_factor(f: float) -> Callable[[Any, Any], dict]:
    """放弃 / 坚持 with the pair's threat weighted ×``f`` (f < 1 persists more, f > 1 gives up more)."""

    def _contract(self: Any, tb: Any) -> dict:
        bt = tb.by_type
        ct = tb.view.get("contract") or []
        seats, draws = self._read(tb)
        shape = HandShape(tb.counts, tb.melds, tb.wild)
        s = min(shape.shanten(t) for t in TARGETS)
        p_me = hard.win_chance(s, draws)
        v_me = max((self._value(tb, tb.counts, tb.melds, t, False) for t in TARGETS if shape.shanten(t) == s),
                   default=3.0)
        pair = [x for x in seats if x.seat in ct]
        p_pair = min(0.9, sum(0.35 + 0.5 * x.ready for x in pair) / 2 + 0.1) if pair else 0.5
        v_pair = sum(x.value for x in pair) / len(pair) if pair else 4.0
        want = PERSIST if p_me * 4.5 * v_me > f * p_pair * 2.0 * v_pair else GIVE_UP
        return bt[want][0] if want in bt else tb.actions[0]

    return _contract


def _value_scaled(f: float) -> Callable[..., float]:
    """The hand's value estimate × ``f`` (f > 1: value weighs more against speed's ``STOP_VALUE``)."""

    def _value(self: Any, tb: Any, c: list[int], melds: Any, t: int, pung_close: bool) -> float:
        return f * _HardValue(self, tb, c, melds, t, pung_close)

    return _value


def _cs_claim_no_chow(tb: Any, *, on_pairs: bool) -> dict:
    """Caishen: 碰/杠 as hard does, never 吃 (a chow cannot be undone and every chow on one seat feeds 大包)."""
    act = _CsClaim(tb, on_pairs=on_pairs)
    return tb.pass_action() if act.get("type") == CHI else act


def _cs_claim_normal(tb: Any, *, on_pairs: bool) -> dict:
    """Caishen: the normal player's claims (pass while seven pairs is the nearer hand)."""
    return _CsClaim(tb, on_pairs=False)


def _cs_claim_level(tb: Any, *, on_pairs: bool) -> dict:
    """Caishen: 碰/吃/杠 also when the hand is left no further from ready (shipped: strictly nearer)."""
    ld = tb.view.get("last_discard") or {}
    if ld.get("tile") is None or not tb.by_type.get("pass"):
        return tb.pass_action()
    cs = tb.wild
    now, _kind = cs_ai.hand_shanten(cs_ai._faced(tb.hand, cs), len(tb.melds))

    def no_further(o: ClaimOption) -> tuple[int, None] | None:
        s = cs_ai._claim_shanten(o, cs)
        return (s, None) if s <= now else None

    best = best_claim(tb, no_further, face=lambda k: WHITE if k == cs else k)
    return best[0].action if best is not None else tb.pass_action()


def _cs_ordinary_ties(faced: list[int], open_melds: int) -> tuple[int, int]:
    """Caishen: an ordinary hand wins shanten ties against seven pairs (the shipped order: pairs win)."""
    s, _kind = _CsHandShanten(faced, open_melds)
    return s, 0


def _as_hard(level: str, tb: Any) -> dict | None:
    return _RulesetDecision("hard", tb)  # the ruleset plays this level as it plays hard


def _as_expert(level: str, tb: Any) -> dict | None:
    return _RulesetDecision("expert", tb)  # the shipped expert proposer's play (caishen: ai_expert)


# name → ((module or class, attribute, value), ...): what the variant changes, and why it was tried
VARIANTS: dict[str, tuple[tuple[Any, str, Any], ...]] = {
    "same": (),  # the harness: must score exactly 0
    # value against speed (STOP_VALUE is what a win is worth beyond its own score: it stops the others)
    "stop1": ((HardPlayer, "stop_value", 1.0),),  # value weighs more
    "stop6": ((HardPlayer, "stop_value", 6.0),),  # speed weighs more
    "stop12": ((HardPlayer, "stop_value", 12.0),),
    "value2": ((HardPlayer, "_value", _value_scaled(2.0)),),
    "stop24": ((HardPlayer, "stop_value", 24.0),),  # nearly speed alone: useful draws pick among equal shanten
    "flush6": ((hard, "PURE_FLUSH", 6.0),),  # chase 清一色 harder
    "sticky0": ((hard, "STICKY_SHANTEN", 0.0), (players, "STICKY", 0.0)),  # never favour the current target
    "sticky1": ((hard, "STICKY_SHANTEN", 1.0), (players, "STICKY", 1.0)),  # keep the target through a step
    "ukwide": ((hard, "UKEIRE_RANGE", (0.15, 3.0)),),  # useful draws count more
    # defence
    "deal0": ((hard, "DEAL_IN_WEIGHT", 0.0),),
    "deal2": ((hard, "DEAL_IN_WEIGHT", 2.0),),
    # claims
    "nochow": ((players.NormalPlayer, "_claim_value", _claim_no_chow),),
    "punglevel": ((players.NormalPlayer, "_claim_value", _claim_pung_level),),
    "claimlevel": ((players.NormalPlayer, "_claim_value", _claim_level),),
    "claimnear": ((players.NormalPlayer, "_claim_value", _claim_only_near),),
    "nokong": ((hard, "ANGANG", "-"), (hard, "BUGANG", "-")),  # never declare a concealed / added kong
    # contracts (承包)
    "contract0": ((HardPlayer, "contract_cost", 0.0),),  # no contract defence at all
    "contract4": ((HardPlayer, "contract_cost", 4.0),),
    "contract8": ((HardPlayer, "contract_cost", 8.0),),
    "contract30": ((HardPlayer, "contract_cost", 30.0),),
    "nobind": ((HardPlayer, "_binding_value", staticmethod(_no_bind)),),
    "persist_more": ((HardPlayer, "_contract", _contract_factor(0.5)),),
    "persist_less": ((HardPlayer, "_contract", _contract_factor(2.0)),),
    # caishen (jxbot/rulesets/caishen/ai_hard.py and ai.py)
    "cs_ron0": ((cs_hard, "RON_WEIGHT", 0),),
    "cs_ron3": ((cs_hard, "RON_WEIGHT", 3),),
    "cs_dabao0": ((cs_hard, "DABAO_STEP", 0.0),),
    "cs_dabao2": ((cs_hard, "DABAO_STEP", 2.0),),
    "cs_nochow": ((cs_ai, "claim", _cs_claim_no_chow),),
    "cs_claimlevel": ((cs_ai, "claim", _cs_claim_level),),
    "cs_claimnormal": ((cs_ai, "claim", _cs_claim_normal),),
    "cs_uk3": ((cs_ai, "UKEIRE_MAX_SHANTEN", 3),),
    "cs_float20": ((cs_ai, "FLOAT_MIN_SHARE", 0.20),),
    "cs_ordties": ((cs_ai, "hand_shanten", _cs_ordinary_ties),),
    # 單釣財神頭: decline a 財神頭 self-draw (×4) for four sets and a lone 財神 (every tile wins ×8) ...
    "cs_single": ((cs_ai, "_float_instead", _cs_single_head(False)),),
    # ... and float a second 財神 for 單釣漂財 (×16 on the next draw, any tile)
    "cs_singlefloat": ((cs_ai, "_float_instead", _cs_single_head(True)),),
    # ... and on a 財神頭 win on a discard (×4) claim the tile instead, then discard X (×8 on any tile)
    # decline a plain self-draw (×2) with a 財神 in hand for a 財神頭 wait on at least N unseen tiles
    "cs_decline4": ((cs_ai, "_float_instead", _cs_single_head(True, decline_head=4)),),
    "cs_decline8": ((cs_ai, "_float_instead", _cs_single_head(True, decline_head=8)),),
    "cs_decline1": ((cs_ai, "_float_instead", _cs_single_head(True, decline_head=1)),),
    "cs_decline2": ((cs_ai, "_float_instead", _cs_single_head(True, decline_head=2)),),
    "cs_decline4w16": ((cs_ai, "_float_instead", _cs_single_head(True, min_wall=16, decline_head=4)),),
    "cs_decline4w0": ((cs_ai, "_float_instead", _cs_single_head(True, min_wall=0, decline_head=4)),),
    "cs_beigen": ((cs_hard, "_turn", _cs_beigen_turn),),  # follow the dealer's first tile (被跟)
    "cs_headfirst": ((cs_hard, "_turn", _cs_head_turn(True)),),  # nearer a 財神頭 wait before useful draws
    "cs_headdef40": ((cs_hard, "_turn", _cs_defend_turn(_cs_head_turn(True), 40)),),  # … and defend late
    "cs_headdef99": ((cs_hard, "_turn", _cs_defend_turn(_cs_head_turn(True), 99)),),  # … and defend always
    # 正規不搭 as a third target (the shipped player plays ordinary hands and seven pairs only), on top of
    # headfirst+claimhead (their turn and claim are the fall-backs)
    "cs_budai1": ((cs_hard, "_turn", _cs_budai_turn(_cs_head_turn(True), 1)),
                  (cs_ai, "claim", _cs_budai_claim(1, _cs_claim_head))),
    "cs_budai0": ((cs_hard, "_turn", _cs_budai_turn(_cs_head_turn(True), 0)),
                  (cs_ai, "claim", _cs_budai_claim(0, _cs_claim_head))),
    "cs_budaim1": ((cs_hard, "_turn", _cs_budai_turn(_cs_head_turn(True), -1)),
                   (cs_ai, "claim", _cs_budai_claim(-1, _cs_claim_head))),
    # budai0, and defend late: around the 不搭 choice (it overrides 不搭 discards: −1.16) / inside it
    "cs_budai0def40": ((cs_hard, "_turn", _cs_defend_turn(_cs_budai_turn(_cs_head_turn(True), 0), 40)),
                       (cs_ai, "claim", _cs_budai_claim(0, _cs_claim_head))),
    "cs_budai0def40in": ((cs_hard, "_turn", _cs_budai_turn(_cs_defend_turn(_cs_head_turn(True), 40), 0)),
                         (cs_ai, "claim", _cs_budai_claim(0, _cs_claim_head))),
    "cs_pairs1": ((cs_ai, "hand_shanten", _cs_pairs_bias(1)),),  # seven pairs up to a step slower
    "cs_budai2": ((cs_hard, "_turn", _cs_budai_turn(_cs_head_turn(True), 2)),
                  (cs_ai, "claim", _cs_budai_claim(2, _cs_claim_head))),
    "cs_headkey": ((cs_hard, "_turn", _cs_head_key_turn("key")),),  # 財神頭 steps before shanten
    "cs_headsum": ((cs_hard, "_turn", _cs_head_key_turn("sum")),),  # 財神頭 steps + shanten
    "cs_headafter": ((cs_hard, "_turn", _cs_head_turn(False)),),  # … after them
    "cs_claimhead": ((cs_ai, "claim", _cs_claim_head),),  # claim to a 財神頭 wait
    "cs_head2": ((cs_hard, "_ready_value", _cs_ready_value_head(2)),),  # a 財神頭 wait counts ×2 more
    "cs_head4": ((cs_hard, "_ready_value", _cs_ready_value_head(4)),),
    "cs_singleclaim": ((cs_ai, "_float_instead", _cs_single_head(True)), (cs_ai, "decide", _cs_single_claim_decide),
                       (cs_hard, "_turn", _cs_single_turn)),
    # the shipped play of the expert's proposer (jxbot/rulesets/caishen/ai_expert.py): must score exactly as
    # cs_singleclaim+cs_decline2+cs_headfirst+cs_claimhead, which it writes out as plain code
    "cs_expert": ((players, "ruleset_decision", _as_expert),),
}

_ACTIVE: list[tuple[tuple[Any, str, Any], ...]] = [()]


def _combo(names: str) -> tuple[tuple[Any, str, Any], ...]:
    """``a+b``: both variants' changes at once."""
    out: list[tuple[Any, str, Any]] = []
    for n in names.split("+"):
        out.extend(VARIANTS[n])
    return tuple(out)


@register
class HardX(HardPlayer):
    """The hard player with the active variant's patches in force while it decides (bench only)."""

    level = "hardx"

    def choose(self, view: dict) -> Any:
        patches = ((players, "ruleset_decision", _as_hard), *_ACTIVE[0])
        saved = []
        for obj, attr, val in patches:
            saved.append((obj, attr, obj.__dict__[attr]))
            setattr(obj, attr, val)
        try:
            return super().choose(view)
        finally:
            for obj, attr, val in reversed(saved):
                setattr(obj, attr, val)


def run(variant: str, walls: int, seed: str, ruleset: str, walls_out: str | None = None) -> dict[str, Any]:
    _ACTIVE[0] = _combo(variant)
    t0 = time.process_time()
    res = duel("hardx", "hard", range(walls), seed, ruleset)
    out = {"bench": "proposer_headroom", "variant": variant, "ruleset": ruleset, "seed": seed,
           **summary(res), "cpu_seconds": round(time.process_time() - t0, 1),
           "load": os.getloadavg()[0], "utc": time.strftime("%H:%M", time.gmtime())}
    if walls_out:
        with open(walls_out, "a") as f:  # each wall's total, for paired differences between variants
            f.write(json.dumps({"variant": variant, "seed": seed, "ruleset": ruleset,
                                "wall_silver": res["wall_silver"]}) + "\n")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", default="same")
    ap.add_argument("--walls", type=int, default=1000)
    ap.add_argument("--seed", default="hx-screen")
    ap.add_argument("--ruleset", default="jiaxing")
    ap.add_argument("--out", default=None, help="append each JSON line to this file too")
    ap.add_argument("--walls-out", default=None, help="append each variant's per-wall totals to this file")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(VARIANTS))
        return
    for v in args.variants.split(","):
        line = json.dumps(run(v, args.walls, args.seed, args.ruleset, args.walls_out))
        print(line, flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(line + "\n")


if __name__ == "__main__":
    main()
