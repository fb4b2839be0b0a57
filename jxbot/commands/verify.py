"""``jxbot verify``: check a hand's fair deal — the commitment, the 136-tile wall, and the deal and draws
replayed against it. From the database (``HAND --db PATH``), an exported file (``--file F``), or the
wall, salt and commitment pasted in. Exit 0: verified; 1: refused (says which check failed); 2: bad input."""

from __future__ import annotations

import argparse
import json

from jxbot.commands.replay import add_source, fail, load_source
from jxbot.i18n import add_lang_argument


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="check a hand's wall against the commitment published before the deal")
    add_source(p)
    p.add_argument("--wall", default=None, help="the revealed wall: tile notation head to tail, or its 272 hex digits")
    p.add_argument("--salt", default=None, help="the revealed salt")
    p.add_argument("--commitment", default=None, help="the SHA-256 hex published before the deal")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    from jxbot.replay import parse_wall, verified, verify

    pasted = [args.wall, args.salt, args.commitment]
    events: list = []
    if any(x is not None for x in pasted):
        if None in pasted:
            return fail("verify", "give all three of --wall, --salt and --commitment")
        try:
            wall = parse_wall(args.wall)
        except ValueError as exc:
            return fail("verify", f"--wall: {exc}")
        salt, com = args.salt, args.commitment
        if args.file or args.hand:
            src = load_source("verify", args)
            if isinstance(src, int):
                return src
            events = [e.to_json() for e in src[0].events]
    elif args.file and not args.hand:
        from jxbot.replay import doc_fields

        try:
            with open(args.file, encoding="utf-8") as f:
                wall, salt, com, events = doc_fields(json.load(f))
        except OSError as exc:
            return fail("verify", f"cannot read {args.file}: {exc.strerror or exc}")
        except ValueError as exc:  # JSONDecodeError included
            return fail("verify", f"{args.file}: {exc}")
    else:
        src = load_source("verify", args)
        if isinstance(src, int):
            return src
        replay, stored = src
        events = [e.to_json() for e in replay.events]
        reveal = stored.reveal or {}
        if "wall" not in reveal:
            return fail("verify", f"hand {replay.hand_id} has no stored reveal", 1)
        wall, salt, com = list(reveal["wall"]), str(reveal.get("salt", "")), stored.record.commitment
    checks = verify(wall, salt, com, events)
    ok = verified(checks)
    if args.json:
        print(json.dumps({"verified": ok, "checks": [{"ok": c.ok, "check": c.key, **c.args} for c in checks]},
                         ensure_ascii=False))
    else:
        for c in checks:
            print(c.text(args.lang))
        if not events:
            from jxbot.i18n import t

            print(t("verify.no_events", args.lang))
    return 0 if ok else 1
