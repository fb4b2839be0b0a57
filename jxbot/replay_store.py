"""Reading a replay out of the store (the bot and the ``jxbot replay | export | verify`` commands share it)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

from jxbot.replay import Check, Replay, verify

# hand ids of the bot's matches: "<12 hex match id>-<hand number>"; in a button id (which allows
# [0-9a-z]{1,16}) the dash goes and the number is written in base 36
_HAND_ID_RE = re.compile(r"([0-9a-f]{12})-([1-9][0-9]{0,5})\Z")
_CODE_RE = re.compile(r"([0-9a-f]{12})([0-9a-z]{1,4})\Z")
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def hand_code(hand_id: str) -> str | None:
    """The hand id in button-id form, or None when it has no such form (then only commands reach it)."""
    m = _HAND_ID_RE.match(hand_id)
    if not m:
        return None
    n, out = int(m[2]), ""
    while True:
        n, r = divmod(n, 36)
        out = _B36[r] + out
        if n == 0:
            break
    return m[1] + out if len(out) <= 4 else None


def hand_from_code(code: str) -> str | None:
    m = _CODE_RE.match(code)
    if not m:
        return None
    n = int(m[2], 36)
    return f"{m[1]}-{n}" if n > 0 else None


def typed_text(text: str) -> str:
    """An id as a player typed or pasted it, with what a phone adds taken off: spaces, the backticks or quotes
    copied with the message's text."""
    return text.strip().strip("`'\"").strip()


def typed_hand_id(text: str) -> str:
    """The hand id a player typed or pasted: as the bot shows it (``c811af0a9799-1``) or in the buttons' form,
    whatever a phone did to it — a capital first letter, spaces, the backticks copied with the message's text."""
    raw = typed_text(text)
    low = raw.lower()
    return hand_from_code(low) or (low if hand_code(low) is not None else raw)


def players_of(seats: Any, result: dict | None) -> tuple[int | None, ...]:
    """Who sat at each seat: the hand's wallets (``seats``) and, where a seat has none, the player its result
    names (a points-only table records no wallet behind any seat, jxbot/shell/arranged.py ``PointsSink``)."""
    named = (result or {}).get("players") if isinstance(result, dict) else None
    out = list(seats)
    if isinstance(named, list) and len(named) == len(out):
        out = [s if s is not None else (int(p) if isinstance(p, int) and not isinstance(p, bool) else None)
               for s, p in zip(out, named, strict=True)]
    return tuple(out)


async def hand_players(store: Any, rec: Any) -> tuple[int | None, ...]:
    """:func:`players_of` a stored hand record (its result read when some seat has no wallet)."""
    seats = tuple(rec.seats)
    if all(s is not None for s in seats) or rec.status != "settled":
        return seats
    res = await store.hand_result(rec.hand_id)
    result = getattr(res, "result", None) if res is not None else None
    return players_of(seats, result if isinstance(result, dict) else None)


@dataclass
class StoredHand:
    record: Any  # HandRecord
    replay: Replay
    result: dict | None

    @property
    def seats(self) -> tuple[int | None, ...]:
        """The players by seat (:func:`players_of`): a wallet's owner, or the player a points-only hand names."""
        return players_of(self.record.seats, self.result)

    @property
    def reveal(self) -> dict | None:
        r = self.record.reveal
        if not isinstance(r, dict) and isinstance(self.result, dict):
            r = self.result.get("reveal")
        return r if isinstance(r, dict) else None


class ReplayUnavailable(Exception):
    """Why a hand cannot be replayed: ``code`` is "unknown", "running" or "elsewhere" (a duplicate event's hand
    whose wall another table of its round may still be playing: shown once the round is over)."""

    def __init__(self, code: str, hand_id: str) -> None:
        super().__init__(f"hand {hand_id}: {code}")
        self.code = code
        self.hand_id = hand_id


async def load_hand(store: Any, hand_id: str, *, allow_running: bool = False,
                    allow_elsewhere: bool = False) -> StoredHand:
    """The hand's replay with the names, computers and balances of its stored result.
    Raises :class:`ReplayUnavailable` for an unknown hand or (unless ``allow_running``) a running one, and a
    duplicate event's hand whose wall another table may still play ("elsewhere") unless ``allow_elsewhere`` (the
    review: its caller shows a player his own seat only, which he saw as he played it)."""
    rec = await store.get_hand(hand_id)
    if rec is None:
        raise ReplayUnavailable("unknown", hand_id)
    if rec.status != "settled" and not allow_running:
        raise ReplayUnavailable("running", hand_id)
    live = getattr(store, "hand_live", None)
    if live is not None and not allow_running and await live(hand_id):  # e.g. voided while its table runs
        raise ReplayUnavailable("running", hand_id)
    elsewhere = getattr(store, "hand_wall_in_play", None)
    if elsewhere is not None and not (allow_running or allow_elsewhere) and await elsewhere(hand_id):  # the same wall
        raise ReplayUnavailable("elsewhere", hand_id)
    events = await store.hand_events(hand_id)
    result: dict | None = None
    if rec.status == "settled":
        res = await store.hand_result(hand_id)
        result = getattr(res, "result", None) if res is not None else None
        if not isinstance(result, dict):
            result = None
    names: list[str | None] = [None] * 4
    computers = [uid is None for uid in players_of(rec.seats, result)]
    balances: list[int | None] = [None] * 4
    for p in (result or {}).get("payments") or []:
        s = p.get("seat")
        if isinstance(s, int) and 0 <= s < 4:
            names[s] = p.get("name")
            bal, delta = p.get("balance"), p.get("delta")
            if isinstance(bal, int) and isinstance(delta, int):
                balances[s] = bal - delta
    if any(n is None for n in names):
        for s, uid in enumerate(players_of(rec.seats, result)):
            if names[s] is None and uid is not None:
                player = await store.get_player(uid)
                names[s] = player.name if player is not None else None
    # folding the whole log takes a few ms: done in a worker thread, off the bot's event loop
    replay = await asyncio.to_thread(Replay, events, names=names, computers=computers, balances=balances,
                                     result=result)
    return StoredHand(rec, replay, result)


def verify_stored(hand: StoredHand) -> list[Check] | None:
    """The fair-deal checks of a settled hand (None before its reveal)."""
    reveal = hand.reveal
    if not reveal or "wall" not in reveal or "salt" not in reveal:
        return None
    return verify(reveal["wall"], str(reveal["salt"]), hand.record.commitment,
                  [e.to_json() for e in hand.replay.events])
