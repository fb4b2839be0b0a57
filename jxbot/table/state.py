"""The table runner's state: what a :class:`~jxbot.table.runner.TableRunner` holds, :meth:`RunnerState.state`
(what the sink saves) and :meth:`RunnerState.resume` (a table rebuilt from that and its stored events), and the
persisting of each new event to the :class:`~jxbot.table.sink.EventSink`.

The runner is built in layers, one module each, every layer a class on the one below (docs/table.md, "How the
runner is built"): this state → ``timing`` (the clocks) → ``views`` (what seats are told) → ``computers``
(the computer seats) → ``match_flow`` (between hands: deal, settle, reseat, the end) → ``runner`` (the loop,
input and control).
"""

from __future__ import annotations

import asyncio
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Self

from .clock import Clock, RealClock
from .seats import Seat, SeatInfo, TableConfig
from .sink import EventSink, NullSink

BalancesFn = Callable[[Sequence[SeatInfo]], Awaitable[Sequence[int | None]]]

SEED_BYTES = 32  # a fresh match seed: 256 bits of secrets (issue 24: each wall carries >= 128 bits)

# Error codes returned by submit() besides the game's IllegalAction codes.
ERR_NO_HAND = "no_hand"
ERR_PAUSED = "paused"
ERR_NOT_YOUR_SEAT = "not_your_seat"
ERR_ESCAPED = "escaped"
ERR_BAD_ACTION = "bad_action"
ERR_TABLE = "table_error"


class TableError(RuntimeError):
    """The table cannot continue (e.g. the sink failed); the runner stops and can be resumed."""


async def _no_balances(seats: Sequence[SeatInfo]) -> list[int | None]:
    return [None] * len(seats)


def hand_id(hand: Any) -> str:
    hid = getattr(hand, "hand_id", None)
    if hid is None:
        hid = hand.context.hand_id
    return str(hid)


