"""The picture pace (JXBOT_PICTURE_PACE, issue 28): table pictures drawn at most so many a second across the
channels, whichever route their edits take (an interaction token's edit is free, its picture is not): a table
whose turn has not come waits for its slot and is then edited once, with the latest state."""

import pytest

from jxbot.edit_coalescer import PicturePace
from jxbot.table import FakeClock

from .test_play import ALICE, discard_buttons, panel, start_table


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_slots_come_in_order_at_the_rate_with_an_idle_seconds_burst():
    clock = Clock()
    pace = PicturePace(4.0, clock=clock)
    assert [pace.claim() for _ in range(4)] == [0.0] * 4  # an idle second's worth at once
    waits = [pace.claim() for _ in range(3)]
    assert waits == pytest.approx([0.25, 0.5, 0.75])  # then one every 1/rate s, first come first served
    clock.t += 0.5
    assert pace.claim() == pytest.approx(0.5)  # the slots already given are kept
    clock.t += 60.0
    assert [pace.claim() for _ in range(4)] == [0.0] * 4  # the burst is one second's worth
    assert pace.claim() == pytest.approx(0.25)
    pace.charge()  # a picture drawn out of turn (at once) takes a slot too: the next ones come after it
    assert pace.claim() == pytest.approx(0.75)
    assert PicturePace(0.0, clock=clock).claim() == 0.0  # 0: no pace


@pytest.fixture
async def game(harness):
    cog = harness.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = 7
    return harness


async def test_a_table_waiting_for_its_picture_slot_is_edited_once_in_it_with_the_latest_state(game, monkeypatch):
    h = game
    table = await start_table(h)
    await h.settle()
    msg = h.fake.messages[table.table_message_id]
    assert msg.attachments  # the first picture
    play = type(table.session.observer).push.__globals__
    drawn: list[dict] = []
    real = play["render_async"]

    async def counting(kind, view, lang, **kw):
        if kind == "table":
            drawn.append(view)
        return await real(kind, view, lang, **kw)

    monkeypatch.setitem(play, "render_async", counting)
    clock = Clock()
    h.bot.picture_pace = PicturePace(0.01, clock=clock)  # a picture every 100 s (of this clock), the first at once
    n_texts = len(msg.content_history)
    for _ in range(3):
        p = panel(h.fake, ALICE)
        await h.click(ALICE, p, custom_id=discard_buttons(p)[0]["custom_id"])
        await h.settle()
        await h.advance(1.0)
    runner = table.session.runner
    assert len(drawn) == 1, "one picture in the pace's burst, the next slot 100 s away"
    assert len(msg.content_history) == n_texts + 1  # the one edit; none while waiting for the slot
    assert msg.content != play["status_text"](runner.public_view(), table.lang)  # (the moves since: not yet)
    clock.t += 100.0  # the slot has come: one edit, its picture and text with the latest state
    table.session.observer._picture_due()
    await h.settle()
    assert len(drawn) == 2
    assert drawn[-1]["seats"][0]["discards"] == runner.public_view()["seats"][0]["discards"]
    assert msg.content == play["status_text"](runner.public_view(), table.lang)
    assert len(msg.content_history) == n_texts + 2
