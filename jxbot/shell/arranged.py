"""Arranged tables: a table opened for a FIXED list of players with FIXED settings, whose final result is handed
to the code that arranged it — once, whatever restarts happen in between. Tournaments (jxbot/events,
cogs/tournament.py) and ranked play use it.

Interface (all a caller needs)::

    from jxbot.shell import arranged

    arranged.on_result("tournament", handler)        # once, at load: ``async handler(result: dict) -> None``
    spec = arranged.Spec(key="ev:ab12/r1/t2", kind="tournament", guild_id=g, channel_id=c,
                         seats=[arranged.Seat(user_id=111, name="alice"), arranged.Seat(None, "#1", level="hard"),
                                ...],                 # exactly four, in seat order (东 南 西 北)
                         ruleset="jiaxing", rounds=1, max_hands=None, stake=0,   # stake 0: points only
                         claim_window=5.0, secret="…", thread="Round 1 · Table 2", data={...})
    table_id = await arranged.open_table(bot, spec)  # opens it (or finds it: the same key opens one table)
    result = await arranged.wait_result(bot, spec.key)  # optional, in this process: the same dict

``Spec``
    ``key`` the caller's unique id for this table (its result comes back under it; opening the same key twice
    opens one table). ``kind`` picks the handler. ``seats``: a :class:`Seat` per seat; ``user_id=None`` is a
    computer at ``level``. ``stake`` > 0 plays for silver (held and settled as at any table, ``fee`` to the
    house); ``stake=0`` is points only: the hands are played at stake 1 and nobody's silver moves.
    ``secret``: the match's seed; every wall, dice and salt follows from it (two tables given the same secret
    deal the same walls in the same order — the duplicate format); None: a fresh secret one. ``thread``: open
    the table in a new public thread of ``channel_id`` with this name where the bot may, else in the channel
    itself (one table per channel). ``dm=True``: the table runs in its players' DMs, no channel shared
    (``channel_id`` and ``thread`` unused; jxbot/shell/dmtable.py: each player's DM carries the table
    message, the results and their panel; no spectators; the result's ``channel_id`` is then the table's key,
    no channel, and ``dm`` is true). ``max_hands`` ends the match after that many hands. ``data`` is handed back.
    A player already seated at another table when it opens is played by a computer (``absent`` in the result).
    Also: ``rounds`` (wind rounds; None: the ruleset's match), ``fee``, ``turn_seconds``, ``lang`` (the table's
    channel texts), ``level`` (the computer that takes a leaver's or an absent player's seat), ``duplicate``
    (the deal passes after every hand and no cumulative 番 is carried: hand ``n`` of two tables on one secret
    is the same deal, whatever happened before). The bot's own
    ``JXBOT_MAX_HANDS`` still caps every table. ``open_table`` raises :class:`ArrangedError`.

The result (a JSON dict)::

    {"key", "kind", "table_id", "channel_id", "dm", "hands", "hand_ids": [...], "data": {...},
     "seats": [{"seat", "user_id", "name", "is_computer", "level", "total", "placement", "left", "absent"}, ...],
     "hand_deltas": [[d0, d1, d2, d3], ...]}   # each hand's result by starting seat

    one row per starting seat (the player who sat there at the start, even if a caishen 版 moved them or
    they left and a computer finished for them: a leaver keeps the result). ``total``: silver won or lost
    (points-only: points at stake 1) over the match; ``placement`` 1–4 by total, ties broken by starting
    seat (东 first) — but 0 (:data:`NOT_PLACED`) for every seat of a table that finished no hand (stopped
    before its first hand ended): nobody played, so nobody is placed above anyone (seat order would rank 东
    first on every tie-break).

Exactly once: the result is written to the store (``arranged``: open → ended) in the step that ends the table,
before the table is closed; then the handler is awaited and the row marked delivered. A restart resumes the
table like any other (jxbot/shell/resume.py); results ended but not delivered are handed on at start, after
every table is resumed (:func:`deliver_pending`, run by the tables cog). A crash between a handler's return and
the mark calls it again with the same key: a handler records by key (jxbot/events writes one row per (event,
round, table) and ignores a second), so a result counts once. In this process a key is never handed on twice at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import discord

from jxbot.i18n import register, t
from jxbot.safety import md
from jxbot.seatnames import computer_key, display_name
from jxbot.shell.channels import is_private
from jxbot.shell.dmtable import channel_of, dm_key, open_dm_of
from jxbot.shell.lobby import LobbyError, Occupant, Table, TableConfig
from jxbot.shell.session import Session, StoreSink
from jxbot.shell.suspend import on_stop

log = logging.getLogger("jxbot.shell.arranged")

NOT_PLACED = 0  # a result's ``placement`` at a table that finished no hand

Handler = Callable[[dict[str, Any]], Awaitable[None]]

_HANDLERS: dict[str, Handler] = {}
_WAITERS: dict[str, list[asyncio.Future[dict[str, Any]]]] = {}
_DELIVERING: set[str] = set()

register({
    "arranged.opened": {"zh": "对局开始：{seats}", "en": "Table opened: {seats}"},
    "arranged.absent": {"zh": "（{name} 已在别的桌，由电脑代打）",
                        "en": "({name} is seated at another table: a computer plays for them)"},
    "arranged.absent_dm": {"zh": "为你安排的牌桌 {table} 已经开局，但你正坐在另一张牌桌上：这张桌的座位由电脑代你打。",
                           "en": "The table {table} arranged for you has begun, but you are seated at another "
                                 "table: a computer plays your seat there."},
})


class ArrangedError(Exception):
    """An arranged table cannot open: ``code`` (``no_tables`` — the tables cog is not loaded; ``table_exists``
    — a table runs in that channel and no thread could be opened)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Seat:
    user_id: int | None  # None: a computer
    name: str
    level: str = "normal"  # a computer's level (jxbot.ai levels)
    lang: str = "zh"


