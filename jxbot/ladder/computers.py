"""The computer levels' published ratings: a computer in a ranked seat plays at a fixed rating (it takes part in
the others' update and is never updated itself). Measured by ``jxbot ladder simulate`` (docs/ranked.md,
"Computer levels"): the mean μ and the spread of 8 players of each level after 600 matches of 24 players."""

from __future__ import annotations

from jxbot.ladder.model import Rating

# level -> (μ, σ); σ is the spread between players of the level measured by the simulation, not a newcomer's
COMPUTER_RATINGS: dict[str, Rating] = {
    "easy": Rating(21.0, 1.0),
    "normal": Rating(25.5, 1.0),
    "hard": Rating(26.0, 1.0),
}


def computer_rating(level: str | None) -> Rating:
    """The fixed rating a computer of ``level`` plays at (an unknown level: the normal computer's)."""
    return COMPUTER_RATINGS.get(level or "normal", COMPUTER_RATINGS["normal"])
