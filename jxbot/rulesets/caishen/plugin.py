"""The 財神 ruleset (RULES.md part B) as a plug-in: ``PLUGIN`` is registered by ``jxbot.rulesets``.

The data (``CAISHEN``) is the Jiaxing fields with part B's values; the behaviour is in ``rules``
(shapes, multipliers, payments), ``hand`` (the hooks into the hand: dead wall, faced claims, floats,
被跟 / 大包) and ``ai`` / ``ai_hard`` (the computer players). docs/caishen.md lists the decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jxbot import i18n
from jxbot.rules.contract import Score, Settlement
from jxbot.rules.melds import Meld
from jxbot.rules.ruleset import Ruleset
from jxbot.rules.tiles import NUM_KINDS
from jxbot.rulesets.jiaxing.plugin import Jiaxing

from . import rules

if TYPE_CHECKING:  # (the picture code asks the rulesets too: it must not load the game engine)
    from jxbot.game.actions import Action
    from jxbot.game.hand import Hand

# RULES part B. The 財神 is the flipped tile's kind (wild for winning only; a discarded one cannot be
# claimed at all); 20 tiles (10 pairs) kept back; no contract (承包); one 版 (four rounds) per match.
CAISHEN = Ruleset(
    name="caishen", family="caishen", seven_pairs=True, require_pattern=False, reserve_pairs=10, kong_void=True,
    contract_claims=0, match_rounds=4, cumulative_per_win=0, fan_cumulative=0,
)


class Caishen(Jiaxing):
    """The hooks of ``jxbot.rulesets.base.RulesetPlugin`` that differ from Jiaxing's: all of the hand's."""

    name = "caishen"
    wildcard_key = "wildcard.caishen"  # 財神
    ui_wildcard_key = "table.ui.wword.caishen"
    badge = "caishen"  # the 財 badge
    multiplier_scoring = True  # points = stake × the product of the items (倍)

    def __init__(self, data: Ruleset = CAISHEN) -> None:
        super().__init__(data)

    def rules_summary(self, lang: str | None, stake: int = 1) -> str:
        return i18n.t("bot.rules.summary_caishen", lang)

    def card(self) -> dict[str, Any]:
        return {
            "wildcard": "8p",
            "examples": (("seven_pairs", "11m33m55p77p22s44s6z6z"), ("caishen_head", "123m456m789p7z8p345s"),
                         ("single_caishen_head", "123m456m789p345s8p7z"),
                         ("caishen_hui", "123m456m345s8p8p8p1z1z"),  # stacks on 單釣財神頭: 8 × 2
                         ("self_draw", "123m456m789p345s7z7z", True)),
            "formula": False,
        }

    # ---------------------------------------------------------------- pure rules
    def is_winning(self, concealed: Sequence[int], melds: Sequence[Meld], wildcard: int | None,
                   rs: Ruleset) -> bool:  # RULES B: the hand would win as a self-draw
        return rules.is_winning_any(concealed, melds, wildcard, rs)

    def waits(self, concealed: Sequence[int], melds: Sequence[Meld], wildcard: int | None,
              rs: Ruleset) -> set[int]:
        held = [0] * NUM_KINDS
        for t in [*concealed, *(x for m in melds for x in m.tiles)]:
            held[t] += 1
        return {t for t in range(NUM_KINDS)
                if held[t] < 4 and rules.is_winning_any([*concealed, t], melds, wildcard, rs)}

    def score_win(self, concealed: Sequence[int], win_tile: int, melds: Sequence[Meld], *, rs: Ruleset,
                  **context: Any) -> Score:  # RULES B: multipliers instead of 台/番 (``float_run``: 漂財 in a row)
        if context.get("cumulative"):
            raise ValueError("the caishen ruleset has no cumulative 番 (黄番, 包子 …): drop --cumulative")
        return rules.score_win(concealed, win_tile, melds, wildcard=context.get("wildcard"),
                               self_draw=context.get("self_draw", False), kong_draw=context.get("kong_draw", False),
                               robbing_kong=context.get("robbing_kong", False),
                               float_run=context.get("float_run", 0), stake=context.get("stake", 1), ruleset=rs)

    # ---------------------------------------------------------------- the hand
    def dead_indices(self, hand: Hand, indicator_index: int | None) -> frozenset[int]:
        from . import hand as hooks

        return hooks.dead_indices(hand, indicator_index)

    def meld_claims(self, hand: Hand, seat: int, tile: int, *, chow: bool) -> list[Action]:
        from . import hand as hooks

        return hooks.meld_claims(hand, seat, tile, chow=chow)  # RULES B1/B5: faced tiles; a floater claims nothing

    def can_win(self, hand: Hand, seat: int, tiles: Sequence[int], win_tile: int, *, self_draw: bool,
                robbing: bool = False) -> bool:  # RULES B5/B9: any seat but a floater may rob
        from . import hand as hooks

        return hooks.can_win(hand, seat, tiles, win_tile, self_draw=self_draw, robbing=robbing)

    def claim_barred(self, hand: Hand, seat: int) -> bool:
        from . import hand as hooks

        return hooks.float_run(hand, seat) > 0  # RULES B5: no window is opened for a floater

    def wildcard_chows_refused(self) -> bool:
        return False  # a 白板 plays the 財神's face

    def chow_tiles(self, hand: Hand, lo: int) -> tuple[int, int, int]:
        from . import hand as hooks

        return hooks.chow_tiles(hand, lo)

    def white_as(self, hand: Hand) -> int | None:
        from . import hand as hooks

        return hooks.white_as(hand)

    def meld_json(self, hand: Hand, m: Meld) -> dict:
        from . import hand as hooks

        return hooks.meld_json(hand, m)

    def score(self, hand: Hand, seat: int, concealed: Sequence[int], tile: int, *, self_draw: bool,
              robbed_from: int | None, first_turn: bool, cumulative: tuple[str, ...]) -> Score:
        from . import hand as hooks

        return hooks.score(hand, seat, concealed, tile, self_draw=self_draw, robbed_from=robbed_from)

    def settle(self, hand: Hand, balances: Sequence[int | None], fee: int) -> Settlement:
        from . import hand as hooks

        return hooks.settle(hand, balances, fee)

    def contract_pair(self, hand: Hand) -> tuple[int, int] | None:
        pair = super().contract_pair(hand)
        if pair is not None:
            return pair
        from . import hand as hooks

        d = hooks.dabao(hand)  # (A the feeder, B the fed)
        return (d[1], d[0]) if d is not None else None

    def win_payments(self, rs: Ruleset, *, winner: int, points: int, base: int, stake: int,
                     discarder: int | None, robbed: int | None) -> list[int] | None:
        s = rules.settle(winner=winner, dealer=0, points=points, base=base, stake=stake, discarder=discarder,
                         robbed=robbed, balances=[None] * 4, ruleset=rs)
        return list(s.deltas)

    # ---------------------------------------------------------------- match flow, computer players
    def reseat_every(self, rs: Ruleset) -> int | None:
        return rs.cs_rounds_per_ban  # RULES B11: seats are redrawn after each 版

    def decide(self, level: str, table: Any) -> dict | None:
        if level == "expert":  # the expert's proposer: the hard play for 單釣財神頭 (ai_expert)
            from . import ai_expert

            return ai_expert.decide(table)
        if level == "hard":
            from . import ai_hard

            return ai_hard.decide(table)
        if level == "normal":  # RULES B: keep 財神, value seven pairs, float when it pays
            from . import ai

            return ai.decide(table)
        return None


PLUGIN = Caishen()
