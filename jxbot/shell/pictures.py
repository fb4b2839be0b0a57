"""The picture pipeline: pictures drawn off the event loop through the drawing lanes (jxbot.drawing).

Pictures are drawn in worker processes (the default with a core to spare) or threads, in two lanes:
"now" for the pictures a player is waiting for (the panel answering a press, a panel with buttons to
act on) and "later" for everything that can wait (table pictures, results, panels nobody acts on).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref

from jxbot import drawing

log = logging.getLogger("jxbot.shell.pictures")


# When the bot is busy (this many background pictures already waiting for the drawing thread), a table
# message's picture is redrawn at most every BUSY_PICTURE_EVERY s; its status text still follows every move.
BUSY_PICTURES_WAITING = 3


BUSY_PICTURE_EVERY = 3.0


_WAITING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int] = weakref.WeakKeyDictionary()  # per loop


def background_pictures_waiting() -> int:
    return _WAITING.get(asyncio.get_running_loop(), 0)


BACKGROUND_REST = 1.0  # drawing in threads: after a background picture, rest this many times as long as it took


MAX_REST = 0.1  # seconds


_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


async def render_async(kind: str, view: dict, lang: str, *, urgent: bool = False) -> bytes | None:
    """A picture drawn off the event loop; ``urgent`` pictures never queue behind the others.

    Background pictures take turns (the number waiting paces the busy tables' pictures). Drawn in threads
    they also rest after each, as long again as it took: drawing holds the GIL, and under load it would
    otherwise leave the event loop and the store's thread waiting for it, and every press waiting for them.
    In processes the later lane's lower priority does that."""
    pictures = drawing.drawing()
    if urgent:
        return await pictures.draw(kind, view, lang, urgent=True)
    loop = asyncio.get_running_loop()
    gate = _GATES.get(loop)
    if gate is None:
        gate = _GATES[loop] = asyncio.Lock()  # one per event loop (tests run several)
    _WAITING[loop] = _WAITING.get(loop, 0) + 1
    try:
        await gate.acquire()
    finally:
        _WAITING[loop] -= 1
    try:
        t0 = time.perf_counter()
        png = await pictures.draw(kind, view, lang, urgent=False)
        if not pictures.in_processes:
            # (capped: the first pictures of a process are slow while the sprite caches fill)
            await asyncio.sleep(min(MAX_REST, (time.perf_counter() - t0) * BACKGROUND_REST))
    finally:
        gate.release()
    return png


def render_png(kind: str, view: dict, lang: str) -> bytes | None:
    """PNG bytes from ``render`` (hand / table / result) drawn here and now, or None if rendering is
    unavailable."""
    png, cpu, error = drawing.draw(kind, view, lang)
    drawing.count(kind, cpu)
    if error is not None:
        log.error("rendering the %s image failed:\n%s", kind, error.rstrip())
    return png


def rules_png(lang: str, ruleset: str = "jiaxing") -> bytes | None:
    """The illustrated rules card (render.render_rules), or None if it cannot be drawn (text only then)."""
    try:
        from render import render_rules

        return render_rules(lang, ruleset)
    except Exception:
        log.exception("rendering the rules card failed")
        return None