@dataclass(frozen=True)
class Spec:
    key: str
    kind: str
    guild_id: int
    channel_id: int
    seats: Sequence[Seat]
    ruleset: str = "jiaxing"
    rounds: int | None = None
    max_hands: int | None = None
    stake: int = 0
    fee: int = 0
    claim_window: float = 5.0
    turn_seconds: float = 20.0
    secret: str | None = None
    thread: str | None = None
    lang: str = "zh"
    level: str = "normal"  # who plays a seat whose player left or is absent
    data: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = False  # the deal passes every hand, no cumulative 番 carried (Match's ``duplicate``)
    dm: bool = False  # the table runs in its players' DMs (jxbot/shell/dmtable.py): channel_id and thread unused

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["seats"] = [asdict(s) for s in self.seats]
        d.pop("secret")  # the walls' seed never leaves the table's own state
        return d


def on_result(kind: str, handler: Handler) -> None:
    """``handler(result)`` is awaited with the result of every arranged table of ``kind`` (see the module)."""
    _HANDLERS[kind] = handler


async def wait_result(bot: Any, key: str) -> dict[str, Any]:
    """The result of the arranged table ``key`` once it ends (at once if it already has)."""
    store = bot.store
    if store is not None:
        row = await store.arranged_get(key)
        if row is not None and row["result"] is not None:
            return dict(row["result"])
    fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    _WAITERS.setdefault(key, []).append(fut)
    return await fut


def _host(bot: Any) -> Any:
    host = bot.get_cog("TablesCog")
    if host is None:
        raise ArrangedError("no_tables")
    return host


async def _where(bot: Any, spec: Spec) -> int:
    """The channel of the table: a new thread of ``spec.channel_id`` when asked and allowed, else the channel."""
    if not spec.thread:
        return spec.channel_id
    try:
        parent = bot.get_channel(spec.channel_id) or await bot.fetch_channel(spec.channel_id)
        if isinstance(parent, discord.TextChannel):
            th = await parent.create_thread(name=spec.thread[:100], type=discord.ChannelType.public_thread,
                                            auto_archive_duration=1440)
            return int(th.id)
    except discord.HTTPException as exc:
        log.info("no thread for arranged table %s (%s): it opens in the channel", spec.key, exc.status)
    return spec.channel_id


