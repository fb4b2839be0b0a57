"""``jxbot review FILE`` on an exported hand and ``r`` after a hand in ``jxbot play`` (docs/coach.md)."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

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


def _broken_files(tmp_path):
    """Hand files a person might hand to ``jxbot review``: each wrong in its own way."""
    h = played_hand(4)
    good = export_doc(h.events_json(), names=["A", "B", "C", "D"], computers=[True, False, True, True])
    files = {}

    def write(name, doc=None, text=None):
        f = tmp_path / name
        f.write_text(text if text is not None else json.dumps(doc))
        files[name] = f

    write("garbage.json", text="not json {")
    write("list.json", [1, 2])
    write("v99.json", {**good, "version": 99})
    other = json.loads(json.dumps(good))
    other["ruleset"] = other["events"][0]["ruleset"] = "shanghai"  # a ruleset this jxbot has not installed
    write("shanghai.json", other)
    damaged = json.loads(json.dumps(good))
    closed = next(e for e in damaged["events"] if e["type"] == "claims_closed")
    closed["seat"] = [1, 2]  # a seat that is no seat
    write("damaged.json", damaged)
    unfinished = json.loads(json.dumps(good))
    unfinished["events"] = unfinished["events"][:10]
    write("unfinished.json", unfinished)
    files["missing.json"] = tmp_path / "missing.json"
    return files


def test_jxbot_review_of_a_broken_file_says_why_in_the_players_language(tmp_path, capsys):
    """A malformed file, one of another jxbot's ruleset, or a damaged log: one line in the chosen language
    naming what is wrong — never a traceback (the unknown ruleset and a damaged seat were tracebacks)."""
    for name, f in _broken_files(tmp_path).items():
        for lang in ("zh", "en"):
            rc = main(["review", str(f), "--budget-ms", "5", "--lang", lang])
            err = capsys.readouterr().err
            lines = [x for x in err.splitlines() if x.startswith("jxbot review:")]
            assert rc in (1, 2) and len(lines) == 1 and "Traceback" not in err, (name, lang, err)
            cjk = re.search(r"[\u4e00-\u9fff]", lines[0]) is not None
            assert cjk == (lang == "zh"), (name, lang, lines[0])
    capsys.readouterr()
    for bad in (["--budget-ms", "0"], ["--budget-ms", "-5"], ["--jobs", "0"]):  # a review of no work: refused
        with pytest.raises(SystemExit) as exc:
            main(["review", str(tmp_path / "garbage.json"), *bad])
        assert exc.value.code == 2 and "at least 1" in capsys.readouterr().err
    main(["review", str(tmp_path / "shanghai.json"), "--lang", "en"])
    assert "'shanghai'" in capsys.readouterr().err
