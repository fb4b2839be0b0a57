"""Tables before and around play, without Discord: who sits where, who owns the table, what a
seat's buttons are currently valid for. The cogs turn Discord interactions into calls here and
:class:`LobbyError` codes into localized messages (``bot.err.<code>``)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

TableState = Literal["lobby", "running", "ended"]
RESTART_NONCE_GAP = 1_000_000


class LobbyError(Exception):
    def __init__(self, code: str, **kw: Any) -> None:
        super().__init__(code)
        self.code = code
        self.kw = kw


@dataclass
class Occupant:
    user_id: int | None  # None for a computer player
    name: str
    is_computer: bool = False
    lang: str = "zh"
    dm_ok: bool | None = None  # None: not tried yet; False: DMs closed (50007)
    level: str = "normal"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Occupant:
        return cls(**d)


@dataclass
class TableConfig:
    stake: int = 5
    ruleset: str = "jiaxing"
    rounds: int | None = None  # None: the ruleset's match length (a caishen match is one 版: four rounds)
    fee: int = 1
    claim_window: float = 5.0
    turn_seconds: float = 20.0
    contract_seconds: float = 15.0
    level: str = "normal"  # computer players added without a level (jxbot.ai levels)
    ranked: str = ""  # a ranked match: its ladder's key (jxbot.ladder; docs/ranked.md); "" for a table of friends
    private: bool = False  # its channel is hidden from @everyone (or it runs in DMs): no web page shows it (docs/web.md)

    def __post_init__(self) -> None:
        if self.rounds is None:  # the ruleset object says how long its match is (RULES B11)
            from jxbot.table.seats import default_rounds

            self.rounds = default_rounds(self.ruleset)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Table:
    id: str
    guild_id: int
    channel_id: int
    owner_id: int
    config: TableConfig
    seats: list[Occupant | None] = field(default_factory=lambda: [None, None, None, None])
    state: TableState = "lobby"
    lang: str = "zh"
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    # seat -> (channel id, message id) of its DM panel
    panels: dict[int, tuple[int, int]] = field(default_factory=dict)
    # seat -> the user whose DM holds that panel: a panel is edited only for that user (bound to a person)
    panel_users: dict[int, int] = field(default_factory=dict)
    # seat -> nonce of the buttons currently shown to that seat; a press with another nonce is stale
    nonces: dict[int, int] = field(default_factory=dict)
    # seat -> the action set the nonce was issued for
    action_keys: dict[int, frozenset[str]] = field(default_factory=dict)
    # seat -> (action set, nonce) of the panel a restarted process found in the seat's DM (jxbot/shell/panel_nonce.py)
    restored: dict[int, tuple[frozenset[str], int]] = field(default_factory=dict)
    # seat -> the nonce a restart gave it, while the seat shows a restored one: the next nonce goes above it
    nonce_floor: dict[int, int] = field(default_factory=dict)
    session: Any = None  # the running game (jxbot.shell.session.Session)
    # silver held for each seated player while they sit (RULES A10): stake × multiplier + fee
    hold: int = 0
    # players who escaped the running hand: their hold stays until that hand is settled
    escapers: set[int] = field(default_factory=set)
    # an arranged table (jxbot/shell/arranged.py): its fixed players and settings, whom its result goes to
    arranged: dict[str, Any] | None = None
    # a table in its players' DMs (jxbot/shell/dmtable.py): ``channel_id`` is then a key that is no channel
    dm: bool = False
    # a DM table: user -> (their DM channel id, message id) of the table message in their DM (saved: a restart
    # edits these messages again instead of posting new ones)
    dm_messages: dict[int, tuple[int, int]] = field(default_factory=dict)
    # not saved: user -> ids of the panel messages (DM or ephemeral) this process sent that user at this table
    # (the current DM panel is also in ``panels``, which is saved); a seat's buttons are taken only there
    panel_messages: dict[int, set[int]] = field(default_factory=dict)
    # not saved: this table's table messages this process posted (their Show my hand button is taken)
    table_messages: set[int] = field(default_factory=set)
    # not saved (time.monotonic()): when this process opened or resumed the table, and when a lobby command
    # or button last acted on it (the idle-lobby timeout, jxbot/shell/admin_tables.py)
    opened: float = field(default_factory=time.monotonic)
    touched: float = field(default_factory=time.monotonic)

    # ---- seats
    def seat_of(self, user_id: int) -> int | None:
        for i, occ in enumerate(self.seats):
            if occ is not None and occ.user_id == user_id:
                return i
        return None

    @property
    def humans(self) -> list[tuple[int, Occupant]]:
        return [(i, o) for i, o in enumerate(self.seats) if o is not None and not o.is_computer]

    @property
    def filled(self) -> int:
        return sum(o is not None for o in self.seats)

    def _free_seat(self) -> int:
        for i, occ in enumerate(self.seats):
            if occ is None:
                return i
        raise LobbyError("table_full")

    def join(self, user_id: int, name: str, lang: str = "zh") -> int:
        if self.state != "lobby":
            raise LobbyError("running")
        if self.seat_of(user_id) is not None:
            raise LobbyError("already_seated")
        seat = self._free_seat()
        self.seats[seat] = Occupant(user_id, name, lang=lang)
        return seat

    def leave(self, user_id: int) -> int:
        """Leave the lobby. (Leaving a running table is an escape: the play cog handles it.)"""
        seat = self.seat_of(user_id)
        if seat is None:
            raise LobbyError("not_seated")
        if self.state == "running":
            raise LobbyError("running")
        self.seats[seat] = None
        if user_id == self.owner_id:
            humans = self.humans
            if humans:
                self.owner_id = humans[0][1].user_id or self.owner_id
        return seat

    def add_computer(self, by_user: int, level: str | None = None) -> int:
        if by_user != self.owner_id:
            raise LobbyError("not_owner")
        if self.state != "lobby":
            raise LobbyError("running")
        seat = self._free_seat()
        n = sum(1 for o in self.seats if o is not None and o.is_computer) + 1
        self.seats[seat] = Occupant(None, f"#{n}", is_computer=True, level=level or self.config.level)
        return seat

    def kickable(self, by_user: int, user_id: int) -> int:
        """The seat ``by_user`` may kick ``user_id`` from (the owner, in the lobby, not themselves), or LobbyError."""
        if by_user != self.owner_id:
            raise LobbyError("not_owner")
        if self.state != "lobby":
            raise LobbyError("running")
        if user_id == by_user:
            raise LobbyError("cannot_kick_self")
        seat = self.seat_of(user_id)
        if seat is None:
            raise LobbyError("not_seated")
        return seat

    def kick(self, by_user: int, user_id: int) -> int:
        seat = self.kickable(by_user, user_id)
        self.seats[seat] = None
        return seat

    def kick_computer(self, by_user: int, seat: int) -> None:
        if by_user != self.owner_id:
            raise LobbyError("not_owner")
        occ = self.seats[seat]
        if occ is None or not occ.is_computer:
            raise LobbyError("not_seated")
        self.seats[seat] = None

    def check_start(self, by_user: int) -> None:
        if by_user != self.owner_id:
            raise LobbyError("not_owner")
        if self.state != "lobby":
            raise LobbyError("running")
        if not self.humans:
            raise LobbyError("no_humans")

    def fill_with_computers(self) -> None:
        n = sum(1 for o in self.seats if o is not None and o.is_computer)
        for i, occ in enumerate(self.seats):
            if occ is None:
                n += 1
                self.seats[i] = Occupant(None, f"#{n}", is_computer=True, level=self.config.level)

    def move_seats(self, moves: list[int]) -> None:
        """RULES B11 (a caishen reseat): the player at seat ``i`` now sits at ``moves[i]``. The seats, the DM
        panels and their owners move with the players; every button shown before goes stale (one fresh nonce
        above all old ones for every seat). One step, no await: called inside the runner's own move, so a
        save never holds one seating moved and the other not (docs/table.md, "Seats saved as one")."""
        if sorted(moves) != [0, 1, 2, 3]:
            raise ValueError(f"a reseat must move each seat once, not {list(moves)}")
        old = list(self.seats)
        for o, n in enumerate(moves):
            self.seats[n] = old[o]
        self.panels = {moves[s]: v for s, v in self.panels.items()}
        self.panel_users = {moves[s]: v for s, v in self.panel_users.items()}
        top = max([*self.nonces.values(), *self.nonce_floor.values()], default=0) + 1
        self.nonces = {s: top for s in range(4)}
        self.action_keys = {}
        self.restored = {}
        self.nonce_floor = {}

    def seats_differ(self, runner_seats: list[dict[str, Any]]) -> list[int]:
        """The seats where a human of this table is not the player the runner's saved seats hold there
        (``runner_seats``: ``SeatInfo.to_json()`` each). Empty when they agree. (A runner seat still held by
        a human whom the lobby already shows as a computer is an escape, not a disagreement.)"""
        out = []
        for i, occ in enumerate(self.seats):
            if occ is None or occ.is_computer:
                continue
            rs = runner_seats[i] if i < len(runner_seats) and isinstance(runner_seats[i], dict) else {}
            uid = rs.get("user_id")
            if rs.get("is_computer") or uid is None or str(uid) != str(occ.user_id):
                out.append(i)
        return out

    # ---- button nonces
    def nonce_for(self, seat: int, action_keys: frozenset[str]) -> int:
        """The nonce for ``seat``'s buttons: a new one whenever what the seat may do changes."""
        if self.action_keys.get(seat) != action_keys:
            self.action_keys[seat] = action_keys
            old = self.restored.pop(seat, None)
            if old is not None and old[0] == action_keys and action_keys:
                # after a restart the panel from before offers just these actions: its buttons keep working
                self.nonce_floor[seat] = self.nonces.get(seat, 0)
                self.nonces[seat] = old[1]
            else:
                self.nonces[seat] = max(self.nonces.get(seat, 0), self.nonce_floor.pop(seat, 0)) + 1
        return self.nonces.get(seat, 0)

    # ---- component binding (jxbot/shell/binding.py)
    def bind_panel(self, user_id: int, message_id: int) -> None:
        """``message_id`` carries a panel of ``user_id``'s seat: their seat's buttons are taken from it."""
        self.panel_messages.setdefault(user_id, set()).add(message_id)

    def is_panel(self, user_id: int, message_id: int | None) -> bool:
        """``message_id`` is one of ``user_id``'s panel messages at this table (the saved DM panel, or
        one this process sent them)."""
        if message_id is None:
            return False
        if message_id in self.panel_messages.get(user_id, ()):
            return True
        return any(where[1] == message_id and self.panel_users.get(seat) == user_id
                   for seat, where in self.panels.items())

    # ---- persistence
    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "guild_id": self.guild_id, "channel_id": self.channel_id, "owner_id": self.owner_id,
            "config": self.config.to_json(), "seats": [o.to_json() if o else None for o in self.seats],
            "state": self.state, "lang": self.lang, "lobby_message_id": self.lobby_message_id,
            "table_message_id": self.table_message_id,
            "panels": {str(k): list(v) for k, v in self.panels.items()},
            "panel_users": {str(k): v for k, v in self.panel_users.items()},
            "nonces": {str(k): max(v, self.nonce_floor.get(k, 0)) for k, v in self.nonces.items()},
            "hold": self.hold, "escapers": sorted(self.escapers),
            **({"arranged": self.arranged} if self.arranged is not None else {}),
            **({"dm": True, "dm_messages": {str(k): list(v) for k, v in self.dm_messages.items()}} if self.dm else {}),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Table:
        return cls(
            id=d["id"], guild_id=int(d["guild_id"]), channel_id=int(d["channel_id"]), owner_id=int(d["owner_id"]),
            config=TableConfig(**d["config"]),
            seats=[Occupant.from_json(o) if o else None for o in d["seats"]],
            state=d.get("state", "lobby"), lang=d.get("lang", "zh"),
            lobby_message_id=d.get("lobby_message_id"), table_message_id=d.get("table_message_id"),
            panels={int(k): (int(v[0]), int(v[1])) for k, v in d.get("panels", {}).items()},
            panel_users=_panel_users(d),
            # a restart invalidates every button shown before: start far above the saved nonces (the table
            # is saved at every hand start and end, so fewer changes than this happened since)
            nonces={int(k): int(v) + RESTART_NONCE_GAP for k, v in d.get("nonces", {}).items()},
            hold=int(d.get("hold", 0)), escapers={int(u) for u in d.get("escapers", ())},
            arranged=d.get("arranged"), dm=bool(d.get("dm", False)),
            dm_messages={int(k): (int(v[0]), int(v[1])) for k, v in d.get("dm_messages", {}).items()},
        )


