"""``jxbot review FILE`` on an exported hand and ``r`` after a hand in ``jxbot play`` (docs/coach.md)."""

from __future__ import annotations

import io
import json
import re
import sys

from jxbot.cli import main
from jxbot.replay import export_doc
from tests.replay.helpers import played_hand


def test_jxbot_review_of_an_exported_hand(tmp_path, capsys, monkeypatch):
    h = played_hand(4)
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(export_doc(h.events_json(), names=["A", "B", "C", "D"], computers=[True, False, True, True])))
    out_dir = tmp_path / "png"
    assert main(["review", str(f), "--budget-ms", "20", "--lang", "en", "--png", str(out_dir)]) == 0
    out = capsys.readouterr().out
    assert "South (B)" in out  # the first seat a person played, by default
    m = re.search(r"Agrees with the expert: (\d+)% \((\d+) of (\d+) decisions\)", out)
    assert m and int(m[1]) == round(100 * int(m[2]) / int(m[3]))
    n = int(m[3])
    assert len(re.findall(r"^\s*\d+\. ", out, re.M)) == n  # a line per decision
    assert sorted(p.name for p in out_dir.iterdir())[:2] == ["decision-01.png", "decision-02.png"]
    assert len(list(out_dir.iterdir())) == n + 1
    # the same review again: the same figures (a review is reproducible)
    assert main(["review", "--file", str(f), "--seat", "1", "--budget-ms", "20", "--lang", "en"]) == 0
    assert m[0] in capsys.readouterr().out
    assert main(["review", str(tmp_path / "none.json")]) == 2


def test_r_after_a_hand_in_jxbot_play(monkeypatch, capsys):
    monkeypatch.setenv("JXBOT_REVIEW_BUDGET_MS", "300")
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\n\n" * 150))  # "r" at a prompt in the hand is no answer
    assert main(["play", "--seed", "7", "--hands", "2", "--delay", "0", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "r = review" in out
    assert "Reviewing…" in out and re.search(r"Agrees with the expert: \d+% \(\d+ of \d+ decisions\)", out), out[-3000:]
