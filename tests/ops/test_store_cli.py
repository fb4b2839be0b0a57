"""``jxbot store check`` reads only (the file is byte-identical afterwards; exit 0/1/2, one clear line) and
``jxbot store backup PATH`` makes a consistent copy while the bot keeps writing."""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from jxbot.cli import main
from jxbot.store import Store
from jxbot.store.schema import SCHEMA_VERSION
from tests.store.conftest import G
from tests.store.test_check import build, tamper

REPO = Path(__file__).resolve().parents[2]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "JXBOT_DB"} | {"PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "jxbot.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def test_store_check_leaves_the_file_byte_identical(tmp_path, capsys):
    db = tmp_path / "jx.sqlite3"
    asyncio.run(build(str(db)))
    before = digest(db)
    assert main(["store", "check", "--db", str(db)]) == 0
    assert digest(db) == before
    assert main(["store", "info", "--db", str(db)]) == 0
    assert digest(db) == before
    tamper(str(db), "UPDATE wallets SET balance = balance + 3 WHERE user_id = 1")
    damaged = digest(db)
    assert main(["store", "check", "--db", str(db)]) == 1
    assert "balance_mismatch" in capsys.readouterr().out
    assert digest(db) == damaged  # problems are reported, never repaired


def test_store_check_does_not_migrate_an_older_schema(tmp_path):
    db = tmp_path / "old.sqlite3"
    asyncio.run(build(str(db)))
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    con.commit()
    con.close()
    before = digest(db)
    proc = cli("store", "check", "--db", str(db), cwd=tmp_path)
    assert proc.returncode == 2 and "jxbot run" in proc.stderr, proc.stderr
    assert digest(db) == before


def test_store_check_cannot_read_gives_one_line_and_exit_2(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 50)
    newer = tmp_path / "newer.sqlite3"
    con = sqlite3.connect(newer)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    cases = {junk: "not a SQLite database", newer: "schema_too_new", tmp_path / "missing.sqlite3": "no database"}
    for path, words in cases.items():
        before = digest(path) if path.exists() else None
        proc = cli("store", "check", "--db", str(path), cwd=tmp_path)
        err = proc.stderr.strip()
        assert proc.returncode == 2, (path, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr and len(err.splitlines()) == 1 and words in err, err
        assert str(path) in err
        assert (digest(path) if path.exists() else None) == before


async def test_backup_while_the_bot_writes_is_a_consistent_copy(tmp_path):
    db = tmp_path / "live.sqlite3"
    store = await Store.open(str(db))
    for uid in range(1, 21):
        await store.ensure_player(uid, f"p{uid}")
        await store.grant_starting(G, uid)
    stop = asyncio.Event()

    async def writer() -> int:
        n = 0
        while not stop.is_set():
            await store.pay(G, 1 + n % 20, 1 + (n + 1) % 20, 1)
            n += 1
            await asyncio.sleep(0)
        return n

    task = asyncio.create_task(writer())
    dest = tmp_path / "backups" / "jx-backup.sqlite3"
    dest.parent.mkdir()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "jxbot.cli", "store", "backup", str(dest), "--db", str(db), cwd=str(tmp_path),
        env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    stop.set()
    payments = await task
    await store.close()
    assert proc.returncode == 0, err.decode()
    assert "backed up" in out.decode() and "integrity ok" in out.decode()
    assert payments > 0
    # the copy opens as a jxbot database and its books balance: no payment is half in it
    check = cli("store", "check", "--db", str(dest), cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    copy = await Store.open_readonly(str(dest))
    assert (await copy.totals())["players"] == 20
    await copy.close()
    assert not list(dest.parent.glob(".*partial"))
    # a second backup to the same file needs --force
    again = cli("store", "backup", str(dest), "--db", str(db), cwd=tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr
    assert cli("store", "backup", str(dest), "--db", str(db), "--force", cwd=tmp_path).returncode == 0


async def test_backup_never_replaces_the_live_database_or_its_wal_and_shm(tmp_path, capsys):
    """Issue 24 finding 10: ``store backup --force`` onto the live database's own ``-wal``/``-shm`` file (by
    name, through a symlink or a hard link) or onto the database itself is refused, and nothing is lost."""
    db = tmp_path / "live.sqlite3"
    store = await Store.open(str(db))
    for uid in range(1, 6):
        await store.ensure_player(uid, f"p{uid}")
        await store.grant_starting(G, uid)
    wal, shm = Path(f"{db}-wal"), Path(f"{db}-shm")
    assert wal.exists() and shm.exists()  # the bot has the database open
    (tmp_path / "link-wal").symlink_to(wal)
    os.link(shm, tmp_path / "hard-shm")
    before = {p: digest(p) for p in (db, wal)}
    for dest in (wal, shm, db, tmp_path / "link-wal", tmp_path / "hard-shm", Path(f"{db}-journal")):
        capsys.readouterr()
        assert main(["store", "backup", str(dest), "--db", str(db), "--force"]) == 2, dest
        err = capsys.readouterr().err
        assert "one of its own files" in err and "Traceback" not in err
    assert {p: digest(p) for p in (db, wal)} == before
    await store.pay(G, 1, 2, 5)  # the bot goes on writing
    assert (await store.totals())["players"] == 5 and await store.check() == []
    await store.close()
    assert main(["store", "backup", str(tmp_path / "copy.sqlite3"), "--db", str(db)]) == 0


async def test_store_info_lists_suspended_tables(tmp_path):
    import json

    db = tmp_path / "jx.sqlite3"
    store = await Store.open(str(db))
    await store.save_table("t1", G, 5, {}, {"bot_table": {}, "suspended": {"at": 1.0, "error": "TableError",
                                                                            "hand_id": "m-1"}})
    await store.close_table("t1")
    await store.save_table("t2", G, 6, {}, {"bot_table": {}})
    await store.close()
    proc = cli("store", "info", "--db", str(db), "--json", cwd=tmp_path)
    info = json.loads(proc.stdout)
    assert info["suspended_tables"] == 1 and info["running_tables"] == 1
    assert info["suspended"][0]["table_id"] == "t1" and info["suspended"][0]["hand_id"] == "m-1"
    text = cli("store", "info", "--db", str(db), cwd=tmp_path).stdout
    assert "suspended table t1 (channel 5): TableError, hand m-1" in text


def test_the_readme_upgrade_steps_backup_with_db_before_dest_works(tmp_path, capsys):
    """README, "Upgrading": `jxbot store backup --db LIVE DEST` (the option before the file) was refused by
    argparse ("unrecognized arguments"); options go anywhere, as with every other command."""
    import pytest

    db = tmp_path / "jx.sqlite3"
    asyncio.run(build(str(db)))
    dest = tmp_path / "before-upgrade.sqlite3"
    assert main(["store", "backup", "--db", str(db), str(dest)]) == 0
    assert dest.exists() and main(["store", "check", "--db", str(dest)]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:  # a word no command takes is still refused, by the command's parser
        main(["store", "check", "--db", str(db), "what", "else", "more"])
    assert exc.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "jxbot store backup --db /var/lib/jxbot/jxbot.sqlite3\n/var/lib/jxbot/before-upgrade.sqlite3" in readme
