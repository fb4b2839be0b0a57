"""Logging for ``jxbot run``: the level from LOG_LEVEL for jxbot's own loggers, never for the libraries
whose DEBUG output carries secrets; and exception texts that could carry game data are withheld.

discord.py at DEBUG logs every REST call with its URL (an interaction's webhook URL contains its token)
and body (a DM panel's content lists the player's concealed tiles), and every gateway event; aiosqlite at
DEBUG logs each statement with its parameters (the stored hand events, walls included); aiohttp logs
request details. So ``LOG_LEVEL=DEBUG`` keeps those at INFO or above; only the separate, documented as
unsafe ``JXBOT_UNSAFE_DISCORD_DEBUG=1`` lets them follow LOG_LEVEL.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
PAYLOAD_LOGGERS = ("discord", "aiosqlite", "aiohttp")
WITHHELD = "(message withheld: it may carry game data)"


def _speaks_safely(exc: BaseException) -> bool:
    """Exceptions whose text is about infrastructure (files, the database, the network, settings), never
    about a hand. Any other exception's text (a ValueError naming a tile, a KeyError of an event …) is
    withheld from the log; its class and the traceback's frames (file, line, code) are kept."""
    import sqlite3

    from jxbot.config import ConfigError

    safe: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, TimeoutError, ConfigError)
    try:
        import discord

        safe += (discord.HTTPException, discord.GatewayNotFound, discord.ConnectionClosed)
    except ImportError:  # pragma: no cover - discord is a dependency
        pass
    try:
        from jxbot.store.errors import StoreError  # its texts carry ids, amounts and times only

        safe += (StoreError,)
    except ImportError:  # pragma: no cover
        pass
    return isinstance(exc, safe)


def describe(exc: BaseException) -> str:
    """``Class: message`` when the message is safe to log, else ``Class`` and a note."""
    name = type(exc).__qualname__
    return f"{name}: {exc}" if _speaks_safely(exc) else f"{name} {WITHHELD}"


def format_exception(value: BaseException) -> str:
    """``value``'s traceback with its frames, the text of every exception in its chain that could carry
    hidden tiles withheld (as :class:`SafeFormatter` logs it). For tracebacks formatted away from the
    logger (a drawing worker's, handed back to the bot)."""
    te = traceback.TracebackException.from_exception(value)
    seen: set[int] = set()
    stack: list[tuple[traceback.TracebackException, BaseException | None]] = [(te, value)]
    while stack:
        node, exc = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if exc is not None and not _speaks_safely(exc):
            node._str = WITHHELD  # type: ignore[attr-defined]
        for child, cexc in ((node.__cause__, getattr(exc, "__cause__", None)),
                            (node.__context__, getattr(exc, "__context__", None))):
            if child is not None:
                stack.append((child, cexc))
    return "".join(te.format()).rstrip("\n")


class SafeFormatter(logging.Formatter):
    """Tracebacks with the frames but without the text of exceptions that could carry hidden tiles."""

    def formatException(self, ei: Any) -> str:  # noqa: N802 (logging's name)
        _etype, value, _tb = ei
        if value is None:
            return super().formatException(ei)
        return format_exception(value)


class SafeArgs(logging.Filter):
    """An exception passed as a log argument (``log.error("… %r", exc)``) is logged as :func:`describe`."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and any(isinstance(a, BaseException) for a in args):
            record.args = tuple(describe(a) if isinstance(a, BaseException) else a for a in args)
        return True


def configure(settings: Any, *, handler: logging.Handler | None = None) -> None:
    """Set up the root logger at ``settings.log_level`` (with ``handler``, or stderr) and cap the payload
    loggers at INFO unless ``settings.unsafe_discord_debug``."""
    level = logging.getLevelName(settings.log_level)
    root = logging.getLogger()
    if handler is not None:
        root.addHandler(handler)
    elif not root.handlers:
        logging.basicConfig(format=FORMAT)
    for h in root.handlers:
        h.setFormatter(SafeFormatter(FORMAT))
        h.addFilter(SafeArgs())
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
