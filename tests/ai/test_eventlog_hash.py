"""The event logs of fixed-seed self-play are pinned (issue 16: moving the rulesets into plug-ins changed
no behaviour). ``bench/eventlog_hash.py`` is the full check (2000 hands per ruleset, hashes in
docs/rulesets.md); this is its small, fast version.

If you change the game's behaviour ON PURPOSE (a rule fix, a computer player's decision), these hashes
change: re-record them (``python3 bench/eventlog_hash.py --ruleset R --hands N --seed pin16``) together
with the 2000-hand figures in docs/rulesets.md, and say so in the commit. A pure refactoring must leave
them alone.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

PINNED = {  # ruleset: (hands, sha256); jiaxing re-recorded for issue 24 (RULES A3: no 吃/碰/杠 on the last discard)
    "jiaxing": (30, "3d3dbe41795e61ec9c963ba4d3fa1537e1da11ba28269fb65398bdd2970db357"),
    "caishen": (16, "decadc71f02140085abef36aea470899f936e155f5916a6f95e27105498e9c57"),
}


def _bench():
    path = Path(__file__).resolve().parents[2] / "bench" / "eventlog_hash.py"
    spec = importlib.util.spec_from_file_location("eventlog_hash", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("ruleset", sorted(PINNED))
def test_self_play_event_logs_are_unchanged(ruleset):
    hands, want = PINNED[ruleset]
    bench = _bench()
    got = bench.run(ruleset, hands, "pin16", [list(m) for m in bench.MIXES])
    assert got["hands"] == hands
    assert got["events"]["claimed"] > 0 and got["events"]["won"] > 0  # the logs cover claims and wins
    assert got["sha256"] == want, f"{ruleset}: the self-play event logs changed (see this file's docstring)"
