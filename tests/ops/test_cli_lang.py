"""Issue 26: one ``--lang`` for play, score, simulate, verify and replay: zh unless set (or JXBOT_LANG);
an unknown language is an error naming the allowed values, never a silent en."""

from __future__ import annotations

import pytest

from jxbot.cli import build_parser, main

COMMANDS = {"play": [], "score": ["1m"], "simulate": [], "verify": [], "replay": ["h1"]}


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_every_command_defaults_to_zh(monkeypatch, cmd):
    monkeypatch.delenv("JXBOT_LANG", raising=False)
    assert build_parser().parse_args([cmd, *COMMANDS[cmd]]).lang == "zh"
    monkeypatch.setenv("JXBOT_LANG", "en-US")
    assert build_parser().parse_args([cmd, *COMMANDS[cmd]]).lang == "en"
    assert build_parser().parse_args([cmd, *COMMANDS[cmd], "--lang", "zh-CN"]).lang == "zh"


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_an_unknown_language_is_an_error_naming_the_allowed_ones(monkeypatch, capsys, cmd):
    monkeypatch.delenv("JXBOT_LANG", raising=False)
    with pytest.raises(SystemExit) as exc:
        main([cmd, *COMMANDS[cmd], "--lang", "fr"])
    assert exc.value.code == 2
    assert "unknown language 'fr': use one of zh, en" in capsys.readouterr().err
    monkeypatch.setenv("JXBOT_LANG", "fr")
    with pytest.raises(SystemExit):
        main([cmd, *COMMANDS[cmd]])
    assert "unknown language 'fr': use one of zh, en (zh-CN, en-US… also work) (from JXBOT_LANG)" in \
        capsys.readouterr().err


def test_the_bot_config_refuses_an_unknown_jxbot_lang():
    from jxbot.config import ConfigError, Settings

    with pytest.raises(ConfigError, match="JXBOT_LANG: unknown language 'fr'"):
        Settings.from_mapping({"DISCORD_TOKEN": "x", "JXBOT_LANG": "fr"})
