"""A 財神 match is one 版 (four rounds) unless its creator chooses another length (RULES B11): the ruleset's
own match length is the default wherever a table is made — the runner's config, the Discord lobby's config,
``jxbot play`` — asked of the ruleset object, so a plug-in's length is the default of its tables too.
(The Discord command: tests/bot/test_match_length.py.)"""

from __future__ import annotations

import io
import sys

from cogs.lobby import TableConfig as LobbyConfig
from jxbot.cli import main
from jxbot.rules import get_ruleset
from jxbot.table import SeatInfo, TableConfig, TableRunner


def seats():
    return [SeatInfo("me", user_id=7)] + [SeatInfo.computer(f"cpu{i}") for i in (1, 2, 3)]


def test_a_default_caishen_runner_plays_one_ban_and_a_jiaxing_one_east_round():
    assert TableRunner(seats(), TableConfig(ruleset="caishen", seed=1)).match.rounds == 4
    assert TableConfig(ruleset="caishen").rounds == 4
    assert TableRunner(seats(), TableConfig(ruleset="jiaxing", seed=1)).match.rounds == 1
    assert TableRunner(seats(), TableConfig(seed=1)).match.rounds == 1
    # the creator may still choose
    assert TableRunner(seats(), TableConfig(ruleset="caishen", rounds=1, seed=1)).match.rounds == 1
    assert TableRunner(seats(), TableConfig(ruleset="caishen", rounds=6, seed=1)).match.rounds == 6
    # a stored config keeps the length it was made with
    assert TableConfig.from_json(TableConfig(ruleset="caishen", rounds=2).to_json()).rounds == 2


def test_a_default_caishen_lobby_table_plays_one_ban():
    assert LobbyConfig(ruleset="caishen").rounds == 4
    assert LobbyConfig().rounds == 1
    assert LobbyConfig(ruleset="caishen", rounds=3).rounds == 3


def test_the_default_is_asked_of_the_ruleset_object_not_its_name():
    from jxbot import rulesets
    from jxbot.rulesets.jiaxing.plugin import Jiaxing

    class Long(Jiaxing):
        name = "long-east"

        def __init__(self) -> None:
            super().__init__(get_ruleset("jiaxing").with_(name="long-east", family="jiaxing", match_rounds=3))

    rulesets.register(Long())
    try:
        assert TableConfig(ruleset="long-east").rounds == 3
        assert LobbyConfig(ruleset="long-east").rounds == 3
    finally:
        rulesets.unregister("long-east")


def test_jxbot_play_caishen_plays_one_ban_by_default(monkeypatch, capsys):
    made: list[int] = []
    real_init = TableRunner.__init__

    def init(self, *a, **kw):
        real_init(self, *a, **kw)
        made.append(self.match.rounds)

    monkeypatch.setattr(TableRunner, "__init__", init)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 400))
    assert main(["play", "--seed", "7", "--hands", "1", "--delay", "0", "--ruleset", "caishen"]) == 0
    assert made == [4]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 400))
    assert main(["play", "--seed", "7", "--hands", "1", "--delay", "0", "--ruleset", "caishen", "--rounds", "2"]) == 0
    assert made == [4, 2]
    capsys.readouterr()
