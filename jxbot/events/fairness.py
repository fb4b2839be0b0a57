"""The event's walls: drawn once, committed to once.

An event draws one secret when it is created (256 bits from ``secrets``). Round ``r``'s tables are dealt from the
match secret ``sha256("jxbot-event-table" 0x00 "<event secret>/round/<r>")`` (hex): in the duplicate format every
table of the round gets that same secret, so hand ``n`` of each table is dealt the same wall (jxbot.game: a hand's
seed is the match secret plus ``/hand/<n>``), with its own hand ids. In the Swiss format each table's name ends
``/table/<k>``. (Hashed, so a table's stored state never holds the event's secret.)

The commitment ``sha256("jxbot-event" 0x00 <event secret>)`` is published with the event before the first deal;
the secret is revealed when the event ends. :func:`verify_event` then checks the commitment and re-derives every
wall of the event from the secret against each hand's own revealed wall (which its own commitment binds):
``/mahjong verify`` with the event's id does it in Discord.
"""

from __future__ import annotations

import hashlib
import secrets as _secrets
from collections.abc import Iterable

from jxbot.game import Match
from jxbot.game.rng import shuffled_wall


def new_secret() -> str:
    return _secrets.token_hex(32)


def commitment(secret: str) -> str:
    return hashlib.sha256(b"jxbot-event\x00" + secret.encode()).hexdigest()


def table_secret(secret: str, round_no: int, table_no: int, fmt: str) -> str:
    """A table's match secret: hashed from the event's, so a table's stored state never holds the event's own."""
    name = f"{secret}/round/{round_no}" if fmt == "duplicate" else f"{secret}/round/{round_no}/table/{table_no}"
    return hashlib.sha256(b"jxbot-event-table\x00" + name.encode()).hexdigest()


def wall_of(secret: str, round_no: int, table_no: int, fmt: str, hand_number: int) -> list[int]:
    """The wall hand ``hand_number`` (1-based) of that table is dealt from."""
    m = Match(table_secret(secret, round_no, table_no, fmt))
    wall, _dice, _salt = shuffled_wall(m.hand_seed(hand_number))
    return wall


def verify_event(secret: str, published: str, fmt: str,
                 hands: Iterable[tuple[int, int, int, list[int] | None]]) -> tuple[bool, list[str]]:
    """Check the revealed ``secret`` against the ``published`` commitment and every hand
    ``(round, table_no, hand_number, revealed wall)`` against the wall the secret gives it. (ok, problems)."""
    problems = []
    if commitment(secret) != published:
        problems.append("commitment")
    for r, k, n, wall in hands:
        if wall is None or list(wall) != wall_of(secret, r, k, fmt, n):
            problems.append(f"round {r} table {k + 1} hand {n}")
    return not problems, problems
