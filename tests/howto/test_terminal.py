"""``jxbot play``: ``rules``/``规则`` shows the how-to-play guide, ``help``/``帮助`` the commands and where the
rules are — in Chinese too (帮助 was an unreadable tile before)."""

from __future__ import annotations

import io
import sys

from jxbot.cli import main
from jxbot.howto import body, pages


def run_play(monkeypatch, capsys, lines, *extra):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    rc = main(["play", "--seed", "7", "--hands", "1", "--delay", "0", *extra])
    return rc, capsys.readouterr().out


def test_rules_and_help_in_chinese(monkeypatch, capsys):
    rc, out = run_play(monkeypatch, capsys, ["帮助", "规则"], "--lang", "zh")
    assert rc == 0
    before = out.split("（输入结束")[0]
    assert "rules / 规则 = 怎么玩" in before  # 帮助 answered with the commands
    assert "看不懂“帮助”" not in before and "看不懂“规则”" not in before
    for p in pages("jiaxing"):  # 规则: every page of the guide, its computed scores included
        assert body(p, "zh").splitlines()[-1] in before, p.key


def test_rules_in_english(monkeypatch, capsys):
    rc, out = run_play(monkeypatch, capsys, ["rules"], "--lang", "en")
    assert rc == 0
    assert "How to play (Jiaxing mahjong)" in out
    assert "== All pungs (对对胡) ==" in out and "stake 2 × 3 tai × 2^2 = 24" in out


def test_rules_at_a_caishen_table_are_headed_with_its_own_name(monkeypatch, capsys):
    # the guide of a 財神 table was headed "How to play (Jiaxing mahjong)" above the caishen pages
    for lang, head, wrong in (("en", "How to play (Caishen mahjong)", "Jiaxing mahjong"),
                              ("zh", "怎么玩（财神麻将）", "嘉兴麻将")):
        rc, out = run_play(monkeypatch, capsys, ["rules"], "--lang", lang, "--ruleset", "caishen")
        assert rc == 0 and head in out and wrong not in out
