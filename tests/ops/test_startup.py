"""``jxbot run`` refuses a database it cannot use before it logs in: one line naming the file, exit 2, no
traceback, and not a single request to Discord. One process per database; a stale lock never blocks."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from jxbot.store.schema import SCHEMA_VERSION
from jxbot.store.startup import ProcessLock, StartupError, check_database

REPO = Path(__file__).resolve().parents[2]


class _Discord(BaseHTTPRequestHandler):
    """Any request = a login attempt; answered 401 so a bot that got that far stops (exit 1)."""

    seen: list[str] = []

    def _any(self) -> None:
        type(self).seen.append(f"{self.command} {self.path}")
        body = b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_PATCH = _any

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def discord_api() -> Iterator[tuple[str, list[str]]]:
    _Discord.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Discord)
    th = threading.Thread(target=server.serve_forever, daemon=True)
    th.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/v10", _Discord.seen
    finally:
        server.shutdown()


def run_bot(db: Path, api: str, timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JXBOT_", "DISCORD_"))}
    env.update({"DISCORD_TOKEN": "MTIz.fake.token-never-printed", "DISCORD_API_BASE": api, "JXBOT_DB": str(db),
                "PYTHONPATH": str(REPO)})
    return subprocess.run([sys.executable, "-m", "jxbot.cli", "run", "--no-sync"], cwd=cwd or db.parent, env=env,
                          capture_output=True, text=True, timeout=timeout)


def assert_refused(proc: subprocess.CompletedProcess[str], seen: list[str], db: Path, *words: str) -> str:
    err = proc.stderr.strip()
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert len(err.splitlines()) == 1, err
    assert str(db) in err and all(w in err for w in words), err
    assert "fake.token" not in proc.stderr + proc.stdout
    assert seen == [], f"it tried to log in: {seen}"
    return err


def test_a_file_that_is_not_a_database_is_refused_before_login(tmp_path, discord_api):
    db = tmp_path / "jxbot.sqlite3"
    db.write_bytes(b"these are my notes, not a database\n" * 20)
    before = db.read_bytes()
    assert_refused(run_bot(db, discord_api[0]), discord_api[1], db, "not a SQLite database")
    assert db.read_bytes() == before


def test_a_damaged_database_body_is_refused_before_login(tmp_path, discord_api):
    db = tmp_path / "jxbot.sqlite3"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    data = bytearray(db.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)  # a good header over garbage pages
    db.write_bytes(bytes(data))
    assert_refused(run_bot(db, discord_api[0]), discord_api[1], db, "not a usable SQLite database")


def test_a_newer_schema_is_refused_before_login(tmp_path, discord_api):
    db = tmp_path / "jxbot.sqlite3"
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    con.commit()
    con.close()
    err = assert_refused(run_bot(db, discord_api[0]), discord_api[1], db, "newer", str(SCHEMA_VERSION + 5))
    assert "upgrade" in err


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """chmod for a normal user; for root (who ignores modes) the immutable attribute."""
    mode = path.stat().st_mode
    path.chmod(0o555 if path.is_dir() else 0o444)
    immutable = False
    try:
        if os.access(path, os.W_OK) or os.geteuid() == 0:
            if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
                pytest.skip("running as root without chattr: cannot make a file read-only")
            immutable = True
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(mode)


async def _make_db(path: Path) -> None:
    from jxbot.store import Store

    st = await Store.open(str(path))
    await st.close()


async def test_a_read_only_database_file_is_refused_before_login(tmp_path, discord_api):
    db = tmp_path / "jxbot.sqlite3"
    await _make_db(db)
    with read_only(db):
        assert_refused(run_bot(db, discord_api[0]), discord_api[1], db, "read-only")


async def test_a_journal_file_the_bot_cannot_write_is_refused_before_login(tmp_path, discord_api):
    db = tmp_path / "jxbot.sqlite3"
    await _make_db(db)
    wal = Path(f"{db}-wal")
    wal.write_bytes(b"")  # as left by an earlier run under another user
    with read_only(wal):
        err = assert_refused(run_bot(db, discord_api[0]), discord_api[1], db, "not writable")
    assert str(wal) in err


async def test_a_read_only_folder_is_refused_before_login(tmp_path, discord_api):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "jxbot.sqlite3"
    await _make_db(db)
    with read_only(folder):
        assert_refused(run_bot(db, discord_api[0]), discord_api[1], db, "folder", "read-only")


def test_a_missing_folder_is_refused_before_login(tmp_path, discord_api):
    db = tmp_path / "nowhere" / "jxbot.sqlite3"
    assert_refused(run_bot(db, discord_api[0], cwd=tmp_path), discord_api[1], db, "does not exist")
    assert not db.parent.exists()


HOLDER = """
import sys, time
from jxbot.store.startup import ProcessLock
ProcessLock(sys.argv[1]).acquire()
print("locked", flush=True)
time.sleep(120)
"""


def _holder(db: Path) -> subprocess.Popen[str]:
    p = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdout=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert p.stdout is not None and p.stdout.readline().strip() == "locked"
    return p


def test_a_second_process_on_the_same_database_is_refused(tmp_path, discord_api):
    db = tmp_path / "jxbot.sqlite3"
    holder = _holder(db)
    try:
        err = assert_refused(run_bot(db, discord_api[0]), discord_api[1], db, "another jxbot process",
                             f"pid {holder.pid}")
        assert "one process per database" in err
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_left_by_a_killed_process_does_not_block_a_restart(tmp_path, discord_api):
    db = tmp_path / "jxbot.sqlite3"
    holder = _holder(db)
    os.kill(holder.pid, signal.SIGKILL)  # no clean-up: the lock file stays, with the dead pid in it
    holder.wait()
    assert Path(f"{db}.lock").read_text().split()[0] == str(holder.pid)
    proc = run_bot(db, discord_api[0])
    # past every start-up check: it logged in (our fake Discord says the token is wrong → exit 2)
    assert proc.returncode == 2, proc.stderr
    assert any("/users/@me" in r for r in discord_api[1]), discord_api[1]
    assert "rejected the token" in proc.stderr and "fake.token" not in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_lock_is_exclusive_within_a_process_and_released_on_close(tmp_path):
    db = str(tmp_path / "jxbot.sqlite3")
    first = ProcessLock(db).acquire()
    with pytest.raises(StartupError, match="another jxbot process"):
        ProcessLock(db).acquire()
    first.release()
    with ProcessLock(db) as again:
        assert again.held


def test_check_database_reads_only(tmp_path):
    db = tmp_path / "new.sqlite3"
    assert check_database(str(db)) == 0
    assert not db.exists()  # a new database is created by the store, not by the check
    assert check_database(":memory:") == 0


async def test_a_database_of_the_other_silver_scope_is_refused_before_login(tmp_path, discord_api):
    from jxbot.store import Store

    db = tmp_path / "jxbot.sqlite3"
    st = await Store.open(str(db), scope="global")
    await st.close()
    proc = run_bot(db, discord_api[0])  # SILVER_SCOPE is guild by default
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    refusals = [line for line in proc.stderr.splitlines() if line.startswith("jxbot:")]
    assert len(refusals) == 1 and str(db) in refusals[0] and "scope" in refusals[0] and "global" in refusals[0]
    assert proc.stderr.strip().endswith(refusals[0])
    assert discord_api[1] == [] and "fake.token" not in proc.stderr


def test_what_a_failed_login_means_to_systemd():
    """Exit 2 keeps the unit down (RestartPreventExitStatus=2): the admin must fix it; exit 1 is restarted."""
    from types import SimpleNamespace

    import discord

    from jxbot.bot import start_failure

    def http(status: int) -> discord.HTTPException:
        return discord.DiscordServerError(SimpleNamespace(status=status, reason="x"), "") if status >= 500 \
            else discord.HTTPException(SimpleNamespace(status=status, reason="x"), "")

    def closed(code: int) -> discord.ConnectionClosed:
        return discord.ConnectionClosed(SimpleNamespace(close_code=code), shard_id=None)

    assert start_failure(discord.LoginFailure("Improper token has been passed."))[0] == 2
    assert start_failure(discord.PrivilegedIntentsRequired(None))[0] == 2
    assert start_failure(closed(4004)) == (2, start_failure(closed(4004))[1])
    assert "token" in start_failure(closed(4004))[1]
    assert start_failure(closed(4014))[0] == 2
    assert start_failure(closed(1006))[0] == 1  # the gateway dropped: may pass
    outage = start_failure(http(503))
    assert outage[0] == 1 and "503" in outage[1]
    assert start_failure(http(429))[0] == 1
    assert start_failure(TimeoutError())[0] == 1
    assert start_failure(OSError(101, "Network is unreachable")) == \
        (1, "cannot reach Discord (OSError: Network is unreachable); a restart will retry")
