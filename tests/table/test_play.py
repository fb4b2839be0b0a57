"""`jxbot play` from scripted input: a whole hand in the terminal."""

from __future__ import annotations

import io
import re
import sys

from jxbot.cli import main


def run_play(monkeypatch, capsys, lines, *extra):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    rc = main(["play", "--seed", "7", "--hands", "1", "--delay", "0", *extra])
    return rc, capsys.readouterr().out


def test_a_whole_hand_is_played_from_scripted_input(monkeypatch, capsys):
    # every prompt first gets a typo, then a tile name when discarding (else Enter: default / pass)
    script = []
    for _ in range(60):
        script += ["zz", "help", ""]
    rc, out = run_play(monkeypatch, capsys, script, "--lang", "en")
    assert rc == 0
    assert "Cannot read 'zz'" in out and "Type a tile to discard" in out
    assert "Hand 1 · East round · dealer you" in out
    assert re.search(r"Your hand: (\*?\S+ ){12,}", out)  # the hand is shown
    assert "  you: discard " in out  # our Enter discarded the drawn tile
    assert "== Match over (1 hand) ==" in out
    # seed 7: a computer wins this hand; the score is itemized with labels, then the four payments
    assert re.search(r"== Winner: cpu\d \(", out)
    assert re.search(r"total \d+ tai × 2\^\d+ fan × stake 1 = \d+", out)
    assert re.search(r"^  [A-Z][a-z].* +\d+ (tai|fan)$", out, re.M)  # labelled items
    assert "item." not in out  # every item has a label
    assert len(re.findall(r"^  (you|cpu\d)\s+[+-]\d+\s+total", out, re.M)) == 4


def test_discard_by_tile_name_in_chinese(monkeypatch, capsys):
    rc, out = run_play(monkeypatch, capsys, [], "--lang", "zh")
    assert rc == 0
    # no input at all: end of input puts the seat on auto-play and the hand still finishes
    assert "（输入结束，进入托管）" in out
    assert "== 牌局结束（1 局）==" in out
    first_hand = re.search(r"你的手牌: (.+?)(  摸到: (\S+))?  （", out)
    assert first_hand


def test_typing_a_tile_discards_it(monkeypatch, capsys):
    from jxbot.game import Match
    from jxbot.rules.tiles import tile_name

    hand = Match(7).next_hand()
    view = hand.view(0)
    tile = view["hand"][0]  # not the drawn tile: a deliberate choice
    assert tile != view["drawn"]
    rc, out = run_play(monkeypatch, capsys, [tile_name(tile, "en")], "--lang", "en")
    assert rc == 0
    mark = "*" if tile == view["wildcard"] else ""  # the 百搭 is marked wherever it is shown
    assert f"  you: discard {mark}{tile_name(tile, 'en')}\n" in out.split("(end of input")[0]


def test_auto_hands_the_seat_to_the_computer_and_says_how_to_take_it_back(monkeypatch, capsys):
    rc, out = run_play(monkeypatch, capsys, ["auto"], "--lang", "en")
    assert rc == 0
    assert "you: auto-play on." in out and "type auto to take your seat back" in out
    assert "(end of input" not in out.split("type auto to take your seat back")[0]
    assert "== Match over (1 hand) ==" in out


def test_quit_is_an_escape_the_hand_is_played_out_and_charged(monkeypatch, capsys):
    rc, out = run_play(monkeypatch, capsys, ["quit", "y"], "--lang", "en", "--hands", "3", "--fee", "5")
    assert rc == 0
    # quit first says what an escape costs and asks; y confirms
    assert "Leaving now is an escape" in out and "you pay the fee (5) and whatever the seat loses" in out
    assert "you left the hand; a computer plays the seat." in out
    assert "== Match over (1 hand) ==" in out  # the match stops after the escaped hand
    you = re.search(r"^  you \[escaped\]\s+([+-]\d+)\s+total", out, re.M)  # tagged, and explained:
    assert "escaped: left during the hand: pays the fee and the seat's loss, wins nothing" in out
    assert you and int(you.group(1)) <= -5  # the escaper pays the fee (and its loss), wins nothing
    assert re.search(r"silver 99\d\b", out)


