"""The async table runner: one :class:`TableRunner` per table drives a ``jxbot.game.Match``.

It owns every clock of the table (claim window, turn limit, contract decision), plays computer seats
and seats on auto-play, takes human input through :meth:`TableRunner.submit`, persists every event
to an :class:`~jxbot.table.sink.EventSink`, settles each hand, and sends every seat its new view.
Many runners share one event loop; nothing here blocks it for long (computer decisions are timed).
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from jxbot.game.actions import Action, ActionType, action_from_json
from jxbot.game.timeout import timeout_action

from .clock import Clock, RealClock
from .seats import Seat, SeatInfo, TableConfig
from .sink import EventSink, NullSink

log = logging.getLogger("jxbot.table")

BalancesFn = Callable[[Sequence[SeatInfo]], Awaitable[Sequence[int | None]]]

# Answers inside a claim / rob / contract window: they do not restart the window's clock.
ANSWER_TYPES = frozenset({ActionType.PASS, ActionType.HU, ActionType.PUNG, ActionType.KONG, ActionType.CHOW,
                          ActionType.PERSIST, ActionType.GIVE_UP})
WIN_TYPES = frozenset({ActionType.HU, ActionType.TSUMO})
SEED_BYTES = 32  # a fresh match seed: 256 bits of secrets (issue 24: each wall carries >= 128 bits)
# RULES C: a claim / rob window counts from when the offer is in front of the player. A seat whose
# interface confirms delivery (``confirms_delivery = True``, see :meth:`TableRunner.offer_delivered`) gets
# its window from that moment; until then its clock runs from the step start plus OFFER_GRACE (an offer
# that never arrives still ends). LATE_GRACE: a press sent just before the deadline is still taken.
OFFER_PHASES = ("claim", "rob")
OFFER_GRACE = 5.0
LATE_GRACE = 0.25

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


def _hand_id(hand: Any) -> str:
    hid = getattr(hand, "hand_id", None)
    if hid is None:
        hid = hand.context.hand_id
    return str(hid)


class TableRunner:
    """Runs a match at one table. See docs/table.md.

    ``seats``: four :class:`SeatInfo`; ``interfaces``: for each seat a :class:`Seat` (humans) or None;
    ``observers``: seats that get the public view (the channel). ``balances(seats)`` is awaited before
    each deal and each settlement (None = house-backed computer seat).
    """

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

    # ------------------------------------------------------------------ construction / resume
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
            "hand_id": _hand_id(self.hand) if self.hand is not None and not self._settled else None,
            "totals": list(self.totals),
            "balances": list(self.balances),
            "hands_played": self.hands_played,
            "over": self.finished,
        }

    @classmethod
    def resume(cls, state: dict, events: Sequence[dict] = (), **kw: Any) -> TableRunner:
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
            if _hand_id(runner.hand) != state["hand_id"]:
                raise ValueError(f"the events are of hand {_hand_id(runner.hand)}, not {state['hand_id']}")
        return runner

    # ------------------------------------------------------------------ public control
    def start(self) -> asyncio.Task:
        """Run the match in a task (or continue it after :meth:`pause`)."""
        if self._task is not None and not self._task.done():
            return self._task
        self._pause = False
        self._task = asyncio.create_task(self.run(), name=f"table:{self.config.table_id}")
        return self._task

    async def pause(self) -> None:
        """Stop at the next safe point; every event so far is persisted. :meth:`start` continues."""
        self._pause = True
        self._kick()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
        self._task = None

    async def wait_idle(self) -> None:
        """Return once the runner waits for a human (or a clock), or has stopped."""
        await self._idle.wait()

    def skip_pause(self) -> None:
        """End the pause between hands now: the next hand is dealt at once (the Next button).

        Outside that pause it only wakes the loop, which then carries on as it would have."""
        self._kick()

    def _kick(self) -> None:
        """Wake the loop: something changed (input, a flag, a pause)."""
        self._idle.clear()
        self._wake.set()

    @property
    def hand_running(self) -> bool:
        """A hand is dealt and not yet settled."""
        return self.hand is not None and not self._settled

    @property
    def match_over(self) -> bool:
        """No further hand will be dealt (the match is over, or its hand limit is reached)."""
        return self._match_over()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def submit(self, seat: int, action: Action | dict) -> str | None:
        """A human's input. Returns None when taken, else an error code (see docs/table.md); never raises
        for bad input. The change completes even if the caller is cancelled meanwhile."""
        return await asyncio.shield(self._submit(seat, action))

    async def _submit(self, seat: int, action: Action | dict) -> str | None:
        try:
            if isinstance(action, dict):
                action = action_from_json(action)
        except (KeyError, ValueError, TypeError):
            return ERR_BAD_ACTION
        if not 0 <= seat < 4 or action.seat != seat or self.seats[seat].is_computer:
            return ERR_NOT_YOUR_SEAT
        if self._error is not None:
            return ERR_TABLE
        hand = self.hand
        if hand is None or self._settled or hand.phase == "ended":
            return ERR_NO_HAND
        if not self.running:
            return ERR_PAUSED
        info = self.seats[seat]
        if info.escaped:
            return ERR_ESCAPED
        async with self._lock:
            if hand is not self.hand:
                return ERR_NO_HAND
            try:
                err = await self._apply(seat, action, note_kind="action", check=True)
            except TableError:
                return ERR_TABLE
            if err is not None:
                return err
            info.timeouts = 0
            if info.auto:
                info.auto = False
                await self._notify_all({"kind": "auto", "seat": seat, "on": False})
        self._kick()
        return None

    async def set_auto(self, seat: int, on: bool) -> None:
        """Switch auto-play for a human seat (taking it back turns it off)."""
        return await asyncio.shield(self._set_auto(seat, on))

    async def _set_auto(self, seat: int, on: bool) -> None:
        info = self.seats[seat]
        if info.is_computer or info.escaped or info.auto == on:
            return
        info.auto = on
        info.timeouts = 0
        self._kick()
        await self._notify_all({"kind": "auto", "seat": seat, "on": on})

    async def set_autowin(self, seat: int, on: bool) -> None:
        """听牌 自动胡: when on, the runner declares 胡 for the seat whenever it can."""
        return await asyncio.shield(self._set_autowin(seat, on))

    async def _set_autowin(self, seat: int, on: bool) -> None:
        self.seats[seat].autowin = on
        self._kick()
        await self._notify_all({"kind": "autowin", "seat": seat, "on": on})

    async def leave(self, seat: int) -> None:
        """The player leaves. During a running hand this is an escape (RULES A10): the seat is
        auto-played to the end of the hand and the settlement charges it. From the next hand on a
        computer plays the seat."""
        return await asyncio.shield(self._leave(seat))

    async def _leave(self, seat: int) -> None:
        info = self.seats[seat]
        if info.is_computer or info.left:
            return
        info.left = True
        async with self._lock:
            hand = self.hand
            if hand is not None and not self._settled and hand.phase != "ended":
                hand.escape(seat)
                info.escaped = True
                info.auto = True
                self._kick()  # before any await: the caller may be cancelled by a notification
                await self._persist()
                await self._notify_all({"kind": "escape", "seat": seat})
            else:
                self._seat_to_computer(seat)
                await self._notify_all({"kind": "left", "seat": seat})
        self._kick()

    def stand_up(self, seat: int) -> None:
        """Between hands only (the ``balances`` callback of a deal may call it): a computer plays ``seat``
        from now on, without an escape. The bot stands up a player whose balance fell below the table's
        minimum (RULES A10)."""
        if self.hand_running:
            raise TableError("a player is stood up between hands only")
        if not self.seats[seat].is_computer:
            self._seat_to_computer(seat)

    # ------------------------------------------------------------------ views
    def _limit(self, phase: str) -> float:
        c, rs = self.config, self._ruleset()
        if phase == "turn":
            return c.turn_seconds if c.turn_seconds is not None else rs.turn_seconds
        if phase == "contract":
            return c.contract_seconds if c.contract_seconds is not None else rs.contract_decision_seconds
        return c.claim_window if c.claim_window is not None else rs.claim_window_seconds

    def _seats_decorated(self, seats: Sequence[dict]) -> list[dict]:
        """The views' seat parts with the runner fields: new dicts (the game's are shared, never changed)."""
        out = []
        for i, sv in enumerate(seats):
            info = self.seats[i]
            out.append({**sv, "name": info.name, "is_computer": info.is_computer, "balance": self.balances[i],
                        "auto": info.auto or info.escaped, "autowin": info.autowin, "escaped": info.escaped,
                        "total": self.totals[i]})
        return out

    def _decorate(self, view: dict, viewer: int | None, done: list | None = None) -> dict:
        """Add the runner fields to a view of the hand. ``done`` ([source seats, decorated seats], shared by
        the views of one notification) decorates the game's shared seat list once for all of them."""
        src = view.get("seats")
        if src is None:
            pass
        elif done and done[0] is src:
            view["seats"] = done[1]
        else:
            view["seats"] = self._seats_decorated(src)
            if done is not None:
                done[:] = [src, view["seats"]]
        hand = self.hand
        live = hand is not None and hand.phase != "ended"
        if viewer is None:
            # The public sees the turn and contract clocks while a person is awaited, and a claim window's
            # nominal clock (from the discard) whoever may claim: it tells no more than the phase does.
            public_clock = live and (hand.phase in OFFER_PHASES
                                     or (hand.phase in ("turn", "contract") and self._humans_pending()))
            view["deadline"] = self._deadline if public_clock else None
        else:
            view["deadline"] = self.seat_deadline(viewer) if live and viewer in hand.pending() else None
        view["table_id"] = self.config.table_id
        if viewer is not None:  # for offer_delivered; the public needs no step count
            view["step"] = self._step_no
        return view

    def view(self, seat: int) -> dict | None:
        """The current seat view with the runner fields (None between hands, and after a reseat until
        the next deal)."""
        if self.hand is None or self._reseated:
            return None
        return self._decorate(self.hand.view(seat), seat)

    def public_view(self) -> dict | None:
        if self.hand is None or self._reseated:
            return None
        return self._decorate(self.hand.public_view(), None)

    def seat_deadline(self, seat: int) -> float | None:
        """When ``seat``'s time runs out in the current step. An offer not yet delivered shows the full
        window from now (its clock starts on delivery, so the player never has less than shown)."""
        if seat in self._undelivered:  # never later than the fallback end of an offer that does not arrive
            return min(self.clock.now() + self._limit(self.hand.phase if self.hand is not None else "claim"),
                       self._seat_deadline[seat])
        return self._seat_deadline.get(seat, self._deadline)  # type: ignore[return-value]

    @property
    def step(self) -> int:
        """The number of the current step (a new one after every move that changes whose answer is awaited)."""
        return self._step_no

    def offer_delivered(self, seat: int, step: int) -> bool:
        """The seat's interface reports that the offer of ``step`` is in front of the player (Discord
        accepted the edit): the seat's claim window counts from now. Returns True when this started it.
        Synchronous, so the check and the change happen with no await between them."""
        if step != self._step_no or seat not in self._undelivered:
            return False
        self._undelivered.discard(seat)
        self._seat_deadline[seat] = self.clock.now() + self._limit(self.hand.phase)
        self._kick()
        return True

    def offer_pending(self, seat: int) -> bool:
        """``seat`` has an offer of the current step whose delivery is not confirmed yet."""
        return seat in self._undelivered

    def _confirms_delivery(self, seat: int) -> bool:
        iface = self.interfaces[seat]
        return iface is not None and bool(getattr(iface, "confirms_delivery", False))

    def _humans_pending(self) -> bool:
        hand = self.hand
        return any(not self._automated(s) for s in hand.pending())

    # ------------------------------------------------------------------ the loop
    async def run(self) -> list[dict]:
        """Play until the match is over (or paused). Returns the result views of finished hands."""
        self._idle.clear()
        try:
            resumed = self.hand_running
            if resumed:  # resumed or continued: the wallets may have changed meanwhile
                self.balances = list(await self._balances_fn(self.seats))
            while not self._pause:
                if self.hand is None or self._settled:
                    if self._match_over():
                        await self._finish_match()
                        break
                    if self.hand is not None and self.config.between_hands > 0:
                        await self._sleep_unless_paused(self.config.between_hands)
                        if self._pause:
                            break
                        if self._match_over():  # ended during the pause (the last player left)
                            continue
                    await self._deal()
                    continue
                if self.hand.phase == "ended":
                    await self._settle()
                    continue
                self._new_step()
                if resumed:
                    # the clocks run again (after a restart or a pause): every seat sees its countdown
                    resumed = False
                    await self._notify_all({"kind": "resume"})
                await self._play_hand()
        except Exception as exc:
            self._error = exc
            log.exception("table %s stopped", self.config.table_id)
            raise
        finally:
            self._idle.set()
        return self.results

    def _match_over(self) -> bool:
        if self.config.max_hands is not None and self.hands_played >= self.config.max_hands:
            return True
        return bool(self.match.over)

    async def _sleep_unless_paused(self, seconds: float) -> None:
        self._wake.clear()
        self._idle.set()
        try:
            await self._wait(seconds)
        finally:
            self._idle.clear()

    async def _deal(self) -> None:
        async with self._lock:
            self.balances = list(await self._balances_fn(self.seats))
            hand = self.match.next_hand()
            self.hand = hand
            self._settled = False
            self._reseated = False
            self._persisted = 0
            for info in self.seats:
                info.escaped = False
                info.timeouts = 0
            hid = _hand_id(hand)
            pv = hand.public_view()
            await self.sink.hand_started(hid, {
                "table_id": self.config.table_id,
                "ruleset": self.config.ruleset,
                "hand_number": pv.get("hand_number"),
                "commitment": pv.get("commitment"),
                "seats": [{"name": s.name, "user_id": s.user_id, "is_computer": s.is_computer} for s in self.seats],
            })
            await self._persist()
            await self.sink.table_state(self.config.table_id, self.state())
            self._new_step()
            await self._notify_all({"kind": "hand_start", "hand_id": hid})

    def _new_step(self) -> None:
        now = self.clock.now()
        self._step_no += 1
        self._step_start = now
        phase = self.hand.phase if self.hand is not None else "turn"
        self._deadline = now + self._limit(phase) if phase != "ended" else None
        self._seat_deadline = {}
        self._undelivered = set()
        if phase in OFFER_PHASES and self._deadline is not None:
            for s in self.hand.pending():
                if not self._automated(s) and self._confirms_delivery(s):
                    self._undelivered.add(s)
                    self._seat_deadline[s] = self._deadline + OFFER_GRACE

    def _automated(self, seat: int) -> bool:
        info = self.seats[seat]
        return info.is_computer or info.auto or info.escaped

    def _win_action(self, seat: int) -> Action | None:
        for a in self.hand.legal_actions(seat):
            if a.type in WIN_TYPES:
                return a
        return None

    async def _play_hand(self) -> None:
        hand = self.hand
        while hand.phase != "ended" and not self._pause:
            if self._error is not None:
                raise TableError(str(self._error))
            self._wake.clear()
            pending = sorted(hand.pending())
            if not pending:
                raise TableError(f"hand {_hand_id(hand)} waits for nobody in phase {hand.phase}")
            now = self.clock.now()
            auto_due = self._step_start + self.config.computer_delay
            automated = [s for s in pending if self._automated(s)
                         or (self.seats[s].autowin and self._win_action(s) is not None)]
            humans = [s for s in pending if s not in automated]
            if automated and now >= auto_due:
                seat = automated[0]
                async with self._lock:
                    if hand is self.hand and seat in hand.pending():
                        await self._apply(seat, self._auto_action(seat), note_kind="auto_action")
                await asyncio.sleep(0)  # let other tables run between computer moves
                continue
            due = {s: self._due(s) for s in humans}
            late = [s for s in humans if now >= due[s]]
            if late:
                async with self._lock:
                    step = self._step_no
                    for seat in late:
                        if self._step_no != step or hand is not self.hand or hand.phase == "ended":
                            break  # a new step began: its seats get a fresh clock
                        if seat in hand.pending():
                            await self._timeout(seat)
                continue
            wake_at = min(min(due.values(), default=math.inf), auto_due if automated else math.inf)
            self._idle.set()
            try:
                await self._wait(wake_at - now)
            finally:
                self._idle.clear()

    def _due(self, seat: int) -> float:
        """When the runner times ``seat`` out: its deadline (plus LATE_GRACE for a delivered offer)."""
        if seat in self._seat_deadline:
            return self._seat_deadline[seat] + (0.0 if seat in self._undelivered else LATE_GRACE)
        return self._deadline if self._deadline is not None else math.inf

    async def _wait(self, timeout: float) -> None:
        if self._wake.is_set():
            return
        waker = asyncio.ensure_future(self._wake.wait())
        if timeout == math.inf:
            try:
                await waker
            finally:
                waker.cancel()
            return
        sleeper = asyncio.ensure_future(self.clock.sleep(max(0.0, timeout)))
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            waker.cancel()

    def _player(self, seat: int) -> Any:
        p = self._players.get(seat)
        if p is None:
            from jxbot.ai import make_player

            info = self.seats[seat]
            level = info.level if info.is_computer else self.config.auto_level
            p = make_player(level, f"{self.config.seed}:{self.config.table_id}:{seat}")
            self._players[seat] = p
        return p

    def _player_view(self, seat: int) -> dict:
        """The seat view a computer player is asked with; an escaped seat's own entry says so (the
        player then answers a contract vote with 坚持, RULES A10). The game's seat dicts stay unchanged."""
        view = self.hand.view(seat)
        if self.seats[seat].escaped:
            seats = list(view["seats"])
            seats[seat] = {**seats[seat], "escaped": True}
            view["seats"] = seats
        return view

    def _auto_action(self, seat: int) -> Action:
        hand = self.hand
        legal = hand.legal_actions(seat)
        info = self.seats[seat]
        if info.autowin and not self._automated(seat):
            win = next((a for a in legal if a.type in WIN_TYPES), None)
            if win is not None:
                return win
        t0 = time.perf_counter()
        try:
            action = self._player(seat).choose(self._player_view(seat))
        except Exception:
            log.exception("computer player failed at table %s seat %d", self.config.table_id, seat)
            action = None
        self.decision_ms.append((time.perf_counter() - t0) * 1000.0)
        if action is None or action not in legal:
            if action is not None:
                log.error("computer player chose an illegal %s at table %s", action.type.value, self.config.table_id)
            action = hand.default_action(seat)
        return action

    def timeout_action(self, seat: int) -> Action:
        """What a timeout plays for ``seat`` now (RULES C, ``jxbot.game.timeout``): a winning self-draw
        is declared, else the drawn tile goes unless it is the 百搭/財神 (or there is none): then the
        computer player's choice. ``jxbot play`` uses it for Enter, so Enter plays what a timeout would."""
        return timeout_action(self.hand, seat, lambda: self._computer_choice(seat))

    def _computer_choice(self, seat: int) -> Action | None:
        try:
            return self._player(seat).choose(self._player_view(seat))
        except Exception:
            log.exception("computer player failed at table %s seat %d", self.config.table_id, seat)
            return None

    async def _timeout(self, seat: int) -> None:
        hand = self.hand
        phase = hand.phase
        action = self.timeout_action(seat)
        await self._apply(seat, action, note_kind="timeout")
        info = self.seats[seat]
        if phase == "turn":
            info.timeouts += 1
            if info.timeouts >= 2 and not info.auto:
                info.auto = True
                await self._notify_all({"kind": "auto", "seat": seat, "on": True, "reason": "timeouts"})

    async def _apply(self, seat: int, action: Action, *, note_kind: str, check: bool = False) -> str | None:
        """Apply an action (the caller holds the lock); persist, restart clocks, notify."""
        hand = self.hand
        before_phase, before_pending = hand.phase, hand.pending()
        try:
            hand.apply(action)
        except Exception as exc:
            code = getattr(exc, "code", None)
            if code is None:
                raise
            if check:
                return str(code)
            log.error("table %s: a computer's %s was rejected (%s); playing the default", self.config.table_id,
                      action.type.value, code)
            hand.apply(hand.default_action(seat))
        after_pending = hand.pending()
        same_window = (action.type in ANSWER_TYPES and hand.phase == before_phase
                       and hand.phase in ("claim", "rob", "contract") and after_pending < before_pending)
        if not same_window:
            self._new_step()
        self._kick()  # the loop re-evaluates even if this caller is cancelled during the awaits below
        await self._persist()
        await self._notify_all(self._note(note_kind, action))
        self._kick()
        return None

    @staticmethod
    def _note(kind: str, action: Action) -> dict:
        return {"kind": kind, "seat": action.seat, "type": action.type.value, "tile": action.tile}

    async def _persist(self) -> None:
        hand = self.hand
        events = hand.events
        hid = _hand_id(hand)
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

    async def _settle(self) -> None:
        async with self._lock:
            hand = self.hand
            hid = _hand_id(hand)
            self.balances = list(await self._balances_fn(self.seats))
            settlement = getattr(hand, "settlement", None)
            if settlement is None:
                settlement = hand.settle(self.balances, self.config.fee)
            await self._persist()
            result = self._decorate_result(hand.result_view(), settlement)
            await self.sink.settle(hid, settlement, result)
            rec = self.match.finish_hand(hand)
            self._settled = True
            self.hands_played += 1
            for i, d in enumerate(settlement.deltas):
                self.totals[i] += d
                self.balances[i] = result["payments"][i]["balance"]
            self.results.append(result)
            # everyone sees the result, the players who left this hand too (they were charged)
            targets = [s for s in self.interfaces if s is not None] + self.observers
            for i, info in enumerate(self.seats):
                info.escaped = False
                if info.left and not info.is_computer:
                    self._seat_to_computer(i)
            moves = rec.get("reseat") if isinstance(rec, dict) else None
            if moves:
                self._reseat(moves)
            await self.sink.table_state(self.config.table_id, self.state())
            self._deadline = None
            # the result is of the hand just played: it is told before anyone learns their new seat
            await self._gather([s.on_result(result) for s in targets])
            if moves:
                await self._tell_reseat(moves)

    def _reseat(self, moves: Sequence[int]) -> None:
        """RULES B11: the match redrew the seats after a 版; the player at seat ``i`` now sits at
        ``moves[i]``. Everything the runner keeps per seat moves with its player: the seat info (name,
        user id, auto / autowin flags), the human interface, the computer player, the match total and
        the balance. The views of the settled hand are no longer offered (they are by the old seats)."""
        if sorted(moves) != [0, 1, 2, 3]:
            raise TableError(f"a reseat must move each seat once, not {list(moves)}")

        def move(xs: list) -> list:
            out = list(xs)
            for old, new in enumerate(moves):
                out[new] = xs[old]
            return out

        self.seats = move(self.seats)
        self.interfaces = move(self.interfaces)
        self.totals = move(self.totals)
        self.balances = move(self.balances)
        self._players = {moves[old]: p for old, p in self._players.items()}
        self._reseated = True
        # in this same step (no await): whatever an observer keeps per seat (the Discord lobby's seats, panels,
        # buttons) moves too, so every save from now on carries the runner's and its seats together
        for o in self.observers:
            moved = getattr(o, "on_seats_moved", None)
            if moved is not None:
                moved(list(moves))
        log.info("table %s: players reseated %s", self.config.table_id, list(moves))

    async def _tell_reseat(self, moves: Sequence[int]) -> None:
        """Tell every human seat (already at its new place) and every observer about the reseat, through
        the optional ``on_reseat(info)`` of the Seat (see docs/table.md)."""
        back = {new: old for old, new in enumerate(moves)}
        coros = []
        for i, seat in enumerate(self.interfaces):
            if seat is not None and hasattr(seat, "on_reseat"):
                coros.append(seat.on_reseat({"kind": "reseat", "moves": list(moves), "seat": i, "old_seat": back[i],
                                             "names": [s.name for s in self.seats]}))
        for o in self.observers:
            if hasattr(o, "on_reseat"):
                coros.append(o.on_reseat({"kind": "reseat", "moves": list(moves), "seat": None, "old_seat": None,
                                          "names": [s.name for s in self.seats]}))
        await self._gather(coros)

    def seat_of_user(self, user_id: Any) -> int | None:
        """The seat a (human) player sits at now (players move after a caishen 版), or None."""
        for i, s in enumerate(self.seats):
            if user_id is not None and s.user_id == user_id and not s.is_computer:
                return i
        return None

    def _decorate_result(self, result: dict, settlement: Any) -> dict:
        payments = result.get("payments") or []
        by_seat = {p.get("seat"): p for p in payments}
        out = []
        for i in range(4):
            p = dict(by_seat.get(i, {"seat": i, "delta": settlement.deltas[i], "fee": 0}))
            p["name"] = self.seats[i].name
            p["is_computer"] = self.seats[i].is_computer
            if "balance" not in p:  # the game fills it from the balances the hand was settled with
                bal = self.balances[i]
                p["balance"] = None if bal is None else max(0, bal + settlement.deltas[i])
            p["total"] = self.totals[i] + settlement.deltas[i]
            out.append(p)
        result["payments"] = out
        result["table_id"] = self.config.table_id
        # the match's last hand (RULES A7: its cumulative 番 are dropped, never "carried over"); known
        # before the result is stored, so a replay of the hand says the same
        hand = self.hand
        max_hands = self.config.max_hands
        result["match_over"] = bool((max_hands is not None and self.hands_played + 1 >= max_hands)
                                    or (hand is not None and self.match.ends_with(hand)))
        return result

    def _seat_to_computer(self, seat: int) -> None:
        info = self.seats[seat]
        info.is_computer = True
        info.level = self.config.auto_level
        info.auto = info.escaped = False
        self.interfaces[seat] = None

    async def _finish_match(self) -> None:
        self.finished = True
        await self.sink.table_state(self.config.table_id, self.state())
        summary = {"table_id": self.config.table_id, "hands": self.hands_played, "totals": list(self.totals),
                   "names": [s.name for s in self.seats], "computers": [s.is_computer for s in self.seats]}
        targets = [s for s in self.interfaces if s is not None] + self.observers
        await self._gather([s.on_match_end(summary) for s in targets if hasattr(s, "on_match_end")])

    async def _notify_all(self, note: dict | None) -> None:
        if self.hand is None or self._reseated:
            return
        hand = self.hand
        coros = []
        done: list = []  # the decorated seats, shared by these views (the game shares its seat list)
        for i, seat in enumerate(self.interfaces):
            if seat is not None:
                coros.append(seat.notify(self._decorate(hand.view(i), i, done), self._note_for(note, i)))
        if self.observers:
            pnote = self._note_for(note, None)
            coros.extend(o.notify(self._decorate(hand.public_view(), None, done), pnote) for o in self.observers)
        await self._gather(coros)

    @staticmethod
    def _note_for(note: dict | None, viewer: int | None) -> dict | None:
        if not note or note.get("seat") == viewer:
            return note
        # A pass (answered or timed out) is told to its seat only: it would show that the seat could
        # claim. A concealed kong's kind is shown to its owner only.
        if note.get("type") == ActionType.PASS.value:
            return None
        if note.get("type") == ActionType.CONCEALED_KONG.value:
            return {**note, "tile": None}
        return note

    async def _gather(self, coros: list) -> None:
        if not coros:
            return
        for r in await asyncio.gather(*coros, return_exceptions=True):
            if isinstance(r, Exception):
                log.error("table %s: a seat failed to take an update: %r", self.config.table_id, r)

    # ------------------------------------------------------------------ figures
    def decision_stats(self) -> dict:
        xs = sorted(self.decision_ms)
        if not xs:
            return {"decisions": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}
        def q(p: float) -> float:
            return round(xs[min(len(xs) - 1, int(p * len(xs)))], 3)
        return {"decisions": len(xs), "p50_ms": q(0.5), "p99_ms": q(0.99), "max_ms": round(xs[-1], 3)}
