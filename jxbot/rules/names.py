"""zh/en labels of every 台/番 item code and of the scoring words, in the shared string catalog.

Keys: ``item.<code>`` (e.g. ``item.full_flush`` → 清一色 / "Full flush"), ``reason.<why>`` for a hand
that does not win, and ``score.*`` for the words of the itemized table.
"""

from __future__ import annotations

from jxbot.i18n import register, t

from .contract import FAN_CODES, TAI_CODES

ITEM_NAMES: dict[str, tuple[str, str]] = {
    # 台
    "red_dragon": ("中", "Red dragon pung"),
    "green_dragon": ("发", "Green dragon pung"),
    "white_dragon": ("白", "White dragon pung"),
    "round_wind": ("圈风", "Round wind pung"),
    "seat_wind": ("门风", "Seat wind pung"),
    "no_wildcard": ("无百搭", "No wildcard"),
    "all_pungs": ("对对胡", "All pungs"),
    "half_flush": ("混一色", "Half flush"),
    "full_flush": ("清一色", "Full flush"),
    "all_honors": ("字一色", "All honors"),
    # 番
    "three_wildcards": ("三百搭", "Three wildcards"),
    "kong_bloom": ("杠上开花", "Win on a kong replacement"),
    "single_wait": ("单吊", "Single wait (four sets declared)"),
    "last_tile": ("海底捞月", "Last tile self-draw"),
    "heavenly": ("天胡", "Heavenly hand"),
    "earthly": ("地胡", "Earthly hand"),
    "huang": ("黄番", "Drawn-hand bonus"),
    "laotou_huang": ("老头黄", "Honor wildcard bonus"),
    "baozi": ("包子", "Baozi (dice doubles)"),
    "wildcard_repeat": ("百搭连庄", "Repeated wildcard bonus"),
    "cumulative": ("累计番", "Cumulative fan"),
}

_WORDS: dict[str, tuple[str, str]] = {
    "reason.no_shape": ("不成胡牌牌型（需要四组加一对）", "not a winning shape (four sets and a pair needed)"),
    "reason.no_pattern": ("没有胡牌番型（需要清一色、混一色、字一色或对对胡）",
                          "no winning pattern (full flush, half flush, all honors or all pungs needed)"),
    "score.tai": ("台", "tai"),
    "score.fan": ("番", "fan"),
    "score.total_tai": ("合计台数", "Total tai"),
    "score.total_fan": ("合计番数", "Total fan"),
    "score.stake": ("底分", "Stake"),
    "score.points": ("得分", "Points"),
    "score.formula": ("{stake} × {tai}台 × 2^{fan}番 = {points}", "{stake} × {tai} tai × 2^{fan} fan = {points}"),
    "score.reading": ("牌型", "Reading"),
    "score.not_winning": ("不能胡：{why}", "Not a win: {why}"),
}


def _register() -> None:
    entries = {f"item.{code}": {"zh": zh, "en": en} for code, (zh, en) in ITEM_NAMES.items()}
    entries.update({key: {"zh": zh, "en": en} for key, (zh, en) in _WORDS.items()})
    register(entries)


_register()
assert set(ITEM_NAMES) == set(TAI_CODES) | set(FAN_CODES)


def item_name(code: str, lang: str | None = "zh") -> str:
    """Label of a 台/番 item code, e.g. ``item_name("full_flush", "en") == "Full flush"``. The
    rulesets register their own items' labels when the registry loads them (``jxbot.rulesets``)."""
    from jxbot import rulesets

    rulesets.names()
    return t(f"item.{code}", lang)

