"""A ranked match's rating update, in the transaction of the match's last settlement (docs/ranked.md,
"The transaction").

The table's sink settles each hand with ``store.settle_hand``; on the match's last hand (the result view says
``match_over``) a ranked table's sink calls :func:`settle_ranked_hand` instead, which passes
:func:`rate_match` as the settlement's ``then``: the store runs it inside the settlement's own transaction, after
the hand is recorded. So the last hand's silver and the rating change commit together or not at all, and a
repeated settlement (a retry, a resumed table) returns before ``then`` runs. The match's row in
``ladder_matches`` (keyed by the match id) makes the update once per match even if two different hands claimed
to be the last. A void last hand, or :meth:`jxbot.ladder.records.Ladder.void_match`, records the match as void:
no rating changes, then or later.

The placement comes from the store, not from the caller: each entrant's match silver is the sum of the actual
deltas (after any cap) of the seats they held in the match's settled hands (the hands' seats say who sat where,
so a 版's reseat is followed), an entrant who escaped in any hand is last, and the computers who sat from the
first hand take part at their published ratings (``computers.py``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jxbot.ladder.computers import computer_rating
from jxbot.ladder.model import Rating, bucket, display, placements, rate, score, soft_reset
from jxbot.store import SettleResult, Store, Tx


@dataclass(frozen=True)
class RankedMatch:
    """What the ladder needs to know of a ranked table (given when the table opens, kept in its config)."""

    match_id: str  # the ranked table's id: one ranked table is one match
    ladder: str  # ladder_key(guild_id, scope): the server's id as text, or "global"
    ruleset: str
    guild_id: int


@dataclass(frozen=True)
class RatingChange:
    user_id: int | None  # None: a computer (rated at its fixed rating, never changed)
    level: str | None  # the computer's level
    place: int  # 1–4; ties share
    total: int  # match silver
    escaped: bool
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change of the displayed rating."""
        return self.after.display - self.before.display


@dataclass(frozen=True)
class MatchOutcome:
    match_id: str
    status: str  # "rated" | "void"
    season: int
    changes: tuple[RatingChange, ...] = field(default=())
    repeated: bool = False  # the match had been rated (or voided) before this call: nothing changed now

    def change_of(self, user_id: int) -> RatingChange | None:
        return next((c for c in self.changes if c.user_id == user_id), None)


def ladder_key(guild_id: int, scope: str) -> str:
    """The ladder of a server: its own (the id as text), or "global" when the store's silver is global."""
    return "global" if scope == "global" else str(int(guild_id))


def group_key(user_ids: Sequence[int]) -> str:
    """The key of a group of people (the integrity rule counts rated matches per group)."""
    return ",".join(str(u) for u in sorted(set(user_ids)))


async def settle_ranked_hand(store: Store, match: RankedMatch, hand_id: str, guild_id: int,
                             seats: Sequence[int | None], settlement: Any, result_view: dict,
                             now: float | None = None) -> tuple[SettleResult, MatchOutcome | None]:
    """Settle a hand of a ranked match; on its last hand (``result_view["match_over"]``) rate the match in the
    same transaction. Returns the settlement and the outcome (None before the last hand; on a repeated last
    settlement the outcome stored the first time, ``repeated=True``)."""
    if not result_view.get("match_over") and not result_view.get("void"):
        return await store.settle_hand(hand_id, guild_id, seats, settlement, result_view, now), None
    box: list[MatchOutcome] = []

    async def then(tx: Tx, res: SettleResult) -> None:
        box.clear()  # (a PostgreSQL retry runs it again from the start)
        box.append(await rate_match(tx, match, res.settled_at, void=bool(result_view.get("void"))))

    res = await store.settle_hand(hand_id, guild_id, seats, settlement, result_view, now, then=then)
    if box:
        return res, box[0]
    return res, await store.in_snapshot(lambda tx: outcome_in(tx, match.match_id, repeated=True))


async def outcome_in(tx: Tx, match_id: str, *, repeated: bool = False) -> MatchOutcome | None:
    """The stored outcome of a ranked match (None: not rated nor voided yet)."""
    row = await tx.one("SELECT status, season, entrants FROM ladder_matches WHERE match_id = ?", (match_id,))
    if row is None:
        return None
    changes = tuple(RatingChange(e["user_id"], e["level"], e["place"], e["total"], e["escaped"],
                                 Rating(**e["before"]), Rating(**e["after"])) for e in json.loads(row[2]))
    return MatchOutcome(match_id, row[0], int(row[1]), changes, repeated=repeated)


