"""Tables in DMs (jxbot/shell/dmtable.py): the key channel is no Discord channel, a DM table and its DM messages
survive the save/load round trip (a restart edits them), and its public messages go to each human player's DM."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace

import discord
import pytest

from jxbot.shell.dmtable import DM_KEY_LIMIT, channel_of, dm_key, edit_each, is_dm_key
from jxbot.shell.lobby import LobbyError, Occupant, Table, TableConfig, TableManager


def dm_table() -> Table:
    t = Table("0123456789ab", 1, dm_key("0123456789ab"), 11, TableConfig(stake=5), dm=True)
    t.seats = [Occupant(11, "a"), Occupant(None, "#1", is_computer=True), Occupant(22, "b"), Occupant(33, "c")]
    return t


def test_the_key_is_no_discord_channel_and_one_table_per_key():
    k = dm_key("ffffffffffff")
    assert is_dm_key(k) and k < DM_KEY_LIMIT and dm_key("000000000000") == 1
    assert not is_dm_key(41771983423143936)  # a real snowflake (2015) is far above every key
    assert is_dm_key(dm_key("not hex: a tournament key")) and dm_key("a") != dm_key("b")
    m = TableManager()
    t = dm_table()
    m.add(t)
    assert m.in_channel(t.channel_id) is t and m.of_user(22) is t
    with pytest.raises(LobbyError) as err:
        m.check_free(22)
    assert err.value.code == "at_dm_table"


def test_a_dm_table_and_its_dm_messages_survive_the_round_trip():
    t = dm_table()
    t.dm_messages = {11: (501, 601), 22: (502, 602)}
    back = Table.from_json(t.to_json())
    assert back.dm and back.dm_messages == {11: (501, 601), 22: (502, 602)} and back.channel_id == t.channel_id
    plain = Table("abc", 7, 8, 9, TableConfig())
    assert "dm" not in plain.to_json() and not Table.from_json(plain.to_json()).dm


class FakeDM:
    def __init__(self, uid: int, log: list) -> None:
        self.uid, self.log, self.id = uid, log, 500 + uid

    async def send(self, content=None, files=None, **kw):
        data = [f.fp.read() for f in files or []]
        self.log.append((self.uid, content, data))
        return SimpleNamespace(id=600 + uid_seq(self.log), channel=SimpleNamespace(id=self.id))


def uid_seq(log: list) -> int:
    return len(log)


def test_public_messages_go_to_each_human_players_dm_and_edits_post_only_where_none_is():
    t = dm_table()
    log: list = []
    dms = {u: FakeDM(u, log) for u in (11, 22, 33)}

    async def open_dm(uid):
        return dms[uid]

    edits: list = []

    class Partial:
        def __init__(self, ch, mid):
            self.ch, self.mid = ch, mid

        def get_partial_message(self, mid):
            return Partial(self.ch, mid)

        async def edit(self, **kw):
            edits.append((self.ch, self.mid, kw["content"]))

    bot = SimpleNamespace(get_partial_messageable=lambda ch: Partial(ch, None))

    async def run():
        ch = channel_of(bot, t, open_dm)
        png = b"\x89PNG fake"
        first = await ch.send("the result", files=[discord.File(io.BytesIO(png), filename="result.png")])
        assert first is not None and len(ch.sent) == 3
        assert [(u, c, d) for u, c, d in log] == [(u, "the result", [png]) for u in (11, 22, 33)]  # a copy each
        t.dm_messages = {11: (511, 611)}
        log.clear()
        made: list[str] = []

        async def drawn(lang):
            made.append(lang)
            return ("东 · 出牌" if lang == "zh" else "East · discard"), None, None

        posted = await edit_each(bot, t, open_dm, drawn)
        assert posted and edits == [(511, 611, "东 · 出牌")]  # edited where it was, posted to the two others
        assert sorted(u for u, _, _ in log) == [22, 33] and set(t.dm_messages) == {11, 22, 33}
        # a player of an English-speaking server reads their copy in English; each language is drawn once
        t.seats[2] = Occupant(22, "b", lang="en")
        edits.clear()
        made.clear()
        await edit_each(bot, t, open_dm, drawn)
        assert sorted(made) == ["en", "zh"]
        assert sorted(edits) == sorted([(511, 611, "东 · 出牌"), (t.dm_messages[22][0], t.dm_messages[22][1], "East · discard"),
                                        (t.dm_messages[33][0], t.dm_messages[33][1], "东 · 出牌")])

    asyncio.run(run())


async def test_an_arranged_table_in_dms_shows_each_player_the_table_and_a_restart_edits_the_same_messages(
        fake, monkeypatch, store):
    """``arranged.Spec(dm=True)`` (a tournament may call it): no channel gets anything, each human's DM gets the
    table message (its picture) and their panel; after a restart the saved DM table messages are edited again."""
    from jxbot.shell import arranged
    from jxbot.table import FakeClock
    from tests.bot.conftest import CHANNEL, GUILD, Harness, _shutdown, make_bot, restarted

    alice, bob = 101, 102
    bot1 = await make_bot(fake, monkeypatch, store=store)
    h1 = Harness(bot1, fake)
    cog1 = bot1.get_cog("TablesCog")
    cog1.clock, cog1.computer_delay = FakeClock(), 0.0
    spec = arranged.Spec(key="t:dm/1", kind="test", guild_id=GUILD, channel_id=CHANNEL, dm=True,
                         seats=[arranged.Seat(alice, "alice"), arranged.Seat(bob, "bob"),
                                arranged.Seat(None, "#1"), arranged.Seat(None, "#2")], max_hands=1, secret="s")
    tid = await arranged.open_table(bot1, spec)
    await h1.settle()
    table = cog1.manager.get(tid)
    assert table.dm and not fake.channel(CHANNEL), "nothing in any channel"

    def table_msgs(uid):
        return [m for m in fake.dms(uid) if "table.png" in m.attachments]

    for uid in (alice, bob):
        assert len(table_msgs(uid)) == 1, [m.content for m in fake.dms(uid)]
        assert any("hand.png" in m.attachments for m in fake.dms(uid)), "their panel"
    assert table_msgs(alice)[0].content == table_msgs(bob)[0].content  # the public view: the same for both
    saved = {u: table.dm_messages[u][1] for u in (alice, bob)}
    assert saved == {u: table_msgs(u)[0].id for u in (alice, bob)}
    await table.session.runner.pause()  # the process dies: everything so far is in the store
    await _shutdown(bot1)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    edits = {u: table_msgs(u)[0].edits for u in (alice, bob)}
    n_dms = {u: len(fake.dms(u)) for u in (alice, bob)}
    assert await cog2.resume_all() == 1
    await h2.settle()
    t2 = cog2.manager.get(tid)
    assert t2.dm and {u: t2.dm_messages[u][1] for u in (alice, bob)} == saved
    for uid in (alice, bob):
        assert [m.id for m in table_msgs(uid)] == [saved[uid]], "no table message posted twice"
        assert table_msgs(uid)[0].edits > edits[uid], "the one from before is edited again"
        assert len(fake.dms(uid)) == n_dms[uid], [(m.content, m.attachments) for m in fake.dms(uid)[n_dms[uid]:]]
    assert not fake.channel(CHANNEL)
    await _shutdown(bot2)


async def test_a_dm_table_speaks_to_each_player_in_their_own_language(fake, monkeypatch, store):
    """A cross-server table seats players of a Chinese and an English server: the table message, the result
    and the end of the match came to both in the first player's language. Each now reads their own."""
    from jxbot.shell import arranged
    from jxbot.table import FakeClock
    from tests.bot.conftest import CHANNEL, GUILD, Harness, _shutdown, make_bot

    alice, bob = 101, 102
    bot = await make_bot(fake, monkeypatch, store=store)
    h = Harness(bot, fake)
    cog = bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay = FakeClock(), 0.0
    spec = arranged.Spec(key="t:dm/lang", kind="test", guild_id=GUILD, channel_id=CHANNEL, dm=True, lang="zh",
                         seats=[arranged.Seat(alice, "alice", lang="zh"), arranged.Seat(bob, "bob", lang="en"),
                                arranged.Seat(None, "#1"), arranged.Seat(None, "#2")], max_hands=1, secret="s")
    tid = await arranged.open_table(bot, spec)
    await h.settle()
    table = cog.manager.get(tid)

    def table_msg(uid):
        return next(m for m in fake.dms(uid) if "table.png" in m.attachments)

    a, b = table_msg(alice), table_msg(bob)
    assert a.content != b.content
    assert "East" in b.content or "South" in b.content, b.content
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in b.content), b.content  # no Chinese in Bob's copy
    assert any("\u4e00" <= ch <= "\u9fff" for ch in a.content), a.content
    # play the hand out (their turns run out): the result and the end of the match, each in its reader's language
    for _ in range(400):
        if any("hand.png" not in m.attachments and "result.png" in m.attachments for m in fake.dms(bob)):
            break
        await h.advance(30.0)
    res_a = next(m for m in fake.dms(alice) if "result.png" in m.attachments)
    res_b = next(m for m in fake.dms(bob) if "result.png" in m.attachments)
    assert any(b["label"] == "Replay" for b in res_b.buttons), res_b.buttons
    assert any(b["label"] == "回放" for b in res_a.buttons), res_a.buttons
    assert "balance" in res_b.content and "balance" not in res_a.content and "（余" in res_a.content, \
        (res_a.content, res_b.content)
    for _ in range(40):
        if any(m.content.startswith("The match is over") for m in fake.dms(bob)):
            break
        await h.advance(30.0)
    assert any(m.content.startswith("The match is over") for m in fake.dms(bob)), [m.content for m in fake.dms(bob)]
    assert not any(m.content.startswith("The match is over") for m in fake.dms(alice))
    assert table is not None
    await _shutdown(bot)


