"""``jxbot score``: what a player sees and the exit codes checks rely on."""

import json

import pytest

from jxbot.cli import main


def run(capsys, *argv):
    code = main(["score", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_issue_example_json(capsys):
    code, out, _ = run(capsys, "11122233m777z55p", "--win", "5p", "--wildcard", "3s", "--round", "E", "--seat", "S",
                       "--self-draw", "--stake", "5", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["winning"] is True
    assert {i["name"]: i["value"] for i in d["tai"]} == {"red_dragon": 1, "no_wildcard": 1, "all_pungs": 2}
    assert d["fan"] == [] and d["total_tai"] == 4 and d["total_fan"] == 0 and d["points"] == 20


def test_seed_example_60_points_in_the_table(capsys):
    # 混一色 + 无百搭 = 3 台, 地胡 = 2 番, stake 5
    code, out, _ = run(capsys, "123456789m11z44z", "--win", "4z", "--round", "S", "--seat", "W", "--first-turn",
                       "--stake", "5", "--lang", "en")
    assert code == 0
    assert "Half flush" in out and "Earthly hand" in out
    assert "5 × 3 tai × 2^2 fan = 60" in out


def test_zh_table_and_melds(capsys):
    code, out, _ = run(capsys, "1m", "--win", "1m", "--peng", "777z", "--chi", "234m", "--gang", "5555m",
                       "--angang", "9999m")
    assert code == 0
    assert "单吊" in out and "混一色" in out and "中" in out


def test_cumulative_number_and_codes(capsys):
    code, out, _ = run(capsys, "1112345678999m", "--win", "5m", "--cumulative", "1", "--json")
    assert code == 0 and json.loads(out)["total_fan"] == 1
    code, out, _ = run(capsys, "1112345678999m", "--win", "5m", "--cumulative", "baozi", "--json")
    d = json.loads(out)
    assert [i["name"] for i in d["fan"]] == ["baozi"] and d["points"] == 5 * 2


def test_not_winning_says_why_exit_1(capsys):
    code, out, _ = run(capsys, "123m456p789s1112z", "--win", "2z", "--lang", "en")
    assert code == 1 and "no winning pattern" in out
    code, out, _ = run(capsys, "123m456p789s1112z", "--win", "3z", "--json")
    assert code == 1 and json.loads(out)["reason"] == "no_shape"


@pytest.mark.parametrize(("argv", "fragment"), [
    (["11111m456p789s12z", "--win", "2z"], "5 copies of 1m"),
    (["123m456p789s12z", "--win", "2z", "--lang", "en"], "11 concealed tiles typed with --win: with --win give 13"),
    (["123m456p789s11x2z", "--win", "2z"], "unexpected 'x'"),
    (["123m456p789s1112z", "--win", "8z"], "honors are 1z–7z"),
    (["1m", "--win", "1m", "--chi", "124m", "--peng", "777z", "--gang", "5555m", "--angang", "9999m"], "not a chow"),
    (["1112345678999m", "--win", "5m", "--cumulative", "bogus"], "unknown cumulative"),
    (["1112345678999m", "--win", "5m", "--ruleset", "nope"], "unknown ruleset"),
    (["123456789m11z5s5s", "--win", "5s", "--wildcard", "5s"], "cannot be claimed"),
])
def test_bad_input_exit_2_with_a_clear_message(capsys, argv, fragment):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert fragment in err


def test_bad_wind_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "1112345678999m", "--win", "5m", "--seat", "X"])
    assert exc.value.code == 2


def test_self_drawn_wildcard_wins(capsys):
    code, out, _ = run(capsys, "123456789m11z5s5s", "--win", "5s", "--wildcard", "5s", "--self-draw", "--json")
    d = json.loads(out)
    assert code == 0 and {"name": "three_wildcards", "value": 1} in [
        {"name": i["name"], "value": i["value"]} for i in d["fan"]]


# issue 26: clear counts, the two conventions (14 with the winning tile last, or 13 + --win), the missing flag


def test_fourteen_typed_with_win_says_what_is_expected(capsys):
    code, _, err = run(capsys, "123m456p789s11122z", "--win", "2z", "--lang", "en")
    assert code == 2
    assert "14 concealed tiles typed with --win: with --win give 13" in err and "15" not in err
    code, _, err = run(capsys, "123m456p789s11122z", "--win", "2z")  # zh by default
    assert "输入了 14 张暗牌和 --win：有 --win 时要 13 张" in err


def test_both_conventions_score_the_same_and_say_which_was_read(capsys):
    code14, out14, _ = run(capsys, "11122233m777z55p5p", "--wildcard", "3s", "--lang", "en", "--json")
    code13, out13, _ = run(capsys, "11122233m777z55p", "--win", "5p", "--wildcard", "3s", "--lang", "en", "--json")
    a, b = json.loads(out14), json.loads(out13)
    assert code14 == code13 == 0 and a["points"] == b["points"] and a["tai"] == b["tai"]
    assert a["read"] == "(read as: 14 tiles, the last one, 5p, is the winning tile)"
    assert b["read"] == "(read as: 13 tiles + the winning 5p from --win)"
    _, out, _ = run(capsys, "11122233m777z55p5p", "--wildcard", "3s")
    assert "（读作：14 张，最后一张 5p 是胡的牌）" in out


def test_a_wrong_count_without_win_names_both_ways(capsys):
    code, _, err = run(capsys, "123m456p789s12z", "--lang", "en")
    assert code == 2
    assert "11 concealed tiles typed: give 14 with the winning tile last (0 melds), or 13 and the winning tile as --win" \
        in err
    code, _, err = run(capsys, "123m456p789s1z", "--peng", "777z", "--lang", "en")
    assert "give 11 with the winning tile last (1 melds), or 10" in err


def test_caishen_without_wildcard_names_the_flag(capsys):
    code, _, err = run(capsys, "123m456p789s1112z", "--win", "2z", "--ruleset", "caishen", "--lang", "en")
    assert code == 2 and "add --wildcard TILE" in err


def test_the_readme_shows_what_the_calculator_prints(capsys, monkeypatch):
    """README's `jxbot score` example is the command's whole output, as a newcomer who types it sees it (it
    showed the items alone, without the hand, how it was read, the winds and the reading)."""
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ jxbot (score [^\n]+)\n(.*?)```", readme, re.S)
    assert block
    monkeypatch.delenv("JXBOT_LANG", raising=False)  # the README's is the default language's output
    code, out, _ = run(capsys, *shlex.split(block.group(1))[1:])
    assert code == 0 and out == block.group(2)
