"""Scripted walls for tests and demos: put chosen tiles in chosen places, fill the rest.

``build_wall(hands={0: "123m...", 1: ...}, draws="5m7z", replacements="1p", indicator="3s", dice=(3, 4))``
places seat hands per the deal layout of ``jxbot.game.hand`` (the dealer's 14th tile is the 14th tile
given for it), then the head draws in order, the kong replacements from the tail, the indicator at
``136 - (die1 + die2)``; every other place gets the leftover tiles in a fixed pseudo-random order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from jxbot.rules.ruleset import Ruleset
from jxbot.rules.tiles import COPIES, NUM_KINDS, WALL_SIZE, format_tile, parse_tiles

from .hand import DEAL, Hand, HandContext
from .rng import HashDrbg, full_set

Tiles = str | Sequence[int]


def _tiles(x: Tiles) -> list[int]:
    return parse_tiles(x) if isinstance(x, str) else list(x)


def build_wall(hands: Mapping[int, Tiles] | None = None, *, dealer: int = 0, draws: Tiles = (),
               replacements: Tiles = (), indicator: int | str | None = None, dice: tuple[int, int] = (3, 4),
               fill_seed: int | str = 0) -> list[int]:
    wall: list[int | None] = [None] * WALL_SIZE
    ind_index = WALL_SIZE - (dice[0] + dice[1])
    for seat, tiles in (hands or {}).items():
        ts = _tiles(tiles)
        i = (seat - dealer) % 4
        limit = DEAL + 1 if seat == dealer else DEAL
        if len(ts) > limit:
            raise ValueError(f"seat {seat} is dealt {limit} tiles, {len(ts)} given")
        for j, t in enumerate(ts[:DEAL]):
            wall[DEAL * i + j] = t
        if len(ts) == DEAL + 1:
            wall[4 * DEAL] = ts[DEAL]
    head = [i for i in range(4 * DEAL + 1, WALL_SIZE) if i != ind_index]
    for pos, t in zip(head, _tiles(draws), strict=False):
        wall[pos] = t
    if len(_tiles(draws)) > len(head):
        raise ValueError("more draws than the live wall holds")
    tail = head[::-1]
    for pos, t in zip(tail, _tiles(replacements), strict=False):
        if wall[pos] is not None:
            raise ValueError("draws and replacements overlap")
        wall[pos] = t
    if indicator is not None:
        wall[ind_index] = _tiles(indicator)[0] if isinstance(indicator, str) else indicator
    left = full_set()
    for slot in wall:
        if slot is None:
            continue
        t = slot
        if not 0 <= t < NUM_KINDS:
            raise ValueError(f"not a tile kind: {t}")
        try:
            left.remove(t)
        except ValueError:
            raise ValueError(f"more than {COPIES} copies of {format_tile(t)} in the script") from None
    HashDrbg(fill_seed, "jxbot-fill").shuffle(left)
    it = iter(left)
    return [t if t is not None else next(it) for t in wall]


def scripted_hand(hands: Mapping[int, Tiles] | None = None, *, dealer: int = 0, draws: Tiles = (),
                  replacements: Tiles = (), indicator: int | str | None = None, dice: tuple[int, int] = (3, 4),
                  ruleset: str | Ruleset = "jiaxing", context: HandContext | None = None,
                  fill_seed: int | str = 0, **context_fields: object) -> Hand:
    """A ``Hand`` on a scripted wall. Extra keyword arguments are ``HandContext`` fields."""
    ctx = context or HandContext(dealer=dealer, **context_fields)  # type: ignore[arg-type]
    wall = build_wall(hands, dealer=ctx.dealer, draws=draws, replacements=replacements, indicator=indicator,
                      dice=dice, fill_seed=fill_seed)
    return Hand.from_wall(wall, dice, ruleset=ruleset, context=ctx)
