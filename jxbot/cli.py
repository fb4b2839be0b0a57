"""``jxbot`` command line: ``run | play | simulate | duel | score | render | store``.

Each subcommand lives in ``jxbot/commands/<name>.py`` with ``add_parser(subparsers)`` and
``run(args) -> int``; heavy imports happen inside ``run`` so start-up stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ("run", "play", "simulate", "duel", "score", "render", "store")

REPLAY_COMMANDS = ("replay", "export", "verify")  # replays and the fair deal (docs/replay.md)


def version() -> str:
    """The installed distribution's version (the package's own when run from a bare checkout)."""
    from importlib import metadata

    try:
        return metadata.version("jxbot")
    except metadata.PackageNotFoundError:
        from jxbot import __version__

        return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jxbot", description="Jiaxing Mahjong (嘉兴麻将) for Discord and the terminal")
    parser.add_argument("--version", action="version", version=f"jxbot {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS + REPLAY_COMMANDS:
        try:
            mod = importlib.import_module(f"jxbot.commands.{name}")
        except ModuleNotFoundError as exc:  # a command not built yet
            if exc.name != f"jxbot.commands.{name}":
                raise
            continue
        mod.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    mod = importlib.import_module(f"jxbot.commands.{args.command}")
    return int(mod.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
