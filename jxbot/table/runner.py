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

from jxbot.game.actions import Action, ActionType, action_from_json

from .match_flow import RunnerMatchFlow
from .state import (
    ERR_BAD_ACTION,
    ERR_ESCAPED,
    ERR_NO_HAND,
    ERR_NOT_YOUR_SEAT,
    ERR_PAUSED,
    ERR_TABLE,
    TableError,
    hand_id,
)

log = logging.getLogger("jxbot.table")

# Answers inside a claim / rob / contract window: they do not restart the window's clock.
ANSWER_TYPES = frozenset({ActionType.PASS, ActionType.HU, ActionType.PUNG, ActionType.KONG, ActionType.CHOW,
                          ActionType.PERSIST, ActionType.GIVE_UP})


class TableRunner(RunnerMatchFlow):
    """Runs a match at one table. See docs/table.md.

    ``seats``: four :class:`SeatInfo`; ``interfaces``: for each seat a :class:`Seat` (humans) or None;
    ``observers``: seats that get the public view (the channel). ``balances(seats)`` is awaited before
    each deal and each settlement (None = house-backed computer seat). The constructor and the resume are
    :class:`~jxbot.table.state.RunnerState`'s: the runner is built in layers (docs/table.md).
    """

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

    async def _play_hand(self) -> None:
        hand = self.hand
        while hand.phase != "ended" and not self._pause:
            if self._error is not None:
                raise TableError(str(self._error))
            self._wake.clear()
            pending = sorted(hand.pending())
            if not pending:
                raise TableError(f"hand {hand_id(hand)} waits for nobody in phase {hand.phase}")
            now = self.clock.now()
            auto_due = self._step_start + self.config.computer_delay
            automated = [s for s in pending if self._automated(s)
                         or (self.seats[s].autowin and self._win_action(s) is not None)]
            humans = [s for s in pending if s not in automated]
            if automated and now >= auto_due:
                seat = automated[0]
                if self._slow(seat):  # the expert: computed in a worker, the loop free meanwhile
                    step = self._step_no
                    got = await self._offloaded_action(seat)
                    async with self._lock:  # check and apply with no await between
                        if hand is self.hand and not self._pause and self._step_no == step and seat in hand.pending():
                            action = got[0] if got is not None else None
                            if action is None or action not in hand.legal_actions(seat):
                                action = hand.default_action(seat)
                            elif got is not None:
                                self._players[seat] = got[1]
                            await self._apply(seat, action, note_kind="auto_action")
                    await asyncio.sleep(0)
                    continue
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