def test_the_hard_level_plays_a_hand(monkeypatch, capsys):
    rc, out = run_play(monkeypatch, capsys, [], "--lang", "en", "--level", "hard")
    assert rc == 0 and "== Match over (1 hand) ==" in out


def test_an_unknown_level_is_refused(monkeypatch, capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["play", "--level", "grandmaster"])
    assert "invalid choice: 'grandmaster'" in capsys.readouterr().err


def test_quit_then_enter_stays_at_the_table(monkeypatch, capsys):
    rc, out = run_play(monkeypatch, capsys, ["quit", ""], "--lang", "en", "--hands", "1")
    assert rc == 0
    assert "Leaving now is an escape" in out and "Staying." in out
    assert "you left the hand" not in out


WIN_DEAL = {0: "11123456789995m", 1: "1234567z123p45s", 2: "2345678p2345s12z", 3: "6789s1234567p67z"}


def _winning_deal(monkeypatch):
    """You (the dealer) are dealt 1112345678999m + 5m: a win on the deal (天胡, 清一色)."""
    from jxbot.game import Match
    from jxbot.game.scripted import scripted_hand

    monkeypatch.setattr(Match, "next_hand",
                        lambda self: scripted_hand(WIN_DEAL, indicator="9s", context=self.next_context()))


def test_enter_on_a_winning_draw_wins(monkeypatch, capsys):
    _winning_deal(monkeypatch)
    rc, out = run_play(monkeypatch, capsys, [""], "--lang", "en")
    assert rc == 0
    assert "Enter = self-draw win" in out
    assert "  you: self-draw win 5m" in out and "== Winner: you (self-draw), on 5m ==" in out
    assert "you: discard 5m" not in out


async def test_a_turn_left_to_time_out_at_the_terminal_wins_too(monkeypatch):
    import argparse
    import asyncio
    import io

    from jxbot.commands.play import add_parser, play
    from jxbot.table import FakeClock
    from jxbot.table.clock import settle

    _winning_deal(monkeypatch)

    class Silent:  # a player who types nothing
        def __init__(self):
            import threading

            self.go = threading.Event()

        def readline(self):
            self.go.wait(10)
            return ""

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    args = parser.parse_args(["play", "--seed", "7", "--hands", "1", "--delay", "0", "--lang", "en"])
    stdin, out, clock = Silent(), io.StringIO(), FakeClock()
    task = asyncio.create_task(play(args, stdin, out, clock))
    # the prompt comes once the computers' tables are built (in a thread) and the deal is shown: seconds on a
    # loaded machine, so wait for it with a generous deadline rather than a fixed number of short sleeps
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60.0
    while "Enter = self-draw win" not in out.getvalue():
        assert loop.time() < deadline and not task.done(), "the self-draw prompt never came:\n" + out.getvalue()
        await settle()
        await asyncio.sleep(0.01)
    assert "== Winner" not in out.getvalue()
    await clock.advance(20.5)
    await asyncio.wait_for(task, 10)
    stdin.go.set()
    text = out.getvalue()
    assert "you timed out: self-draw win 5m" in text and "== Winner: you (self-draw), on 5m ==" in text


def test_enter_on_a_drawn_wildcard_keeps_it_and_plays_the_computers_choice(monkeypatch, capsys):
    from jxbot.game import Match
    from jxbot.game.scripted import scripted_hand

    # you (the dealer) get 9s as your 14th tile; the indicator is 9s, so it is a 百搭
    deal = {0: "1m23568s1234567z9s"}
    monkeypatch.setattr(Match, "next_hand",
                        lambda self: scripted_hand(deal, indicator="9s", context=self.next_context()))
    rc, out = run_play(monkeypatch, capsys, [""], "--lang", "en")
    assert rc == 0
    m = re.search(r"drew: \*9s .*\nDiscard: .*Enter = discard (\S+)", out)
    assert m and m.group(1) != "*9s"  # the prompt offers another tile, not the wildcard
    assert f"  you: discard {m.group(1)}\n" in out  # and Enter played exactly that


