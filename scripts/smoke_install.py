"""Smoke check of an installed jxbot (``.ci/run`` runs it in a fresh venv with a plain ``pip install .``).

    python scripts/smoke_install.py [--installed] [--pictures-only] [--no-e2e]

1. ``jxbot --version``, ``jxbot render --demo DIR`` (every PNG opened and verified), ``jxbot score …``,
   ``jxbot simulate --hands 20``;
2. the bot's own picture paths (``jxbot.shell.pictures.render_png`` for the DM panel, the table and the result;
   ``jxbot.shell.pictures.rules_png``), which return None instead of raising when a picture cannot be drawn;
3. one end-to-end scenario: the real bot process (``python -m jxbot.cli run`` of *this* interpreter, with no
   PYTHONPATH, in an empty directory) against the local Discord double from the checkout's ``tests/e2e``;
   a player opens a table with three computers and the DM panel they get carries a valid PNG.

``--installed`` also checks that jxbot, render and cogs are imported from site-packages, not the checkout.
Exit 0 when everything passed; the first failure is printed and exits 1. Takes ~15 s.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


class SmokeFailure(AssertionError):
    pass


def check(cond: object, what: str) -> None:
    if not cond:
        raise SmokeFailure(what)


def check_png(data: bytes | None, what: str) -> tuple[int, int]:
    from PIL import Image

    check(data is not None and data[:8] == b"\x89PNG\r\n\x1a\n", f"{what}: not a PNG")
    assert data is not None
    with Image.open(io.BytesIO(data)) as im:
        im.verify()
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        w, h = im.size
    check(100 <= w <= 4000 and 50 <= h <= 4000, f"{what}: odd size {w}x{h}")
    return w, h


def jxbot(*args: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DISCORD_TOKEN", "JXBOT_DB")}
    proc = subprocess.run([sys.executable, "-m", "jxbot.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)
    check(proc.returncode == 0, f"jxbot {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}{proc.stderr}")
    check("Traceback" not in proc.stderr, f"jxbot {' '.join(args)} printed a traceback:\n{proc.stderr}")
    return proc.stdout


def cli_checks(tmp: Path) -> None:
    out = jxbot("--version", cwd=tmp)
    check(out.startswith("jxbot ") and out.split()[1][:1].isdigit(), f"--version said {out!r}")
    demo = tmp / "demo"
    jxbot("render", "--demo", str(demo), "--lang", "both", cwd=tmp)
    pngs = sorted(demo.glob("*.png"))
    check(len(pngs) >= 10, f"render --demo wrote {len(pngs)} pictures")
    for p in pngs:
        check_png(p.read_bytes(), p.name)
    score = json.loads(jxbot("score", "11122233m777z55p", "--win", "5p", "--json", cwd=tmp))
    check(score.get("winning") and score.get("total_tai") == 4, f"score said {score}")
    sim = json.loads(jxbot("simulate", "--hands", "20", "--json", cwd=tmp))
    check(sim.get("hands") == 20 and sim.get("invariant_violations") == 0, f"simulate said {sim}")
    print(f"cli ok: --version {out.split()[1]}, {len(pngs)} demo PNGs, score, simulate 20 hands")


def picture_checks() -> None:
    """Every picture the bot sends, through the cog functions the bot calls (they log and return None on
    failure, which would leave players with text-only panels)."""
    from jxbot.game import Match
    from jxbot.shell.pictures import render_png, rules_png
    from render import demo

    match = Match("smoke", ruleset="jiaxing")
    hand = match.next_hand()
    for kind, view in (("hand", hand.view(0)), ("hand", demo.seat_view()), ("table", hand.public_view()),
                       ("result", demo.result_view())):
        for lang in ("zh", "en"):
            check_png(render_png(kind, view, lang), f"{kind} picture ({lang})")
    for ruleset in ("jiaxing", "caishen"):
        check_png(rules_png("zh", ruleset), f"{ruleset} rules card")
    print("pictures ok: DM panel, table, result and rules card")


def installed_checks() -> None:
    import cogs
    import jxbot as jx
    import render

    for mod in (jx, render, cogs):
        where = Path(mod.__file__ or "").resolve()
        check(REPO not in where.parents, f"{mod.__name__} comes from the checkout ({where}), not the install")
    print(f"install ok: imported from {Path(jx.__file__ or '').resolve().parents[1]}")


# ------------------------------------------------------------------------------------------ e2e


class Proc:
    """The bot process, shaped like tests/e2e/conftest.py's BotProcess (what scenario.start_world uses)."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.env, self.cwd = env, cwd
        self.log_path = cwd / "bot.log"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> Proc:
        with open(self.log_path, "ab") as logf:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "jxbot.cli", "run", cwd=str(self.cwd), env=self.env, stdout=logf,
                stderr=asyncio.subprocess.STDOUT, stdin=asyncio.subprocess.DEVNULL)
        return self

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    async def wait_log(self, text: str, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while text not in self.log():
            if time.monotonic() > end:
                raise TimeoutError(f"{text!r} not in the bot's output:\n{self.tail()}")
            await asyncio.sleep(0.05)

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


async def e2e_check(tmp: Path) -> None:
    sys.path.append(str(REPO))  # after site-packages: only tests.e2e comes from the checkout
    from tests.e2e.double import DiscordDouble
    from tests.e2e.scenario import open_table, start_world

    double = DiscordDouble()
    await double.start()
    procs: list[Proc] = []

    async def start_bot(argv: list[str], env: dict[str, str]) -> Proc:
        base = {k: v for k, v in os.environ.items()
                if k not in ("PYTHONPATH", "DISCORD_TOKEN", "DISCORD_API_BASE", "DEV_GUILD_ID", "JXBOT_DB")}
        p = Proc({**base, "PYTHONUNBUFFERED": "1", **double.env(), **env}, tmp)
        procs.append(p)
        return await p.start()

    try:
        w = await start_world(double, start_bot, tmp, ["alice"], env={"JXBOT_TEST_SEED": "4"})
        await open_table(w, computers=3)
        alice = w.players[0]
        panel = await alice.wait_dm(lambda m: m.image() is not None, timeout=20)
        wh = check_png(panel.image(), "the DM panel picture")
        check("Traceback" not in procs[0].log(), f"the bot logged a traceback:\n{procs[0].tail()}")
        print(f"e2e ok: the bot process from the install sent a DM panel with a {wh[0]}x{wh[1]} PNG")
    except BaseException:
        for p in procs:
            print(f"----- bot log -----\n{p.tail(80)}", file=sys.stderr)
        raise
    finally:
        for p in procs:
            await p.kill()
        await double.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--installed", action="store_true", help="require imports from site-packages")
    ap.add_argument("--pictures-only", action="store_true", help="only the bot's picture paths")
    ap.add_argument("--no-e2e", action="store_true", help="skip the end-to-end scenario")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    try:
        if args.installed:
            installed_checks()
        picture_checks()
        if not args.pictures_only:
            with tempfile.TemporaryDirectory(prefix="jxbot-smoke-") as d:
                cli_checks(Path(d))
            if not args.no_e2e:
                with tempfile.TemporaryDirectory(prefix="jxbot-smoke-e2e-") as d:
                    asyncio.run(e2e_check(Path(d)))
    except SmokeFailure as exc:
        print(f"smoke check FAILED: {exc}", file=sys.stderr)
        return 1
    print(f"smoke check passed in {time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
