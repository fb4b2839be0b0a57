"""Every piece of text the renderer draws, in zh and en.

Strings live in the shared catalog (``jxbot.i18n``) under ``render.*``. Score item labels come from the
rules engine's ``item.<code>`` keys; until those exist (or for a code they do not cover) a built-in
label is used, and as a last resort the code itself. ``scripts/make_font_subset.py`` collects the
characters of all of these to cut the committed font subset.
"""

from __future__ import annotations

import contextlib
import importlib

from jxbot import i18n
from jxbot.rules.contract import FAN_CODES, TAI_CODES
from jxbot.rules.tiles import tile_name, wind_name

RENDER_STRINGS: dict[str, dict[str, str]] = {
    "render.round": {"zh": "{wind}风圈", "en": "{wind} round"},
    "render.hand_no": {"zh": "第{n}局", "en": "Hand {n}"},
    "render.wildcard": {"zh": "百搭", "en": "Wild"},
    "render.wildcard.caishen": {"zh": "财神", "en": "Caishen"},
    "render.voided": {"zh": "作废", "en": "Void"},
    "render.indicator": {"zh": "翻牌", "en": "Flipped"},
    "render.wall": {"zh": "余牌", "en": "Wall"},
    "render.dealer": {"zh": "庄", "en": "D"},
    "render.dealer_long": {"zh": "庄家", "en": "Dealer"},
    "render.seat_wind": {"zh": "{wind}家", "en": "{wind} seat"},
    "render.you": {"zh": "你", "en": "You"},
    "render.drawn": {"zh": "摸牌", "en": "Drawn"},
    "render.hand": {"zh": "手牌", "en": "Hand"},
    "render.melds": {"zh": "副露", "en": "Melds"},
    "render.tiles_n": {"zh": "{n}张", "en": "{n} tiles"},
    "render.computer": {"zh": "电脑", "en": "CPU"},
    "render.auto": {"zh": "托管", "en": "Auto"},
    "render.gave_up": {"zh": "放弃", "en": "Gave up"},
    "render.contract": {"zh": "承包", "en": "Contract"},
    "render.escaped": {"zh": "逃跑", "en": "Escaped"},
    "render.phase.turn": {"zh": "出牌", "en": "to play"},
    "render.phase.claim": {"zh": "等待吃碰杠胡", "en": "claims open"},
    "render.phase.rob": {"zh": "可抢杠", "en": "kong may be robbed"},
    "render.phase.contract": {"zh": "承包选择", "en": "contract choice"},
    "render.phase.ended": {"zh": "本局结束", "en": "hand over"},
    "render.claim_prompt": {"zh": "可{acts}", "en": "Claim: {acts}"},
    "render.act.chi": {"zh": "吃", "en": "Chow"},
    "render.act.peng": {"zh": "碰", "en": "Pung"},
    "render.act.gang": {"zh": "杠", "en": "Kong"},
    "render.act.hu": {"zh": "胡", "en": "Win"},
    "render.your_turn": {"zh": "轮到你出牌", "en": "Your turn: discard one"},
    "render.waiting": {"zh": "等待 {name}", "en": "Waiting for {name}"},
    "render.turn_of": {"zh": "轮到 {name} 出牌", "en": "{name} to play"},
    "render.last": {"zh": "最新打出", "en": "Last discard"},
    "render.seat": {"zh": "{n}号位", "en": "Seat {n}"},
    "render.win_self": {"zh": "{name} 自摸", "en": "{name} wins by self-draw"},
    "render.win_discard": {"zh": "{name} 胡牌 · {who} 放炮", "en": "{name} wins on {who}'s discard"},
    "render.win_rob": {"zh": "{name} 抢杠胡 · {who} 被抢", "en": "{name} robs {who}'s kong"},
    "render.drawn_game": {"zh": "荒庄 · 无人胡牌", "en": "Drawn hand: no winner"},
    "render.win_tile": {"zh": "胡张", "en": "Winning tile"},
    "render.tai": {"zh": "台", "en": "tai"},
    "render.fan": {"zh": "番", "en": "fan"},
    "render.tai_items": {"zh": "台数", "en": "Tai"},
    "render.fan_items": {"zh": "番数", "en": "Fan"},
    "render.stake": {"zh": "底分", "en": "stake"},
    "render.points": {"zh": "得分", "en": "points"},
    "render.settlement": {"zh": "结算", "en": "Settlement"},
    "render.col.player": {"zh": "玩家", "en": "Player"},
    "render.col.delta": {"zh": "输赢", "en": "Won/lost"},
    "render.col.fee": {"zh": "服务费", "en": "Fee"},
    "render.col.balance": {"zh": "余额", "en": "Balance"},
    "render.carried": {"zh": "累计番 · 留待后续", "en": "Cumulative fan carried over"},
    "render.carried_none": {"zh": "无累计番", "en": "Nothing carried over"},
    "render.dropped": {"zh": "牌局结束 · 累计番作废", "en": "Match over · cumulative fan dropped"},
    "render.dropped_none": {"zh": "牌局结束 · 无累计番", "en": "Match over · no cumulative fan"},
    "render.none": {"zh": "无", "en": "none"},
    "render.sheet_title": {"zh": "嘉兴麻将 · 牌面", "en": "Jiaxing Mahjong tiles"},
    "render.back": {"zh": "牌背", "en": "Back"},
    "render.sideways": {"zh": "横置", "en": "Claimed"},
    "render.taken": {"zh": "被吃碰", "en": "Taken"},
}

