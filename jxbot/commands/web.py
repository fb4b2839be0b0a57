"""``jxbot web --db DSN --port N``: the web companion on its own, reading the shared store (docs/web.md).

Any number of these can run beside the bot (and beside each other) over the same SQLite file or PostgreSQL
database: they open it read-only and write nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys


def port(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535: another number was a traceback from bind() and a process that
    did not exit (its database left open)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {n}")
    return n


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("web", help="serve the read-only web pages (leaderboards, profiles, replays, live tables)",
                       description="Serve the web companion over the bot's database, read-only (docs/web.md). "
                       "Other settings (JXBOT_WEB_URL, JXBOT_WEB_SECRET, JXBOT_WATCH_DELAY, JXBOT_WEB_RATE) come "
                       "from --env-file and the environment.")
    p.add_argument("--db", default=None, help="SQLite file or postgresql:// address (default: JXBOT_DB)")
    p.add_argument("--port", type=port, default=None, help="port to listen on (default: JXBOT_WEB_PORT, else 8080; "
                   "0: any free port, printed)")
    p.add_argument("--host", default=None, help="address to bind (default: JXBOT_WEB_HOST, 127.0.0.1)")
    p.add_argument("--all-servers", action="store_true",
                   help="show every server's pages, not only those turned on with /admin web on (a private deployment)")
    p.add_argument("--env-file", default=".env", help="settings file read before the environment (default .env)")


async def serve(args: argparse.Namespace, settings: object, stop: asyncio.Event | None = None) -> int:
    from jxbot.store import Store
    from jxbot.web.server import WebServer, config_from

    db = args.db or settings.db_path  # type: ignore[attr-defined]
    try:
        store = await Store.open_readonly(db)
    except Exception as exc:  # a missing file, an old schema, a server that does not answer
        print(f"jxbot web: cannot open the database {db}: {exc}", file=sys.stderr)
        return 2
    server = WebServer(store, config_from(settings, all_servers=True if args.all_servers else None))
    port = args.port if args.port is not None else (settings.web_port or 8080)  # type: ignore[attr-defined]
    host = args.host or settings.web_host  # type: ignore[attr-defined]
    try:
        await server.start(host, port)
    except (OSError, OverflowError) as exc:  # the port is taken, the address is not this machine's
        print(f"jxbot web: cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        await store.close()
        return 2
    assert server.address is not None
    print(f"jxbot web: serving http://{server.address[0]}:{server.address[1]}/ (Ctrl-C to stop)", flush=True)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    orphan = asyncio.create_task(_stop_when_orphaned(stop))
    try:
        await stop.wait()
    finally:
        orphan.cancel()
        await server.stop()
        await store.close()
    return 0


async def _stop_when_orphaned(stop: asyncio.Event, every: float = 0.5) -> None:
    """Started by ``jxbot run`` (``JXBOT_WEB_PARENT`` = the bot's pid), the pages end with the bot, even a
    killed one: a SIGKILLed bot cannot stop its child, and the next start needs the port."""
    parent = os.environ.get("JXBOT_WEB_PARENT")
    if not parent:
        return
    while os.getppid() == int(parent):
        await asyncio.sleep(every)
    stop.set()


def run(args: argparse.Namespace) -> int:
    from jxbot.config import ConfigError, Settings
    from jxbot.logs import configure

    try:
        settings = Settings.load(args.env_file)
    except ConfigError as exc:
        print(f"jxbot: bad setting: {exc}", file=sys.stderr)
        return 2
    configure(settings)
    return asyncio.run(serve(args, settings))
