"""What the web pages read from the shared store, and who may see it.

A server's pages exist only when its admins turned them on (``/admin web on``, the guild setting ``web``)
or the deployment serves every server (``--all-servers`` / ``JXBOT_WEB_ALL_SERVERS=1``); any other
server's pages, hands and tables are "not found", as in Discord. A hand is shown only once it is settled
(a running hand is the live table's delayed view, nothing else), and only as ``/mahjong replay`` shows it
to a stranger — unless a signed private link opens its own seat's tiles.

The ladder hook: when the ratings package (``jxbot.ladder``, issue 29) is installed, the server's page shows
its boards — the package's own ``async web_boards(store, guild_id, lang) -> [{"title", "rows": [{"user_id",
"name", "value"}]}]`` when it defines one, else the current season's board of each ruleset read through its
``Ladder(store).current_season`` / ``leaderboard`` and ``ladder_key`` (its documented interface). It is found
with ``importlib`` (the web depends on no ladder): nothing is shown while it does not exist.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections import OrderedDict
from typing import Any

from jxbot.i18n import t
from jxbot.replay_store import ReplayUnavailable, StoredHand, load_hand

log = logging.getLogger("jxbot.web")

HAND_CACHE = 32  # replays kept (a few ms to rebuild each)
HAND_TTL = 600.0
GUILD_TTL = 5.0  # an admin's /admin web off takes effect within this many seconds


class WebData:
    def __init__(self, store: Any, *, all_servers: bool = False) -> None:
        self.store = store
        self.all_servers = all_servers
        self._guilds: dict[int, tuple[float, Any]] = {}
        self._hands: OrderedDict[str, tuple[float, StoredHand]] = OrderedDict()

    async def guild(self, guild_id: int) -> Any | None:
        """The guild's settings when its pages are on, else None."""
        gs = await self.settings(guild_id)
        return gs if (self.all_servers or getattr(gs, "web", False)) else None

    async def settings(self, guild_id: int) -> Any:
        """The guild's settings, pages on or off (read at most every :data:`GUILD_TTL` seconds)."""
        hit = self._guilds.get(guild_id)
        if hit is not None and time.monotonic() - hit[0] < GUILD_TTL:
            gs = hit[1]
        else:
            gs = await self.store.get_guild_settings(guild_id)
            self._guilds[guild_id] = (time.monotonic(), gs)
            if len(self._guilds) > 10_000:
                self._guilds.clear()
        return gs

    async def hand(self, hand_id: str) -> StoredHand | None:
        """A settled hand of a server whose pages are on, else None."""
        hit = self._hands.get(hand_id)
        if hit is not None and time.monotonic() - hit[0] < HAND_TTL:
            self._hands.move_to_end(hand_id)
            stored = hit[1]
        else:
            rec = await self.store.get_hand(hand_id)
            if rec is None or rec.status != "settled" or await self.store.private_hands([hand_id]):
                return None  # (a private table's hand: not the server's to show, docs/web.md)
            try:
                stored = await load_hand(self.store, hand_id)
            except ReplayUnavailable:
                return None
            self._hands[hand_id] = (time.monotonic(), stored)
            while len(self._hands) > HAND_CACHE:
                self._hands.popitem(last=False)
        return stored if await self.guild(stored.record.guild_id) is not None else None

    async def rating_graphs(self, guild_id: int, user_id: int, lang: str) -> list[dict]:
        """A player's rating over the current season, per ruleset they are rated in (the ladder's history):
        ``[{"title", "points": [(time, rating), ...]}]``; nothing while there is no ladder or no rated match."""
        try:
            from jxbot.ladder import Ladder, ladder_key
        except ImportError:
            return []
        try:
            key = ladder_key(guild_id, getattr(self.store, "scope", "guild"))
            ladder = Ladder(self.store)
            out = []
            for ruleset in ("jiaxing", "caishen"):
                rd = await ladder.rank_data(key, ruleset, user_id)
                if rd.matches and rd.history:
                    out.append({"title": t("web.rating.title", lang, ruleset=t(f"web.ruleset.{ruleset}", lang),
                                           season=rd.season), "points": list(rd.history)})
            return out
        except Exception:  # the page shows the rest
            log.exception("the ladder's history could not be read")
            return []

    async def ladder_boards(self, guild_id: int, lang: str) -> list[dict]:
        """The ladder's boards, when the ratings package is there (see the module's docstring)."""
        try:
            mod = importlib.import_module("jxbot.ladder")
        except ImportError:
            return []
        fn = getattr(mod, "web_boards", None)
        if fn is not None:
            boards = await fn(self.store, guild_id, lang)
            return [b for b in boards if isinstance(b, dict)]
        ladder_cls, key_of = getattr(mod, "Ladder", None), getattr(mod, "ladder_key", None)
        if ladder_cls is None or key_of is None:
            return []
        try:
            key = key_of(guild_id, getattr(self.store, "scope", "guild"))
            ladder = ladder_cls(self.store)
            season = await ladder.current_season(key)
            if season is None:
                return []
            out = []
            for ruleset in ("jiaxing", "caishen"):
                page = await ladder.leaderboard(key, ruleset, season.season, 1, 20,
                                                guild_id=guild_id if key == "global" else None)
                rows = [{"user_id": e.user_id, "name": e.name or str(e.user_id),
                         "value": f"{e.rating:,} · {e.tier.name(lang)}"} for e in page.entries]
                if rows:
                    out.append({"title": t("web.ladder.board", lang, ruleset=t(f"web.ruleset.{ruleset}", lang),
                                           season=season.season), "rows": rows})
            return out
        except Exception:  # a ladder whose interface moved: the page shows the rest
            log.exception("the ladder's boards could not be read")
            return []
