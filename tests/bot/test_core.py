"""The bot's core pieces: custom ids, the edit coalescer, command localization and sync."""

import asyncio

import discord
import pytest

from jxbot.custom_ids import CUSTOM_ID_RE, make_custom_id, parse_custom_id
from jxbot.edit_coalescer import EditCoalescer

from .conftest import APP_ID, make_bot


def test_custom_id_round_trip_and_rejects():
    cid = make_custom_id("discard", "a1b2c3", 2, 35, arg=27)
    assert cid == "mj:discard.27:a1b2c3:2:z"
    p = parse_custom_id(cid)
    assert (p.verb, p.table, p.seat, p.nonce, p.arg) == ("discard", "a1b2c3", 2, "z", 27)
    lobby = parse_custom_id(make_custom_id("join", "a1b2c3", None, 0))
    assert lobby.seat is None and lobby.arg is None
    for bad in ["mj:discard:a1:4:0", "mj:discard:A1:0:0", "xx:join:a1:x:0", "mj:join:a1:x:0:extra", "mj::a1:0:0"]:
        assert parse_custom_id(bad) is None and not CUSTOM_ID_RE.match(bad)
    longest = make_custom_id("give_up", "f" * 16, 3, 36**16 - 1, arg=33)
    assert len(longest) <= 100  # Discord's limit


async def test_coalescer_limits_edits_and_keeps_the_last_state():
    co = EditCoalescer(interval=0.2)
    applied: list[int] = []
    for i in range(20):
        async def edit(i=i):
            applied.append(i)
        co.submit("m", edit)
        await asyncio.sleep(0.01)
    await co.flush("m")
    assert applied[-1] == 19  # the last state wins
    assert len(applied) <= 3  # ~0.2 s of submissions at ≥ 0.2 s per edit
    assert co.edits["m"] == len(applied) and co.submitted["m"] == 20


async def test_coalescer_retries_429_and_drops_404():
    co = EditCoalescer(interval=0.0)
    calls: list[str] = []

    class Resp:
        status, reason = 429, "rate limited"

    async def limited():
        calls.append("x")
        if len(calls) == 1:
            exc = discord.HTTPException(Resp(), {"code": 0, "message": "slow down", "retry_after": 0.05})
            exc.retry_after = 0.05
            raise exc

    co.submit("a", limited)
    await co.flush("a")
    assert calls == ["x", "x"] and co.edits["a"] == 1

    class NF:
        status, reason = 404, "gone"

    async def gone():
        raise discord.NotFound(NF(), {"code": 10008, "message": "Unknown Message"})

    co.submit("b", gone)
    await co.flush("b")
    assert co.edits.get("b", 0) == 0


async def test_commands_sync_with_zh_localizations(fake, monkeypatch, store):
    from jxbot.config import Settings

    bot = await make_bot(fake, monkeypatch, store=store,
                         settings=Settings.from_mapping({"DEV_GUILD_ID": "42", "JXBOT_EDIT_INTERVAL": "0"}))
    await bot.sync_commands()
    method, path, body = fake.synced[-1]
    assert method == "PUT" and path == f"/applications/{APP_ID}/guilds/42/commands"  # DEV_GUILD_ID: one guild
    cmds = {c["name"]: c for c in body}
    assert {"mahjong", "balance", "daily", "pay", "leaderboard", "stats", "history", "admin"} <= set(cmds)
    mj = cmds["mahjong"]
    assert mj["name_localizations"]["zh-CN"] == "麻将"
    subs = {o["name"]: o for o in mj["options"]}
    assert set(subs) == {"create", "join", "leave", "start", "addbot", "kick", "status", "hand", "autowin",
                         "rules", "score", "replay", "verify", "howto", "ranked", "review"}
    assert subs["review"]["name_localizations"]["zh-CN"] == "复盘"  # issue 30 (cogs/review.py)
    assert subs["ranked"]["name_localizations"]["zh-CN"] == "排位"  # issue 29 (cogs/ranked.py)
    assert cmds["rank"]["name_localizations"]["zh-CN"] == "段位"
    assert {"season", "flags"} <= {o["name"] for o in cmds["admin"]["options"]}
    assert subs["howto"]["name_localizations"]["zh-CN"] == "怎么玩"
    assert (subs["replay"]["name_localizations"]["zh-CN"], subs["verify"]["name_localizations"]["zh-CN"]) == ("回放", "验牌")
    assert "replays" in {o["name"] for o in cmds["admin"]["options"]}
    assert subs["create"]["name_localizations"]["zh-CN"] == "开桌"
    assert subs["create"]["description_localizations"]["zh-CN"] == "在本频道开一张新牌桌"
    stake = next(o for o in subs["create"]["options"] if o["name"] == "stake")
    assert stake["name_localizations"]["zh-CN"] == "底分"
    # admin is hidden from members without Manage Server
    assert int(cmds["admin"]["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    await bot.close()


@pytest.mark.parametrize("locale,needle", [("en-US", "Jiaxing Mahjong"), ("zh-CN", "嘉兴麻将")])
async def test_rules_command_localized(harness, locale, needle):
    await harness.command(101, "mahjong rules", locale=locale)
    assert needle in harness.fake.last_ephemeral(101)


async def test_score_command(harness):
    await harness.command(101, "mahjong score", tiles="111222333m44455m")
    text = harness.fake.last_ephemeral(101)
    assert "7 台 × 2^0 番 = 7" in text and "对对胡" not in text and "All pungs" in text
    await harness.command(101, "mahjong score", tiles="12x")
    assert "Can't read" in harness.fake.last_ephemeral(101)
    await harness.command(101, "mahjong score", tiles="123m456p789s11223z")
    assert "not a winning hand" in harness.fake.last_ephemeral(101)


async def test_unknown_button_gets_an_answer(harness):
    from .conftest import Msg

    msg = Msg(1, 810000000000000001, "x", [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "?", "custom_id": "mj:frobnicate:abc:0:0"}]}], [])
    harness.fake.messages[1] = msg
    await harness.click(101, msg, "?")
    assert "expired" in harness.fake.last_ephemeral(101)


