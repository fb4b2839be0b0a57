"""The log configuration of ``jxbot run``: DEBUG for jxbot does not open discord.py's payload logging, and
an exception's text that could name a tile is withheld (class and frames kept), at every level."""

from __future__ import annotations

import io
import logging
import sqlite3

import pytest

from jxbot.config import Settings
from jxbot.logs import PAYLOAD_LOGGERS, WITHHELD, configure


@pytest.fixture
def log_to():
    root = logging.getLogger()
    saved = (root.level, list(root.handlers), {n: logging.getLogger(n).level for n in PAYLOAD_LOGGERS})
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    for h in list(root.handlers):
        root.removeHandler(h)

    def setup(**env: str) -> io.StringIO:
        configure(Settings.from_mapping(env), handler=handler)
        return buf

    yield setup
    root.removeHandler(handler)
    root.setLevel(saved[0])
    for h in saved[1]:
        root.addHandler(h)
    for n, lvl in saved[2].items():
        logging.getLogger(n).setLevel(lvl)


def test_debug_keeps_discord_aiohttp_and_aiosqlite_at_info(log_to):
    buf = log_to(LOG_LEVEL="DEBUG")
    logging.getLogger("jxbot.table").debug("jxbot debug line")
    logging.getLogger("discord.http").debug("PATCH https://discord.com/api/v10/webhooks/1/SECRET-TOKEN/messages")
    logging.getLogger("discord.gateway").debug("WebSocket Event: {'hand': [1, 2, 3]}")
    logging.getLogger("aiosqlite").debug("executing INSERT INTO hand_events ... '{\"type\": \"deal\"}'")
    out = buf.getvalue()
    assert "jxbot debug line" in out
    assert "SECRET-TOKEN" not in out and "WebSocket Event" not in out and "hand_events" not in out
    logging.getLogger("discord.client").info("logging in using static token")
    assert "static token" in buf.getvalue()  # INFO from discord still shows


def test_the_unsafe_setting_lets_discord_debug_through_and_says_so(log_to):
    buf = log_to(LOG_LEVEL="DEBUG", JXBOT_UNSAFE_DISCORD_DEBUG="1")
    logging.getLogger("discord.http").debug("PATCH …/webhooks/1/SECRET-TOKEN")
    out = buf.getvalue()
    assert "SECRET-TOKEN" in out and "JXBOT_UNSAFE_DISCORD_DEBUG=1" in out


def test_exception_texts_that_could_name_a_tile_are_withheld(log_to):
    buf = log_to(LOG_LEVEL="INFO")
    log = logging.getLogger("jxbot.table")
    hand, event, tile = " ".join(["1m", "2m", "3m"]), str({"type": "draw", "tile": 5}), "7" + "p"  # runtime data
    try:
        try:
            raise KeyError(hand)
        except KeyError as inner:
            raise ValueError(event) from inner
    except ValueError:
        log.exception("table t1 stopped")
    log.error("a seat failed to take an update: %r", ValueError(tile))
    try:
        raise sqlite3.OperationalError("database or disk is full")
    except sqlite3.OperationalError:
        log.exception("append failed")
    out = buf.getvalue()
    assert "table t1 stopped" in out and "ValueError" in out and "KeyError" in out
    assert "test_exception_texts_that_could_name_a_tile_are_withheld" in out  # the frames are kept
    assert hand not in out and event not in out and tile not in out
    assert out.count(WITHHELD) >= 3
    assert "OperationalError: database or disk is full" in out  # infrastructure errors keep their text
