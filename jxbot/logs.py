"""Logging for ``jxbot run``: the level from LOG_LEVEL for jxbot's own loggers, never for the libraries
whose DEBUG output carries secrets.

discord.py at DEBUG logs every REST call with its URL (an interaction's webhook URL contains its token)
and body (a DM panel's content lists the player's concealed tiles), and every gateway event; aiosqlite at
DEBUG logs each statement with its parameters (the stored hand events, walls included); aiohttp logs
request details. So ``LOG_LEVEL=DEBUG`` keeps those at INFO or above; only the separate, documented as
unsafe ``JXBOT_UNSAFE_DISCORD_DEBUG=1`` lets them follow LOG_LEVEL.
"""

from __future__ import annotations

import logging
from typing import Any

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
PAYLOAD_LOGGERS = ("discord", "aiosqlite", "aiohttp")


def configure(settings: Any, *, handler: logging.Handler | None = None) -> None:
    """Set up the root logger at ``settings.log_level`` (with ``handler``, or stderr) and cap the payload
    loggers at INFO unless ``settings.unsafe_discord_debug``."""
    level = logging.getLevelName(settings.log_level)
    root = logging.getLogger()
    if handler is not None:
        handler.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(handler)
    elif not root.handlers:
        logging.basicConfig(format=FORMAT)
    root.setLevel(level)
    for name in PAYLOAD_LOGGERS:
        lib = logging.getLogger(name)
        if getattr(settings, "unsafe_discord_debug", False):
            lib.setLevel(logging.NOTSET)
        else:
            lib.setLevel(max(level, logging.INFO))
    if getattr(settings, "unsafe_discord_debug", False) and level <= logging.DEBUG:
        logging.getLogger("jxbot").warning("JXBOT_UNSAFE_DISCORD_DEBUG=1: the log will contain tokens and "
                                           "players' hands; do not keep or share it")
