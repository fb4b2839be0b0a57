"""Run ``jxbot`` (the CLI) under a CPU profiler and write the profile every few seconds, so a bot that is
SIGKILLed at the end of a benchmark still leaves one. Used by ``bench/e2e_load.py --profile OUT``.

    python3 bench/profile_bot.py OUT.txt run        # = python3 -m jxbot.cli run, profiled

With ``yappi`` installed (a dev tool: ``pip install yappi``) every thread is profiled in CPU time (the
event loop, the render threads, the store's thread); without it, ``cProfile`` profiles the main thread only.
OUT gets the top functions by own time and by cumulative time, per thread for yappi.
"""

from __future__ import annotations

import io
import sys
import threading
import time
from pathlib import Path

EVERY = 5.0  # seconds between dumps


def _group(module: str) -> str:
    """A function's package: jxbot.rules, render, cogs, discord, aiohttp, asyncio, PIL, … ("builtins": C)."""
    m = module.replace("\\", "/")
    for mark in ("/site-packages/", "/lib/python3.", "/jxbot/", "/render/", "/cogs/", "/bench/"):
        if mark in m:
            rest = m.split(mark, 1)[1]
            if mark == "/lib/python3.":
                rest = rest.split("/", 1)[1] if "/" in rest else rest
            head = rest.split("/")[0].removesuffix(".py")
            if mark in ("/jxbot/",):
                return "jxbot." + head
            if mark in ("/render/", "/cogs/", "/bench/"):
                return mark.strip("/")
            return head
    return m


def _dump_yappi(out: Path) -> None:
    import yappi

    buf = io.StringIO()
    stats = yappi.get_func_stats()
    threads = yappi.get_thread_stats()
    buf.write(f"# yappi CPU profile, {time.strftime('%H:%M:%S')}\n\n## threads (CPU s)\n")
    for t in sorted(threads, key=lambda t: -t.ttot):
        buf.write(f"{t.ttot:9.2f}  {t.name} (id {t.id})\n")
    total = sum(t.ttot for t in threads) or 1.0
    groups: dict[str, float] = {}
    for s in stats:
        groups[_group(s.module)] = groups.get(_group(s.module), 0.0) + s.tsub
    buf.write(f"\n## own time by package (all threads; total {total:.2f} s)\n")
    for g, v in sorted(groups.items(), key=lambda kv: -kv[1]):
        buf.write(f"{v:8.2f} {100 * v / total:5.1f}%  {g}\n")
    buf.write(f"\n## by own time (all threads; total {total:.2f} s)\n")
    for s in sorted(stats, key=lambda s: -s.tsub)[:60]:
        buf.write(f"{s.tsub:8.2f} {100 * s.tsub / total:5.1f}%  {s.ncall:9d}  {s.module}:{s.lineno} {s.name}\n")
    buf.write("\n## by cumulative time\n")
    for s in sorted(stats, key=lambda s: -s.ttot)[:80]:
        buf.write(f"{s.ttot:8.2f} {100 * s.ttot / total:5.1f}%  {s.ncall:9d}  {s.module}:{s.lineno} {s.name}\n")
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(buf.getvalue())
    tmp.replace(out)


def main() -> None:
    out = Path(sys.argv[1])
    argv = sys.argv[2:]
    sys.argv = ["jxbot", *argv]
    try:
        import yappi
    except ImportError:
        yappi = None  # type: ignore[assignment]
    if yappi is not None:
        yappi.set_clock_type("cpu")
        yappi.start(builtins=True, profile_threads=True)
        dump = _dump_yappi
    else:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()

        def dump(path: Path) -> None:
            prof.disable()
            buf = io.StringIO()
            st = pstats.Stats(prof, stream=buf)
            st.sort_stats("tottime").print_stats(60)
            st.sort_stats("cumulative").print_stats(80)
            prof.enable()
            path.write_text(buf.getvalue())

    def loop() -> None:
        while True:
            time.sleep(EVERY)
            try:
                dump(out)
            except Exception as exc:  # a profile is best effort
                print(f"profile dump failed: {exc!r}", file=sys.stderr)

    def reset(*_: object) -> None:  # SIGUSR1: start counting afresh (the benchmark sends it after the warm-up)
        if yappi is not None:
            yappi.clear_stats()
        else:
            prof.disable()
            prof.clear()
            prof.enable()

    import signal

    signal.signal(signal.SIGUSR1, reset)
    threading.Thread(target=loop, name="profile-dump", daemon=True).start()
    from jxbot.cli import main as cli_main

    sys.exit(cli_main(argv))


if __name__ == "__main__":
    main()
