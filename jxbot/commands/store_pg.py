"""``jxbot store`` on PostgreSQL (check, info, backup, migrate), ``migrate`` on SQLite, and ``copy``.

Every refusal is one line on stderr and exit 2; a DSN is shown without its password.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from jxbot.commands.store_common import _fail, _readable, _run
from jxbot.store.dsn import is_pg_dsn, redact


def run(args: argparse.Namespace, path: str) -> int:
    from jxbot.store.startup import StartupError, check_database, check_postgres

    pg = is_pg_dsn(path)
    shown = redact(path) if pg else path
    try:  # the server answers, the login and the database exist, the schema is not newer than ours
        version = check_postgres(path) if pg else check_database(path)
    except StartupError as exc:
        return _fail(str(exc))
    try:
        if args.action == "migrate":
            return asyncio.run(_migrate(path, shown, version))
        if args.action == "backup":
            if not args.dest:
                return _fail("backup needs a destination: jxbot store backup PATH")
            return asyncio.run(backup_pg(path, args.dest, force=bool(args.force)))
        return asyncio.run(_run(args.action, path, bool(getattr(args, "json", False))))
    except (OSError, sqlite3.Error) as exc:
        return _fail(f"{shown}: {exc}")
    except Exception as exc:
        import asyncpg

        if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError):
            return _fail(f"{shown}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
        raise


async def _migrate(path: str, shown: str, before: int) -> int:
    from jxbot.store import SCHEMA_VERSION, Store, StoreError

    try:
        store = await Store.open(path, None)
    except StoreError as exc:
        return _fail(f"{shown}: {exc}")
    try:
        after = await store.schema_version()
    finally:
        await store.close()
    if before == after:
        print(f"{shown}: schema {after} is current (nothing to do)")
    else:
        print(f"{shown}: migrated schema {before} → {after}" + (" (a new database)" if before == 0 else ""))
    return 0 if after == SCHEMA_VERSION else 1


async def backup_pg(dsn: str, dest: str, *, force: bool = False) -> int:
    """A PostgreSQL database as a SQLite file, from one REPEATABLE READ snapshot; written beside DEST,
    checked (integrity and ``store check``), then renamed into place."""
    import asyncpg

    from jxbot.store import Store
    from jxbot.store.copying import pg_to_sqlite

    shown = redact(dsn)
    target = Path(dest)
    if target.exists() and not force:
        return _fail(f"{dest} exists (use --force to replace it)")
    if not target.parent.is_dir():
        return _fail(f"the folder {target.parent} does not exist")
    tmp = target.with_name(f".{target.name}.partial")
    for extra in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        extra.unlink(missing_ok=True)
    try:
        conn = await asyncpg.connect(dsn)
        try:
            global_ = await conn.fetchval("SELECT value FROM meta WHERE key = 'scope'") == "global"
            made = await Store.open(str(tmp), "global" if global_ else "guild")  # the current schema, empty
            await made.close()
            counts = await pg_to_sqlite(conn, str(tmp))
        finally:
            await conn.close()
        copy = await Store.open_readonly(str(tmp))
        try:
            problems = await copy.check()
        finally:
            await copy.close()
        if problems:
            tmp.unlink(missing_ok=True)
            return _fail(f"the copy of {shown} fails `store check` ({problems[0]}); nothing written to {dest}")
        con = sqlite3.connect(tmp)
        con.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        con.close()
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    print(f"backed up {shown} to {dest} ({target.stat().st_size // 1024} KB, {counts['ledger']} ledger rows, "
          f"{counts['hands']} hands, one snapshot; check ok)")
    return 0


async def _fingerprint(store: Any) -> dict[str, Any]:
    """What must be equal on both ends of a copy: counts, every balance, the ledger's sums."""
    rows = await store._all(store._db, "SELECT scope, COALESCE(user_id, 0), balance FROM wallets "
                                       "ORDER BY scope, user_id NULLS FIRST")
    led = await store._one(store._db, "SELECT COUNT(*), COALESCE(SUM(delta), 0), COALESCE(SUM(ABS(delta)), 0), "
                                      "COALESCE(MAX(entry_id), 0) FROM ledger")
    return {"totals": await store.totals(), "balances": [tuple(int(v) for v in r) for r in rows],
            "ledger": tuple(int(v) for v in led), "scope": store.scope}


