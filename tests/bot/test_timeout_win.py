"""RULES C through the bot: a turn left to time out on a winning self-draw wins (it used to discard the
winning tile). Alice, the dealer, is dealt 1112345678999m + 5m (天胡, 清一色) and presses nothing."""

from __future__ import annotations

import pytest

from jxbot.custom_ids import parse_custom_id
from jxbot.game import Match
from jxbot.game.scripted import scripted_hand
from jxbot.table import FakeClock

ALICE = 101
HANDS = {0: "11123456789995m", 1: "1234567z123p45s", 2: "2345678p2345s12z", 3: "6789s1234567p67z"}


@pytest.fixture
def scripted(monkeypatch):
    def next_hand(self):
        return scripted_hand(HANDS, indicator="9s", context=self.next_context())

    monkeypatch.setattr(Match, "next_hand", next_hand)


async def test_a_timed_out_turn_on_a_winning_draw_wins(harness, scripted):
    h, fake = harness, harness.fake
    cog = h.bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, 5
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = next(m for m in fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    runner = h.table().session.runner
    assert runner.hand.turn == 0 and runner.hand.drawn is not None
    panel = next(m for m in fake.dms(ALICE) if m.buttons)
    assert "tsumo" in {parse_custom_id(b["custom_id"]).verb for b in panel.buttons if b["custom_id"].startswith("mj:")}
    await h.advance(19.0)
    assert runner.hand_running and not runner.results  # the clock has not run out yet
    await h.advance(1.5)
    assert runner.results, "the timeout did not end the hand"
    result = runner.results[0]
    assert result["winner"] == 0 and result["self_draw"] and result["win_tile"] == 4
    assert result["payments"][0]["delta"] > 0
    assert any(m.attachments == ["result.png"] for m in fake.channel())
    assert await h.bot.store.check() == []
