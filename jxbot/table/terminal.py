"""A human seat in the terminal: prints the table and reads answers from a text stream.

Used by ``jxbot play``. Input is read by a daemon thread (so a blocked ``readline`` never blocks the
event loop or the exit); the runner's clocks decide when an unanswered prompt times out.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, TextIO

import jxbot.rules.names  # noqa: F401  (registers the item.<code> labels)
from jxbot.game.actions import Action, ActionType, action_from_json
from jxbot.i18n import t
from jxbot.rules.tiles import parse_tile, tile_name, wind_name

from . import strings as _strings  # noqa: F401  (registers the strings)
from .strings import error_text


class LineReader:
    """Lines of a text stream delivered to asyncio; ``None`` at end of input.

    The reader thread stops at the end of input, after :meth:`stop`, or as soon as the event loop it
    feeds has closed (the match is over while lines are still being read): it never raises then.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.eof = False
        self.thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def deliver(line: str | None) -> bool:
            """Hand a line to the loop; False when nobody can take it any more."""
            if self._stop.is_set() or loop.is_closed():
                return False
            try:
                loop.call_soon_threadsafe(self.queue.put_nowait, line)
            except RuntimeError:  # the loop closed between the check and the call
                return False
            return True

        def pump() -> None:
            while not self._stop.is_set():
                try:
                    line = self.stream.readline()
                except (OSError, ValueError):
                    line = ""
                if not line:
                    deliver(None)
                    return
                if not deliver(line.rstrip("\r\n")):
                    return

        self.thread = threading.Thread(target=pump, name="stdin-reader", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Stop delivering lines (a ``readline`` in progress is abandoned, the daemon thread ends after it)."""
        self._stop.set()

    async def get(self) -> str | None:
        if self.eof:
            return None
        line = await self.queue.get()
        if line is None:
            self.eof = True
        return line


def _tile_lookup() -> dict[str, int]:
    out: dict[str, int] = {}
    for k in range(34):
        for lang in ("zh", "en"):
            out[tile_name(k, lang).lower()] = k
    return out


_TILES = _tile_lookup()


def read_tile(text: str) -> int | None:
    s = text.strip().lower()
    if s in _TILES:
        return _TILES[s]
    try:
        return parse_tile(s)
    except ValueError:
        return None


class TerminalSeat:
    """Implements the runner's ``Seat`` for one player at a terminal."""

    def __init__(self, out: TextIO, lang: str, reader: LineReader, seat: int = 0, clock: Any = None) -> None:
        self.out = out
        self.lang = lang
        self.reader = reader
        self.seat = seat
        self.clock = clock
        self.runner: Any = None
        self.silver: int | None = None
        self.quit = asyncio.Event()
        self.gone = False  # the output stream is closed
        self._open_line = False  # the last output was a prompt with no newline yet
        self._prompt_key: tuple | None = None
        self._task: asyncio.Task | None = None
        self._submitting = False
        self._listener: asyncio.Task | None = None  # reads "auto" while the seat is on auto-play
        self._listener_busy = False

    # ------------------------------------------------------------------ output helpers
    def say(self, text: str = "", end: str = "\n") -> None:
        if self.gone:
            return
        if self._open_line:  # a prompt is waiting on this line: start a new one
            text = "\n" + text
        self._open_line = end == ""
        try:
            self.out.write(text + end)
            self.out.flush()
        except (OSError, ValueError):  # the terminal went away (closed pipe): the player has left
            self.gone = True
            self.quit.set()

    def tile(self, k: int | None, wild: int | None = None) -> str:
        if k is None:
            return "?"
        name = tile_name(k, self.lang)
        return ("*" + name) if wild is not None and k == wild else name

    def tiles(self, ks, wild: int | None = None) -> str:
        return " ".join(self.tile(k, wild) for k in ks)

    def who(self, view: dict, seat: int | None) -> str:
        if seat is None:
            return "?"
        if seat == self.seat:
            return t("table.ui.you", self.lang)
        sv = view["seats"][seat]
        return f"{wind_name(sv['seat_wind'], self.lang)}·{sv.get('name', seat)}"

    def act_text(self, a: dict, wild: int | None = None) -> str:
        name = t(f"table.act.{a['type']}", self.lang)
        tile = a.get("tile")
        if tile is None:
            return name
        if a["type"] == ActionType.CHOW.value:
            return f"{name} {self.tiles((tile, tile + 1, tile + 2), wild)}"
        return f"{name} {self.tile(tile, wild)}"

    def melds(self, melds: list[dict], wild: int | None) -> str:
        if not melds:
            return t("table.ui.none", self.lang)
        return " ".join(f"{t('table.meld.' + m['kind'], self.lang)}[{self.tiles(m['tiles'], wild)}]" for m in melds)

    def clock_text(self, view: dict) -> str:
        dl = view.get("deadline")
        if dl is None or self.clock is None:
            return ""
        return t("table.ui.clock", self.lang, secs=max(0, round(dl - self.clock.now())))

    # ------------------------------------------------------------------ board
    def board(self, view: dict) -> None:
        lang, wild = self.lang, view.get("wildcard")
        ind = view.get("indicator")
        self.say()
        self.say(t("table.ui.header", lang, n=view.get("hand_number", "?"), rw=wind_name(view.get("round_wind", 0), lang),
                   dealer=self.who(view, view.get("dealer")),
                   wild=self.tile(wild) if wild is not None else t("table.ui.none", lang),
                   ind=self.tile(ind) if ind is not None else "-", wall=view.get("wall_remaining", "?")))
        for sv in view["seats"]:
            i = sv["seat"]
            name = t("table.ui.you", lang) if i == self.seat else sv.get("name", str(i))
            self.say(t("table.ui.seat_line", lang, wind=wind_name(sv["seat_wind"], lang),
                       dealer="*" if sv.get("is_dealer") else " ", name=name, total=sv.get("total", 0),
                       auto=t("table.ui.auto", lang) if sv.get("auto") else "", n=sv["concealed_count"],
                       melds=self.melds(sv["melds"], wild)))
            ds = [self.tile(d["tile"], wild) + ("'" if d.get("claimed") else "") for d in sv["discards"]]
            self.say(t("table.ui.discards", lang, tiles=" ".join(ds) or "-"))
        line = t("table.ui.hand", lang, tiles=self.tiles(view.get("hand", []), wild))
        if view.get("drawn") is not None:
            line += t("table.ui.drawn", lang, tile=self.tile(view["drawn"], wild))
        self.say(line + "  " + t("table.ui.wild_mark", lang))

    # ------------------------------------------------------------------ Seat protocol
    async def notify(self, view: dict, note: dict | None) -> None:
        if note:
            self.show_note(view, note)
        actions = view.get("actions") or []
        me_auto = bool(view["seats"][self.seat].get("auto"))
        if me_auto:
            self._prompt_key = None
            self._cancel_prompt()
            if (self._listener is None or self._listener.done()) and not self.reader.eof and not self.quit.is_set():
                self._listener = asyncio.create_task(self._listen())
            return
        if self._listener is not None and not self._listener.done() and not self._listener_busy:
            self._listener.cancel()
        if not actions:
            self._prompt_key = None
            self._cancel_prompt()
            return
        last = view.get("last_discard") or {}
        key = (view.get("hand_id"), view.get("phase"), view.get("turn"), last.get("seat"), last.get("tile"),
               view.get("drawn"), len(view.get("hand", [])), tuple(sorted(str(a) for a in actions)))
        if key == self._prompt_key:
            return
        self._prompt_key = key
        self._cancel_prompt()
        self._task = asyncio.create_task(self._ask(view))

    async def _call(self, coro: Any) -> Any:
        """Await a runner call from the prompt task; the runner's notifications (which may cancel
        prompts) leave a task alone while it is inside such a call."""
        self._submitting = True
        try:
            return await coro
        finally:
            self._submitting = False

    async def _listen(self) -> None:
        """On auto-play: wait for the player to type ``auto`` to take the seat back."""
        self.say(t("table.ui.auto_hint", self.lang))
        while True:
            line = await self.reader.get()
            if line is None:
                return
            if line.strip().lower() == "auto":
                self._listener_busy = True
                try:
                    await self.runner.set_auto(self.seat, False)
                finally:
                    self._listener_busy = False
                return

    def _cancel_prompt(self) -> None:
        if self._task is not None and not self._task.done() and not self._submitting:
            self._task.cancel()
        self._task = None

    def show_note(self, view: dict, note: dict) -> None:
        lang, kind, seat = self.lang, note.get("kind"), note.get("seat")
        wild = view.get("wildcard")
        if kind in ("action", "auto_action", "timeout"):
            if note.get("type") == ActionType.PASS.value:
                return
            what = self.act_text(note, wild)
            key = "table.ui.timeout" if kind == "timeout" else "table.ui.did"
            self.say(t(key, lang, who=self.who(view, seat), what=what))
        elif kind == "auto":
            self.say(t("table.ui.auto_on" if note.get("on") else "table.ui.auto_off", lang, who=self.who(view, seat)))
        elif kind == "autowin" and seat == self.seat:
            self.say(t("table.ui.autowin_on" if note.get("on") else "table.ui.autowin_off", lang))
        elif kind == "escape":
            self.say(t("table.ui.escape", lang, who=self.who(view, seat)))
        elif kind == "hand_start" and view.get("commitment"):
            self.say(t("replay.terminal.commitment", lang, c=view["commitment"]))

    def options(self, view: dict) -> list[dict]:
        """The numbered options of a prompt (everything but discards)."""
        return [a for a in view.get("actions", []) if a["type"] != ActionType.DISCARD.value]

    def default(self, view: dict) -> dict | None:
        acts = view.get("actions", [])
        discards = [a for a in acts if a["type"] == ActionType.DISCARD.value]
        if discards:
            drawn = view.get("drawn")
            for a in discards:
                if a.get("tile") == drawn:
                    return a
            hand = view.get("hand") or []
            for a in discards:
                if hand and a.get("tile") == hand[-1]:
                    return a
            return discards[-1]
        for want in (ActionType.PASS.value, ActionType.PERSIST.value):
            for a in acts:
                if a["type"] == want:
                    return a
        return acts[0] if acts else None

    def prompt(self, view: dict) -> str:
        lang, wild = self.lang, view.get("wildcard")
        opts = self.options(view)
        numbered = [o for o in opts if o["type"] not in (ActionType.PASS.value,)]
        listing = "  ".join(f"[{i}] {self.act_text(o, wild)}" for i, o in enumerate(numbered, 1))
        phase, clock = view.get("phase"), self.clock_text(view)
        last = view.get("last_discard") or {}
        if phase == "turn":
            extra = t("table.ui.or_number", lang, opts=listing) if numbered else ""
            return t("table.ui.turn_prompt", lang, opts=extra, clock=clock)
        if phase == "contract":
            pair = view.get("contract") or [None, None]
            return t("table.ui.contract_prompt", lang, a=self.who(view, pair[0]), b=self.who(view, pair[1]),
                     opts=listing, clock=clock)
        if phase == "rob":
            kong = view.get("pending_kong") or {"seat": view.get("turn"), "tile": None}
            return t("table.ui.rob_prompt", lang, who=self.who(view, kong["seat"]), tile=self.tile(kong["tile"], wild),
                     opts=listing, clock=clock)
        return t("table.ui.claim_prompt", lang, who=self.who(view, last.get("seat")),
                 tile=self.tile(last.get("tile"), wild), opts=listing, clock=clock)

    def parse(self, view: dict, line: str) -> dict | None:
        s = line.strip()
        if not s:
            return self.default(view)
        numbered = [o for o in self.options(view) if o["type"] != ActionType.PASS.value]
        if s.isdigit():
            i = int(s)
            if 1 <= i <= len(numbered):
                return numbered[i - 1]
            if i == 0:
                return self.default(view)
            return None
        low = s.lower()
        for a in view.get("actions", []):  # a word: 胡 / hu / peng / pass …
            if low in (a["type"], t(f"table.act.{a['type']}", self.lang).lower()) and a.get("tile") is None:
                return a
        k = read_tile(s)
        if k is not None:
            for a in view.get("actions", []):
                if a["type"] == ActionType.DISCARD.value and a.get("tile") == k:
                    return a
        return None

    async def _ask(self, view: dict) -> None:
        if view.get("phase") == "turn":
            self.board(view)
        self.say(self.prompt(view), end="")
        while True:
            line = await self.reader.get()
            self._open_line = False  # the player's Enter ended the prompt's line
            if line is None:
                self.say()
                self.say(t("table.ui.eof", self.lang))
                await self._call(self.runner.set_auto(self.seat, True))
                return
            word = line.strip().lower()
            if word in ("help", "?", "h"):
                self.say(t("table.ui.help", self.lang))
                self.say(self.prompt(view), end="")
                continue
            if word == "auto":
                await self._call(self.runner.set_auto(self.seat, not self.runner.seats[self.seat].auto))
                return
            if word == "autowin":
                await self._call(self.runner.set_autowin(self.seat, not self.runner.seats[self.seat].autowin))
                self.say(self.prompt(view), end="")
                continue
            if word in ("quit", "exit", "q"):
                self.quit.set()
                await self._call(self.runner.leave(self.seat))
                return
            choice = self.parse(view, line)
            if choice is None:
                self.say(t("table.ui.bad_input", self.lang, text=line.strip()))
                self.say(self.prompt(view), end="")
                continue
            action: Action = action_from_json(choice)
            err = await self._call(self.runner.submit(self.seat, action))
            if err is None:
                return
            self.say(error_text(err, self.lang))
            if err in ("no_hand", "paused", "escaped", "table_error"):
                return
            self.say(self.prompt(view), end="")

    async def on_result(self, result: dict) -> None:
        self._cancel_prompt()
        self._prompt_key = None
        lang, wild = self.lang, result.get("wildcard")
        names = {p["seat"]: p.get("name", str(p["seat"])) for p in result.get("payments", [])}

        def nm(s: int | None) -> str:
            if s is None:
                return "?"
            return t("table.ui.you", lang) if s == self.seat else names.get(s, str(s))

        self.say()
        if result.get("drawn_game") or result.get("winner") is None:
            self.say(t("table.ui.drawn_game", lang))
        else:
            w = result["winner"]
            if result.get("self_draw"):
                how = t("table.ui.self_draw", lang)
            elif result.get("robbed_from") is not None:
                how = t("table.ui.robbed", lang, who=nm(result["robbed_from"]))
            else:
                how = t("table.ui.from", lang, who=nm(result.get("discarder")))
            self.say(t("table.ui.result_win", lang, who=nm(w), how=how, tile=self.tile(result.get("win_tile"), wild)))
            self.say(t("table.ui.win_hand", lang, tiles=self.tiles(result.get("hand", []), wild),
                       melds=self.melds(result.get("melds", []), wild)))
            score = result.get("score") or {}
            caishen = result.get("ruleset") == "caishen"  # RULES B: the items are multipliers
            for item in score.get("fan", []) if caishen else ():
                self.say(t("table.ui.item", lang, label=t(f"item.{item['name']}", lang), value=f"×{item['value']}",
                           unit=""))
            for item in score.get("tai", []):
                self.say(t("table.ui.item", lang, label=t(f"item.{item['name']}", lang), value=item["value"],
                           unit=t("table.ui.tai", lang)))
            for item in score.get("fan", []) if not caishen else ():
                self.say(t("table.ui.item", lang, label=t(f"item.{item['name']}", lang), value=item["value"],
                           unit=t("table.ui.fan", lang)))
            if score and caishen:
                mult = 1
                for item in score.get("fan", []):
                    mult *= item["value"]
                self.say("  " + t("score.caishen_formula", lang, stake=score.get("stake"), mult=mult,
                                  points=score.get("points")))
            elif score:
                self.say(t("table.ui.total", lang, tai=score.get("total_tai"), fan=score.get("total_fan"),
                           stake=score.get("stake"), points=score.get("points")))
        for p in result.get("payments", []):
            bal = p.get("balance")
            if p["seat"] == self.seat and bal is not None:
                self.silver = bal
            self.say(t("table.ui.payment", lang, name=nm(p["seat"]), delta=p.get("delta", 0), total=p.get("total", 0),
                       balance=t("table.ui.balance", lang, b=bal) if bal is not None else ""))
        if result.get("cumulative_queue"):
            self.say(t("table.ui.queue", lang, q=", ".join(t(f"item.{c}", lang) for c in result["cumulative_queue"])))
        reveal = result.get("reveal") or {}
        if reveal.get("commitment"):  # the whole reveal, to check with `jxbot verify` (docs/replay.md)
            from jxbot.replay import wall_notation

            self.say(t("replay.terminal.reveal", lang, c=reveal["commitment"], salt=reveal.get("salt", ""),
                       wall=wall_notation(reveal.get("wall") or [])))

    async def on_reseat(self, info: dict) -> None:
        """RULES B11: after a 版 the players drew new seats; this player now sits at ``info["seat"]``."""
        self.seat = info["seat"]
        self._prompt_key = None
        self.say()
        key = "table.ui.reseat_stay" if info["old_seat"] == info["seat"] else "table.ui.reseat"
        self.say(t(key, self.lang, old=wind_name(info["old_seat"], self.lang), new=wind_name(info["seat"], self.lang)))
        for i, name in enumerate(info.get("names", ())):
            self.say(t("table.ui.reseat_line", self.lang, wind=wind_name(i, self.lang),
                       name=t("table.ui.you", self.lang) if i == self.seat else name))

    async def on_match_end(self, summary: dict) -> None:
        self.say()
        self.say(t("table.ui.match_end", self.lang, n=summary["hands"]))
        for i, (name, total) in enumerate(zip(summary["names"], summary["totals"], strict=True)):
            self.say(t("table.ui.final", self.lang, name=t("table.ui.you", self.lang) if i == self.seat else name,
                       total=total))