async def _season(tx: Tx, ladder: str, at: float) -> int:
    from jxbot.ladder.schedule import roll_due_tx

    await roll_due_tx(tx, ladder, at)  # a scheduled boundary passed: this match counts in the new season
    row = await tx.one("SELECT season, ended_at FROM ladder_seasons WHERE ladder = ? ORDER BY season DESC LIMIT 1"
                       + tx.lock, (ladder,))
    if row is not None and row[1] is None:
        return int(row[0])
    season = 1 if row is None else int(row[0]) + 1  # none open: the next one opens with this match
    await tx.execute("INSERT INTO ladder_seasons(ladder, season, started_at) VALUES (?, ?, ?)", (ladder, season, at))
    return season


async def current_rating(tx: Tx, ladder: str, ruleset: str, season: int, user_id: int) -> tuple[Rating, bool]:
    """A player's rating for the season: their row, else the soft reset of their latest earlier season, else a
    newcomer's; and whether they have a row this season."""
    row = await tx.one("SELECT mu, sigma FROM ladder_ratings WHERE ladder = ? AND ruleset = ? AND season = ? "
                       "AND user_id = ?" + tx.lock, (ladder, ruleset, season, user_id))
    if row is not None:
        return Rating(float(row[0]), float(row[1])), True
    row = await tx.one("SELECT mu, sigma FROM ladder_ratings WHERE ladder = ? AND ruleset = ? AND season < ? "
                       "AND user_id = ? ORDER BY season DESC LIMIT 1", (ladder, ruleset, season, user_id))
    return (soft_reset(Rating(float(row[0]), float(row[1]))) if row is not None else Rating()), False


async def _count(tx: Tx, match: RankedMatch, season: int, bucket_: int, n: int) -> None:
    await tx.execute("INSERT INTO ladder_buckets(ladder, ruleset, season, bucket, players) VALUES (?, ?, ?, ?, ?) "
                     "ON CONFLICT(ladder, ruleset, season, bucket) DO UPDATE SET "
                     "players = ladder_buckets.players + excluded.players", (match.ladder, match.ruleset, season,
                                                                             bucket_, n))


@dataclass
class _Entrant:
    user_id: int | None
    level: str | None
    total: int = 0
    escaped: bool = False
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    best_points: int = 0
    best_hand: str | None = None


def _computer_level(name: object) -> str | None:
    parts = str(name).split(":")
    return parts[1] if len(parts) == 3 and parts[0] == "cpu" else None


async def _entrants(tx: Tx, match_id: str) -> list[_Entrant]:
    rows = await tx.all("SELECT hand_id, seats, result FROM hands WHERE table_id = ? AND status = 'settled' "
                        "ORDER BY created_at, rowid", (match_id,))
    people: dict[int, _Entrant] = {}
    computers: dict[str, _Entrant] = {}
    first = True
    for hand_id, seats_text, result_text in rows:
        seats = json.loads(seats_text)
        stored: dict[str, Any] = json.loads(result_text) if result_text else {}
        inner = stored.get("result")
        view: dict[str, Any] = inner if isinstance(inner, dict) else {}
        if view.get("void"):
            continue
        deltas = stored.get("deltas") or [0, 0, 0, 0]
        payments = {p.get("seat"): p for p in view.get("payments") or [] if isinstance(p, dict)}
        escaped = set(view.get("escaped") or [])
        winner = None if view.get("drawn_game") else view.get("winner")
        sc = view.get("score")
        score_: dict[str, Any] = sc if isinstance(sc, dict) else {}
        for i in range(4):
            uid = seats[i] if i < len(seats) else None
            if uid is None:
                name = str((payments.get(i) or {}).get("name"))
                level = _computer_level(name)
                if first and level is not None:  # the computers who sat from the first hand are entrants
                    computers[name] = _Entrant(None, level)
                e = computers.get(name)
                if e is None:
                    continue  # a computer on a seat whose player left: not an entrant
            else:
                e = people.setdefault(int(uid), _Entrant(int(uid), None))
            e.total += int(deltas[i])
            e.hands += 1
            e.escaped = e.escaped or i in escaped
            if winner == i:
                e.wins += 1
                e.self_draws += int(bool(view.get("self_draw")))
                pts = score_.get("points")
                if isinstance(pts, int) and pts > e.best_points:
                    e.best_points, e.best_hand = pts, hand_id
            elif winner is not None and view.get("discarder") == i:
                e.deal_ins += 1
        first = False
    return list(people.values()) + list(computers.values())


