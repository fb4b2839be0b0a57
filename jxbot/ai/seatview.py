"""What every computer player reads: a seat view unpacked once per decision, and the action names.

Shared by the levels (``jxbot.ai.players``, ``jxbot.ai.hard``), the claim loop (``jxbot.ai.claims``) and
the rulesets' own players (``RulesetPlugin.decide``); it imports no player.
"""

from __future__ import annotations

from .evaluate import HandShape

# action type strings (ActionType values; kept as plain strings because views are JSON)
DISCARD, TSUMO, ANGANG, BUGANG = "discard", "tsumo", "angang", "bugang"
HU, PENG, GANG, CHI, PASS = "hu", "peng", "gang", "chi", "pass"
PERSIST, GIVE_UP = "persist", "give_up"

CONTRACT_CLAIMS = 3  # RULES A8: the third claim on the same seat binds the two seats


class Table:
    """What a seat view says, unpacked once per decision."""

    __slots__ = ("me", "hand", "drawn", "wild", "melds", "counts", "_unseen", "actions", "by_type", "view")

    def __init__(self, view: dict) -> None:
        self.view = view
        me = view["viewer"]
        self.me = me
        self.wild = view.get("wildcard")
        self.drawn = view.get("drawn")
        hand = list(view.get("hand") or ())
        if self.drawn is not None:
            hand.append(self.drawn)
        self.hand = hand
        counts = [0] * 34
        for t in hand:
            counts[t] += 1
        self.counts = counts
        self.melds = [("chow" if m["kind"] == "chow" else "pung", m["tiles"][0])
                      for m in view["seats"][me]["melds"]]
        self._unseen: list[int] | None = None
        self.actions = view.get("actions") or []
        by_type: dict[str, list[dict]] = {}
        for a in self.actions:
            by_type.setdefault(a["type"], []).append(a)
        self.by_type = by_type

    @property
    def unseen(self) -> list[int]:
        """Copies of each kind this seat cannot see (not in its hand, any meld, discard or the indicator)."""
        if self._unseen is None:
            seen = self.counts.copy()
            ind = self.view.get("indicator")
            if ind is not None:
                seen[ind] += 1
            for s in self.view["seats"]:
                for m in s["melds"]:
                    for t in m["tiles"]:
                        seen[t] += 1
                for d in s["discards"]:
                    if not d["claimed"]:
                        seen[d["tile"]] += 1
            self._unseen = [4 - x if x < 4 else 0 for x in seen]
        return self._unseen

    def pass_action(self) -> dict:
        """Pass when that is on offer, else the first legal action."""
        passes = self.by_type.get(PASS)
        return passes[0] if passes else self.actions[0]


def ruleset_decision(level: str, tb: Table) -> dict | None:
    """The ruleset's own play at this level (``RulesetPlugin.decide``), None for the core player's."""
    from jxbot.rulesets import behaviour, of_view

    p = of_view(tb.view)
    return behaviour(p.data).decide(level, tb)


def after_kong(tb: Table, a: dict) -> HandShape:
    """The hand's shape once the kong ``a`` (暗杠 or 补杠) is declared, before its replacement draw."""
    k = a["tile"]
    c = tb.counts.copy()
    melds = list(tb.melds)
    if a["type"] == ANGANG:
        c[k] -= 4
        melds.append(("kong", k))
    else:
        c[k] -= 1
    return HandShape(c, melds, tb.wild)
