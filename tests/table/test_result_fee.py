"""The result picture adds up (issue 24, finding 6): on every row 输赢 (won or lost at the table) and
服务费 (the fee) make the seat's balance change, for a real hand settled with a fee and drawn by the real
result-view code — and the demo picture is built the same way."""

from __future__ import annotations

import asyncio

import pytest

import render
import render.common as C
from render import demo, labels
from render.result import PAD, WIDTH

from .test_runner_game import play_defaults, table

COL_DELTA, COL_FEE, COL_BALANCE = PAD + 400, PAD + 590, WIDTH - PAD - 20


def _number(s: str) -> int | None:
    s = s.replace("−", "-").replace(",", "")
    return None if s in ("—", "") else int(s)


def settlement_rows(view: dict, lang: str, monkeypatch) -> list[tuple[int, int, int | None]]:
    """(输赢, 服务费, 余额) of each row as the picture draws them (the texts at the three columns)."""
    drawn: list[tuple[float, str, str | None]] = []
    real = C.text

    def text(dr, xy, s, *a, **k):
        drawn.append((xy[0], str(s), k.get("anchor")))
        return real(dr, xy, s, *a, **k)

    monkeypatch.setattr(C, "text", text)
    render.render_result(view, lang)
    monkeypatch.setattr(C, "text", real)
    start = [s for _, s, _ in drawn].index(labels.L("col.balance", lang)) + 1  # the settlement table's header
    cells = {c: [s for x, s, anchor in drawn[start:] if x == c and anchor == "rm"]
             for c in (COL_DELTA, COL_FEE, COL_BALANCE)}
    rows = list(zip(*(cells[c] for c in (COL_DELTA, COL_FEE, COL_BALANCE)), strict=True))
    assert len(rows) == 4
    return [(_number(d) or 0, -(_number(f) or 0), _number(b)) for d, f, b in rows]


@pytest.mark.parametrize("seed", [11, 12, 13])
async def test_a_live_hands_win_and_fee_columns_add_up_to_the_balance_change(seed, monkeypatch):
    wallets = {0: 1000, 1: 1000, 2: 1000}
    runner, *_ = table(seed, humans=(0, 1, 2), stake=10, fee=5, max_hands=1, wallets=wallets)
    runner.start()
    for _ in range(200):
        if runner.finished:
            break
        for seat in (0, 1, 2):
            await play_defaults(runner, seat, 1)
    await asyncio.wait_for(runner.wait_idle(), 10)
    assert runner.finished
    result = runner.results[0]
    for lang in ("zh", "en"):
        rows = settlement_rows(result, lang, monkeypatch)
        for seat, (won, fee, balance) in enumerate(rows):
            if seat in wallets:
                assert fee == 5, "every human seat pays the fee"
                assert balance is not None and won - fee == balance - wallets[seat], (seat, rows)
            else:
                assert fee == 0 and balance is None  # a computer seat: house-backed, no fee
                assert won == result["payments"][seat]["delta"]


def test_the_demo_picture_is_built_like_a_live_hands(monkeypatch):
    for drawn in (False, True):
        view = demo.result_view(drawn)
        before = (1280, 965, 2040, 715)
        rows = settlement_rows(view, "zh", monkeypatch)
        assert [won - fee for won, fee, _ in rows] == [b - before[i] for i, (_, _, b) in enumerate(rows)]
        assert all(fee == 2 for _, fee, _ in rows)
        # the same data as a live hand's (docs/views.md): delta is the whole balance change, the fee included
        assert [p["balance"] - before[p["seat"]] for p in view["payments"]] == [p["delta"] for p in view["payments"]]
    assert [won for won, _, _ in settlement_rows(demo.result_view(), "en", monkeypatch)] == [-60, -60, 180, -60]
