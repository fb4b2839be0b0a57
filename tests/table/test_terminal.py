"""The terminal seat: prompts and how typed answers are read."""

from __future__ import annotations

import asyncio
import io
import threading

from jxbot.table.terminal import LineReader, TerminalSeat, read_tile


def seat_view(phase, actions, **kw):
    seats = [{"seat": i, "seat_wind": i, "is_dealer": i == 0, "concealed_count": 13, "melds": [], "discards": [],
              "gave_up": False, "name": f"cpu{i}", "auto": False, "total": 0} for i in range(4)]
    v = {"hand_id": "h", "viewer": 0, "phase": phase, "turn": 0, "wildcard": 4, "indicator": 4, "seats": seats,
         "hand": [4, 0, 1, 2], "drawn": None, "actions": actions, "last_discard": None, "deadline": None,
         "pending_kong": None, "contract": None}
    v.update(kw)
    return v


def a(type_, tile=None):
    return {"type": type_, "seat": 0, "tile": tile}


def make(lang="en"):
    out = io.StringIO()
    return TerminalSeat(out, lang, LineReader(io.StringIO("")), seat=0), out


def test_claim_prompt_numbers_each_option_and_enter_passes():
    ts, _ = make()
    v = seat_view("claim", [a("hu"), a("peng"), a("chi", 0), a("chi", 1), a("pass")],
                  last_discard={"seat": 3, "tile": 2})
    p = ts.prompt(v)
    assert "West·cpu3" not in p and "North·cpu3 discarded 3m" in p
    assert "[1] win  [2] pung  [3] chow 1m 2m 3m  [4] chow 2m 3m 4m" in p and "Enter = pass" in p
    assert ts.parse(v, "3") == a("chi", 0) and ts.parse(v, "4") == a("chi", 1)
    assert ts.parse(v, "") == a("pass") and ts.parse(v, "0") == a("pass")
    assert ts.parse(v, "hu") == a("hu") and ts.parse(v, "9") is None


def test_turn_discards_by_tile_name_in_either_language_and_marks_the_wildcard():
    ts, out = make("zh")
    v = seat_view("turn", [a("discard", t) for t in (0, 1, 2, 4, 27)] + [a("tsumo")], drawn=27)
    assert ts.parse(v, "") == a("tsumo")  # Enter on a winning draw wins (RULES C), as a timeout does
    assert ts.parse(v, "2m") == a("discard", 1) and ts.parse(v, "2万") == a("discard", 1)
    assert ts.parse(v, "东") == a("discard", 27) and ts.parse(v, "east") == a("discard", 27)
    assert ts.parse(v, "1") == a("tsumo") and ts.parse(v, "自摸") == a("tsumo")
    assert ts.parse(v, "9p") is None  # not held
    ts.board(v)
    assert "你的手牌: *5万 1万 2万 3万  摸到: 东" in out.getvalue()


def test_rob_and_contract_prompts_name_the_seats():
    ts, _ = make()
    rob = seat_view("rob", [a("hu"), a("pass")], pending_kong={"seat": 2, "tile": 31})
    assert "West·cpu2 adds a kong of White; you may rob it: [1] win" in ts.prompt(rob)
    con = seat_view("contract", [a("persist"), a("give_up")], contract=[1, 2])
    assert "South·cpu1 and West·cpu2 are bound by a contract" in ts.prompt(con)
    assert "[1] persist  [2] give up; Enter = persist" in ts.prompt(con)
    assert ts.parse(con, "") == a("persist") and ts.parse(con, "2") == a("give_up")


def test_read_tile():
    assert read_tile("5p") == 13 and read_tile("5筒") == 13 and read_tile("中") == 33 and read_tile("Red") == 33
    assert read_tile("0m") is None and read_tile("x") is None


