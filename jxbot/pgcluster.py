"""A throwaway PostgreSQL server in a temporary folder, for tests and benchmarks.

`initdb` and `pg_ctl` refuse to run as root, and CI runs as root: the cluster then belongs to the
unprivileged user ``nobody``.  The server listens on 127.0.0.1 at a free port, trusts local
connections (it lives only as long as the run). By default it is the *fast* server the test suite uses:
fsync, synchronous commit and full page writes off (a test's data need not survive a power cut of the
machine). ``PgCluster(durable=True)`` starts it with all three on, like a production server, so that every
commit reaches the disk: what ``bench/store.py --pg`` measures (settings given on the command line
override ``ALTER SYSTEM``, so the choice must be made here, at start).  ``JXBOT_TEST_POSTGRES_DSN`` names an existing server to use
instead; `find_bin_dir` looks at ``JXBOT_PG_BIN``, then the newest ``/usr/lib/postgresql/*/bin``,
then ``PATH``.

    with PgCluster() as dsn:       # postgresql://jxbot@127.0.0.1:PORT/postgres
        ...

``python -m jxbot.pgcluster`` starts one, prints its DSN and keeps it until Ctrl-C.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

SUPERUSER = "jxbot"


class PgUnavailable(RuntimeError):
    """No PostgreSQL server binaries here, or the throwaway server would not start."""


def find_bin_dir() -> Path:
    env = os.environ.get("JXBOT_PG_BIN")
    if env:
        return Path(env)
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    for cand in reversed(versions):
        if (cand / "initdb").exists():
            return cand
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    raise PgUnavailable(
        "PostgreSQL server binaries (initdb, pg_ctl) not found: install the Debian package "
        "'postgresql', set JXBOT_PG_BIN, or point JXBOT_TEST_POSTGRES_DSN at a server"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# the test suite's fast server: a power cut may lose or corrupt its data, which a test does not mind
FAST_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
# a durable server (PostgreSQL's own defaults, stated so that nothing else can turn them off)
DURABLE_SETTINGS = ("fsync=on", "synchronous_commit=on", "full_page_writes=on")


class PgCluster:
    """Start with `start()` (returns the DSN), stop with `stop()` (removes every file).

    ``durable=False`` (default): the fast test server (`FAST_SETTINGS`); ``durable=True``: every commit is
    flushed to disk (`DURABLE_SETTINGS`), for figures that claim durability."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        self.dir: Path | None = None
        self.port = 0
        self.dsn = ""
        self._bin: Path | None = None
        self._run_as: tuple[int, int] | None = None

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        kw: dict[str, object] = {}
        if self._run_as is not None:
            kw["user"], kw["group"] = self._run_as
        return subprocess.run(  # type: ignore[call-overload,no-any-return]
            list(args), capture_output=True, text=True, timeout=timeout,
            env={**os.environ, "LC_ALL": "C"}, cwd="/", **kw,
        )

    def start(self) -> str:
        self._bin = find_bin_dir()
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            self._run_as = (nobody.pw_uid, nobody.pw_gid)
        self.dir = Path(tempfile.mkdtemp(prefix="jxbot-pg-"))
        if self._run_as is not None:
            os.chown(self.dir, *self._run_as)
        data = self.dir / "data"
        r = self._run(str(self._bin / "initdb"), "-D", str(data), "-U", SUPERUSER,
                      "--auth=trust", "--encoding=UTF8", "--no-sync")
        if r.returncode != 0:
            self.stop()
            raise PgUnavailable(f"initdb failed: {r.stderr.strip() or r.stdout.strip()}")
        last = ""
        for _attempt in range(3):  # the free port can be taken in between: try another
            self.port = _free_port()
            settings = DURABLE_SETTINGS if self.durable else FAST_SETTINGS
            opts = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                    + " ".join(f"-c {kv}" for kv in settings) + " -c max_connections=200")
            r = self._run(str(self._bin / "pg_ctl"), "start", "-w", "-t", "60", "-D", str(data),
                          "-l", str(self.dir / "server.log"), "-o", opts, timeout=90)
            if r.returncode == 0:
                self.dsn = f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"
                return self.dsn
            last = self.log_tail()
        self.stop()
        raise PgUnavailable(f"pg_ctl start failed: {last}")

    def log_tail(self, lines: int = 20) -> str:
        if self.dir is None:
            return ""
        try:
            text = (self.dir / "server.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.dir is None:
            return
        data = self.dir / "data"
        if self._bin is not None and (data / "postmaster.pid").exists():
            self._run(str(self._bin / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate", "-w")
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def main() -> None:  # pragma: no cover - a developer's convenience
    with PgCluster() as dsn:
        print(dsn, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":  # pragma: no cover
    main()
