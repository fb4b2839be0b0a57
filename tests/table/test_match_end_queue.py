"""RULES A7 (revised): the cumulative 番 queue ends with the match. The last result says it is dropped,
never "carried over" — in the stored result, the result picture and the terminal."""

from __future__ import annotations

import asyncio
import io

import pytest

import render
import render.common as C
from jxbot.table.terminal import LineReader, TerminalSeat

from .test_runner_game import table


async def _play_two_hands_with_a_queue():
    runner, clock, sink, _ = table(31, humans=(), max_hands=2)
    runner.match.queue = ("huang", "huang", "huang")  # a win takes one: some always remain
    results = await asyncio.wait_for(runner.run(), timeout=60)
    assert len(results) == 2 and all(r["cumulative_queue"] for r in results)
    return results, sink


def _texts(view: dict, lang: str, monkeypatch) -> str:
    drawn: list[str] = []
    real_text, real_pill = C.text, C.pill
    monkeypatch.setattr(C, "text", lambda dr, xy, s, *a, **k: drawn.append(str(s)) or real_text(dr, xy, s, *a, **k))
    monkeypatch.setattr(C, "pill", lambda dr, x, y, s, *a, **k: drawn.append(str(s)) or real_pill(dr, x, y, s, *a, **k))
    render.render_result(view, lang)
    monkeypatch.setattr(C, "text", real_text)
    monkeypatch.setattr(C, "pill", real_pill)
    return "\n".join(drawn)


async def test_only_the_last_result_of_a_match_says_so_and_it_is_stored_that_way():
    results, sink = await _play_two_hands_with_a_queue()
    assert [r["match_over"] for r in results] == [False, True]
    assert [sink.settlements[r["hand_id"]][1]["match_over"] for r in results] == [False, True]  # replays agree


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_result_picture_of_the_last_hand_says_the_queue_is_dropped(lang, monkeypatch):
    results, _ = await _play_two_hands_with_a_queue()
    first, last = (_texts(r, lang, monkeypatch) for r in results)
    carried = {"en": "Cumulative fan carried over", "zh": "累计番 · 留待后续"}[lang]
    dropped = {"en": "Match over · cumulative fan dropped", "zh": "牌局结束 · 累计番作废"}[lang]
    assert carried in first and dropped not in first
    assert dropped in last and carried not in last


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_terminal_says_the_queue_is_dropped_after_the_last_hand(lang):
    results, _ = await _play_two_hands_with_a_queue()
    said = []
    for r in results:
        out = io.StringIO()
        await TerminalSeat(out, lang, LineReader(io.StringIO("")), seat=0).on_result(r)
        said.append(out.getvalue())
    carried = {"en": "cumulative fan carried over", "zh": "累计番留到下局"}[lang]
    dropped = {"en": "the match is over: cumulative fan dropped", "zh": "牌局结束，累计番作废"}[lang]
    assert carried in said[0] and dropped not in said[0]
    assert dropped in said[1] and carried not in said[1]
