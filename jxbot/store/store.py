"""The async store: players, guild settings, wallets & ledger, hands & events, tables, leaderboards.

One writer connection serialises write transactions (an ``asyncio.Lock`` plus ``BEGIN IMMEDIATE``,
so other processes on the same file are excluded too); a second, read-only connection serves
queries from WAL snapshots so leaderboards never wait for a settlement.

Money rules (see docs/store.md): every silver change is a ledger row written in the same
transaction as the wallet update; the rows of one operation (a ``txn``) sum to zero against the
house account of the scope; a player's balance is never negative nor above 2^63−1.
"""

from __future__ import annotations

from jxbot.store.base import (  # noqa: F401 - re-exported (callers import them from here)
    DAY,
    LEADERBOARD_KINDS,
    PERIODS,
    SETTLEMENT_REASONS,
    Scope,
    StoreBase,
)
from jxbot.store.boards import BoardsPart
from jxbot.store.checks import CheckPart
from jxbot.store.coach import CoachPart
from jxbot.store.events import EventsPart
from jxbot.store.hands import HandsPart
from jxbot.store.tables import TablesPart


class Store(HandsPart, TablesPart, BoardsPart, CheckPart, EventsPart, CoachPart):
    """Use ``store = await Store.open(path)``; ``await store.close()`` (or ``async with``).

    The parts, each a module of this package: base (open, migrate, transactions, the backend),
    players (players & guild settings), wallets (wallets, ledger, holds), hands (hands, events,
    settlement), tables (running tables), events (arranged tables, events), boards (leaderboards & stats), coach (the
    reviews' cache), checks (``check``, ``totals``).
    """
