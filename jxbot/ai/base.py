"""The computer players' base class and the registry of levels.

A player is asked ``choose(view)`` with its seat view (docs/views.md); ``view["actions"]`` lists the
legal actions as JSON and the answer is always one of them. Each level's module registers its class
here (``register``) when it is imported; ``jxbot.ai`` (the package) imports every level's module, so the
registry is complete as soon as any part of ``jxbot.ai`` is imported. A level's module imports what it
builds on, never the other way round (``players`` knows nothing of ``hard``).
"""

from __future__ import annotations

import hashlib
import random
from typing import TypeVar

from ..game.actions import Action, action_from_json
from .evaluate import TARGET_NAMES
from .seatview import PERSIST, Table


def _seed_int(seed: int | str, salt: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{salt}:{seed}".encode()).digest()[:8], "big")


class ComputerPlayer:
    """Base class: dispatches on the kind of decision the view asks for."""

    level = "base"

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._rng = random.Random(_seed_int(seed, self.level))
        self._hand_id: object = None
        self.target: int | None = None

    def _new_hand(self, view: dict) -> None:
        hid = view.get("hand_id")
        if hid != self._hand_id:
            self._hand_id = hid
            self.target = None

    def choose(self, view: dict) -> Action:
        actions = view.get("actions") or []
        if not actions:
            raise ValueError("choose() called with a view that has no legal actions")
        self._new_hand(view)
        if len(actions) == 1:
            return action_from_json(actions[0])
        if view["seats"][view["viewer"]].get("escaped"):
            # RULES A10: an escaped seat always persists (坚持), so an escape never lowers what it owes
            persist = next((a for a in actions if a["type"] == PERSIST), None)
            if persist is not None:
                return action_from_json(persist)
        tb = Table(view)
        a = self._decide(tb)
        return action_from_json(a)

    def _decide(self, tb: Table) -> dict:  # pragma: no cover - overridden
        raise NotImplementedError

    @property
    def target_name(self) -> str | None:
        return None if self.target is None else TARGET_NAMES[self.target]


_CLASSES: dict[str, type[ComputerPlayer]] = {}
P = TypeVar("P", bound=type[ComputerPlayer])


def register(cls: P) -> P:
    """Register a player class under its ``level`` (a class decorator)."""
    _CLASSES[cls.level] = cls
    return cls


def levels() -> tuple[str, ...]:
    """The registered levels, in the order they were registered (weakest first)."""
    return tuple(_CLASSES)


def make_player(level: str, seed: int | str) -> ComputerPlayer:
    """A computer player of ``level`` ("easy" | "normal" | "hard" | "expert"), deterministic given ``seed``."""
    cls = _CLASSES.get(level)
    if cls is None:
        raise ValueError(f"unknown computer level {level!r}; known: {', '.join(_CLASSES)}")
    return cls(seed)
