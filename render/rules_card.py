"""The illustrated rules card of ``/mahjong rules``: an example winning hand per pattern, drawn with the
tile sprites, with its value computed by ``jxbot.rules.score_win`` (never typed in), the wildcard tile
with a one-line note, and the scoring formula.

Only characters of the bundled UI font are drawn (tests/render/test_rules_card.py checks every string).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from jxbot import i18n, rulesets
from jxbot.rules import Meld, parse_tiles, score_win
from jxbot.rules.contract import Score

from . import common as C
from .labels import L, item_label
from .tiles import geometry, sprite

WIDTH = 1180
PAD = 32
TILE_W = 40
GAP = 2
HEADER_H = 84
ROW_H = 96
PANEL = (12, 32, 27)
PANEL_LINE = (52, 92, 76)

# Fixed text of the card (drawn with the UI font subset; coverage is tested).
STRINGS: dict[str, dict[str, str]] = {
    "title": {"zh": "{name}麻将 · 规则", "en": "{name} Mahjong · rules"},
    "patterns": {"zh": "胡牌牌型（四组一对，且必须是以下之一）", "en": "Winning patterns (four sets and a pair, plus one of these)"},
    "patterns.caishen": {"zh": "牌型与倍数（平胡需要二倍以上）", "en": "Patterns and multipliers (a hand needs at least ×2)"},
    "wild.jiaxing": {"zh": "翻一张牌，同种其余三张为百搭（万能牌），可当任何牌用。",
                     "en": "The three other copies of the flipped tile stand for any tile."},
    "wild.caishen": {"zh": "翻出的那种牌为财神，可当任何牌用。",
                     "en": "The tile kind flipped stands for any tile."},
    "total": {"zh": "合计", "en": "total"},
    "formula": {"zh": "得分 = 底分 × 台 × 2^番", "en": "points = stake × tai × 2^fan"},
    "formula.caishen": {"zh": "得分 = 底分 × 倍数", "en": "points = stake × multiplier"},
    "example": {"zh": "例", "en": "e.g."},
    "discard": {"zh": "点炮", "en": "on a discard"},
    "ruleset.jiaxing": {"zh": "嘉兴", "en": "Jiaxing"},
    "ruleset.caishen": {"zh": "财神", "en": "Caishen"},
}


i18n.register({f"render.rules.{k}": v for k, v in STRINGS.items()})


def S(key: str, lang: str, **kw: object) -> str:  # noqa: N802 - like render.labels.L
    return i18n.t(f"render.rules.{key}", lang, **kw)


@dataclass(frozen=True)
class Example:
    code: str  # the item the row illustrates
    tiles: str  # notation, the win tile last
    self_draw: bool = False
    kong_draw: bool = False
    kong: str = ""  # a concealed kong beside the tiles (a kong-replacement win needs one)


class _Cards(Mapping[str, tuple[Example, ...]]):
    """ruleset name → its card's example hands (``RulesetPlugin.card()["examples"]``)."""

    def __getitem__(self, name: str) -> tuple[Example, ...]:
        p = rulesets.find(name)
        if p is None:
            raise KeyError(name)
        return tuple(Example(*ex) for ex in p.card()["examples"])

    def __iter__(self) -> Iterator[str]:
        return iter(rulesets.names())

    def __len__(self) -> int:
        return len(rulesets.names())


class _Wildcards(_Cards):
    def __getitem__(self, name: str) -> str:  # type: ignore[override]
        p = rulesets.find(name)
        if p is None:
            raise KeyError(name)
        return str(p.card()["wildcard"])


EXAMPLES: Mapping[str, tuple[Example, ...]] = _Cards()
WILDCARD: Mapping[str, str] = _Wildcards()  # type: ignore[assignment]
# The formula's worked example (jiaxing): the 对对胡 hand won on a kong replacement, stake 2.
FORMULA_EXAMPLE = Example("kong_bloom", "999p555s77z9s22z", self_draw=True, kong_draw=True, kong="1111m")
FORMULA_PATTERN = "all_pungs"  # the example's pattern (对对胡)
FORMULA_STAKE = 2


@functools.lru_cache(maxsize=32)
def score_example(ruleset: str, ex: Example, stake: int = 1) -> tuple[list[int], Score]:
    """The example's tiles and its score, computed by the rules engine."""
    tiles = parse_tiles(ex.tiles)
    wc = parse_tiles(WILDCARD[ruleset])[0]
    melds = (Meld.concealed_kong(ex.kong),) if ex.kong else ()
    sc = score_win(tiles[:-1], tiles[-1], melds, wildcard=wc, self_draw=ex.self_draw, kong_draw=ex.kong_draw,
                   stake=stake, ruleset=ruleset)
    if not sc.winning:
        raise ValueError(f"rules card example {ex} does not win: {sc.reason}")
    return tiles, sc


