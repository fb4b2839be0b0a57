"""``jxbot run``: start the Discord bot with the settings from the environment / ``.env``."""

from __future__ import annotations

import argparse
import re
import sys

# what a bot token is made of (three base64url parts joined by dots): anything else was pasted wrong
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)+")
MALFORMED_TOKEN = ("jxbot: DISCORD_TOKEN is malformed (a bot token is parts joined by dots, letters, digits, "
                   "- and _ only; no quotes, spaces or 'Bot ' prefix): copy it again from the Developer Portal")

HOW_TO_GET_A_TOKEN = """\
jxbot: no Discord bot token (DISCORD_TOKEN is not set).

To get one (everything needed is here; docs/bot.md of the source tells more):
  1. https://discord.com/developers/applications → New Application → Bot → Reset Token, copy it.
     Leave the three Privileged Gateway Intents off: jxbot needs none of them.
  2. `jxbot init` writes a commented .env here; put the token in it:  DISCORD_TOKEN=...
     (while testing, DEV_GUILD_ID=<your server id> makes the commands appear there at once).
  3. Invite the bot: open this link with APPLICATION_ID (General Information tab) filled in —
     https://discord.com/oauth2/authorize?client_id=APPLICATION_ID&scope=bot+applications.commands&permissions=117760
     (jxbot also prints its own link when it logs in). Then run `jxbot run` again.

No token at hand? Play a full match in the terminal against three computer players:
  jxbot play
"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run", help="run the Discord bot (DISCORD_TOKEN from the environment or .env)",
        description="Run the Discord bot until stopped (SIGTERM: a graceful stop, exit 0). Settings come from "
        "--env-file and the environment (`jxbot init` writes a commented .env). Exit 2: a refusal the admin must "
        "fix (no or a rejected token, a bad setting, the database); exit 1: something that may pass (the "
        "network, a Discord outage). See docs/bot.md, \"Running it as a service\".")
    p.add_argument("--env-file", default=".env", help="settings file read before the environment (default .env)")
    p.add_argument("--no-sync", action="store_true", help="do not sync slash commands at start")
    p.add_argument("--shards", metavar="IDS", help="connect only these Discord shards, e.g. 0-3 or 0,2 "
                   "(JXBOT_SHARD_IDS; needs --shard-count; several processes need JXBOT_DB=postgresql://…)")
    p.add_argument("--shard-count", type=int, metavar="N", help="the bot's total number of shards (JXBOT_SHARD_COUNT)")


def run(args: argparse.Namespace) -> int:
    from jxbot.config import ConfigError, Settings

    try:
        settings = Settings.load(args.env_file)
    except ConfigError as exc:
        print(f"jxbot: bad setting: {exc}", file=sys.stderr)
        return 2
    from jxbot.cluster.settings import shard_settings

    try:  # --shards / --shard-count over JXBOT_SHARD_IDS / JXBOT_SHARD_COUNT; a partial set needs PostgreSQL
        settings, sync_here = shard_settings(settings, args.shards, args.shard_count)
    except ConfigError as exc:
        print(f"jxbot: {exc}", file=sys.stderr)
        return 2
    if not settings.has_token:
        print(HOW_TO_GET_A_TOKEN, file=sys.stderr)
        return 2
    if not TOKEN_SHAPE.fullmatch(settings.discord_token or ""):  # before the login: Discord would only say 401
        print(MALFORMED_TOKEN, file=sys.stderr)
        return 2
    from jxbot.store.startup import StartupError, prepare

    try:  # before the login: a database this process cannot use ends here, in one line
        lock = prepare(settings.db_path)
    except StartupError as exc:
        print(f"jxbot: {exc}", file=sys.stderr)
        return 2
    from jxbot.logs import configure

    configure(settings)
    from jxbot.bot import run_bot
    from jxbot.cluster.bot import make_bot

    try:
        return run_bot(settings, make_bot, sync=not args.no_sync and sync_here)
    finally:
        if lock is not None:
            lock.release()
