"""Where the bot's pictures are drawn: worker processes (the default on a machine with several cores) or
worker threads (``JXBOT_DRAW_PROCESSES=0``, and on one core).

Drawing a picture holds Python's GIL for most of its few milliseconds. In threads, under load, it competes
with the event loop that answers the presses; at 100 tables pictures took half of the bot's one core and a
press waited behind them (docs/bot.md, "Pictures under load"). In processes the event loop keeps its core,
and the operating system, not the GIL, decides who draws first:

- the **now** lane: the pictures a player is waiting for (the panel answering a press, a panel with buttons
  to act on) — ``JXBOT_DRAW_PROCESSES`` processes at the bot's own priority;
- the **later** lane: everything that can wait (table pictures, results, panels nobody acts on) — one
  process at a lower priority (``nice`` +3), so under load it yields to the rest, without starving.

A worker is ``python -m jxbot.drawing_worker`` talking over its stdin/stdout pipes (length-prefixed
pickles), read and written by the event loop itself: no thread in the bot per worker or per picture (a
``ProcessPoolExecutor`` adds two per pool, which then compete for the GIL with the loop and the store's
thread), no re-import of the bot's main module, and a worker ends when its stdin closes — when the bot
stops or is killed. A worker keeps ``render``'s sprite caches between pictures. One that dies is replaced
and the picture drawn again; if no process can be started, the bot falls back to threads and logs it once.

Every picture's kind and CPU time are counted (:func:`report`: the ``pictures drawn`` line of
``JXBOT_LAG_LOG``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import itertools
import logging
import os
import pickle
import sys
import threading
import time
from collections.abc import Callable

from jxbot.drawing_protocol import HEADER, draw, frame

log = logging.getLogger("jxbot.drawing")

LATER_NICE = 3  # the later lane's niceness (Linux: about half the share of a process at 0; +10 starved
# its pictures for many seconds on a loaded machine, a resumed table's panels among them)


# ------------------------------------------------------------------------------------------- the drawing


class WorkerGone(Exception):
    """The drawing process ended (killed, out of memory) before it answered."""


class Worker:
    """One drawing process and the pictures asked of it, answered in order."""

    def __init__(self, nice: int) -> None:
        self.nice = nice
        self.proc: asyncio.subprocess.Process | None = None
        self.waiting: dict[int, asyncio.Future[tuple[bytes | None, float, str | None]]] = {}
        self._ids = itertools.count(1)
        self._reader: asyncio.Task[None] | None = None
        self.gone = False

    async def start(self) -> None:
        env = dict(os.environ)
        # the worker imports jxbot and render from where this process does (a checkout, a venv, PYTHONPATH)
        env["PYTHONPATH"] = os.pathsep.join(p or os.getcwd() for p in sys.path)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "jxbot.drawing_worker", str(self.nice),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env)
        self._reader = asyncio.create_task(self._read(), name=f"drawing-worker-{self.proc.pid}")

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    async def ask(self, kind: str, view: dict | None, lang: str) -> tuple[bytes | None, float, str | None]:
        if self.gone or self.proc is None or self.proc.stdin is None:
            raise WorkerGone
        rid = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        try:
            self.proc.stdin.write(frame((rid, kind, view, lang)))
            await self.proc.stdin.drain()
        except (ConnectionError, RuntimeError) as e:
            self.waiting.pop(rid, None)
            self._gone()
            raise WorkerGone from e
        try:
            return await fut
        finally:
            self.waiting.pop(rid, None)

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        try:
            while True:
                head = await out.readexactly(HEADER.size)
                (n,) = HEADER.unpack(head)
                rid, png, cpu, error = pickle.loads(await out.readexactly(n))  # (our worker's own frames)
                fut = self.waiting.get(rid)
                if fut is not None and not fut.done():
                    fut.set_result((png, cpu, error))
        except (asyncio.IncompleteReadError, ConnectionError, ValueError, EOFError):
            pass
        finally:
            if not self.gone:  # not stopped by us: killed (the OOM killer, kill -9) or crashed
                log.warning("a drawing process (pid %s) stopped; a new one takes over", self.pid)
            self._gone()

    def _gone(self) -> None:
        self.gone = True
        for fut in self.waiting.values():
            if not fut.done():
                fut.set_exception(WorkerGone())

    async def stop(self, timeout: float = 2.0) -> None:
        """Close its stdin (it ends), and kill it if it does not within ``timeout``."""
        self.gone = True
        proc = self.proc
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()
        if self._reader is not None:
            self._reader.cancel()


# ------------------------------------------------------------------------------------------- in the bot


class Drawing:
    """The two lanes of workers. ``processes`` = the now lane's processes (0: threads, as on one core)."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._workers: dict[bool, list[Worker]] = {True: [], False: []}
        self._starting: dict[bool, asyncio.Lock] = {}
        self._threads: dict[bool, cf.ThreadPoolExecutor] = {}
        self._fell_back = False
        self.pending: dict[bool, int] = {True: 0, False: 0}  # pictures asked and not drawn yet, per lane (urgent)

    @property
    def in_processes(self) -> bool:
        return self.processes > 0 and not self._fell_back

    def _thread_pool(self, urgent: bool) -> cf.ThreadPoolExecutor:
        pool = self._threads.get(urgent)
        if pool is None:  # few threads on purpose: drawing holds the GIL most of the time
            pool = self._threads[urgent] = cf.ThreadPoolExecutor(
                max_workers=2 if urgent else 1, thread_name_prefix="jxbot-render-now" if urgent else "jxbot-render")
        return pool

    async def _worker(self, urgent: bool) -> Worker:
        """The lane's least busy worker, the lane filled up to its size first."""
        lane = self._workers[urgent]
        lane[:] = [w for w in lane if not w.gone]
        size = self.processes if urgent else 1
        if len(lane) < size:
            lock = self._starting.setdefault(urgent, asyncio.Lock())
            async with lock:
                lane[:] = [w for w in lane if not w.gone]
                while len(lane) < size:
                    w = Worker(0 if urgent else LATER_NICE)
                    await w.start()  # OSError: no process can be started
                    lane.append(w)
        return min(lane, key=lambda w: len(w.waiting))

    def _fall_back(self, e: BaseException) -> None:
        if not self._fell_back:
            self._fell_back = True
            log.warning("pictures are drawn in threads: drawing processes cannot be started (%s)", e)

    async def draw(self, kind: str, view: dict, lang: str, *, urgent: bool) -> bytes | None:
        """Draw a picture in the lane it belongs to; None if rendering is unavailable or failed."""
        self.pending[urgent] += 1
        t0 = time.monotonic()
        try:
            png, cpu, error = await self._draw(kind, view, lang, urgent)
        finally:
            self.pending[urgent] -= 1
        count(kind, cpu)
        for listener in list(_LISTENERS):
            listener(kind, cpu, time.monotonic() - t0)
        if error is not None:
            log.error("rendering the %s image failed:\n%s", kind, error.rstrip())
        return png

    async def _draw(self, kind: str, view: dict, lang: str, urgent: bool) -> tuple[bytes | None, float, str | None]:
        result: tuple[bytes | None, float, str | None] | None = None
        for _attempt in range(2):
            if not self.in_processes:
                break
            try:
                worker = await self._worker(urgent)
            except OSError as e:
                self._fall_back(e)
                break
            try:
                result = await worker.ask(kind, view, lang)
                break
            except WorkerGone:  # it died with our picture: a new one draws it
                continue
        if result is None:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._thread_pool(urgent), draw, kind, view, lang)
        return result

    async def warm(self) -> None:
        """Start the processes and fill their caches now, not at the first player's press (in the background:
        the bot answers meanwhile)."""
        if not self.in_processes:
            return
        t0 = time.monotonic()
        try:
            await self._worker(True)
            await self._worker(False)
            workers = self._workers[True] + self._workers[False]
            await asyncio.gather(*(w.ask("warm", None, "zh") for w in workers))
        except (OSError, WorkerGone) as e:
            log.warning("warming the drawing processes failed: %r", e)
            return
        log.info("drawing processes ready: %d now + 1 later (%.1f s)", self.processes, time.monotonic() - t0)

    def worker_pids(self) -> list[int]:
        """The drawing processes' ids (for tests and operators)."""
        return [w.pid for lane in self._workers.values() for w in lane if w.pid is not None and not w.gone]

    async def aclose(self) -> None:
        """Stop the workers (their stdin closed; killed after 2 s) and the threads."""
        workers = [w for lane in self._workers.values() for w in lane]
        self._workers = {True: [], False: []}
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)
        threads, self._threads = list(self._threads.values()), {}
        for pool in threads:
            pool.shutdown(wait=False, cancel_futures=True)