async def rate_match(tx: Tx, match: RankedMatch, at: float, *, void: bool = False) -> MatchOutcome:
    """Rate ``match`` from its settled hands inside ``tx`` (the transaction of its last settlement); once per
    match id: a match already rated or voided is returned as stored (``repeated=True``)."""
    row = await tx.one("SELECT status, season FROM ladder_matches WHERE match_id = ?" + tx.lock, (match.match_id,))
    if row is not None:
        out = await outcome_in(tx, match.match_id, repeated=True)
        assert out is not None
        return out
    season = await _season(tx, match.ladder, at)
    entrants = [] if void else await _entrants(tx, match.match_id)
    humans = [e for e in entrants if e.user_id is not None]
    key = group_key([e.user_id for e in humans if e.user_id is not None])
    if not humans or len(entrants) < 2:
        await tx.execute("INSERT INTO ladder_matches(match_id, ladder, ruleset, season, guild_id, status, group_key, "
                         "entrants, at) VALUES (?, ?, ?, ?, ?, 'void', ?, '[]', ?)",
                         (match.match_id, match.ladder, match.ruleset, season, match.guild_id, key, at))
        return MatchOutcome(match.match_id, "void", season)
    before: list[Rating] = []
    rated: list[bool] = []  # has a row this season (on the board)
    for e in entrants:
        if e.user_id is None:
            before.append(computer_rating(e.level))
            rated.append(False)
        else:
            r, has = await current_rating(tx, match.ladder, match.ruleset, season, e.user_id)
            before.append(r)
            rated.append(has)
    places = placements([e.total for e in entrants], [e.escaped for e in entrants])
    after = rate(before, places, frozen=[e.user_id is None for e in entrants])
    changes = tuple(RatingChange(e.user_id, e.level, places[i], e.total, e.escaped, before[i], after[i])
                    for i, e in enumerate(entrants))
    await tx.execute(
        "INSERT INTO ladder_matches(match_id, ladder, ruleset, season, guild_id, status, group_key, entrants, "
        "last_hand, at) VALUES (?, ?, ?, ?, ?, 'rated', ?, ?, NULL, ?)",
        (match.match_id, match.ladder, match.ruleset, season, match.guild_id, key,
         json.dumps([{"user_id": c.user_id, "level": c.level, "place": c.place, "total": c.total,
                      "escaped": c.escaped, "before": c.before.to_json(), "after": c.after.to_json()}
                     for c in changes], separators=(",", ":")), at))
    for i, e in enumerate(entrants):
        if e.user_id is None:
            continue
        b, a, p = before[i], after[i], places[i]
        old_b, new_b = bucket(b.mu, b.sigma), bucket(a.mu, a.sigma)
        if not rated[i] or old_b != new_b:
            if rated[i]:
                await _count(tx, match, season, old_b, -1)
            await _count(tx, match, season, new_b, 1)
        await tx.execute(
            "INSERT INTO ladder_ratings(ladder, ruleset, season, user_id, mu, sigma, score, bucket, matches, p1, p2, "
            "p3, p4, hands, wins, self_draws, deal_ins, best_points, best_hand, updated_at) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?19, 1, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18) "
            "ON CONFLICT(ladder, ruleset, season, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "score = excluded.score, bucket = excluded.bucket, matches = ladder_ratings.matches + 1, p1 = ladder_ratings.p1 + excluded.p1, "
            "p2 = ladder_ratings.p2 + excluded.p2, p3 = ladder_ratings.p3 + excluded.p3, "
            "p4 = ladder_ratings.p4 + excluded.p4, hands = ladder_ratings.hands + excluded.hands, "
            "wins = ladder_ratings.wins + excluded.wins, self_draws = ladder_ratings.self_draws + excluded.self_draws, "
            "deal_ins = ladder_ratings.deal_ins + excluded.deal_ins, "
            "best_hand = CASE WHEN excluded.best_points > ladder_ratings.best_points THEN excluded.best_hand "
            "ELSE ladder_ratings.best_hand END, "
            "best_points = CASE WHEN excluded.best_points > ladder_ratings.best_points THEN excluded.best_points "
            "ELSE ladder_ratings.best_points END, updated_at = excluded.updated_at",
            (match.ladder, match.ruleset, season, e.user_id, a.mu, a.sigma, score(a.mu, a.sigma),
             int(p == 1), int(p == 2), int(p == 3), int(p == 4), e.hands, e.wins, e.self_draws, e.deal_ins,
             e.best_points, e.best_hand, at, new_b))
        await tx.execute(
            "INSERT INTO ladder_history(match_id, user_id, ladder, ruleset, season, place, total, escaped, mu_before, "
            "sigma_before, mu, sigma, rating_before, rating, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match.match_id, e.user_id, match.ladder, match.ruleset, season, p, e.total, int(e.escaped), b.mu,
             b.sigma, a.mu, a.sigma, display(b.mu, b.sigma), display(a.mu, a.sigma), at))
    return MatchOutcome(match.match_id, "rated", season, changes)
