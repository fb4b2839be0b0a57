"""Rulesets are data. Every field that RULES.md marks **[default]** is a field here; see docs/rules.md.

The behaviour that differs between variants is not here: ``family`` names the registered ruleset
(``jxbot.rulesets``, docs/rulesets.md) whose hooks play the data. ``RULESETS`` and ``get_ruleset``
read that registry (the built-in rulesets are loaded on first use)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, replace
from typing import Literal

from jxbot import rulesets as _registry  # (it imports no ruleset until one is asked for)

WildcardMode = Literal["flipped", "next", "fixed", "none"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str = "jiaxing"

    # A2 — the wall and the 百搭
    wildcard_mode: WildcardMode = "flipped"  # A2.4 [default]
    fixed_wildcard: int | None = None  # used when wildcard_mode == "fixed"
    reserve_tiles: int = 0  # A2.6 [default] tiles held back at the end of the live wall

    # A3 — claims
    wildcard_discard_claimable: bool = False  # A3 [default] a discarded 百搭 cannot be claimed, not even for 胡

    # A5 — winning
    seven_pairs: bool = False
    require_pattern: bool = True  # Jiaxing: 清一色 / 混一色 / 字一色 / 对对胡 needed

    # A6 — 台
    tai_dragon: int = 1
    tai_round_wind: int = 1
    tai_seat_wind: int = 1
    tai_no_wildcard: int = 1
    tai_all_pungs: int = 2
    tai_half_flush: int = 2
    tai_full_flush: int = 4
    tai_all_honors: int = 10

    # A7 — 番
    fan_three_wildcards: int = 1
    fan_kong_bloom: int = 1
    fan_single_wait: int = 1
    fan_last_tile: int = 1
    fan_heavenly: int = 2  # 天胡 [default]
    fan_earthly: int = 2  # 地胡 [default]
    fan_cumulative: int = 1  # one cumulative 番 per win, oldest first
    cumulative_per_win: int = 1

    # A8 — contract
    contract_claims: int = 3  # third claim on the same seat binds the two seats
    contract_decision_seconds: float = 15.0  # [default]
    contract_default: Literal["persist", "give_up"] = "persist"  # [default] no answer = persist

    # A9 — payment multipliers
    mult_self_draw: int = 1  # [default]
    mult_discard: int = 1  # [default]
    mult_rob_kong: int = 3
    mult_contract_partner: int = 5
    mult_contract_persist: int = 2  # each persisting other seat when one of the pair wins
    mult_contract_pair_when_other_wins: int = 2
    mult_contract_other_persist_when_other_wins: int = 1

    # A10 — silver
    escape_winnings_paid: bool = False  # [default] an escaped seat's own winnings are not paid out
    escape_fee_all: bool = False  # [default] in a hand with an escape only the escapers pay the fee F

    # A1 / C — table defaults
    match_rounds: int = 1  # [default] one full 东 round
    claim_window_seconds: float = 5.0
    turn_seconds: float = 20.0  # C [default]

    # the registered ruleset whose hooks play these fields (jxbot.rulesets.behaviour)
    family: str = "jiaxing"
    # B — the 財神 (caishen) ruleset's fields (jxbot.rulesets.caishen)
    reserve_pairs: int = 0  # B2: pairs kept back (dead) at the tail, holding the flipped tile's pair
    kong_void: bool = False  # B2 (seed 海底): a kong replacement voids the upper tile of its pair
    cs_min_multiplier: int = 2  # B3: 平胡 needs 二倍以上
    cs_seven_pairs: int = 2  # B4 七對子
    cs_self_draw: int = 2  # B4 自摸 doubles
    cs_kong_draw: int = 2  # B4 杠底 doubles
    cs_rob_kong: int = 4  # B9 搶槓 ×4
    cs_caishen_head: int = 4  # B4 財神頭
    cs_single_caishen_head: int = 8  # B4 單釣財神頭
    cs_caishen_hui: int = 4  # B4 財神會
    cs_seven_winds: int = 4  # B4 七風 [default]
    cs_bu_da: int = 4  # B4 正規不搭 [default]
    cs_piao_cai: int = 8  # B5 漂財 once; each further consecutive float doubles
    cs_piao_cai_single: int = 16  # B5 單釣漂財
    cs_piao_cai_hui: int = 16  # B5 財神會 with 漂財
    cs_base_start: int = 2  # B6 底 on the dealer's first consecutive hand (then 3, 4 …)
    cs_discarder_extra: bool = True  # B6 the discarder pays one extra share
    cs_drawn_payment: int = 2  # B2 drawn hand: the dealer pays each other seat this (× stake)
    cs_beigen_payment: int = 2  # B7 被跟: the followed seat pays each other seat this (× stake)
    cs_beigen_first_round_only: bool = True  # B7 [default]
    cs_dabao_chows: int = 3  # B8 chows fed to the next seat that make 大包 (0 = off)
    cs_dabao_literal: bool = True  # B8 [default] the two other seats also pay their own shares
    cs_rounds_per_ban: int = 4  # B11 seats are redrawn after each 版 of this many rounds (0 = never)

    def with_(self, **changes: object) -> Ruleset:
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


JIAXING = Ruleset()


class _Registered(Mapping[str, Ruleset]):
    """name → the registered ruleset's default data (a live view of ``jxbot.rulesets``)."""

    def __getitem__(self, name: str) -> Ruleset:
        p = _registry.find(name)
        if p is None:
            raise KeyError(name)
        return p.data

    def __iter__(self) -> Iterator[str]:
        return iter(_registry.names())

    def __len__(self) -> int:
        return len(_registry.names())


RULESETS: Mapping[str, Ruleset] = _Registered()


def get_ruleset(name: str | Ruleset) -> Ruleset:
    if isinstance(name, Ruleset):
        return name
    return _registry.get(name).data


def __getattr__(name: str) -> Ruleset:
    if name == "CAISHEN":  # kept for callers of the time before plug-ins: jxbot.rulesets.caishen.plugin.CAISHEN
        return get_ruleset("caishen")
    raise AttributeError(name)
