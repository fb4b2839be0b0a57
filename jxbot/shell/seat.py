"""A human seat of the runner: :class:`DiscordSeat` keeps the player's DM (or ephemeral) panel up to date.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from jxbot.interactions import after_guard, no_inline_429, take_response
from jxbot.press_timing import press_age_ms
from jxbot.request_budget import KIND, TokenRoute, refuse
from jxbot.shell.buttons import action_keys, panel_components
from jxbot.shell.pictures import render_async
from jxbot.shell.texts import panel_text

if TYPE_CHECKING:
    from jxbot.shell.session import Session

log = logging.getLogger("jxbot.shell.seat")


DM_CLOSED = 50007


DM_TRIES = 2  # a DM panel that cannot be sent is tried this many times (discord.py retries each 5xx 5 times)


class DiscordSeat:
    """A human seat: keeps the latest seat view and keeps the player's panel up to date.

    A claim offer goes out at once (an urgent edit) and the runner is told when Discord accepted it: the
    seat's claim window counts from then (RULES C). The player's own press is answered by updating the
    panel in the interaction response (:meth:`answer`); other changes go through the coalescer."""

    confirms_delivery = True  # the runner starts this seat's claim window on offer_delivered()

    def __init__(self, session: Session, seat: int) -> None:
        self.session = session
        self.seat = seat
        self.view: dict | None = None
        self.ephemeral: discord.Interaction | None = None  # the last interaction showing an ephemeral panel
        self._pushed: tuple | None = None  # signature of the panel last sent
        self.notified = 0
        self.answering = 0  # presses being answered in their interaction response: pushes wait for them
        # the freshest press on the current panel: its token edits the panel without counting (issue 28)
        self.route: TokenRoute | None = None
        self._io = asyncio.Lock()  # one panel edit at a time (push or answer)

    @property
    def occupant(self) -> Any:
        return self.session.table.seats[self.seat]

    @property
    def lang(self) -> str:
        occ = self.occupant
        return occ.lang if occ else "zh"

    @property
    def view_seat(self) -> int:
        """The seat the kept view is by: this seat, but for the result of the hand played just before a
        reseat (Session.move_seats), which is by the seat the player held in that hand."""
        v = (self.view or {}).get("viewer")
        return v if isinstance(v, int) and 0 <= v < 4 else self.seat

    def signature(self) -> tuple:
        """What the panel shows (text, buttons, and the view fields the hand image draws), compared with ``==``:
        the fields themselves, no text made of them (a view's parts are never changed in place)."""
        table, view, lang = self.session.table, self.view or {}, self.lang
        seats = view.get("seats") or [{}] * 4
        vs = self.view_seat
        me = seats[vs] if vs < len(seats) else {}
        # what the hand picture and the text draw; the deadline is in the text (to the second)
        keys: tuple[str, ...] = ("hand", "drawn", "actions", "wildcard", "dealer", "hand_number", "round_wind",
                                 "hand_id")
        if view.get("actions"):  # the phase and the tile on offer matter only while this seat may act
            keys += ("last_discard", "phase", "pending_kong")
        return (panel_text(table, vs, view, lang), table.nonces.get(self.seat),
                keys, tuple(view.get(k) for k in keys),
                tuple(me.get(k) for k in ("melds", "seat_wind", "is_dealer", "auto", "autowin")))

    async def build(self, *, urgent: bool = False) -> tuple[str, discord.ui.View, bytes | None]:
        table, view, lang = self.session.table, self.view or {}, self.lang
        nonce = table.nonce_for(self.seat, action_keys(view))
        autowin = bool(((view.get("seats") or [{}] * 4)[self.view_seat]).get("autowin"))
        content = panel_text(table, self.view_seat, view, lang)
        comps = panel_components(table.id, self.seat, nonce, view, lang, autowin=autowin)
        # drawn as it is (no copy: a seat view is built afresh for every change and never changed in place)
        png = await render_async("hand", view, lang, urgent=urgent) if view else None
        return content, comps, png

    async def notify(self, view: dict, note: dict | None) -> None:
        self.view = view
        self.notified += 1
        self.session.table.nonce_for(self.seat, action_keys(view))  # old buttons go stale at once
        runner = self.session.runner
        self.schedule(urgent=runner is not None and runner.offer_pending(self.seat))

    async def on_result(self, result_view: dict) -> None:
        if self.view is not None:
            self.view = {**self.view, "actions": [], "phase": "ended", "deadline": None}
            self.session.table.nonce_for(self.seat, frozenset())
            self.schedule()

    async def on_reseat(self, info: dict) -> None:
        """A caishen reseat (after a 版): the whole table moves at once (see :meth:`Session.reseat`)."""
        await self.session.reseat(info)

    def schedule(self, *, urgent: bool = False) -> None:
        bot = self.session.bot
        key = ("panel", self.session.table.id, self.seat)
        bot.coalescer.submit(key, self.push, urgent=urgent)

    def _fresh_offer(self) -> int | None:
        """The step of the view about to be shown when it is an offer not yet delivered (its countdown is
        then set to a full window from now), else None."""
        runner, view = self.session.runner, self.view
        if runner is None or view is None or not runner.offer_pending(self.seat) or view.get("step") != runner.step:
            return None
        self.view = {**view, "deadline": runner.seat_deadline(self.seat)}
        return int(view["step"])

    def _delivered(self, step: int | None) -> None:
        runner = self.session.runner
        if step is not None and runner is not None:
            runner.offer_delivered(self.seat, step)

    async def push(self) -> None:
        """Send or edit the panel (DM, or the ephemeral fallback)."""
        if self.answering:
            return  # the press being answered shows the newest panel; answer() schedules what comes after
        async with self._io:
            await self._push()

    async def _push(self) -> None:
        occ = self.occupant
        if occ is None or occ.is_computer or self.view is None:
            return
        uid = occ.user_id
        offer = self._fresh_offer()
        KIND.set("offer" if offer is not None else "panel")  # its counted requests' place in the budget
        sig = self.signature()
        if sig == self._pushed and (occ.dm_ok is False or self.session.table.panels.get(self.seat)):
            self._delivered(offer)  # already in front of the player
            return  # nothing this player sees has changed (another seat's move): no edit
        if occ.dm_ok is False and (self.ephemeral is None or getattr(self.ephemeral.user, "id", None) != uid):
            self.ephemeral = None
            return  # no panel to edit: "Show my hand" builds one when the player asks
        # a panel the player must act on is drawn ahead of the channels' pictures
        content, comps, png = await self.build(urgent=bool(self.view.get("actions")))
        if not self._holder(occ, uid):
            return  # the player left while the picture was drawn: their hand goes nowhere
        files = [discord.File(io.BytesIO(png), filename="hand.png")] if png else []
        if occ.dm_ok is False:
            inter = self.ephemeral
            if inter is not None and getattr(inter.user, "id", None) != uid:
                self.ephemeral = inter = None  # an ephemeral panel of someone who sat here before
            if inter is not None and not self._token_alive(inter):
                self.ephemeral = inter = None  # its token is (nearly) expired: never sent to, "Show my hand" opens a new one
            if inter is not None:
                try:
                    await inter.edit_original_response(content=content, view=comps, attachments=files)
                except discord.HTTPException:
                    self.ephemeral = None  # its token expired (15 min): "Show my hand" opens a new one
                    raise
                self._pushed = sig
                self._delivered(offer)
            return
        table = self.session.table
        where = table.panels.get(self.seat)
        if where is not None and table.panel_users.get(self.seat) != uid:
            # a panel in someone else's DM (a player who sat here before): never edit it
            log.warning("table %s seat %d: panel binding not in the occupant's DM; dropped", table.id, self.seat)
            table.panels.pop(self.seat, None)
            table.panel_users.pop(self.seat, None)
            where = None
        if where is not None and await self._via_token(where[1], content, comps, png):
            self._pushed = sig
            self._delivered(offer)
            return
        if where is not None:
            # a bot-token edit counts against Discord's global limit: a claim offer first, then panels
            ch = self.session.bot.get_partial_messageable(where[0])
            try:
                await ch.get_partial_message(where[1]).edit(content=content, view=comps, attachments=files)
                self._pushed = sig
                self._delivered(offer)
                return
            except discord.NotFound:
                table.panels.pop(self.seat, None)
        msg = None
        for attempt in range(DM_TRIES):
            try:
                dm = await self.session.dm_channel(uid)
                files = [discord.File(io.BytesIO(png), filename="hand.png")] if png else []
                msg = await dm.send(content=content, view=comps, files=files)
                break
            except discord.Forbidden as exc:
                if exc.code == DM_CLOSED:
                    occ.dm_ok = False
                    await self.session.tell_dm_closed(uid)
                    return
                raise
            except (discord.HTTPException, OSError, TimeoutError) as exc:
                log.warning("table %s seat %d: sending the DM panel failed (try %d): %r", table.id, self.seat,
                            attempt + 1, getattr(exc, "status", type(exc).__name__))
                await asyncio.sleep(0.2 * (attempt + 1))
        if msg is None:  # DMs do not work now: the player uses "Show my hand" (an ephemeral panel)
            if self._holder(occ, uid):
                occ.dm_ok = False
                await self.session.tell_dm_closed(uid, key="bot.dm.failed")
            return
        if not self._holder(occ, uid):
            return  # sent to the player who just left: it is theirs, but it is not bound to the seat
        occ.dm_ok = True
        table.panels[self.seat] = (msg.channel.id, msg.id)
        table.panel_users[self.seat] = uid
        table.bind_panel(uid, msg.id)  # an older copy keeps working while its buttons still hold
        self._pushed = sig
        self._delivered(offer)
        if table.dm or table.arranged is not None:
            # no DM was opened before the first deal (jxbot/shell/arranged.py): save the new panel now, so a restart
            # edits it rather than posting another
            await self.session.cog.save(table)

    async def answer(self, interaction: discord.Interaction) -> None:
        """Answer the player's own press by updating the pressed panel in the interaction response
        (type 7; no REST edit, and the player sees the result at once). Call with ``answering`` raised
        around the submit; lowers it."""
        t0 = time.perf_counter()
        try:
            async with self._io:
                interaction.extras.setdefault("press_ms", {})["lock"] = (time.perf_counter() - t0) * 1000.0
                await self._answer(interaction)
        finally:
            self.answering = max(0, self.answering - 1)
        if self.view is not None and self.signature() != self._pushed:
            runner = self.session.runner  # something changed after the answer was drawn
            self.schedule(urgent=runner is not None and runner.offer_pending(self.seat))

    async def _answer(self, interaction: discord.Interaction) -> None:
        occ = self.occupant
        if occ is None or occ.is_computer or self.view is None:
            if take_response(interaction):
                await interaction.response.defer()
            return
        offer = self._fresh_offer()
        sig = self.signature()
        timing = interaction.extras.setdefault("press_ms", {})
        t0 = time.perf_counter()
        content, comps, png = await self.build(urgent=True)
        files = [discord.File(io.BytesIO(png), filename="hand.png")] if png else []
        t1 = time.perf_counter()
        timing["draw"] = (t1 - t0) * 1000.0
        try:
            if take_response(interaction):
                await interaction.response.edit_message(content=content, view=comps, attachments=files)
            else:  # the acknowledgement guard deferred it: the pressed message is the original
                await after_guard(interaction)
                await interaction.edit_original_response(content=content, view=comps, attachments=files)
        except discord.HTTPException as exc:
            log.warning("answering a press at table %s seat %d failed: %s", self.session.table.id, self.seat, exc)
            self._pushed = None
            return
        timing["send"] = (time.perf_counter() - t1) * 1000.0
        timing["total"] = press_age_ms(interaction)
        times = getattr(self.session.bot, "press_times", None)
        if times is not None:
            times.record(timing)
        self._pushed = sig
        self._delivered(offer)
        where = self.session.table.panels.get(self.seat)
        pressed = interaction.message.id if interaction.message is not None else None
        if occ.dm_ok is not False and where is not None and pressed != where[1]:
            self._pushed = None  # an older copy of the panel was pressed: the current one is brought up to date
        elif occ.dm_ok is not False and pressed is not None and self.session.bot.settings.token_routing:
            self.route = TokenRoute(interaction, pressed, time.monotonic() - press_age_ms(interaction) / 1000.0)

    def _token_alive(self, interaction: discord.Interaction) -> bool:
        life = self.session.bot.settings.token_life
        return TokenRoute(interaction, None, time.monotonic() - press_age_ms(interaction) / 1000.0).usable(
            time.monotonic(), life)

    async def _via_token(self, message_id: int, content: str, comps: discord.ui.View, png: bytes | None) -> bool:
        """Edit the panel through the token of the player's last press on it (Discord does not count it);
        False when there is none, it is too old, or Discord refused it (dropped then, never tried again:
        the caller edits with the bot token). A 429 of the token's own route is raised to the coalescer,
        which sends the newest panel after its ``retry_after`` (never slept out here, inside ``_io``: the player's
        next press waits for that lock; ``no_inline_429``)."""
        route = self.route
        if route is None:
            return False
        if route.message_id != message_id or not route.usable(time.monotonic(), self.session.bot.settings.token_life):
            self.route = None
            return False
        files = [discord.File(io.BytesIO(png), filename="hand.png")] if png else []
        try:
            with no_inline_429():  # a 429 is waited out by the coalescer, not here with the seat's lock held
                await route.interaction.edit_original_response(content=content, view=comps, attachments=files)
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise
            refuse(route.interaction)
            if self.route is route:
                self.route = None
            log.info("table %s seat %d: the panel's interaction token was refused (%s %s); the bot token takes over",
                     self.session.table.id, self.seat, exc.status, exc.code)
            return False
        return True

    def _holder(self, occ: Any, uid: int | None) -> bool:
        """``occ`` (user ``uid``) still holds this seat as a human."""
        now = self.occupant
        return now is occ and not occ.is_computer and occ.user_id == uid
