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
    assert ts.parse(v, "") == a("discard", 27)  # Enter: the drawn tile
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
    assert "South·cpu1 and West·cpu2 are bound by a contract: [1] persist  [2] give up" in ts.prompt(con)
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
