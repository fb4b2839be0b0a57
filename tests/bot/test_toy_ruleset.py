"""Proof that a ruleset is a plug-in (issue 16): a toy variant defined only in this file registers and
plays whole hands in self-play, in the terminal (`jxbot play`) and through the bot's cogs, with no edit
anywhere else.

The toy is Jiaxing without a wildcard (``wildcard_mode="none"``) that also lets seven pairs win, scored as
its own item ``toy_seven_pairs`` (4 台) with its own label. It is the worked example of docs/rulesets.md.
"""

from __future__ import annotations

import io
import re
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from jxbot import i18n, rulesets
from jxbot.rules import JIAXING, Score, ScoreItem, parse_tiles
from jxbot.rulesets.jiaxing.plugin import Jiaxing

i18n.register({
    "bot.choice.ruleset.toy": {"zh": "七对", "en": "toy"},
    "item.toy_seven_pairs": {"zh": "七对子", "en": "Toy seven pairs"},
    "toy.summary": {"zh": "玩具规则：嘉兴麻将，没有百搭，七对子也可以胡（4 台）。",
                    "en": "Toy rules: Jiaxing without a wildcard; seven pairs also win (4 tai)."},
})


def _seven_pairs(tiles: Sequence[int], melds: Sequence[Any]) -> bool:
    c = Counter(tiles)
    return not melds and len(tiles) == 14 and all(n == 2 for n in c.values()) and len(c) == 7


class Toy(Jiaxing):
    name = "toy"

    def __init__(self) -> None:
        super().__init__(JIAXING.with_(name="toy", family="toy", wildcard_mode="none", seven_pairs=True))

    def rules_summary(self, lang: str | None, stake: int = 1) -> str:
        return i18n.t("toy.summary", lang)

    def is_winning(self, concealed, melds, wildcard, rs) -> bool:
        return super().is_winning(concealed, melds, wildcard, rs) or _seven_pairs(concealed, melds)

    def waits(self, concealed, melds, wildcard, rs) -> set[int]:
        return super().waits(concealed, melds, wildcard, rs) | {
            t for t in range(34) if _seven_pairs([*concealed, t], melds)}

    def score_win(self, concealed, win_tile, melds, *, rs, **context) -> Score:
        sc = super().score_win(concealed, win_tile, melds, rs=rs, **context)
        if not sc.winning and _seven_pairs([*concealed, win_tile], melds):
            stake = context.get("stake", 1)
            return Score(winning=True, tai=(ScoreItem("toy_seven_pairs", 4),), total_tai=4, stake=stake,
                         points=stake * 4, patterns=("toy_seven_pairs",))
        return sc


SEVEN_PAIRS = "11m33m55p77p22s44s6z6z"  # 14 tiles, the last one is the win tile


@pytest.fixture
def toy():
    plugin = rulesets.register(Toy())
    yield plugin
    rulesets.unregister("toy")


def test_the_toy_registers_and_the_rules_api_plays_it(toy):
    from jxbot.rules import get_ruleset, is_winning, score_win, waits

    assert "toy" in rulesets.names() and rulesets.get("toy") is toy
    assert isinstance(toy, rulesets.RulesetPlugin)
    hand = parse_tiles(SEVEN_PAIRS)
    assert is_winning(hand, ruleset="toy") and not is_winning(hand, ruleset="jiaxing")
    assert parse_tiles("6z")[0] in waits(hand[:-1], ruleset="toy")
    sc = score_win(hand[:-1], hand[-1], ruleset="toy", stake=3)
    assert sc.winning and sc.points == 12 and [i.name for i in sc.tai] == ["toy_seven_pairs"]
    assert i18n.t("item.toy_seven_pairs", "en") == "Toy seven pairs"
    assert get_ruleset("toy").wildcard_mode == "none"
    with pytest.raises(ValueError, match="unknown ruleset 'nope'"):
        get_ruleset("nope")


