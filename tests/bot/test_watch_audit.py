"""The audit's watch checks: what a watcher notices when a table goes away by another road than its last hand."""

from __future__ import annotations

import asyncio
import time

from jxbot.shell.watch import WatchLane
from tests.bot.test_watch_lane import drawn, table_with_watchers  # noqa: F401 (a fixture)
from tests.replay.helpers import played_hand


async def test_an_admin_stop_tells_the_watchers_the_table_is_gone(drawn):  # noqa: F811
    """/admin close of a running table (or a suspension) ends it without a match end: the watchers' views must
    say so and lose their buttons, not stay frozen with no word until their token runs out 14 minutes later."""
    hand = played_hand(3)
    lane = WatchLane(budget=0.0, token_seconds=600.0, every=0.05)
    lane.check_every = 0.1
    log: list = []
    events = list(hand.events[:30])
    tw = table_with_watchers(2, lane, events, log)
    tw.session.table.state = "playing"
    for _ in range(100):
        if len(log) >= 2:
            break
        await asyncio.sleep(0.02)
    assert len(log) == 2 and all(kw["view"] is not None for _, _, kw in log)
    tw.session.table.state = "ended"  # what manager.end(table) does (cogs/tables.py close_table)
    t0 = time.monotonic()
    while tw.watchers and time.monotonic() - t0 < 3:
        await asyncio.sleep(0.05)
    assert not tw.watchers
    last = log[-2:]
    for _, _, kw in last:
        assert kw["view"] is None and "不在进行" in kw["content"]


async def test_watch_pressed_twice_tells_the_older_view(drawn):  # noqa: F811
    """A double tap on Watch opens two private views; the older one stopped updating with no word (it looked
    live). It is told once, without buttons, that watching goes on in the newer one, which follows the table."""
    from jxbot.shell.watch import Watcher
    from tests.bot.test_watch_lane import FakeInteraction

    hand = played_hand(3)
    lane = WatchLane(budget=0.0, token_seconds=600.0, every=0.05)
    log: list = []
    events = list(hand.events[:30])
    tw = table_with_watchers(1, lane, events, log)
    first = tw.watchers[0].interaction
    for _ in range(100):
        if log:
            break
        await asyncio.sleep(0.02)
    second = FakeInteraction(log)
    tw.add(Watcher(0, "en", second, None, time.monotonic()), new_message=True)  # type: ignore[arg-type]
    events.extend(hand.events[30:40])
    await tw.notify({"seats": None, "phase": "turn", "hand_id": hand.hand_id}, None)
    for _ in range(100):
        if any(i is second for _, i, _ in log):
            break
        await asyncio.sleep(0.02)
    told = [kw for _, i, kw in log if i is first]
    assert "下面又打开" not in told[0]["content"] and "下面又打开" in told[-1]["content"]
    assert told[-1]["view"] is None and sum("下面又打开" in kw["content"] for kw in told) == 1
    assert any(i is second and kw["view"] is not None for _, i, kw in log)


class _Response:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.edited: list[dict] = []

    def is_done(self) -> bool:
        return bool(self.sent or self.edited)

    async def send_message(self, content=None, *, ephemeral=True, **kw) -> None:
        self.sent.append(content)

    async def edit_message(self, **kw) -> None:
        self.edited.append(kw)


async def test_a_forged_refresh_cannot_watch_a_table_of_another_channel():
    """docs/bot.md's binding rests on no client check: a Refresh whose custom id names a table of another
    channel or server (a private one), pressed on the presser's own watch view, must not open that table."""
    from types import SimpleNamespace

    from cogs.watch import WatchCog
    from jxbot.config import Settings
    from jxbot.custom_ids import CustomId
    from jxbot.i18n import t
    from jxbot.shell.watch import VERB_REFRESH

    bot = SimpleNamespace(settings=Settings(), store=None, watch_lane=WatchLane(budget=0.0))
    session = SimpleNamespace(bot=bot, runner=SimpleNamespace(hand=None), watch=None,
                              table=SimpleNamespace(id="secret1", lang="zh", state="playing"))
    table = SimpleNamespace(id="secret1", guild_id=2, channel_id=200, session=session)
    bot.get_cog = lambda name: SimpleNamespace(manager=SimpleNamespace(get=lambda tid: table if tid == "secret1" else None))
    cog = WatchCog.__new__(WatchCog)
    cog.bot = bot
    me = SimpleNamespace(id=7)
    own_view = SimpleNamespace(id=555, flags=SimpleNamespace(ephemeral=True),
                               interaction_metadata=SimpleNamespace(user=me))
    for guild_id, channel_id in ((1, 100), (2, 201)):  # another server; the same server, another channel
        inter = SimpleNamespace(locale="en-US", user=me, guild_id=guild_id, channel_id=channel_id, message=own_view,
                                response=_Response(), extras={})
        await cog.on_refresh(inter, CustomId(VERB_REFRESH, "secret1", None, "0"))  # type: ignore[arg-type]
        assert inter.response.edited == [] and inter.response.sent == [t("bot.err.stale", "en")]
        assert session.watch is None or not session.watch.watchers
    bot.watch_lane.close()


async def test_a_failed_settings_read_keeps_the_watch_delay():
    """The server's settings cannot be read at a press (a store hiccup): the 6 moves an admin chose stay, not
    the bot's 2."""
    from types import SimpleNamespace

    from cogs.watch import WatchCog
    from jxbot.config import Settings
    from jxbot.custom_ids import CustomId
    from jxbot.shell.watch import VERB_REFRESH, watch_of

    async def broken(gid):
        raise RuntimeError("the database went away")

    bot = SimpleNamespace(settings=Settings(watch_delay=2), store=SimpleNamespace(get_guild_settings=broken),
                          watch_lane=WatchLane(budget=0.0))
    session = SimpleNamespace(bot=bot, runner=SimpleNamespace(hand=None), watch=None,
                              table=SimpleNamespace(id="t1", lang="zh", state="playing"))
    table = SimpleNamespace(id="t1", guild_id=1, channel_id=100, session=session)
    bot.get_cog = lambda name: SimpleNamespace(manager=SimpleNamespace(get=lambda tid: table))
    tw = watch_of(session)  # type: ignore[arg-type]
    tw.set_delay(6)  # what an earlier press read: the admin's watch_delay
    cog = WatchCog.__new__(WatchCog)
    cog.bot = bot
    me = SimpleNamespace(id=7)
    own_view = SimpleNamespace(id=555, flags=SimpleNamespace(ephemeral=True), interaction_metadata=SimpleNamespace(user=me))
    inter = SimpleNamespace(locale="en-US", user=me, guild_id=1, channel_id=100, message=own_view,
                            response=_Response(), extras={})
    await cog.on_refresh(inter, CustomId(VERB_REFRESH, "t1", None, "0"))  # type: ignore[arg-type]
    assert inter.response.edited  # the view was answered
    assert tw.follower.delay == 6
    bot.watch_lane.close()
