"""The named tiers of the displayed rating (zh and en), lowest first. A tier is reached at its threshold
(displayed rating ≥ ``floor``). The thresholds are placed from the ladder simulation (docs/ranked.md, "Tiers").
"""

from __future__ import annotations

from dataclasses import dataclass

from jxbot.i18n import register, t


@dataclass(frozen=True)
class Tier:
    key: str  # stable: "novice" … "legend" (badges, i18n key ladder.tier.<key>)
    floor: int  # the lowest displayed rating of the tier
    index: int  # 0 = lowest

    def name(self, lang: str | None) -> str:
        return t(f"ladder.tier.{self.key}", lang)


_TIERS = (("novice", 0, "新人", "Novice"), ("adept", 1000, "雀士", "Adept"), ("expert", 1500, "雀杰", "Expert"),
          ("master", 1900, "雀豪", "Master"), ("saint", 2300, "雀圣", "Saint"), ("legend", 2700, "雀神", "Legend"))
TIERS: tuple[Tier, ...] = tuple(Tier(k, f, i) for i, (k, f, _, _) in enumerate(_TIERS))

register({f"ladder.tier.{k}": {"zh": zh, "en": en} for k, _, zh, en in _TIERS})


def tier_of(rating: int | float) -> Tier:
    """The tier of a displayed rating."""
    out = TIERS[0]
    for tier in TIERS:
        if rating >= tier.floor:
            out = tier
    return out
