"""Computer players for jxbot.

``make_player(level, seed)`` returns a player whose ``choose(view)`` answers a seat view
(docs/views.md) with one of the legal actions the view lists. ``jxbot.ai.selfplay`` runs
whole hands and matches between computer players without asyncio (``simulate``).

Importing the package registers every level (``jxbot.ai.base.register``): ``easy`` and ``normal``
(``jxbot.ai.players``), then ``hard`` (``jxbot.ai.hard``, built on the normal player), then ``expert`` (``jxbot.ai.expert``,
the hard player checked by the evaluator's playouts, ``jxbot.ai.montecarlo``).
"""

from . import expert as _expert  # noqa: F401  (registers "expert", after "hard")
from . import hard as _hard  # noqa: F401  (registers "hard")
from .base import ComputerPlayer, levels, make_player
from .players import EasyPlayer, NormalPlayer

LEVELS = levels()

__all__ = ["LEVELS", "ComputerPlayer", "EasyPlayer", "NormalPlayer", "make_player"]
