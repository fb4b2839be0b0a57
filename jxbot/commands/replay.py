"""``jxbot replay HAND --db PATH [--seat N] [--png DIR]`` and ``jxbot replay --file F``: a finished hand,
step by step, as text (and every step's picture with ``--png``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from jxbot.commands.store import default_db
from jxbot.i18n import add_lang_argument, register, t


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay", help="step through a finished hand (from the database or an exported file)",
        description="Step through a finished hand, event by event, from the database (--db, JXBOT_DB) or from a "
        "file written by `jxbot export`. Only finished hands: a running hand's concealed tiles and wall stay "
        "hidden. --seat shows one seat's tiles at every step; --png writes a picture per step. See docs/replay.md.")
    add_source(p)
    p.add_argument("--seat", type=int, choices=range(4), default=None,
                   help="show this seat's concealed tiles and draws at every step (0-3)")
    p.add_argument("--png", metavar="DIR", default=None, help="write every step's picture into DIR")
    p.add_argument("--steps", metavar="FROM:TO", default=None,
                   help="only these steps (Python slice, e.g. 0:10, 40:, -5:)")
    add_lang_argument(p)


def step_range(spec: str | None, n: int) -> range | None:
    if not spec:
        return range(n)
    a, sep, b = spec.partition(":")
    try:
        start = int(a) if a.strip() else None
        stop = int(b) if b.strip() else None
    except ValueError:
        return None
    if not sep:
        if start is None:
            return None
        return range(n)[start:start + 1] if -n <= start < n else range(0)
    return range(n)[slice(start, stop)]


def add_source(p: argparse.ArgumentParser) -> None:
    p.add_argument("hand", nargs="?", default=None, help="the hand's id (as /history, the replay viewer and Fair deal show it)")
    p.add_argument("--db", default=None, help="SQLite file (default: $JXBOT_DB or jxbot.sqlite3)")
    p.add_argument("--file", default=None, help="a hand file written by `jxbot export`")


def fail(cmd: str, text: str, code: int = 2) -> int:
    print(f"jxbot {cmd}: {text}", file=sys.stderr)
    return code


register({
    "cli.file.no_file": {"zh": "没有文件 {path}", "en": "there is no file {path}"},
    "cli.file.cannot_read": {"zh": "读不了文件 {path}（{why}）", "en": "cannot read {path} ({why})"},
    "cli.file.not_json": {"zh": "{path} 不是 JSON 文件（第 {line} 行第 {col} 列）",
                            "en": "{path} is not JSON (line {line}, column {col})"},
    "cli.file.not_hand": {"zh": "{path} 不是 jxbot 导出的牌局（用 `jxbot export` 导出）",
                            "en": "{path} is not a hand written by `jxbot export`"},
    "cli.file.version": {"zh": "{path} 是第 {version} 版的牌局文件，这个 jxbot 只读第 {want} 版",
                           "en": "{path} is a hand file of version {version}; this jxbot reads version {want}"},
    "cli.file.damaged": {"zh": "{path} 里的牌局记录有误：{detail}", "en": "the hand in {path} is damaged: {detail}"},
    "cli.file.cannot_write": {"zh": "写不了 {path}（{why}）", "en": "cannot write {path} ({why})"},
})


def why(exc: OSError) -> str:
    """An OSError's reason without the path it names (the message names it)."""
    return exc.strerror or type(exc).__name__