async def test_slow_command_is_acknowledged_in_time(harness, monkeypatch):
    """A handler slower than Discord's 3 s still gets its interaction acknowledged (deferred), and its
    answer arrives afterwards as the follow-up."""
    import jxbot.interactions

    monkeypatch.setattr(jxbot.interactions, "ACK_AFTER", 0.05)
    store = harness.bot.store
    real = store.balance

    async def slow_balance(*a, **kw):
        await asyncio.sleep(0.3)
        return await real(*a, **kw)

    monkeypatch.setattr(store, "balance", slow_balance)
    iid = await harness.command(101, "balance")
    assert harness.fake.callback_types(iid) == [5]  # deferred by the guard before the answer was ready
    assert "1000 silver" in harness.fake.last_ephemeral(101)  # the answer filled the deferred message


def test_invite_link_asks_exactly_the_needed_permissions():
    from jxbot.bot import invite_url

    url = invite_url(123)
    assert "client_id=123" in url and "permissions=117760" in url and "applications.commands" in url


async def test_coalescer_retired_keys_leave_no_state():
    co = EditCoalescer(interval=0.0)
    done = []

    async def edit():
        done.append(1)

    co.submit("k", edit)
    co.retire("k")  # the final edit still happens, then the key is forgotten
    await co.flush("k")
    await asyncio.sleep(0)
    assert done == [1] and "k" not in co.edits and "k" not in co._last and "k" not in co._tasks


async def test_coalescer_urgent_edit_skips_the_interval_but_not_a_429_wait():
    co = EditCoalescer(interval=1.0)
    applied: list[tuple[str, float]] = []
    t0 = asyncio.get_running_loop().time()

    def edit(name: str):
        async def fn():
            applied.append((name, asyncio.get_running_loop().time() - t0))
        return fn

    co.submit("m", edit("first"))
    await co.flush("m")
    co.submit("m", edit("other seat's move"))  # waits for the interval...
    await asyncio.sleep(0.05)
    co.submit("m", edit("claim offer"), urgent=True)  # ...but an offer goes out now, as the newest state
    await co.flush("m")
    assert [n for n, _ in applied] == ["first", "claim offer"]
    assert applied[1][1] < 0.3, applied  # not a second later

    class Resp:
        status, reason = 429, "rate limited"

    calls: list[float] = []

    async def limited():
        calls.append(asyncio.get_running_loop().time())
        if len(calls) == 1:
            exc = discord.HTTPException(Resp(), {"code": 0, "message": "slow down", "retry_after": 0.3})
            exc.retry_after = 0.3
            raise exc

    co.submit("k", limited, urgent=True)
    await co.flush("k")
    assert len(calls) == 2 and calls[1] - calls[0] >= 0.28  # Discord's retry_after is respected


