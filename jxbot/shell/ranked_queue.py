"""Who waits in the ranked queues of this process, on the Discord side: each person's private queue message
(refreshed when the queue changes) beside the ladder's own matchmaking queue (``jxbot.ladder.queue``), one
per ladder (a server's, or the global one).

Every change is one synchronous method (check and change with no await between), so two presses of
"ranked" by one person never queue them twice and a person matched is out of the queue in the same step
that matched them. The queue lives in this process's memory: a restart empties it (the people are told on
their queue message when the bot stops; docs/ranked.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jxbot.i18n import register, t

register({
    "bot.rq.waiting": {
        "zh": "你在排位队列里（{ladder}，你的段位 {badge}）· 排队 {n} 人 · 已等 {waited} 秒。"
              "凑齐四人就在 <#{channel}> 开桌，届时会通知你。",
        "en": "You are in the ranked queue ({ladder}; your rank: {badge}) · {n} waiting · {waited} s so far. "
              "When four are matched a table opens in <#{channel}> and you are told.",
    },
    "bot.rq.left": {"zh": "你已离开排位队列。", "en": "You left the ranked queue."},
    "bot.rq.matched": {"zh": "匹配成功！牌桌 {table} 在 <#{channel}> 开始了。",
                       "en": "Matched! Table {table} starts in <#{channel}>."},
    "bot.rq.requeued": {"zh": "有人没能入座，牌桌没开成：你回到了排位队列里。",
                        "en": "Someone could not sit, so the table did not open: you are back in the ranked queue."},
    "bot.rq.dropped": {"zh": "你没能入座（银子不够，或已经坐在别的牌桌），已移出排位队列。",
                       "en": "You could not sit (short of silver, or seated at another table), so you left the ranked queue."},
    "bot.rq.stopped": {"zh": "机器人重启了，排位队列已清空：请重新 /麻将 排位。",
                       "en": "The bot restarted and the ranked queue was emptied: use /mahjong ranked again."},
    "bot.rq.btn.leave": {"zh": "离开队列", "en": "Leave the queue"},
    "bot.rq.global.waiting": {
        "zh": "你在跨服排位队列里（全服排位，你的段位 {badge}）· 排队 {n} 人 · 已等 {waited} 秒。"
              "凑齐四人（可能来自不同的服务器）就在私信里开桌，届时会通知你。",
        "en": "You are in the cross-server ranked queue (the global ladder; your rank: {badge}) · {n} waiting · "
              "{waited} s so far. When four are matched (from any server) a table opens in your DMs and you are told.",
    },
    "bot.rq.global.matched": {"zh": "匹配成功！牌桌 {table} 在你的私信里开始了：牌桌画面和你的手牌都在私信里。",
                              "en": "Matched! Table {table} starts in your DMs: the table picture and your hand are there."},
    "bot.rq.global.dm": {"zh": "你加入了跨服排位队列。匹配成功后，牌桌画面和你的手牌会发到这里。",
                         "en": "You joined the cross-server ranked queue. Once you are matched, the table and your hand "
                               "come here."},
    "bot.rq.global.dm_closed": {
        "zh": "跨服排位在私信里进行，但机器人无法给你发私信。请在隐私设置里允许来自服务器成员的私信，再试一次。",
        "en": "Cross-server ranked matches are played in DMs, but the bot cannot send you a DM. Allow direct "
              "messages from server members in your privacy settings and try again.",
    },
    "bot.rq.global.gone": {"zh": "你已不在跨服排位队列里。", "en": "You are no longer in the cross-server ranked queue."},
    "bot.rq.global.too_late": {"zh": "你刚刚已经匹配成功，离不开队列了：牌桌正在你的私信里打开。",
                               "en": "You were matched just now, too late to leave: the table is opening in your DMs."},
})


@dataclass
class Waiting:
    user_id: int
    guild_id: int
    name: str
    lang: str
    ladder: str  # the ladder's key (jxbot.ladder)
    rating: float
    channel_id: int  # where the table will open (the server's ranked channel)
    badge: str = ""  # their tier and rating, in their language
    since: float = field(default_factory=time.monotonic)
    message: Any = None  # the interaction whose private answer is this person's queue message
    refreshed: str = ""  # the text last shown there


@dataclass
class Group:
    ladder: str
    people: list[Waiting]
    computers: int = 0  # seats a computer fills (only where the server allows it)


class RankedQueues:
    """Every ranked queue of this process: per ladder, ``make_queue(ladder)`` builds the ladder's pure queue
    (``jxbot.ladder.MatchQueue``: ``join(user_id, rating, guild_id)``, ``leave``, ``form(now)``)."""

    def __init__(self, make_queue: Callable[[str], Any]) -> None:
        self.make_queue = make_queue
        self.queues: dict[str, Any] = {}
        self.people: dict[int, Waiting] = {}

    def queued(self, user_id: int) -> Waiting | None:
        return self.people.get(user_id)

    def _queue(self, ladder: str) -> Any:
        q = self.queues.get(ladder)
        if q is None:
            q = self.queues[ladder] = self.make_queue(ladder)
        return q

    def join(self, w: Waiting) -> bool:
        """Queue ``w``; False if they already wait (their first entry stays)."""
        if w.user_id in self.people:
            return False
        self._queue(w.ladder).join(w.user_id, int(w.rating), w.guild_id)
        self.people[w.user_id] = w
        return True

    def leave(self, user_id: int) -> Waiting | None:
        w = self.people.pop(user_id, None)
        if w is not None:
            self._queue(w.ladder).leave(user_id)
        return w

    def requeue(self, people: list[Waiting]) -> None:
        """People matched whose table could not open go back in the queue."""
        for w in people:
            self.join(w)

    def waiting(self, ladder: str) -> list[Waiting]:
        return [w for w in self.people.values() if w.ladder == ladder]

    def match(self, now: float, fill_after: Callable[[Waiting], float | None] | None = None,
              unix_now: float | None = None) -> list[Group]:
        """The groups the ladders' queues form now; everyone in a group leaves the queue in this step.
        ``fill_after(w)``: where the server lets computers fill ranked seats, how long ``w`` may wait before
        a table opens with computers beside them (None: never). ``now`` is ``time.monotonic()`` (the waits),
        ``unix_now`` the queues' clock (``time.time()``)."""
        out: list[Group] = []
        for ladder, q in self.queues.items():
            for tickets in q.form(unix_now):
                people = [self.people.pop(tk.user_id) for tk in tickets if tk.user_id in self.people]
                if people:
                    out.append(Group(ladder, people))
        if fill_after is not None:  # someone waited past their server's limit: computers fill the seats left
            for w in sorted(self.people.values(), key=lambda w: w.since):
                limit = fill_after(w)
                if w.user_id not in self.people or limit is None or now - w.since < limit:
                    continue
                others = sorted((o for o in self.people.values() if o.ladder == w.ladder and o is not w
                                 and fill_after(o) is not None), key=lambda o: o.since)[:3]
                people = [w, *others]
                for p in people:
                    self.leave(p.user_id)
                out.append(Group(w.ladder, people, computers=4 - len(people)))
        return out

    def text(self, w: Waiting, now: float, ladder_name: str) -> str:
        return t("bot.rq.waiting", w.lang, ladder=ladder_name, n=len(self.waiting(w.ladder)),
                 waited=int(now - w.since), channel=w.channel_id, badge=w.badge or "—")