# Used when the rules engine has not registered ``item.<code>`` (yet).
ITEM_FALLBACK: dict[str, dict[str, str]] = {
    "red_dragon": {"zh": "中", "en": "Red dragon"},
    "green_dragon": {"zh": "发", "en": "Green dragon"},
    "white_dragon": {"zh": "白", "en": "White dragon"},
    "round_wind": {"zh": "圈风", "en": "Round wind"},
    "seat_wind": {"zh": "门风", "en": "Seat wind"},
    "no_wildcard": {"zh": "无百搭", "en": "No wildcard"},
    "all_pungs": {"zh": "对对胡", "en": "All pungs"},
    "half_flush": {"zh": "混一色", "en": "Half flush"},
    "full_flush": {"zh": "清一色", "en": "Full flush"},
    "all_honors": {"zh": "字一色", "en": "All honors"},
    "three_wildcards": {"zh": "三百搭", "en": "Three wildcards"},
    "kong_bloom": {"zh": "杠上开花", "en": "Win on kong draw"},
    "single_wait": {"zh": "单吊", "en": "Single wait"},
    "last_tile": {"zh": "海底捞月", "en": "Last tile"},
    "heavenly": {"zh": "天胡", "en": "Heavenly hand"},
    "earthly": {"zh": "地胡", "en": "Earthly hand"},
    "huang": {"zh": "黄番", "en": "Drawn-hand fan"},
    "laotou_huang": {"zh": "老头黄", "en": "Honor wildcard"},
    "baozi": {"zh": "包子", "en": "Dice pair"},
    "wildcard_repeat": {"zh": "百搭连庄", "en": "Wildcard repeat"},
}

# Characters drawn on the tile faces (the serif tile font).
TILE_FACE_CHARS = "一二三四五六七八九萬東南西北中發"

# Symbols the layouts use besides the catalog strings.
BADGE_CHARS = "搭財"  # the wildcard badge on a tile face (render/tiles.py BADGES): 百搭, 財神
EXTRA_CHARS = "×·—–-+−=^…←→↑↓▲▼◀▶●○★☆（），：、。%/#'\"!?"

i18n.register(RENDER_STRINGS)
_names_loaded = False


def _load_item_names() -> None:
    """Import the rules engine's label module if there is one (it registers ``item.<code>``)."""
    global _names_loaded
    if _names_loaded:
        return
    _names_loaded = True
    for mod in ("jxbot.rules.names",):
        with contextlib.suppress(ImportError):
            importlib.import_module(mod)
    with contextlib.suppress(ImportError):  # the rulesets register their own items' labels as they load
        importlib.import_module("jxbot.rulesets").names()


def L(key: str, lang: str, **kw: object) -> str:  # noqa: N802 - short on purpose, used everywhere
    return i18n.t(f"render.{key}", lang, **kw)


def wild_label(view: dict, lang: str) -> str:
    """百搭 (Jiaxing) or 財神 (the caishen ruleset, spelt as the bot and the seed spell it)."""
    from jxbot.rulesets import of_view

    return L(of_view(view).wildcard_key, lang)


def item_label(code: str, lang: str) -> str:
    _load_item_names()
    key = f"item.{code}"
    if i18n.has(key):
        return i18n.t(key, lang)
    fb = ITEM_FALLBACK.get(code)
    if fb:
        return fb["zh" if i18n.norm_lang(lang) == "zh" else "en"]
    return code


def wind(w: int, lang: str) -> str:
    return wind_name(w % 4, i18n.norm_lang(lang))


def tile_label(t: int, lang: str) -> str:
    return tile_name(t, i18n.norm_lang(lang))


def all_label_text() -> list[str]:
    """Every fixed string the renderer may draw (for the font subset and the glyph-coverage test)."""
    _load_item_names()
    out: list[str] = []
    for texts in RENDER_STRINGS.values():
        out.extend(texts.values())
    for texts in ITEM_FALLBACK.values():
        out.extend(texts.values())
    try:
        from jxbot.rules.names import ITEM_NAMES as extra  # type: ignore[import-not-found]
    except ImportError:
        extra = {}
    for code in dict.fromkeys((*TAI_CODES, *FAN_CODES, *extra)):
        for lang in i18n.LANGS:
            out.append(item_label(code, lang))
    for lang in i18n.LANGS:
        out.extend(tile_name(t, lang) for t in range(34))
        out.extend(wind_name(w, lang) for w in range(4))
    out.append(EXTRA_CHARS)
    out.append(BADGE_CHARS)
    return out
