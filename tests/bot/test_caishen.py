"""The caishen (財神) ruleset through the bot, from raw payloads: /mahjong create offers it, the table plays it,
and the result line, /mahjong score, /stats and /history show its multiplier (×倍), not 台 / 番."""

from __future__ import annotations

import re

import pytest

from jxbot.bot import JxTranslator
from jxbot.table import FakeClock

ALICE = 101


@pytest.fixture
async def game(harness):
    cog = harness.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = "cs-bot-3"
    return harness


def _param(h, sub: str, name: str):
    group = h.bot.tree.get_command("mahjong")
    cmd = group.get_command(sub)
    return next(p for p in cmd.parameters if p.name == name)


@pytest.mark.parametrize("sub", ["create", "score"])
async def test_ruleset_choice_offers_caishen_with_its_chinese_name(harness, sub):
    # what Discord receives at sync: the choices with their zh-CN names
    group = harness.bot.tree.get_command("mahjong")
    payload = await group.get_translated_payload(harness.bot.tree, JxTranslator())
    cmd = next(o for o in payload["options"] if o["name"] == sub)
    ruleset = next(o for o in cmd["options"] if o["name"] == "ruleset")
    choices = {c["value"]: c.get("name_localizations", {}).get("zh-CN") for c in ruleset["choices"]}
    assert choices == {"jiaxing": "嘉兴", "caishen": "财神"}


async def start_caishen(h):
    await h.command(ALICE, "mahjong create", stake=2, ruleset="caishen")
    lobby = next(m for m in h.fake.channel() if m.buttons)
    assert "caishen" in lobby.content
    await h.click(ALICE, lobby, "开始")
    return h.table()


async def test_a_caishen_table_is_created_and_deals_caishen(game):
    h = game
    table = await start_caishen(h)
    runner = table.session.runner
    assert runner.config.ruleset == "caishen"
    assert runner.match.ruleset.name == "caishen"
    assert runner.hand is not None and runner.hand.ruleset.name == "caishen"
    assert h.fake.dms(ALICE) and h.fake.dms(ALICE)[-1].attachments == ["hand.png"]


async def test_caishen_results_stats_and_history_show_the_multiplier(game):
    h, fake = game, game.fake
    table = await start_caishen(h)
    runner = table.session.runner
    runner.config.max_hands = 3
    await runner.set_auto(0, True)  # a computer plays Alice's seat: the hands run to their end
    await h.settle()
    wins = [r for r in runner.results if r.get("winner") is not None and not r.get("drawn_game")]
    assert wins, "no caishen hand was won with this seed"
    results = [m for m in fake.channel() if m.attachments == ["result.png"]]
    assert len(results) == len(runner.results)
    for r, m in zip(runner.results, results, strict=True):
        if r in wins:
            sc = r["score"]
            mult = sc["points"] // sc["stake"]
            assert f"{sc['stake']} × {mult}倍 = {sc['points']}" in m.content
            assert "台" not in m.content and "番" not in m.content
    # /stats and /history: the store's caishen hands as ×倍
    won_by_alice = [r for r in wins if r["winner"] == 0]
    assert won_by_alice, "Alice's seat won no hand with this seed"
    await h.command(ALICE, "history")
    hist = fake.ephemerals(ALICE)[-1].content
    assert "台" not in hist
    if won_by_alice:
        assert re.search(r"×\d+倍", hist)
    await h.command(ALICE, "stats")
    stats = fake.ephemerals(ALICE)[-1].content
    assert "台" not in stats
    if won_by_alice:
        best = max(won_by_alice, key=lambda r: r["score"]["points"])
        assert f"{best['score']['points']} (×" in stats


async def test_score_command_caishen_gives_the_multiplier(harness):
    h = harness
    await h.command(ALICE, "mahjong score", tiles="123m456m789m123p55p", wildcard="5p", stake=2, ruleset="caishen")
    text = h.fake.ephemerals(ALICE)[-1].content
    assert "× 8 = 16" in text  # RULES B: a lone-caishen wait is ×8; 2 × 8 = 16
    assert "台" not in text and "番" not in text
    await h.command(ALICE, "mahjong score", tiles="123m456m789m123p55p", wildcard="5p", stake=2)
    # the same tiles under Jiaxing rules: no flush / all pungs, not a win (the ruleset option is what changed)
    assert "not a winning hand" in h.fake.ephemerals(ALICE)[-1].content


async def test_a_caishen_table_can_be_long_enough_to_reach_its_reseat(game):
    # a 版 is four rounds: /mahjong create must accept more than four, or no table ever reseats
    h = game
    rounds = _param(h, "create", "rounds")
    assert rounds.max_value == 8
    await h.command(ALICE, "mahjong create", stake=2, ruleset="caishen", rounds=8)
    lobby = next(m for m in h.fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    assert h.table().session.runner.config.rounds == 8
