"""Discord's request budget (docs/bot.md, "The request budget"): the counted requests of one bot token, and
the interaction tokens that let a message's updates go out without counting.

Discord counts every bot-token request against a global limit of 50 a second per token, across all the
processes of a deployment, but "interaction endpoints are not bound to the bot's Global Rate Limit": the
response to an interaction and the webhook routes its token opens (editing the original response, sending and
editing follow-ups), for 15 minutes. So

- :class:`TokenRoute` is the freshest interaction token that touched a message (a panel the player pressed, a
  table message posted as a follow-up of a press in its channel): while it is younger than its life less a
  safety margin, the message's next versions go through it; an expired or refused token is dropped at once
  and never tried again (a refused request is an *invalid* one: 10,000 in 10 minutes ban the IP);
- :class:`ChannelTokens` keeps the last few presses of each guild channel, so a message posted there (a
  hand's table message) can be a follow-up of the freshest one;
- :class:`RequestBudget` is this process's share of the counted requests (at most so many in any second),
  taken in priority order: claim offers first, then panels, then the channels' table messages (which leave
  a reserve for the others). The share is the deployment's budget divided by its live processes
  (``set_processes``, from the cluster's heartbeat).
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TOKEN_LIFE = 15 * 60.0  # seconds: Discord's interaction token life
TOKEN_MARGIN = 60.0  # a token is not used in the last minute of its life (a request in flight, clocks)
ANSWERED = {4, 6, 7}  # response types after which a follow-up may be sent
DEFERRED = 5  # "thinking…": its first follow-up fills it, so only once its handler (which sends that) is done

PRIORITY = ("offer", "panel", "table")


def margin(life: float) -> float:
    """How long before its end a token is no longer used (a minute of Discord's 15; a tenth of a shorter life)."""
    return min(TOKEN_MARGIN, life / 10.0)


@dataclass
class TokenRoute:
    """An interaction whose token reaches message ``message_id`` (its original response or a follow-up)."""

    interaction: Any  # discord.Interaction
    message_id: int | None
    at: float  # time.monotonic() when the interaction arrived (its token's life counts from there)
    original: bool = True  # the message is the interaction's original response (else a follow-up)

    def usable(self, now: float, life: float) -> bool:
        return now - self.at < life - margin(life) and not refused(self.interaction)


def refuse(interaction: Any) -> None:
    """Discord refused this interaction's token (expired, unknown): no route uses it again — a panel's, a table
    message's, a channel's follow-ups alike (each retry would be an invalid request)."""
    extras = getattr(interaction, "extras", None)
    if isinstance(extras, dict):
        extras["token_refused"] = True


def refused(interaction: Any) -> bool:
    extras = getattr(interaction, "extras", None)
    return isinstance(extras, dict) and bool(extras.get("token_refused"))


def answered(interaction: Any) -> bool:
    """The interaction has been answered in a way that lets its token send follow-ups of ours: a message or
    an update, or a deferral whose handler is done (``extras["handled"]``: its own answer filled the
    "thinking…" message, so ours cannot)."""
    resp = getattr(interaction, "response", None)
    rtype = getattr(resp, "type", None)
    value = getattr(rtype, "value", rtype)
    if resp is None or not resp.is_done():
        return False
    return value in ANSWERED or (value == DEFERRED and bool(getattr(interaction, "extras", {}).get("handled")))


class ChannelTokens:
    """The last few interactions of each guild channel, newest last (for follow-ups posted there)."""

    KEEP = 4

    def __init__(self, life: float = TOKEN_LIFE, clock: Callable[[], float] = time.monotonic) -> None:
        self.life = life
        self.clock = clock
        self._by_channel: dict[int, deque[tuple[float, Any]]] = {}

    def note(self, channel_id: int, interaction: Any) -> None:
        q = self._by_channel.setdefault(channel_id, deque(maxlen=self.KEEP))
        q.append((self.clock(), interaction))

    async def settled(self, channel_id: int, timeout: float = 1.0, young: float = 3.0) -> None:
        """Wait (at most ``timeout`` s) for the channel's newest press, when it arrived less than ``young`` s
        ago, to be handled: a hand's table message is posted while the press that began it is answered."""
        q = self._by_channel.get(channel_id)
        if not q:
            return
        at, inter = q[-1]
        end = self.clock() + timeout
        while (self.clock() - at < young and self.clock() < end and not answered(inter)
               and not getattr(inter, "extras", {}).get("handled")):
            await asyncio.sleep(0.05)

    def drop(self, channel_id: int, interaction: Any) -> None:
        """Discord refused ``interaction``'s token (expired, unknown): it is never tried again (a refused
        request is an invalid one, and 10,000 in 10 minutes ban the bot's IP)."""
        q = self._by_channel.get(channel_id)
        if q:
            for item in [x for x in q if x[1] is interaction]:
                q.remove(item)

    def freshest(self, channel_id: int) -> TokenRoute | None:
        """The newest answered interaction of the channel with its token still usable (None: none)."""
        q = self._by_channel.get(channel_id)
        if not q:
            return None
        now = self.clock()
        while q and now - q[0][0] >= self.life - margin(self.life):
            q.popleft()  # expired: never used again
        for at, inter in reversed(q):
            if answered(inter) and not refused(inter):
                return TokenRoute(inter, None, at, original=False)
        return None


class RequestBudget:
    """This process's share of the counted requests a second, spent in priority order.

    Discord's own model: at most ``rate`` requests in any one second (a sliding window of the requests
    taken), so no burst ever exceeds it. A ``table`` message edit takes while less than ``1 − reserve`` of
    the second is spent, a ``panel`` while less than 95 %, a claim ``offer`` up to the whole share: table
    pictures slow down first, and an offer finds room when panels wait. ``rate`` 0: no limit.
    """

    LEVEL = {"offer": 1.0, "panel": 0.95}

    def __init__(self, total: float, *, reserve: float = 0.3, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total  # the deployment's requests a second (JXBOT_REQUEST_BUDGET)
        self.processes = 1
        self.reserve = reserve
        self.clock = clock
        self._recent: deque[float] = deque()  # when the requests of the last second were taken
        self.taken = dict.fromkeys(PRIORITY, 0)  # counted requests by kind (observability and tests)
        self.waited = dict.fromkeys(PRIORITY, 0.0)

    @property
    def rate(self) -> float:
        return self.total / max(1, self.processes)

    def set_processes(self, n: int) -> None:
        """``n`` live processes share the token: each takes 1/n of the budget."""
        self.processes = max(1, int(n))

    def try_take(self, kind: str) -> float:
        """Take one request for ``kind``: 0.0 if taken, else the seconds until it may be."""
        rate = self.rate
        if rate <= 0:
            self.taken[kind] += 1
            return 0.0
        now = self.clock()
        q = self._recent
        while q and q[0] <= now - 1.0:
            q.popleft()
        cap = max(1.0, rate * self.LEVEL.get(kind, 1.0 - self.reserve))
        if len(q) + 1 <= cap:
            q.append(now)
            self.taken[kind] += 1
            return 0.0
        k = len(q) - int(cap)  # the window must lose this many (oldest first) before one more fits
        return max(0.001, q[min(k, len(q) - 1)] + 1.0 - now)

    async def take(self, kind: str) -> None:
        """Wait for a request of ``kind``."""
        while (wait := self.try_take(kind)) > 0:
            self.waited[kind] += wait
            await asyncio.sleep(wait)


# what the current task's counted requests are for (set by the panel and table message senders; anything
# else — command answers, lobby edits, results — counts as a panel: a person is waiting for it)
KIND: contextvars.ContextVar[str] = contextvars.ContextVar("jxbot_request_kind", default="panel")


def counted_route(path: str) -> bool:
    """A REST route Discord counts against the bot token's global limit (all but the interaction endpoints)."""
    return not path.startswith(("/interactions/", "/webhooks/"))


def meter(http: Any, budget: RequestBudget) -> None:
    """Make every counted request of discord.py's ``HTTPClient`` take from ``budget`` first, as the kind
    :data:`KIND` says (the interaction endpoints go through discord.py's webhook adapter, never here)."""
    request = http.request

    async def metered(route: Any, **kwargs: Any) -> Any:
        if counted_route(str(getattr(route, "path", ""))):
            await budget.take(KIND.get())
        return await request(route, **kwargs)

    http.request = metered
