"""Deterministic game state machines: one hand (deal → win/draw) and a match (dealer, winds, cumulative 番).

Pure: no I/O, no asyncio, no clock. See docs/game.md.
"""

from .actions import CLAIM_TYPES, TURN_TYPES, Action, ActionType, action_from_json
from .errors import IllegalAction
from .events import Event, event_from_json
from .hand import PHASES, Hand, HandContext, HandResult
from .match import Match
from .rng import commitment, verify_commitment

__all__ = [
    "CLAIM_TYPES", "PHASES", "TURN_TYPES", "Action", "ActionType", "Event", "Hand", "HandContext", "HandResult",
    "IllegalAction", "Match", "action_from_json", "commitment", "event_from_json", "verify_commitment",
]
