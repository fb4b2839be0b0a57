"""Issue 26: ``jxbot play --learn`` and the terminal items a new player trips over."""

from __future__ import annotations

import asyncio
import io
import re
import sys

import pytest

from jxbot.cli import main
from jxbot.rules.tiles import parse_tiles
from jxbot.table.terminal import LineReader, TerminalSeat


def run_play(monkeypatch, capsys, lines, *extra):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    rc = main(["play", "--seed", "7", "--hands", "1", "--delay", "0", *extra])
    return rc, capsys.readouterr()


def seat(lang="en"):
    return TerminalSeat(io.StringIO(), lang, LineReader(io.StringIO()))


def test_learn_lengthens_both_the_turn_and_the_claim_clock(monkeypatch, capsys):
    import jxbot.table as table

    seen = {}
    real = table.TableRunner

    class Spy(real):  # type: ignore[misc, valid-type]
        def __init__(self, seats, config, **kw):
            seen["config"] = config
            super().__init__(seats, config, **kw)

    monkeypatch.setattr(table, "TableRunner", Spy)
    rc, _ = run_play(monkeypatch, capsys, [], "--lang", "en", "--learn")
    assert rc == 0
    assert seen["config"].turn_seconds == 60 and seen["config"].claim_window == 20
    rc, _ = run_play(monkeypatch, capsys, [], "--lang", "en", "--learn", "--claim-seconds", "9")
    assert seen["config"].claim_window == 9  # an explicit clock wins


def test_hint_asks_the_normal_computer_and_the_ready_hand_is_shown(monkeypatch, capsys):
    rc, cap = run_play(monkeypatch, capsys, ["hint", "提示", ""], "--lang", "en", "--learn")
    assert rc == 0
    assert cap.out.count("hint (the computer's play): discard ") == 2  # hint and 提示 both work
    ts = seat()
    ts.learn = True
    view = {"hand": parse_tiles("1112223334445m"), "drawn": None, "wildcard": None, "ruleset": "jiaxing",
            "seats": [{"melds": []}]}
    assert ts.ready_text(view) == "  ready: you win on 2m 3m 4m 5m 6m"
    view["drawn"] = parse_tiles("9p")[0]  # holding a drawn tile: which discards leave the hand ready
    assert ts.ready_text(view) == "  ready: discard 5m and win on 9p; discard 9p and win on 2m 3m 4m 5m 6m"
    ts.lang = "zh"
    assert ts.ready_text(view) == "  听牌：打5万听9筒; 打9筒听2万 3万 4万 5万 6万"
    assert ts.ready_text({**view, "hand": parse_tiles("1357m1357p1357s1z")[:13], "drawn": None}) == ""


def test_help_lists_the_tile_names_and_chinese_help_works(monkeypatch, capsys):
    rc, cap = run_play(monkeypatch, capsys, ["帮助", ""], "--lang", "zh")
    assert "东 南 西 北 白 发 中" in cap.out
    rc, cap = run_play(monkeypatch, capsys, ["help", ""], "--lang", "en")
    assert "East South West North White Green Red" in cap.out and "hint = " in cap.out


def test_a_new_word_needs_no_change_to_the_prompt_loop():
    # rules/规则 came this way (the how-to guide, tests/howto/test_terminal.py); a subclass adds its own the same way
    assert TerminalSeat.text_commands["规则"] == "show_rules" and TerminalSeat.text_commands["rules"] == "show_rules"

    class WithMore(TerminalSeat):
        text_commands = {**TerminalSeat.text_commands, "score": "show_score"}

        def show_score(self, view):
            self.say("SCORE HERE")

    assert WithMore.text_commands["score"] == "show_score" and "score" not in TerminalSeat.text_commands


def test_dealer_and_wildcard_marks_are_distinct_and_explained(monkeypatch, capsys):
    rc, cap = run_play(monkeypatch, capsys, [], "--lang", "en")
    board = cap.out.split("Your hand")[0]
    assert re.search(r"^East *D +you ", board, re.M)  # the dealer: D, not *
    assert "(* = wildcard, ' = a discard claimed by another seat, D = dealer)" in cap.out
    rc, cap = run_play(monkeypatch, capsys, [], "--lang", "zh")
    assert "（*为百搭，'为被吃碰杠走的牌，庄为庄家）" in cap.out


def test_result_shows_the_winning_tile_no_bare_none_and_no_wall_dump(monkeypatch, capsys):
    rc, cap = run_play(monkeypatch, capsys, [], "--lang", "en")
    out = cap.out
    assert re.search(r"^  hand: .+ \+ \S+", out, re.M)
    assert not re.search(r"^  hand: .*none$", out, re.M)
    assert "the wall revealed" not in out and "fair deal check: salt " in out
    assert len(max(out.splitlines(), key=len)) < 300  # no 136-tile line


def test_wall_on_request_between_hands(monkeypatch, capsys):
    ts = seat()
    ts._last_reveal = {"commitment": "c0ffee", "salt": "s4lt", "wall": list(range(34)) * 4}
    ts.show_wall()
    out = ts.out.getvalue()
    assert "the wall (head to tail): " in out and "check: jxbot verify --wall '" in out
    assert "--salt s4lt --commitment c0ffee" in out


def test_pending_cumulative_fan_is_shown_on_the_board():
    ts = seat()
    view = {"hand_number": 2, "round_wind": 0, "dealer": 0, "wildcard": None, "indicator": None,
            "wall_remaining": 80, "cumulative_queue": ["baozi"], "hand": [], "drawn": None,
            "seats": [{"seat": i, "seat_wind": i, "concealed_count": 13, "melds": [], "discards": [],
                       "is_dealer": i == 0, "name": f"p{i}"} for i in range(4)]}
    ts.board(view)
    assert "cumulative fan waiting: Baozi (dice doubles) (the next winner takes it)" in ts.out.getvalue()


def test_match_over_says_one_hand():
    ts = seat()
    asyncio.run(ts.on_match_end({"hands": 1, "totals": [0, 0, 0, 0], "names": ["a", "b", "c", "d"]}))
    assert "== Match over (1 hand) ==" in ts.out.getvalue()


def test_quit_without_a_fee_does_not_mention_a_fee(monkeypatch, capsys):
    rc, cap = run_play(monkeypatch, capsys, ["quit", ""], "--lang", "en")
    assert "Leaving now is an escape" in cap.out and "fee" not in cap.out.split("Leaving now")[1].split("\n")[0]


@pytest.mark.parametrize("lang,text", [("en", "Interrupted."), ("zh", "已中断。")])
def test_ctrl_c_exits_130_with_a_newline_and_a_short_line(monkeypatch, capsys, lang, text):
    import jxbot.commands.play as play

    def interrupted(coro):
        coro.close()
        raise KeyboardInterrupt

    monkeypatch.setattr(play.asyncio, "run", interrupted)
    assert main(["play", "--lang", lang]) == 130
    assert capsys.readouterr().err == f"\n{text}\n"