async def test_a_player_busy_at_another_table_is_told_by_dm_that_a_computer_plays_their_seat(fake, monkeypatch,
                                                                                               store):
    """An event's table opening while one of its players sits at another table: a computer takes the seat and
    the table's text names them — without a ping, so nothing reached them. They are told by DM."""
    from jxbot.shell import arranged
    from jxbot.table import FakeClock
    from tests.bot.conftest import CHANNEL, GUILD, Harness, _shutdown, make_bot

    alice, bob = 101, 102
    bot = await make_bot(fake, monkeypatch, store=store)
    h = Harness(bot, fake)
    cog = bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay = FakeClock(), 0.0
    first = arranged.Spec(key="t:busy/1", kind="test", guild_id=GUILD, channel_id=CHANNEL, dm=True,
                          seats=[arranged.Seat(bob, "bob", lang="en"), arranged.Seat(None, "#1"),
                                 arranged.Seat(None, "#2"), arranged.Seat(None, "#3")], max_hands=1, secret="a")
    await arranged.open_table(bot, first)
    await h.settle()
    second = arranged.Spec(key="t:busy/2", kind="test", guild_id=GUILD, channel_id=CHANNEL, dm=True,
                           seats=[arranged.Seat(alice, "alice"), arranged.Seat(bob, "bob", lang="en"),
                                  arranged.Seat(None, "#1"), arranged.Seat(None, "#2")], max_hands=1, secret="b")
    tid = await arranged.open_table(bot, second)
    await h.settle()
    told = [m.content for m in fake.dms(bob) if "a computer plays your seat" in m.content]
    assert told == [f"The table {tid} arranged for you has begun, but you are seated at another table: a computer "
                    "plays your seat there."], [m.content for m in fake.dms(bob)]
    assert not any("另一张牌桌" in m.content for m in fake.dms(alice))  # alice sits at it: nothing of the kind
    await _shutdown(bot)