def test_after_a_result_enter_deals_the_next_hand_and_quit_ends_the_match(monkeypatch, capsys):
    _winning_deal(monkeypatch)
    rc, out = run_play(monkeypatch, capsys, ["", "", "", "quit"], "--lang", "en", "--hands", "3")
    assert rc == 0
    assert out.count("Enter for the next hand (r = review, wall = see the wall, quit = leave) > ") == 2
    assert "Hand 2 · " in out and "Hand 3 · " not in out  # Enter dealt hand 2; quit at the next pause
    assert "== Match over (2 hands) ==" in out
    assert "left the hand" not in out  # leaving between hands is no escape


def test_the_tables_are_built_before_the_first_prompt(monkeypatch, capsys):
    # issue 18: the computers' first caishen decision would otherwise build the shanten tables on the loop
    import threading

    from jxbot.rules import shape
    from jxbot.table import TableRunner

    monkeypatch.setattr(shape, "_SHANTEN", None)
    real_build, real_start = shape._ShantenTables, TableRunner.start
    seen: dict[str, object] = {}

    def build():
        seen["thread"] = threading.get_ident()
        return real_build()

    def start(self):
        seen["ready_at_start"] = shape.shanten_tables_ready()
        return real_start(self)

    monkeypatch.setattr(shape, "_ShantenTables", build)
    monkeypatch.setattr(TableRunner, "start", start)
    rc, out = run_play(monkeypatch, capsys, [], "--lang", "en", "--ruleset", "caishen")
    assert rc == 0 and "== Match over (1 hand) ==" in out
    assert seen["ready_at_start"] is True
    assert seen["thread"] != threading.get_ident()