class SlowStream:
    """stdin whose lines arrive only when the test releases them."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.go = threading.Event()

    def readline(self):
        self.go.wait(10)
        return self.lines.pop(0) if self.lines else ""


def test_the_reader_thread_ends_quietly_when_the_loop_closed_while_input_was_still_coming():
    failures = []
    old_hook = threading.excepthook
    threading.excepthook = lambda args: failures.append(args.exc_value)
    try:
        stream = SlowStream(["5m\n", "6m\n", "7m\n"])
        reader = LineReader(stream)

        async def main():
            reader.start()

        asyncio.run(main())  # the loop is closed now: the match ended before the player typed
        stream.go.set()
        reader.thread.join(5)
        assert not reader.thread.is_alive()
        assert failures == []
        assert stream.lines == ["6m\n", "7m\n"]  # it stopped at the first line nobody could take
    finally:
        threading.excepthook = old_hook


async def test_a_stopped_reader_delivers_nothing_more():
    stream = SlowStream(["5m\n", "6m\n"])
    reader = LineReader(stream)
    reader.start()
    reader.stop()
    stream.go.set()
    await asyncio.to_thread(reader.thread.join, 5)
    assert not reader.thread.is_alive() and reader.queue.empty()


async def test_a_reseat_tells_the_player_the_new_seat_and_prompts_follow_it():
    ts, out = make("en")
    await ts.on_reseat({"kind": "reseat", "moves": [2, 0, 3, 1], "seat": 2, "old_seat": 0,
                        "names": ["cpu1", "cpu3", "me", "cpu2"]})
    text = out.getvalue()
    assert "you move from East to West (East deals)" in text
    assert "  West: you" in text and "  East: cpu1" in text
    v = seat_view("claim", [a("pass")], viewer=2, last_discard={"seat": 2, "tile": 2})
    assert "you discarded" in ts.prompt(v)  # the terminal now speaks of seat 2 as "you"
    await ts.on_reseat({"kind": "reseat", "moves": [0, 1, 2, 3], "seat": 2, "old_seat": 2, "names": ["a", "b", "me", "c"]})
    assert "you stay at West" in out.getvalue()


def test_enter_follows_the_timeout_rule():
    ts, _ = make("en")
    plain = seat_view("turn", [a("discard", t) for t in (0, 1, 2, 4, 27)], drawn=27)
    assert ts.parse(plain, "") == a("discard", 27)  # the drawn tile
    assert "Enter = discard East" in ts.prompt(plain)
    win = seat_view("turn", [a("tsumo", 27)] + [a("discard", t) for t in (0, 1, 2, 4, 27)], drawn=27)
    assert ts.parse(win, "") == a("tsumo", 27) and "Enter = self-draw win" in ts.prompt(win)
    # a drawn 百搭 is kept: without a runner to ask, the last tile of the sorted hand goes
    wild = seat_view("turn", [a("discard", t) for t in (0, 1, 2, 4)], hand=[4, 0, 1, 2], drawn=4)
    assert ts.parse(wild, "") == a("discard", 2)


def test_a_typed_tile_that_is_not_held_says_so():
    ts, _ = make("zh")
    v = seat_view("turn", [a("discard", t) for t in (0, 1, 2, 4, 27)], drawn=27)
    assert ts.parse(v, "9p") is None
    assert ts.why_not(v, "9p") == "你手里没有9筒。"
    assert ts.why_not(v, "zz") == "看不懂“zz”。输入 help 查看帮助。"
    assert ts.why_not(v, "7") == "没有第 7 项。"
    claim = seat_view("claim", [a("peng"), a("pass")], last_discard={"seat": 3, "tile": 2})
    assert "现在不是你出牌" in ts.why_not(claim, "1m") and "回车 = 过" in ts.why_not(claim, "1m")


def test_a_caishen_table_says_caishen_not_wildcard():
    ts, out = make("zh")
    v = seat_view("turn", [a("discard", t) for t in (0, 1, 2, 4, 27)], drawn=27, ruleset="caishen")
    ts.board(v)
    text = out.getvalue()
    assert "财神 5万" in text and "（*为财神，" in text and "百搭" not in text


def test_contract_prompt_explains_persist_and_give_up():
    ts, _ = make("en")
    con = seat_view("contract", [a("persist"), a("give_up")], contract=[1, 2])
    p = ts.prompt(con)
    assert "persist = play on and you can still win" in p and "if one of them wins, you pay ×2" in p
    assert "give up = you pay nothing this hand, but you may only draw and discard: no claims, no win" in p


def test_board_columns_line_up_for_chinese_names():
    from jxbot.table.terminal import width

    ts, out = make("zh")
    v = seat_view("turn", [a("discard", 0)], drawn=None)
    for sv, name in zip(v["seats"], ["你", "林青", "Kobayashi", "电脑3"], strict=True):
        sv["name"] = name
    ts.board(v)
    rows = [line for line in out.getvalue().splitlines() if " 分 " in line]
    assert len(rows) == 4
    assert len({width(r.split(" 分 ")[0]) for r in rows}) == 1  # the score column starts at one place


class TtyOut(io.StringIO):
    def isatty(self):
        return True


class TtyIn:
    """A terminal's stdin that the test types into (no reader thread)."""

    def isatty(self):
        return True

    def readline(self):  # pragma: no cover - the thread is not started
        return ""


