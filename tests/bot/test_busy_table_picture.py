"""A busy bot (table pictures queueing for the drawing thread) redraws a table message's picture at most
every BUSY_PICTURE_EVERY seconds; its status text still follows every move, and once the bot is no
longer busy the picture shows the latest state."""

import pytest

from jxbot.table import FakeClock

from .test_play import ALICE, discard_buttons, panel, start_table


@pytest.fixture
async def game(harness):
    cog = harness.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = 7
    return harness


async def test_a_busy_bot_edits_the_status_text_and_paces_the_picture(game, monkeypatch):
    h = game
    table = await start_table(h)
    await h.settle()
    msg = h.fake.messages[table.table_message_id]
    assert msg.attachments  # the first picture
    # the module the running table's code comes from (cogs are extensions: loaded afresh per bot)
    play = type(table.session.observer).push.__globals__
    drawn: list[dict] = []
    real = play["render_async"]

    async def counting(kind, view, lang, **kw):
        if kind == "table":
            drawn.append(view)
        return await real(kind, view, lang, **kw)

    monkeypatch.setitem(play, "render_async", counting)
    monkeypatch.setitem(play, "background_pictures_waiting", lambda: 99)  # busy from now on
    monkeypatch.setitem(play, "BUSY_PICTURE_EVERY", 1000.0)
    n_texts = len(msg.content_history)
    for _ in range(2):
        p = panel(h.fake, ALICE)
        await h.click(ALICE, p, custom_id=discard_buttons(p)[0]["custom_id"])
        await h.settle()
        await h.advance(1.0)
    runner = table.session.runner
    assert drawn == []  # no picture while busy
    assert len(msg.content_history) > n_texts  # but the status followed the moves
    assert msg.content == play["status_text"](runner.public_view(), table.lang)
    assert msg.attachments  # the last picture stays on the message
    monkeypatch.setitem(play, "background_pictures_waiting", lambda: 0)  # not busy: the picture catches up
    table.session.observer.view = runner.public_view()
    h.bot.coalescer.submit(("table", table.id), table.session.observer.push)
    await h.settle()
    assert len(drawn) == 1
    assert drawn[-1]["seats"][0]["discards"] == runner.public_view()["seats"][0]["discards"]
