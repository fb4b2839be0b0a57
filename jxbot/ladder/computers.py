"""The computer levels' published ratings: a computer in a ranked seat plays at a fixed rating (it takes part in
the others' update and is never updated itself). Measured by ``jxbot ladder simulate`` (docs/ranked.md,
"Computer levels"): μ is the mean μ of the level's players after 600 matches among easy, normal and hard players
in equal numbers; σ is the σ a player settles at (about 2.4), so the displayed rating reads like a person's."""

from __future__ import annotations

from jxbot.ladder.model import Rating

SETTLED_SIGMA = 2.4
COMPUTER_RATINGS: dict[str, Rating] = {  # displayed: easy 290, normal 2,460, hard 2,550
    "easy": Rating(10.1, SETTLED_SIGMA),
    "normal": Rating(31.8, SETTLED_SIGMA),
    "hard": Rating(32.7, SETTLED_SIGMA),
}


def computer_rating(level: str | None) -> Rating:
    """The fixed rating a computer of ``level`` plays at (an unknown level: the normal computer's)."""
    return COMPUTER_RATINGS.get(level or "normal", COMPUTER_RATINGS["normal"])
