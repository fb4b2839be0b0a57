"""The terminal's input side: a line reader on a daemon thread (a blocked ``readline`` never blocks the event
loop or the exit), tile names read in either language, and CJK-aware column widths. Used by
:mod:`jxbot.table.terminal`."""

from __future__ import annotations

import asyncio
import threading
from typing import TextIO

from wcwidth import wcswidth

from jxbot.i18n import LANGS, t
from jxbot.rules.tiles import parse_tile, tile_name

_END = object()  # the reader thread's last word: no line will ever come again


class LineReader:
    """Lines of a text stream delivered to asyncio; ``None`` at end of input.

    From a pipe or a file the end of input is final: ``get`` answers None from then on (``eof``). At a terminal
    Ctrl-D is only a moment's end of input (``get`` answers None once: the seat goes on auto-play) and the
    player can type on — ``auto`` takes the seat back; a second Ctrl-D in a row, or a terminal that went away
    (it answers end of input at once, forever), ends the input for good.

    The reader thread stops at the end of input, after :meth:`stop`, or as soon as the event loop it
    feeds has closed (the match is over while lines are still being read): it never raises then.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.eof = False
        self.thread: threading.Thread | None = None
        self._stop = threading.Event()
        try:  # a person at a terminal (not a script): lines typed out of turn are dropped, not queued
            self.interactive = bool(stream.isatty())
        except (AttributeError, OSError, ValueError):
            self.interactive = False

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def deliver(line: object) -> bool:
            """Hand a line to the loop; False when nobody can take it any more."""
            if self._stop.is_set() or loop.is_closed():
                return False
            try:
                loop.call_soon_threadsafe(self.queue.put_nowait, line)
            except RuntimeError:  # the loop closed between the check and the call
                return False
            return True

        def pump() -> None:
            ended = False  # the last read was an end of input (a terminal's Ctrl-D)
            while not self._stop.is_set():
                try:
                    line = self.stream.readline()
                except (OSError, ValueError):
                    deliver(_END)
                    return
                if not line:
                    if ended or not self.interactive:
                        deliver(_END)
                        return
                    ended = True
                    if not deliver(None):
                        return
                    continue
                ended = False
                if not deliver(line.rstrip("\r\n")):
                    return

        self.thread = threading.Thread(target=pump, name="stdin-reader", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Stop delivering lines (a ``readline`` in progress is abandoned, the daemon thread ends after it)."""
        self._stop.set()

    def drain(self) -> list[str]:
        """Take the lines waiting now (typed before the prompt that is about to open); an end of input, if
        one came, stays, with what was typed after it."""
        items: list[object] = []
        while not self.queue.empty():
            items.append(self.queue.get_nowait())
        out: list[str] = []
        for i, item in enumerate(items):
            if not isinstance(item, str):
                for rest in items[i:]:
                    self.queue.put_nowait(rest)
                break
            out.append(item)
        return out

    async def get(self) -> str | None:
        if self.eof:
            return None
        line = await self.queue.get()
        if line is _END:
            self.eof = True
            return None
        return line if isinstance(line, str) else None


def _tile_lookup() -> dict[str, int]:
    out: dict[str, int] = {}
    for k in range(34):
        for lang in ("zh", "en"):
            out[tile_name(k, lang).lower()] = k
    return out


_TILES = _tile_lookup()


def width(text: str) -> int:
    """Columns the text takes in a terminal (a hanzi takes two)."""
    w = wcswidth(text)
    return w if w >= 0 else len(text)


def pad(text: str, cols: int) -> str:
    """``text`` left-aligned in ``cols`` terminal columns (CJK-aware, unlike ``str.ljust``)."""
    return text + " " * max(0, cols - width(text))


ACTION_KINDS = ("tsumo", "angang", "bugang", "hu", "peng", "gang", "chi", "pass", "persist", "give_up")
ALSO = {"tsumo": "hu"}  # a self-draw win answers to 胡 / hu / win too


def action_words(kind: str) -> set[str]:
    """What a player may type for an action: its code (``peng``) and its name in either language (碰, pung)."""
    words = {kind} | {t(f"table.act.{kind}", lang).lower() for lang in LANGS}
    return words | (action_words(ALSO[kind]) if kind in ALSO else set())


def named_actions(text: str, actions: list[dict]) -> list[dict]:
    """The offered actions (discards aside) a typed word names: ``碰`` / ``pung`` / ``peng`` is the pung on offer,
    whatever its tile; ``吃`` names every chow offered (then the number says which)."""
    low = text.strip().lower()
    return [a for a in actions if a["type"] in ACTION_KINDS and low in action_words(a["type"])]


def names_an_action(text: str) -> bool:
    low = text.strip().lower()
    return any(low in action_words(kind) for kind in ACTION_KINDS)


SHOWN_MAX = 40  # characters of a typed line quoted back in a message


def shown(text: str) -> str:
    """A typed line as a message quotes it back: control characters (an arrow key's escape sequence, which
    would move the cursor) written as escapes, and at most ``SHOWN_MAX`` characters, then "…" (a pasted
    page is not echoed whole)."""
    text = text.strip()
    cut = text[:SHOWN_MAX] + ("…" if len(text) > SHOWN_MAX else "")
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in cut)


def read_tile(text: str) -> int | None:
    s = text.strip().lower()
    if s in _TILES:
        return _TILES[s]
    try:
        return parse_tile(s)
    except ValueError:
        return None
