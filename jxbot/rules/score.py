"""``score_win``: the public scoring entry point. It checks the win's context (the same for every
ruleset) and asks the table's ruleset to score (``RulesetPlugin.score_win``: jiaxing's 台 × 2^番 in
``jxbot/rulesets/jiaxing/scoring.py``, caishen's multipliers in ``jxbot/rulesets/caishen/rules.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from jxbot.rulesets import behaviour  # the registry

from .context import check_context
from .contract import Score
from .melds import Meld
from .ruleset import Ruleset, get_ruleset


def score_win(concealed: Sequence[int], win_tile: int, melds: Sequence[Meld] = (), *,
              wildcard: int | None = None, self_draw: bool = False, kong_draw: bool = False,
              last_tile: bool = False, robbing_kong: bool = False, seat_wind: int = 0, round_wind: int = 0,
              first_turn: bool = False, cumulative: int | Sequence[str] = (), stake: int = 1,
              ruleset: str | Ruleset = "jiaxing", float_run: int = 0) -> Score:
    """Score a win. ``concealed`` excludes ``win_tile``. Raises ``ValueError`` for an impossible
    hand (a fifth copy, a wrong tile count, a wildcard in a meld, an unknown cumulative code).

    Not winning → ``Score(winning=False, reason="no_shape" | "no_pattern")``.
    """
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    check_context(melds, self_draw=self_draw, kong_draw=kong_draw, robbing_kong=robbing_kong,
                  last_tile=last_tile, first_turn=first_turn, seat_wind=seat_wind)
    # the ruleset's own scoring (jiaxing: standard_score_win; caishen: multipliers, ``float_run``)
    return behaviour(rs).score_win(concealed, win_tile, melds, rs=rs, wildcard=wildcard, self_draw=self_draw,
                                   kong_draw=kong_draw, last_tile=last_tile, robbing_kong=robbing_kong,
                                   seat_wind=seat_wind, round_wind=round_wind, first_turn=first_turn,
                                   cumulative=cumulative, stake=stake, float_run=float_run)
