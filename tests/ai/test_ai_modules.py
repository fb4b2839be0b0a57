"""The computer players' modules (issue 25): no import circle among jxbot/ai and the caishen ai modules
(imports inside functions and under TYPE_CHECKING count too), levels found through a registry, one
claim loop."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _import_graph() -> dict[str, set[str]]:
    files = sorted((ROOT / "jxbot" / "ai").glob("*.py")) + sorted((ROOT / "jxbot" / "rulesets" / "caishen").glob("ai*.py"))
    mods = {}
    for p in files:
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = p
    graph: dict[str, set[str]] = {}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rsplit(".", 1)[0]
        deps: set[str] = set()
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.Import):
                deps.update(a.name for a in n.names)
            elif isinstance(n, ast.ImportFrom):
                base = n.module or ""
                if n.level:
                    up = pkg.split(".")[: len(pkg.split(".")) - (n.level - 1)]
                    base = ".".join(up + ([n.module] if n.module else []))
                deps.add(base)
                deps.update(f"{base}.{a.name}" for a in n.names)
        graph[m] = {d for d in deps if d in mods and d != m}
    return graph


def test_no_import_circle_among_the_computer_players_modules():
    graph = _import_graph()
    assert "jxbot.ai.hard" not in graph["jxbot.ai.players"]  # players knows nothing of hard
    cycles = []

    def visit(u: str, path: list[str], done: set[str]) -> None:
        for v in sorted(graph[u]):
            if v in path:
                cycles.append(path[path.index(v):] + [v])
            elif v not in done:
                visit(v, path + [v], done)
        done.add(u)

    done: set[str] = set()
    for m in sorted(graph):
        if m not in done:
            visit(m, [m], done)
    assert cycles == []


def test_levels_come_from_the_registry():
    from jxbot.ai import LEVELS, make_player
    from jxbot.ai.base import ComputerPlayer, levels, register

    assert LEVELS == levels() == ("easy", "normal", "hard", "expert")
    assert [type(make_player(lv, 1)).level for lv in LEVELS] == list(LEVELS)

    class Passer(ComputerPlayer):
        level = "test-passer"

        def _decide(self, tb):
            return tb.pass_action()

    register(Passer)
    try:
        assert isinstance(make_player("test-passer", 0), Passer)
    finally:
        from jxbot.ai import base

        del base._CLASSES["test-passer"]
    with pytest.raises(ValueError, match="known: easy, normal, hard"):
        make_player("test-passer", 0)


def test_claim_options_leave_the_hand_after_each_claim(make_view):
    from jxbot.ai.claims import best_claim, claim_options
    from jxbot.ai.seatview import Table
    from jxbot.rules.tiles import parse_tile

    acts = [{"type": t, "seat": 0, "tile": parse_tile(k) if k else None} for t, k in
            (("peng", "5m"), ("gang", "5m"), ("chi", "3m"), ("chi", "4m"), ("chi", "5m"), ("pass", None))]
    tb = Table(make_view("3455567m123p45s1z", phase="claim", last_discard=(3, "5m"), actions=acts))
    opts = list(claim_options(tb))
    # 碰 and 杠 first, then each 吃 the hand can make (3-4-5 and 4-5-6; 5-6-7 too), in the order offered
    assert [(o.type, o.action["tile"]) for o in opts] == [("peng", 4), ("gang", 4), ("chi", 2), ("chi", 3), ("chi", 4)]
    assert opts[0].melds[-1] == ("pung", 4) and opts[0].counts[4] == 1 and sum(opts[0].counts) == 11
    assert opts[1].counts[4] == 0 and sum(opts[1].counts) == 10
    assert opts[2].melds[-1] == ("chow", 2) and opts[2].counts[2] == 0 and opts[2].counts[3] == 0
    # the lowest rank wins, the first of equal ones; None everywhere: pass
    assert best_claim(tb, lambda o: (0, o.type)) == (opts[0], "peng")
    assert best_claim(tb, lambda o: (1 if o.type != "chi" else 0, None))[0] == opts[2]
    assert best_claim(tb, lambda o: None) is None
