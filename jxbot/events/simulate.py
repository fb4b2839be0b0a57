"""``jxbot tournament simulate``: whole events of computer players through the real pairing, scoring and standings
code (the hands played by jxbot.ai's self-play loop: no clocks, no store).

A mixed field (alternately hard and easy computers) plays the same event in both formats on the same secret;
the figure is how often a hard computer finishes above an easy one (over every (hard, easy) pair of the final
standings). The duplicate format removes the luck of the deal, so it should say so far more often."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jxbot.events.model import Player, TableRecord, placements
from jxbot.events.rounds import plan_round
from jxbot.events.scoring import standings


def play_event(players: Sequence[Player], fmt: str, rounds: int, secret: str, *, hands: int = 4,
               ruleset: str = "jiaxing") -> tuple[list[TableRecord], list[Any]]:
    from jxbot.ai.players import make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Match

    level = {p.pid: p.level or "normal" for p in players}
    tables: list[TableRecord] = []
    for r in range(1, rounds + 1):
        for plan in plan_round(players, tables, r, fmt, secret):
            match = Match(plan.secret, ruleset=ruleset, max_hands=hands, rounds=99, match_id=f"r{r}t{plan.table_no}")
            # a computer's random choices follow from the walls it plays and its seat: two computers of one level in
            # the same situation choose alike (in the duplicate format, at every table of the round)
            bots = [make_player(level[pid], f"{plan.secret}/seat/{s}") for s, pid in enumerate(plan.players)]
            deltas = []
            while not match.over:
                hand = play_hand(match.next_hand(), bots)
                settlement = hand.settle([None] * 4, fee=0)
                deltas.append(list(settlement.deltas))
                match.finish_hand(hand)
            totals = [sum(d[s] for d in deltas) for s in range(4)]
            tables.append(TableRecord(r, plan.table_no, plan.players, totals, placements(totals), deltas))
    return tables, standings(players, tables, fmt, with_computers=True)


def hard_above_easy(ranked: Sequence[Any], level: dict[int, str]) -> float:
    """The share of (hard, easy) pairs in which the hard computer finishes above the easy one (ties: half)."""
    pos = {s.pid: s.rank for s in ranked}
    hard = [p for p, lv in level.items() if lv == "hard"]
    easy = [p for p, lv in level.items() if lv == "easy"]
    n = 0.0
    for h in hard:
        for e in easy:
            n += 1.0 if pos[h] < pos[e] else 0.5 if pos[h] == pos[e] else 0.0
    return n / (len(hard) * len(easy)) if hard and easy else 0.0


def simulate(players: int, rounds: int, seed: str, *, formats: Sequence[str] = ("swiss", "duplicate"),
             events: int = 1, hands: int = 4) -> dict[str, Any]:
    """Figures for ``events`` events of a mixed field of ``players`` computers, each format on the same secrets."""
    field = [Player(i + 1, f"{'hard' if i % 2 == 0 else 'easy'}-{i + 1}", order=i,
                    level="hard" if i % 2 == 0 else "easy") for i in range(players)]
    level = {p.pid: p.level or "normal" for p in field}
    out: dict[str, Any] = {"players": players, "rounds": rounds, "hands_per_table": hands, "events": events,
                           "seed": seed, "field": "alternately hard and easy computers"}
    for fmt in formats:
        shares = []
        last: list[Any] = []
        zero_sum = True
        for e in range(events):
            tables, ranked = play_event(field, fmt, rounds, f"{seed}/event/{e}", hands=hands)
            shares.append(hard_above_easy(ranked, level))
            last = ranked
            if fmt == "duplicate":
                from jxbot.events.scoring import duplicate_scores

                for scores in _walls(duplicate_scores(tables)):
                    zero_sum = zero_sum and sum(scores) == 0
        out[fmt] = {
            "hard_above_easy": round(sum(shares) / len(shares), 4),
            "per_event": [round(x, 4) for x in shares],
            "standings": [s.to_json() for s in last],
            **({"walls_zero_sum": zero_sum} if fmt == "duplicate" else {}),
        }
    if "swiss" in out and "duplicate" in out and out["swiss"]["hard_above_easy"]:
        out["duplicate_over_swiss"] = round(out["duplicate"]["hard_above_easy"] / out["swiss"]["hard_above_easy"], 3)
    return out


def _walls(dup: dict) -> list[list]:
    """Every wall's scores (all tables, all seats) from duplicate_scores' per-table lists."""
    walls: dict[tuple[int, int], list] = {}
    for (r, _k), hands in dup.items():
        for n, seats in enumerate(hands):
            walls.setdefault((r, n), []).extend(seats)
    return list(walls.values())
