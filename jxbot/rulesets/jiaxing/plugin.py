"""The Jiaxing ruleset (RULES.md part A) as a plug-in: ``PLUGIN`` is registered by ``jxbot.rulesets``.

Its analysis is the core's standard one (``jxbot.rules.shape.pattern_wins``/``pattern_waits``, the
台 × 2^番 scoring ``scoring.standard_score_win`` (in this package), ``jxbot.rules.settle``), so ``Jiaxing``
is also the class to subclass for a variant that differs in a few places (see docs/rulesets.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jxbot import i18n
from jxbot.rules.contract import Score, Settlement
from jxbot.rules.melds import Meld
from jxbot.rules.ruleset import JIAXING, Ruleset
from jxbot.rules.settle import settle
from jxbot.rules.shape import pattern_waits, pattern_wins, ready_on_everything

from .scoring import standard_score_win

if TYPE_CHECKING:  # (the picture code asks the rulesets too: it must not load the game engine)
    from jxbot.game.actions import Action
    from jxbot.game.hand import Hand


class Jiaxing:
    """Every hook of ``jxbot.rulesets.base.RulesetPlugin``, with the Jiaxing rules."""

    name = "jiaxing"
    wildcard_key = "wildcard"  # 百搭
    ui_wildcard_key = "table.ui.wword.jiaxing"
    badge = "wild"  # the 搭 badge
    multiplier_scoring = False  # 台 × 2^番

    def __init__(self, data: Ruleset = JIAXING) -> None:
        self.data = data

    # ---------------------------------------------------------------- texts and pictures
    def title(self, lang: str | None) -> str:
        return i18n.t(f"bot.choice.ruleset.{self.name}", lang)

    def rules_summary(self, lang: str | None, stake: int = 1) -> str:
        return i18n.t("bot.rules.summary", lang)

    def card(self) -> dict[str, Any]:
        return {
            "wildcard": "9s",
            "examples": (("full_flush", "123m456m789m234m55m"), ("half_flush", "123p456p789p777z11z"),
                         ("all_honors", "222z333z444z777z55z"), ("all_pungs", "111m999p555s77z9s22z")),
            "formula": True,  # the 台 × 2^番 worked example
        }

    # ---------------------------------------------------------------- pure rules
    def is_winning(self, concealed: Sequence[int], melds: Sequence[Meld], wildcard: int | None,
                   rs: Ruleset) -> bool:
        return pattern_wins(concealed, melds, wildcard, rs)

    def waits(self, concealed: Sequence[int], melds: Sequence[Meld], wildcard: int | None,
              rs: Ruleset) -> set[int]:
        return pattern_waits(concealed, melds, wildcard, rs)

    def score_win(self, concealed: Sequence[int], win_tile: int, melds: Sequence[Meld], *, rs: Ruleset,
                  **context: Any) -> Score:
        return standard_score_win(concealed, win_tile, melds, rs=rs, **context)

    # ---------------------------------------------------------------- the hand
    def dead_indices(self, hand: Hand, indicator_index: int | None) -> frozenset[int]:
        return frozenset() if indicator_index is None else frozenset((indicator_index,))

    def meld_claims(self, hand: Hand, seat: int, tile: int, *, chow: bool) -> list[Action]:
        from jxbot.game.actions import Action, ActionType

        wc = hand.wildcard
        if tile == wc:
            return []
        held = hand.concealed[seat]
        acts: list[Action] = []
        n = held.count(tile)
        if n >= 3 and hand.wall_remaining > 0:
            acts.append(Action(ActionType.KONG, seat, tile))
        if n >= 2:
            acts.append(Action(ActionType.PUNG, seat, tile))
        if chow and tile < 27:
            for a in (tile - 2, tile - 1, tile):
                if a < 0 or a // 9 != tile // 9 or a % 9 > 6:
                    continue
                need = [x for x in (a, a + 1, a + 2) if x != tile]
                if all(x != wc and x in held for x in need):
                    acts.append(Action(ActionType.CHOW, seat, a))
        return acts

    def can_win(self, hand: Hand, seat: int, tiles: Sequence[int], win_tile: int, *, self_draw: bool,
                robbing: bool = False) -> bool:
        melds, wc, rs = hand.melds[seat], hand.wildcard, hand.ruleset
        if not self.is_winning(tiles, melds, wc, rs):
            return False
        if robbing:  # RULES A4: a hand ready on every tile may not rob a kong
            before = list(tiles)
            before.remove(win_tile)
            return not ready_on_everything(before, melds, wc, rs)
        return True

    def claim_barred(self, hand: Hand, seat: int) -> bool:
        return False

    def wildcard_chows_refused(self) -> bool:
        return True

    def chow_tiles(self, hand: Hand, lo: int) -> tuple[int, int, int]:
        return (lo, lo + 1, lo + 2)

    def white_as(self, hand: Hand) -> int | None:
        return None

    def meld_json(self, hand: Hand, m: Meld) -> dict:
        return m.to_json()

    def score(self, hand: Hand, seat: int, concealed: Sequence[int], tile: int, *, self_draw: bool,
              robbed_from: int | None, first_turn: bool, cumulative: tuple[str, ...]) -> Score:
        from jxbot.rules.score import score_win  # through the registry: a subclass's own score_win

        return score_win(
            concealed, tile, hand.melds[seat], wildcard=hand.wildcard, self_draw=self_draw,
            kong_draw=self_draw and hand.kong_draw, last_tile=self_draw and hand.last_tile,
            robbing_kong=robbed_from is not None, seat_wind=hand.seat_wind(seat),
            round_wind=hand.context.round_wind, first_turn=first_turn, cumulative=cumulative,
            stake=hand.context.stake, ruleset=hand.ruleset,
        )

    def settle(self, hand: Hand, balances: Sequence[int | None], fee: int) -> Settlement:
        r = hand.result
        assert r is not None
        return settle(
            winner=r.winner, points=r.score.points if r.score else 0, self_draw=r.self_draw,
            discarder=r.discarder, robbed=r.robbed_from, contract=r.contract, gave_up=r.gave_up,
            escaped=r.escaped, balances=list(balances), fee=fee, ruleset=hand.ruleset,
        )

    def contract_pair(self, hand: Hand) -> tuple[int, int] | None:
        r = hand.result
        assert r is not None
        return (r.contract[0], r.contract[1]) if r.contract else None

    def win_payments(self, rs: Ruleset, *, winner: int, points: int, base: int, stake: int,
                     discarder: int | None, robbed: int | None) -> list[int] | None:
        return None

    # ---------------------------------------------------------------- match flow, computer players
    def reseat_every(self, rs: Ruleset) -> int | None:
        return None

    def decide(self, level: str, table: Any) -> dict | None:
        return None


PLUGIN = Jiaxing()