def _panel_users(d: dict[str, Any]) -> dict[int, int]:
    """Who each saved panel belongs to; a table saved before this was recorded: the seat's occupant then."""
    if "panel_users" in d:
        return {int(k): int(v) for k, v in d["panel_users"].items()}
    out = {}
    for k in d.get("panels", {}):
        occ = d["seats"][int(k)]
        if occ and occ.get("user_id") and not occ.get("is_computer"):
            out[int(k)] = int(occ["user_id"])
    return out


ReleaseHook = Callable[["Table", int], None]


class TableManager:
    """All tables of this bot process: one per channel, a user at one table at a time.

    This is the lobby's state machine. Every change of a lobby or table is one synchronous method here
    (check and change with no await between them), and the cogs call it while holding the table's
    :meth:`lock`, so a handler's whole sequence (its store calls and messages included) is serialized per
    table. ``seated`` is the per-user seat reservation: a user id maps to the one table they sit at, set
    and checked in the same step that seats them. ``on_release(table, user_id)`` (set by the cog) is
    called, synchronously, whenever a player's seat is released, to release the silver held for them.

    ``away`` (several processes): tables this process stopped running (a lost lease or database session,
    cogs/cluster.py) while the store still holds them as running. They are out of ``tables`` (nothing here
    runs or changes them) but stay *present* for every check that guards a channel, a seat or silver: their
    players' reservations and held silver stay, their channel takes no new table, until the table is resumed
    here (:meth:`add`) or is provably another process's or closed (:meth:`release_away`); docs/bot.md.
    """

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.away: dict[str, Table] = {}  # dropped here, still running in the store: seats and holds kept
        self.seated: dict[int, str] = {}  # user id -> the table they sit at (the seat reservation)
        self._locks: dict[str, asyncio.Lock] = {}
        self.on_release: ReleaseHook | None = None

    def lock(self, table_id: str) -> asyncio.Lock:
        """The table's lock: every lobby/table change of the cogs runs under it (never two at once)."""
        lk = self._locks.get(table_id)
        if lk is None:
            lk = self._locks[table_id] = asyncio.Lock()
        return lk

    def new_id(self) -> str:
        """A new table's id: 48 random bits (12 hex digits). Ids must not clash with another process's
        tables (several processes share one PostgreSQL store) nor with closed tables kept in the store,
        which this process cannot see: at a million tables a clash has odds of about 1 in 500."""
        while True:
            tid = secrets.token_hex(6)
            if tid not in self.tables and tid not in self.away:
                return tid

    def create(self, guild_id: int, channel_id: int, owner_id: int, owner_name: str, config: TableConfig,
               lang: str = "zh", owner_lang: str = "zh") -> Table:
        self.check_channel(channel_id)
        self.check_free(owner_id)
        table = Table(self.new_id(), guild_id, channel_id, owner_id, config, lang=lang)
        self.tables[table.id] = table
        self.join(table, owner_id, owner_name, owner_lang)
        return table

    def add(self, table: Table) -> None:
        """A table rebuilt from the store (resume): its players' seats are reserved again. If it was
        :attr:`away` here, what the away copy reserved and the stored table does not (a player it no
        longer seats, an escaper whose hand was settled) is released now, in the same step."""
        old = self.away.pop(table.id, None)
        self.tables[table.id] = table
        if table.state != "ended":
            for _, occ in table.humans:
                if occ.user_id is not None:
                    self.seated.setdefault(occ.user_id, table.id)
        if old is not None:
            keep = {occ.user_id for _, occ in table.humans} | set(table.escapers) if table.state != "ended" else set()
            for uid in [u for u, tid in self.seated.items() if tid == table.id and u not in keep]:
                del self.seated[uid]
            for uid in sorted({o.user_id for _, o in old.humans if o.user_id is not None} | old.escapers):
                if uid not in keep and self.seated.get(uid) != table.id and self.on_release is not None:
                    self.on_release(old, uid)

    def remove(self, table_id: str) -> None:
        table = self.tables.pop(table_id, None)
        if table is None:
            table = self.away.pop(table_id, None)  # closed in the store meanwhile: nothing left to keep
        if table is not None:
            self._release_all(table)
        self._locks.pop(table_id, None)

    def _release_all(self, table: Table) -> None:
        for uid in [u for u, tid in self.seated.items() if tid == table.id]:
            del self.seated[uid]
            if self.on_release is not None:
                self.on_release(table, uid)
        for uid in sorted(table.escapers):
            if self.on_release is not None:
                self.on_release(table, uid)
        table.escapers.clear()

    def set_away(self, table_id: str) -> Table | None:
        """Stop holding ``table_id`` as this process's (its lease is lost) while keeping it present for the
        checks: it leaves :attr:`tables` in one step, its seats, reservations and holds stay (see the class)."""
        table = self.tables.pop(table_id, None)
        if table is not None and table.state != "ended":
            self.away[table_id] = table
        return table

    def release_away(self, table_id: str) -> None:
        """An away table is provably not this process's any more (another live process holds its lease, or
        the store no longer runs it): its reservations and the silver held here for its players go."""
        table = self.away.pop(table_id, None)
        if table is not None:
            self._release_all(table)
            self._locks.pop(table_id, None)

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        for table in self.tables.values():
            if table.channel_id == channel_id and table.state != "ended":
                return table
        return None

    def of_user(self, user_id: int) -> Table | None:
        tid = self.seated.get(user_id)
        table = self.tables.get(tid) if tid is not None else None
        if table is None or table.state == "ended" or table.seat_of(user_id) is None:
            return None
        return table

    def away_in_channel(self, channel_id: int) -> Table | None:
        for table in self.away.values():
            if table.channel_id == channel_id:
                return table
        return None

    def away_of(self, user_id: int) -> Table | None:
        """The :attr:`away` table this user sits at (their seat is kept until it is resumed or released)."""
        tid = self.seated.get(user_id)
        table = self.away.get(tid) if tid is not None else None
        return table if table is not None and table.seat_of(user_id) is not None else None

    def check_channel(self, channel_id: int) -> None:
        """A new table may open in this channel: none runs here, and none is away (restarting) from it."""
        if self.in_channel(channel_id) is not None:
            raise LobbyError("table_exists")
        if self.away_in_channel(channel_id) is not None:
            raise LobbyError("channel_restarting")

    def check_free(self, user_id: int, except_table: str | None = None) -> None:
        other = self.of_user(user_id)
        if other is not None and other.id != except_table:
            raise LobbyError("at_dm_table" if other.dm else "at_other_table", channel=other.channel_id)
        away = self.away_of(user_id)
        if away is not None and away.id != except_table:
            raise LobbyError("seat_restarting", channel=away.channel_id)

    # ---- the state machine's transitions (each one step: no await inside)
    def join(self, table: Table, user_id: int, name: str, lang: str = "zh") -> int:
        """Seat a player and reserve them (one seat per user across every table)."""
        if self.tables.get(table.id) is not table or table.state == "ended":
            raise LobbyError("closed")
        self.check_free(user_id, except_table=table.id)
        seat = table.join(user_id, name, lang)
        self.seated[user_id] = table.id
        return seat

    def leave(self, table: Table, user_id: int) -> int:
        """Leave a lobby (before the start). Leaving a running table is :meth:`escape`."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise LobbyError("not_seated")
        if table.state != "lobby":
            raise LobbyError("running")
        self.release_seat(table, seat)
        if user_id == table.owner_id:
            humans = table.humans
            if humans:
                table.owner_id = humans[0][1].user_id or table.owner_id
        return seat

    def kick(self, table: Table, by_user: int, user_id: int) -> int:
        seat = table.kickable(by_user, user_id)
        self.release_seat(table, seat)
        return seat

    def add_computer(self, table: Table, by_user: int, *args: Any, **kw: Any) -> int:
        """Owner only (checked in :meth:`Table.add_computer`); extra arguments go to it."""
        return table.add_computer(by_user, *args, **kw)

    def start(self, table: Table, by_user: int) -> None:
        """Owner's Start: the check and the change to ``running`` in one step (a second press is refused)."""
        table.check_start(by_user)
        table.fill_with_computers()
        table.state = "running"

    def escape(self, table: Table, user_id: int) -> int:
        """Leave a running table (RULES A10): a computer plays the seat; the player's reservation ends now,
        the silver held for them only once the hand they left is settled (:meth:`settled`)."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise LobbyError("not_seated")
        if table.state != "running":
            raise LobbyError("not_running")
        table.escapers.add(user_id)
        self.release_seat(table, seat, computer=True, keep_hold=True)
        return seat

    def stand_up(self, table: Table, seat: int) -> int | None:
        """A player short of the table's minimum is stood up between hands: a computer takes the seat."""
        occ = table.seats[seat]
        if occ is None or occ.is_computer:
            return None
        uid = occ.user_id
        self.release_seat(table, seat, computer=True)
        return uid

    def settled(self, table: Table) -> None:
        """The hand is settled: release what was held for the players who escaped it."""
        for uid in sorted(table.escapers):
            if self.seated.get(uid) != table.id and self.on_release is not None:
                self.on_release(table, uid)
        table.escapers.clear()

    def release_seat(self, table: Table, seat: int, *, computer: bool = False, keep_hold: bool = False) -> None:
        """The one way a player's seat is given up (leave, kick, escape, stand-up, a table suspended or
        closed): the seat is emptied (or a computer takes it), its DM panel binding and button nonce go
        with the player, their reservation ends and, unless ``keep_hold``, the silver held for them is
        released."""
        occ = table.seats[seat]
        uid = occ.user_id if occ is not None and not occ.is_computer else None
        if computer and occ is not None:
            occ.is_computer = True
            occ.user_id = None
            occ.dm_ok = None
        elif not computer:
            table.seats[seat] = None
        table.panels.pop(seat, None)  # a panel belongs to a person, not a seat
        table.panel_users.pop(seat, None)
        table.action_keys.pop(seat, None)
        table.nonces[seat] = table.nonces.get(seat, 0) + 1  # whatever that seat was shown goes stale
        if uid is not None:
            if self.seated.get(uid) == table.id:
                del self.seated[uid]
            if not keep_hold and self.on_release is not None:
                self.on_release(table, uid)

    def end(self, table: Table) -> None:
        """Close the table: every seat is released; the table leaves this manager."""
        table.state = "ended"
        self.remove(table.id)
