"""Rulesets are data. Every field that RULES.md marks **[default]** is a field here; see docs/rules.md."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

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

    def with_(self, **changes: object) -> Ruleset:
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


JIAXING = Ruleset()

RULESETS: dict[str, Ruleset] = {"jiaxing": JIAXING}


def get_ruleset(name: str | Ruleset) -> Ruleset:
    if isinstance(name, Ruleset):
        return name
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}") from None