def test_the_toy_plays_whole_hands_in_self_play(toy):
    from jxbot.ai.selfplay import simulate
    from jxbot.game import Match

    res = simulate(40, ["normal", "easy", "easy", "easy"], "toy-sp", ruleset="toy", replay_every=5, strict=True)
    assert res["hands"] == 40 and res["invariant_violations"] == 0
    assert res["wins"] > 0
    hand = Match("toy-sp/match/0", ruleset="toy").next_hand()
    assert hand.wildcard is None and hand.view(0)["ruleset"] == "toy"


def test_a_seven_pairs_win_in_a_toy_hand_is_offered_scored_and_settled(toy):
    from jxbot.game import Hand
    from jxbot.game.scripted import scripted_hand

    # the dealer is dealt the seven pairs (its 14th tile is the last one): a self-drawn win from the start
    hand = scripted_hand({0: SEVEN_PAIRS}, ruleset="toy")
    assert hand.wildcard is None
    tsumo = [a for a in hand.view(0)["actions"] if a["type"] == "tsumo"]
    assert tsumo, "the toy's seven pairs are not offered as a win"
    hand.apply(tsumo[0])
    r = hand.result
    assert r is not None and r.winner == 0 and r.score is not None
    assert [i.name for i in r.score.tai] == ["toy_seven_pairs"] and r.score.points == 4
    s = hand.settle([None] * 4)
    assert s.deltas[0] == 12 and sum(s.deltas) + s.house_delta == 0  # three seats pay 4 each
    assert Hand.replay(hand.events).result_view() == hand.result_view()
    # the same wall under Jiaxing: seven pairs are no win there
    assert not [a for a in scripted_hand({0: SEVEN_PAIRS}).view(0)["actions"] if a["type"] == "tsumo"]


def test_the_toy_plays_in_the_terminal(toy, monkeypatch, capsys):
    from jxbot.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 200))
    rc = main(["play", "--seed", "7", "--hands", "2", "--delay", "0", "--lang", "en", "--ruleset", "toy"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Hand 1 · East round" in out and "== Match over (2 hands) ==" in out
    assert "item." not in out
    assert re.search(r"== (Winner|Draw)", out)


ALICE = 101


async def test_the_toy_plays_through_the_cogs(toy, harness):
    from jxbot.bot import JxTranslator
    from jxbot.table import FakeClock

    h = harness
    # what Discord receives at sync: /mahjong create offers the registered toy, with its own zh-CN name
    group = h.bot.tree.get_command("mahjong")
    payload = await group.get_translated_payload(h.bot.tree, JxTranslator())
    create = next(o for o in payload["options"] if o["name"] == "create")
    choices = next(o for o in create["options"] if o["name"] == "ruleset")["choices"]
    assert {c["value"]: c.get("name_localizations", {}).get("zh-CN") for c in choices} == {
        "jiaxing": "嘉兴", "caishen": "财神", "toy": "七对"}
    cog = h.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = "toy-bot"
    await h.command(ALICE, "mahjong create", stake=2, ruleset="toy")
    lobby = next(m for m in h.fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    runner = h.table().session.runner
    assert runner.match.ruleset.name == "toy" and runner.hand is not None and runner.hand.wildcard is None
    runner.config.max_hands = 2
    await runner.set_auto(0, True)
    await h.settle(timeout=60.0)  # generous: the machine may be loaded
    results = [m for m in h.fake.channel() if m.attachments == ["result.png"]]
    assert len(runner.results) == 2 and len(results) == 2
    # /mahjong rules and /mahjong score ask the toy
    await h.command(ALICE, "mahjong rules", ruleset="toy")
    assert "Toy rules" in h.fake.ephemerals(ALICE)[-1].content or "Toy rules" in (h.fake.channel()[-1].content or "")
    await h.command(ALICE, "mahjong score", tiles=SEVEN_PAIRS, stake=2, ruleset="toy")
    text = h.fake.ephemerals(ALICE)[-1].content
    assert "Toy seven pairs 4" in text and "= 8" in text
    await h.command(ALICE, "mahjong score", tiles=SEVEN_PAIRS, stake=2, ruleset="jiaxing")
    assert "not a winning hand" in h.fake.ephemerals(ALICE)[-1].content
