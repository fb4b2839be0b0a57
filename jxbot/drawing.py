"""Where the bot's pictures are drawn: worker processes (the default on a machine with several cores) or
worker threads (``JXBOT_DRAW_PROCESSES=0``, and on one core).

Drawing a picture holds Python's GIL for most of its few milliseconds. In threads, under load, it competes
with the event loop that answers the presses; at 100 tables pictures took half of the bot's one core and a
press waited behind them (docs/bot.md, "Pictures"). In processes the event loop keeps its core, and the
operating system, not the GIL, decides who draws first:

- the **now** lane: the pictures a player is waiting for (the panel answering a press, a panel with buttons
  to act on) — ``JXBOT_DRAW_PROCESSES`` processes at the bot's own priority;
- the **later** lane: everything that can wait (table pictures, results, panels nobody acts on) — one
  process at a lower priority (``nice`` +10), so it draws with the CPU the rest leaves.

Workers are started with ``spawn`` (a fresh interpreter: forking a process with running threads is unsafe),
import ``render`` once and keep its sprite caches; each watches its parent and exits when it is gone (a
killed bot leaves no drawing processes behind). A worker that dies is replaced and the picture drawn again;
if processes cannot be started at all, the bot falls back to threads and logs it once.

Every picture's kind and CPU time are counted (:func:`report`: the ``pictures drawn`` line of
``JXBOT_LAG_LOG``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import logging
import multiprocessing
import os
import threading
import time
import traceback

log = logging.getLogger("jxbot.drawing")

LATER_NICE = 10  # the later lane's niceness (Linux: it then gets ~1/10 of a core another process wants)
PARENT_CHECK = 1.0  # seconds between a worker's checks that the bot is still there


# ------------------------------------------------------------------------------------------- in the worker


def draw(kind: str, view: dict, lang: str) -> tuple[bytes | None, float, str | None]:
    """Draw one picture: (PNG or None, the CPU seconds it took, the error's traceback or None).

    Runs in a worker (thread or process). The traceback is handed back, not logged here, so a worker
    process needs no logging set-up and every error reaches the bot's log."""
    t0 = time.thread_time()
    try:
        import render

        fn = getattr(render, f"render_{kind}")
    except (ImportError, AttributeError):
        return None, 0.0, None
    try:
        return fn(view, lang), time.thread_time() - t0, None
    except Exception:
        return None, time.thread_time() - t0, traceback.format_exc()


def _warm() -> int:
    """Build the palette and the common sprites in this worker (the first player's picture is then quick)."""
    import render

    render.warm_up()
    return os.getpid()


def _worker_start(nice: int, parent: int) -> None:
    """A worker process's set-up: its priority, no Ctrl-C tracebacks of its own, and a watch on the bot."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot handles Ctrl-C and shuts the workers down
    if nice and hasattr(os, "nice"):  # (not on Windows)
        with contextlib.suppress(OSError):
            os.nice(nice)

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK)
            if os.getppid() != parent:  # the bot is gone (killed): nobody will ask for a picture again
                os._exit(0)

    threading.Thread(target=watch, name="jxbot-draw-watch", daemon=True).start()


# ------------------------------------------------------------------------------------------- in the bot


class Drawing:
    """The two lanes of workers. ``processes`` = the now lane's processes (0: threads, as on one core)."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pools: dict[bool, cf.Executor] = {}
        self._lock = threading.Lock()
        self._fell_back = False

    @property
    def in_processes(self) -> bool:
        return self.processes > 0 and not self._fell_back

    def _pool(self, urgent: bool) -> cf.Executor:
        with self._lock:
            pool = self._pools.get(urgent)
            if pool is None:
                pool = self._pools[urgent] = self._new_pool(urgent)
            return pool

    def _new_pool(self, urgent: bool) -> cf.Executor:
        if self.in_processes:
            try:
                ctx = multiprocessing.get_context("spawn")
                return cf.ProcessPoolExecutor(max_workers=self.processes if urgent else 1, mp_context=ctx,
                                              initializer=_worker_start,
                                              initargs=(0 if urgent else LATER_NICE, os.getpid()))
            except (OSError, ValueError, NotImplementedError) as e:
                self._fall_back(e)
        # threads: few on purpose, drawing holds the GIL most of the time (one for the later lane)
        return cf.ThreadPoolExecutor(max_workers=2 if urgent else 1,
                                     thread_name_prefix="jxbot-render-now" if urgent else "jxbot-render")

    def _fall_back(self, e: BaseException) -> None:
        if not self._fell_back:
            self._fell_back = True
            log.warning("pictures are drawn in threads: drawing processes cannot be started (%s)", e)

    async def draw(self, kind: str, view: dict, lang: str, *, urgent: bool) -> bytes | None:
        """Draw a picture in the lane it belongs to; None if rendering is unavailable or failed."""
        loop = asyncio.get_running_loop()
        for attempt in range(3):
            pool = self._pool(urgent)
            try:
                png, cpu, error = await loop.run_in_executor(pool, draw, kind, view, lang)
            except cf.process.BrokenProcessPool as e:  # a worker died (killed, out of memory): a new one
                self._replace(urgent, pool)
                if attempt == 1:
                    self._fall_back(e)
                continue
            except OSError as e:  # no process could be started (out of processes or memory): threads
                self._replace(urgent, pool)
                self._fall_back(e)
                continue
            except RuntimeError:  # the pool was shut down meanwhile (configure(), close()): a fresh one
                self._replace(urgent, pool, quiet=True)
                continue
            count(kind, cpu)
            if error is not None:
                log.error("rendering the %s image failed:\n%s", kind, error.rstrip())
            return png
        return None

    def _replace(self, urgent: bool, broken: cf.Executor, *, quiet: bool = False) -> None:
        with self._lock:
            if self._pools.get(urgent) is broken:
                del self._pools[urgent]
        broken.shutdown(wait=False, cancel_futures=True)
        if not quiet:
            log.warning("a drawing worker stopped; a new one takes over")

    async def warm(self) -> None:
        """Start the processes and fill their caches now, not at the first player's press (in the background:
        the bot answers meanwhile)."""
        if not self.in_processes:
            return
        loop = asyncio.get_running_loop()
        jobs = [loop.run_in_executor(self._pool(urgent), _warm) for urgent in (True, False)
                for _ in range(self.processes if urgent else 1)]
        t0 = time.monotonic()
        done = await asyncio.gather(*jobs, return_exceptions=True)
        failed = [d for d in done if isinstance(d, BaseException)]
        if failed:
            log.warning("warming the drawing processes failed: %r", failed[0])
        else:
            log.info("drawing processes ready: %d now + 1 later (%.1f s)", self.processes, time.monotonic() - t0)

    def worker_pids(self) -> list[int]:
        """The drawing processes' ids (for tests and operators)."""
        out: list[int] = []
        for pool in list(self._pools.values()):
            procs = getattr(pool, "_processes", None) or {}
            out.extend(int(p) for p in procs)
        return out

    def close(self) -> None:
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)


