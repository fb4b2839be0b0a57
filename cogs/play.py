"""In-hand play: a :class:`Session` binds a lobby :class:`~cogs.lobby.Table` to a
``jxbot.table.TableRunner``. Each human seat is a :class:`DiscordSeat` (its DM panel, edited in place
through the coalescer; an ephemeral panel when DMs are closed), the channel is a
:class:`ChannelObserver` (the table message). Button presses become ``runner.submit`` calls.
"""

from __future__ import annotations

import asyncio
import copy
import io
import logging
import time
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.binding import pressed_id, pressed_on, refuse
from cogs.lobby import Table
from jxbot import drawing, rulesets
from jxbot.ai.strings import computer_name
from jxbot.bot import (
    BUTTON_ACK_AFTER,
    CustomId,
    JxBot,
    MjButton,
    ack_later,
    after_guard,
    lang_of,
    reply,
    take_response,
)
from jxbot.game.actions import Action, ActionType
from jxbot.i18n import t
from jxbot.press_timing import press_age_ms
from jxbot.rules.tiles import tile_name, wind_name
from jxbot.safety import md, ping

if TYPE_CHECKING:
    from cogs.tables import TablesCog

log = logging.getLogger("jxbot.cogs.play")

ACTION_VERBS = {a.value for a in ActionType}
DM_CLOSED = 50007
_BACKGROUND: set[asyncio.Future[Any]] = set()  # notices sent from runner callbacks (kept until done)
DM_TRIES = 2  # a DM panel that cannot be sent is tried this many times (discord.py retries each 5xx 5 times)


# ---------------------------------------------------------------------------------------------- render


# Pictures are drawn off the event loop by jxbot.drawing: in worker processes (the default with a core to
# spare) or threads, in two lanes: "now" for the pictures a player is waiting for (the panel answering a
# press, a panel with buttons to act on) and "later" for everything that can wait (table pictures, results,
# panels nobody acts on).

# When the bot is busy (this many background pictures already waiting for the drawing thread), a table
# message's picture is redrawn at most every BUSY_PICTURE_EVERY s; its status text still follows every move.
BUSY_PICTURES_WAITING = 3
BUSY_PICTURE_EVERY = 3.0
_WAITING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int] = weakref.WeakKeyDictionary()  # per loop


def background_pictures_waiting() -> int:
    return _WAITING.get(asyncio.get_running_loop(), 0)


BACKGROUND_REST = 1.0  # drawing in threads: after a background picture, rest this many times as long as it took
MAX_REST = 0.1  # seconds
_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


async def render_async(kind: str, view: dict, lang: str, *, urgent: bool = False) -> bytes | None:
    """A picture drawn off the event loop; ``urgent`` pictures never queue behind the others.

    Background pictures take turns (the number waiting paces the busy tables' pictures). Drawn in threads
    they also rest after each, as long again as it took: drawing holds the GIL, and under load it would
    otherwise leave the event loop and the store's thread waiting for it, and every press waiting for them.
    In processes the later lane's lower priority does that."""
    pictures = drawing.drawing()
    if urgent:
        return await pictures.draw(kind, view, lang, urgent=True)
    loop = asyncio.get_running_loop()
    gate = _GATES.get(loop)
    if gate is None:
        gate = _GATES[loop] = asyncio.Lock()  # one per event loop (tests run several)
    _WAITING[loop] = _WAITING.get(loop, 0) + 1
    try:
        await gate.acquire()
    finally:
        _WAITING[loop] -= 1
    try:
        t0 = time.perf_counter()
        png = await pictures.draw(kind, view, lang, urgent=False)
        if not pictures.in_processes:
            # (capped: the first pictures of a process are slow while the sprite caches fill)
            await asyncio.sleep(min(MAX_REST, (time.perf_counter() - t0) * BACKGROUND_REST))
    finally:
        gate.release()
    return png


def render_png(kind: str, view: dict, lang: str) -> bytes | None:
    """PNG bytes from ``render`` (hand / table / result) drawn here and now, or None if rendering is
    unavailable."""
    png, cpu, error = drawing.draw(kind, view, lang)
    drawing.count(kind, cpu)
    if error is not None:
        log.error("rendering the %s image failed:\n%s", kind, error.rstrip())
    return png


