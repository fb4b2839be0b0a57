"""What ``jxbot run`` checks about its database before it logs in, and the one-process-per-database lock.

Every refusal is a :class:`StartupError` whose text is one line naming the file and what is wrong; the
CLI prints it and exits 2 (no traceback, no login). See docs/store.md ("Start-up checks", "One process").

The lock is ``fcntl.flock`` on ``<database>.lock`` beside the database, held by an open file descriptor for
the life of the process. The kernel drops it when the process ends however it ends (exit, crash,
SIGKILL), so a stale lock file never blocks a restart: the file may stay, the lock does not. The pid in
the file is only for the message.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import tempfile
from pathlib import Path

from jxbot.store.schema import SCHEMA_VERSION

SQLITE_HEADER = b"SQLite format 3\x00"
_DENIED = (errno.EACCES, errno.EPERM, errno.EROFS)


class StartupError(Exception):
    """The database cannot be used; ``str(exc)`` is one line for the operator."""


def _in_memory(path: str) -> bool:
    return path == ":memory:" or path.startswith("file:")


def _folder(path: str) -> Path:
    return Path(path).resolve().parent


def check_database(path: str) -> int:
    """Refuse a database ``jxbot run`` cannot use: a missing or read-only folder, a read-only file, a file
    that is not SQLite, a schema newer than this program. Reads only (a missing file stays missing).
    Returns the schema version found (0 for a new database)."""
    if _in_memory(path):
        return 0
    p = Path(path)
    folder = _folder(path)
    if not folder.is_dir():
        raise StartupError(f"database {path}: the folder {folder} does not exist (set JXBOT_DB to a file in an existing folder)")
    if p.is_dir():
        raise StartupError(f"database {path} is a folder, not a file (set JXBOT_DB to a file path)")
    try:  # the journal (-wal, -shm), a new database and the lock file are created in the folder
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        if exc.errno in _DENIED:
            raise StartupError(f"database {path}: its folder {folder} is read-only ({exc.strerror}); jxbot writes "
                               "the database, its journal and its lock file there") from None
        raise StartupError(f"database {path}: cannot write in its folder {folder} ({exc.strerror})") from None
    version = 0
    if p.exists():
        try:
            fd = os.open(p, os.O_RDWR)
        except OSError as exc:
            if exc.errno in _DENIED:
                raise StartupError(f"database {path} is read-only ({exc.strerror}): jxbot must be able to write it") from None
            raise StartupError(f"database {path} cannot be opened: {exc.strerror}") from None
        try:
            head = os.read(fd, 100)
        finally:
            os.close(fd)
        if head and (len(head) < 100 or not head.startswith(SQLITE_HEADER)):
            raise StartupError(f"database {path} is not a SQLite database (is JXBOT_DB pointing at the right file?)")
        version = read_schema_version(path) if head else 0
        if version > SCHEMA_VERSION:
            raise StartupError(f"database {path} has schema version {version}, newer than this jxbot knows "
                               f"({SCHEMA_VERSION}): upgrade jxbot, or restore a backup made by this version")
    for extra in (f"{p}-wal", f"{p}-shm", f"{Path(path).resolve()}.lock"):  # e.g. left behind by a run as root
        if os.path.exists(extra):
            try:
                os.close(os.open(extra, os.O_RDWR))
            except OSError as exc:
                raise StartupError(f"database {path}: {extra} is not writable ({exc.strerror}); give it to the "
                                   "user the bot runs as") from None
    return version


def read_schema_version(path: str) -> int:
    """The schema version (``PRAGMA user_version``) through a read-only connection; the WAL is honoured, so
    a migration committed but not yet checkpointed counts. :class:`StartupError` if it is not a database."""
    try:
        con = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StartupError(f"database {path} cannot be opened: {exc}") from None
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        (version,) = con.execute("PRAGMA user_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StartupError(f"database {path} is not a usable SQLite database ({exc})") from None
    finally:
        con.close()
    return int(version)


class ProcessLock:
    """An exclusive ``flock`` on ``<database>.lock`` for as long as this object (and the process) lives."""

    def __init__(self, db_path: str) -> None:
        self.db_path = db_path
        self.path = Path(f"{Path(db_path).resolve()}.lock")
        self._fd: int | None = None

    def acquire(self) -> ProcessLock:
        import fcntl

        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StartupError(f"database {self.db_path}: cannot create the lock file {self.path} ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = ""
            with contextlib.suppress(OSError, ValueError):
                holder = f" (pid {int(os.pread(fd, 32, 0).decode().split()[0])})"
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StartupError(f"database {self.db_path} is in use by another jxbot process{holder}; "
                                   "one process per database: stop the other one first") from None
            raise StartupError(f"database {self.db_path}: cannot lock {self.path} ({exc.strerror})") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> ProcessLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _scrub(text: str, dsn: str) -> str:
    from urllib.parse import unquote, urlsplit

    try:
        secret = urlsplit(dsn).password
    except ValueError:
        secret = None
    for s in {secret, unquote(secret)} if secret else ():
        text = text.replace(s, "***")
    return text


def check_postgres(dsn: str, *, timeout: float = 10.0) -> int:
    """Refuse a PostgreSQL server ``jxbot run`` cannot use: a DSN that does not parse, a server that does
    not answer (in ``timeout`` seconds), refused credentials, a missing database, a schema newer than this
    program. Reads only. Returns the schema version found (0 for an empty database). The password is never
    in a message."""
    import asyncio

    from jxbot.store.dsn import redact

    shown = redact(dsn)

    async def probe() -> int:
        import asyncpg

        conn = await asyncpg.connect(dsn, timeout=timeout)
        try:
            if not await conn.fetchval("SELECT to_regclass('meta') IS NOT NULL"):
                return 0
            v = await conn.fetchval("SELECT value FROM meta WHERE key = 'schema_version'")
            return int(v) if v is not None else 0
        finally:
            await conn.close()

    try:
        version = asyncio.run(asyncio.wait_for(probe(), timeout + 5))
    except TimeoutError:
        raise StartupError(f"database {shown}: the PostgreSQL server did not answer within {timeout:.0f} s") from None
    except OSError as exc:
        raise StartupError(f"database {shown}: cannot reach the PostgreSQL server "
                           f"({_scrub(exc.strerror or str(exc), dsn)})") from None
    except Exception as exc:  # asyncpg's errors: bad DSN, authentication, missing database, …
        what = type(exc).__name__
        detail = _scrub(str(exc), dsn).splitlines()[0] if str(exc) else what
        if what in ("InvalidPasswordError", "InvalidAuthorizationSpecificationError"):
            raise StartupError(f"database {shown}: the server refused the login ({detail})") from None
        if what == "InvalidCatalogNameError":
            raise StartupError(f"database {shown}: {detail} (create it first: createdb, or CREATE DATABASE)") from None
        raise StartupError(f"database {shown}: cannot use it ({detail})") from None
    if version > SCHEMA_VERSION:
        raise StartupError(f"database {shown} has schema version {version}, newer than this jxbot knows "
                           f"({SCHEMA_VERSION}): upgrade jxbot, or restore a backup made by this version")
    return version


def prepare(path: str) -> ProcessLock | None:
    """``jxbot run``'s start-up: check the database, then take the lock (None for an in-memory database).
    On PostgreSQL the server is checked and no file lock is taken: processes share it."""
    from jxbot.store.dsn import is_pg_dsn

    if is_pg_dsn(path):
        check_postgres(path)
        return None
    check_database(path)
    if _in_memory(path):
        return None
    return ProcessLock(path).acquire()
