"""``python -m tests.e2e.double --port P``: serve a double with one guild, a channel and a few users.

Prints one JSON line (api_base, token, ids) so a bot can be pointed at it; ``GET /_double/state`` shows
what clients would see and ``POST /_double/faults`` injects faults (see docs/e2e.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging

from .server import DiscordDouble


async def serve(port: int, users: int) -> None:
    double = DiscordDouble()
    await double.start(port)
    guild = double.add_guild("jxbot test")
    channel = double.add_text_channel(guild, "mahjong")
    players = [double.add_user(f"player{i + 1}", guild=guild) for i in range(users)]
    print(json.dumps({
        "api_base": double.api_base, "gateway": double.gateway_url, "token": double.token,
        "guild_id": str(guild.id), "channel_id": str(channel.id), "users": {u.username: str(u.id) for u in players},
    }), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await double.stop()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.double")
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0 = any free port)")
    parser.add_argument("--users", type=int, default=4, help="players to create in the guild")
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args()
    logging.basicConfig(level=args.log_level)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.port, args.users))


if __name__ == "__main__":
    main()