def make_dir(cmd: str, path: str, lang: str) -> int | None:
    """Create the folder pictures will be written into, before any work: None, or the exit code after one
    line saying why it cannot be (a file in the way, no permission)."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        return fail(cmd, t("cli.file.cannot_write", lang, path=path, why=why(exc)))
    return None


def load_file(cmd: str, path: str, lang: str) -> Any:
    """The replay of a hand file written by ``jxbot export``, or an exit code after saying, in ``lang``, what
    is wrong with the file (a person's words: no traceback; the technical detail of a damaged log kept)."""
    from jxbot.replay import FORMAT, VERSION, load_doc

    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        return fail(cmd, t("cli.file.no_file", lang, path=path))
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or type(exc).__name__
        return fail(cmd, t("cli.file.cannot_read", lang, path=path, why=why))
    except json.JSONDecodeError as exc:
        return fail(cmd, t("cli.file.not_json", lang, path=path, line=exc.lineno, col=exc.colno))
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return fail(cmd, t("cli.file.not_hand", lang, path=path), 1)
    if doc.get("version") != VERSION:
        return fail(cmd, t("cli.file.version", lang, path=path, version=doc.get("version"), want=VERSION), 1)
    try:
        return load_doc(doc)
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        return fail(cmd, t("cli.file.damaged", lang, path=path, detail=str(exc) or type(exc).__name__), 1)


def load_source(cmd: str, args: argparse.Namespace) -> tuple[Any, Any] | int:
    """(Replay, StoredHand | None) from --file or HAND --db; an exit code after printing why not."""
    if args.file:
        if args.hand:
            return fail(cmd, "give a hand id with --db, or --file, not both")
        replay = load_file(cmd, args.file, getattr(args, "lang", "en"))
        return replay if isinstance(replay, int) else (replay, None)
    if not args.hand:
        return fail(cmd, "which hand? give its id (and --db PATH), or --file F")
    path = args.db or default_db()
    if not os.path.exists(path):
        return fail(cmd, f"no database at {path}")
    return asyncio.run(_load_db(cmd, path, args.hand))


async def _load_db(cmd: str, path: str, hand_id: str) -> tuple[Any, Any] | int:
    import sqlite3

    from jxbot.replay_store import ReplayUnavailable, load_hand
    from jxbot.store import Store, StoreError

    try:  # read-only: no migration, the file unchanged, safe beside a running bot
        store = await Store.open_readonly(path)
    except StoreError as exc:
        return fail(cmd, f"{path}: {exc}")
    except sqlite3.Error as exc:
        return fail(cmd, f"{path} cannot be read as a jxbot database ({exc})")
    try:
        stored = await load_hand(store, hand_id)
    except ReplayUnavailable as exc:
        if exc.code == "running":
            return fail(cmd, f"hand {hand_id} is still running: it can be replayed once it has ended", 1)
        if exc.code == "elsewhere":
            return fail(cmd, f"hand {hand_id}'s wall may still be in play at another table of its duplicate "
                             "event's round: it can be replayed once the round is over", 1)
        return fail(cmd, f"no hand {hand_id!r} in {path}", 1)
    finally:
        await store.close()
    return stored.replay, stored


def run(args: argparse.Namespace) -> int:
    src = load_source("replay", args)
    if isinstance(src, int):
        return src
    replay, _stored = src
    lang, seat = args.lang, args.seat
    from jxbot.rules.tiles import tile_name

    steps = step_range(args.steps, len(replay))
    if steps is None:
        return fail("replay", f"--steps {args.steps!r}: give FROM:TO, e.g. 0:10")
    if args.png and (code := make_dir("replay", args.png, lang)) is not None:
        return code
    print(f"hand {replay.hand_id} · {len(replay)} steps · commitment {replay.commitment}")
    width = len(str(len(replay) - 1))
    for k in steps:
        line = f"{k:>{width}}  {replay.caption(k, lang, seat=seat, concealed=seat is not None)}"
        if seat is not None:
            v = replay.view(k, seat, concealed=True)
            tiles = " ".join(tile_name(x, lang) for x in v["hand"])
            drawn = v.get("drawn")
            line += f"   [{tiles}{' + ' + tile_name(drawn, lang) if drawn is not None else ''}]"
        print(line)
    if args.png:
        return write_pngs(replay, args.png, seat, lang, steps)
    return 0


def write_pngs(replay: Any, out: str, seat: int | None, lang: str, steps: range) -> int:
    try:
        import render
    except ImportError:
        return fail("replay", "the render package is not installed: no pictures")
    try:
        n = _write_pngs(render, replay, out, seat, lang, steps)
    except OSError as exc:  # the disk filled, a file in the way
        return fail("replay", t("cli.file.cannot_write", lang, path=exc.filename or out, why=why(exc)))
    print(f"wrote {n} pictures to {out}")
    return 0


def _write_pngs(render: Any, replay: Any, out: str, seat: int | None, lang: str, steps: range) -> int:
    os.makedirs(out, exist_ok=True)
    n = 0
    for k in steps:
        v = replay.view(k, seat, concealed=seat is not None)
        with open(os.path.join(out, f"step-{k:03d}.png"), "wb") as f:
            f.write(render.render_table(v, lang))
        n += 1
        if seat is not None:
            with open(os.path.join(out, f"step-{k:03d}-hand.png"), "wb") as f:
                f.write(render.render_hand(v, lang))
            n += 1
    rv = replay.result_view() if len(replay) - 1 in steps else None
    if rv is not None:
        with open(os.path.join(out, "result.png"), "wb") as f:
            f.write(render.render_result(rv, lang))
        n += 1
    return n
