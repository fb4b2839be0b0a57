"""One round's tables, from the players and the tables played so far: the ranking the pairing starts from, the
computers that fill the field, the tables and their seats (jxbot/events/pairing.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jxbot.events.fairness import table_secret
from jxbot.events.model import Player, TableRecord
from jxbot.events.pairing import met_pairs, pair_bands, pair_round, seat_order
from jxbot.events.scoring import standings
from jxbot.game.rng import HashDrbg


@dataclass
class TablePlan:
    round: int
    table_no: int
    players: list[int]  # by seat
    secret: str  # the match secret of the table (its walls)


def fillers(n_people: int, level: str) -> list[Player]:
    """Computers making the field a multiple of four (negative pids)."""
    k = (-n_people) % 4
    return [Player(-(i + 1), f"#{i + 1}", order=10**6 + i, level=level) for i in range(k)]


def ranking(players: Sequence[Player], tables: Sequence[TableRecord], fmt: str, secret: str) -> list[int]:
    """The players best first: round 1 in registration order shuffled by the event's secret, later by the
    standings (computers included, so the fillers are ranked too)."""
    if not tables:
        order = sorted(players, key=lambda p: (p.order, p.pid))
        people = [p.pid for p in order if not p.is_computer]
        HashDrbg(secret, "jxbot-event-seeding").shuffle(people)
        return people + [p.pid for p in order if p.is_computer]
    return [s.pid for s in standings(players, tables, fmt, with_computers=True)]


def plan_round(players: Sequence[Player], tables: Sequence[TableRecord], round_no: int, fmt: str,
               secret: str) -> list[TablePlan]:
    ranked = ranking(players, tables, fmt, secret)
    met = met_pairs([t.players for t in tables])
    out = []
    groups = pair_bands(ranked, round_no) if fmt == "duplicate" else pair_round(ranked, met)
    for k, group in enumerate(groups):
        out.append(TablePlan(round_no, k, seat_order(group, round_no), table_secret(secret, round_no, k, fmt)))
    return out