def when(deadline: float | None) -> str:
    """Discord's relative timestamp (a live countdown in the client)."""
    return f"<t:{int(deadline)}:R>" if deadline else "—"


def seat_label(view: dict, seat: int, lang: str) -> str:
    seats = view.get("seats") or []
    name = seats[seat].get("name") if seat < len(seats) else None
    wind = wind_name(seats[seat]["seat_wind"], lang) if seat < len(seats) and "seat_wind" in seats[seat] else str(seat)
    return f"{md(name) if name else seat} ({wind})"


def status_text(view: dict, lang: str) -> str:
    """The channel's status lines (public information only)."""
    wild = view.get("wildcard")
    lines = [t("bot.status.line", lang, hand=view.get("hand_number", "?"), round=wind_name(view.get("round_wind", 0), lang),
               dealer=seat_label(view, view.get("dealer", 0), lang),
               wild=tile_name(wild, lang) if wild is not None else "—", wall=view.get("wall_remaining", "?"))]
    phase = view.get("phase")
    dl = when(view.get("deadline"))
    if phase == "turn" and view.get("deadline"):
        lines.append(t("bot.status.turn", lang, name=seat_label(view, view.get("turn", 0), lang), when=dl))
    elif phase == "turn":  # a computer's move (it comes within a second or so): no clock to show
        lines.append(t("bot.status.turn_cpu", lang, name=seat_label(view, view.get("turn", 0), lang)))
    elif phase == "claim" and view.get("last_discard"):
        ld = view["last_discard"]
        lines.append(t("bot.status.claim", lang, name=seat_label(view, ld["seat"], lang), tile=tile_name(ld["tile"], lang),
                       when=dl))
    elif phase == "rob" and view.get("last_discard"):
        lines.append(t("bot.status.rob", lang, tile=tile_name(view["last_discard"]["tile"], lang), when=dl))
    elif phase == "contract" and view.get("contract"):
        a, b = view["contract"]
        lines.append(t("bot.status.contract", lang, a=seat_label(view, a, lang), b=seat_label(view, b, lang), when=dl))
    elif phase == "ended":
        lines.append(t("bot.status.ended", lang))
    from cogs.replay import fair_line

    fair = fair_line(view, lang)  # the wall's commitment, in the channel from the deal on
    if fair:
        lines.append(fair)
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- panels


def _action_label(a: dict, lang: str, white_as: int | None = None) -> str:
    typ, tile = a["type"], a.get("tile")
    if tile is None:
        return t(f"bot.act.{typ}", lang)
    if typ == "discard":
        return tile_name(tile, lang)
    if typ == "chi" and white_as is not None and white_as in (tile, tile + 1, tile + 2):
        # caishen (RULES B1): the 白板 plays the 財神's face in this run, e.g. 吃 1万 2万 白(3万)
        run = [t("bot.white_face", lang, face=tile_name(k, lang)) if k == white_as else tile_name(k, lang)
               for k in (tile, tile + 1, tile + 2)]
        return t("bot.act.chi", lang, tiles=" ".join(run))
    if typ == "chi":
        return t("bot.act.chi", lang, tiles="".join(tile_name(tile + i, lang)[0] for i in range(3)) + tile_name(tile, lang)[1:])
    if typ in ("angang", "bugang"):
        return t(f"bot.act.{typ}", lang, tile=tile_name(tile, lang))
    return t(f"bot.act.{typ}", lang)


_STYLE = {"tsumo": discord.ButtonStyle.success, "hu": discord.ButtonStyle.success,
          "gang": discord.ButtonStyle.primary, "peng": discord.ButtonStyle.primary, "chi": discord.ButtonStyle.primary,
          "angang": discord.ButtonStyle.primary, "bugang": discord.ButtonStyle.primary,
          "pass": discord.ButtonStyle.secondary, "persist": discord.ButtonStyle.danger,
          "give_up": discord.ButtonStyle.secondary, "discard": discord.ButtonStyle.secondary}
