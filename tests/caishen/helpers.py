"""Scripted caishen hands: the deal as in Jiaxing, draws from the head of the live wall, kong
replacements from the tail of the live wall (in front of the 20 tiles kept back): each kong takes the
lower tile of the last live pair and voids the upper one (``voids``), the 財神 flipped at
``136 - (die1 + die2)``."""

from __future__ import annotations

from collections.abc import Mapping

from jxbot.game import Action, ActionType, Hand, HandContext
from jxbot.game.hand import DEAL
from jxbot.game.rng import HashDrbg, full_set
from jxbot.rules.tiles import WALL_SIZE, parse_tile, parse_tiles
from jxbot.rulesets.caishen.rules import reserve_indices

T = parse_tile


def cs_wall(hands: Mapping[int, str], *, dealer: int = 0, draws: str = "", replacements: str = "",
            voids: str = "", caishen: str = "9p", dice: tuple[int, int] = (3, 4), fill_seed: int = 0) -> list[int]:
    wall: list[int | None] = [None] * WALL_SIZE
    ind = WALL_SIZE - sum(dice)
    for seat, text in hands.items():
        ts = parse_tiles(text)
        i = (seat - dealer) % 4
        for j, t in enumerate(ts[:DEAL]):
            wall[DEAL * i + j] = t
        if len(ts) == DEAL + 1:
            wall[4 * DEAL] = ts[DEAL]
    live = [i for i in range(4 * DEAL + 1, WALL_SIZE) if i not in reserve_indices(ind)]
    for pos, t in zip(live, parse_tiles(draws), strict=False):
        wall[pos] = t
    for pos, t in [*zip(live[::-2], parse_tiles(replacements), strict=False),
                   *zip(live[-2::-2], parse_tiles(voids), strict=False)]:
        assert wall[pos] is None, "draws and replacements overlap"
        wall[pos] = t
    wall[ind] = T(caishen)
    left = full_set()
    for t in wall:
        if t is not None:
            left.remove(t)
    HashDrbg(fill_seed, "jxbot-fill").shuffle(left)
    it = iter(left)
    return [t if t is not None else next(it) for t in wall]


def cs_hand(hands: Mapping[int, str], *, dealer: int = 0, draws: str = "", replacements: str = "",
            voids: str = "", caishen: str = "9p", dice: tuple[int, int] = (3, 4), ruleset: object = "caishen",
            streak: int = 0, stake: int = 1, context: HandContext | None = None) -> Hand:
    ctx = context or HandContext(dealer=dealer, dealer_streak=streak, stake=stake)
    wall = cs_wall(hands, dealer=ctx.dealer, draws=draws, replacements=replacements, voids=voids,
                   caishen=caishen, dice=dice)
    return Hand.from_wall(wall, dice, ruleset=ruleset, context=ctx)  # type: ignore[arg-type]


def act(hand: Hand, kind: str, seat: int, tile: str | int | None = None) -> list:
    t = T(tile) if isinstance(tile, str) else tile
    return hand.apply(Action(ActionType(kind), seat, t))


def types_offered(hand: Hand, seat: int) -> set[str]:
    return {a.type.value for a in hand.legal_actions(seat)}


def pass_all(hand: Hand) -> None:
    while hand.phase in ("claim", "rob"):
        for s in sorted(hand.pending()):
            if s in hand.pending():
                hand.apply(Action(ActionType.PASS, s))


def discard(hand: Hand, seat: int, tile: str | None = None) -> None:
    """``seat`` discards ``tile`` (default: what it drew); open windows are passed."""
    assert hand.phase == "turn" and hand.turn == seat, (hand.phase, hand.turn, seat)
    if tile is None:
        hand.apply(hand.default_action(seat))
    else:
        act(hand, "discard", seat, tile)
    pass_all(hand)


def play_out(hand: Hand) -> None:
    """Everybody discards what they drew and passes every claim until the hand ends."""
    while not hand.ended:
        seat = min(hand.pending())
        if hand.phase == "turn":
            hand.apply(hand.default_action(seat))
        else:
            hand.apply(Action(ActionType.PASS, seat))


def items(hand: Hand) -> list[tuple[str, int]]:
    assert hand.result is not None and hand.result.score is not None
    return [(i.name, i.value) for i in hand.result.score.fan]