class FakeRunner:
    def __init__(self):
        from jxbot.table import SeatInfo

        self.seats = [SeatInfo("me")] + [SeatInfo.computer(f"cpu{i}") for i in (1, 2, 3)]
        self.submitted = []
        self.skips = 0
        self.match_over = False
        self.running = True
        self.hand_running = False
        self.hand = None

        class Config:
            fee = 5

        self.config = Config()

    async def submit(self, seat, action):
        self.submitted.append(action)
        return None

    def skip_pause(self):
        self.skips += 1
        self.hand_running = True


def tty_seat(lang="en"):
    from jxbot.table import FakeClock

    clock = FakeClock()
    reader = LineReader(TtyIn())
    ts = TerminalSeat(TtyOut(), lang, reader, seat=0, clock=clock)
    ts.runner = FakeRunner()
    return ts, clock, reader


async def test_the_countdown_ticks_at_the_start_of_the_input_line():
    from jxbot.table.clock import settle

    ts, clock, reader = tty_seat()
    v = seat_view("claim", [a("peng"), a("pass")], last_discard={"seat": 3, "tile": 2}, deadline=clock.now() + 5)
    task = asyncio.create_task(ts._ask(v))
    await settle()
    assert ts.out.getvalue().endswith("( 5 s) > ")
    await clock.advance(2.0)
    # DEC save cursor, column 0, the time left, restore cursor: what the player typed stays put
    assert ts.out.getvalue().endswith("\x1b7\r( 4 s) > \x1b8\x1b7\r( 3 s) > \x1b8")
    reader.queue.put_nowait("")
    await settle()
    assert task.done() and ts.runner.submitted[-1].type.value == "pass"
    n = len(ts.out.getvalue())
    await clock.advance(3.0)
    assert len(ts.out.getvalue()) == n  # the answered prompt's clock stopped


async def test_input_typed_before_the_prompt_is_dropped_not_taken():
    from jxbot.table.clock import settle

    ts, clock, reader = tty_seat()
    reader.queue.put_nowait("peng")  # typed while the computers were playing
    v = seat_view("claim", [a("peng"), a("pass")], last_discard={"seat": 3, "tile": 2})
    task = asyncio.create_task(ts._ask(v))
    await settle()
    assert "(ignored 'peng': typed before your turn)" in ts.out.getvalue()
    assert not task.done() and ts.runner.submitted == []  # the prompt still waits for an answer
    reader.queue.put_nowait("1")
    await settle()
    assert ts.runner.submitted[-1].type.value == "peng"


async def test_after_a_result_enter_deals_the_next_hand():
    from jxbot.table.clock import settle

    ts, clock, reader = tty_seat()
    await ts.on_result({"drawn_game": True, "winner": None, "payments": []})
    await settle()
    assert ts.out.getvalue().endswith("Enter for the next hand (quit = leave) > ")
    assert ts.runner.skips == 0  # the next hand waits for the player
    reader.queue.put_nowait("")
    await settle()
    assert ts.runner.skips == 1


async def test_the_result_says_why_payments_differ_from_the_formula():
    ts, clock, reader = tty_seat("zh")
    ts.runner.match_over = True
    result = {"winner": 0, "self_draw": False, "discarder": 1, "robbed_from": 1, "win_tile": 2, "hand": [],
              "melds": [], "contract": [0, 1], "gave_up": [3], "escaped": [], "ruleset": "jiaxing",
              "score": {"tai": [{"name": "qingyise", "value": 4}], "fan": [], "total_tai": 4, "total_fan": 0,
                        "stake": 5, "points": 20},
              "payments": [{"seat": 0, "name": "我", "delta": 200, "total": 200, "fee": 0, "balance": None},
                           {"seat": 1, "name": "林青", "delta": -160, "total": -160, "fee": 0, "balance": None},
                           {"seat": 2, "name": "cpu2", "delta": -40, "total": -40, "fee": 0, "balance": None},
                           {"seat": 3, "name": "cpu3", "delta": 0, "total": 0, "fee": 0, "balance": None}]}
    await ts.on_result(result)
    text = ts.out.getvalue()
    assert "林青 [抢杠] [承包]" in text and "-160 ×8" in text  # robbed (×3) + contract partner (×5)
    assert "cpu2" in text and "-40 ×2" in text and "cpu3 [放弃]" in text
    assert "抢杠：补杠被抢" in text and "承包：两家互为承包" in text and "放弃：这一局不付分" in text
    assert "逃跑" not in text
    rows = [line for line in text.splitlines() if "合计" in line]
    from jxbot.table.terminal import width

    assert len(rows) == 4 and len({width(line[:line.index("合计")]) for line in rows}) == 1  # columns line up


