"""Self-play between computer players: a fast synchronous loop (no asyncio, no timers).

``simulate(hands, players, seed)`` plays matches of four computer players (levels such as
``["normal", "easy", "easy", "easy"]``; seat i is always ``players[i]``) until ``hands`` hands are
done, and returns a plain, picklable dict of figures, checking invariants as it goes:

* every hand holds 136 tiles (4 of each kind) at every sampled step and at the end;
* every settlement is zero-sum (seat deltas + house delta == 0);
* replaying a hand's events rebuilds an identical hand (checked on a sample of hands);
* every action a player returns is one of the legal actions its view listed.

``merge_results`` combines the dicts of several ``simulate`` runs (``jxbot simulate --jobs``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..game import Hand, Match
from ..game.actions import ActionType
from .players import ComputerPlayer, make_player

MAX_STEPS = 5000  # a hand takes ~100–200 decisions; more means the game or a player loops


class InvariantError(AssertionError):
    """A self-play invariant failed (raised only when ``strict`` is asked for)."""


def play_hand(hand: Hand, players: Sequence[ComputerPlayer], *, on_step: Callable[[Hand], None] | None = None,
              stats: dict[str, Any] | None = None) -> Hand:
    """Play ``hand`` to its end: ask each pending seat (lowest first) for an action and apply it.

    ``players[i]`` answers for seat i. Raises ``InvariantError`` if a player returns an action its
    view did not list (the game would refuse it anyway) or the hand does not end.
    """
    steps = 0
    discards = 0
    while hand.phase != "ended":
        pending = hand.pending()
        if not pending:
            raise InvariantError(f"hand {hand.hand_id} waits for nobody in phase {hand.phase}")
        seat = min(pending)
        view = hand.view(seat)
        action = players[seat].choose(view)
        if action.to_json() not in view["actions"]:
            raise InvariantError(f"{players[seat].level} player at seat {seat} chose {action}, not a legal action")
        hand.apply(action)
        if action.type is ActionType.DISCARD:
            discards += 1
        steps += 1
        if on_step is not None:
            on_step(hand)
        if steps > MAX_STEPS:
            raise InvariantError(f"hand {hand.hand_id} did not end after {MAX_STEPS} decisions")
    if stats is not None:
        stats["decisions"] = stats.get("decisions", 0) + steps
        stats["discards"] = stats.get("discards", 0) + discards
    return hand


def play_match(match: Match, players: Sequence[ComputerPlayer], *, max_hands: int | None = None,
               on_hand: Callable[[Hand, Any], None] | None = None) -> Match:
    """Play the hands of ``match`` (at most ``max_hands``), settling each with house-backed seats."""
    played = 0
    while not match.over and (max_hands is None or played < max_hands):
        hand = play_hand(match.next_hand(), players)
        settlement = hand.settle([None] * 4, fee=match.fee)
        if on_hand is not None:
            on_hand(hand, settlement)
        match.finish_hand(hand)
        played += 1
    return match


def _empty_result(players: Sequence[str]) -> dict[str, Any]:
    return {
        "players": list(players), "hands": 0, "wins": 0, "draws": 0, "wins_by_seat": [0, 0, 0, 0],
        "points_by_seat": [0, 0, 0, 0], "self_draws": 0, "robbed_kongs": 0, "contracts": 0,
        "pattern_counts": {}, "total_discards": 0, "total_decisions": 0, "seconds": 0.0,
        "invariant_violations": 0, "violations": [],
    }


def _finish(res: dict[str, Any]) -> dict[str, Any]:
    n = res["hands"] or 1
    res["avg_turns"] = res["total_discards"] / n
    res["win_share_by_seat"] = [w / n for w in res["wins_by_seat"]]
    res["avg_points_by_seat"] = [p / n for p in res["points_by_seat"]]
    res["win_rate"] = res["wins"] / n
    res["draw_rate"] = res["draws"] / n
    res["self_draw_rate"] = res["self_draws"] / n
    res["hands_per_second"] = res["hands"] / res["seconds"] if res["seconds"] > 0 else 0.0
    return res


def simulate(hands: int, players: Sequence[str], seed: int | str, ruleset: str = "jiaxing", *,
             replay_every: int = 50, census_every: int = 25, strict: bool = False) -> dict[str, Any]:
    """Play ``hands`` hands between computer players of the given levels; return plain figures.

    Matches are one 东 round (the ruleset's default) and are chained until ``hands`` hands are done;
    the last one is cut short. Seats are house-backed (no balance cap, no fee), so ``points_by_seat``
    is the raw score won or lost. ``replay_every``: replay every n-th hand from its events and compare;
    ``census_every``: count the 136 tiles every n-th decision (and always at the end of a hand).
    With ``strict`` the first violation raises ``InvariantError`` instead of being counted.
    """
    if len(players) != 4:
        raise ValueError("four players, one per seat")
    for lv in players:
        make_player(lv, 0)  # validates the level names
    res = _empty_result(players)
    stats: dict[str, Any] = {}
    step = [0]

    def violation(msg: str) -> None:
        if strict:
            raise InvariantError(msg)
        res["invariant_violations"] += 1
        if len(res["violations"]) < 20:
            res["violations"].append(msg)

    def census(hand: Hand) -> None:
        step[0] += 1
        if census_every and step[0] % census_every == 0 and hand.tile_census() != [4] * 34:
            violation(f"hand {hand.hand_id}: tiles not conserved mid-hand")

    t0 = time.perf_counter()
    m = 0
    while res["hands"] < hands:
        match = Match(f"{seed}/match/{m}", ruleset=ruleset)
        seats = [make_player(lv, f"{seed}/match/{m}/seat/{i}") for i, lv in enumerate(players)]
        m += 1
        while not match.over and res["hands"] < hands:
            hand = match.next_hand()
            try:
                play_hand(hand, seats, on_step=census, stats=stats)
            except InvariantError as exc:
                violation(str(exc))
                break
            s = hand.settle([None] * 4, fee=0)
            res["hands"] += 1
            if sum(s.deltas) + s.house_delta != 0:
                violation(f"hand {hand.hand_id}: settlement not zero-sum")
            if hand.tile_census() != [4] * 34:
                violation(f"hand {hand.hand_id}: tiles not conserved at the end")
            if replay_every and res["hands"] % replay_every == 0:
                again = Hand.replay(hand.events)
                if again.public_view() != hand.public_view() or again.result_view() != hand.result_view():
                    violation(f"hand {hand.hand_id}: replay differs from the live hand")
            r = hand.result
            assert r is not None
            for i in range(4):
                res["points_by_seat"][i] += s.deltas[i]
            if r.contract:
                res["contracts"] += 1
            if r.winner is None:
                res["draws"] += 1
            else:
                res["wins"] += 1
                res["wins_by_seat"][r.winner] += 1
                res["self_draws"] += bool(r.self_draw)
                res["robbed_kongs"] += r.robbed_from is not None
                if r.score is not None:
                    for p in r.score.patterns:
                        res["pattern_counts"][p] = res["pattern_counts"].get(p, 0) + 1
            match.finish_hand(hand)
    res["seconds"] = time.perf_counter() - t0
    res["total_discards"] = stats.get("discards", 0)
    res["total_decisions"] = stats.get("decisions", 0)
    return _finish(res)


def merge_results(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Combine ``simulate`` results of parallel jobs (same players). ``seconds`` is the longest job's
    wall time, so ``hands_per_second`` is the combined throughput."""
    if not parts:
        raise ValueError("nothing to merge")
    res = _empty_result(parts[0]["players"])
    for p in parts:
        for k in ("hands", "wins", "draws", "self_draws", "robbed_kongs", "contracts", "total_discards",
                  "total_decisions", "invariant_violations"):
            res[k] += p[k]
        for i in range(4):
            res["wins_by_seat"][i] += p["wins_by_seat"][i]
            res["points_by_seat"][i] += p["points_by_seat"][i]
        for name, c in p["pattern_counts"].items():
            res["pattern_counts"][name] = res["pattern_counts"].get(name, 0) + c
        res["violations"].extend(p["violations"][: max(0, 20 - len(res["violations"]))])
        res["seconds"] = max(res["seconds"], p["seconds"])
    return _finish(res)
