"""The coach's engine: what a decision is worth (issue 30). No Discord here (capabilities layer).

The interface (stable; the review builds on it):

* ``Decision`` — what ONE seat knows at one decision point: its seat view (docs/views.md: its own
  tiles and every public fact, never the wall or another seat's tiles) plus where it came from.
  Build it with ``Decision.from_view(view)`` (a live seat view, e.g. a computer's or a DiscordSeat's),
  ``Decision.from_hand(hand, seat)`` (a running ``Hand``) or ``Decision.from_events(events, k, seat)``
  (a finished hand's event log, its first ``k`` events replayed: the decision ``seat`` faced then).
  ``decisions_of(events, seat)`` lists every decision point of a seat in a finished hand with the action
  it took (``Decision.played``). A Decision is plain data (picklable: it crosses to worker processes).
* ``Candidate(action, ev_silver, win, deal_in, n)`` — one legal action's estimate: expected silver for
  the hand at stake 1, the chance the seat wins the hand, the chance it deals in; ``n`` playouts.
* ``evaluate(decision, *, budget_ms=300, seed=0, worlds=None, actions=None) -> list[Candidate]`` —
  every candidate, best ``ev_silver`` first. Deterministic for a seed (``worlds`` fixed; the budget, CPU
  ms of the calling thread, only stops early between worlds). ``actions`` restricts the candidates (the
  review passes the played action and the expert's suggestions); by default every legal action, the
  discards cut to the most promising six plus the played action.
* ``CoachPool(processes=1)`` — worker processes (``concurrent.futures.ProcessPoolExecutor``): ``await
  pool.call(fn, *args)`` (the review's evaluation, ``jxbot.coach.review.expert``) and ``await pool.choose(level,
  seed, view)`` (an expert computer's move) from an event loop never block it; ``pool.close()``.

The engine underneath lives in ``jxbot.ai`` (``worlds``: sampling the unseen tiles from the seat's view;
``montecarlo``: playouts), so that the ``expert`` computer level (``jxbot.ai.expert``) can use it too.
"""

from .decision import Candidate, Decision, decisions_of, evaluate
from .pool import CoachPool

__all__ = ["Candidate", "CoachPool", "Decision", "decisions_of", "evaluate"]