def auto_processes() -> int:
    """The default: one process for the now lane when the machine has a core to spare, else threads."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


_DRAWING = Drawing(0)
_BACKGROUND: set[asyncio.Task[None]] = set()


def drawing() -> Drawing:
    return _DRAWING


def configure(processes: int) -> Drawing:
    """Use ``processes`` now-lane processes from now on (0: threads). The old workers stop when their
    stdin closes, as the old ``Drawing`` is dropped (call its :meth:`Drawing.aclose` to wait for it)."""
    global _DRAWING
    if processes != _DRAWING.processes:
        old, _DRAWING = _DRAWING, Drawing(processes)
        if old.worker_pids():
            _BACKGROUND.add(task := asyncio.get_running_loop().create_task(old.aclose()))
            task.add_done_callback(_BACKGROUND.discard)
    return _DRAWING


# ------------------------------------------------------------------------------------------- the counter

# who else is told of every picture drawn: ``listener(kind, cpu_seconds, wall_seconds)`` (jxbot/metrics.py)
PictureListener = Callable[[str, float, float], None]
_LISTENERS: list[PictureListener] = []


def add_listener(listener: PictureListener) -> None:
    _LISTENERS.append(listener)


def remove_listener(listener: PictureListener) -> None:
    if listener in _LISTENERS:
        _LISTENERS.remove(listener)


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