async def open_table(bot: Any, spec: Spec) -> str:
    """Open the arranged table ``spec`` (or find it: a key opens one table) and return its table id. See the
    module. Raises :class:`ArrangedError`."""
    if len(spec.seats) != 4:
        raise ValueError("an arranged table has four seats")
    host = _host(bot)
    manager = host.manager
    store = bot.store
    table_id = manager.new_id()
    if store is not None:
        table_id, status, new = await store.arranged_open(spec.key, spec.kind, table_id, spec.to_json())
        if not new:
            if status != "open":
                await deliver(bot, spec.key)
                return table_id
            if manager.get(table_id) is not None or table_id in manager.away:
                return table_id
            if getattr(bot, "shard_plan", None) is not None and any(
                    r.table_id == table_id for r in await store.running_tables()):
                return table_id  # several processes: it runs in another one (its lease; resumed where it lapses)
            # recorded but never started (a restart in between): it opens now under the same id
    if store is not None and spec.stake > 0 and hasattr(store, "ensure_player"):
        for s in spec.seats:  # their wallets: a player seated by an event may never have sat at a table here
            if s.user_id is not None:
                await store.ensure_player(s.user_id, s.name, s.lang)
                await store.grant_starting(spec.guild_id, s.user_id)
    channel_id = dm_key(table_id) if spec.dm else await _where(bot, spec)
    config = TableConfig(stake=max(1, spec.stake), ruleset=spec.ruleset, rounds=spec.rounds,
                         fee=spec.fee if spec.stake > 0 else 0, claim_window=spec.claim_window,
                         turn_seconds=spec.turn_seconds, level=spec.level,
                         private=spec.dm or is_private(bot.get_channel(spec.channel_id)))
    humans = [s.user_id for s in spec.seats if s.user_id is not None]
    table = Table(table_id, spec.guild_id, channel_id, humans[0] if humans else 0, config, lang=spec.lang,
                  dm=spec.dm)
    table.arranged = {"key": spec.key, "kind": spec.kind, "points_only": spec.stake <= 0,
                      "max_hands": spec.max_hands, "data": spec.data, "seats": [asdict(s) for s in spec.seats],
                      "absent": [], "duplicate": spec.duplicate}
    async with manager.lock(table.id):
        try:
            manager.check_channel(channel_id)
        except LobbyError as err:
            raise ArrangedError("table_exists") from err
        n = 0
        for i, s in enumerate(spec.seats):
            busy = False
            if s.user_id is not None:
                try:
                    manager.check_free(s.user_id)
                except LobbyError:
                    busy = True
                    table.arranged["absent"].append(i)
            if s.user_id is None or busy:
                n += 1
                table.seats[i] = Occupant(None, f"#{n}", is_computer=True, level=s.level if not busy else spec.level)
            else:
                table.seats[i] = Occupant(s.user_id, s.name, lang=s.lang)
        if spec.stake > 0 and store is not None and hasattr(store, "get_guild_settings"):
            gs = await store.get_guild_settings(spec.guild_id)
            table.hold = spec.stake * int(getattr(gs, "min_balance_multiplier", 10)) + config.fee
        table.state = "running"
        manager.add(table)  # the players' seats are reserved here
        session = ArrangedSession(bot, host, table)
        session.seed = spec.secret if spec.secret is not None else await host.table_seed()
        session.start()
        # saved with its runner's state (the secret's walls): a restart from here on resumes this very match. Before
        # it the store holds no row of the table, so the open record above reopens it (docs/table.md)
        await host.save(table)
    await _announce(bot, table, spec)
    return table.id


async def _announce(bot: Any, table: Table, spec: Spec) -> None:
    lang = table.lang
    parts = []
    for occ in table.seats:
        assert occ is not None
        parts.append(f"<@{occ.user_id}>" if not occ.is_computer
                     else md(display_name(computer_key(occ.name.lstrip("#"), occ.level), lang)))
    text = t("arranged.opened", lang, seats=" · ".join(parts))
    for i in (table.arranged or {}).get("absent", []):
        text += "\n" + t("arranged.absent", lang, name=md(spec.seats[i].name))
    users = [occ.user_id for occ in table.seats if occ is not None and occ.user_id is not None]
    try:
        await channel_of(bot, table).send(
            text, allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                           users=[discord.Object(u) for u in users]))
    except discord.HTTPException:
        log.warning("could not announce arranged table %s", table.id)
    for i in (table.arranged or {}).get("absent", []):  # named in the text above, but not pinged: told by DM
        seat = spec.seats[i]
        if seat.user_id is None:
            continue
        try:
            await (await open_dm_of(bot, seat.user_id)).send(t("arranged.absent_dm", seat.lang, table=table.id),
                                                              allowed_mentions=discord.AllowedMentions.none())
        except (discord.HTTPException, OSError) as exc:
            log.info("table %s: telling an absent player by DM failed (%s)", table.id,
                     getattr(exc, "status", type(exc).__name__))


