"""Events (issue 32): tournaments a server runs on its own — registration, check-in, Swiss pairing, the
duplicate format (every table of a round on the same walls, each seat scored against the same seat elsewhere),
standings, and a simulation through the same code. No Discord here: cogs/tournament.py translates.

Modules: ``model`` (settings, players, table records), ``pairing`` (who sits with whom), ``scoring``
(duplicate scores, standings), ``fairness`` (the event's walls: one secret, one commitment), ``service`` (an
event's life against the store; tables are opened through a callback), ``simulate`` (computer fields).
See docs/tournaments.md.
"""

from jxbot.events.model import EventConfig, Player, TableRecord
from jxbot.events.pairing import pair_round, seat_order
from jxbot.events.scoring import Standing, duplicate_scores, standings

__all__ = ["EventConfig", "Player", "Standing", "TableRecord", "duplicate_scores", "pair_round", "seat_order",
           "standings"]