def _fresh_python(code: str, *args: str, stdin: str = "") -> str:
    """Run ``code`` in a new interpreter (nothing imported yet, as in a real ``jxbot play``)."""
    import os
    import subprocess
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root}
    p = subprocess.run([sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True,
                       env=env, cwd=root, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_the_first_hand_shows_the_fair_deal_commitment_not_a_raw_key():
    out = _fresh_python("import sys; from jxbot.cli import main; sys.exit(main(sys.argv[1:]))",
                        "play", "--seed", "7", "--hands", "1", "--delay", "0", "--lang", "en")
    first_hand = out.split("== Match over")[0]
    assert "fair deal: the wall's SHA-256 commitment is " in first_hand
    assert not re.search(r"\b(replay|table|render|bot)\.[a-z_]+\.[a-z_.]+", out), "a raw string key is shown"


def test_every_string_the_terminal_uses_exists_once_it_is_imported():
    src = (__import__("pathlib").Path(__file__).resolve().parents[2] / "jxbot" / "table" / "terminal.py").read_text()
    keys = sorted(set(re.findall(r"""\bt\(\s*["']([a-z_]+(?:\.[a-z_0-9]+)+)["']""", src)))
    assert len(keys) > 20
    # a ruleset's own strings (score.caishen_formula) come with the ruleset, which a table loads before its deal
    missing = _fresh_python("import sys, jxbot.table.terminal\nfrom jxbot.i18n import has\n"
                            "from jxbot.rules.ruleset import get_ruleset\nget_ruleset('caishen')\n"
                            "print(' '.join(k for k in sys.argv[1:] if not has(k)))", *keys)
    assert missing.split() == []


def test_arguments_no_match_can_be_played_with_are_refused_in_one_localized_line(monkeypatch, capsys):
    # a newcomer's typos: each was a traceback (--rounds 0, --stake 0, --fee -3, --silver -10), an empty
    # "match over (0 hands)" (--hands 0), a match whose every prompt timed out at once (--turn-seconds 0), or an
    # unlocalized line on stdout (--ruleset)
    import pytest

    cases = [
        (["--rounds", "0"], "--rounds must be at least 1, not 0", "--rounds 至少是 1，不是 0"),
        (["--hands", "-1"], "--hands must be at least 1, not -1", "--hands 至少是 1，不是 -1"),
        (["--stake", "0"], "--stake must be at least 1, not 0", "--stake 至少是 1，不是 0"),
        (["--fee", "-3"], "--fee must be at least 0, not -3", "--fee 至少是 0，不是 -3"),
        (["--silver", "-10"], "--silver must be at least 0, not -10", "--silver 至少是 0，不是 -10"),
        (["--turn-seconds", "0"], "--turn-seconds must be more than 0 seconds, not 0", "--turn-seconds 必须大于 0 秒"),
        (["--claim-seconds", "-1"], "--claim-seconds must be more than 0 seconds, not -1", "--claim-seconds 必须大于 0 秒"),
        (["--ruleset", "nope"], "unknown ruleset 'nope'; known: caishen, jiaxing", "没有「nope」这个规则；可用的规则："),
    ]
    for extra, en, zh in cases:
        for lang, words in (("en", en), ("zh", zh)):
            monkeypatch.setattr(sys, "stdin", io.StringIO(""))
            rc = main(["play", "--lang", lang, "--delay", "0", *extra])
            out, err = capsys.readouterr()
            assert rc == 2, (extra, lang)
            assert err.startswith("jxbot play: ") and words in err and err.count("\n") == 1, (extra, err)
            assert "Traceback" not in err and out == ""  # refused before any table is dealt
    with pytest.raises(SystemExit):  # the lowest values that make a match are still played
        main(["play", "--rounds", "x"])
    capsys.readouterr()
    rc, out = run_play(monkeypatch, capsys, [], "--lang", "en", "--fee", "0", "--silver", "0", "--stake", "1",
                       "--rounds", "1", "--turn-seconds", "0.5", "--claim-seconds", "0.5")
    assert rc == 0 and "== Match over (1 hand) ==" in out


class _Terminal(io.StringIO):
    """stdin at a terminal: Ctrl-D reads as an empty line, and the person can type on after it."""

    def isatty(self):
        return True


def test_ctrl_d_at_a_terminal_is_auto_play_the_player_can_take_back(monkeypatch, capsys):
    # Ctrl-D ended the input for good: the match played itself to the end and a typed `auto` was ignored
    lines = ["", "auto\n", "", ""]  # Ctrl-D, auto, then Ctrl-D twice: the end for good

    class Keys(_Terminal):
        def readline(self):
            return lines.pop(0) if lines else ""

    monkeypatch.setattr(sys, "stdin", Keys())
    rc = main(["play", "--seed", "7", "--hands", "1", "--delay", "0", "--lang", "en"])
    out = capsys.readouterr().out
    assert rc == 0 and "== Match over (1 hand) ==" in out
    first = out.index("(end of input: auto-play on)")
    assert out.index("(on auto-play: type auto to take your seat back)") > first
    assert out.index("you: auto-play off.") > first  # the typed `auto` took the seat back
    assert out.count("(end of input: auto-play on)") == 2  # and the second end of input is the end


async def test_a_pipe_ends_at_its_first_end_of_input_a_terminal_at_two_in_a_row():
    from jxbot.table.terminal import LineReader

    async def read_all(stream):
        reader = LineReader(stream)
        reader.start()
        got = []
        for _ in range(6):
            got.append(await reader.get())
            if reader.eof:
                break
        return got, reader.eof

    class Pipe(io.StringIO):
        pass

    class Tty(_Terminal):
        def __init__(self):
            super().__init__()
            self.lines = ["5m\n", "", "6m\n", "", ""]

        def readline(self):
            return self.lines.pop(0) if self.lines else ""

    assert await read_all(Pipe("5m\n")) == (["5m", None], True)
    assert await read_all(Tty()) == (["5m", None, "6m", None, None], True)


def test_a_typo_after_a_result_deals_no_hand_it_is_said_and_asked_again(monkeypatch, capsys):
    # anything but Enter, r, wall or quit dealt the next hand silently (a newcomer's `help` too)
    _winning_deal(monkeypatch)
    rc, out = run_play(monkeypatch, capsys, ["", "help", "xyz", "", "", "quit"], "--lang", "en", "--hands", "3")
    assert rc == 0
    assert "'help' is not one of the choices here: Enter deals the next hand." in out
    assert "'xyz' is not one of the choices here: Enter deals the next hand." in out
    pause = "Enter for the next hand (r = review, wall = see the wall, quit = leave) > "
    assert out.count(pause) == 4  # asked again after each typo
    assert "Hand 2 · " in out and "Hand 3 · " not in out and "== Match over (2 hands) ==" in out
    _winning_deal(monkeypatch)
    rc, out = run_play(monkeypatch, capsys, ["", "帮助", "quit"], "--lang", "zh", "--hands", "3")
    assert rc == 0 and "“帮助”不是这里的选项：回车开始下一局。" in out and "== 牌局结束（1 局）==" in out
