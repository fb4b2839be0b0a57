"""``jxbot store check|info|backup|migrate|copy``: operator tools on the database, safe while the bot runs.

* ``check [--db PATH]``: verify the silver books, read-only (the file is never migrated or written):
  exit 0 consistent, 1 problems found, 2 cannot read it (missing, not a database, another schema).
* ``info``: schema version, scope and row counts (read-only too).
* ``backup DEST``: a consistent copy through SQLite's online backup API (one snapshot, while the bot
  keeps writing); the copy is written beside DEST and renamed into place once verified. On PostgreSQL
  the same: a SQLite file written from one REPEATABLE READ snapshot (restore it with ``copy``).
* ``migrate``: bring the schema to this version (what ``jxbot run`` does at start), and say so.
* ``copy SQLITE_PATH postgresql://…``: every row into a PostgreSQL database in one transaction
  (refused when the target has rows, unless ``--replace``), then ``check`` on both ends and the
  balances and ledger sums compared.

``--db`` (or ``JXBOT_DB``) is a SQLite file or a ``postgresql://`` DSN; a DSN's password is never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
from pathlib import Path

from jxbot.commands.store_common import _fail, _readable, _run

DEFAULT_DB = "jxbot.sqlite3"


def default_db() -> str:
    return os.environ.get("JXBOT_DB") or DEFAULT_DB


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("store", help="database tools: check the ledger, show counts, back up (safe while running)")
    p.add_argument("action", choices=("check", "info", "backup", "migrate", "copy"),
                   help="check: verify balances and hands; info: counts; backup DEST: a consistent copy; "
                   "migrate: bring the schema up to date; copy SQLITE_PATH postgresql://…: move a server's data")
    p.add_argument("dest", nargs="?", help="backup: the file to write; copy: the SQLite file to read")
    p.add_argument("target", nargs="?", help="copy: the PostgreSQL database to write (postgresql://…)")
    p.add_argument("--db", default=None,
                   help="SQLite file or postgresql:// DSN (default: $JXBOT_DB or jxbot.sqlite3)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--force", action="store_true", help="backup: replace DEST if it exists")
    p.add_argument("--replace", action="store_true", help="copy: delete the target's rows first")


def run(args: argparse.Namespace) -> int:
    from jxbot.store.dsn import is_pg_dsn

    if args.action == "copy":
        if not args.dest or not args.target:
            return _fail("copy needs a source and a target: jxbot store copy SQLITE_PATH postgresql://…")
        from jxbot.commands.store_pg import copy

        return copy(args.dest, args.target, replace=bool(args.replace), as_json=bool(args.json))
    path = args.db or default_db()
    if is_pg_dsn(path) or args.action == "migrate":
        from jxbot.commands import store_pg

        return store_pg.run(args, path)
    why = _readable(path)
    if why:
        return _fail(why)
    if args.action == "backup":
        if not args.dest:
            return _fail("backup needs a destination: jxbot store backup PATH")
        return backup(path, args.dest, force=bool(args.force))
    return asyncio.run(_run(args.action, path, bool(getattr(args, "json", False))))


def _own_file(path: str, target: Path) -> bool:
    """True when ``target`` is the database itself or one of the files SQLite keeps beside it (``-wal``,
    ``-shm``, ``-journal``): by name after following links, or the same file under another name (a hard link)."""
    db = Path(path).resolve()
    own = [db] + [db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
    where = target.resolve()
    if where in own:
        return True
    if not where.exists():
        return False
    for f in own:
        try:
            if f.exists() and os.path.samefile(where, f):
                return True
        except OSError:
            continue
    return False


def backup(path: str, dest: str, *, force: bool = False) -> int:
    """Copy ``path`` to ``dest`` with the online backup API in one step (one read snapshot: WAL readers
    never block the bot's writes, and nothing the bot commits meanwhile is half in the copy)."""
    target = Path(dest)
    if _own_file(path, target):  # checked first: --force never replaces the live database or its WAL/shm
        return _fail(f"{dest} is the database {path} or one of its own files (-wal, -shm, -journal): "
                     "the backup must go to another file")
    if target.exists() and not force:
        return _fail(f"{dest} exists (use --force to replace it)")
    if not target.parent.is_dir():
        return _fail(f"the folder {target.parent} does not exist")
    tmp = target.with_name(f".{target.name}.partial")
    try:
        src = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            src.execute("PRAGMA busy_timeout = 10000")
            tmp.unlink(missing_ok=True)
            out = sqlite3.connect(tmp)
            try:
                src.backup(out)  # pages=-1: the whole database from one snapshot
                (check,) = out.execute("PRAGMA quick_check").fetchone()
                (version,) = out.execute("PRAGMA user_version").fetchone()
            finally:
                out.close()
        finally:
            src.close()
        if check != "ok":
            tmp.unlink(missing_ok=True)
            return _fail(f"the copy of {path} failed its integrity check ({check}); nothing written to {dest}")
        os.replace(tmp, target)
    except (sqlite3.Error, OSError) as exc:
        tmp.unlink(missing_ok=True)
        return _fail(f"backup of {path} to {dest} failed: {exc}")
    print(f"backed up {path} to {dest} ({target.stat().st_size // 1024} KB, schema {version}, integrity ok)")
    return 0