async def test_the_ack_guard_and_a_slow_answer_never_both_answer():
    from jxbot.interactions import ack_later, after_guard, take_response

    class Response:
        def __init__(self):
            self.sent: list[str] = []

        def is_done(self):
            return bool(self.sent)

        async def defer(self, **kw):
            await asyncio.sleep(0.05)  # the deferral is on its way when the handler looks
            self.sent.append("defer")

    class Inter:
        id = 1

        def __init__(self):
            self.extras: dict = {}
            self.response = Response()

    # the handler starts its answer first: the guard, firing meanwhile, stays quiet
    i = Inter()
    ack_later(i, after=0.01, update=True)
    assert take_response(i)
    await asyncio.sleep(0.05)
    assert i.response.sent == []
    # the guard starts deferring first: the handler waits for it and then edits the original instead
    j = Inter()
    ack_later(j, after=0.01, update=True)
    await asyncio.sleep(0.02)
    assert not take_response(j)
    await after_guard(j)
    assert j.response.sent == ["defer"]


async def test_each_cog_module_exists_once(fake, monkeypatch, store):
    """cogs.tables imports cogs.play; the bot loading cogs.play must not make a second copy of it (two
    sets of classes, drawing pools and counters: the table's panels would use one, the press handler the
    other)."""
    import sys

    bot = await make_bot(fake, monkeypatch, store=store)  # (without one the bot opens ./jxbot.sqlite3)
    try:
        for cog in bot.cogs.values():
            cls = type(cog)
            assert getattr(sys.modules[cls.__module__], cls.__name__) is cls, cls
        for name, module in list(sys.modules.items()):
            if not name.startswith("cogs."):
                continue
            for attr, value in vars(module).items():
                home = getattr(value, "__module__", None)
                if callable(value) and home and home.startswith("cogs.") and home != name \
                        and hasattr(sys.modules[home], attr):
                    assert getattr(sys.modules[home], attr) is value, f"{name}.{attr} is a stale copy of {home}"
    finally:
        await bot.close()


async def test_the_coalescer_keeps_the_bots_edits_within_its_budget_but_never_holds_an_offer():
    co = EditCoalescer(interval=0.0, budget=20.0)  # 20 table-message edits a second, all tables
    applied: list[tuple[str, float]] = []
    t0 = asyncio.get_running_loop().time()

    def edit(name: str):
        async def fn():
            applied.append((name, asyncio.get_running_loop().time() - t0))
        return fn

    for k in range(60):  # 60 table messages change at once
        co.submit(("table", k), edit(f"t{k}"), spare=True)
    await asyncio.sleep(0.5)
    early = len(applied)
    assert 15 <= early <= 20 + 0.5 * 20 + 3  # one second's worth at once, then 20 a second
    co.submit(("panel", 1), edit("offer"), urgent=True)  # a claim offer: the budget is spent, it goes anyway
    co.submit(("panel", 2), edit("turn"))  # a player's panel (not spare): it does not wait either
    await asyncio.sleep(0.05)
    assert {"offer", "turn"} <= {n for n, _ in applied}, "a player's panel waited for the budget"
    await co.flush()
    assert len(applied) == 62 and {n for n, _ in applied} == {f"t{k}" for k in range(60)} | {"offer", "turn"}
    took = max(at for _, at in applied)
    assert took >= (62 - 20) / 20 * 0.8  # the table messages came at the budget's pace, not at once
    for k in range(200):  # a burst of 200 panel edits (they never wait, and take nothing from the budget) ...
        co.submit(("panel", 10 + k), edit(f"p{k}"))
    await co.flush()
    await asyncio.sleep(0.2)
    t1 = asyncio.get_running_loop().time()
    co.submit(("table", 0), edit("after"), spare=True)  # ... so a table message still goes at once
    await co.flush()
    assert asyncio.get_running_loop().time() - t1 < 0.1


async def test_score_tells_bad_input_in_the_askers_language(harness):
    # /mahjong score's refusals were the parser's English texts ("3 tiles (14 needed)") even in Chinese
    cases = [({"tiles": "12x"}, "看不懂“12x”", "Can't read “12x”"),
             ({"tiles": "123m"}, "这手牌有 3 张", "That hand has 3 tiles"),
             ({"tiles": "11111m56p789s1122z"}, "每种牌只有 4 张", "only 4 of each tile"),
             ({"tiles": "123m456p789s11122z", "wildcard": "9z"}, "看不懂“9z”", "Can't read “9z”"),
             ({"tiles": "123m456p789s11122z", "wildcard": "1m1m"}, "看不懂“1m1m”", "Can't read “1m1m”")]
    for opts, zh, en in cases:
        for locale, want in (("zh-CN", zh), ("en-US", en)):
            await harness.command(101, "mahjong score", locale=locale, **opts)
            text = harness.fake.last_ephemeral(101)
            assert want in text, (opts, text)
            if locale == "zh-CN":
                assert not any(w in text for w in ("tiles", "needed", "notation", "copies", "expected")), text
