"""The illustrated rules card of ``/mahjong rules``: an example winning hand per pattern, drawn with the
tile sprites, with its value computed by ``jxbot.rules.score_win`` (never typed in), the wildcard tile
with a one-line note, and the scoring formula.

Only characters of the bundled UI font are drawn (tests/render/test_rules_card.py checks every string).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from jxbot import i18n, rulesets
from jxbot.rules import Meld, parse_tiles, score_win
from jxbot.rules.contract import Score

from . import common as C
from .labels import L, item_label
from .tiles import geometry, sprite

# Drawn for a phone first: Discord shows it about 550 px wide there (x0.79), so the tiles are 52 px
# (41 px there) on two rows and the smallest text is 16 px (12.6 px there); tests/render/test_rules_card.py.
WIDTH = 700
PAD = 20
INSET = 18
TILE_W = 52
WILD_W = 52
GAP = 2
HEADER_H = 72
TITLE = 30
NAME = 24
SUB = 20
SMALL = 16
FORMULA = 30
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


def _words(s: str, size: int, max_w: int, lines: int = 3) -> list[str]:
    """``s`` wrapped to ``max_w`` pixels: at spaces (English) or between characters (Chinese); at most
    ``lines`` lines, the last one cut with an ellipsis if still too long."""
    out: list[str] = []
    rest = s.strip()
    while rest and len(out) < lines - 1 and C.text_w(rest, size) > max_w:
        cut = 0
        for i in range(1, len(rest) + 1):
            if C.text_w(rest[:i], size) > max_w:
                break
            if i == len(rest) or rest[i] == " " or (ord(rest[i]) > 0x2E7F and rest[i] not in "，。：）"):
                cut = i
        if cut == 0:
            break
        out.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    out.append(C.fit(rest, size, max_w))
    return out


def _joints(s: str, size: int, max_w: int, lines: int = 5) -> list[str]:
    """``s`` broken before its " + ", " · ", " = " and " → " joints to fit ``max_w`` pixels (a part too long
    for a line is wrapped at words)."""
    parts = re.split(r"(\s+(?:\+|·|=|→)\s+)", s)
    out: list[str] = []
    line = parts[0]
    for sep, part in zip(parts[1::2], parts[2::2], strict=True):
        if C.text_w(line + sep + part, size) <= max_w:
            line += sep + part
        else:
            out.append(line)
            line = sep.strip() + " " + part
    out.append(line)
    wrapped = [w for ln in out for w in _words(ln, size, max_w, lines)]
    return wrapped[:lines]


def detail_lines(ruleset: str, ex: Example, lang: str) -> list[str]:
    """The lines of an example's breakdown as the card draws them beside its tiles."""
    tiles, sc = score_example(ruleset, ex)
    a, b = _tile_rows(len(tiles) - 1)
    left = PAD + INSET
    dx = left + max(a, b + 1) * (TILE_W + GAP) + 24
    return _joints(_detail(ruleset, sc, lang), SMALL, WIDTH - PAD - INSET - dx)


@dataclass
class CardLayout:
    """What the card drew: its size, every text's font size and every tile's width (the phone test
    scales them by 550/width)."""

    width: int
    height: int
    text_sizes: list[int] = field(default_factory=list)
    tile_widths: list[int] = field(default_factory=list)


class _Pen:
    """Draws through the common helpers and records the sizes (CardLayout)."""

    def __init__(self, img: Image.Image, lay: CardLayout) -> None:
        self.img, self.dr, self.lay = img, ImageDraw.Draw(img), lay

    def text(self, xy: tuple[float, float], s: str, size: int, fill=C.TEXT, anchor: str = "la",
             shadow: bool = False) -> int:
        self.lay.text_sizes.append(size)
        return C.text(self.dr, xy, s, size, fill, anchor=anchor, shadow=shadow)

    def tile(self, t: int, w: int, variant: str, x: int, y: int) -> None:
        self.lay.tile_widths.append(w)
        C.paste(self.img, sprite(t, w, variant), x, y)


def _tile_rows(n: int) -> tuple[int, int]:
    """The example's tiles before the winning one, on two rows (the winning tile ends the second)."""
    first = (n + 1) // 2
    return first, n - first


def _example_h() -> int:
    return 44 + 2 * geometry(TILE_W).box_h + 8 + 24


