from __future__ import annotations

import sqlite3

import pytest

from jxbot.store import (
    SCHEMA_VERSION,
    InvalidArgument,
    SchemaTooNew,
    ScopeMismatch,
    Store,
    UnknownPlayer,
)

from .conftest import G


async def test_open_creates_wal_schema_with_foreign_keys(tmp_path):
    path = str(tmp_path / "a.sqlite3")
    s = await Store.open(path)
    assert await s.schema_version() == SCHEMA_VERSION
    await s.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.close()
    # reopening does not re-run migrations and keeps data
    s = await Store.open(path)
    await s.ensure_player(5, "x")
    await s.close()
    s = await Store.open(path)
    assert (await s.get_player(5)).name == "x"
    fk = await s._db.execute("PRAGMA foreign_keys")
    assert (await fk.fetchone())[0] == 1
    await s.close()


async def test_newer_schema_and_other_scope_are_refused(tmp_path):
    path = str(tmp_path / "a.sqlite3")
    await (await Store.open(path, "guild")).close()
    with pytest.raises(ScopeMismatch):
        await Store.open(path, "global")
    s = await Store.open(path, None)  # adopt the file's scope
    assert s.scope == "guild"
    await s.close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(SchemaTooNew):
        await Store.open(path)


async def test_players_name_and_language(store):
    p = await store.ensure_player(7, "Alice", "zh-CN")
    assert (p.user_id, p.name, p.lang) == (7, "Alice", "zh")
    p = await store.ensure_player(7, "Alice2")  # no lang given: keep the preference
    assert (p.name, p.lang) == ("Alice2", "zh")
    assert (await store.set_lang(7, "en-US")).lang == "en"
    assert (await store.set_lang(7, None)).lang is None
    assert await store.get_player(8) is None
    with pytest.raises(UnknownPlayer):
        await store.set_lang(8, "en")
    for bad in (0, -1, "7", True, 2**63):
        with pytest.raises(InvalidArgument):
            await store.ensure_player(bad, "x")
    with pytest.raises(InvalidArgument):
        await store.ensure_player(9, "   ")


async def test_guild_settings_defaults_update_and_validation(store):
    st = await store.get_guild_settings(G)
    assert (st.fee, st.claim_window, st.turn_limit, st.allowed_channels) == (1, 5.0, 20.0, ())
    st = await store.update_guild_settings(G, fee=3, stake_min=2, stake_max=20, allowed_channels=[55, 44])
    assert (st.fee, st.stake_min, st.stake_max, st.allowed_channels) == (3, 2, 20, (44, 55))
    assert st.channel_allowed(44) and not st.channel_allowed(66)
    again = await store.get_guild_settings(G)
    assert again == st
    assert (await store.get_guild_settings(G + 1)).fee == 1  # other guilds untouched
    for bad in ({"fee": -1}, {"stake_min": 0}, {"stake_max": 1, "stake_min": 5}, {"claim_window": 0},
                {"nonsense": 1}, {"allowed_channels": "55"}, {"starting_grant": 2**63}, {"fee": 1.5}):
        with pytest.raises(InvalidArgument):
            await store.update_guild_settings(G, **bad)
    assert await store.get_guild_settings(G) == st  # a rejected update changes nothing


async def test_in_memory_store_and_context_manager():
    async with await Store.open(":memory:") as s:
        await s.ensure_player(1, "a")
        await s.ensure_player(2, "b")
        await s.grant_starting(G, 1)
        await s.pay(G, 1, 2, 10)
        assert await s.balances_for(G, [1, 2, None, None]) == [990, 10, None, None]
        assert await s.check() == []
