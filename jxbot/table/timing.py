"""The runner's clocks: one step's turn limit or claim window, the per-seat deadlines of offers counted
from their delivery (RULES C), when a seat times out, and the loop's wait for input or a deadline."""

from __future__ import annotations

import asyncio
import math

from .state import RunnerState

# RULES C: a claim / rob window counts from when the offer is in front of the player. A seat whose
# interface confirms delivery (``confirms_delivery = True``, see :meth:`TableRunner.offer_delivered`) gets
# its window from that moment; until then its clock runs from the step start plus OFFER_GRACE (an offer
# that never arrives still ends). LATE_GRACE: a press sent just before the deadline is still taken.
OFFER_PHASES = ("claim", "rob")
OFFER_GRACE = 5.0
LATE_GRACE = 0.25


class RunnerClocks(RunnerState):
    """The clocks of the current step (a new step after every move that changes whose answer is awaited)."""

    def _limit(self, phase: str) -> float:
        c, rs = self.config, self._ruleset()
        if phase == "turn":
            return c.turn_seconds if c.turn_seconds is not None else rs.turn_seconds
        if phase == "contract":
            return c.contract_seconds if c.contract_seconds is not None else rs.contract_decision_seconds
        return c.claim_window if c.claim_window is not None else rs.claim_window_seconds

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

    async def _sleep_unless_paused(self, seconds: float) -> None:
        self._wake.clear()
        self._idle.set()
        try:
            await self._wait(seconds)
        finally:
            self._idle.clear()

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
