"""The coach's review in Discord (docs/coach.md): the Review (复盘) button on each hand's result and
``/mahjong review``, private to the player who presses (an ephemeral answer), a progress line while the
decisions are evaluated ("复盘中… 40%"), then the summary picture and buttons that step through every decision.

The viewer keeps its place in its buttons' custom ids (``mj:rv.<b>:<hand>:<seat>:<page>``, page 0 = the
summary, k = decision k), so it works after a restart: the review itself is cached in the store. Every press
checks again who is pressing: only the player who sat at that seat of that hand, on their own ephemeral
message. The pictures show only that seat's tiles (never another seat's concealed ones), and only once the
hand is settled. The evaluation runs in the coach's worker processes (``JXBOT_REVIEW_PROCESSES``), queued fairly
between players (``jxbot/coach/reviewer.py``); this cog only translates.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import render.review  # noqa: F401 (its strings: the words over a claim decision's picture are made here)
from jxbot.bot import JxBot, ls
from jxbot.coach import review as rv
from jxbot.coach import views
from jxbot.coach.reviewer import Reviewer, executor_submit, pool_submit
from jxbot.custom_ids import CustomId, MjButton, to_base36
from jxbot.i18n import register, t
from jxbot.interactions import after_guard, lang_of, reply, take_response
from jxbot.replay_store import (
    ReplayUnavailable,
    StoredHand,
    hand_code,
    hand_from_code,
    hand_players,
    load_hand,
    typed_hand_id,
)
from jxbot.shell.binding import bot_message_in, own_ephemeral, refuse
from jxbot.shell.dmtable import dm_hand_of
from jxbot.shell.pictures import render_async

log = logging.getLogger("jxbot.cogs.review")

register({
    "bot.cmd.review.name": {"zh": "复盘", "en": "review"},
    "bot.cmd.review.desc": {"zh": "和专家比一比：你在一手牌里的每个决定", "en": "Your decisions in a hand, compared with the expert's"},
    # (also cogs/replay.py's: registered here too, identical, so that this extension loads on its own)
    "bot.opt.hand.name": {"zh": "牌局", "en": "hand"},
    "bot.opt.review_hand.desc": {"zh": "牌局编号（不填：你最近的一手）", "en": "The hand's id (empty: your latest hand)"},
    "bot.review.progress": {"zh": "复盘中… {pct}%", "en": "Reviewing… {pct}%"},
    "bot.review.head": {"zh": "**复盘** 牌局 `{hand}` · {who}", "en": "**Review** of hand `{hand}` · {who}"},
    "bot.review.page": {"zh": "第 {k}/{n} 步", "en": "decision {k}/{n}"},
    "bot.review.not_yours": {"zh": "只有这手牌的玩家才能复盘自己的决定。", "en": "Only the players of this hand can review their decisions."},
    "bot.review.unknown": {"zh": "本服务器没有牌局 `{hand}`。", "en": "There is no hand `{hand}` in this server."},
    "bot.review.running": {"zh": "牌局 `{hand}` 还没结束，结束后才能复盘。", "en": "Hand `{hand}` has not ended: it can be reviewed once it has."},
    "bot.review.no_hands": {"zh": "你在这个服务器还没有打完的牌局。", "en": "You have no finished hand in this server yet."},
    "bot.review.failed": {"zh": "这次复盘没有完成，请稍后再试。", "en": "The review could not be finished; please try again later."},
    "bot.review.summary": {"zh": "总结", "en": "Summary"},
    "bot.review.jump": {"zh": "第 {n} 步", "en": "#{n}"},
})

NAV = ("⏮", "◀", "▶", "⏭")
PROGRESS_EVERY = 1.0  # seconds between two progress edits
POINTS_CACHE = 32
CLAIM_NAME = 24  # characters of "南（name）" over a claim decision's picture


class Private:
    """The presser's own message of this review: the interaction's ephemeral answer, or, when the press was
    already acknowledged as an update of the (public) result message, an ephemeral followup — never the
    result message itself."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.msg: Any = None

    async def start(self, content: str) -> None:
        i = self.interaction
        if take_response(i):
            await i.response.send_message(content, ephemeral=True)
            return
        await after_guard(i)
        if i.type is discord.InteractionType.application_command:  # the guard's ephemeral "thinking…"
            await i.edit_original_response(content=content)
        else:
            self.msg = await i.followup.send(content, ephemeral=True, wait=True)

    async def edit(self, **kw: Any) -> None:
        if self.msg is not None:
            await self.msg.edit(**kw)
        else:
            await self.interaction.edit_original_response(**kw)


