"""The channel of a running table: :class:`ChannelObserver` keeps the table message up to date and posts results.
"""

from __future__ import annotations

import asyncio
import copy
import io
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from jxbot.custom_ids import CustomId, MjButton, to_base36
from jxbot.i18n import t
from jxbot.interactions import no_inline_429
from jxbot.request_budget import KIND, TokenRoute, refuse
from jxbot.safety import md
from jxbot.seatnames import display_name
from jxbot.shell.dmtable import channel_of, edit_each
from jxbot.shell.pictures import (
    BUSY_PICTURE_EVERY,
    BUSY_PICTURES_WAITING,
    background_pictures_waiting,
    render_async,
)
from jxbot.shell.texts import result_text, status_text

if TYPE_CHECKING:
    from jxbot.shell.session import Session

log = logging.getLogger("jxbot.shell.observer")

CANNOT_EDIT = 50005  # Discord: "Cannot edit a message authored by another user"


def runner_will_stop(runner: Any) -> bool:
    """True when the match ends with the hand just finished (no next hand to wait for)."""
    mh = runner.config.max_hands
    return bool(runner.match.over) or (mh is not None and runner.hands_played >= mh)


def skip_pause(runner: Any) -> None:
    """Deal the next hand now instead of after the pause between hands."""
    runner.skip_pause()


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
        self.route: TokenRoute | None = None  # the press whose follow-up the table message is (issue 28)
        self._slot: float | None = None  # when the picture pace lets this table's next picture be drawn

    async def notify(self, view: dict, note: dict | None) -> None:
        self.view = view
        if self._later is not None and self._slot is not None:
            return  # the table message's next edit is set for its picture slot: it will show this state
        self.session.bot.coalescer.submit(("table", self.session.table.id), self.push, spare=True)

    def signature(self) -> tuple:
        """What the table message shows: the status text and the public view the picture is drawn from,
        compared with ``==`` (no JSON of the view: its parts are never changed in place)."""
        view = dict(self.view or {})
        view.pop("step", None)  # not drawn
        view.pop("deadline", None)  # in the text, to the second
        return (status_text(self.view or {}, self.session.table.lang), view)

    def _picture_later(self) -> tuple[float, bool]:
        """0.0 when the table message's picture may be drawn now, else in how many seconds; and whether the
        status text goes out alone meanwhile (a busy bot's: yes; waiting for the pace's slot: no)."""
        pace = self.session.bot.picture_pace
        now = pace.now()
        if self._slot is not None:  # the pace gave this table a slot: the picture is drawn when it comes
            return (0.0 if now >= self._slot - 0.01 else self._slot - now), False
        since = time.monotonic() - self._picture_at
        if since < BUSY_PICTURE_EVERY and background_pictures_waiting() >= BUSY_PICTURES_WAITING:
            return BUSY_PICTURE_EVERY - since, True
        wait = pace.claim()
        self._slot = now + wait  # held until drawn (a newer state meanwhile is drawn in its place)
        return wait, False

    def _picture_due(self) -> None:
        self._later = None
        if self.session.table.table_message_id is not None:
            # a picture whose pace slot has come does not wait for JXBOT_EDIT_BUDGET as well (the status
            # texts between slots take that budget; a slot left waiting there would be a picture lost to the
            # pace); through the bot token its edit is still metered by the request budget
            self.session.bot.coalescer.submit(("table", self.session.table.id), self.push,
                                              spare=self._slot is None)

    def components(self) -> discord.ui.View:
        v = discord.ui.View(timeout=None)
        table = self.session.table
        if table.dm:  # in the players' DMs: their panel is there already, and nobody watches (dmtable.py)
            return v
        v.add_item(MjButton(CustomId("show", table.id, None, "0"), label=t("bot.btn.show_hand", table.lang),
                            style=discord.ButtonStyle.primary))
        from jxbot.shell.watch import watch_button

        v.add_item(watch_button(table.id, table.lang))
        return v

    async def push(self) -> None:
        table, bot = self.session.table, self.session.bot
        KIND.set("table")  # its bot-token edits come after offers and panels (this task's requests only)
        if self.view is None:
            return
        sig = self.signature()
        if sig == self._shown and (table.table_message_id is not None or (table.dm and table.dm_messages)):
            return  # nothing visible changed (e.g. a claim answered in a window): no edit
        content = sig[0]  # the status text: signature() has just written it
        if table.dm:
            await self._push_dm(sig, content)
            return
        mid = table.table_message_id
        later, text_now = self._picture_later() if mid is not None and not self._final else (0.0, False)
        if later > 0 and mid is not None:
            # the picture later: the bot is busy drawing (BUSY_PICTURE_EVERY since the last one: the status
            # text now), or the picture pace's slot for this table is still to come (nothing now: the message
            # is edited once, in the slot, with the state then — status texts in between, free through the
            # token, were 3× the table edits before the tokens, and their CPU showed in the presses' tails)
            try:
                if text_now and content != self._text_shown:
                    if not await self._via_token(mid, content=content):
                        ch = bot.get_partial_messageable(table.channel_id)
                        await ch.get_partial_message(mid).edit(content=content)
                    self._text_shown = content
                if self._later is None:
                    self._later = asyncio.get_running_loop().call_later(later, self._picture_due)
                return
            except discord.NotFound:
                table.table_message_id = None  # deleted: a new table message (with its picture) below
        if self._later is not None:
            self._later.cancel()
            self._later = None
        if self._slot is None:  # drawn out of turn (the first message, the hand's last picture): it takes a slot
            bot.picture_pace.charge()
        self._slot = None
        self._picture_at = time.monotonic()
        # (fresh for every change, never changed in place); the table's first message is drawn in the lane
        # players wait for: they are looking for it
        png = await render_async("table", self.view, table.lang, urgent=table.table_message_id is None)
        files = [discord.File(io.BytesIO(png), filename="table.png")] if png else []
        ch = bot.get_partial_messageable(table.channel_id)
        if table.table_message_id is not None:
            try:
                if not await self._via_token(table.table_message_id, content=content, view=self.components(),
                                             attachments=files):
                    files = [discord.File(io.BytesIO(png), filename="table.png")] if png else []
                    await ch.get_partial_message(table.table_message_id).edit(
                        content=content, view=self.components(), attachments=files)
                self._shown, self._text_shown = sig, content
                return
            except discord.NotFound:
                table.table_message_id = None
            except discord.Forbidden as exc:
                if exc.code != CANNOT_EDIT:
                    raise
                # a follow-up the bot token may not edit (its token expired): a new table message below
                log.info("table %s: the table message cannot be edited without its token; posting a new one",
                         table.id)
                table.table_message_id = None
        msg = await self._post_follow_up(content, png)
        if msg is None:
            KIND.set("panel")  # the table's new message: its players are looking for it
            files = [discord.File(io.BytesIO(png), filename="table.png")] if png else []
            msg = await ch.send(content=content, view=self.components(), files=files)
        table.table_message_id = msg.id
        table.table_messages.add(msg.id)  # its Show my hand is taken from it (jxbot/shell/binding.py)
        self._shown, self._text_shown = sig, content
        await self.session.cog.save(table)  # a restart finds this message (and retires it)
        old, self.retire = self.retire, None
        if old is not None and old != msg.id:
            await self.retire_message(old, msg)

    async def _push_dm(self, sig: tuple, content: str) -> None:
        """A DM table's table message: the same picture and text edited in each human player's DM, in their
        language (posted where they have none yet: a new hand, a new player), saved when a message was posted
        (a restart edits them). A DM table draws every change (no busy mode: its messages are edited per player)."""
        table = self.session.table
        self._picture_at = time.monotonic()
        view, urgent = self.view or {}, not table.dm_messages

        async def drawn(lang: str) -> tuple[str, Any, bytes | None]:
            text = content if lang == table.lang else status_text(view, lang)
            return text, self.components(), await render_async("table", view, lang, urgent=urgent)

        posted = await edit_each(self.session.bot, table, self.session.dm_channel, drawn)
        self._shown, self._text_shown = sig, content
        if posted:
            await self.session.cog.save(table)

    async def _post_follow_up(self, content: str, png: bytes | None) -> Any:
        """Post the table message as a follow-up of the freshest press in the channel (not counted by
        Discord; its token then edits the message): None when there is none or Discord refused it."""
        sent = await self._follow_up("table message", lambda: {
            "content": content, "view": self.components(),
            "files": [discord.File(io.BytesIO(png), filename="table.png")] if png else []})
        if sent is None:
            return None
        route, msg = sent
        self.route = TokenRoute(route.interaction, msg.id, route.at, original=False)
        return msg

    async def _follow_up(self, what: str, fields: Callable[[], dict[str, Any]]) -> tuple[TokenRoute, Any] | None:
        """Post a message in the table's channel as a follow-up of the freshest press there (Discord does not
        count it against the bot token): the route and the message, or None when there is no fresh press or
        Discord refused it — the caller then posts it with the bot token, so it is never lost. ``fields``
        makes the message's fields (its files afresh: a file is read once). A refused token (expired,
        unknown) is dropped and never tried again; a 429 of the token's route is not waited out here (the
        bot token posts the message at once) and leaves the token for later."""
        bot = self.session.bot
        if not bot.settings.token_routing:
            return None
        cid = self.session.table.channel_id
        await bot.channel_tokens.settled(cid)  # the press that began it (a hand, the next hand), answered
        route = bot.channel_tokens.freshest(cid)
        if route is None:
            return None
        try:
            with no_inline_429():
                msg = await route.interaction.followup.send(wait=True, **fields())
        except discord.HTTPException as exc:
            if exc.status != 429:
                refuse(route.interaction)  # never again, for the table message's edits either
                bot.channel_tokens.drop(cid, route.interaction)
            log.info("table %s: a follow-up for the %s was refused (%s %s); the bot token posts it",
                     self.session.table.id, what, exc.status, exc.code)
            return None
        return route, msg

    async def _post(self, what: str, fields: Callable[[], dict[str, Any]]) -> Any:
        """Post a message in the table's channel: a follow-up of the freshest press there when there is one
        (not counted), else with the bot token (counted)."""
        sent = await self._follow_up(what, fields)
        if sent is not None:
            return sent[1]
        ch = self.session.bot.get_partial_messageable(self.session.table.channel_id)
        return await ch.send(**fields())

    async def _via_token(self, message_id: int, **fields: Any) -> bool:
        """Edit the table message through the token of the press it follows up (not counted); False when
        there is none, it is too old or Discord refused it (dropped, never tried again: the caller edits
        with the bot token, which may edit its own follow-up). A 429 of the route is raised (the
        coalescer retries the newest state after ``retry_after``)."""
        route = self.route
        if route is None:
            return False
        if route.message_id != message_id or not route.usable(time.monotonic(), self.session.bot.settings.token_life):
            self.route = None
            return False
        try:
            with no_inline_429():  # a 429 is waited out by the coalescer (the newest picture then)
                await route.interaction.followup.edit_message(message_id, **fields)
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise
            refuse(route.interaction)  # never again, for the channel's follow-ups either
            if self.route is route:
                self.route = None
            log.info("table %s: the table message's interaction token was refused (%s %s); the bot token takes over",
                     self.session.table.id, exc.status, exc.code)
            return False
        return True

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
        outcome = getattr(getattr(self.session.runner, "sink", None), "outcome", None)
        runner = self.session.runner
        next_no: int | None = None
        if runner is not None and not runner_will_stop(runner):
            self.session.next_votes = set()
            self.session.hand_no = next_no = int(result.get("hand_number") or 0)
        # Replay, and Fair deal: the wall and salt revealed now that the hand is over (cogs/replay.py)
        from jxbot.shell.replay_buttons import hand_buttons, hand_web_button, review_button

        hand_id = str(result.get("hand_id") or "")

        async def made(lang: str) -> dict[str, Any]:
            """The result message in ``lang``: its text, picture and buttons (``fields`` for a send)."""
            lines = [result_text(result, lang)]
            if outcome is not None and result.get("match_over"):  # a ranked match's last hand: the ratings
                from jxbot.shell.ranked_ladder import outcome_text

                lines.append(outcome_text(outcome, lang))  # (<@id> mentions: the bot pings nobody by default)
            png = await render_async("result", copy.deepcopy(result), lang, urgent=True)  # everyone waits for it
            view = None
            if next_no is not None:
                view = discord.ui.View(timeout=None)
                view.add_item(MjButton(CustomId("next", table.id, None, to_base36(next_no)),
                                       label=t("bot.btn.next", lang), style=discord.ButtonStyle.primary))
            replay_buttons: list[discord.ui.Item[Any]] = list(hand_buttons(hand_id, lang))
            review = review_button(hand_id, lang) if not result.get("void") else None
            if review is not None:  # the coach's review, private to each player who presses it (cogs/review.py)
                replay_buttons.append(review)
            if replay_buttons:  # the hand's public replay on the web, when the companion is on (a link)
                web = await hand_web_button(bot, table.guild_id, hand_id, lang)
                if web is not None:
                    replay_buttons.append(web)
            if replay_buttons:
                view = view or discord.ui.View(timeout=None)
                for b in replay_buttons:
                    view.add_item(b)
            return {"content": "\n".join(lines), "png": png, "view": view}

        def fields(m: dict[str, Any]) -> dict[str, Any]:
            kw: dict[str, Any] = {"view": m["view"]} if m["view"] is not None else {}
            files = [discord.File(io.BytesIO(m["png"]), filename="result.png")] if m["png"] else []
            return {"content": m["content"], "files": files, "allowed_mentions": discord.AllowedMentions.none(), **kw}

        async def localized(lang: str) -> dict[str, Any]:
            return fields(await made(lang))

        mine = None if table.dm else await made(lang)
        try:
            if table.dm:  # each player's DM, in their language (dmtable.py): every copy's Next counts
                ch = channel_of(bot, table, self.session.dm_channel)
                posted = await ch.send_localized(localized)
                self.session.result_messages = {m.id for m in getattr(ch, "sent", ())}
            else:  # a follow-up of the freshest press in the channel (the Next press, the start), else the bot token
                posted = await self._post("result", lambda: fields(mine or {}))
                self.session.result_messages = set()
            self.session.result_message_id = posted.id if posted is not None else None  # its Next is taken from it
        except discord.HTTPException:
            log.exception("posting the result of table %s failed", table.id)
        # the next hand gets a new table message below the result; the old one stays as it ended
        table.table_message_id = None
        table.dm_messages = {}
        await self.session.after_hand(result)

    def on_seats_moved(self, moves: list[int]) -> None:
        self.session.move_seats(moves)

    async def on_reseat(self, info: dict) -> None:
        await self.session.reseat(info)

    async def on_match_end(self, summary: dict) -> None:
        table = self.session.table
        totals = summary.get("totals") or []
        computers = summary.get("computers") or [True] * 4

        def text_in(lang: str) -> str:
            names = [display_name(n, lang, c) for n, c in zip(summary.get("names") or [], computers, strict=False)]
            body = "\n".join(f"{md(n)}: {v:+d}" for n, v in zip(names, totals, strict=False))
            return t("bot.status.match_over", lang) + ("\n" + body if body else "")

        async def localized(lang: str) -> dict[str, Any]:
            return {"content": text_in(lang)}

        text = text_in(table.lang)
        try:
            if table.dm:  # each player's DM, in their language (dmtable.py)
                await channel_of(self.session.bot, table, self.session.dm_channel).send_localized(localized)
            else:  # a follow-up of the freshest press in the channel, else the bot token
                await self._post("end of the match", lambda: {"content": text,
                                                              "allowed_mentions": discord.AllowedMentions.none()})
        except discord.HTTPException:
            log.exception("posting the end of table %s failed", table.id)
        await self.session.closed()
