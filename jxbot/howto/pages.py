"""The guide's pages as data: what each page shows (rows of example tiles) and the example hand it scores.

Every number a page states about a hand (台, 番, the cumulative 番, the points, a 財神 multiplier) is
computed here by ``jxbot.rules.score_win`` and formatted into the page's text; nothing is typed in.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from jxbot.rules import Meld, parse_tiles, score_win
from jxbot.rules.contract import Score


@dataclass(frozen=True)
class Example:
    """A winning hand: ``tiles`` in notation, the winning tile last."""

    tiles: str
    wildcard: str = "9s"
    self_draw: bool = False
    kong_draw: bool = False
    kong: str = ""  # a concealed kong declared beside the tiles
    cumulative: tuple[str, ...] = ()  # the cumulative 番 the win takes from the table's queue
    stake: int = 1
    ruleset: str = "jiaxing"


@dataclass(frozen=True)
class Row:
    """One row of tiles in the page's picture, with a caption key (``howto.cap.<key>``) or an example."""

    tiles: str
    caption: str = ""
    example: Example | None = None


@dataclass(frozen=True)
class Page:
    key: str  # texts: howto.<key>.title / howto.<key>.body
    rows: tuple[Row, ...] = ()
    wildcard: str | None = None  # the wild kind marked in the picture
    example: Example | None = None  # the hand whose score the body states
    ruleset: str = "jiaxing"  # whose wildcard badge the picture draws (搭 or 財)

    @property
    def examples(self) -> tuple[Example, ...]:
        out = [r.example for r in self.rows if r.example is not None]
        if self.example is not None and self.example not in out:
            out.append(self.example)
        return tuple(out)


@functools.lru_cache(maxsize=64)
def score(ex: Example) -> Score:
    """The example's score by the rules engine; ValueError if it does not win (a wrong page)."""
    tiles = parse_tiles(ex.tiles)
    melds = (Meld.concealed_kong(ex.kong),) if ex.kong else ()
    sc = score_win(tiles[:-1], tiles[-1], melds, wildcard=parse_tiles(ex.wildcard)[0], self_draw=ex.self_draw,
                   kong_draw=ex.kong_draw, cumulative=ex.cumulative, stake=ex.stake, ruleset=ex.ruleset)
    if not sc.winning:
        raise ValueError(f"guide example {ex.tiles} does not win: {sc.reason}")
    return sc


def multiplier(sc: Score) -> int:
    m = 1
    for it in sc.fan:
        m *= it.value
    return m


FULL_FLUSH = Example("123m456m789m234m55m")
HALF_FLUSH = Example("123p456p789p777z11z")
ALL_HONORS = Example("111z222z555z666z77z")
ALL_PUNGS = Example("111m555p888s333z44z")
WORKED = Example("999p555s77z9s22z", self_draw=True, kong_draw=True, kong="1111m", cumulative=("huang",), stake=2)
CS_PAIRS = Example("11m33m55p77p22s44s6z6z", wildcard="8p", ruleset="caishen")
CS_HEAD = Example("123m456m789p7z8p345s", wildcard="8p", ruleset="caishen", stake=2)
CS_HUI = Example("123m456m345s8p8p8p1z1z", wildcard="8p", ruleset="caishen")

JIAXING: tuple[Page, ...] = (
    Page("tiles", rows=(Row("123456789m", "man"), Row("123456789p", "pin"), Row("123456789s", "sou"),
                        Row("1234z", "winds"), Row("567z", "dragons"))),
    Page("wild", rows=(Row("9s", "indicator"), Row("9s9s9s", "wilds")), wildcard="9s"),
    Page("turn", rows=(Row("1m2m3m5p6p8p8p2s3s4s7z7z7z", "hand"), Row("4p", "drawn"))),
    Page("claims", rows=(Row("5p5p5p", "pung"), Row("3m4m5m", "chow"), Row("7z7z7z7z", "kong"))),
    Page("full_flush", rows=(Row(FULL_FLUSH.tiles, example=FULL_FLUSH),), wildcard="9s", example=FULL_FLUSH),
    Page("half_flush", rows=(Row(HALF_FLUSH.tiles, example=HALF_FLUSH),), wildcard="9s", example=HALF_FLUSH),
    Page("all_honors", rows=(Row(ALL_HONORS.tiles, example=ALL_HONORS),), wildcard="9s", example=ALL_HONORS),
    Page("all_pungs", rows=(Row(ALL_PUNGS.tiles, example=ALL_PUNGS),), wildcard="9s", example=ALL_PUNGS),
    Page("formula", rows=(Row("1111m", "kong"), Row(WORKED.tiles, example=WORKED)), wildcard="9s", example=WORKED),
    Page("contract"),
    Page("fee"),
)

CAISHEN: tuple[Page, ...] = (
    Page("cs_caishen", rows=(Row("8p", "caishen"), Row("7p5z9p", "white")), wildcard="8p", ruleset="caishen"),
    Page("cs_patterns", rows=(Row(CS_PAIRS.tiles, example=CS_PAIRS), Row(CS_HUI.tiles, example=CS_HUI)),
         wildcard="8p", example=CS_HUI, ruleset="caishen"),
    Page("cs_pay", rows=(Row(CS_HEAD.tiles, example=CS_HEAD),), wildcard="8p", example=CS_HEAD, ruleset="caishen"),
)

RULESETS: dict[str, tuple[Page, ...]] = {"jiaxing": JIAXING, "caishen": CAISHEN}


def pages(ruleset: str = "jiaxing") -> tuple[Page, ...]:
    """The page set of a ruleset (an unknown name: Jiaxing's)."""
    return RULESETS.get(ruleset, JIAXING)