class Pressed(Private):
    """The pressed message itself (a review's own ephemeral viewer): answered as the press's update."""

    async def edit(self, **kw: Any) -> None:
        i = self.interaction
        if take_response(i):
            await i.response.edit_message(**kw)
            return
        await after_guard(i)
        await i.edit_original_response(**kw)


class ReviewCog(commands.Cog):
    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        self._pool: Any = None
        self._reviewer: Reviewer | None = None
        self._points: OrderedDict[tuple[str, int], list[rv.Point]] = OrderedDict()
        bot.register_button("review", self.on_open)
        bot.register_button("rv", self.on_nav)

    # ------------------------------------------------------------------ the reviewer (lazily: its pool)
    def reviewer(self) -> Reviewer:
        if self._reviewer is None:
            settings = getattr(self.bot, "settings", None)
            n = int(getattr(settings, "review_processes", 1))
            budget = int(getattr(settings, "review_budget_ms", rv.BUDGET_HAND_MS))
            if n > 0:
                from jxbot.coach import CoachPool

                self._pool = CoachPool(processes=n)
                submit = pool_submit(self._pool)
            else:  # threads inside the bot (tests, one-core hosts): still never on the event loop
                from concurrent.futures import ThreadPoolExecutor

                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jxbot-review")
                submit = executor_submit(self._pool)
            self._reviewer = Reviewer(self.bot.store, submit, slots=max(1, n), budget_ms=budget)
        return self._reviewer

    async def cog_unload(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            close = getattr(pool, "close", None)
            if close is not None:
                close()
            else:
                pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ who may review what
    async def _hand(self, interaction: discord.Interaction, hand_id: str) -> StoredHand | None:
        """The settled hand of this server, or None after saying why not."""
        lang = lang_of(interaction)
        none = discord.AllowedMentions.none()
        shown = hand_id.replace("`", "'")
        if self.bot.store is None:
            await reply(interaction, t("bot.err.no_store", lang))
            return None
        rec = await self.bot.store.get_hand(hand_id)
        if rec is None or (rec.guild_id != interaction.guild_id  # another server's hand: not even its existence
                           and not await dm_hand_of(self.bot.store, rec, interaction.user.id)):  # (a DM table's: its players)
            await reply(interaction, t("bot.review.unknown", lang, hand=shown), allowed_mentions=none)
            return None
        try:
            # (a duplicate event's hand whose wall another table may still play: its player's own seat only, which
            # he saw as he played it — the replay and the wall wait for the round's end)
            return await load_hand(self.bot.store, hand_id, allow_elsewhere=True)
        except ReplayUnavailable as exc:
            key = "bot.review.running" if exc.code == "running" else "bot.review.unknown"
            await reply(interaction, t(key, lang, hand=shown), allowed_mentions=none)
            return None

    @staticmethod
    def seat_of(stored: StoredHand, user_id: int) -> int | None:
        return next((i for i, uid in enumerate(stored.seats) if uid == user_id), None)

    async def points(self, hand_id: str, seat: int, events: list[Any]) -> list[rv.Point]:
        key = (hand_id, seat)
        hit = self._points.get(key)
        if hit is None:
            hit = await asyncio.to_thread(rv.decision_points, events, seat)
            self._points[key] = hit
            while len(self._points) > POINTS_CACHE:
                self._points.popitem(last=False)
        else:
            self._points.move_to_end(key)
        return hit

    # ------------------------------------------------------------------ computing, with progress
    async def review_of(self, out: Private, stored: StoredHand, seat: int) -> rv.Review | None:
        """The review (cached, or computed now with a progress line on the presser's message ``out``)."""
        interaction = out.interaction
        lang = lang_of(interaction)
        reviewer = self.reviewer()
        hand_id = stored.replay.hand_id
        hit = await reviewer.cached(hand_id, seat)
        if hit is not None:
            return hit
        last = [0.0, -1]

        async def progress(done: int, total: int) -> None:
            pct = round(100 * done / total) if total else 100
            now = time.monotonic()
            if pct >= 100 or pct == last[1] or now - last[0] < PROGRESS_EVERY and pct > 0:
                return
            last[0], last[1] = now, pct
            await out.edit(content=t("bot.review.progress", lang, pct=pct), attachments=[], view=None)

        events = [e.to_json() for e in stored.replay.events]
        try:
            return await reviewer.review(hand_id, seat, events, owner=interaction.user.id, progress=progress)
        except Exception:
            log.exception("reviewing hand %s seat %s failed", hand_id, seat)
            await out.edit(content=t("bot.review.failed", lang), attachments=[], view=None)
            return None

    # ------------------------------------------------------------------ showing a page
    async def show(self, out: Private, stored: StoredHand, seat: int, review: rv.Review, page: int) -> None:
        lang = lang_of(out.interaction)
        rp = stored.replay
        n = len(review.decisions)
        page = max(0, min(n, page))
        esc = discord.utils.escape_markdown
        who_plain = rp.who(seat, lang)
        points = await self.points(rp.hand_id, seat, rp.events)
        if page == 0:
            wc, badge = views.wildcard_of(points)
            png = await render_async("review_summary", views.summary_view(review, who_plain, lang, wildcard=wc,
                                                                          badge=badge), lang, urgent=True)
            body = views.summary_text(review, lang)
            name = "review.png"
        else:
            p = points[page - 1]
            v = p.view
            claim_from = claim_source(v, lambda seat: rp.who(seat, lang), lang)
            png = await render_async("review_decision", views.decision_view(review, p, who_plain, lang, claim_from),
                                     lang, urgent=True)
            d = review.decisions[page - 1]
            body = t("bot.review.page", lang, k=page, n=n) + " · " + views.action_text(d["played"], lang)
            body += views.expert_words(d, lang)  # " → the expert: … (−6.50)" / "(no clear cost)"
            name = f"decision-{page}.png"
        content = t("bot.review.head", lang, hand=rp.hand_id, who=rp.who(seat, lang, esc)) + "\n" + body
        files = [discord.File(io.BytesIO(png), filename=name)] if png else []
        view = self.components(rp.hand_id, seat, review, page, lang)
        none = discord.AllowedMentions.none()
        await out.edit(content=content, attachments=files, view=view, allowed_mentions=none)

    def components(self, hand_id: str, seat: int, review: rv.Review, page: int, lang: str) -> discord.ui.View:
        code = hand_code(hand_id)
        assert code is not None
        last = len(review.decisions)
        v = discord.ui.View(timeout=None)
        for i, (label, to) in enumerate(zip(NAV, (0, page - 1, page + 1, last), strict=True)):
            off = (i < 2 and page == 0) or (i >= 2 and page >= last)
            v.add_item(MjButton(CustomId("rv", code, seat, to_base36(max(0, min(last, to))), i),
                                label=t("bot.review.summary", lang) if i == 0 else label, disabled=off, row=0))
        for j, d in enumerate(review.costliest()):
            v.add_item(MjButton(CustomId("rv", code, seat, to_base36(d["n"] + 1), 4 + j),
                                label=t("bot.review.jump", lang, n=d["n"] + 1), row=1,
                                style=discord.ButtonStyle.danger if page == d["n"] + 1 else discord.ButtonStyle.secondary))
        return v

    # ------------------------------------------------------------------ entry points
    async def open(self, interaction: discord.Interaction, hand_id: str) -> None:
        """A review for the presser (or the command's user): private, with progress, then the summary."""
        lang = lang_of(interaction)
        stored = await self._hand(interaction, hand_id)
        if stored is None:
            return
        seat = self.seat_of(stored, interaction.user.id)
        if seat is None or hand_code(stored.replay.hand_id) is None:
            await reply(interaction, t("bot.review.not_yours", lang))
            return
        out = Private(interaction)
        await out.start(t("bot.review.progress", lang, pct=0))
        review = await self.review_of(out, stored, seat)
        if review is not None:
            await self.show(out, stored, seat, review, 0)

    async def on_open(self, interaction: discord.Interaction, cid: CustomId) -> None:
        hand_id = hand_from_code(cid.table)
        if hand_id is None:
            await reply(interaction, t("bot.err.stale", lang_of(interaction)))
            return
        rec = await self.bot.store.get_hand(hand_id) if self.bot.store is not None else None
        if rec is None or not (bot_message_in(interaction, rec.channel_id, await hand_players(self.bot.store, rec))
                               or own_ephemeral(interaction)):
            await refuse(interaction, cid.verb)  # taken from the hand's result (or the presser's own message) only
            return
        await self.open(interaction, hand_id)

    async def on_nav(self, interaction: discord.Interaction, cid: CustomId) -> None:
        lang = lang_of(interaction)
        hand_id = hand_from_code(cid.table)
        if hand_id is None or cid.seat is None:
            await reply(interaction, t("bot.err.stale", lang))
            return
        if not own_ephemeral(interaction):  # a review is the presser's own ephemeral message: it alone is edited
            await refuse(interaction, cid.verb)
            return
        stored = await self._hand(interaction, hand_id)
        if stored is None:
            return
        if stored.seats[cid.seat] != interaction.user.id:  # the ids choose a page, never whose tiles are seen
            await reply(interaction, t("bot.review.not_yours", lang))
            return
        out = Pressed(interaction)
        review = await self.reviewer().cached(hand_id, cid.seat)
        if review is None:  # not in the store (a restart before it was kept): computed again on this message
            review = await self.review_of(out, stored, cid.seat)
            if review is None:
                return
        await self.show(out, stored, cid.seat, review, int(cid.nonce, 36))


def claim_source(view: dict, who: Any, lang: str) -> str | None:
    """The words over the tile a claim or rob decision answered: "东（Ann）打出" for a discard, "东（Ann）补杠"
    for a kong that could be robbed (it was not discarded)."""
    phase = view.get("phase")
    src = view.get("pending_kong") if phase == "rob" else view.get("last_discard")
    if not src or phase not in ("claim", "rob"):
        return None
    name = who(src["seat"])
    name = name if len(name) <= CLAIM_NAME else name[: CLAIM_NAME - 1] + "…"  # the verb and the tile stay in the picture
    return t("render.review.rob" if phase == "rob" else "render.review.claim", lang, who=name)


def _cog(interaction: discord.Interaction) -> ReviewCog:
    cog = interaction.client.get_cog("ReviewCog")  # type: ignore[attr-defined]
    assert isinstance(cog, ReviewCog)
    return cog


@app_commands.command(name=ls("bot.cmd.review.name"), description=ls("bot.cmd.review.desc"))
@app_commands.rename(hand=ls("bot.opt.hand.name"))
@app_commands.describe(hand=ls("bot.opt.review_hand.desc"))
async def review_command(interaction: discord.Interaction, hand: app_commands.Range[str, 1, 40] | None = None) -> None:
    cog = _cog(interaction)
    lang = lang_of(interaction)
    store = cog.bot.store
    if interaction.guild_id is None:
        await reply(interaction, t("bot.err.guild_only", lang))
        return
    hand_id = typed_hand_id(hand) if hand is not None else ""
    if not hand_id:  # no hand (or only spaces and backticks): the player's latest
        if store is None:
            await reply(interaction, t("bot.err.no_store", lang))
            return
        try:
            recent = await store.recent_hands(interaction.guild_id, interaction.user.id, 1)
        except Exception:  # an unknown player: no hand
            recent = []
        if not recent:
            await reply(interaction, t("bot.review.no_hands", lang))
            return
        hand_id = recent[0].hand_id
    await cog.open(interaction, hand_id)


def _group(bot: JxBot, cog_name: str) -> app_commands.Group | None:
    cog = bot.get_cog(cog_name)
    group = getattr(cog, "app_command", None) if cog is not None else None
    return group if isinstance(group, app_commands.Group) else None


async def setup(bot: JxBot) -> None:
    await bot.add_cog(ReviewCog(bot))
    mahjong = _group(bot, "TablesCog")
    if mahjong is not None:
        mahjong.add_command(review_command)


async def teardown(bot: JxBot) -> None:
    group = _group(bot, "TablesCog")
    if group is not None:
        group.remove_command(review_command.name)
