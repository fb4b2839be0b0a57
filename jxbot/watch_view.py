"""The delayed public view of a running hand: what a watcher (观战) may see. Pure: no I/O, no asyncio, no Discord.

A watcher sees the table as it stood a few *moves* ago: public information only (discards, melds, the
number of concealed tiles, whose turn, the 百搭 / 財神, the tiles left, the scores), never a concealed
tile or the wall, and never the live state, so a watcher cannot relay it to a player. A *move* is what a
player does that the table sees: a discard, a claim (chow, pung, kong), a kong declared, a contract
answered, a win; a draw is not a move (it is shown with the move that follows it). The delay is at least
one move whatever the setting: the newest move (and the draw before it) is never shown while the hand
runs. Once the hand has ended nothing is secret any more (the result is posted in the channel): the view
is the final state.

Two ways in, with the same result (``tests/replay/test_watch_view.py``):

* :func:`delayed_public_view` — a pure function over a hand's event log (the store's ``hand_events``, or
  the live ``Hand.events``): what the web companion's live tables use;
* :class:`DelayedPublic` — the same, incremental, for a bot that follows a live hand: fed the growing
  event list after every change, it folds only the new events.

The view is a public view (docs/views.md) with ``actions`` ``[]``, ``deadline`` ``None`` and one more key,
``"delayed"``: ``{"delay": int, "moves": int, "shown": int, "ended": bool, "last": dict | None}`` — the
moves made so far, how many of them the view shows, whether the hand has ended, and the public JSON of
the last move shown (``Event.public_json(None)``: no drawn tile, no claim answer). :func:`caption` puts
the last move in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jxbot.game import events as ev
from jxbot.game.hand import Hand
from jxbot.i18n import register, t
from jxbot.replay import _feed
from jxbot.rules.tiles import tile_name, wind_name
from jxbot.seatnames import display_name

DEFAULT_DELAY = 2  # moves
MIN_DELAY = 1  # the live move is never shown

# what a player does that the table sees (a draw and the deal are not moves)
MOVE_TYPES = frozenset({"discarded", "claimed", "kong_declared", "konged", "contract_answered", "won",
                        "drawn_game", "escaped"})
END_TYPES = frozenset({"won", "drawn_game"})
# the runner's seat fields a watcher is shown (names and scores); the live flags (auto-play) are not
SEAT_FIELDS = ("name", "is_computer", "balance", "total")

register({
    # a running hand's concealed kong is told without its tile, as the channel tells it
    "watch.konged_concealed": {"zh": "{who} 暗杠", "en": "{who} declares a concealed kong"},
})


def effective_delay(delay: int | None) -> int:
    """The delay in moves actually applied: the setting, never below :data:`MIN_DELAY`."""
    if delay is None:
        return DEFAULT_DELAY
    return max(MIN_DELAY, int(delay))


def delay_for(settings: Any, guild: Any) -> int:
    """The delay at a server: its ``/admin settings watch_delay`` when an admin set it (``guild``: the store's
    ``GuildSettings``, ``watch_delay`` in its ``explicit``), else the bot's ``JXBOT_WATCH_DELAY``
    (``settings.watch_delay``). Not yet :func:`effective_delay`: 0 stays 0 here, 1 is applied."""
    if guild is not None and "watch_delay" in (getattr(guild, "explicit", None) or ()):
        return int(guild.watch_delay)
    return int(getattr(settings, "watch_delay", DEFAULT_DELAY))


class DelayedPublic:
    """The delayed public view of one table's current hand, kept by folding only new events.

    ``update(events)`` takes the hand's event list as it is now (the live ``Hand.events``, which only
    grows, or a new hand's list: a different first event starts over) and returns the view
    (:func:`delayed_public_view`), or None before the deal."""

    def __init__(self, delay: int | None = DEFAULT_DELAY) -> None:
        self.delay = effective_delay(delay)
        self._first: ev.Event | None = None
        self._scanned = 0  # events looked at
        self._moves: list[int] = []  # the index of every move's event
        self._dealt: int | None = None  # the index of the deal
        self._end: int | None = None  # the index of the win / drawn game
        self._hand: Hand | None = None
        self._folded = -1  # the index of the last event folded into _hand

    def _reset(self) -> None:
        self._first = None
        self._scanned = 0
        self._moves = []
        self._dealt = self._end = None
        self._hand = None
        self._folded = -1

    def target(self, events: Sequence[ev.Event]) -> int | None:
        """The index of the last event the view shows (None: nothing to show yet)."""
        if not events:
            return None
        if self._first is not events[0]:
            self._reset()
            self._first = events[0]
        for i in range(self._scanned, len(events)):
            e = events[i]
            if e.type in MOVE_TYPES:
                self._moves.append(i)
            if e.type == "dealt" and self._dealt is None:
                self._dealt = i
            if e.type in END_TYPES and self._end is None:
                self._end = i
        self._scanned = len(events)
        if self._end is not None:
            return len(events) - 1  # over: everything (the settlement included) is public
        shown = len(self._moves) - self.delay
        if shown >= 1:
            return self._moves[shown - 1]
        return self._dealt

    def update(self, events: Sequence[ev.Event | dict], *, seats: Sequence[dict | None] | None = None) -> dict | None:
        evs = [e if isinstance(e, ev.Event) else ev.event_from_json(e) for e in events] \
            if events and not isinstance(events[0], ev.Event) else events
        last = self.target(evs)  # type: ignore[arg-type]
        if last is None:
            return None
        if self._hand is None or self._folded > last:
            self._hand = Hand.replay(evs[:1])  # type: ignore[arg-type]
            self._folded = 0
        h = self._hand
        for i in range(self._folded + 1, last + 1):
            _feed(h, evs[i])  # type: ignore[arg-type]
        self._folded = last
        return self._view(h, evs, last, seats)  # type: ignore[arg-type]

    def _view(self, h: Hand, evs: Sequence[ev.Event], last: int, seats: Sequence[dict | None] | None) -> dict:
        v = h.public_view()  # its parts are shared with the hand: never changed in place (docs/views.md)
        out: list[dict] = []
        for i, sv in enumerate(v["seats"]):
            extra = (seats[i] if seats is not None and i < len(seats) else None) or {}
            out.append({**sv, **{k: extra[k] for k in SEAT_FIELDS if k in extra}, "auto": False, "escaped": False})
        v["seats"] = out
        v["actions"] = []
        v["deadline"] = None
        shown = sum(1 for i in self._moves if i <= last)
        last_move = next((evs[i] for i in reversed(self._moves) if i <= last), None)
        last_json = last_move.public_json(None) if last_move is not None else None
        if last_json is not None and last_json.get("kind") == "concealed_kong" and self._end is None:
            last_json["tile"] = None  # as the channel's note of it: the kind is its owner's to know
        v["delayed"] = {"delay": self.delay, "moves": len(self._moves), "shown": shown,
                        "ended": self._end is not None, "last": last_json}
        return v


def delayed_public_view(events: Sequence[ev.Event | dict], delay: int | None = DEFAULT_DELAY, *,
                        seats: Sequence[dict | None] | None = None) -> dict | None:
    """The public view of the hand ``events`` (its whole log, private fields and all) as it stood
    ``delay`` moves ago (at least one), or its final state once it has ended; None before the deal.
    ``seats``: per seat, the runner's fields to show (``name``, ``is_computer``, ``balance``, ``total``)."""
    return DelayedPublic(delay).update(events, seats=seats)