def multiplier(sc: Score) -> int:
    m = 1
    for it in sc.fan:
        m *= it.value
    return m


def _mult(ruleset: str) -> bool:
    return rulesets.get(ruleset).multiplier_scoring


def _value(ruleset: str, sc: Score, code: str, lang: str) -> str:
    items = sc.fan if _mult(ruleset) else (*sc.tai, *sc.fan)
    it = next(i for i in items if i.name == code)  # StopIteration: the example lost its pattern
    if _mult(ruleset):  # the hand's whole multiplier (a stacked pattern shows its product)
        return f"×{multiplier(sc)}"
    unit = L("tai" if any(i.name == code for i in sc.tai) else "fan", lang)
    return f"+{it.value} {unit}" if lang == "en" else f"+{it.value}{unit}"


def _detail(ruleset: str, sc: Score, lang: str) -> str:
    """All the hand's items and its total, e.g. ``清一色 4 + 无百搭 1 = 5台``."""
    if _mult(ruleset):
        parts = [f"{item_label(i.name, lang)} ×{i.value}" for i in sc.fan]
        return " · ".join(parts) + (f"  →  ×{multiplier(sc)}" if len(parts) > 1 else "")
    parts = [f"{item_label(i.name, lang)} {i.value}" for i in sc.tai]
    sep = " " if lang == "en" else ""
    return " + ".join(parts) + f" = {sc.total_tai}{sep}{L('tai', lang)}"


def _wrap(s: str, size: int, max_w: int, lines: int = 2) -> list[str]:
    """``s`` broken at its " + " / " · " joints into at most ``lines`` lines of ``max_w`` pixels (the
    last one cut with an ellipsis if still too long)."""
    out: list[str] = []
    rest = s
    while rest and len(out) < lines - 1 and C.text_w(rest, size) > max_w:
        cut = max((i for i in range(len(rest)) if rest.startswith((" + ", " · "), i)
                   and C.text_w(rest[:i + 2], size) <= max_w), default=None)
        if cut is None:
            break
        out.append(rest[:cut + 2].rstrip())
        rest = rest[cut + 3:]
    out.append(C.fit(rest, size, max_w))
    return out


def card_strings(lang: str, ruleset: str) -> list[str]:
    """Every string the card draws (for the glyph-coverage test)."""
    lang = "zh" if lang.lower().startswith("zh") else "en"
    out = [S(k, lang, name=_ruleset_name(ruleset, lang)) for k in STRINGS]
    for ex in EXAMPLES[ruleset]:
        _, sc = score_example(ruleset, ex)
        out += [item_label(ex.code, lang), _value(ruleset, sc, ex.code, lang), _detail(ruleset, sc, lang)]
    out += _formula_lines(ruleset, lang)
    out.append(L(rulesets.get(ruleset).wildcard_key, lang))
    out.append(L("win_tile", lang))
    return out


def _ruleset_name(ruleset: str, lang: str) -> str:
    if i18n.has(f"render.rules.ruleset.{ruleset}"):
        return S(f"ruleset.{ruleset}", lang)
    return rulesets.get(ruleset).title(lang)


def _key(base: str, ruleset: str, *, mult: bool = False) -> str:
    """``base.<ruleset>`` when the card has that text, else the multiplier or Jiaxing wording."""
    for k in (f"{base}.{ruleset}", f"{base}.caishen" if mult else None):
        if k and k in STRINGS:
            return k
    return f"{base}.jiaxing" if f"{base}.jiaxing" in STRINGS else base


def _formula_lines(ruleset: str, lang: str) -> list[str]:
    if _mult(ruleset):
        ex = EXAMPLES[ruleset][1]
        _, sc = score_example(ruleset, ex, FORMULA_STAKE)
        worked = i18n.t("score.caishen_formula", lang, stake=FORMULA_STAKE, mult=multiplier(sc), points=sc.points)
        return [S(_key("formula", ruleset, mult=True), lang), f"{S('example', lang)} {item_label(ex.code, lang)}:  {worked}"]
    _, sc = score_example(ruleset, FORMULA_EXAMPLE, FORMULA_STAKE)
    worked = i18n.t("score.formula", lang, stake=FORMULA_STAKE, tai=sc.total_tai, fan=sc.total_fan, points=sc.points)
    names = " + ".join(item_label(c, lang) for c in (FORMULA_PATTERN, FORMULA_EXAMPLE.code))
    return [S("formula", lang), f"{S('example', lang)} {names}:  {worked}"]


