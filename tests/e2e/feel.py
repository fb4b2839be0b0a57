"""How play feels, measured at the double (tests/e2e/test_feel.py and bench/e2e_load.py): click → the
clicker's own updated panel, how long an unanswered claim offer stays in front of the player, and the
REST calls the bot spends (Discord's ~50 requests/s per bot token; interaction responses are free)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from tests.e2e.double import DiscordDouble, Message
from tests.e2e.double.faults import counted
from tests.e2e.players import text_of
from tests.e2e.recording import on_bot_message

CLAIM_VERBS = ("pass", "hu", "peng", "chi", "gang")


@dataclass
class Shown:
    """One state of a message as a client showed it, and when."""

    at: float  # time.monotonic() when the double applied it
    message_id: int
    # what the message showed (its content, embeds and components: every edit replaces them, never
    # changes them in place); ``text`` reads them when asked (the load bench records thousands per second)
    parts: tuple[str, list[dict[str, Any]], list[dict[str, Any]]]
    custom_ids: tuple[str, ...]
    picture: int = 0  # the id of its first attachment (a new picture is a new attachment; 0: none)

    @property
    def text(self) -> str:
        return text_of(*self.parts)

    def verbs(self) -> set[str]:
        return {c.split(":")[1].partition(".")[0] for c in self.custom_ids if c.startswith("mj:")}

    @property
    def offer(self) -> bool:
        """A claim / rob offer: a 过 (pass) button is shown."""
        return "pass" in self.verbs()


class Timeline:
    """Every version of every bot message with its time (the double keeps only the latest)."""

    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.shown: dict[int, list[Shown]] = {}

        def rec(msg: Message) -> None:
            ids = tuple(b.get("custom_id") or "" for b in msg.buttons() if not b.get("disabled"))
            self.shown.setdefault(msg.id, []).append(
                Shown(time.monotonic(), msg.id, (msg.content, msg.embeds, msg.components), ids,
                      msg.attachments[0].id if msg.attachments else 0))

        on_bot_message(double, rec)

    def versions(self, message: Message | int) -> list[Shown]:
        return self.shown.get(message if isinstance(message, int) else message.id, [])


def own_panel_ms(double: DiscordDouble, timeline: Timeline, *, since: float = 0.0, until: float | None = None,
                 users: set[int] | None = None) -> list[float]:
    """For every accepted press on a hand panel (any mj: action but the auto-win switch) made from
    ``since`` (to ``until``): click → the pressed panel showing a new state, in ms."""
    out: list[float] = []
    for i in double.interactions.values():
        if i.type != 3 or i.created_at < since or (until is not None and i.created_at >= until) or i.message is None \
                or (users is not None and i.user.id not in users):
            continue
        cid = str((i.payload.get("data") or {}).get("custom_id", ""))
        if not cid.startswith("mj:") or cid.startswith(("mj:autowin", "mj:show", "mj:next")):
            continue
        if i.response_type not in (6, 7):
            continue  # refused (an ephemeral "too late" / "not your seat")
        later = [v.at for v in timeline.versions(i.message.id) if v.at >= i.created_at and cid not in v.custom_ids]
        if later:
            out.append((later[0] - i.created_at) * 1000.0)
    return out


def unanswered_offers(double: DiscordDouble, timeline: Timeline, messages: list[int]) -> list[float]:
    """For each claim offer shown on these panels that nobody pressed: seconds from the version that
    showed its buttons to the version that took them away."""
    pressed = {str((i.payload.get("data") or {}).get("custom_id", "")) for i in double.interactions.values()
               if i.type == 3}
    out: list[float] = []
    for mid in messages:
        vs = timeline.versions(mid)
        for k, v in enumerate(vs):
            if not v.offer or (k > 0 and vs[k - 1].custom_ids == v.custom_ids):
                continue  # not an offer, or the same buttons again (only the text changed)
            if pressed & set(v.custom_ids):
                continue
            gone = next((w for w in vs[k + 1:] if not set(v.custom_ids) & set(w.custom_ids)), None)
            if gone is not None:
                out.append(gone.at - v.at)
    return out


BUDGET_KINDS = {
    "edits": ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    "sends": ("POST", "/channels/{channel_id}/messages"),
    "dm_opens": ("POST", "/users/@me/channels"),
}


def rest_calls(double: DiscordDouble, since: float = 0.0, until: float = float("inf")) -> dict[str, int]:
    """The bot's REST calls by kind. ``budget`` = everything that counts against the bot's global rate
    limit (all but interaction callbacks and interaction webhooks); ``free`` = those two."""
    out = {k: 0 for k in BUDGET_KINDS} | {"other": 0, "budget": 0, "free": 0}
    for at, method, template, _status in double.requests:
        if not since <= at < until:
            continue
        if not counted(template):
            out["free"] += 1
            continue
        out["budget"] += 1
        kind = next((k for k, (m, t) in BUDGET_KINDS.items() if m == method and t == template), "other")
        out[kind] += 1
    return out


def quantile(xs: list[float], f: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(f * len(xs)))], 1)


def calls_by_kind(double: DiscordDouble, since: float = 0.0, until: float = float("inf")) -> dict[str, dict[str, int]]:
    """The bot's requests split ``counted`` (against the bot token's global limit) / ``free`` (interaction
    endpoints), each by what they served: ``panel`` (a DM message), ``table`` (a channel's table message),
    ``channel`` (the channels' other messages and sends: lobby, results, new table messages), ``response``
    (interaction callbacks), ``dm_open``, ``other`` (commands, guild reads …)."""
    out: dict[str, dict[str, int]] = {"counted": {}, "free": {}}
    for (at, _method, template, _status), params in zip(double.requests, double.request_params, strict=False):
        if not since <= at < until:
            continue
        side = out["counted" if counted(template) else "free"]
        kind = _kind(double, template, params)
        side[kind] = side.get(kind, 0) + 1
    return out


def _kind(double: DiscordDouble, template: str, params: dict[str, str]) -> str:
    if template.startswith("/interactions/"):
        return "response"
    if template == "/users/@me/channels":
        return "dm_open"
    mid = params.get("message_id") or ""
    msg: Message | None = None
    if template.startswith("/webhooks/"):
        inter = double.by_token.get(params.get("token", ""))
        if inter is None:
            return "other"
        channel = inter.channel
        msg = inter.original if mid == "@original" else double.messages.get(int(mid)) if mid.isdigit() else None
    elif template.startswith("/channels/{channel_id}/messages"):
        channel = double.channels.get(int(params.get("channel_id") or 0))  # type: ignore[assignment]
        msg = double.messages.get(int(mid)) if mid.isdigit() else None
    else:
        return "other"
    if channel is None:
        return "other"
    if channel.type == 1:
        return "panel"
    if msg is not None and any(a.filename == "table.png" for a in msg.attachments):
        return "table"
    return "channel"


def change_lags_ms(double: DiscordDouble, timeline: Timeline, events: dict[int, list[float]],
                   panels: dict[int, list[int]], since: float, until: float) -> dict[str, list[float]]:
    """How stale the messages players look at are: ``events`` are each channel's hand events (monotonic
    times), ``panels`` the DM panel message ids of each channel's people. ``table``: for every event, the
    time until the channel's table message next shows a new version (``table_picture``: a new picture);
    ``panel`` and ``offer``: for every version of a panel its player did not press for (another seat's
    move; ``offer``: one that brought a claim offer), the time since the table's latest event before it."""
    import bisect

    own: dict[int, list[float]] = {}  # the presses answered by updating the pressed panel (type 7)
    for i in double.interactions.values():
        if i.message is not None and i.acked_at is not None and i.response_type == 7:
            own.setdefault(i.message.id, []).append(i.acked_at)
    out: dict[str, list[float]] = {"table": [], "table_picture": [], "panel": [], "offer": []}
    for cid, evs in events.items():
        evs = sorted(evs)
        ch = double.channels.get(cid)
        if ch is None or not evs:
            continue
        tables = [m for m in ch.messages if any(a.filename == "table.png" for a in m.attachments)]
        tv = sorted(v.at for m in tables for v in timeline.versions(m.id))
        # the versions that brought a new picture (the status text alone may follow a move before it)
        pv = sorted(v.at for m in tables for vs in [timeline.versions(m.id)] for n, v in enumerate(vs)
                    if n == 0 or v.picture != vs[n - 1].picture)
        for t in evs:
            if not since <= t < until:
                continue
            k = bisect.bisect_left(tv, t)
            if k < len(tv) and tv[k] - t < 30.0:
                out["table"].append((tv[k] - t) * 1000.0)
            k = bisect.bisect_left(pv, t)
            if k < len(pv) and pv[k] - t < 30.0:
                out["table_picture"].append((pv[k] - t) * 1000.0)
        for mid in panels.get(cid, []):
            vs = timeline.versions(mid)
            for n, v in enumerate(vs):
                if not since <= v.at < until or any(0.0 <= v.at - a < 0.1 for a in own.get(mid, ())):
                    continue  # the player's own press answered
                k = bisect.bisect_right(evs, v.at) - 1
                if k < 0:
                    continue
                lag = (v.at - evs[k]) * 1000.0
                out["panel"].append(lag)
                if v.offer and (n == 0 or not vs[n - 1].offer):
                    out["offer"].append(lag)
    return out
