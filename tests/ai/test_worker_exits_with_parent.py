"""A computer players' worker process does not outlive the bot (jxbot.ai.warm.exit_with_parent): a bot killed
with SIGKILL used to leave its expert worker waiting on its queue for good, ~90 MB after every crash."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PARENT = """
import os, sys, time
from jxbot.ai import offload
from jxbot.coach.pool import CoachPool
pid = offload.executor().submit(os.getpid).result(timeout=60)
pool = CoachPool(1)
coach_pid = pool._ex.submit(os.getpid).result(timeout=60)
print(pid, coach_pid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is gone too (it only waits to be reaped)
        return f.read().split(")")[-1].split()[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_expert_and_coach_workers_exit_when_the_bot_is_killed() -> None:
    proc = subprocess.Popen([sys.executable, "-c", PARENT], cwd=REPO, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert proc.stdout is not None
        workers = [int(x) for x in proc.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(w) for w in workers), workers
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.2)
        left = [w for w in workers if _alive(w)]
        for w in left:
            os.kill(w, signal.SIGKILL)
        assert not left, f"workers outlived their parent: {left}"
    finally:
        proc.kill()
