"""End to end: the real bot (``jxbot run`` with JXBOT_WEB_PORT) serves the web companion beside Discord. An
admin turns the server's pages on with ``/管理 网页``; while Alice and three computers play, a spectator
follows the live table over HTTP (its JSON and pictures: a step a few moves late, public only — no text names
a concealed tile, the running hand's current move is never served); after the hand, the Replay viewer
carries the link to the same step on the web, which the bot's web server opens, and Alice gets her private
link in a DM (docs/web.md). Wendy's Watch view carries a link button to the table's live page, the result
message one to the hand's replay on the web; both open (200)."""

from __future__ import annotations

import asyncio
import re
import socket
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import (
    check_no_leak,
    events_of,
    gather_players,
    hand_states,
    hands_of,
    open_table,
    result_messages,
    said,
    start_world,
    wait_match_over,
)
from tests.e2e.test_admin_tables import make_admin
from tests.e2e.test_watch import is_table_message, watch_view

pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_web_pages_beside_the_bot(double, start_bot, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    w = await start_world(double, start_bot, tmp_path, ["alice", "wendy"], env={
        "JXBOT_WEB_PORT": str(port), "JXBOT_WEB_URL": base, "JXBOT_WEB_SECRET": "e2e-web-secret-0123456789",
        "JXBOT_COMPUTER_DELAY": "0.15", "JXBOT_CLAIM_WINDOW": "1"})
    alice, wendy = w.players
    admin = make_admin(w)
    async with aiohttp.ClientSession() as http:
        assert (await http.get(f"{base}/g/{w.guild.id}")).status == 404  # off until an admin turns it on
        answer = await said(await admin.slash("管理 网页", 开关="on"))
        assert "网页：开" in answer and f"{base}/g/{w.guild.id}" in answer
        await open_table(w, seated=[alice], computers=3)
        # alice waits to play until the spectator's page is up: the table cannot end before it is followed
        # a spectator follows the live table while it plays
        table_id = None
        for _ in range(100):
            page = await (await http.get(f"{base}/g/{w.guild.id}")).text()
            found = re.search(r'href="/t/([^"?]+)', page)
            if found:
                table_id = found[1]
                break
            await asyncio.sleep(0.1)
        assert table_id is not None, "the live table is listed on the server's page"
        # a watcher in Discord gets the table's live page as a link button beside Refresh, and it opens
        table_msg = await wendy.wait_message(is_table_message, w.channel, timeout=30)
        await (await wendy.click(table_msg, label="观战")).response()
        watching = await watch_view(double, wendy)
        (live_link,) = [b for b in watching.buttons() if b.get("style") == 5]
        assert live_link["url"] == f"{base}/t/{table_id}" and live_link["label"] == "网页观战"
        assert "刷新观战" in [b.get("label") for b in watching.buttons()]  # the custom-id button is still there
        assert (await http.get(live_link["url"])).status == 200
        ap = AutoPlayer(alice, Style()).start()
        texts, shown, refused = [], set(), 0
        # poll until the page has followed several moves or the table ended; the time limit is generous
        # because under a loaded CI machine (-n 4 on 2 cores) the computers' moves come slowly
        deadline = asyncio.get_running_loop().time() + 90
        polls = 0
        while asyncio.get_running_loop().time() < deadline and (polls < 60 or len(shown) < 3 or refused < 3):
            polls += 1
            r = await http.get(f"{base}/api/t/{table_id}?lang=zh")
            if r.status != 200:
                break  # the table ended
            state = await r.json()
            texts += [state["caption"], state["head"]]
            if state["image"]:
                hand_id, k = re.search(r"/img/t/[^/]+/([^/]+)/(\d+)\.png", state["image"]).groups()
                assert (await http.get(base + state["image"])).status in (200, 404)  # 404: the table moved on
                shown.add((hand_id, int(k)))
                # the move after the one shown is never served while it is that recent
                nxt = await http.get(f"{base}/img/t/{table_id}/{hand_id}/{int(k) + 3}.png")
                refused += nxt.status == 404
            await asyncio.sleep(0.2)
        texts.append(await (await http.get(f"{base}/t/{table_id}")).text())
        await wait_match_over(w)
        await gather_players([ap])
        assert len(shown) >= 3, shown  # the page followed several moves
        assert refused >= 3
        (summary,) = await hands_of(w.db, w.guild.id, alice.id)
        events = await events_of(w.db, summary.hand_id)
        check_no_leak([x for x in texts if x], hand_states(events))
        salt = events[0]["salt"]
        assert not any(salt in x for x in texts)
        # the result message links to the hand's public replay on the web, beside its Replay button
        res = result_messages(w)[0]
        (hand_link,) = [b for b in res.buttons() if b.get("style") == 5]
        assert hand_link["url"] == f"{base}/h/{summary.hand_id}" and hand_link["label"] == "网页回放"
        assert "回放" in [b.get("label") for b in res.buttons()]
        page = await http.get(hand_link["url"])
        assert page.status == 200 and summary.hand_id in await page.text()
        # the replay viewer links to the web, and the link opens there
        act = await alice.click(res, label="回放")
        await act.settled()
        viewer = await alice.double.wait_for(
            lambda: next((m for m in reversed(alice.ephemerals()) if "🌐" in m.content), None), 15, "the web link")
        link = re.search(r"<(http://\S+)>", viewer.content)[1]
        assert link == f"{base}/h/{summary.hand_id}?step=0&seat=0"
        page = await http.get(link)
        assert page.status == 200 and summary.hand_id in await page.text()
        assert "default-src 'none'" in page.headers["Content-Security-Policy"]
        dm = await alice.double.wait_for(
            lambda: next((m for m in alice.dm_messages() if "/me?" in m.content), None), 15, "the private link")
        private = re.search(r"<(http://\S+)>", dm.content)[1]
        r = await http.get(private)
        assert r.status == 200 and "/hand.png" in await r.text()
        assert (await http.get(private.replace("sig=", "sig=0"))).status == 403


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the live processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                out.append((int(d.name), (d / "cmdline").read_bytes().replace(b"\0", b" ").decode()))
        except (OSError, ValueError, IndexError):
            continue
    return out


async def _answers(url: str) -> bool:
    try:
        async with aiohttp.ClientSession() as http, http.get(url, timeout=aiohttp.ClientTimeout(total=2)) as r:
            return r.status in (200, 404)
    except (aiohttp.ClientError, TimeoutError):
        return False


async def test_the_pages_run_in_a_process_of_their_own_and_end_with_the_bot(double, start_bot, tmp_path):
    """With JXBOT_WEB_PORT the bot serves the pages from a `jxbot web` process of its own (a busy audience
    never holds up a press on the bot's event loop); they answer once the bot is up, and stop with it —
    after a SIGTERM, and after a SIGKILL too (the next start needs the port)."""
    import signal

    from tests.e2e.scenario import fast_env

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**fast_env(tmp_path / "web.sqlite3"), "DEV_GUILD_ID": "1", "JXBOT_WEB_PORT": str(port),
           "JXBOT_WEB_ALL_SERVERS": "1"}
    for how in (signal.SIGTERM, signal.SIGKILL):
        bot = await start_bot(["-m", "jxbot.cli", "run"], env=env)
        for _ in range(200):
            if await _answers(f"{base}/"):
                break
            await asyncio.sleep(0.1)
        assert await _answers(f"{base}/"), "the pages answer once the bot is up"
        assert bot.proc is not None
        webs = [c for c in _children(bot.proc.pid) if " web " in f"{c[1]} "]
        assert len(webs) == 1, _children(bot.proc.pid)  # served by a child process, not the bot's own loop
        bot.proc.send_signal(how)
        await asyncio.wait_for(bot.proc.wait(), 30)
        for _ in range(100):
            if not await _answers(f"{base}/"):
                break
            await asyncio.sleep(0.1)
        assert not await _answers(f"{base}/"), f"the pages stopped with the bot ({how.name})"