def card_layout(lang: str = "zh", ruleset: str = "jiaxing") -> tuple[Image.Image, CardLayout]:
    lang = "zh" if lang.lower().startswith("zh") else "en"
    plugin = rulesets.get(ruleset)  # ValueError naming the known ones
    caishen = plugin.multiplier_scoring  # items are multipliers (倍)
    variant = plugin.badge
    wc = parse_tiles(WILDCARD[ruleset])[0]
    examples = EXAMPLES[ruleset]
    g = geometry(TILE_W)
    inner = WIDTH - 2 * PAD - 2 * INSET
    head_lines = _words(S(_key("patterns", ruleset, mult=caishen), lang), SUB, inner, 2)
    list_h = 16 + 28 * len(head_lines) + 10 + _example_h() * len(examples) + 8
    wl = L(plugin.wildcard_key, lang)
    wild_x = INSET + WILD_W + 16
    note = _words(S(_key("wild", ruleset, mult=caishen), lang), SUB, inner - wild_x + INSET, 3)
    wild_h = max(geometry(WILD_W).box_h + 2 * INSET, 16 + 30 + 26 * len(note) + 12)
    head, worked = _formula_lines(ruleset, lang)
    prefix, _, formula = worked.partition(":  ")
    formula_h = 16 + 44 + 30 + 30 + 16
    height = HEADER_H + 18 + list_h + 18 + wild_h + 18 + formula_h + PAD
    img = C.felt(WIDTH, height)
    lay = CardLayout(WIDTH, height)
    pen = _Pen(img, lay)
    dr = pen.dr
    # header
    dr.rectangle((0, 0, WIDTH, HEADER_H), fill=(10, 30, 24))
    dr.line((0, HEADER_H, WIDTH, HEADER_H), fill=C.GOLD, width=3)
    pen.text((PAD, HEADER_H // 2 + 2), C.fit(S("title", lang, name=_ruleset_name(ruleset, lang)), TITLE, WIDTH - 2 * PAD),
             TITLE, C.GOLD, anchor="lm", shadow=True)
    # the patterns: per example its name and value, then its tiles on two rows and what it adds up to
    y = HEADER_H + 18
    _panel(dr, PAD, y, WIDTH - PAD, y + list_h)
    ty = y + 16
    for line in head_lines:
        pen.text((PAD + INSET, ty + 12), line, SUB, C.TEXT, anchor="lm")
        ty += 28
    dr.line((PAD + 16, ty, WIDTH - PAD - 16, ty), fill=PANEL_LINE, width=1)
    ry = ty + 10
    left = PAD + INSET
    right = WIDTH - PAD - INSET
    for ex in examples:
        tiles, sc = score_example(ruleset, ex)
        value = _value(ruleset, sc, ex.code, lang)
        vw = pen.text((right, ry + 18), value, NAME, C.TEXT, anchor="rm")
        pen.text((left, ry + 18), C.fit(item_label(ex.code, lang), NAME, right - left - vw - 16), NAME, C.GOLD,
                 anchor="lm")
        a, b = _tile_rows(len(tiles) - 1)
        tx0 = ry + 44
        for k, t in enumerate(tiles[:-1]):
            row, col = (0, k) if k < a else (1, k - a)
            pen.tile(t, TILE_W, C.tile_variant(t, wc, variant), left + col * (TILE_W + GAP), tx0 + row * (g.box_h + 8))
        x = left + b * (TILE_W + GAP) + 12
        wy = tx0 + g.box_h + 8
        win = tiles[-1]
        dr.rounded_rectangle((x - 4, wy - 4, x + TILE_W + 4, wy + g.box_h + 4), radius=8, outline=C.GOLD, width=2)
        pen.tile(win, TILE_W, C.tile_variant(win, wc, variant), x, wy)
        how = L("win_tile", lang) + (" · " + item_label("self_draw", lang) if ex.self_draw and caishen else "")
        pen.text((x + TILE_W // 2, wy + g.box_h + 14), how, SMALL, C.GOLD, anchor="mm")
        # what the hand adds up to, beside the tiles
        dx = left + max(a, b + 1) * (TILE_W + GAP) + 24
        for k, line in enumerate(detail_lines(ruleset, ex, lang)):
            pen.text((dx, tx0 + 12 + 24 * k), line, SMALL, C.TEXT_DIM, anchor="lm")
        ry += _example_h()
    y += list_h + 18
    # the wildcard
    _panel(dr, PAD, y, WIDTH - PAD, y + wild_h)
    wg = geometry(WILD_W)
    pen.tile(wc, WILD_W, variant, PAD + INSET, y + (wild_h - wg.box_h) // 2)
    pen.text((PAD + wild_x, y + 30), wl, NAME, C.GOLD, anchor="lm")
    for k, line in enumerate(note):
        pen.text((PAD + wild_x, y + 60 + 26 * k), line, SUB, C.TEXT, anchor="lm")
    y += wild_h + 18
    # the formula and its worked example
    _panel(dr, PAD, y, WIDTH - PAD, y + formula_h)
    pen.text((WIDTH // 2, y + 16 + 36), C.fit(head, FORMULA, inner), FORMULA, C.GOLD, anchor="ms")
    pen.text((WIDTH // 2, y + 16 + 44 + 26), C.fit(prefix + (":" if formula else ""), SUB, inner), SUB, C.TEXT_DIM,
             anchor="ms")
    if formula:
        pen.text((WIDTH // 2, y + 16 + 44 + 56), C.fit(formula, SUB, inner), SUB, C.TEXT, anchor="ms")
    return img, lay


def draw_rules(lang: str = "zh", ruleset: str = "jiaxing") -> Image.Image:
    return card_layout(lang, ruleset)[0]


__all__ = ["draw_rules", "card_layout", "CardLayout", "card_strings", "score_example", "EXAMPLES", "STRINGS"]
