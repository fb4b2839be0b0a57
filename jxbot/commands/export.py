"""``jxbot export HAND --db PATH [-o FILE]``: a finished hand's public event log and its reveal as JSON
(format ``jxbot-hand`` version 1, docs/replay.md), to view elsewhere with ``jxbot replay --file``."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

from jxbot.commands.replay import _load_db, fail
from jxbot.commands.store import default_db


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write a finished hand as a shareable JSON file")
    p.add_argument("hand", help="the hand's id")
    p.add_argument("--db", default=None, help="SQLite file (default: $JXBOT_DB or jxbot.sqlite3)")
    p.add_argument("-o", "--output", default=None, help="the file to write (default: standard output)")


def run(args: argparse.Namespace) -> int:
    path = args.db or default_db()
    if not os.path.exists(path):
        return fail("export", f"no database at {path}")
    src = asyncio.run(_load_db("export", path, args.hand))
    if isinstance(src, int):
        return src
    replay, stored = src
    try:
        doc = replay.export()
    except ValueError as exc:  # a hand settled without ending: void (its table stopped on an error)
        if isinstance(stored.result, dict) and stored.result.get("void"):
            return fail("export", f"hand {replay.hand_id} was void (its table stopped before the hand ended, "
                                  "no silver moved): it has no reveal and nothing to export", 1)
        return fail("export", f"hand {replay.hand_id} cannot be exported: {exc}", 1)
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:  # a folder that does not exist, no permission, a full disk
            return fail("export", f"cannot write {args.output} ({exc.strerror or type(exc).__name__})")
        print(f"wrote hand {replay.hand_id} to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