class PointsSink(StoreSink):
    """A points-only table's sink: its hands are recorded (events, results, the fair-deal reveal) with no
    player's wallet behind any seat, so no silver moves. Who sat where is kept in the hand's result instead
    (``players``, by seat; None for a computer): without it a player was a stranger to his own hand — the
    review refused him, the replay drew every seat as a computer (jxbot/replay_store.py ``hand_players``)."""

    def __init__(self, store: Any, table: Any) -> None:
        super().__init__(store, table)
        self.players: dict[str, list[int | None]] = {}

    async def hand_started(self, hand_id: str, info: dict) -> None:
        info = dict(info)
        self.players[hand_id] = [None if s.get("is_computer") or s.get("user_id") is None else int(s["user_id"])
                                 for s in info.get("seats", ())]
        info["seats"] = [{**s, "user_id": None, "is_computer": True} for s in info.get("seats", ())]
        await super().hand_started(hand_id, info)

    async def settle(self, hand_id: str, settlement: Any, result_view: dict) -> None:
        players = self.players.pop(hand_id, None)
        if players is None:  # a hand resumed after a restart: the seats as they are now
            players = [o.user_id if o is not None and not o.is_computer else None for o in self.table.seats]
        await self.store.settle_hand(hand_id, self.table.guild_id, [None] * 4, settlement,
                                     {**result_view, "players": players})


class ArrangedSession(Session):
    """A session of an arranged table: the spec's seed and hand limit, points-only balances, and its result
    recorded and handed on when the match ends."""

    @property
    def spec(self) -> dict[str, Any]:
        assert self.table.arranged is not None
        return self.table.arranged

    def make_sink(self) -> Any:
        if self.spec.get("points_only") and self.bot.store is not None:
            return PointsSink(self.bot.store, self.table)
        return super().make_sink()

    def runner_config(self) -> Any:
        c = super().runner_config()
        mh = self.spec.get("max_hands")
        if mh is not None:
            c.max_hands = mh if c.max_hands is None else min(c.max_hands, mh)
        c.auto_level = self.table.config.level
        return c

    def fresh_runner_kw(self) -> dict[str, Any]:
        """A fresh runner's match: the secret's walls under a match id of this table's own (two tables of one
        secret deal the same walls, yet their hands have different ids)."""
        from jxbot.game import Match

        if self.seed is None:
            return {}
        c = self.runner_config()
        return {"match": Match(self.seed, ruleset=c.ruleset, rounds=c.rounds, stake=c.stake, fee=c.fee,
                               max_hands=c.max_hands, match_id=f"{self.table.id}",
                               duplicate=bool(self.spec.get("duplicate")))}

    async def balances(self, seats: Sequence[Any]) -> list[int | None]:
        if self.spec.get("points_only"):
            return [None] * len(seats)
        return await super().balances(seats)

    def result(self) -> dict[str, Any]:
        """The table's result (see the module), by starting seat."""
        runner = self.runner
        spec = self.spec
        seating = list(getattr(runner.match, "seating", [0, 1, 2, 3]))  # seating[seat] = starting seat
        totals = [0, 0, 0, 0]
        for seat, start in enumerate(seating):
            totals[start] = int(runner.totals[seat])
        left = []
        for s, seat in enumerate(spec["seats"]):
            now = self.table.seats[seating.index(s)]
            left.append(seat["user_id"] is not None and (now is None or now.user_id != seat["user_id"]))
        return table_result(self.table, spec, totals, left, int(runner.hands_played),
                            [str(r.get("hand_id")) for r in runner.match.results],
                            [_by_start(r) for r in runner.match.results])

    async def closed(self) -> None:
        key = self.spec["key"]
        result = self.result()
        store = self.bot.store
        if store is not None:
            await store.arranged_end(key, result)  # before the table closes: a restart finds one or the other
        await super().closed()
        await deliver(self.bot, key, result)


