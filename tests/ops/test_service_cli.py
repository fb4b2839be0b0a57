"""Running jxbot as a service, as the admin following the README does it: `jxbot init` writes the commented
.env (the same text as the repo's .env.example) and never overwrites one, `jxbot systemd-unit` prints the unit,
the backup/restore drill gives back the same books, and piping a command into `head` ends quietly."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from jxbot.cli import main
from jxbot.commands.init import env_example
from tests.store.test_check import build

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JXBOT_", "DISCORD_"))}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-m", "jxbot.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def test_the_shipped_env_example_is_the_repos():
    assert (REPO / "jxbot" / "env.example").read_text(encoding="utf-8") == \
        (REPO / ".env.example").read_text(encoding="utf-8"), "copy .env.example to jxbot/env.example"
    assert env_example() == (REPO / ".env.example").read_text(encoding="utf-8")
    pyproject = (REPO / "pyproject.toml").read_text()
    assert 'jxbot = ["env.example"]' in pyproject  # shipped in the wheel, not only in the checkout


def test_init_writes_the_commented_env_and_says_what_to_fill_in(tmp_path):
    folder = tmp_path / "var" / "lib" / "jxbot"  # created when missing
    proc = cli("init", str(folder), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    env = folder / ".env"
    assert env.read_text(encoding="utf-8") == (REPO / ".env.example").read_text(encoding="utf-8")
    assert stat.S_IMODE(env.stat().st_mode) == 0o600  # it will hold the token
    assert "DISCORD_TOKEN=" in proc.stdout and "JXBOT_DB=" in proc.stdout and str(env) in proc.stdout
    # and the bot reads it: with the token still empty, `jxbot run` there says how to get one (exit 2)
    run = cli("run", cwd=folder)
    assert run.returncode == 2 and "no Discord bot token" in run.stderr
    # pip install ships no docs/: the steps themselves are in the message, the invite link with them
    assert "developers/applications" in run.stderr and "jxbot init" in run.stderr and "jxbot play" in run.stderr
    from jxbot.bot import invite_url

    assert invite_url(4242).replace("4242", "APPLICATION_ID") in run.stderr  # the link the bot itself prints


def test_init_never_overwrites_an_env(tmp_path):
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=MTIz.my.token\n")
    proc = cli("init", cwd=tmp_path)
    assert proc.returncode == 1 and "already exists" in proc.stderr and "Traceback" not in proc.stderr
    assert env.read_text() == "DISCORD_TOKEN=MTIz.my.token\n"
    assert "MTIz.my.token" not in proc.stderr + proc.stdout


def test_systemd_unit_restarts_what_may_pass_and_keeps_down_what_the_admin_must_fix(capsys):
    assert main(["systemd-unit", "--user", "mj", "--dir", "/srv/mj", "--venv", "/opt/mj/venv/"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for want in ("User=mj", "WorkingDirectory=/srv/mj", "ExecStart=/opt/mj/venv/bin/jxbot run", "Restart=on-failure",
                 "RestartPreventExitStatus=2", "After=network-online.target", "WantedBy=multi-user.target"):
        assert want in lines, want
    restart_sec = [int(line.split("=")[1]) for line in lines if line.startswith("RestartSec=")]
    # systemd gives up after 5 starts in 10 s (StartLimitBurst/IntervalSec): restarts 10 s apart never hit it
    assert restart_sec and restart_sec[0] >= 10
    assert main(["systemd-unit", "--dir", "/srv/my bot"]) == 2  # systemd would split it


def test_the_unit_in_docs_is_the_one_printed(capsys):
    main(["systemd-unit", "--venv", "/opt/jxbot/venv"])
    printed = capsys.readouterr().out
    for doc in ("README.md", "docs/bot.md"):
        assert printed in (REPO / doc).read_text(), f"{doc} shows another unit than `jxbot systemd-unit`"


def test_every_command_has_a_description():
    proc = cli("run", "--help", cwd=REPO)
    assert "Exit 2" in proc.stdout
    proc = cli("replay", "--help", cwd=REPO)
    assert "finished hand" in proc.stdout.split("positional arguments")[0]


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`jxbot render --demo DIR | head -1`: the reader stops early; no BrokenPipe traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JXBOT_", "DISCORD_"))}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.Popen([sys.executable, "-m", "jxbot.cli", "render", "--demo", str(tmp_path / "d"),
                             "--lang", "both", "--phone"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # the reader is gone
    err = proc.stderr.read().decode()
    proc.wait(60)
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_backup_and_restore_drill(tmp_path):
    """README, "Backups": `jxbot store backup`, the disk is lost, the copy goes in as a fresh database, and
    `jxbot store check` passes on the same books."""
    live = tmp_path / "var" / "jxbot.sqlite3"
    live.parent.mkdir()
    asyncio.run(build(str(live)))
    backup = tmp_path / "backups" / "jxbot-today.sqlite3"
    backup.parent.mkdir()
    proc = cli("store", "backup", str(backup), "--db", str(live), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr

    def books(path: Path) -> list[tuple[object, ...]]:
        con = sqlite3.connect(path)
        try:
            return con.execute("SELECT * FROM wallets ORDER BY 1, 2").fetchall() + \
                con.execute("SELECT COUNT(*) FROM ledger").fetchall()
        finally:
            con.close()

    before = books(live)
    shutil.rmtree(live.parent)  # the disaster
    fresh = tmp_path / "new-machine" / "jxbot.sqlite3"
    fresh.parent.mkdir()
    shutil.copyfile(backup, fresh)  # the restore: the backup becomes JXBOT_DB (no -wal/-shm beside it)
    check = cli("store", "check", "--db", str(fresh), cwd=fresh.parent)
    assert check.returncode == 0, check.stdout + check.stderr
    assert books(fresh) == before
