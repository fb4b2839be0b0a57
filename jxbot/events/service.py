"""An event's life against the store: create, register, check in, start, each table's result recorded once,
the next round opened when a round's last table ends, the end (the secret revealed), cancel.

Tables are opened through ``opener(event, plan)`` (cogs/tournament.py turns a plan into an arranged table,
jxbot/shell/arranged.py); their results come back through :meth:`EventService.record`. One lock per event
serializes a record, a start and a cancel in this process; across processes sharing the store (a global event,
its tables run by whichever process opened them) every change of status or round is a compare-and-set in the
store (``event_advance``: at the round and status read, or nothing), so two tables ending together — in one
process or two — open the next round once and announce the end once: the loser of the compare opens and says
nothing. A result recorded twice (a restart between the record and its delivery mark) is written once
(``event_tables`` is keyed by event, round and table) and opens nothing twice (an arranged table's key opens one
table).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from jxbot.events import fairness
from jxbot.events.model import EventConfig, Player, TableRecord
from jxbot.events.rounds import TablePlan, fillers, plan_round
from jxbot.events.scoring import Standing, standings


class EventError(Exception):
    """``code``: not_found, not_open, already_joined, not_joined, too_few, not_running, started (a start of a
    running event), ended, cancelled, playing (a check-in of a player already seated in person), checkin_closed
    (``at``: when check-in opens), last_round (a substituted player checking in during the last round)."""

    def __init__(self, code: str, at: float | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.at = at


class _Again(Exception):
    """The start's compare-and-set lost to a registration: read again."""


@dataclass
class Event:
    event_id: str
    guild_id: int
    channel_id: int
    name: str
    status: str
    config: EventConfig
    state: dict[str, Any]

    @property
    def commitment(self) -> str:
        return str(self.state.get("commitment", ""))

    @property
    def round(self) -> int:
        return int(self.state.get("round", 0))

    def players(self) -> list[Player]:
        return [Player.from_json(p) for p in self.state.get("players", [])]

    def plans(self, round_no: int) -> list[TablePlan]:
        return [TablePlan(**p) for p in self.state.get("plans", {}).get(str(round_no), [])]

    def substitutes(self, round_no: int) -> set[int]:
        """The people whose seats a computer plays in round ``round_no``: those not checked in at the start
        (``absent``: the event substitutes) or whose waiting limit passed, except from the round they came back
        for (``returned``: a late check-in, from the round after the one it was made in)."""
        back = {int(u): int(r) for u, r in (self.state.get("returned") or {}).items()}
        return {int(u) for u in self.state.get("absent") or [] if back.get(int(u), round_no + 1) > round_no}

    def back_from(self, user_id: int) -> int | None:
        """The round from which a substituted player who checked in late plays in person (None: not one)."""
        r = (self.state.get("returned") or {}).get(str(user_id))
        return None if r is None else int(r)

    def public_state(self) -> dict[str, Any]:
        """The state without the secret (until the event ends)."""
        out = {k: v for k, v in self.state.items() if k != "secret"}
        if self.status == "ended":
            out["secret"] = self.state.get("secret")
        return out


Opener = Callable[[Event, TablePlan], Awaitable[None]]
Notify = Callable[[Event, str], Awaitable[None]]  # (event, what): "round_started", "ended"


def _not_open(ev: Event) -> EventError:
    """Why ``ev`` (read not open) refuses a start or a check-in: it runs, ended or was cancelled."""
    return EventError({"running": "started", "ended": "ended", "cancelled": "cancelled"}.get(ev.status, "not_open"))


