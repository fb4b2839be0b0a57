import subprocess
import sys

import pytest

from jxbot.config import ConfigError, Settings, parse_dotenv


def test_dotenv_parsing_comments_quotes_export():
    env = parse_dotenv("# c\nexport A=1\nB='x y'\nC=\"q#r\"\nD=plain # trailing\n\nE=\n")
    assert env == {"A": "1", "B": "x y", "C": "q#r", "D": "plain", "E": ""}


def test_dotenv_bad_line_names_line():
    with pytest.raises(ConfigError, match="line 2"):
        parse_dotenv("A=1\nnot a setting\n")


def test_environment_wins_over_env_file(tmp_path):
    f = tmp_path / ".env"
    f.write_text("JXBOT_FEE=3\nDEV_GUILD_ID=42\nSILVER_SCOPE=global\n")
    s = Settings.load(f, environ={"JXBOT_FEE": "7"})
    assert s.fee == 7 and s.dev_guild_id == 42 and s.silver_scope == "global"


def test_defaults_without_anything(tmp_path):
    s = Settings.load(tmp_path / "missing.env", environ={})
    assert s.discord_token is None and s.db_path == "jxbot.sqlite3" and s.claim_window == 5.0
    assert s.turn_seconds == 20.0 and s.contract_seconds == 15.0


@pytest.mark.parametrize("key,value", [("DEV_GUILD_ID", "abc"), ("SILVER_SCOPE", "planet"),
                                       ("JXBOT_CLAIM_WINDOW", "0"), ("LOG_LEVEL", "LOUD"),
                                       ("DISCORD_API_BASE", "ftp://x"), ("JXBOT_FEE", "-1")])
def test_bad_values_name_the_setting(key, value):
    with pytest.raises(ConfigError, match=key):
        Settings.from_mapping({key: value})


def test_token_never_in_repr_or_describe():
    s = Settings.from_mapping({"DISCORD_TOKEN": "MTIz.secret.token"})
    assert "secret" not in repr(s) and "secret" not in str(s) and "secret" not in s.describe()
    assert "DISCORD_TOKEN=(set)" in s.describe()


def test_env_example_lists_every_setting():
    from pathlib import Path

    text = Path(__file__).resolve().parents[2].joinpath(".env.example").read_text()
    keys = set(parse_dotenv(text))
    assert keys == set(Settings.ENV.values())


def test_run_without_token_explains_and_exits_2(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve().parents[2])}
    p = subprocess.run([sys.executable, "-m", "jxbot.cli", "run", "--env-file", str(tmp_path / "none")],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert p.returncode == 2
    assert "DISCORD_TOKEN" in p.stderr and "Reset Token" in p.stderr and "jxbot play" in p.stderr
