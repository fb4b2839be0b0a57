"""The rating model: openskill's Plackett–Luce, four-player free-for-all, from a match's final placement.

A rating is (μ, σ): the estimated strength and its uncertainty, on openskill's default scale (a newcomer is
μ = 25, σ = 25/3). The **displayed rating** is the conservative value μ − 3σ (the strength the player is
about 99.7 % sure to have), scaled: ``R = round(SCALE × (μ − 3σ))``, never below 0. A newcomer shows 0 and
climbs as σ shrinks; a settled average player shows about 2000 (docs/ranked.md, "Scale").

Placement is by match silver (the sum of the player's hand deltas over the match); equal silver shares a
place (Plackett–Luce ties); an escaper is last (after everyone who did not escape; several escapers share
last place). ``tau`` (the dynamics factor) keeps σ from shrinking to nothing, so a player who improves can
still climb.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU0 = 25.0
SIGMA0 = MU0 / 3
SCALE = 100.0  # displayed rating points per unit of μ − 3σ
TAU = MU0 / 300  # openskill's default dynamics factor (σ grows by this before every match)
_MODEL = PlackettLuce(mu=MU0, sigma=SIGMA0, tau=TAU, limit_sigma=True)


@dataclass(frozen=True)
class Rating:
    mu: float = MU0
    sigma: float = SIGMA0

    @property
    def conservative(self) -> float:
        """μ − 3σ, in model units."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The displayed rating (``display(μ, σ)``)."""
        return display(self.mu, self.sigma)

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}


def display(mu: float, sigma: float) -> int:
    """The displayed rating: SCALE × (μ − 3σ), rounded, never below 0."""
    return max(0, round(SCALE * (mu - 3 * sigma)))


def score(mu: float, sigma: float) -> float:
    """The unrounded value leaderboards sort by (the displayed rating before rounding and the floor)."""
    return SCALE * (mu - 3 * sigma)


BUCKET = 10  # displayed-rating points per bucket of the board (the store counts each bucket's players)


def bucket(mu: float, sigma: float) -> int:
    """The board bucket of a rating: floor(score / BUCKET) (a deep page or a position skips whole buckets)."""
    return math.floor(score(mu, sigma) / BUCKET)


def placements(totals: Sequence[int | float], escaped: Sequence[bool] | None = None) -> list[int]:
    """Places 1–4 (1 = best) from match silver; equal silver shares the better place; escapers come last.

    >>> placements([30, -10, 30, -50])
    [1, 3, 1, 4]
    >>> placements([30, -10, 0, -20], escaped=[True, False, False, False])
    [4, 2, 1, 3]
    """
    n = len(totals)
    esc = list(escaped) if escaped is not None else [False] * n
    key = [(1 if esc[i] else 0, -float(totals[i])) for i in range(n)]
    return [1 + sum(1 for j in range(n) if key[j] < key[i]) for i in range(n)]


def rate(ratings: Sequence[Rating], places: Sequence[int], *, frozen: Sequence[bool] | None = None) -> list[Rating]:
    """The ratings after a match where ``ratings[i]`` finished at ``places[i]`` (1 = first; ties share).

    A ``frozen`` entrant (a computer at its published rating) takes part in the update of the others but keeps
    its own rating."""
    if len(ratings) != len(places) or len(ratings) < 2:
        raise ValueError("a match needs two or more entrants, one place each")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    out = _MODEL.rate(teams, ranks=[float(p) for p in places])
    new = [Rating(float(t[0].mu), float(t[0].sigma)) for t in out]
    if frozen is not None:
        new = [ratings[i] if frozen[i] else new[i] for i in range(len(new))]
    for r in new:
        if not (math.isfinite(r.mu) and math.isfinite(r.sigma) and r.sigma > 0):
            raise ArithmeticError("the rating model returned a value out of range")
    return new


def soft_reset(r: Rating) -> Rating:
    """A player's rating at the start of a new season (docs/ranked.md, "Seasons"): μ moves halfway back to the
    newcomer's 25 and σ grows by a third of a newcomer's (never above it), so last season's order shows at once
    but a few matches can change it."""
    return Rating(MU0 + (r.mu - MU0) / 2, min(SIGMA0, math.hypot(r.sigma, SIGMA0 / 3)))
