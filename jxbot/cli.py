"""``jxbot`` command line: ``run | init | systemd-unit | play | simulate | duel | score | render | store | ladder``.

Each subcommand lives in ``jxbot/commands/<name>.py`` (a ``-`` in the command's name is ``_`` in the module's) with ``add_parser(subparsers)`` and
``run(args) -> int``; heavy imports happen inside ``run`` so start-up stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

COMMANDS = ("run", "init", "systemd-unit", "play", "simulate", "duel", "score", "render", "store", "ladder", "web",
            "tournament")

REPLAY_COMMANDS = ("replay", "export", "verify", "review")  # replays, the fair deal (docs/replay.md), the review (docs/coach.md)


def version() -> str:
    """The installed distribution's version (the package's own when run from a bare checkout)."""
    from importlib import metadata

    try:
        return metadata.version("jxbot")
    except metadata.PackageNotFoundError:
        from jxbot import __version__

        return __version__


def module_of(command: str) -> str:
    return f"jxbot.commands.{command.replace('-', '_')}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jxbot", description="Jiaxing Mahjong (嘉兴麻将) for Discord and the terminal")
    parser.add_argument("--version", action="version", version=f"jxbot {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS + REPLAY_COMMANDS:
        try:
            mod = importlib.import_module(module_of(name))
        except ModuleNotFoundError as exc:  # a command not built yet
            if exc.name != module_of(name):
                raise
            continue
        mod.add_parser(sub)
    return parser


def parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The command line, options anywhere: argparse alone gives up on ``store backup --db DB DEST`` (an optional
    positional after an option: "unrecognized arguments", as README's upgrade step was written), so what it could
    not place is parsed again by the command's own parser, intermixed."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args, extra = parser.parse_known_args(argv)
    command = getattr(args, "command", None)
    if extra and command and argv and argv[0] == command:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
        try:
            return sub.parse_intermixed_args(argv[1:], argparse.Namespace(command=command))
        except TypeError:  # a command with subcommands of its own (tournament simulate): argparse's message
            pass
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parse(parser, argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    mod = importlib.import_module(module_of(args.command))
    try:
        return int(mod.run(args) or 0)
    except BrokenPipeError:  # `jxbot render … | head`: the reader has all it wanted; stop quietly
        # point stdout at /dev/null, or the interpreter's last flush at exit raises it again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