async def end_unfinished(bot: Any, table: Any, reason: str) -> bool:
    """An arranged table stopped before its match ended — suspended after an error (its runner died, or its
    resume failed) or stopped by ``/admin close``: its result so far (the hands it finished; none if it never
    got a runner) is recorded as ended, with ``stopped: reason``, and handed on, so that whatever waits for it
    (a tournament's round) goes on instead of waiting for a table that will never end. A later restart finds the
    result, not an open table to reopen. True if a result was handed on. Never raises."""
    spec = getattr(table, "arranged", None)
    if not spec or not spec.get("key"):
        return False
    key = str(spec["key"])
    try:
        store = bot.store
        if store is not None:
            row = await store.arranged_get(key)
            if row is not None and row["status"] == "ended":  # its own end came first: hand that one on
                return await deliver(bot, key)
        session = table.session
        result: dict[str, Any] | None = None
        if isinstance(session, ArrangedSession) and session.runner is not None:
            with contextlib.suppress(Exception):  # the runner may be what broke
                result = session.result()
        if result is None:  # it finished no hand: every seat 0
            result = table_result(table, spec, [0, 0, 0, 0], [False] * 4, 0, [], [])
        result["stopped"] = reason
        if store is not None:
            await store.arranged_end(key, result)
        return await deliver(bot, key, result)
    except Exception:
        log.exception("ending the stopped arranged table %s failed", getattr(table, "id", "?"))
        return False


def table_result(table: Any, spec: dict[str, Any], totals: list[int], left: list[bool], hands: int,
                 hand_ids: list[str], hand_deltas: list[list[int]]) -> dict[str, Any]:
    """An arranged table's result (see the module): by starting seat, placed by total (ties in seat order);
    a table that finished no hand places nobody (every seat :data:`NOT_PLACED`)."""
    order = sorted(range(4), key=lambda s: (-totals[s], s))
    place = {s: (i + 1 if hands > 0 else NOT_PLACED) for i, s in enumerate(order)}
    rows = [{"seat": s, "user_id": seat["user_id"], "name": seat["name"], "is_computer": seat["user_id"] is None,
             "level": seat.get("level", "normal"), "total": totals[s], "placement": place[s], "left": left[s],
             "absent": s in spec.get("absent", [])} for s, seat in enumerate(spec["seats"])]
    return {"key": spec["key"], "kind": spec["kind"], "table_id": table.id, "channel_id": table.channel_id,
            "dm": table.dm, "hands": hands, "hand_ids": hand_ids, "hand_deltas": hand_deltas,
            "data": spec.get("data") or {}, "seats": rows}


def _by_start(rec: dict[str, Any]) -> list[int]:
    """A hand's deltas by starting seat (a caishen 版 moves the players: its record holds the seating)."""
    seating = list(rec.get("seating") or [0, 1, 2, 3])
    out = [0, 0, 0, 0]
    for seat, d in enumerate(rec.get("deltas") or [0, 0, 0, 0]):
        out[seating[seat]] = int(d)
    return out


async def deliver(bot: Any, key: str, result: dict[str, Any] | None = None) -> bool:
    """Hand the result of ``key`` to its kind's handler if it is ended and not yet delivered. True if handed."""
    if key in _DELIVERING:
        return False
    _DELIVERING.add(key)  # checked and taken with no await between: one delivery at a time per key
    try:
        store = bot.store
        kind = None
        if store is not None:
            row = await store.arranged_get(key)
            if row is None or row["status"] != "ended":
                return False
            result, kind = row["result"], row["kind"]
        if result is None:
            return False
        kind = kind or result.get("kind")
        handler = _HANDLERS.get(str(kind))
        if handler is None:
            log.warning("no handler for arranged tables of kind %s: result %s kept for later", kind, key)
            return False
        await handler(dict(result))
        if store is not None:
            await store.arranged_delivered(key)
        for fut in _WAITERS.pop(key, []):
            if not fut.done():
                fut.set_result(dict(result))
        return True
    except Exception:
        log.exception("handing on the result of arranged table %s failed (tried again at the next start)", key)
        return False
    finally:
        _DELIVERING.discard(key)


async def deliver_pending(bot: Any) -> int:
    """At start, after the tables are resumed: every ended result not yet delivered is handed on. Returns how
    many."""
    store = bot.store
    if store is None or not hasattr(store, "arranged_pending"):
        return 0
    n = 0
    for row in await store.arranged_pending():
        n += await deliver(bot, row["key"])
    return n


on_stop(end_unfinished)  # suspend.py and /admin close call it through the hook (no import circle)
