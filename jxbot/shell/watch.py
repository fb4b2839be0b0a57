"""Watching a running table (观战, docs/watch.md): a private live view for anyone in the channel, delayed.

:class:`TableWatch` is one table's watchers; it is one more observer of the runner (beside the channel's
:class:`~jxbot.shell.observer.ChannelObserver`), so it is told of every change, of every result and of the
match's end. Being told costs the players nothing: ``notify`` only marks the table as changed. What a
watcher sees is :func:`jxbot.watch_view.delayed_public_view` of the hand's events (public information only,
``JXBOT_WATCH_DELAY`` moves behind, at least one), drawn with the channel's table picture (no concealed
tile: it is a public view).

:class:`WatchLane` (one per bot) brings the watchers' private messages up to date, below the players:
one edit at a time, each watcher at most every :data:`WATCH_EVERY` seconds, all watchers together at most
``JXBOT_WATCH_BUDGET`` edits a second, pictures drawn in the drawing lanes' *later* lane and once per table
state and language (shared by its watchers), and nothing while the pictures the players wait for are
queued. The players' panels never wait for it. A watcher's message is ephemeral, edited through the
token of the interaction that made it (the Watch or Refresh press): Discord keeps a token for 15 minutes,
so before that the view says it stopped following and offers Refresh (a new press, a new token).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from jxbot.custom_ids import CustomId, MjButton
from jxbot.i18n import register, t
from jxbot.safety import MESSAGE_MAX, md
from jxbot.seatnames import display_name
from jxbot.shell.pictures import background_pictures_waiting, render_async
from jxbot.shell.texts import result_text, status_text
from jxbot.watch_view import DelayedPublic, caption, effective_delay

if TYPE_CHECKING:
    from jxbot.shell.session import Session

log = logging.getLogger("jxbot.shell.watch")

WATCH_EVERY = 2.0  # seconds: at most one edit of a watcher's view this often
BUSY_WAIT = 2.0  # seconds a watcher's picture waits for the channels' queued pictures, at most
WATCHERS_MAX = 50  # watchers of one table
CLOSED_CHECK = 5.0  # seconds: how often the lane looks whether a watched table was closed without a match end
STOP_TELL = 2.0  # seconds a stop gives the watchers' "restarting" edits
TOKEN_SECONDS = 840.0  # Discord keeps an interaction token 15 min: the view says so a minute before
VERB_REFRESH = "rewatch"

register({
    "bot.opt.watch_delay.name": {"zh": "观战延迟", "en": "watch_delay"},
    "bot.opt.watch_delay.desc": {"zh": "观战画面比牌桌慢几步（至少 1 步）", "en": "How many moves a watcher's view is behind the table (at least 1)"},
    "watch.btn": {"zh": "观战", "en": "Watch"},
    "watch.btn.refresh": {"zh": "刷新观战", "en": "Refresh"},
    "watch.head": {"zh": "👀 观战 · 牌桌 {table} · 延迟 {delay} 步（已显示 {shown}/{moves} 步）",
                   "en": "👀 Watching table {table} · {delay} moves behind (showing {shown} of {moves} moves)"},
    "watch.head_over": {"zh": "👀 观战 · 牌桌 {table}", "en": "👀 Watching table {table}"},
    "watch.last": {"zh": "上一步：{what}", "en": "Last move: {what}"},
    "watch.scores": {"zh": "比分：{scores}", "en": "Scores: {scores}"},
    "watch.private": {"zh": "只有你能看到这条消息；显示的是公开信息，并有延迟。",
                      "en": "Only you can see this; it shows public information only, a little behind."},
    "watch.waiting": {"zh": "等待发牌……", "en": "Waiting for the deal…"},
    "watch.hand_over": {"zh": "第 {hand} 局结束：", "en": "Hand {hand} is over:"},
    "watch.ended": {"zh": "牌局结束，观战也结束了。谢谢观看！", "en": "The table has ended, and so has watching. Thanks for watching!"},
    "watch.expired": {"zh": "⏸ 这条观战消息不再自动更新（Discord 只允许机器人在 15 分钟内更新私密消息）。按「刷新观战」继续观看。",
                      "en": "⏸ This view has stopped updating (Discord lets a bot update a private message for 15 "
                            "minutes only). Press Refresh to keep watching."},
    "watch.restarting": {"zh": "⏸ 机器人正在重启，观战暂停。稍后按「刷新观战」继续观看。",
                         "en": "⏸ The bot is restarting, so watching paused. Press Refresh in a minute to keep watching."},
    "watch.gone": {"zh": "这张牌桌已不在进行（已结束，或机器人重启后没有继续）。", "en": "This table is no longer running "
                   "(it has ended, or it did not go on after the bot restarted)."},
    "watch.moved": {"zh": "👀 这条观战消息不再更新：你在下面又打开了一条，观战在那里继续。",
                    "en": "👀 This view no longer updates: you opened a newer one below, and watching goes on there."},
    "watch.full": {"zh": "这张牌桌的观战人数已满（{n} 人），请稍后再试。",
                   "en": "This table already has {n} watchers; please try again later."},
})


STRINGS_LOADED = True  # (cogs/admin.py imports it: the option names above are registered before its commands)


def refresh_components(table_id: str, lang: str, web_url: str | None = None) -> discord.ui.View:
    """A watcher's buttons: Refresh, and the table's live page on the web when the companion is on."""
    v = discord.ui.View(timeout=None)
    v.add_item(MjButton(CustomId(VERB_REFRESH, table_id, None, "0"), label=t("watch.btn.refresh", lang),
                        style=discord.ButtonStyle.secondary, emoji="🔄"))
    if web_url:
        from jxbot.shell.replay_buttons import web_button

        v.add_item(web_button(web_url, lang, "table"))
    return v


def watch_button(table_id: str, lang: str) -> MjButton:
    """The Watch button of a table message."""
    return MjButton(CustomId("watch", table_id, None, "0"), label=t("watch.btn", lang),
                    style=discord.ButtonStyle.secondary, emoji="👀")


@dataclass(eq=False)
class Watcher:
    user_id: int
    lang: str
    interaction: discord.Interaction  # the press whose token edits the view
    message_id: int | None  # None: the interaction's original response; else a followup of it
    since: float  # when its token was issued (time.monotonic())
    shown: Any = None  # the state last shown (TableWatch.state()'s key)
    last: float = -1e18  # when it was last edited
    failures: int = 0

    async def edit(self, **kw: Any) -> None:
        if self.message_id is None:
            await self.interaction.edit_original_response(**kw)
        else:
            await self.interaction.followup.edit_message(self.message_id, **kw)


@dataclass
class _Shown:
    """One table state in one language: its text and picture, shared by the watchers who read it."""

    key: Any
    content: str
    png: bytes | None
    final: bool = False
    views: dict = field(default_factory=dict)


class TableWatch:
    """One table's watchers, and what they are shown. An observer of the table's runner."""

    def __init__(self, session: Session, delay: int) -> None:
        self.session = session
        self.watchers: dict[int, Watcher] = {}
        self.follower = DelayedPublic(delay)
        self.seats: list[dict] | None = None  # the runner's seat fields (names, balances, totals), last told
        self.result: dict | None = None  # the last hand's result, until the next deal
        self.summary: dict | None = None  # the match's end
        self.version = 0  # bumped on every change the runner tells
        self._cache: dict[str, _Shown] = {}  # per language: the newest state drawn
        self.delay_read_at = -1e18  # when the server's own delay was last read (cogs/watch.py)
        self.web_url: str | None = None  # the table's live page on the web, when the companion is on (cogs/watch.py)
        self.retired: list[Watcher] = []  # views replaced by a newer one of the same person: told so, once

    @property
    def lane(self) -> WatchLane:
        return lane_of(self.session.bot)

    # -- the runner's observer interface (all cheap: the lane does the work)
    async def notify(self, view: dict, note: dict | None) -> None:
        self.seats = view.get("seats")
        if view.get("phase") != "ended" and self.result is not None and view.get("hand_id") != self.result.get("hand_id"):
            self.result = None  # a new hand is dealt
        self._changed()

    async def on_result(self, result: dict) -> None:
        self.result = result
        self._changed()

    async def on_match_end(self, summary: dict) -> None:
        self.summary = summary
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        if self.watchers:
            self.lane.wake(self)

    @property
    def gone(self) -> bool:
        """The table was closed (``manager.end``: /admin close, a suspension) — with or without a match end."""
        return getattr(self.session.table, "state", None) == "ended"

    def table_closed(self) -> None:
        """The table went away without a match end (closed, voided): the watchers are told it ended."""
        if self.summary is None:
            self.summary = {}
            self._changed()

    def set_delay(self, delay: int) -> None:
        """A new delay (an admin changed it): the next view is cut with it (at least one move)."""
        self.follower.delay = effective_delay(delay)

    # -- watchers
    def add(self, w: Watcher, *, new_message: bool = False) -> str | None:
        """Start (or renew) ``w``'s view. Returns an error key when the table has too many watchers.
        ``new_message``: ``w`` is a new message (Watch pressed again, a double tap): the person's older view,
        which would stay frozen with no word, is told that watching goes on in the newer one."""
        if w.user_id not in self.watchers and len(self.watchers) >= WATCHERS_MAX:
            return "watch.full"
        old = self.watchers.get(w.user_id)
        if new_message and old is not None and old is not w:
            self.retired.append(old)
        self.watchers[w.user_id] = w
        self.lane.wake(self)
        return None

    # -- what is shown
    def delayed(self) -> dict | None:
        """The delayed public view of the current hand (None before its deal)."""
        runner = self.session.runner
        hand = getattr(runner, "hand", None) if runner is not None else None
        if hand is None:
            return None
        return self.follower.update(hand.events, seats=self.seats)

    def text(self, view: dict | None, lang: str) -> str:
        table = self.session.table
        if self.summary is not None:
            return self._end_text(lang)
        lines: list[str] = []
        if view is None:
            lines += [t("watch.head_over", lang, table=table.id), t("watch.waiting", lang)]
        else:
            d = view.get("delayed") or {}
            if d.get("ended") and self.result is not None:
                lines.append(t("watch.head_over", lang, table=table.id))
                lines.append(t("watch.hand_over", lang, hand=view.get("hand_number", "?")))
                lines.append(result_text(self.result, lang))
            else:
                lines.append(t("watch.head", lang, table=table.id, delay=d.get("delay", 0), shown=d.get("shown", 0),
                               moves=d.get("moves", 0)))
                # (a watcher's view has no clock: the channel's "(—)" for a missing one is left out)
                lines.append(status_text(view, lang).replace("（—）", "").replace(" (—)", ""))
                what = caption(view, lang)
                if what:
                    lines.append(t("watch.last", lang, what=md(what)))
            scores = self._scores(view, lang)
            if scores:
                lines.append(t("watch.scores", lang, scores=scores))
        lines.append("-# " + t("watch.private", lang))
        return _cap("\n".join(lines))

    @staticmethod
    def _scores(view: dict, lang: str) -> str:
        parts = []
        for sv in view.get("seats") or []:
            total = sv.get("total")
            if total is None:
                continue
            name = display_name(sv.get("name") or "?", lang, bool(sv.get("is_computer")))
            parts.append(f"{md(name)} {int(total):+d}")
        return " · ".join(parts)

    def _end_text(self, lang: str) -> str:
        table = self.session.table
        s = self.summary or {}
        if not s:  # closed without a match end (an admin's stop, a suspension): no totals to tell
            return _cap("\n".join([t("watch.head_over", lang, table=table.id), t("watch.gone", lang)]))
        totals = s.get("totals") or []
        computers = s.get("computers") or [True] * 4
        names = [display_name(n, lang, c) for n, c in zip(s.get("names") or [], computers, strict=False)]
        lines = [t("watch.head_over", lang, table=table.id), t("watch.ended", lang)]
        if self.result is not None:
            lines.append(result_text(self.result, lang))
        lines += [f"{md(n)}: {v:+d}" for n, v in zip(names, totals, strict=False)]
        return _cap("\n".join(lines))

    def state(self) -> tuple[Any, dict | None]:
        """The state to show now: its key (compared with ``==``: what a watcher was last shown) and the
        delayed view (None before the deal, and once the match has ended)."""
        final = self.summary is not None
        view = None if final else self.delayed()
        sig_view = None
        if view is not None:
            sig_view = dict(view)
            sig_view.pop("delayed", None)
        return (final, (view or {}).get("delayed"), sig_view, self.result is not None), view

    async def shown(self, lang: str) -> _Shown:
        """The current state in ``lang``: text and picture, drawn once and shared by the watchers."""
        key, view = self.state()
        cached = self._cache.get(lang)
        if cached is not None and cached.key == key:
            return cached
        final = self.summary is not None
        content = self.text(view, lang)
        png = None
        if view is not None:
            png = await render_async("table", view, lang, urgent=False)  # the later lane, below the players
        elif final and cached is not None:
            png = cached.png  # the table as it was last shown
        out = _Shown(key, content, png, final)
        self._cache[lang] = out
        return out


def _cap(text: str) -> str:
    return text if len(text) <= MESSAGE_MAX else text[: MESSAGE_MAX - 1] + "…"


class WatchLane:
    """Every watcher's view brought up to date, one edit at a time, below the players (module doc)."""

    def __init__(self, budget: float, token_seconds: float = TOKEN_SECONDS, every: float = WATCH_EVERY) -> None:
        self.budget = budget  # edits per second, all watchers (0: no limit)
        self.token_seconds = token_seconds
        self.every = every
        self._tables: set[TableWatch] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.edits = 0  # observability and tests
        self.closed = False
        self.check_every = CLOSED_CHECK

    def wake(self, tw: TableWatch) -> None:
        if self.closed:
            return
        self._tables.add(tw)
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="watch-lane")
            self._task.add_done_callback(_report)

    def close(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()

    async def stop(self, timeout: float = STOP_TELL) -> int:
        """A stop (SIGTERM): the lane closes and every watcher is told the bot restarts (Refresh after it),
        all at once, at most ``timeout`` seconds. Returns how many were told."""
        self.close()
        edits = []
        for tw in list(self._tables):
            for w in list(tw.watchers.values()):
                edits.append(w.edit(content=_cap(t("watch.restarting", w.lang)),
                                    view=refresh_components(tw.session.table.id, w.lang, tw.web_url)))
            tw.watchers.clear()
        self._tables.clear()
        if edits:
            try:
                results = await asyncio.wait_for(asyncio.gather(*edits, return_exceptions=True), timeout)
                told = sum(1 for r in results if not isinstance(r, BaseException))
            except TimeoutError:
                told = 0
            log.info("stopping: %d of %d watchers told the bot restarts", told, len(edits))
        return len(edits)

    async def _run(self) -> None:
        while self._tables and not self.closed:
            self._wake.clear()
            now = time.monotonic()
            soonest: float | None = None
            for tw in list(self._tables):
                if not tw.watchers:
                    self._tables.discard(tw)
                    continue
                if tw.summary is None and tw.gone:
                    tw.table_closed()  # closed by another road than its last hand: the watchers are told
                wait = await self._serve(tw, now)
                if wait is None and tw.summary is not None:
                    self._tables.discard(tw)  # the end was shown to every watcher
                    tw.watchers.clear()
                elif wait is not None:
                    soonest = wait if soonest is None else min(soonest, wait)
                elif not tw.watchers:
                    self._tables.discard(tw)
            if not self._tables:
                break
            # (at least every check_every seconds: a table closed without telling its observers is noticed)
            wait_for = min(soonest if soonest is not None else 30.0, self.check_every)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait_for)

    async def _serve(self, tw: TableWatch, now: float) -> float | None:
        """Bring ``tw``'s watchers up to date as far as pacing allows. Returns the seconds until one of them
        is due again (None: all are up to date)."""
        soonest: float | None = None
        while tw.retired:  # a person's older view, replaced by a newer one: told once, without buttons
            old = tw.retired.pop(0)
            await self._spend()
            try:
                await old.edit(content=_cap(t("watch.moved", old.lang)), view=None)
            except Exception as exc:  # its token ran out, or the message is gone: nothing to tell
                log.info("an older watch view of user %s at table %s was not told: %r", old.user_id,
                         tw.session.table.id, type(exc).__name__)
        for uid, w in list(tw.watchers.items()):
            if tw.watchers.get(uid) is not w:
                continue
            expired = time.monotonic() - w.since >= self.token_seconds
            final = tw.summary is not None
            if not expired and tw.state()[0] == w.shown:
                continue  # up to date (next: its token's end)
            due = w.last + self.every - time.monotonic()
            if due > 0 and not final and not expired:
                soonest = due if soonest is None else min(soonest, due)
                continue
            waited = 0.0
            while background_pictures_waiting() > 0 and waited < BUSY_WAIT and not self.closed:
                await asyncio.sleep(0.25)  # the channels' pictures first (the players' never wait for these)
                waited += 0.25
            try:
                shown = None if expired else await tw.shown(w.lang)
            except Exception as exc:  # a picture that could not be drawn: never the players' concern
                log.warning("watch view of table %s could not be made: %r", tw.session.table.id, type(exc).__name__)
                tw.watchers.pop(uid, None)
                continue
            if tw.watchers.get(uid) is not w:
                continue  # renewed (Refresh) while the picture was drawn
            await self._spend()
            try:
                if expired:
                    await w.edit(content=_cap(t("watch.expired", w.lang)), view=refresh_components(tw.session.table.id, w.lang, tw.web_url))
                    tw.watchers.pop(uid, None)
                    continue
                assert shown is not None
                kw: dict[str, Any] = {"content": shown.content}
                if shown.png is not None:
                    kw["attachments"] = [discord.File(io.BytesIO(shown.png), filename="table.png")]
                kw["view"] = None if shown.final else refresh_components(tw.session.table.id, w.lang, tw.web_url)
                await w.edit(**kw)
                w.shown, w.last = shown.key, time.monotonic()
                self.edits += 1
                if shown.final:
                    tw.watchers.pop(uid, None)
            except discord.HTTPException as exc:
                w.failures += 1
                w.last = time.monotonic()
                if exc.status in (401, 404) or w.failures >= 3:  # token expired or message gone: let it go
                    log.info("watch view of user %s at table %s dropped: %s", uid, tw.session.table.id, exc.status)
                    tw.watchers.pop(uid, None)
            except Exception as exc:  # a closed session at a stop, a broken picture: never the players' concern
                log.warning("watch view of user %s at table %s failed: %r", uid, tw.session.table.id, type(exc).__name__)
                tw.watchers.pop(uid, None)
        if not tw.watchers:
            return None
        token_end = min(w.since for w in tw.watchers.values()) + self.token_seconds - time.monotonic()
        return token_end if soonest is None else min(soonest, token_end)

    _last_spent = -1e18

    async def _spend(self) -> None:
        if self.budget <= 0:
            return
        gap = 1.0 / self.budget - (time.monotonic() - self._last_spent)
        if gap > 0:
            await asyncio.sleep(gap)
        self._last_spent = time.monotonic()


def _report(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("the watch lane stopped: %r", task.exception())


def lane_of(bot: Any) -> WatchLane:
    """The bot's watch lane (made on first use, from its settings)."""
    lane = getattr(bot, "watch_lane", None)
    if lane is None:
        s = bot.settings
        lane = WatchLane(float(getattr(s, "watch_budget", 5.0)),
                         float(getattr(s, "watch_token_seconds", TOKEN_SECONDS)))
        bot.watch_lane = lane
    return lane


def watch_of(session: Session) -> TableWatch:
    """The session's watchers (made with the session; see Session.start)."""
    tw = getattr(session, "watch", None)
    if tw is None:
        tw = TableWatch(session, int(getattr(session.bot.settings, "watch_delay", 2)))
        session.watch = tw
    return tw