class RunnerState:
    """The state of one table's runner (see :class:`~jxbot.table.runner.TableRunner`)."""

    def __init__(
        self,
        seats: Sequence[SeatInfo],
        config: TableConfig | None = None,
        *,
        interfaces: Sequence[Seat | None] | Mapping[int, Seat] = (),
        observers: Sequence[Seat] = (),
        sink: EventSink | None = None,
        clock: Clock | None = None,
        balances: BalancesFn | None = None,
        match: Any = None,
        players: Mapping[int, Any] | None = None,
    ) -> None:
        if len(seats) != 4:
            raise ValueError("a table has four seats")
        self.seats: list[SeatInfo] = list(seats)
        self.config = config or TableConfig()
        if isinstance(interfaces, Mapping):
            self.interfaces: list[Seat | None] = [interfaces.get(i) for i in range(4)]
        else:
            self.interfaces = list(interfaces) + [None] * (4 - len(interfaces))
        self.observers = list(observers)
        self.sink: EventSink = sink or NullSink()
        self.clock: Clock = clock or RealClock()
        self._balances_fn = balances or _no_balances
        fresh = self.config.seed is None
        if fresh:
            # 256 bits from `secrets` (docs/game.md "Randomness"): every wall, salt and reseat draw of the match
            # follows from it, so it is kept as text (no integer column or JSON number has to hold it)
            self.config.seed = secrets.token_hex(SEED_BYTES)
        # a fresh secret seed gets a match id of its own random bits: the public hand ids
        # (``<match id>-<n>``) then say nothing of the seed. An explicit (test) seed keeps the id it
        # derives, so a seeded run deals and logs exactly as before.
        self._fresh_match_id: str | None = secrets.token_hex(6) if fresh else None
        self.match = match if match is not None else self._new_match()
        self._players: dict[int, Any] = dict(players or {})  # seat -> computer player
        self.hand: Any = None
        self.results: list[dict] = []  # result views of the finished hands
        self.totals = [0, 0, 0, 0]  # silver won/lost per seat over the match
        self.balances: list[int | None] = [None] * 4
        self.decision_ms: deque[float] = deque(maxlen=50_000)
        self.hands_played = 0
        self._persisted = 0
        self._settled = False
        self._reseated = False  # the players moved after the settled hand: its views are by the old seats
        self._step_start = 0.0
        self._step_no = 0
        self._deadline: float | None = None
        self._seat_deadline: dict[int, float] = {}  # per-seat claim deadlines (delivery-based offers)
        self._undelivered: set[int] = set()  # offers of this step not yet confirmed delivered
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._pause = False
        self._task: asyncio.Task | None = None
        self._error: BaseException | None = None
        self.finished = False

    def _ruleset(self) -> Any:
        from jxbot.rules import get_ruleset

        return get_ruleset(self.config.ruleset)

    def _new_match(self) -> Any:
        from jxbot.game import Match

        c = self.config
        assert c.seed is not None
        return Match(c.seed, ruleset=c.ruleset, rounds=c.rounds, stake=c.stake, fee=c.fee, max_hands=c.max_hands,
                     match_id=self._fresh_match_id)

    def state(self) -> dict:
        """The resumable state: config, seats, match, current hand id, totals."""
        return {
            "table_id": self.config.table_id,
            "config": self.config.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "match": self.match.to_json(),
            "hand_id": hand_id(self.hand) if self.hand is not None and not self._settled else None,
            "totals": list(self.totals),
            "balances": list(self.balances),
            "hands_played": self.hands_played,
            "over": self.finished,
        }

    @classmethod
    def resume(cls, state: dict, events: Sequence[dict] = (), **kw: Any) -> Self:
        """Rebuild a table from :meth:`state` and the stored events of its running hand.

        The hand is rebuilt with ``Hand.replay``; its clocks start afresh when the runner starts.
        Keyword arguments are those of the constructor (interfaces, observers, sink, clock, balances).
        """
        from jxbot.game import Hand, Match, event_from_json

        config = TableConfig.from_json(state["config"])
        seats = [SeatInfo.from_json(s) for s in state["seats"]]
        match = kw.pop("match", None) or Match.from_json(state["match"])
        runner = cls(seats, config, match=match, **kw)
        runner.totals = list(state.get("totals", [0, 0, 0, 0]))
        runner.balances = list(state.get("balances", [None] * 4))
        runner.hands_played = int(state.get("hands_played", 0))
        runner.finished = bool(state.get("over", False))
        if state.get("hand_id") and events:
            runner.hand = Hand.replay([event_from_json(e) for e in events])
            runner._persisted = len(events)
            if hand_id(runner.hand) != state["hand_id"]:
                raise ValueError(f"the events are of hand {hand_id(runner.hand)}, not {state['hand_id']}")
        return runner

    def adopt_first_hand(self, events: Sequence[dict]) -> None:
        """Before :meth:`start`, on a fresh runner: make the stored hand ``events`` (a first hand dealt by this
        table before a restart that left no runner state, docs/table.md "Restart windows") the hand in play.
        The match takes that hand's match id; the hand must be the one this match deals first in every other
        respect (number, dealer, wind, stake, queues) and of this table's ruleset. ``ValueError`` if not."""
        from jxbot.game import Hand, event_from_json

        if self.hand is not None or self.hands_played or self.match.results:
            raise ValueError("only a fresh runner adopts a first hand")
        hand = Hand.replay([event_from_json(e) for e in events])
        hid = hand_id(hand)
        match_id, sep, number = hid.rpartition("-")
        if not sep or number != "1":
            raise ValueError(f"hand {hid} is not a match's first hand")
        was = self.match.match_id
        self.match.match_id = match_id
        if hand.context != self.match.next_context() or hand.ruleset != self.match.ruleset:
            self.match.match_id = was
            raise ValueError(f"hand {hid} is not this table's first hand")
        self.hand = hand
        self._persisted = len(events)

    def _kick(self) -> None:
        """Wake the loop: something changed (input, a flag, a pause)."""
        self._idle.clear()
        self._wake.set()

    @property
    def hand_running(self) -> bool:
        """A hand is dealt and not yet settled."""
        return self.hand is not None and not self._settled

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def _automated(self, seat: int) -> bool:
        info = self.seats[seat]
        return info.is_computer or info.auto or info.escaped

    async def _persist(self) -> None:
        hand = self.hand
        events = hand.events
        hid = hand_id(hand)
        append_many = getattr(self.sink, "append_many", None)
        try:
            if append_many is not None and len(events) > self._persisted:
                # a move's events in one go (a sink with append_many stores them in one transaction; the
                # store's group commit takes a one-event move with the other tables' moves too)
                end = len(events)
                await append_many(hid, self._persisted, [e.to_json() for e in events[self._persisted:end]])
                self._persisted = end
            while self._persisted < len(events):
                await self.sink.append(hid, self._persisted, events[self._persisted].to_json())
                self._persisted += 1
        except Exception as exc:
            self._error = exc
            self._kick()
            raise TableError(f"could not store an event of hand {hid}") from exc
