"""One running table's Discord side: :class:`Session` binds a lobby table to a ``jxbot.table.TableRunner``
(its Discord seats and channel observer); :class:`StoreSink` is the runner's event sink on the store.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from jxbot.bot import (
    JxBot,
)
from jxbot.i18n import t
from jxbot.rules.tiles import wind_name
from jxbot.safety import md, ping
from jxbot.seatnames import computer_key, display_name
from jxbot.shell.buttons import action_keys
from jxbot.shell.dmtable import channel_of
from jxbot.shell.lobby import Table
from jxbot.shell.observer import ChannelObserver
from jxbot.shell.seat import DiscordSeat
from jxbot.shell.watch import TableWatch

log = logging.getLogger("jxbot.shell.session")


_BACKGROUND: set[asyncio.Future[Any]] = set()  # notices sent from runner callbacks (kept until done)


class TableHost(Protocol):
    """What a session asks of the cog that hosts its table (cogs/tables.py ``TablesCog``): the shell never
    imports a cog, the cog hands itself in."""

    bot: Any
    manager: Any  # jxbot.shell.lobby.TableManager
    seed: int | str | None  # None: a fresh secret seed per table
    clock: Any
    computer_delay: float

    def sink_for(self, session: Session) -> Any: ...

    async def balance_of(self, guild_id: int, user_id: int) -> int | None: ...

    async def dm_channel(self, user_id: int) -> discord.DMChannel: ...

    async def save(self, table: Table) -> None: ...

    async def close_table(self, table: Table) -> None: ...


class Session:
    """A running table: the runner plus its Discord seats."""

    def __init__(self, bot: JxBot, cog: TableHost, table: Table) -> None:
        self.bot = bot
        self.cog = cog
        self.table = table
        self.seats: dict[int, DiscordSeat] = {}
        self.observer = ChannelObserver(self)
        self.watch = TableWatch(self, bot.settings.watch_delay)  # its watchers (观战): one more observer
        self.runner: Any = None
        self._dm: dict[int, discord.abc.Messageable] = {}
        self.next_votes: set[int] = set()  # humans who pressed Next after the last hand
        self._reseat_untold = False  # the seats moved (move_seats); reseat() has yet to tell and redraw
        self.result_message_id: int | None = None  # the last result message (its Next button)
        self.result_messages: set[int] = set()  # a DM table: every player's copy of it (each one's Next works)
        self.hand_no = 0
        self.seed: int | str | None = cog.seed  # None: a fresh secret seed (the host's table_seed)

    def _seat_infos(self) -> list[Any]:
        from jxbot.table import SeatInfo

        infos = []
        for i, occ in enumerate(self.table.seats):
            assert occ is not None
            if occ.is_computer:
                # a key, put in words in each viewer's language when shown (jxbot.ai.strings.display_name)
                infos.append(SeatInfo.computer(computer_key(occ.name.lstrip("#"), occ.level), occ.level))
            else:
                infos.append(SeatInfo(name=occ.name, user_id=occ.user_id, lang=occ.lang))
            del i
        return infos

    def runner_config(self) -> Any:
        from jxbot.table import TableConfig as RunnerConfig

        c = self.table.config
        return RunnerConfig(table_id=self.table.id, ruleset=c.ruleset, rounds=c.rounds, stake=c.stake, fee=c.fee,
                            claim_window=c.claim_window, turn_seconds=c.turn_seconds,
                            contract_seconds=c.contract_seconds, computer_delay=self.cog.computer_delay,
                            between_hands=self.bot.settings.next_hand_seconds, seed=self.seed,
                            max_hands=self.bot.settings.max_hands)

    def _interfaces(self) -> dict[int, DiscordSeat]:
        for i, occ in enumerate(self.table.seats):
            if occ is not None and not occ.is_computer:
                self.seats[i] = DiscordSeat(self, i)
        return dict(self.seats)

    def fresh_runner_kw(self) -> dict[str, Any]:
        """More arguments for a fresh (not resumed) runner: none here (an arranged table gives its match)."""
        return {}

    def make_sink(self) -> Any:
        """The runner's event sink (the host's; an arranged table's points-only sink overrides it)."""
        return self.cog.sink_for(self)

    def start(self, *, runner_state: dict | None = None, events: Sequence[dict] = (),
              first_hand: Sequence[dict] = ()) -> None:
        """Build the runner (resumed from ``runner_state`` and its hand's ``events``, or fresh) and run it.
        ``first_hand``: a fresh runner takes these stored events as its hand in play (a restart that left a
        dealt first hand and no runner state, jxbot/shell/resume.py); ``ValueError`` (nothing started) if they
        are not this table's first hand."""
        from jxbot.table import TableRunner

        kw: dict[str, Any] = {"interfaces": self._interfaces(), "observers": [self.observer, self.watch],
                              "sink": self.make_sink(), "balances": self.balances}
        if self.cog.clock is not None:
            kw["clock"] = self.cog.clock
        if runner_state is not None:
            self.runner = TableRunner.resume(runner_state, events, **kw)
        else:
            runner = TableRunner(self._seat_infos(), self.runner_config(), **kw, **self.fresh_runner_kw())
            if first_hand:
                runner.adopt_first_hand(first_hand)
            self.runner = runner
        self.table.state = "running"
        self.table.session = self
        task = self.runner.start()
        task.add_done_callback(self._done)
        self.bot.dispatch("table_running", self.table)  # cogs/cluster.py: its lease is taken at once

    def refresh(self) -> None:
        """Send every seat and the channel their current view again (after a resume). A running hand is
        left to the runner: it sends every seat its view once the clocks run (with the countdowns)."""
        runner = self.runner
        if runner.hand_running:
            return
        for seat, ds in self.seats.items():
            view = runner.view(seat)
            if view is not None:
                ds.view = view
                self.table.nonce_for(seat, action_keys(view))
                ds.schedule()
        pv = runner.public_view()
        if pv is not None:
            self.observer.view = pv
            self.bot.coalescer.submit(("table", self.table.id), self.observer.push, spare=True)

    def _done(self, task: asyncio.Task[Any]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            from jxbot.shell.suspend import suspend_table

            # the class only: an error's text could name a concealed tile
            log.error("table %s stopped with an error: %s", self.table.id, type(exc).__name__)
            self._notice = asyncio.ensure_future(suspend_table(self.cog, self.table, exc))

    def channel(self) -> Any:
        """Where the table's public messages go: its channel, or each human player's DM (jxbot/shell/dmtable.py)."""
        return channel_of(self.bot, self.table, self.dm_channel)

    async def _tell_stopped(self) -> None:
        ch = self.channel()
        try:
            await ch.send(t("bot.err.table_stopped", self.table.lang))
        except discord.HTTPException:
            log.warning("could not tell table %s's channel that it stopped", self.table.id)

    async def balances(self, seats: Sequence[Any]) -> list[int | None]:
        """The seats' balances for the runner. Before each deal (no hand running) the table's minimum is
        held again for every human (RULES A10); a player below it is stood up before the hand is dealt."""
        store = self.bot.store
        runner = self.runner
        at_deal = runner is not None and not runner.hand_running
        table = self.table
        out: list[int | None] = []
        short: list[tuple[int, int, int]] = []
        for i, info in enumerate(seats):
            if info.is_computer or store is None or info.user_id is None:
                out.append(None)
                continue
            uid = int(info.user_id)
            if at_deal and table.hold and hasattr(store, "hold"):
                try:
                    await store.hold(table.guild_id, uid, table.id, table.hold)
                except Exception as exc:
                    if getattr(exc, "code", None) != "insufficient_funds":
                        raise
                    short.append((i, uid, int(getattr(exc, "params", {}).get("balance", 0))))
                    out.append(None)
                    continue
            out.append(await self.cog.balance_of(table.guild_id, uid))
        for seat, uid, have in short:
            self.stand_up(seat, uid, have)
        return out

    def stand_up(self, seat: int, user_id: int, have: int) -> None:
        """Between hands: the player at ``seat`` is below the table's minimum; a computer takes the seat."""
        table, runner = self.table, self.runner
        if table.seat_of(user_id) != seat:
            return
        self.cog.manager.stand_up(table, seat)
        self.seats.pop(seat, None)
        if runner is not None:
            runner.stand_up(seat)
            if not table.humans and not table.arranged:  # nobody left to play for: this hand is the last (an
                runner.config.max_hands = runner.hands_played + 1  # event's table plays on: its results count)
        text = t("bot.status.stood_up", table.lang, user=user_id, have=have, need=table.hold)
        ch = self.channel()

        async def tell() -> None:
            try:
                await ch.send(text, allowed_mentions=ping(user_id))
            except discord.HTTPException:
                log.warning("could not tell table %s's channel that a player was stood up", table.id)

        task = asyncio.ensure_future(tell())
        _BACKGROUND.add(task)
        task.add_done_callback(_BACKGROUND.discard)

    async def dm_channel(self, user_id: int) -> discord.abc.Messageable:
        ch = self._dm.get(user_id)
        if ch is None:
            ch = await self.cog.dm_channel(user_id)
            self._dm[user_id] = ch
        return ch

    async def tell_dm_closed(self, user_id: int, key: str = "bot.dm.closed") -> None:
        if self.table.dm:  # no "Show my hand" at a DM table: the others are told a computer plays the seat meanwhile
            key = "bot.dm.closed_dm_table"
        ch = self.channel()
        try:
            await ch.send(t(key, self.table.lang, user=user_id), allowed_mentions=ping(user_id))
        except discord.HTTPException:
            log.warning("could not tell user %s that their DMs are closed", user_id)

    def move_seats(self, moves: list[int]) -> None:
        """RULES B11: after a caishen 版 the player at seat ``i`` moves to ``moves[i]``. Called by the runner
        inside its own move (no await): the lobby's seats, DM panels and button nonces (every button shown
        before goes stale), each Discord seat's number and the Next votes move in the same step, so any save
        from here on holds the lobby's and the runner's seats together (docs/table.md, "Seats saved as one")."""
        table = self.table
        table.move_seats(moves)
        self.seats = {moves[old]: ds for old, ds in self.seats.items()}
        for seat, ds in self.seats.items():
            ds.seat = seat  # its kept view (the hand just played) is still by its old seat: see view_seat
        self.next_votes = {moves[s] for s in self.next_votes}
        self._reseat_untold = True

    async def reseat(self, info: dict) -> None:
        """After :meth:`move_seats`: the panels still showing the hand just played go out, the next deal sends
        each seat a fresh view, the channel is told the new seats, and the table is saved.

        The runner calls this once per human seat and once for the channel: it is applied once per 版."""
        if not self._reseat_untold:
            return
        self._reseat_untold = False
        table, bot = self.table, self.bot
        for s in range(4):  # panels still showing the hand just played go out first
            await bot.coalescer.flush(("panel", table.id, s))
        for ds in self.seats.values():
            ds.view = None  # its last view was by the old seats; the next deal sends a fresh one
            ds._pushed = None
        names = info.get("names") or [o.name if o else "?" for o in table.seats]
        lines = []
        for i, occ in enumerate(table.seats):
            who = (f"<@{occ.user_id}>" if occ is not None and not occ.is_computer
                   else md(display_name(names[i], table.lang)))
            lines.append(f"{wind_name(i, table.lang)} · {who}")
        ch = self.channel()
        try:
            await ch.send(t("bot.status.reseat", table.lang) + "\n" + "\n".join(lines),
                          allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not announce the reseat of table %s", table.id)
        await self.cog.save(table)

    async def after_hand(self, result: dict) -> None:
        self.cog.manager.settled(self.table)  # the hand is paid: what was held for its escapers is free
        await self.cog.save(self.table)

    async def closed(self) -> None:
        self.table.state = "ended"
        await self.cog.close_table(self.table)


class StoreSink:
    """The runner's event sink on ``jxbot.store``: hands, events, settlements and the resumable state
    (the runner's state plus the bot's table: seats, message ids, button nonces)."""

    def __init__(self, store: Any, table: Table, ranked: Any = None) -> None:
        self.store = store
        self.table = table
        self.seats: dict[str, list[int | None]] = {}
        # a ranked table's jxbot.ladder.RankedMatch: its last hand's settlement carries the rating update in the same
        # transaction (docs/ranked.md, "The transaction"); the outcome is kept for the result's rating line
        self.ranked = ranked
        self.outcome: Any = None

    async def table_state(self, table_id: str, state: dict) -> None:
        t_ = self.table
        await self.store.save_table(t_.id, t_.guild_id, t_.channel_id, t_.config.to_json(),
                                    {"bot_table": t_.to_json(), "runner": state})

    async def hand_started(self, hand_id: str, info: dict) -> None:
        seats = [None if s.get("is_computer") or s.get("user_id") is None else int(s["user_id"])
                 for s in info.get("seats", ())]
        self.seats[hand_id] = seats
        await self.store.create_hand(hand_id, self.table.guild_id, self.table.channel_id,
                                     info.get("ruleset", self.table.config.ruleset), seats,
                                     info.get("commitment") or "-", table_id=self.table.id)

    async def append(self, hand_id: str, index: int, event_json: dict) -> None:
        await self.store.append_event(hand_id, index, event_json)

    async def append_many(self, hand_id: str, start: int, events_json: list[dict]) -> None:
        """Several events of one move in one store transaction (fewer commits per move)."""
        if hasattr(self.store, "append_events"):
            await self.store.append_events(hand_id, start, events_json)
            return
        for i, e in enumerate(events_json):
            await self.store.append_event(hand_id, start + i, e)

    async def settle(self, hand_id: str, settlement: Any, result_view: dict) -> None:
        seats = self.seats.get(hand_id)
        if seats is None:
            rec = await self.store.get_hand(hand_id)
            seats = list(rec.seats) if rec is not None else [None] * 4
        if self.ranked is not None:
            from jxbot.ladder import settle_ranked_hand

            _, outcome = await settle_ranked_hand(self.store, self.ranked, hand_id, self.table.guild_id, seats,
                                                  settlement, result_view)
            if outcome is not None:
                self.outcome = outcome
            return
        await self.store.settle_hand(hand_id, self.table.guild_id, seats, settlement, result_view)