def caption(view: dict, lang: str) -> str:
    """The last move shown, in words ("南（Ann）打出 3万"), or "" when none is shown yet."""
    d = view.get("delayed") or {}
    last: dict[str, Any] | None = d.get("last")
    if not last:
        return ""
    seats = view.get("seats") or []

    def who(s: int | None) -> str:
        if s is None or not 0 <= s < len(seats):
            return "?"
        sv = seats[s]
        name = display_name(sv.get("name") or "ESWN"[s], lang, bool(sv.get("is_computer")))
        return t("replay.seat", lang, wind=wind_name(sv.get("seat_wind", s), lang), name=name)

    kind = last.get("type")
    seat = last.get("seat")
    tile = last.get("tile")
    tn = tile_name(tile, lang) if isinstance(tile, int) else "?"
    if kind == "discarded":
        return t("replay.discarded", lang, who=who(seat), tile=tn)
    if kind == "claimed":
        k = {"chow": "chow", "pung": "pung"}.get(str(last.get("kind")), "kong")
        return t(f"replay.claimed_{k}", lang, who=who(seat), from_=who(last.get("from_seat")), tile=tn)
    if kind == "kong_declared":
        return t("replay.kong_declared", lang, who=who(seat), tile=tn)
    if kind == "konged":
        if last.get("kind") == "concealed_kong":
            if not d.get("ended"):
                return t("watch.konged_concealed", lang, who=who(seat))
            return t("replay.konged_concealed", lang, who=who(seat), tile=tn)
        return t("replay.konged_added", lang, who=who(seat), tile=tn)
    if kind == "contract_answered":
        return t("replay.give_up" if last.get("give_up") else "replay.persist", lang, who=who(seat))
    if kind == "won":
        if last.get("self_draw"):
            return t("replay.won_self", lang, who=who(seat), tile=tn)
        frm = last.get("robbed_from") if last.get("robbed_from") is not None else last.get("discarder")
        key = "replay.won_rob" if last.get("robbed_from") is not None else "replay.won_from"
        return t(key, lang, who=who(seat), from_=who(frm), tile=tn)
    if kind == "drawn_game":
        return t("replay.drawn_game", lang)
    if kind == "escaped":
        return t("replay.escaped", lang, who=who(seat))
    return str(kind)
