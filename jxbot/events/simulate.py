"""``jxbot tournament simulate``: whole events of computer players through the real pairing, scoring and standings
code (the hands played by jxbot.ai's self-play loop: no clocks, no store).

A mixed field (alternately hard and easy computers) plays the same event in both formats on the same secret;
the figure is how often a hard computer finishes above an easy one (over every (hard, easy) pair of the final
standings). The duplicate format removes the luck of the deal, so it should say so far more often."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jxbot.events.model import Player, TableRecord, placements
from jxbot.events.rounds import fillers, plan_round
from jxbot.events.scoring import standings


def play_event(players: Sequence[Player], level: dict[int, str], fmt: str, rounds: int, secret: str, *,
               hands: int = 4, ruleset: str = "jiaxing") -> tuple[list[TableRecord], list[Any]]:
    """One event: ``players`` are entrants (as people are: round 1 shuffles them), ``level`` the computer level
    that plays each of them."""
    from jxbot.ai.players import make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Match

    tables: list[TableRecord] = []
    for r in range(1, rounds + 1):
        for plan in plan_round(players, tables, r, fmt, secret):
            match = Match(plan.secret, ruleset=ruleset, max_hands=hands, rounds=99, match_id=f"r{r}t{plan.table_no}",
                          duplicate=fmt == "duplicate")
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
    return tables, standings(players, tables, fmt)


def hard_above_easy(ranked: Sequence[Any], level: dict[int, str], strong: str = "hard", weak: str = "easy") -> float:
    """The share of (stronger, weaker) pairs in which the stronger computer finishes above the weaker one (ties:
    half). The key keeps its name (``hard_above_easy``) whatever the levels."""
    pos = {s.pid: s.rank for s in ranked}
    hard = [p for p, lv in level.items() if lv == strong]
    easy = [p for p, lv in level.items() if lv == weak]
    n = 0.0
    for h in hard:
        for e in easy:
            n += 1.0 if pos[h] < pos[e] else 0.5 if pos[h] == pos[e] else 0.0
    return n / (len(hard) * len(easy)) if hard and easy else 0.0


def simulate(players: int, rounds: int, seed: str, *, formats: Sequence[str] = ("swiss", "duplicate"),
             events: int = 1, hands: int = 4, levels: tuple[str, str] = ("hard", "easy")) -> dict[str, Any]:
    """Figures for ``events`` events of a mixed field of ``players`` computers, each format on the same secrets:
    ``levels`` (stronger, weaker) registered alternately."""
    strong, weak = levels
    # entrants, not fillers (a filler computer is ranked last and not shuffled in round 1): the field stands for
    # people of two strengths, registered alternately
    level = {i + 1: strong if i % 2 == 0 else weak for i in range(players)}
    field = [Player(pid, f"{lv}-{pid}", order=pid - 1) for pid, lv in level.items()]
    field += fillers(players, "normal")  # a field that is not a multiple of four, filled as an event fills it
    entrants = dict(level)  # the figure is over the entrants only
    level.update({p.pid: "normal" for p in field if p.is_computer})
    out: dict[str, Any] = {"players": players, "rounds": rounds, "hands_per_table": hands, "events": events,
                           "seed": seed, "field": f"alternately {strong} and {weak} computers", "levels": [strong, weak]}
    for fmt in formats:
        shares = []
        last: list[Any] = []
        zero_sum = True
        for e in range(events):
            tables, ranked = play_event(field, level, fmt, rounds, f"{seed}/event/{e}", hands=hands)
            shares.append(hard_above_easy(ranked, entrants, strong, weak))
            last = ranked
            if fmt == "duplicate":
                from jxbot.events.scoring import duplicate_scores

                for scores in _walls(duplicate_scores(tables)):
                    zero_sum = zero_sum and sum(scores) == 0
        out[fmt] = {
            "hard_above_easy": round(sum(shares) / len(shares), 4),
            "interval95": [max(0.0, x) if i == 0 else min(1.0, x) for i, x in enumerate(_interval(shares))],
            "per_event": [round(x, 4) for x in shares],
            "standings": [s.to_json() for s in last],
            **({"walls_zero_sum": zero_sum} if fmt == "duplicate" else {}),
        }
    if "swiss" in out and "duplicate" in out:
        # the same events (secrets, round-1 draw, walls) in both formats: the difference event by event
        diff = [d - s for d, s in zip(out["duplicate"]["per_event"], out["swiss"]["per_event"], strict=True)]
        out["duplicate_minus_swiss"] = {"mean": round(sum(diff) / len(diff), 4), "interval95": _interval(diff)}
    return out


def _interval(xs: Sequence[float]) -> list[float]:
    """A 95 % interval for the mean of ``xs`` (normal approximation; one value: the value itself)."""
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return [round(m, 4), round(m, 4)]
    sd = (sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) ** 0.5
    h = 1.96 * sd / len(xs) ** 0.5
    return [round(m - h, 4), round(m + h, 4)]


def _walls(dup: dict) -> list[list]:
    """Every wall's scores (all tables, all seats) from duplicate_scores' per-table lists."""
    walls: dict[tuple[int, int], list] = {}
    for (r, _k), hands in dup.items():
        for n, seats in enumerate(hands):
            walls.setdefault((r, n), []).extend(seats)
    return list(walls.values())
