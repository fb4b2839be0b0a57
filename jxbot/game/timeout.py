"""What the system plays for a seat whose clock ran out (RULES C): it never throws a win away.

On a turn timeout a winning self-draw is declared; otherwise the drawn tile is discarded, unless it is
the 百搭/財神 or there is no drawn tile (after a 吃/碰 the seat holds no fresh tile): then the computer
player's choice. A claim or rob window passes; a contract decision takes the ruleset's default.

Pure: the computer player's choice is asked through a callable, so the game imports no AI and no
clock. The table runner calls it on every timeout, and ``jxbot play`` calls the runner's wrapper for
the Enter default, so the bot and the terminal play the same move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from jxbot.rules.tiles import sort_hand

from .actions import Action, ActionType

if TYPE_CHECKING:
    from .hand import Hand

Chooser = Callable[[], Action | None]


def turn_rule(legal: Sequence[Action], drawn: int | None, wildcard: int | None) -> Action | None:
    """The rule on a turn, from what the seat may do: the winning self-draw if there is one, else the
    discard of the drawn tile unless it is the 百搭/財神; ``None`` leaves it to the computer player.
    Seat views carry the same fields (``actions``, ``drawn``, ``wildcard``), so ``jxbot play`` applies
    the very same rule to its Enter key."""
    win = next((a for a in legal if a.type is ActionType.TSUMO), None)
    if win is not None:
        return win
    if drawn is not None and drawn != wildcard:
        discard = next((a for a in legal if a.type is ActionType.DISCARD and a.tile == drawn), None)
        if discard is not None:
            return discard
    return None


def timeout_action(hand: Hand, seat: int, computer: Chooser | None = None) -> Action:
    """The action a timeout plays for ``seat`` (which the hand waits for).

    ``computer`` returns the computer player's choice for the seat; it is only called when the rule
    leaves the move to it (a drawn 百搭/財神, or no drawn tile); without one, or when its choice is not
    legal, the last tile of the sorted hand goes (the 百搭/財神 sort first, so it is kept)."""
    if hand.phase != "turn":
        return hand.default_action(seat)
    legal = hand.legal_actions(seat)
    ruled = turn_rule(legal, hand.drawn, hand.wildcard)
    if ruled is not None:
        return ruled
    if computer is not None:
        choice = computer()
        if choice is not None and choice in legal:
            return choice
    drawn = hand.drawn
    if drawn is None or drawn != hand.wildcard:
        return hand.default_action(seat)  # the last tile of the sorted hand (the 百搭/財神 sort first)
    keep = sort_hand(hand.concealed[seat], hand.wildcard)
    return Action(ActionType.DISCARD, seat, keep[-1])
