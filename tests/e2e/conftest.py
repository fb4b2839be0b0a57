"""Fixtures for end-to-end tests: an in-process Discord double and real bot subprocesses pointed at it.

    async def test_x(double, start_bot):
        guild, channel = double.add_guild(), ...
        bot = await start_bot(["-m", "tests.e2e.minibot"], env={"DEV_GUILD_ID": str(guild.id)})
        await double.wait_commands()
        ...
        await bot.kill()        # SIGKILL, as a crash
        await bot.restart()     # same argv/env, a new process

The bot learns where Discord is only from its environment (``double.env()``: DISCORD_TOKEN and
DISCORD_API_BASE), never from patched code paths. Processes run in a fresh temporary directory (so a
developer's ``.env`` is not read and relative paths such as the default JXBOT_DB stay there), with the
repo on PYTHONPATH.

``JXBOT_E2E_PYTHON=/path/to/venv/bin/python`` runs the bot processes with that interpreter instead, and
without the repo on PYTHONPATH: every scenario then plays against that venv's installed jxbot (e.g. a
plain, non-editable ``pip install .``; the scripted players and the double still come from here).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.double import DiscordDouble

REPO = Path(__file__).resolve().parents[2]
INSTALLED_PYTHON = os.environ.get("JXBOT_E2E_PYTHON")  # None: this interpreter, with the repo on PYTHONPATH
BOT_PYTHON = INSTALLED_PYTHON or sys.executable


class BotProcess:
    """A bot subprocess (``python <argv>``) with stdout+stderr captured to a log file."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], log_path: Path, cwd: Path = REPO) -> None:
        self.argv = list(argv)
        self.env = env
        self.log_path = log_path
        self.cwd = cwd
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> BotProcess:
        self.starts += 1
        logf = open(self.log_path, "ab")  # noqa: SIM115 - the child owns it
        logf.write(f"\n===== start #{self.starts}: {' '.join(self.argv)}\n".encode())
        logf.flush()
        self.proc = await asyncio.create_subprocess_exec(
            BOT_PYTHON, *self.argv, cwd=str(self.cwd), env=self.env, stdout=logf, stderr=asyncio.subprocess.STDOUT,
            stdin=asyncio.subprocess.DEVNULL)
        logf.close()
        return self

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no goodbye to the gateway."""
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()

    async def stop(self, timeout: float = 5.0) -> None:
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                await self.kill()

    async def restart(self) -> BotProcess:
        await self.kill()
        return await self.start()

    def rss_bytes(self) -> int | None:
        """Resident memory of the bot process (Linux /proc), for per-table memory figures."""
        if not self.running:
            return None
        assert self.proc is not None
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def wait_log(self, text: str, timeout: float = 10.0) -> None:
        """Wait until ``text`` appears in the process's output."""
        deadline = asyncio.get_running_loop().time() + timeout
        while text not in self.log():
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"{text!r} not in the bot's output:\n{self.tail()}")
            await asyncio.sleep(0.05)

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.log().splitlines()[-lines:])


@pytest_asyncio.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    d = DiscordDouble()
    await d.start()
    try:
        yield d
    finally:
        await d.stop()


StartBot = Callable[..., Awaitable[BotProcess]]


@pytest_asyncio.fixture
async def start_bot(double: DiscordDouble, request: pytest.FixtureRequest) -> AsyncIterator[StartBot]:
    """Factory: ``await start_bot(argv, env={...})`` runs ``python argv`` against the double; every
    process is killed at teardown, and its log is printed if the test failed."""
    procs: list[BotProcess] = []
    tmp = Path(tempfile.mkdtemp(prefix="jxbot-e2e-"))

    async def start(argv: Sequence[str], env: dict[str, str] | None = None, inherit: bool = True,
                    cwd: Path | None = None) -> BotProcess:
        base = dict(os.environ) if inherit else {"PATH": os.environ.get("PATH", "")}
        for key in ("DISCORD_TOKEN", "DISCORD_API_BASE", "DEV_GUILD_ID", "DISCORD_GATEWAY_URL"):
            base.pop(key, None)
        full = {**base, "PYTHONUNBUFFERED": "1", **double.env(), **(env or {})}
        if not INSTALLED_PYTHON:
            full["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), base.get("PYTHONPATH", "")) if p)
        else:  # an installed jxbot: nothing from this checkout
            full.pop("PYTHONPATH", None)
        # cwd is a fresh directory: no developer .env is read and relative paths (the default
        # JXBOT_DB) land there, never in the repo
        bp = BotProcess(argv, full, tmp / f"bot{len(procs)}.log", cwd or tmp)
        procs.append(bp)
        return await bp.start()

    yield start
    failed = getattr(request.node, "rep_call", None)
    for bp in procs:
        with contextlib.suppress(ProcessLookupError):
            await bp.kill()
        if failed is not None and failed.failed:
            print(f"----- {bp.log_path} -----\n{bp.tail(120)}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)