_ORDER = ["tsumo", "hu", "gang", "peng", "chi", "angang", "bugang", "persist", "give_up", "pass"]


def action_keys(view: dict) -> frozenset[str]:
    return frozenset(f"{a['type']}:{a.get('tile')}" for a in view.get("actions") or ())


def panel_components(table_id: str, seat: int, nonce: int, view: dict, lang: str,
                     *, autowin: bool = False) -> discord.ui.View:
    """The seat's buttons: one per distinct tile to discard (百搭 first, marked ★), then, on a new row,
    the other actions (自摸 / 胡 / 杠 / 碰 / 吃 per chow / 暗杠 / 补杠 / 坚持 / 放弃 / 过), then the auto-win
    switch. At most 5 buttons a row and 5 rows, as Discord allows."""
    v = discord.ui.View(timeout=None)
    actions = list(view.get("actions") or ())
    wild = view.get("wildcard")
    nonce_s = _b36(nonce)
    discards = sorted({a["tile"] for a in actions if a["type"] == "discard"}, key=lambda x: (x != wild, x))
    others = sorted((a for a in actions if a["type"] != "discard"),
                    key=lambda a: (_ORDER.index(a["type"]) if a["type"] in _ORDER else 99, a.get("tile") or 0))
    items: list[tuple[int, MjButton]] = []
    for i, tile in enumerate(discards):
        label = ("★" if tile == wild else "") + tile_name(tile, lang)
        items.append((i // 5, MjButton(CustomId("discard", table_id, seat, nonce_s, tile), label=label)))
    first = (len(discards) + 4) // 5
    for i, a in enumerate(others):
        items.append((first + i // 5, MjButton(CustomId(a["type"], table_id, seat, nonce_s, a.get("tile")),
                                               label=_action_label(a, lang, view.get("white_as")),
                                               style=_STYLE.get(a["type"], discord.ButtonStyle.secondary))))
    if view.get("phase") != "ended":
        last = first + (len(others) + 4) // 5
        if sum(1 for r, _ in items if r == last - 1) < 5 and last > 0:
            last -= 1  # room on the last row of actions
        style = discord.ButtonStyle.success if autowin else discord.ButtonStyle.secondary
        items.append((last, MjButton(CustomId("autowin", table_id, seat, nonce_s),
                                     label=t("bot.act.autowin", lang) + (" ✓" if autowin else ""), style=style)))
    for row, item in items:
        if row > 4:
            log.error("panel of table %s seat %d has more buttons than Discord allows", table_id, seat)
            break
        item.row = row
        v.add_item(item)
    return v


def _b36(n: int) -> str:
    from jxbot.bot import to_base36

    return to_base36(n)


def panel_text(table: Table, seat: int, view: dict, lang: str) -> str:
    sv = (view.get("seats") or [{}] * 4)[seat]
    lines = [t("bot.panel.title", lang, table=table.id, wind=wind_name(sv.get("seat_wind", seat), lang))]
    hand = view.get("hand") or []
    wild = view.get("wildcard")
    tiles = " ".join(("★" if x == wild else "") + tile_name(x, lang) for x in hand)
    if view.get("drawn") is not None:
        d = view["drawn"]
        tiles += "  + " + ("★" if d == wild else "") + tile_name(d, lang)
    lines.append(tiles)
    phase = view.get("phase")
    types = {a["type"] for a in view.get("actions") or ()}
    dl = when(view.get("deadline"))
    if phase == "turn" and view.get("turn") == seat and types:
        lines.append(t("bot.panel.your_turn", lang, when=dl))
    elif phase in ("claim", "rob") and types and view.get("last_discard"):
        ld = view["last_discard"]
        lines.append(t("bot.panel.claim", lang, name=seat_label(view, ld["seat"], lang), tile=tile_name(ld["tile"], lang),
                       when=dl))
    elif phase == "contract" and types and view.get("contract"):
        a, b = view["contract"]
        lines.append(t("bot.panel.contract", lang, a=seat_label(view, a, lang), b=seat_label(view, b, lang), when=dl))
    elif phase == "ended":
        lines.append(t("bot.status.ended", lang))
    else:
        lines.append(t("bot.panel.wait", lang))
    if sv.get("auto") and phase != "ended":
        lines.append(t("bot.panel.auto", lang))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- seats


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
        keys = ("hand", "drawn", "actions", "wildcard", "dealer", "hand_number", "round_wind", "hand_id")
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
        if where is not None:
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

    def _holder(self, occ: Any, uid: int | None) -> bool:
        """``occ`` (user ``uid``) still holds this seat as a human."""
        now = self.occupant
        return now is occ and not occ.is_computer and occ.user_id == uid


class ChannelObserver:
    """The channel: keeps the table message (image + status) up to date, posts results."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.view: dict | None = None
        self.retire: int | None = None  # a table message from before a restart: retired once the new one is up
        self._shown: tuple | None = None  # the status text and picture inputs last shown (signature())
        self._text_shown: str | None = None  # the status text last shown (a busy bot edits it alone)
        self._picture_at = -1e18  # when the picture was last drawn (time.monotonic())
        self._later: asyncio.TimerHandle | None = None  # a busy bot's picture, due later
        self._final = False  # the hand is over: the table message shows its last state, picture included

    async def notify(self, view: dict, note: dict | None) -> None:
        self.view = view
        self.session.bot.coalescer.submit(("table", self.session.table.id), self.push, spare=True)

    def signature(self) -> tuple:
        """What the table message shows: the status text and the public view the picture is drawn from,
        compared with ``==`` (no JSON of the view: its parts are never changed in place)."""
        view = dict(self.view or {})
        view.pop("step", None)  # not drawn
        view.pop("deadline", None)  # in the text, to the second
        return (status_text(self.view or {}, self.session.table.lang), view)

    def _picture_due(self) -> None:
        self._later = None
        if self.session.table.table_message_id is not None:
            self.session.bot.coalescer.submit(("table", self.session.table.id), self.push, spare=True)

    def components(self) -> discord.ui.View:
        v = discord.ui.View(timeout=None)
        table = self.session.table
        v.add_item(MjButton(CustomId("show", table.id, None, "0"), label=t("bot.btn.show_hand", table.lang),
                            style=discord.ButtonStyle.primary))
        return v

    async def push(self) -> None:
        table, bot = self.session.table, self.session.bot
        if self.view is None:
            return
        sig = self.signature()
        if sig == self._shown and table.table_message_id is not None:
            return  # nothing visible changed (e.g. a claim answered in a window): no edit
        content = sig[0]  # the status text: signature() has just written it
        since = time.monotonic() - self._picture_at
        if (table.table_message_id is not None and since < BUSY_PICTURE_EVERY and not self._final
                and background_pictures_waiting() >= BUSY_PICTURES_WAITING):
            # busy: the status text now, the picture once BUSY_PICTURE_EVERY has passed since the last one
            try:
                if content != self._text_shown:
                    ch = bot.get_partial_messageable(table.channel_id)
                    await ch.get_partial_message(table.table_message_id).edit(content=content)
                    self._text_shown = content
                if self._later is None:
                    self._later = asyncio.get_running_loop().call_later(BUSY_PICTURE_EVERY - since, self._picture_due)
                return
            except discord.NotFound:
                table.table_message_id = None  # deleted: a new table message (with its picture) below
        if self._later is not None:
            self._later.cancel()
            self._later = None
        self._picture_at = time.monotonic()
        # (fresh for every change, never changed in place); the table's first message is drawn in the lane
        # players wait for: they are looking for it
        png = await render_async("table", self.view, table.lang, urgent=table.table_message_id is None)
        files = [discord.File(io.BytesIO(png), filename="table.png")] if png else []
        ch = bot.get_partial_messageable(table.channel_id)
        if table.table_message_id is not None:
            try:
                await ch.get_partial_message(table.table_message_id).edit(
                    content=content, view=self.components(), attachments=files)
                self._shown, self._text_shown = sig, content
                return
            except discord.NotFound:
                table.table_message_id = None
        msg = await ch.send(content=content, view=self.components(), files=files)
        table.table_message_id = msg.id
        table.table_messages.add(msg.id)  # its Show my hand is taken from it (cogs/binding.py)
        self._shown, self._text_shown = sig, content
        await self.session.cog.save(table)  # a restart finds this message (and retires it)
        old, self.retire = self.retire, None
        if old is not None and old != msg.id:
            await self.retire_message(old, msg)

    async def retire_message(self, old: int, new: discord.Message) -> None:
        """After a restart: the table message from before points to the new one and loses its buttons."""
        table, bot = self.session.table, self.session.bot
        ch = bot.get_partial_messageable(table.channel_id)
        try:
            await ch.get_partial_message(old).edit(content=t("bot.status.moved", table.lang, link=new.jump_url),
                                                   view=None, attachments=[])
        except discord.HTTPException as exc:
            log.info("could not retire the old table message of table %s: %s", table.id, exc)

    async def on_result(self, result: dict) -> None:
        table, bot = self.session.table, self.session.bot
        lang = table.lang
        if self._later is not None:  # a busy bot's picture still due: drawn now, before the result
            self._final = True
            bot.coalescer.submit(("table", table.id), self.push, spare=True)
        await bot.coalescer.flush(("table", table.id))
        self._final = False
        lines = [result_text(result, lang)]
        png = await render_async("result", copy.deepcopy(result), lang, urgent=True)  # everyone waits for it
        files = [discord.File(io.BytesIO(png), filename="result.png")] if png else []
        ch = bot.get_partial_messageable(table.channel_id)
        view = None
        runner = self.session.runner
        if runner is not None and not runner_will_stop(runner):
            self.session.next_votes = set()
            self.session.hand_no = int(result.get("hand_number") or 0)
            view = discord.ui.View(timeout=None)
            view.add_item(MjButton(CustomId("next", table.id, None, _b36(self.session.hand_no)),
                                   label=t("bot.btn.next", lang), style=discord.ButtonStyle.primary))
        # Replay, and Fair deal: the wall and salt revealed now that the hand is over (cogs/replay.py)
        from cogs.replay import hand_buttons

        replay_buttons = hand_buttons(str(result.get("hand_id") or ""), lang)
        if replay_buttons:
            view = view or discord.ui.View(timeout=None)
            for b in replay_buttons:
                view.add_item(b)
        try:
            kw: dict[str, Any] = {"view": view} if view is not None else {}
            posted = await ch.send(content="\n".join(lines), files=files, **kw)
            self.session.result_message_id = posted.id  # its Next is taken from it alone
        except discord.HTTPException:
            log.exception("posting the result of table %s failed", table.id)
        # the next hand gets a new table message below the result; the old one stays as it ended
        table.table_message_id = None
        await self.session.after_hand(result)

    def on_seats_moved(self, moves: list[int]) -> None:
        self.session.move_seats(moves)

    async def on_reseat(self, info: dict) -> None:
        await self.session.reseat(info)

    async def on_match_end(self, summary: dict) -> None:
        table, bot = self.session.table, self.session.bot
        totals = summary.get("totals") or []
        names = summary.get("names") or []
        body = "\n".join(f"{md(n)}: {v:+d}" for n, v in zip(names, totals, strict=False))
        ch = bot.get_partial_messageable(table.channel_id)
        try:
            await ch.send(content=t("bot.status.match_over", table.lang) + ("\n" + body if body else ""))
        except discord.HTTPException:
            log.exception("posting the end of table %s failed", table.id)
        await self.session.closed()


def runner_will_stop(runner: Any) -> bool:
    """True when the match ends with the hand just finished (no next hand to wait for)."""
    mh = runner.config.max_hands
    return bool(runner.match.over) or (mh is not None and runner.hands_played >= mh)


def skip_pause(runner: Any) -> None:
    """Deal the next hand now instead of after the pause between hands."""
    runner.skip_pause()


def caishen_mult(score: dict) -> int:
    """The multiplier (倍) of a caishen score's JSON: points = stake × 倍 (its items are multipliers)."""
    stake, points = int(score.get("stake") or 0), int(score.get("points") or 0)
    if stake > 0 and points % stake == 0:
        return points // stake
    m = 1
    for item in score.get("fan") or []:
        m *= int(item.get("value", 1))
    return m


def result_text(result: dict, lang: str) -> str:
    pays = result.get("payments") or []
    names = {p.get("seat"): p.get("name") for p in pays}
    if result.get("drawn_game") or result.get("winner") is None:
        head = t("bot.result.draw", lang)
    else:
        sc = result.get("score") or {}
        wt = result.get("win_tile")
        name = md(names.get(result["winner"], result["winner"]))
        tile = tile_name(wt, lang) if wt is not None else "?"
        if rulesets.of_view(result).multiplier_scoring:  # caishen: a multiplier (倍), not 台 / 番
            head = t("bot.result.win_cs", lang, name=name, tile=tile,
                     formula=t("score.caishen_formula", lang, stake=sc.get("stake", 0), mult=caishen_mult(sc),
                               points=sc.get("points", 0)))
        else:
            head = t("bot.result.win", lang, name=name, tile=tile, tai=sc.get("total_tai", 0),
                     fan=sc.get("total_fan", 0), stake=sc.get("stake", 0), points=sc.get("points", 0))
    lines = [head]
    for p in pays:
        bal = p.get("balance")
        lines.append(t("bot.result.payment", lang, name=md(p.get("name", p.get("seat"))), delta=int(p.get("delta", 0)),
                       balance="—" if bal is None else bal))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- session


class Session:
    """A running table: the runner plus its Discord seats."""

    def __init__(self, bot: JxBot, cog: TablesCog, table: Table) -> None:
        self.bot = bot
        self.cog = cog
        self.table = table
        self.seats: dict[int, DiscordSeat] = {}
        self.observer = ChannelObserver(self)
        self.runner: Any = None
        self._dm: dict[int, discord.abc.Messageable] = {}
        self.next_votes: set[int] = set()  # humans who pressed Next after the last hand
        self._reseat_untold = False  # the seats moved (move_seats); reseat() has yet to tell and redraw
        self.result_message_id: int | None = None  # the last result message (its Next button)
        self.hand_no = 0
        self.seed: int | str | None = cog.seed  # None: a fresh secret seed (TablesCog.table_seed)

    def _seat_infos(self) -> list[Any]:
        from jxbot.table import SeatInfo

        infos = []
        for i, occ in enumerate(self.table.seats):
            assert occ is not None
            if occ.is_computer:
                infos.append(SeatInfo.computer(computer_name(occ.name.lstrip("#"), occ.level, self.table.lang),
                                               occ.level))
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

    def start(self, *, runner_state: dict | None = None, events: Sequence[dict] = ()) -> None:
        from jxbot.table import TableRunner

        kw: dict[str, Any] = {"interfaces": self._interfaces(), "observers": [self.observer],
                              "sink": self.cog.sink_for(self), "balances": self.balances}
        if self.cog.clock is not None:
            kw["clock"] = self.cog.clock
        if runner_state is not None:
            self.runner = TableRunner.resume(runner_state, events, **kw)
        else:
            self.runner = TableRunner(self._seat_infos(), self.runner_config(), **kw)
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
            from cogs.suspend import suspend_table

            # the class only: an error's text could name a concealed tile
            log.error("table %s stopped with an error: %s", self.table.id, type(exc).__name__)
            self._notice = asyncio.ensure_future(suspend_table(self.cog, self.table, exc))

    async def _tell_stopped(self) -> None:
        ch = self.bot.get_partial_messageable(self.table.channel_id)
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
            if not table.humans:  # nobody left to play for: this hand is the last
                runner.config.max_hands = runner.hands_played + 1
        text = t("bot.status.stood_up", table.lang, user=user_id, have=have, need=table.hold)
        ch = self.bot.get_partial_messageable(table.channel_id)

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
        ch = self.bot.get_partial_messageable(self.table.channel_id)
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
            who = f"<@{occ.user_id}>" if occ is not None and not occ.is_computer else md(names[i])
            lines.append(f"{wind_name(i, table.lang)} · {who}")
        ch = bot.get_partial_messageable(table.channel_id)
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


# ---------------------------------------------------------------------------------------------- sink


class StoreSink:
    """The runner's event sink on ``jxbot.store``: hands, events, settlements and the resumable state
    (the runner's state plus the bot's table: seats, message ids, button nonces)."""

    def __init__(self, store: Any, table: Table) -> None:
        self.store = store
        self.table = table
        self.seats: dict[str, list[int | None]] = {}

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
        await self.store.settle_hand(hand_id, self.table.guild_id, seats, settlement, result_view)


# ---------------------------------------------------------------------------------------------- cog


ERR_KEYS = {"not_your_turn": "bot.err.too_late", "window_closed": "bot.err.too_late", "hand_over": "bot.err.too_late",
            "no_hand": "bot.err.too_late", "not_your_seat": "bot.err.not_your_seat",
            "table_error": "bot.err.table_stopped", "paused": "bot.err.table_stopped",
            "escaped": "bot.err.escaped", "gave_up": "bot.err.gave_up"}


class PlayCog(commands.Cog):
    """Buttons of the DM panels and of the table message."""

    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        for verb in ACTION_VERBS:
            bot.register_button(verb, self.on_action)
        bot.register_button("autowin", self.on_autowin)
        bot.register_button("show", self.on_show)
        bot.register_button("next", self.on_next)

    @property
    def tables(self) -> TablesCog:
        cog = self.bot.get_cog("TablesCog")
        assert cog is not None
        return cog  # type: ignore[return-value]

    def _check(self, interaction: discord.Interaction, cid: CustomId) -> tuple[Table, Session] | str:
        table = self.tables.manager.get(cid.table)
        if table is None or table.session is None or cid.seat is None:
            return "bot.err.stale"
        occ = table.seats[cid.seat]
        if occ is None or occ.user_id != interaction.user.id:
            return "bot.err.not_your_seat"
        if cid.nonce != _b36(table.nonces.get(cid.seat, 0)):
            return "bot.err.stale"
        if not table.is_panel(interaction.user.id, pressed_id(interaction)):
            return "bot.err.stale"  # a seat's button is taken only from that player's own panel message
        return table, table.session

    async def on_action(self, interaction: discord.Interaction, cid: CustomId) -> None:
        lang = lang_of(interaction)
        checked = self._check(interaction, cid)
        if isinstance(checked, str):
            await reply(interaction, t(checked, lang))
            return
        table, session = checked
        ds = session.seats.get(cid.seat)  # type: ignore[arg-type]
        if ds is not None and ds.occupant.dm_ok is False:
            ds.ephemeral = interaction
        action = Action(ActionType(cid.verb), cid.seat, cid.arg)  # type: ignore[arg-type]
        timing = interaction.extras.setdefault("press_ms", {})  # jxbot/press_timing.py
        timing["queue"], t0 = press_age_ms(interaction), time.perf_counter()
        if ds is not None:
            ds.answering += 1  # the panel this press changes goes out in its response, not as an edit
            guard = interaction.extras.get("ack_guard")
            if guard is not None:
                guard.cancel()
            ack_later(interaction, after=BUTTON_ACK_AFTER, update=True)
        try:
            err = await session.runner.submit(cid.seat, action)
        except BaseException:
            if ds is not None:
                ds.answering = max(0, ds.answering - 1)
            raise
        timing["submit"] = (time.perf_counter() - t0) * 1000.0
        if err is not None:
            if ds is not None:
                ds.answering = max(0, ds.answering - 1)
            key = ERR_KEYS.get(err)
            msg = t(key, lang) if key else t("bot.err.not_now", lang, reason=err)
            await reply(interaction, msg)
            if ds is not None:
                ds.schedule()
            return
        if ds is None:
            if take_response(interaction):
                await interaction.response.defer()
            return
        await ds.answer(interaction)

    async def on_autowin(self, interaction: discord.Interaction, cid: CustomId) -> None:
        lang = lang_of(interaction)
        table = self.tables.manager.get(cid.table)
        if table is None or table.session is None or cid.seat is None:
            await reply(interaction, t("bot.err.stale", lang))
            return
        occ = table.seats[cid.seat]
        if occ is None or occ.user_id != interaction.user.id:
            await reply(interaction, t("bot.err.not_your_seat", lang))
            return
        if not table.is_panel(interaction.user.id, pressed_id(interaction)):
            await refuse(interaction, cid.verb)
            return
        ds = table.session.seats.get(cid.seat)
        if ds is None or interaction.message is None:
            await interaction.response.defer()
            on = await self.toggle_autowin(table, cid.seat)
        else:  # the switch's new state (✓) is shown in the response itself, not by a REST edit
            ds.answering += 1
            try:
                on = await self.toggle_autowin(table, cid.seat)
            except BaseException:
                ds.answering = max(0, ds.answering - 1)
                raise
            await ds.answer(interaction)
            await after_guard(interaction)
        await interaction.followup.send(t("bot.ok.autowin_on" if on else "bot.ok.autowin_off", lang), ephemeral=True)

    async def toggle_autowin(self, table: Table, seat: int) -> bool:
        runner = table.session.runner
        on = not runner.seats[seat].autowin
        await runner.set_autowin(seat, on)
        return on

    async def on_next(self, interaction: discord.Interaction, cid: CustomId) -> None:
        """Next on a result: when every human at the table pressed it, the next hand is dealt at once."""
        lang = lang_of(interaction)
        table = self.tables.manager.get(cid.table)
        session = table.session if table is not None else None
        if table is None or session is None or cid.nonce != _b36(session.hand_no) or session.runner.hand_running:
            await reply(interaction, t("bot.err.stale", lang))
            return
        if not pressed_on(interaction, session.result_message_id):
            await refuse(interaction, cid.verb)
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None or seat not in session.seats:
            await reply(interaction, t("bot.err.not_seated", lang))
            return
        if seat in session.next_votes:
            await reply(interaction, t("bot.err.already", lang))
            return
        session.next_votes.add(seat)
        await reply(interaction, t("bot.ok.next_vote", lang, n=len(session.next_votes), total=len(session.seats)))
        if session.next_votes >= set(session.seats):
            skip_pause(session.runner)

    async def on_show(self, interaction: discord.Interaction, cid: CustomId) -> None:
        """"Show my hand" on the table message: the panel as an ephemeral message."""
        lang = lang_of(interaction)
        table = self.tables.manager.get(cid.table)
        if table is None or table.session is None:
            await reply(interaction, t("bot.err.stale", lang))
            return
        if not pressed_on(interaction, table.table_message_id, *table.table_messages):
            await refuse(interaction, cid.verb)
            return
        await self.show_hand(interaction, table)

    async def show_hand(self, interaction: discord.Interaction, table: Table) -> None:
        lang = lang_of(interaction)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.session is None or seat not in table.session.seats:
            await reply(interaction, t("bot.err.not_seated", lang))
            return
        ds = table.session.seats[seat]
        if ds.view is None and table.session.runner is not None:
            ds.view = table.session.runner.view(seat)
        if ds.view is None:
            await reply(interaction, t("bot.err.not_running", lang))
            return
        if ds.occupant.dm_ok is not False:
            # DMs work: send the panel again (a new DM message, the old one stays as it is)
            await interaction.response.defer(ephemeral=True, thinking=True)
            table.panels.pop(seat, None)
            await ds.push()
            if ds.occupant.dm_ok is not False:
                await interaction.followup.send(t("bot.ok.panel_sent", lang), ephemeral=True)
                return
        content, comps, png = await ds.build(urgent=True)  # (the player pressed for it and is waiting)
        files = [discord.File(io.BytesIO(png), filename="hand.png")] if png else []
        sent = await reply(interaction, content, view=comps, files=files)
        if sent is not None:
            table.bind_panel(interaction.user.id, sent)  # the ephemeral panel: its buttons are taken from it
        else:  # Discord did not name the message: its buttons answer "expired"; Show my hand opens another
            log.warning("table %s: the ephemeral panel's message id is unknown; it is not bound", table.id)
        ds.ephemeral = interaction


async def setup(bot: JxBot) -> None:
    await bot.add_cog(PlayCog(bot))
