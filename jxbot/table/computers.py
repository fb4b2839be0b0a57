"""The computer seats of a runner: a computer player per seat (and for seats on auto-play), its timed
decisions, what a timeout plays, and the decision-time figures."""

from __future__ import annotations

import logging
import time
from typing import Any

from jxbot.game.actions import Action, ActionType
from jxbot.game.timeout import timeout_action

from .views import RunnerViews

log = logging.getLogger("jxbot.table")

WIN_TYPES = frozenset({ActionType.HU, ActionType.TSUMO})
SLOW_LEVELS = frozenset({"expert"})  # answered in a worker process (jxbot.ai.offload), never on the loop


class RunnerComputers(RunnerViews):
    """The computer players' side of the runner."""

    def _player(self, seat: int) -> Any:
        p = self._players.get(seat)
        if p is None:
            from jxbot.ai import make_player

            info = self.seats[seat]
            level = info.level if info.is_computer else self.config.auto_level
            if not info.is_computer and level in SLOW_LEVELS:
                level = "hard"  # a human's seat on auto-play (and its timeouts) answers at once
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

    def _win_action(self, seat: int) -> Action | None:
        for a in self.hand.legal_actions(seat):
            if a.type in WIN_TYPES:
                return a
        return None

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

    def _slow(self, seat: int) -> bool:
        """Is ``seat`` a computer whose decisions are computed in the worker process (the expert)?"""
        info = self.seats[seat]
        return bool(getattr(self._player(seat), "slow", False)) and not (
            info.autowin and not self._automated(seat) and self._win_action(seat) is not None)

    async def _offloaded_action(self, seat: int) -> tuple[Action, Any] | None:
        """The slow player's answer computed in the worker process (the caller holds no lock and checks
        the step again before applying it): (action, the player after it), or None when it failed."""
        from jxbot.ai.offload import choose_async

        t0 = time.perf_counter()
        try:
            action, player = await choose_async(self._player(seat), self._player_view(seat))
        except Exception:
            log.exception("computer player failed at table %s seat %d", self.config.table_id, seat)
            return None
        self.decision_ms.append((time.perf_counter() - t0) * 1000.0)
        return action, player

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

    def decision_stats(self) -> dict:
        xs = sorted(self.decision_ms)
        if not xs:
            return {"decisions": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}
        def q(p: float) -> float:
            return round(xs[min(len(xs) - 1, int(p * len(xs)))], 3)
        return {"decisions": len(xs), "p50_ms": q(0.5), "p99_ms": q(0.99), "max_ms": round(xs[-1], 3)}