def _in_use(path: str) -> str | None:
    """``" (pid N)"`` when a jxbot process holds the database's lock file (jxbot run's flock), else None.
    Only looks: a lock file that is not there is not created."""
    import errno
    import fcntl

    lock = Path(f"{Path(path).resolve()}.lock")
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            try:
                return f" (pid {int(os.pread(fd, 32, 0).decode().split()[0])})"
            except (OSError, ValueError, IndexError):
                return ""
        return None
    finally:
        os.close(fd)  # closing drops the shared lock too
    return None


def copy(source: str, target: str, *, replace: bool = False, as_json: bool = False) -> int:
    from jxbot.store.startup import StartupError, check_postgres

    if is_pg_dsn(source):
        return _fail("copy reads a SQLite file and writes PostgreSQL: jxbot store copy SQLITE_PATH postgresql://…")
    if not is_pg_dsn(target):
        return _fail(f"the target must be a PostgreSQL DSN (postgresql://…), not {target!r}")
    why = _readable(source)
    if why:
        return _fail(why)
    running = _in_use(source)
    if running:
        return _fail(f"{source} is in use by a running jxbot{running}: stop it first (what it writes after the "
                     "copy would not be in PostgreSQL)")
    shown = redact(target)
    try:
        check_postgres(target)
    except StartupError as exc:
        return _fail(str(exc))
    try:
        return asyncio.run(_copy(source, target, shown, replace, as_json))
    except Exception as exc:
        import asyncpg

        if isinstance(exc, OSError | sqlite3.Error | asyncpg.PostgresError | asyncpg.InterfaceError):
            return _fail(f"copy of {source} to {shown} failed, nothing written: {str(exc).splitlines()[0]}")
        raise


async def _copy(source: str, target: str, shown: str, replace: bool, as_json: bool) -> int:
    import asyncpg

    from jxbot.store import Store, StoreError
    from jxbot.store.copying import CopyError, sqlite_to_pg

    try:
        src = await Store.open_readonly(source)
    except StoreError as exc:
        return _fail(f"{source}: {exc}")
    try:
        src_problems = await src.check()
        if src_problems:
            return _fail(f"{source} fails `store check` ({src_problems[0]}; {len(src_problems)} problem(s)): "
                         "repair or restore it before copying")
        dst = await Store.open(target, None)  # migrated to the current schema
        await dst.close()
        conn = await asyncpg.connect(target)
        try:
            counts = await sqlite_to_pg(source, conn, replace=replace)
        except CopyError as exc:
            return _fail(f"{shown}: {exc}")
        finally:
            await conn.close()
        dst = await Store.open_readonly(target)
        try:
            dst_problems = await dst.check()
            a, b = await _fingerprint(src), await _fingerprint(dst)
        finally:
            await dst.close()
    finally:
        await src.close()
    same = a == b
    if as_json:
        print(json.dumps({"ok": same and not dst_problems, "rows": counts, "source": a["totals"],
                          "target": b["totals"], "problems": [str(p) for p in dst_problems]}))
    if dst_problems:
        if not as_json:
            print(f"copied, but {shown} fails `store check`:")
            for p in dst_problems:
                print(f"  {p}")
        return 1
    if not same:
        if not as_json:
            print(f"copied, but the two ends differ: source {a['totals']} ledger {a['ledger']}, "
                  f"target {b['totals']} ledger {b['ledger']}")
        return 1
    if not as_json:
        t = a["totals"]
        print(f"copied {source} to {shown}: {t['players']} players, {t['wallets']} wallets, {t['ledger_rows']} "
              f"ledger rows, {t['hands']} hands, {t['events']} events; check ok on both ends, balances and "
              "ledger sums equal")
    return 0
