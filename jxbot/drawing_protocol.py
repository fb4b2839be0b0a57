"""The drawing protocol between the bot (jxbot/drawing.py) and its drawing processes (jxbot/drawing_worker.py):
the frames both ends read and write (a 4-byte length and a pickle) and :func:`draw`, the drawing of one
picture that a worker — thread or process — runs for a request. Used by both ends, importing neither."""

from __future__ import annotations

import pickle
import struct
import time
from typing import Any

HEADER = struct.Struct(">I")


def read_frame(stream: Any) -> Any:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None  # end of input: the bot is gone
    (n,) = HEADER.unpack(head)
    body = stream.read(n)
    if len(body) < n:
        return None
    return pickle.loads(body)


def frame(obj: object) -> bytes:
    body = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def draw(kind: str, view: dict, lang: str) -> tuple[bytes | None, float, str | None]:
    """Draw one picture: (PNG or None, the CPU seconds it took, the error's traceback or None).

    Runs in a worker (thread or process). The traceback is handed back, not logged there, so a worker
    process needs no logging set-up and every error reaches the bot's log; it is formatted as the bot's
    log formats one (:func:`jxbot.logs.format_exception`: frames kept, texts that may quote a hand withheld)."""
    t0 = time.thread_time()
    try:
        import render

        fn = getattr(render, f"render_{kind}")
    except (ImportError, AttributeError):
        return None, 0.0, None
    try:
        return fn(view, lang), time.thread_time() - t0, None
    except Exception as exc:
        # the text of an exception that may quote the view (a hand's tiles) is withheld, as in every log line
        # (jxbot/logs.py); the frames stay
        from jxbot.logs import format_exception

        return None, time.thread_time() - t0, format_exception(exc)
