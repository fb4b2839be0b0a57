"""``jxbot init [DIR]``: write a commented ``.env`` (the package's copy of ``.env.example``) and say what to fill in.

It never overwrites: an existing ``.env`` is left as it is (exit 1). The file is created readable by its owner
only (mode 600), since it will hold the bot's token."""

from __future__ import annotations

import argparse
import os
import sys
from importlib import resources
from pathlib import Path

NEXT_STEPS = """\
wrote {env} (readable by its owner only: it will hold the bot's token)
Fill in:
  DISCORD_TOKEN=   the bot's token (Developer Portal → your application → Bot → Reset Token)
  DEV_GUILD_ID=    optional, while testing: your server's id (commands appear there at once)
  JXBOT_DB=        the database: jxbot.sqlite3 in this folder by default, or postgresql://…
Every other setting has a working default, explained in the file. Then, from {folder}:
  jxbot run        (or as a service: `jxbot systemd-unit --help`; docs/bot.md, "Running it as a service")
"""


def env_example() -> str:
    """The text of ``.env.example`` as shipped inside the package (the repo's copy is the same file)."""
    return resources.files("jxbot").joinpath("env.example").read_text(encoding="utf-8")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "init", help="write a commented .env to fill in (DIR, default the current folder)",
        description="Write DIR/.env: every setting with a comment (the text of .env.example), mode 600, and say "
        "what to fill in. An existing .env is never overwritten (exit 1). The folder is created if missing.")
    p.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the folder jxbot runs from (default .)")


def run(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    env = folder / ".env"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(env, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # O_EXCL: never over an existing file
    except FileExistsError:
        print(f"jxbot: {env} already exists: left as it is (edit it, or move it away to start again)",
              file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"jxbot: cannot write {env}: {exc.strerror}", file=sys.stderr)
        return 2
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(env_example())
    print(NEXT_STEPS.format(env=env, folder=folder.resolve()), end="")
    return 0
