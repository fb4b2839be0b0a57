"""Computer players for jxbot.

``make_player(level, seed)`` returns a player whose ``choose(view)`` answers a seat view
(docs/views.md) with one of the legal actions the view lists. ``jxbot.ai.selfplay`` runs
whole hands and matches between computer players without asyncio (``simulate``).
"""

from .players import LEVELS, ComputerPlayer, EasyPlayer, NormalPlayer, make_player

__all__ = ["LEVELS", "ComputerPlayer", "EasyPlayer", "NormalPlayer", "make_player"]
