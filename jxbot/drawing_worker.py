"""A drawing process (jxbot/drawing.py starts it as ``python -m jxbot.drawing_worker NICE``).

It reads requests from stdin (jxbot/drawing_protocol.py: the frames and the drawing of one picture, shared
with the bot's end) and writes answers to stdout, one at a time, each a frame: a 4-byte length
and a pickle. A request is ``(id, kind, view, lang)`` (kind ``"warm"``: fill the caches); an answer is
``(id, png or None, CPU seconds, traceback or None)``. Its stdin closing (the bot stopped, or was killed)
ends it. Nothing else may reach stdout: print() and stray output go to stderr.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

from jxbot.drawing_protocol import draw, frame, read_frame


def main(argv: list[str]) -> int:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's: it closes our stdin
    nice = int(argv[0]) if argv else 0
    if nice and hasattr(os, "nice"):  # (not on Windows)
        with contextlib.suppress(OSError):
            os.nice(nice)
    out = os.fdopen(os.dup(1), "wb")  # the answers' channel
    os.dup2(2, 1)  # anything printed goes to stderr, never into an answer
    inp = os.fdopen(os.dup(0), "rb")  # (buffered: a read(n) returns n bytes, or fewer only at the end)
    while True:
        req = read_frame(inp)
        if req is None:
            return 0
        rid, kind, view, lang = req  # (our own frames: a 4-tuple)
        answer: tuple[Any, bytes | None, float, str | None]
        if kind == "warm":
            import time

            t0 = time.thread_time()
            import render

            render.warm_up()
            answer = (rid, None, time.thread_time() - t0, None)
        else:
            png, cpu, error = draw(kind, view, lang)
            answer = (rid, png, cpu, error)
        try:
            out.write(frame(answer))
            out.flush()
        except (BrokenPipeError, ConnectionError, OSError):
            return 0  # the bot is gone (killed): nobody to answer, and nothing to say about it


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
