"""``jxbot web --db COPY --port 0``: the web companion on its own over a copy of a played database, as an
operator runs it beside the bot: it serves the pages, writes nothing (the file stays byte for byte the same)
and stops cleanly on SIGTERM."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.web.helpers import played_store

ROOT = Path(__file__).resolve().parents[2]


async def test_jxbot_web_over_a_copy_of_a_played_database(tmp_path):
    db = tmp_path / "copy.sqlite3"
    store = await played_store(str(db))
    await store.close()
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JXBOT_WEB_RATE": "0"}
    env.pop("JXBOT_WEB_PORT", None)
    proc = subprocess.Popen([sys.executable, "-m", "jxbot.cli", "web", "--db", str(db), "--port", "0",
                             "--env-file", str(tmp_path / "none.env")],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"serving (http://[\d.]+:\d+)/", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        base = m[1]

        def get(path: str) -> tuple[int, str]:
            try:
                with urllib.request.urlopen(base + path, timeout=30) as r:
                    return r.status, r.read().decode()
            except urllib.error.HTTPError as e:
                return e.code, ""

        assert get("/g/5")[0] == 200  # the server that turned its pages on
        status, page = get("/h/0123456789ab-2?step=3&lang=en")
        assert status == 200 and "Move 3 of" in page
        assert get("/g/8")[0] == 404  # pages off: not found without --all-servers
        assert get("/t/tbl1")[0] == 404  # no running table in this copy
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest  # read-only: nothing written
    assert not (ROOT / "jxbot.sqlite3").exists()


async def test_a_port_out_of_range_is_one_clear_refusal_and_the_process_ends(tmp_path):
    """--port 99999 was a traceback from bind() and a process that never exited (its database left open)."""
    db = tmp_path / "copy.sqlite3"
    store = await played_store(str(db))
    await store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("JXBOT_WEB_PORT", None)
    for bad, words in (("99999", "a port is 0 to 65535, not 99999"), ("-5", "a port is 0 to 65535, not -5"),
                       ("web", "not a port number: 'web'")):
        proc = subprocess.run([sys.executable, "-m", "jxbot.cli", "web", "--db", str(db), "--port", bad,
                               "--env-file", str(tmp_path / "none.env")],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
