"""A caishen reseat (RULES B11) through the bot: after a 版 the players draw new seats; the lobby's seats,
Alice's Discord seat, her panel and her buttons follow her, the channel is told, and a restart resumes
with the new seats. (A 版 is shortened to one round so the test reaches a reseat quickly.)"""

from __future__ import annotations

import copy

import pytest

from jxbot.bot import parse_custom_id
from jxbot.game import Match
from jxbot.rulesets.caishen.plugin import CAISHEN
from jxbot.table import FakeClock, TableRunner

from .conftest import Harness, _shutdown, make_bot

ALICE = 101
PAUSE = 10_000.0


@pytest.fixture
def short_ban(monkeypatch):
    def new_match(self):
        c = self.config
        return Match(c.seed, ruleset=CAISHEN.with_(cs_rounds_per_ban=1), rounds=c.rounds, stake=c.stake, fee=c.fee,
                     max_hands=c.max_hands)

    monkeypatch.setattr(TableRunner, "_new_match", new_match)


def reseat_notices(fake):
    return [m for m in fake.channel() if "版" in (m.content or "") and "抽" in (m.content or "")]


async def play_until_reseat(h, runner):
    for _ in range(60):
        await h.settle()
        if reseat_notices(h.fake):
            return
        await h.advance(PAUSE)  # the pause between hands
    raise AssertionError("no reseat happened")


async def test_reseat_moves_the_player_her_panel_and_buttons_and_survives_a_restart(
        fake, monkeypatch, store, short_ban):
    bot1 = await make_bot(fake, monkeypatch, store=store)
    h = Harness(bot1, fake)
    cog = bot1.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, "reseat-bot-1"
    await h.command(ALICE, "mahjong create", stake=1, ruleset="caishen", rounds=2)
    lobby = next(m for m in fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    table = h.table()
    session = table.session
    runner = session.runner
    runner.config.between_hands = PAUSE  # the table waits (on the fake clock) after each hand
    panel_msg = table.panels[0]
    before = copy.deepcopy(fake.dms(ALICE)[-1])  # Alice's panel as her client shows it, seat 0's buttons
    old_buttons = [b for b in before.buttons if parse_custom_id(b["custom_id"]).verb == "discard"]
    assert old_buttons
    await runner.set_auto(0, True)
    await play_until_reseat(h, runner)
    moves = next(r["reseat"] for r in runner.match.results if "reseat" in r)
    new = moves[0]
    # everyone agrees where Alice sits now
    assert runner.seat_of_user(ALICE) == new
    assert table.seat_of(ALICE) == new
    assert set(session.seats) == {new} and session.seats[new].seat == new
    assert table.panels == {new: panel_msg}  # the same DM message stays her panel
    for o, s in zip(table.seats, runner.seats, strict=True):  # every computer moved with its number too
        assert o.user_id == s.user_id and (not o.is_computer or s.name.endswith(o.name.lstrip("#")))
    # the channel is told, with Alice at her new wind
    notice = reseat_notices(fake)[-1].content
    from jxbot.rules.tiles import wind_name

    assert f"{wind_name(new, table.lang)} · <@{ALICE}>" in notice
    # a button shown before the reseat is taken no more
    n_actions = len(runner.hand.events) if hasattr(runner.hand, "events") else None
    await h.click(ALICE, before, custom_id=old_buttons[0]["custom_id"])
    said = fake.last_ephemeral(ALICE)
    assert ("expired" in said) if new == 0 else ("another player" in said)  # seat 0 is someone else's now
    if n_actions is not None:
        assert len(runner.hand.events) == n_actions
    # the saved state has the new seats: a restart resumes Alice at her new seat
    saved = (await store.running_tables())[0].state
    assert [o and o.get("user_id") for o in saved["bot_table"]["seats"]].index(ALICE) == new
    assert [s.get("user_id") for s in saved["runner"]["seats"]].index(ALICE) == new
    await runner.pause()
    await _shutdown(bot1)

    bot2 = await make_bot(fake, monkeypatch, store=store)
    h2 = Harness(bot2, fake)
    cog2 = bot2.get_cog("TablesCog")
    cog2.clock, cog2.computer_delay = FakeClock(), 0.0
    assert await cog2.resume_all() == 1
    await h2.settle()
    table2 = h2.table()
    assert table2.seat_of(ALICE) == new
    assert table2.session.runner.seat_of_user(ALICE) == new
    assert set(table2.session.seats) == {new}
    await table2.session.runner.pause()
    await _shutdown(bot2)
