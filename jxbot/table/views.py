"""What the runner tells: each seat its own view and the channel the public one, with the runner's fields
(names, balances, flags, deadlines), and the note of what just happened (a pass told to its seat only)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from jxbot.game.actions import Action, ActionType

from .timing import OFFER_PHASES, RunnerClocks

log = logging.getLogger("jxbot.table")


class RunnerViews(RunnerClocks):
    """The views and notes sent to the seats and observers."""

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

    @staticmethod
    def _note(kind: str, action: Action) -> dict:
        return {"kind": kind, "seat": action.seat, "type": action.type.value, "tile": action.tile}

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
