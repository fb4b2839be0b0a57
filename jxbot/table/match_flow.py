"""Between hands: the deal, the settlement and its result, the reseat after a caishen 版 (RULES B11), seats of
players who left going to computers, and the end of the match."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .computers import RunnerComputers
from .state import TableError, hand_id

log = logging.getLogger("jxbot.table")


class RunnerMatchFlow(RunnerComputers):
    """A match's flow from hand to hand."""

    def _match_over(self) -> bool:
        if self.config.max_hands is not None and self.hands_played >= self.config.max_hands:
            return True
        return bool(self.match.over)

    @property
    def match_over(self) -> bool:
        """No further hand will be dealt (the match is over, or its hand limit is reached)."""
        return self._match_over()

    async def _deal(self) -> None:
        async with self._lock:
            if self.hand is None and self.hands_played == 0:
                # the match's first deal: its state (the seed every wall follows from) is stored before any hand
                # is, so a restart finds it whatever point the deal reached (docs/table.md, "Restart windows")
                await self.sink.table_state(self.config.table_id, self.state())
            self.balances = list(await self._balances_fn(self.seats))
            hand = self.match.next_hand()
            self.hand = hand
            self._settled = False
            self._reseated = False
            self._persisted = 0
            for info in self.seats:
                info.escaped = False
                info.timeouts = 0
            hid = hand_id(hand)
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

    async def _settle(self) -> None:
        async with self._lock:
            hand = self.hand
            hid = hand_id(hand)
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

    async def _finish_match(self) -> None:
        self.finished = True
        await self.sink.table_state(self.config.table_id, self.state())
        summary = {"table_id": self.config.table_id, "hands": self.hands_played, "totals": list(self.totals),
                   "names": [s.name for s in self.seats], "computers": [s.is_computer for s in self.seats]}
        targets = [s for s in self.interfaces if s is not None] + self.observers
        await self._gather([s.on_match_end(summary) for s in targets if hasattr(s, "on_match_end")])
