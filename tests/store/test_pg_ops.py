"""The operator's side on PostgreSQL: ``jxbot run`` refuses an unreachable server or a bad DSN before it logs
in (exit 2, one line, the password never shown); ``store migrate``, ``check``, ``info``, ``backup`` and
``copy SQLITE_PATH postgresql://…`` work against a real server."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from jxbot.cli import main
from jxbot.store import Store
from jxbot.store.schema import SCHEMA_VERSION
from tests import pgdb
from tests.ops.test_startup import REPO, discord_api  # noqa: F401 - the fixture
from tests.store.test_check import build

from .conftest import G

SECRET = "s3cret-pw-never-shown"


def with_password(dsn: str) -> str:
    """The same server with a password in the DSN (the test server trusts local logins, so any works)."""
    p = urlsplit(dsn)
    user, host = p.netloc.rsplit("@", 1)
    return urlunsplit((p.scheme, f"{user.split(':')[0]}:{SECRET}@{host}", p.path, p.query, ""))


def run_bot(db: str, api: str, cwd: object) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JXBOT_", "DISCORD_"))}
    env.update({"DISCORD_TOKEN": "MTIz.fake.token-never-printed", "DISCORD_API_BASE": api, "JXBOT_DB": db,
                "PYTHONPATH": str(REPO)})
    return subprocess.run([sys.executable, "-m", "jxbot.cli", "run", "--no-sync"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_run_refuses_an_unreachable_server_and_a_bad_dsn_before_login(tmp_path, discord_api):  # noqa: F811
    api, seen = discord_api
    down = f"postgresql://jxbot:{SECRET}@127.0.0.1:1/jxbot"  # nothing listens on port 1
    proc = run_bot(down, api, cwd=tmp_path)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2 and "cannot reach the PostgreSQL server" in proc.stderr, out
    assert "127.0.0.1:1" in proc.stderr and SECRET not in out and "Traceback" not in out
    assert len(proc.stderr.strip().splitlines()) == 1 and seen == []
    bad = f"postgresql://jxbot:{SECRET}@127.0.0.1:notaport/jxbot"
    proc = run_bot(bad, api, cwd=tmp_path)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2 and "JXBOT_DB is not a valid PostgreSQL address" in proc.stderr, out
    assert SECRET not in out and seen == []


async def test_run_refuses_a_missing_database_and_names_it(tmp_path):
    from jxbot.store.startup import StartupError, check_postgres

    dsn = pgdb.with_database(with_password(pgdb.server_dsn()), "no_such_db")
    try:
        await asyncio.to_thread(check_postgres, dsn)
    except StartupError as exc:
        assert "no_such_db" in str(exc) and "does not exist" in str(exc) and SECRET not in str(exc)
    else:
        raise AssertionError("a missing database was accepted")


async def test_store_cli_on_postgres_migrate_check_info_backup(tmp_path, capsys):
    dsn = with_password(await pgdb.fresh_database(migrated=False))
    try:
        assert await asyncio.to_thread(main, ["store", "migrate", "--db", dsn]) == 0
        assert f"migrated schema 0 → {SCHEMA_VERSION}" in capsys.readouterr().out
        assert await asyncio.to_thread(main, ["store", "migrate", "--db", dsn]) == 0
        assert "is current" in capsys.readouterr().out
        await build(dsn)
        assert await asyncio.to_thread(main, ["store", "check", "--db", dsn]) == 0
        out = capsys.readouterr().out
        assert out.startswith("ok:") and SECRET not in out
        assert await asyncio.to_thread(main, ["store", "info", "--json", "--db", dsn]) == 0
        info = json.loads(capsys.readouterr().out)
        assert (info["scope"], info["players"], info["settled_hands"], info["events"]) == ("guild", 4, 1, 3)
        assert SECRET not in info["db"]
        # a backup is a SQLite file of the same books
        dest = tmp_path / "pg-backup.sqlite3"
        assert await asyncio.to_thread(main, ["store", "backup", str(dest), "--db", dsn]) == 0
        assert SECRET not in capsys.readouterr().out
        assert await asyncio.to_thread(main, ["store", "check", "--db", str(dest)]) == 0
        capsys.readouterr()
        b = await Store.open(str(dest))
        try:
            assert [await b.balance(G, u) for u in (1, 2, 3, 4)] == [1049, 990, 980, 1000]
            assert await b.house_balance(G) == -(1049 + 990 + 980 + 1000)
        finally:
            await b.close()
        # damage on the server is found, and check wrote nothing
        conn = await asyncpg.connect(dsn)
        await conn.execute("UPDATE wallets SET balance = balance + 3 WHERE user_id = 1")
        await conn.close()
        assert await asyncio.to_thread(main, ["store", "check", "--db", dsn]) == 1
        out = capsys.readouterr().out
        assert "balance_mismatch" in out and "user 1" in out and SECRET not in out
    finally:
        await pgdb.drop_database(dsn)


async def test_copy_sqlite_to_postgres_verified_and_refusing_a_non_empty_target(tmp_path, capsys):
    src = str(tmp_path / "server.sqlite3")
    await build(src)
    s = await Store.open(src)
    await s.daily(G, 3, now=1_000_000)
    await s.create_hand("open1", G, 2001, "jiaxing", [1, 2, None, None], "c")  # a hand still running
    await s.close()
    dsn = with_password(await pgdb.fresh_database())
    before = hashlib.sha256(Path(src).read_bytes()).hexdigest()
    try:
        assert await asyncio.to_thread(main, ["store", "copy", src, dsn]) == 0
        assert hashlib.sha256(Path(src).read_bytes()).hexdigest() == before  # the source is only read
        out = capsys.readouterr().out
        assert "check ok on both ends" in out and SECRET not in out
        p = await Store.open(dsn)
        try:
            assert [await p.balance(G, u) for u in (1, 2, 3, 4)] == [1049, 990, 1080, 1000]
            assert [h.hand_id for h in await p.open_hands()] == ["open1"]
            assert await p.hand_events("h1") == [{"i": 0}, {"i": 1}, {"i": 2}]
            # the copied ids continue: new rows get new ids, the books stay consistent
            await p.pay(G, 3, 4, 5)
            assert await p.check() == []
        finally:
            await p.close()
        # a target with rows is refused (nothing changes) unless --replace
        assert await asyncio.to_thread(main, ["store", "copy", src, dsn]) == 2
        err = capsys.readouterr().err
        assert "not empty" in err and "--replace" in err and SECRET not in err
        assert await asyncio.to_thread(main, ["store", "copy", src, dsn, "--replace"]) == 0
        capsys.readouterr()
        p = await Store.open(dsn)
        assert await p.balance(G, 3) == 1080
        await p.close()
        # a source a running bot holds (its flock) is refused: what it writes next would be lost
        from jxbot.store.startup import ProcessLock

        with ProcessLock(src):
            assert await asyncio.to_thread(main, ["store", "copy", src, dsn, "--replace"]) == 2
            err = capsys.readouterr().err
            assert "in use by a running jxbot" in err and f"pid {os.getpid()}" in err
        # bad input: the wrong way round, a file that is not a database
        assert await asyncio.to_thread(main, ["store", "copy", dsn, src]) == 2
        notdb = tmp_path / "notes.txt"
        notdb.write_text("not a database\n" * 20)
        assert await asyncio.to_thread(main, ["store", "copy", str(notdb), dsn]) == 2
        err = capsys.readouterr().err
        assert "SQLITE_PATH postgresql://" in err and "not a SQLite database" in err and SECRET not in err
    finally:
        await pgdb.drop_database(dsn)


async def test_check_on_postgres_finds_each_kind_of_damage(capsys):
    cases = {
        "UPDATE wallets SET balance = balance + 1 WHERE user_id = 2": {"balance_mismatch", "scope_not_zero_sum"},
        "DELETE FROM ledger WHERE entry_id = (SELECT MAX(entry_id) FROM ledger WHERE hand_id = 'h1')":
            {"balance_mismatch", "hand_not_zero_sum", "txn_not_zero_sum"},
        "UPDATE hands SET status = 'running', result = NULL WHERE hand_id = 'h1'": {"half_settled"},
        "UPDATE members SET wins = wins + 1 WHERE user_id = 3": {"stats_mismatch"},
        "DELETE FROM hand_events WHERE idx = 1": {"event_gap"},
    }
    for sql, expected in cases.items():
        dsn = await pgdb.empty_database()
        await build(dsn)
        conn = await asyncpg.connect(dsn)
        await conn.execute(sql)
        await conn.close()
        s = await Store.open_readonly(dsn)
        assert {p.code for p in await s.check()} == expected, sql
        await s.close()


async def test_postgres_refuses_a_newer_schema_and_another_scope(capsys):
    from jxbot.store import SCHEMA_VERSION, SchemaTooNew, ScopeMismatch

    dsn = await pgdb.fresh_database()
    try:
        await (await Store.open(dsn, "guild")).close()
        try:
            await Store.open(dsn, "global")
        except ScopeMismatch:
            pass
        else:
            raise AssertionError("another scope was accepted")
        s = await Store.open(dsn, None)  # adopt the database's scope
        assert s.scope == "guild" and await s.schema_version() == SCHEMA_VERSION
        await s.close()
        conn = await asyncpg.connect(dsn)
        await conn.execute("UPDATE meta SET value = $1 WHERE key = 'schema_version'", str(SCHEMA_VERSION + 1))
        await conn.close()
        for opener in (Store.open, Store.open_readonly):
            try:
                await opener(dsn)
            except SchemaTooNew:
                pass
            else:
                raise AssertionError("a newer schema was accepted")
        assert await asyncio.to_thread(main, ["store", "check", "--db", dsn]) == 2
        assert "newer than this jxbot" in capsys.readouterr().err
        down = f"postgresql://jxbot:{SECRET}@127.0.0.1:1/jxbot"
        assert await asyncio.to_thread(main, ["store", "check", "--db", down]) == 2
        err = capsys.readouterr().err
        assert "cannot reach the PostgreSQL server" in err and SECRET not in err
    finally:
        await pgdb.drop_database(dsn)


def test_settings_never_show_the_dsn_password():
    from jxbot.config import ConfigError, Settings

    s = Settings.from_mapping({"JXBOT_DB": f"postgresql://bot:{SECRET}@db.example:5432/jxbot"})
    assert s.db_path.endswith("/jxbot") and s.db_shown == "postgresql://bot:***@db.example:5432/jxbot"
    assert SECRET not in s.describe() and SECRET not in repr(s) and SECRET not in str(s)
    assert "JXBOT_DB=postgresql://bot:***@db.example:5432/jxbot" in s.describe()
    for bad in (f"postgresql://bot:{SECRET}@db.example:port/jxbot", f"postgres://bot:{SECRET}@/jxbot"):
        try:
            Settings.from_mapping({"JXBOT_DB": bad})
        except ConfigError as exc:
            assert SECRET not in str(exc) and "JXBOT_DB" in str(exc)
        else:
            raise AssertionError(f"accepted {bad}")
    assert Settings.from_mapping({"JXBOT_DB": "data/jx.sqlite3"}).db_shown == "data/jx.sqlite3"


def test_store_migrate_on_sqlite(tmp_path, capsys):
    db = tmp_path / "new.sqlite3"
    assert main(["store", "migrate", "--db", str(db)]) == 0
    assert f"migrated schema 0 → {SCHEMA_VERSION} (a new database)" in capsys.readouterr().out
    assert main(["store", "migrate", "--db", str(db)]) == 0
    assert f"schema {SCHEMA_VERSION} is current" in capsys.readouterr().out
    notes = tmp_path / "notes.sqlite3"
    notes.write_bytes(b"not a database at all\n" * 10)
    assert main(["store", "migrate", "--db", str(notes)]) == 2
    assert "not a SQLite database" in capsys.readouterr().err
    assert notes.read_bytes() == b"not a database at all\n" * 10