def _panel(dr: ImageDraw.ImageDraw, x0: int, y0: int, x1: int, y1: int) -> None:
    dr.rounded_rectangle((x0, y0, x1, y1), radius=16, fill=PANEL, outline=PANEL_LINE, width=2)


def draw_rules(lang: str = "zh", ruleset: str = "jiaxing") -> Image.Image:
    lang = "zh" if lang.lower().startswith("zh") else "en"
    plugin = rulesets.get(ruleset)  # ValueError naming the known ones
    caishen = plugin.multiplier_scoring  # items are multipliers (倍)
    variant = plugin.badge
    wc = parse_tiles(WILDCARD[ruleset])[0]
    examples = EXAMPLES[ruleset]
    g = geometry(TILE_W)
    list_h = 56 + ROW_H * len(examples) + 8
    height = HEADER_H + 18 + list_h + 18 + 84 + 18 + 110 + PAD
    img = C.felt(WIDTH, height)
    dr = ImageDraw.Draw(img)
    # header
    dr.rectangle((0, 0, WIDTH, HEADER_H), fill=(10, 30, 24))
    dr.line((0, HEADER_H, WIDTH, HEADER_H), fill=C.GOLD, width=3)
    C.text(dr, (PAD, HEADER_H // 2 + 2), S("title", lang, name=_ruleset_name(ruleset, lang)), 32, C.GOLD,
           anchor="lm", shadow=True)
    # the patterns
    y = HEADER_H + 18
    _panel(dr, PAD, y, WIDTH - PAD, y + list_h)
    C.text(dr, (PAD + 20, y + 28), S(_key("patterns", ruleset, mult=caishen), lang), 22, C.TEXT, anchor="lm")
    dr.line((PAD + 16, y + 50, WIDTH - PAD - 16, y + 50), fill=PANEL_LINE, width=1)
    ry = y + 56
    tiles_x = PAD + 20
    label_x = tiles_x + 14 * (TILE_W + GAP) + 14 + 24
    for ex in examples:
        tiles, sc = score_example(ruleset, ex)
        ty = ry + (ROW_H - g.box_h) // 2 - 6
        x = tiles_x
        for t in tiles[:-1]:
            C.paste(img, sprite(t, TILE_W, C.tile_variant(t, wc, variant)), x, ty)
            x += TILE_W + GAP
        x += 12
        win = tiles[-1]
        dr.rounded_rectangle((x - 4, ty - 4, x + TILE_W + 4, ty + g.box_h + 4), radius=8, outline=C.GOLD, width=2)
        C.paste(img, sprite(win, TILE_W, C.tile_variant(win, wc, variant)), x, ty)
        C.text(dr, (label_x, ry + 30), C.fit(item_label(ex.code, lang), 26, WIDTH - PAD - label_x - 130), 26, C.GOLD,
               anchor="lm")
        C.text(dr, (WIDTH - PAD - 20, ry + 30), _value(ruleset, sc, ex.code, lang), 26, C.TEXT, anchor="rm")
        how = L("win_tile", lang) + (" · " + item_label("self_draw", lang) if ex.self_draw and caishen else "")
        for k, line in enumerate(_wrap(_detail(ruleset, sc, lang), 16, WIDTH - PAD - 20 - label_x)):
            C.text(dr, (label_x, ry + 60 + 20 * k), line, 16, C.TEXT_DIM, anchor="lm")
        C.text(dr, (x + TILE_W // 2, ty + g.box_h + 14), how, 13, C.GOLD, anchor="mm")
        ry += ROW_H
    y += list_h + 18
    # the wildcard
    _panel(dr, PAD, y, WIDTH - PAD, y + 84)
    wg = geometry(44)
    C.paste(img, sprite(wc, 44, variant), PAD + 20, y + (84 - wg.box_h) // 2)
    wl = L(plugin.wildcard_key, lang)
    lx = PAD + 20 + 44 + 20
    lx += C.text(dr, (lx, y + 42), wl, 26, C.GOLD, anchor="lm") + 20
    C.text(dr, (lx, y + 42), C.fit(S(_key("wild", ruleset, mult=caishen), lang), 20, WIDTH - PAD - 20 - lx),
           20, C.TEXT, anchor="lm")
    y += 84 + 18
    # the formula
    _panel(dr, PAD, y, WIDTH - PAD, y + 110)
    head, worked = _formula_lines(ruleset, lang)
    C.text(dr, (WIDTH // 2, y + 46), head, 36, C.GOLD, anchor="ms")
    C.text(dr, (WIDTH // 2, y + 88), C.fit(worked, 22, WIDTH - 2 * PAD - 40), 22, C.TEXT_DIM, anchor="ms")
    return img


__all__ = ["draw_rules", "card_strings", "score_example", "EXAMPLES", "STRINGS"]
