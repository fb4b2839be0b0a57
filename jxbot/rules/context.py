"""What a win's context may be: ``score_win`` refuses combinations no table can produce (issue 15).

A table only ever asks for a score in a context play can reach; the calculator (``jxbot score``) lets
a person type any combination of flags, so both go through ``check_context``, which raises
``ValueError`` with a sentence saying what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from .melds import Meld


def check_context(melds: Sequence[Meld], *, self_draw: bool, kong_draw: bool, robbing_kong: bool,
                  last_tile: bool = False, first_turn: bool = False, seat_wind: int = 0) -> None:
    """Raise ``ValueError`` for a context no table can produce (RULES A3, A4, A7, B4)."""
    if robbing_kong:
        if self_draw:
            raise ValueError("a robbing win (抢杠) takes another seat's kong tile: it cannot also be a self-draw")
        if kong_draw:
            raise ValueError("a robbing win (抢杠) is not a kong replacement draw: drop --kong-draw")
        if last_tile:
            raise ValueError("a robbing win (抢杠) is not the last tile's self-draw (海底): drop --last-tile")
        if first_turn:
            raise ValueError("a robbing win (抢杠) comes after a 碰 has been claimed: it cannot be 天胡/地胡")
    if kong_draw and not self_draw:
        raise ValueError("a win on a kong replacement (杠上开花/杠底) is a self-draw: add --self-draw")
    if last_tile and not self_draw:
        raise ValueError("海底捞月 is the self-draw of the last tile: add --self-draw")
    if kong_draw and not any(m.is_kong for m in melds):
        raise ValueError("a win on a kong replacement needs a kong among the melds (--gang or --angang)")
    if first_turn and seat_wind == 0 and not self_draw:
        raise ValueError("天胡 is the dealer's win on its dealt hand: a self-draw, never on a discard")