def meant_event(live: list[dict[str, Any]], regs: dict[str, dict[str, Any] | None], user_id: int, verb: str,
                now: float) -> str | None:
    """The event a ``/tournament checkin`` or ``leave`` typed without an id means, of a server's live events
    (``live``: the store's rows, oldest first; ``regs``: the presser's registration in each, if any). ``leave``:
    the newest open one they are registered in (a running one cannot be left). ``checkin``: the newest one where
    it does something now — first a running one whose tables wait for them or where a computer plays for them
    (their return: its round is on), then an open one not checked in to whose check-in is open —, else the newest
    registered in and not checked in to, else the newest registered in. None: none of theirs."""
    mine = [r for r in reversed(live) if regs.get(str(r["event_id"]))]
    if verb == "leave":
        return next((str(r["event_id"]) for r in mine if r["status"] == "open"), None)

    def back(r: dict[str, Any]) -> bool:  # a running event waits for them, or takes them back from a computer
        state = r.get("state") or {}
        return r["status"] == "running" and (user_id in (state.get("waiting") or []) or (
            user_id in (state.get("absent") or []) and str(user_id) not in (state.get("returned") or {})))

    def due(r: dict[str, Any]) -> bool:  # an open event's check-in, open now and not made
        opens = (r.get("config") or {}).get("checkin_opens")
        return r["status"] == "open" and unchecked(r) and (opens is None or now >= opens)

    def unchecked(r: dict[str, Any]) -> bool:
        return not (regs[str(r["event_id"])] or {}).get("checked_in")

    for pick in (back, due, unchecked, lambda r: True):
        found = next((str(r["event_id"]) for r in mine if pick(r)), None)
        if found is not None:
            return found
    return None


def table_key(event_id: str, round_no: int, table_no: int) -> str:
    return f"ev:{event_id}/r{round_no}/t{table_no}"


