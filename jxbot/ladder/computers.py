"""The computer levels' published ratings: a computer in a ranked seat plays at a fixed rating (it takes part in
the others' update and is never updated itself). Measured by ``jxbot ladder simulate`` (docs/ranked.md,
"Computer levels"): μ is the mean μ of the level's 8 players after 1,200 matches among 8 easy, 8 normal and 8 hard
players; σ is the σ a player settles at there (about 2.15), so the displayed rating reads like a person's."""

from __future__ import annotations

from jxbot.ladder.model import Rating

SETTLED_SIGMA = 2.15
COMPUTER_RATINGS: dict[str, Rating] = {  # displayed: easy 612, normal 2,290, hard 2,602
    "easy": Rating(12.57, SETTLED_SIGMA),
    "normal": Rating(29.35, SETTLED_SIGMA),
    "hard": Rating(32.47, SETTLED_SIGMA),
}


def computer_rating(level: str | None) -> Rating:
    """The fixed rating a computer of ``level`` plays at (an unknown level: the normal computer's)."""
    return COMPUTER_RATINGS.get(level or "normal", COMPUTER_RATINGS["normal"])
