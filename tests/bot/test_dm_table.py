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
        posted = await edit_each(bot, t, open_dm, "东 · 出牌", None, None)
        assert posted and edits == [(511, 611, "东 · 出牌")]  # edited where it was, posted to the two others
        assert sorted(u for u, _, _ in log) == [22, 33] and set(t.dm_messages) == {11, 22, 33}

    asyncio.run(run())
