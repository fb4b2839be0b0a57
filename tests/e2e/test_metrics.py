"""Issue 27, metrics and health: an admin who sets ``JXBOT_METRICS_PORT`` scrapes ``/metrics`` and probes
``/healthz`` (docs/ops.md). While the bot starts (``JXBOT_TEST_RESUME_DELAY`` holds the readiness window open)
``/healthz`` answers 503 with its reason; once the tables are resumed, 200. While a table plays, the presses are
counted, one table runs and the process is ready; no token, id or user text is in a label."""

from __future__ import annotations

import asyncio
import re
import socket

import aiohttp
import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import open_table, start_world

pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url, timeout=aiohttp.ClientTimeout(total=5)) as r:
        return r.status, await r.text()


def sample(body: str, name: str, labels: str = "") -> float:
    """The value of ``name{labels}`` in a Prometheus text page."""
    m = re.search(rf"^{re.escape(name)}{re.escape('{' + labels + '}') if labels else ''} (\S+)$", body, re.M)
    assert m is not None, f"{name}{{{labels}}} not in /metrics:\n{body[:3000]}"
    return float(m.group(1))


async def test_metrics_and_healthz_while_a_table_plays(double, start_bot, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    w = await start_world(double, start_bot, tmp_path, ["alice"], wait_ready=False,
                          env={"JXBOT_METRICS_PORT": str(port), "JXBOT_TEST_RESUME_DELAY": "4",
                               "JXBOT_COMPUTER_DELAY": "0.2"})
    # the readiness window: connected, the tables not resumed yet
    deadline = asyncio.get_running_loop().time() + 30
    seen: list[tuple[int, str]] = []
    while not seen or seen[-1][1] != "starting: the tables are being resumed":
        assert asyncio.get_running_loop().time() < deadline, (seen, w.bot.tail())
        try:
            status, text = await get(f"{base}/healthz")
            seen.append((status, text.strip()))
        except aiohttp.ClientConnectionError:
            pass  # not listening yet
        await asyncio.sleep(0.05)
    assert "ready: every table resumed" not in w.bot.log(), "(the window was over before the probe)"
    # 503 with a one-line reason all along: "not connected to Discord" during the login, then "starting"
    assert all(st == 503 and r and "\n" not in r for st, r in seen), seen
    status, body = await get(f"{base}/metrics")
    assert status == 200 and sample(body, "jxbot_ready") == 0

    await w.bot.wait_log("ready: every table resumed", timeout=30)
    status, text = await get(f"{base}/healthz")
    assert (status, text.strip()) == (200, "ok")

    alice = w.players[0]
    await open_table(w, computers=3)
    ap = AutoPlayer(alice, Style())
    for _ in range(3):
        await ap.step()
    status, body = await get(f"{base}/metrics")
    assert status == 200
    assert sample(body, "jxbot_tables_running") == 1
    assert sample(body, "jxbot_lobbies") == 0
    assert sample(body, "jxbot_ready") == 1
    assert sample(body, "jxbot_presses_total") >= 1
    assert sample(body, "jxbot_press_seconds_count") >= 1
    assert sample(body, "jxbot_panel_seconds_count") >= 1
    assert sample(body, "jxbot_store_transaction_seconds_count", 'kind="write"') >= 1
    assert sample(body, "jxbot_drawing_seconds_count", 'kind="hand"') >= 1
    assert sample(body, "jxbot_discord_requests_total",
                  'route="POST /interactions/{id}/{x}/callback",status="2xx"') >= 1
    # nothing secret or personal in a label: no token, no id, no name
    token = double.env()["DISCORD_TOKEN"]
    assert token not in body
    labels = " ".join(re.findall(r"\{[^}\n]*\}", "\n".join(x for x in body.splitlines() if not x.startswith("#"))))
    assert not re.search(r"\d{6,}", labels), labels
    assert "alice" not in body
    status, _ = await get(f"{base}/healthz")
    assert status == 200
