"""Pure hand analysis for Jiaxing Mahjong: tiles & notation, melds, rulesets, win/waits/shanten, scoring, settlement."""

from .contract import Score, ScoreItem, Settlement, Transfer
from .melds import Meld, MeldKind
from .ruleset import JIAXING, RULESETS, Ruleset, get_ruleset
from .tiles import format_tile, format_tiles, parse_tile, parse_tiles, sort_hand, tile_name

__all__ = [
    "JIAXING", "RULESETS", "Meld", "MeldKind", "Ruleset", "Score", "ScoreItem", "Settlement", "Transfer",
    "format_tile", "format_tiles", "get_ruleset", "parse_tile", "parse_tiles", "sort_hand", "tile_name",
]