async def test_odd_typing_is_answered_at_the_prompt_and_quoted_back_short_and_harmless():
    """A superscript digit (isdigit but no int) killed the prompt: nothing answered any more until the clock ran
    out; a pasted page was quoted back whole; an arrow key's escape sequence was written raw into the zh message
    (moving the cursor)."""
    from jxbot.table.clock import settle

    for lang, bad in (("en", "Cannot read '{}'. Type help for help."), ("zh", "看不懂“{}”。输入 help 查看帮助。")):
        ts, clock, reader = tty_seat(lang)
        v = seat_view("claim", [a("peng"), a("pass")], last_discard={"seat": 3, "tile": 2})
        task = asyncio.create_task(ts._ask(v))
        await settle()
        for typed in ("²", "①", "9" * 5000, "x" * 5000, "\x1b[A", "😀🀄"):
            reader.queue.put_nowait(typed)
            await settle()
            assert not task.done(), (lang, typed[:5])  # still asking
        text = ts.out.getvalue()
        assert bad.format("²") in text and bad.format("①") in text and bad.format("😀🀄") in text
        assert bad.format("x" * 40 + "…") in text and "x" * 41 not in text
        assert "9" * 41 not in text and ("There is no option " + "9" * 40 + "…" in text or "没有第 " + "9" * 40 + "… 项" in text)
        assert "\x1b[A" not in text and bad.format("\\x1b[A") in text
        reader.queue.put_nowait("1")  # the prompt still takes an answer
        await settle()
        assert task.done() and ts.runner.submitted[-1].type.value == "peng"


def test_a_claim_is_named_by_its_word_in_either_language_as_the_game_offers_it():
    """The game offers 碰 / 杠 / 吃 with their tile; a typed 碰 / pung / peng matched only tile-less actions, so it
    was "Cannot read 'pung'" at the very prompt that offered "[1] pung 8p" — and 胡 with no win on offer too."""
    for lang in ("en", "zh"):
        ts, _ = make(lang)
        pung = seat_view("claim", [a("peng", 16), a("pass")], last_discard={"seat": 1, "tile": 16})
        for word in ("pung", "peng", "碰", "PUNG"):
            assert ts.parse(pung, word) == a("peng", 16), (lang, word)
        assert ts.parse(pung, "过") == a("pass") and ts.parse(pung, "pass") == a("pass")
        assert ts.parse(pung, "胡") is None
        assert ts.why_not(pung, "hu") == ("'hu' is not one of the options now: pick one above (Enter = pass)."
                                          if lang == "en" else "现在不能“hu”：请从上面的选项里选（回车 = 过）。")
        chows = seat_view("claim", [a("chi", 14), a("chi", 15), a("pass")], last_discard={"seat": 3, "tile": 16})
        assert ts.parse(chows, "吃") is None and ts.parse(chows, "2") == a("chi", 15)
        assert ts.why_not(chows, "chow") == ("More than one option is 'chow': type its number." if lang == "en"
                                             else "有几个“chow”可选：请输入它的编号。")
        one = seat_view("claim", [a("chi", 14), a("pass")], last_discard={"seat": 3, "tile": 16})
        assert ts.parse(one, "chow") == a("chi", 14) and ts.parse(one, "吃") == a("chi", 14)
        turn = seat_view("turn", [a("discard", 0), a("tsumo")], drawn=0)
        assert ts.parse(turn, "胡") == a("tsumo") and ts.parse(turn, "win") == a("tsumo")
        assert ts.why_not(turn, "xyz").startswith("Cannot read" if lang == "en" else "看不懂")
