"""The buttons of a running table: a seat's actions, auto-win, Show my hand and Next. Each press is checked
(table, seat, nonce, the message it was pressed on) and becomes a ``runner.submit`` call on the table's
:class:`~jxbot.shell.session.Session`; the Discord side of a running table (seats, channel, texts,
pictures) lives in ``jxbot/shell/`` (docs/architecture.md).
"""

from __future__ import annotations

import io
import logging
import time
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from jxbot.bot import JxBot
from jxbot.custom_ids import CustomId, to_base36
from jxbot.game.actions import Action, ActionType
from jxbot.i18n import has, t
from jxbot.interactions import BUTTON_ACK_AFTER, ack_later, after_guard, lang_of, reply, take_response
from jxbot.press_timing import press_age_ms
from jxbot.shell.binding import pressed_id, pressed_on, refuse
from jxbot.shell.buttons import ACTION_VERBS
from jxbot.shell.lobby import Table
from jxbot.shell.observer import skip_pause
from jxbot.shell.session import Session

if TYPE_CHECKING:
    from cogs.tables import TablesCog

log = logging.getLogger("jxbot.cogs.play")

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
        if cid.nonce != to_base36(table.nonces.get(cid.seat, 0)):
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
            key = ERR_KEYS.get(err) or (f"game.error.{err}" if has(f"game.error.{err}") else None)
            msg = t(key, lang) if key else t("bot.err.not_now", lang, reason=err)  # (a code with no words yet)
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
        if table is None or session is None or cid.nonce != to_base36(session.hand_no) or session.runner.hand_running:
            await reply(interaction, t("bot.err.stale", lang))
            return
        if not pressed_on(interaction, session.result_message_id, *session.result_messages):
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