class EventService:
    def __init__(self, store: Any, opener: Opener, notify: Notify | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.opener = opener
        self.notify = notify
        self.clock = clock
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, event_id: str) -> asyncio.Lock:
        lk = self._locks.get(event_id)
        if lk is None:
            lk = self._locks[event_id] = asyncio.Lock()
        return lk

    async def get(self, event_id: str) -> Event:
        row = await self.store.event_get(event_id)
        if row is None:
            raise EventError("not_found")
        return Event(row["event_id"], row["guild_id"], row["channel_id"], row["name"], row["status"],
                     EventConfig.from_json(row["config"]), row["state"])

    async def create(self, guild_id: int, channel_id: int, config: EventConfig) -> Event:
        """A new event, open for registration; its walls' secret drawn now and its commitment published."""
        event_id = secrets.token_hex(4)
        secret = fairness.new_secret()
        state = {"secret": secret, "commitment": fairness.commitment(secret), "round": 0, "players": [],
                 "plans": {}}
        await self.store.event_create(event_id, guild_id, channel_id, config.name, config.to_json(), state)
        return await self.get(event_id)

    async def join(self, event_id: str, user_id: int, name: str) -> Event:
        ev = await self.get(event_id)
        if ev.status != "open":
            raise _not_open(ev)
        if not await self.store.event_join(event_id, user_id, name):  # (or started meanwhile: another process)
            if (now := await self.get(event_id)).status != "open":
                raise _not_open(now)
            raise EventError("already_joined")
        if ev.config.checkin_minutes <= 0:  # no check-in window: registering is checking in
            await self.store.event_check_in(event_id, user_id)
        return ev

    async def leave(self, event_id: str, user_id: int) -> Event:
        ev = await self.get(event_id)
        if ev.status != "open":
            raise _not_open(ev)
        if not await self.store.event_leave(event_id, user_id):
            if (now := await self.get(event_id)).status != "open":
                raise _not_open(now)
            raise EventError("not_joined")
        return ev

    async def check_in(self, event_id: str, user_id: int) -> Event:
        """Check in; once the event runs, a player its tables wait for (no substitute) checks in late and the
        tables of the current round that waited only for them open; a player a computer plays for (substituted
        at the start, or their waiting limit passed) checks in to play from the next round on (:meth:`come_back`)."""
        ready: list[TablePlan] = []

        def drop(state: dict[str, Any]) -> dict[str, Any] | None:  # under the event's row lock (another process)
            w = list(state.get("waiting") or [])
            return {"waiting": [u for u in w if u != user_id]} if user_id in w else None

        async with self.lock(event_id):
            ev = await self.get(event_id)
            waiting = list(ev.state.get("waiting") or [])
            if ev.status == "running" and user_id in waiting:
                await self.store.event_check_in(event_id, user_id)
                await self.store.event_advance(event_id, None, "running", None, drop)
                ev = await self.get(event_id)
                waiting = list(ev.state.get("waiting") or [])
                ready = [p for p in ev.plans(ev.round) if user_id in p.players and not set(p.players) & set(waiting)]
            elif ev.status == "running" and user_id in (ev.state.get("absent") or []):
                return await self._come_back(ev, user_id)
            elif ev.status == "running":  # seated in person already, or never registered
                raise EventError("playing" if user_id in {p.pid for p in ev.players()} else "not_joined")
            elif ev.status != "open":
                raise _not_open(ev)
            elif (opens := ev.config.checkin_opens) is not None and self.clock() < opens:
                raise EventError("checkin_closed", at=opens)
            elif not await self.store.event_check_in(event_id, user_id):
                raise EventError("not_joined")
        for plan in ready:
            await self.opener(ev, plan)
        return ev

    async def _come_back(self, ev: Event, user_id: int) -> Event:
        """A substituted player checks in while the event runs: from the next round on they sit in person (the
        computer finishes the current round for them; every result it earned stays theirs). Stored as
        ``returned[user] = round read + 1`` under the event row's lock: the next round's tables are opened from
        the state read after its advance's compare-and-set, which comes after this (it saw the round before the
        advance), so that round seats them; a check-in after the advance is for the round after. Raises
        ``last_round`` when no round is left to come back for; a second check-in changes nothing."""
        why: dict[str, str] = {}
        rounds = ev.config.rounds

        def back(state: dict[str, Any]) -> dict[str, Any] | None:  # under the event's row lock
            returned = dict(state.get("returned") or {})
            nxt = int(state.get("round", 0)) + 1
            if user_id not in (state.get("absent") or []) or str(user_id) in returned:
                why["no"] = "again"
                return None
            if nxt > rounds:
                why["no"] = "last_round"
                return None
            returned[str(user_id)] = nxt
            return {"returned": returned}

        if not await self.store.event_advance(ev.event_id, None, "running", None, back):
            if why.get("no") == "last_round":
                raise EventError("last_round")
            if why.get("no") != "again":
                raise EventError("not_open")  # ended or cancelled meanwhile
        else:
            await self.store.event_check_in(ev.event_id, user_id)
        return await self.get(ev.event_id)

    @staticmethod
    def _can_open(ev: Event, plan: TablePlan) -> bool:
        """A table opens once none of its players is one it waits for."""
        return not set(plan.players) & set(ev.state.get("waiting") or [])

    async def start(self, event_id: str) -> Event:
        """Close registration and open round 1. Players not checked in: a computer plays their seats if the
        event says so (they stay in the field), else they are left out. Read again when a registration or
        check-in (another process) came between the read and the compare-and-set."""
        for _ in range(20):
            try:
                return await self._start(event_id)
            except _Again:
                continue
        raise EventError("not_open")

    async def people(self, ev: Event) -> list[int]:
        """The event's human players: its field once it started, else everyone registered (an event cancelled
        before its start has no field, and its players are still owed the news)."""
        if ev.state.get("players"):
            return [p.pid for p in ev.players() if not p.is_computer]
        return [int(r["user_id"]) for r in await self.store.event_players(ev.event_id)]

    async def start_due(self, event_id: str) -> Event | None:
        """A scheduled start whose time has come: the event starts — or, with nobody to play (nobody registered,
        or nobody checked in), it is cancelled and returned so (status "cancelled"): before, the start was tried
        again at every tick for ever, the event left open and nobody told. None: not due, or not open."""
        ev = await self.get(event_id)
        at = ev.config.start_at
        if ev.status != "open" or not at or self.clock() < at:
            return None
        try:
            return await self.start(event_id)
        except EventError as err:
            if err.code != "too_few":
                raise
        try:
            return await self.cancel(event_id)
        except EventError:
            return None  # ended or cancelled meanwhile

    async def _start(self, event_id: str) -> Event:
        async with self.lock(event_id):
            ev = await self.get(event_id)
            if ev.status != "open":
                raise _not_open(ev)
            regs = await self.store.event_players(event_id)
            field = [Player(int(r["user_id"]), r["name"], order=i) for i, r in enumerate(regs)]
            late = [int(r["user_id"]) for r in regs if not r["checked_in"]]
            opens = ev.config.checkin_opens
            if opens is not None and self.clock() < opens:
                late = []  # started before check-in opened: nobody had the chance, every registered player plays
            if len(late) == len(field):
                raise EventError("too_few")
            field += fillers(len(field), ev.config.level)
            ev.state["players"] = [p.to_json() for p in field]
            # not checked in: a computer plays their seats (substitute), or their table waits until they check in
            ev.state["absent"] = late if ev.config.substitute else []
            ev.state["waiting"] = [] if ev.config.substitute else late
            if ev.state["waiting"]:  # stored: the limit holds across restarts (expire_waits)
                ev.state["wait_until"] = self.clock() + 60 * max(0, ev.config.wait_minutes)
            plans = await self._plan(ev, 1)
            keys = ("players", "absent", "waiting", "round", "plans") + (("wait_until",) if ev.state["waiting"] else ())
            regs_read = [(int(r["user_id"]), bool(r["checked_in"])) for r in regs]
            if not await self.store.event_advance(event_id, 0, "open", "running", {k: ev.state[k] for k in keys},
                                                  registered=regs_read):
                if (now := await self.get(event_id)).status == "open":
                    raise _Again  # the registrations changed meanwhile
                raise _not_open(now)  # started (or cancelled) by another process meanwhile
            ev.status = "running"
        await self._open(ev, plans)
        return ev

    async def _plan(self, ev: Event, round_no: int) -> list[TablePlan]:
        """Round ``round_no``'s tables, set in ``ev.state`` (``round``, ``plans``); saved by the caller's
        compare-and-set."""
        records = [TableRecord.from_json(r["result"]) for r in await self.store.event_results(ev.event_id)]
        plans = plan_round(ev.players(), records, round_no, ev.config.format, ev.state["secret"])
        ev.state["round"] = round_no
        ev.state.setdefault("plans", {})[str(round_no)] = [vars(p) for p in plans]
        return plans

    async def _open(self, ev: Event, plans: list[TablePlan]) -> None:
        if self.notify is not None:
            await self.notify(ev, "round_started")
        for plan in plans:
            if self._can_open(ev, plan):
                await self.opener(ev, plan)

    async def reopen(self, event_id: str) -> None:
        """At start: the tables of a running event's current round are opened again (an arranged table's key
        opens one table, so those running or ended are found, not doubled)."""
        ev = await self.get(event_id)
        if ev.status == "running":
            await self._open_quietly(ev)

    async def _open_quietly(self, ev: Event) -> None:
        for plan in ev.plans(ev.round):
            if self._can_open(ev, plan):
                await self.opener(ev, plan)

    async def record(self, event_id: str, round_no: int, record: TableRecord) -> Event:
        """A table's result: written once; when it completes its round the next round opens (or the event
        ends, its secret revealed)."""
        nxt: list[TablePlan] = []
        async with self.lock(event_id):
            ev = await self.get(event_id)
            if ev.status not in ("running",):
                return ev
            await self.store.event_table_result(event_id, round_no, record.table_no, record.to_json())
            if round_no != ev.round:
                return ev
            done = {r["table_no"] for r in await self.store.event_results(event_id) if r["round"] == round_no}
            if not {p.table_no for p in ev.plans(round_no)} <= done:
                return ev
            # the round is complete: advance it unless another process (or an earlier delivery) already did
            if round_no >= ev.config.rounds:
                if not await self.store.event_advance(event_id, round_no, "running", "ended"):
                    return await self.get(event_id)
                ev.status = "ended"
                ended = True
            else:
                nxt = await self._plan(ev, round_no + 1)
                if not await self.store.event_advance(event_id, round_no, "running", "running",
                                                      {"round": round_no + 1, "plans": ev.state["plans"]}):
                    return await self.get(event_id)
                ev = await self.get(event_id)  # as saved: with a late check-in another process made meanwhile
                ended = False
        if ended:
            if self.notify is not None:
                await self.notify(ev, "ended")
        else:
            await self._open(ev, nxt)
        return ev

    async def checkin_reminder(self, event_id: str) -> list[int] | None:
        """Once check-in has opened: the registered players not checked in, to be reminded — once (the
        reminder is marked sent in the event's state before it is sent: at most one, even across a restart).
        None: nothing to send now."""
        async with self.lock(event_id):
            ev = await self.get(event_id)
            opens = ev.config.checkin_opens
            if ev.status != "open" or opens is None or self.clock() < opens or ev.state.get("checkin_reminded"):
                return None
            ev.state["checkin_reminded"] = True
            # a compare-and-set: of two processes, one reminds
            if not await self.store.event_advance(
                    event_id, None, "open", None, lambda st: None if st.get("checkin_reminded") else {"checkin_reminded": True}):
                return None
            if ev.config.start_at and self.clock() >= ev.config.start_at:
                return []  # the whole window passed while the bot was down: too late to remind, the start is due
            regs = await self.store.event_players(event_id)
        return [int(r["user_id"]) for r in regs if not r["checked_in"]]

    async def expire_waits(self, event_id: str) -> list[int]:
        """A waiting table's limit: once ``wait_until`` (stored at the start) has passed, the players the tables
        still wait for get a computer in their seats for the rest of the event, as if the event substituted,
        and the tables that waited open. Returns those players (empty: nothing to do)."""
        expired: list[int] = []

        def expire(state: dict[str, Any]) -> dict[str, Any] | None:  # under the event's row lock
            waiting = [int(u) for u in state.get("waiting") or []]
            if not waiting or state.get("wait_until") is None:
                return None
            expired[:] = waiting
            return {"absent": sorted(set(state.get("absent") or []) | set(waiting)), "waiting": [], "wait_until": None}

        async with self.lock(event_id):
            ev = await self.get(event_id)
            until = ev.state.get("wait_until")
            if ev.status != "running" or not ev.state.get("waiting") or until is None or self.clock() < float(until):
                return []
            # a compare-and-set on the round read, computed from the state under the row lock: of two processes
            # one expires the wait (the other opens nothing new), and a late check-in made meanwhile stands
            if not await self.store.event_advance(event_id, ev.round, "running", None, expire):
                return []
            ev = await self.get(event_id)
        await self._open_quietly(ev)  # keyed: the tables already open are found, not doubled
        return expired

    async def cancel(self, event_id: str) -> Event:
        async with self.lock(event_id):
            while True:  # at the round and status read, else read again (another process advanced it)
                ev = await self.get(event_id)
                if ev.status in ("ended", "cancelled"):
                    raise _not_open(ev)
                if await self.store.event_advance(event_id, ev.round, ev.status, "cancelled"):
                    break
            ev.status = "cancelled"
        return ev

    async def records(self, event_id: str) -> list[TableRecord]:
        return [TableRecord.from_json(r["result"]) for r in await self.store.event_results(event_id)]

    async def standings(self, event_id: str) -> tuple[Event, list[Standing]]:
        ev = await self.get(event_id)
        players = ev.players()
        if not players:  # not started: the registered players, no points yet
            regs = await self.store.event_players(event_id)
            players = [Player(int(r["user_id"]), r["name"], order=i) for i, r in enumerate(regs)]
        return ev, standings(players, await self.records(event_id), ev.config.format)


def record_from_result(result: dict[str, Any]) -> tuple[str, int, TableRecord]:
    """An arranged table's result (jxbot/shell/arranged.py) as (event id, round, table record): the players are
    the event's (the plan's pids, carried in the result's ``data``)."""
    data = result.get("data") or {}
    seats = sorted(result.get("seats") or [], key=lambda s: int(s["seat"]))
    totals = [int(s["total"]) for s in seats]
    return str(data["event"]), int(data["round"]), TableRecord(
        int(data["round"]), int(data["table"]), [int(p) for p in data["players"]], totals,
        [int(s["placement"]) for s in seats], [list(map(int, h)) for h in result.get("hand_deltas") or []],
        [str(h) for h in result.get("hand_ids") or []])