def auto_processes() -> int:
    """The default: one process for the now lane when the machine has a core to spare, else threads."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


_DRAWING = Drawing(0)


def drawing() -> Drawing:
    return _DRAWING


def configure(processes: int) -> Drawing:
    """Use ``processes`` now-lane processes from now on (0: threads). The old workers are shut down."""
    global _DRAWING
    if processes != _DRAWING.processes:
        old, _DRAWING = _DRAWING, Drawing(processes)
        old.close()
    return _DRAWING


# ------------------------------------------------------------------------------------------- the counter

# pictures drawn since the last report, per kind: [count, CPU seconds]
_COUNTS: dict[str, list[float]] = {}
_COUNTS_LOCK = threading.Lock()


def count(kind: str, cpu: float) -> None:
    with _COUNTS_LOCK:
        row = _COUNTS.setdefault(kind, [0, 0.0])
        row[0] += 1
        row[1] += cpu


def report() -> str:
    """``hand=12/55ms table=3/21ms``: the pictures drawn and the CPU they took since the last call."""
    with _COUNTS_LOCK:
        rows = sorted(_COUNTS.items())
        _COUNTS.clear()
    return " ".join(f"{k}={int(n)}/{cpu * 1000:.0f}ms" for k, (n, cpu) in rows) or "none"
