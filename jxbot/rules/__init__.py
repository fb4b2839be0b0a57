"""Pure hand analysis for Jiaxing Mahjong: tiles & notation, melds, rulesets, win/waits/shanten, scoring, settlement."""

from . import names  # (registers the zh/en item.<code> labels in jxbot.i18n)
from .contract import Score, ScoreItem, Settlement, Transfer
from .melds import Meld, MeldKind
from .ruleset import JIAXING, RULESETS, Ruleset, get_ruleset
from .score import score_win
from .settle import multipliers, settle
from .shape import check_hand, is_complete, is_winning, ready_on_everything, shanten, waits, winning_patterns
from .tiles import format_tile, format_tiles, parse_tile, parse_tiles, sort_hand, tile_name

__all__ = [
    "JIAXING", "RULESETS", "Meld", "MeldKind", "Ruleset", "Score", "ScoreItem", "Settlement", "Transfer",
    "check_hand", "format_tile", "format_tiles", "get_ruleset", "is_complete", "is_winning", "multipliers", "names", "parse_tile",
    "parse_tiles", "ready_on_everything", "score_win", "settle", "shanten", "sort_hand", "tile_name", "waits", "winning_patterns",
]
