"""Pillow rendering of jxbot's pictures: tile sprites, the hand (DM), the table (channel) and the result.

Input is plain view data (docs/views.md); output is PNG bytes. Only ``jxbot.rules`` (tiles) and
``jxbot.i18n`` are imported: nothing from the game engine, the runner or Discord.
"""

from __future__ import annotations

from . import palette as _c

__all__ = ["render_hand", "render_table", "render_result", "render_rules", "render_tile_sheet", "render_guide",
           "render_rank", "render_standings", "render_review_summary", "render_review_decision", "warm_up"]


def warm_up() -> None:
    """Build the shared palette and the sprites the images use (about a second, once per process),
    so the first player does not wait for it. The bot may call it at start-up in a thread."""
    _c.palette()
    from . import demo

    render_hand(demo.seat_view(), "zh")
    render_table(demo.table_view(), "zh")
    render_result(demo.result_view(), "zh")


def render_hand(view: dict, lang: str = "zh") -> bytes:
    """A player's own hand (seat view) as PNG."""
    from .hand import draw_hand

    return _c.to_png(draw_hand(view, lang))


def render_table(view: dict, lang: str = "zh") -> bytes:
    """The table for the channel (public view; a seat view is accepted but its own tiles are not drawn)."""
    from .table import draw_table

    return _c.to_png(draw_table(view, lang))


def render_result(view: dict, lang: str = "zh") -> bytes:
    """The end of a hand (result view) as PNG."""
    from .result import draw_result

    return _c.to_png(draw_result(view, lang))


def render_tile_sheet(lang: str = "zh") -> bytes:
    """All 34 faces, the back, a claimed (sideways) tile and the 百搭 marking."""
    from .sheet import draw_sheet

    return _c.to_png(draw_sheet(lang))


def render_rules(lang: str = "zh", ruleset: str = "jiaxing") -> bytes:
    """The illustrated rules card of ``/mahjong rules``: example hands, the wildcard and the formula."""
    from .rules_card import draw_rules

    return _c.to_png(draw_rules(lang, ruleset))


def render_standings(view: dict, lang: str = "zh") -> bytes:
    """An event's standings (render/standings.py) as PNG."""
    from .standings import draw_standings

    return _c.to_png(draw_standings(view, lang))


def render_guide(view: dict, lang: str = "zh") -> bytes:
    """A page of the how-to-play guide (``/mahjong howto``): a title and rows of example tiles."""
    from .guide import draw_guide

    return _c.to_png(draw_guide(view, lang))


def render_rank(view: dict, lang: str = "zh") -> bytes:
    """The ``/rank`` card (段位): tier badge, rating, the season's graph, placements, rates, biggest hand."""
    from .rank import draw_rank

    return _c.to_png(draw_rank(view, lang))
def render_review_summary(view: dict, lang: str = "zh") -> bytes:
    """The coach's review of a hand for one player: agreement, silver lost, the three costliest moments."""
    from .review import draw_summary

    return _c.to_png(draw_summary(view, lang))


def render_review_decision(view: dict, lang: str = "zh") -> bytes:
    """One decision of a review: the hand then, played vs the expert, the candidates' values and win chances."""
    from .review import draw_decision

    return _c.to_png(draw_decision(view, lang))
