"""A human seat in the terminal: prints the table and reads answers from a text stream.

Used by ``jxbot play``. Input is read by a daemon thread (so a blocked ``readline`` never blocks the
event loop or the exit); the runner's clocks decide when an unanswered prompt times out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TextIO

import jxbot.rules.names  # noqa: F401  (registers the item.<code> labels)
from jxbot import howto
from jxbot.game.actions import Action, ActionType, action_from_json
from jxbot.game.timeout import turn_rule
from jxbot.i18n import t
from jxbot.rules.tiles import WHITE, tile_name, wind_name
from jxbot.rulesets import of_view

from . import strings as _strings  # noqa: F401  (registers the strings)
from .strings import error_text
from .terminal_input import LineReader, named_actions, names_an_action, pad, read_tile, shown, width  # noqa: F401  (part of this module's face)

HELP_WORDS = ("help", "?", "h", "帮助")
HINT_WORDS = ("hint", "提示")
RULES_WORDS = ("rules", "规则", "howto", "怎么玩")
WALL_WORDS = ("wall", "牌墙")
REVIEW_WORDS = ("r", "review", "复盘")


class TerminalSeat:
    """Implements the runner's ``Seat`` for one player at a terminal.

    Words typed at a prompt other than tiles and numbers are looked up in ``text_commands`` (word →
    method name; the method takes the prompt's view and prints). Another command (e.g. ``rules`` /
    ``规则``) is added there by a subclass or at import time, without touching the prompt loop.
    """

    text_commands: dict[str, str] = {**{w: "show_help" for w in HELP_WORDS}, **{w: "show_hint" for w in HINT_WORDS},
                                     **{w: "show_rules" for w in RULES_WORDS}}

    def __init__(self, out: TextIO, lang: str, reader: LineReader, seat: int = 0, clock: Any = None) -> None:
        self.out = out
        self.lang = lang
        self.reader = reader
        self.seat = seat
        self.clock = clock
        self.runner: Any = None
        self.silver: int | None = None
        self.quit = asyncio.Event()
        self.white_as: int | None = None  # caishen: the kind a 白板 plays as (RULES B1)
        self.gone = False  # the output stream is closed
        self._open_line = False  # the last output was a prompt with no newline yet
        self._prompt_key: tuple | None = None
        self._task: asyncio.Task | None = None
        self._submitting = False
        self._listener: asyncio.Task | None = None  # reads "auto" while the seat is on auto-play
        self._listener_busy = False
        self._next: asyncio.Task | None = None  # the pause after a result ("Enter for the next hand")
        self._reading = False  # the input line of a prompt is the last line on screen
        self.auto_pause = 0.0  # seconds between hands when nobody needs to press Enter
        self._chosen: tuple[tuple, Action] | None = None  # the computer's choice for Enter, per prompt
        self.learn = False  # learner mode (``jxbot play --learn``): the ready hand's waits shown, hints
        self._hinter: Any = None  # the normal computer player giving hints (learner mode)
        self._last_reveal: dict | None = None  # the last hand's fair-deal reveal, shown in full on request
        self._last_events: list[dict] | None = None  # the last hand's log, for ``r``: (events, seat, lang) -> text
        self.review: Callable[[list[dict], int, str], str] | None = None  # the coach's, given by ``jxbot play``

    # ------------------------------------------------------------------ output helpers
    def guide(self, view: dict, *, rules: bool) -> str:
        """``help``/帮助: the commands and where the rules are; ``rules``/规则: the how-to-play guide
        (jxbot/howto, the same pages as /mahjong howto)."""
        if rules:
            return howto.guide_text(self.lang, of_view(view).name)
        return t("table.ui.help", self.lang) + "\n" + t("howto.terminal_hint", self.lang)

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
        if a["type"] == ActionType.CHOW.value:  # a 白板 plays the 財神's face in a caishen chow
            run = [self.face(k) if k == self.white_as else self.tile(k, wild) for k in (tile, tile + 1, tile + 2)]
            return f"{name} {' '.join(run)}"
        return f"{name} {self.tile(tile, wild)}"

    def face(self, kind: int) -> str:
        """A 白板 standing for ``kind`` (caishen): 白(3万)."""
        return t("table.ui.white_face", self.lang, face=tile_name(kind, self.lang))

    def melds(self, melds: list[dict], wild: int | None, empty: str | None = None) -> str:
        if not melds:
            return t("table.ui.none", self.lang) if empty is None else empty

        def tiles(m: dict) -> str:
            wa = m.get("white_as")
            return " ".join(self.face(wa) if wa is not None and k == WHITE else self.tile(k, wild) for k in m["tiles"])

        return " ".join(f"{t('table.meld.' + m['kind'], self.lang)}[{tiles(m)}]" for m in melds)

    def wword(self, view: dict) -> str:
        """百搭 at a Jiaxing table, 財神 at a caishen one."""
        return t(of_view(view).ui_wildcard_key, self.lang)

    def secs_left(self, view: dict) -> int | None:
        dl = view.get("deadline")
        if dl is None or self.clock is None:
            return None
        return max(0, round(dl - self.clock.now()))

    def clock_text(self, view: dict) -> str:
        """The start of the input line: the time left, or just the prompt mark."""
        secs = self.secs_left(view)
        return t("table.ui.input", self.lang) if secs is None else t("table.ui.clock", self.lang, secs=secs)

    # ------------------------------------------------------------------ board
    def board(self, view: dict) -> None:
        lang, wild = self.lang, view.get("wildcard")
        ind = view.get("indicator")
        self.white_as = view.get("white_as")
        self.say()
        self.say(t("table.ui.header", lang, n=view.get("hand_number", "?"), rw=wind_name(view.get("round_wind", 0), lang),
                   dealer=self.who(view, view.get("dealer")), wword=self.wword(view),
                   wild=self.tile(wild) if wild is not None else t("table.ui.none", lang),
                   ind=self.tile(ind) if ind is not None else "-", wall=view.get("wall_remaining", "?")))
        if self.white_as is not None or view.get("voided"):  # caishen (RULES B1, B2)
            self.say(t("table.ui.caishen_line", lang, face=self.face(self.white_as) if self.white_as is not None else "-",
                       voided=self.tiles(view.get("voided") or []) or "-"))
        names = [t("table.ui.you", lang) if sv["seat"] == self.seat else str(sv.get("name", sv["seat"]))
                 for sv in view["seats"]]
        cols = max(8, *(width(n) for n in names))
        wcols = max(width(wind_name(k, lang)) for k in range(4))
        dmark = t("table.ui.dealer_mark", lang)
        for sv, name in zip(view["seats"], names, strict=True):
            self.say(t("table.ui.seat_line", lang, wind=pad(wind_name(sv["seat_wind"], lang), wcols),
                       dealer=dmark if sv.get("is_dealer") else " " * width(dmark), name=pad(name, cols), total=sv.get("total", 0),
                       auto=t("table.ui.auto", lang) if sv.get("auto") else "", n=sv["concealed_count"],
                       melds=self.melds(sv["melds"], wild)))
            ds = [self.tile(d["tile"], wild) + ("'" if d.get("claimed") else "") for d in sv["discards"]]
            self.say(t("table.ui.discards", lang, tiles=" ".join(ds) or "-"))
        line = t("table.ui.hand", lang, tiles=self.tiles(view.get("hand", []), wild))
        if view.get("drawn") is not None:
            line += t("table.ui.drawn", lang, tile=self.tile(view["drawn"], wild))
        self.say(line + "  " + t("table.ui.wild_mark", lang, wword=self.wword(view), dmark=dmark))
        if view.get("cumulative_queue"):  # RULES A7: the cumulative 番 the next winner takes
            self.say(t("table.ui.pending_fan", lang,
                       q=", ".join(t(f"item.{c}", lang) for c in view["cumulative_queue"])))
        if self.learn and (ready := self.ready_text(view)):
            self.say(ready)

    # ------------------------------------------------------------------ learner mode
    def ready_text(self, view: dict) -> str:
        """听牌: the kinds the hand wins on (13 tiles), or, holding a drawn tile, which discards leave it
        ready and on what. Empty when the hand is not ready."""
        from jxbot.rules.melds import Meld
        from jxbot.rules.shape import waits

        wild = view.get("wildcard")
        tiles = list(view.get("hand") or [])
        if view.get("drawn") is not None:
            tiles.append(view["drawn"])
        melds = [Meld.from_json(m) for m in view["seats"][self.seat].get("melds", [])]
        ruleset = view.get("ruleset") or "jiaxing"
        try:
            if len(tiles) % 3 == 1:
                w = sorted(waits(tiles, melds, wild, ruleset))
                return t("table.ui.ready", self.lang, tiles=self.tiles(w, wild)) if w else ""
            if len(tiles) % 3 == 2:
                parts = []
                for k in sorted(set(tiles)):
                    rest = list(tiles)
                    rest.remove(k)
                    w = sorted(waits(rest, melds, wild, ruleset))
                    if w:
                        parts.append(t("table.ui.ready_after", self.lang, tile=self.tile(k, wild),
                                       tiles=self.tiles(w, wild)))
                return t("table.ui.ready_if", self.lang, parts="; ".join(parts)) if parts else ""
        except (ValueError, KeyError):  # a ruleset that cannot list waits: say nothing
            return ""
        return ""

    def hint(self, view: dict) -> str:
        """What the normal computer player would play now (learner mode's ``hint``)."""
        actions = view.get("actions") or []
        if not actions:
            return t("table.ui.no_hint", self.lang)
        if self._hinter is None:
            from jxbot.ai import make_player

            self._hinter = make_player("normal", f"hint:{self.seat}")
        try:
            choice = self._hinter.choose(view)
        except Exception:
            choice = None
        if choice is None:
            return t("table.ui.no_hint", self.lang)
        return t("table.ui.hint", self.lang, what=self.act_text(choice.to_json(), view.get("wildcard")))

    def show_help(self, view: dict) -> None:
        self.say(self.guide(view, rules=False))

    def show_rules(self, view: dict) -> None:
        self.say(self.guide(view, rules=True))

    def show_hint(self, view: dict) -> None:
        self.say(self.hint(view))

    # ------------------------------------------------------------------ Seat protocol
    async def notify(self, view: dict, note: dict | None) -> None:
        self.white_as = view.get("white_as")
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
            if self.learn and seat == self.seat and note.get("type") == ActionType.DISCARD.value:
                ready = self.ready_text(view)
                if ready:
                    self.say(ready)
        elif kind == "auto":
            self.say(t("table.ui.auto_on" if note.get("on") else "table.ui.auto_off", lang, who=self.who(view, seat)))
        elif kind == "autowin" and seat == self.seat:
            self.say(t("table.ui.autowin_on" if note.get("on") else "table.ui.autowin_off", lang))
        elif kind == "escape":
            self.say(t("table.ui.escape", lang, who=self.who(view, seat)))
        elif kind == "hand_start" and view.get("commitment"):
            self.say(t("table.ui.commitment", lang, c=view["commitment"]))

    def options(self, view: dict) -> list[dict]:
        """The numbered options of a prompt (everything but discards)."""
        return [a for a in view.get("actions", []) if a["type"] != ActionType.DISCARD.value]

    def default(self, view: dict) -> dict | None:
        """What Enter plays: what a timeout would (RULES C, ``jxbot.game.timeout``) — on a turn the
        winning self-draw, else the drawn tile unless it is the 百搭/財神 (then the computer player's
        choice); on a claim, pass; on a contract, persist."""
        acts = view.get("actions", [])
        discards = [a for a in acts if a["type"] == ActionType.DISCARD.value]
        if view.get("phase") == "turn" and acts:
            ruled = turn_rule([action_from_json(a) for a in acts], view.get("drawn"), view.get("wildcard"))
            if ruled is None and self.runner is not None and self._current(view):
                # the computer player's choice: asked once per prompt, so Enter plays what the prompt said
                key = (view.get("hand_id"), view.get("drawn"), tuple(view.get("hand") or ()), len(acts))
                if self._chosen is None or self._chosen[0] != key:
                    self._chosen = (key, self.runner.timeout_action(self.seat))
                ruled = self._chosen[1]
            if ruled is not None:
                return ruled.to_json()
        if discards:
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

    def _current(self, view: dict) -> bool:
        """The runner still waits for this seat in the hand and phase of ``view``."""
        hand = getattr(self.runner, "hand", None)
        return (hand is not None and hand.phase == view.get("phase") and self.seat in hand.pending()
                and str(getattr(hand, "hand_id", None) or hand.context.hand_id) == str(view.get("hand_id")))

    def enter_text(self, view: dict) -> str:
        d = self.default(view)
        return self.act_text(d, view.get("wildcard")) if d is not None else t("table.ui.none", self.lang)

    def prompt(self, view: dict) -> str:
        """The question (one or more lines), then the input line, which starts with the time left."""
        return self.question(view) + "\n" + self.clock_text(view)

    def question(self, view: dict) -> str:
        lang, wild = self.lang, view.get("wildcard")
        opts = self.options(view)
        numbered = [o for o in opts if o["type"] not in (ActionType.PASS.value,)]
        listing = "  ".join(f"[{i}] {self.act_text(o, wild)}" for i, o in enumerate(numbered, 1))
        phase = view.get("phase")
        last = view.get("last_discard") or {}
        if phase == "turn":
            extra = t("table.ui.or_number", lang, opts=listing) if numbered else ""
            return t("table.ui.turn_prompt", lang, opts=extra, enter=self.enter_text(view))
        if phase == "contract":
            pair = view.get("contract") or [None, None]
            return t("table.ui.contract_prompt", lang, a=self.who(view, pair[0]), b=self.who(view, pair[1]),
                     opts=listing)
        if phase == "rob":
            kong = view.get("pending_kong") or {"seat": view.get("turn"), "tile": None}
            return t("table.ui.rob_prompt", lang, who=self.who(view, kong["seat"]), tile=self.tile(kong["tile"], wild),
                     opts=listing)
        return t("table.ui.claim_prompt", lang, who=self.who(view, last.get("seat")),
                 tile=self.tile(last.get("tile"), wild), opts=listing)

    def why_not(self, view: dict, line: str) -> str:
        """Why a typed answer was not taken, in the player's terms."""
        s = line.strip()
        if s.isdecimal():
            return t("table.ui.no_option", self.lang, n=shown(s))
        if names_an_action(s):  # 吃 with two chows offered; 胡 with no win on offer
            key = "table.ui.which" if named_actions(s, view.get("actions", [])) else "table.ui.not_offered"
            return t(key, self.lang, text=shown(s), enter=self.enter_text(view))
        k = read_tile(s)
        if k is not None:
            if view.get("phase") == "turn":
                return t("table.ui.not_held", self.lang, tile=self.tile(k, view.get("wildcard")))
            return t("table.ui.not_discarding", self.lang, enter=self.enter_text(view))
        return t("table.ui.bad_input", self.lang, text=shown(s))

    def parse(self, view: dict, line: str) -> dict | None:
        s = line.strip()
        if not s:
            return self.default(view)
        numbered = [o for o in self.options(view) if o["type"] != ActionType.PASS.value]
        if s.isdecimal():  # not isdigit: int("²") raises (the prompt died); 4,300 digits and more too
            i = int(s) if len(s) < 10 else -1
            if 1 <= i <= len(numbered):
                return numbered[i - 1]
            if i == 0:
                return self.default(view)
            return None
        named = named_actions(s, view.get("actions", []))  # a word: 胡 / hu / 碰 / pung / pass …
        if len(named) == 1:
            return named[0]
        k = read_tile(s)
        if k is not None:
            for a in view.get("actions", []):
                if a["type"] == ActionType.DISCARD.value and a.get("tile") == k:
                    return a
        return None

    def _drop_early_input(self) -> None:
        """At a terminal, what was typed while it was not this player's move is dropped (said so),
        not taken as the answer to the prompt that opens now. Scripted input (a pipe) is kept."""
        if not self.reader.interactive:
            return
        for line in self.reader.drain():
            if line.strip():
                self.say(t("table.ui.dropped", self.lang, text=shown(line)))

    async def _tick(self, view: dict) -> None:
        """The live countdown: rewrite the time at the start of the input line every second, leaving
        the cursor (and what the player is typing) where it is. Terminals only."""
        if not self.reader.interactive or self.secs_left(view) is None or self.clock is None:
            return
        while True:
            await self.clock.sleep(1.0)
            secs = self.secs_left(view)
            if secs is None or self.gone:
                return
            if not self._reading:  # the input line is not on screen just now (output follows an answer)
                continue
            try:  # DEC save cursor, to column 0, the clock, restore cursor
                self.out.write("\x1b7\r" + t("table.ui.clock", self.lang, secs=secs) + "\x1b8")
                self.out.flush()
            except (OSError, ValueError):
                return
            if secs <= 0:
                return

    async def _ask(self, view: dict) -> None:
        ticker: asyncio.Task | None = None
        try:
            self._drop_early_input()
            if view.get("phase") == "turn":
                self.board(view)
            self.say(self.prompt(view), end="")
            ticker = asyncio.create_task(self._tick(view))
            await self._answer(view)
        finally:
            if ticker is not None:
                ticker.cancel()

    async def _answer(self, view: dict) -> None:
        confirm_quit = False
        while True:
            self._reading = True
            try:
                line = await self.reader.get()
            finally:
                self._reading = False
            self._open_line = False  # the player's Enter ended the prompt's line
            if confirm_quit:
                confirm_quit = False
                if line is not None and line.strip().lower() in ("y", "yes", "quit", "q", "是", "确定"):
                    self.quit.set()
                    await self._call(self.runner.leave(self.seat))
                    return
                if line is not None:
                    self.say(t("table.ui.quit_stay", self.lang))
                    self.say(self.prompt(view), end="")
                    continue
            if line is None:
                self.say("\n" + t("table.ui.eof", self.lang))
                await self._call(self.runner.set_auto(self.seat, True))
                return
            word = line.strip().lower()
            command = self.text_commands.get(word)
            if command is not None:
                getattr(self, command)(view)
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
                confirm_quit = True  # RULES A10: say what an escape costs before it happens
                fee = getattr(self.runner.config, "fee", 0)
                ask = t("table.ui.quit_confirm", self.lang, fee=fee) if fee else t("table.ui.quit_confirm_nofee",
                                                                                     self.lang)
                self.say(ask + "\n" + self.clock_text(view), end="")
                continue
            choice = self.parse(view, line)
            if choice is None:
                self.say(self.why_not(view, line))
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
                       tile=self.tile(result.get("win_tile"), wild),
                       melds=self.melds(result.get("melds", []), wild, empty="")).rstrip())
            score = result.get("score") or {}
            caishen = of_view(result).multiplier_scoring  # RULES B: the items are multipliers
            items = [*score.get("tai", []), *score.get("fan", [])]
            lcols = max([12, *(width(t(f"item.{i['name']}", lang)) for i in items)])

            def label(item: dict) -> str:
                return pad(t(f"item.{item['name']}", lang), lcols)

            for item in score.get("fan", []) if caishen else ():
                self.say(t("table.ui.item", lang, label=label(item), value=f"×{item['value']}", unit=""))
            for item in score.get("tai", []):
                self.say(t("table.ui.item", lang, label=label(item), value=item["value"], unit=t("table.ui.tai", lang)))
            for item in score.get("fan", []) if not caishen else ():
                self.say(t("table.ui.item", lang, label=label(item), value=item["value"], unit=t("table.ui.fan", lang)))
            if score and caishen:
                mult = 1
                for item in score.get("fan", []):
                    mult *= item["value"]
                self.say("  " + t("score.caishen_formula", lang, stake=score.get("stake"), mult=mult,
                                  points=score.get("points")))
            elif score:
                self.say(t("table.ui.total", lang, tai=score.get("total_tai"), fan=score.get("total_fan"),
                           stake=score.get("stake"), points=score.get("points")))
        payments = result.get("payments", [])
        tags = {p["seat"]: self.payment_tags(result, p["seat"]) for p in payments}
        labels = {s: nm(s) + "".join(f" [{t('table.ui.tag.' + g, lang)}]" for g in tg) for s, tg in tags.items()}
        ncols = max([8, *(width(x) for x in labels.values())])
        mults = {p["seat"]: self.multiple(result, p) for p in payments}
        mcols = max([0, *(width(m) for m in mults.values())])
        for p in payments:
            bal = p.get("balance")
            if p["seat"] == self.seat and bal is not None:
                self.silver = bal
            self.say(t("table.ui.payment", lang, name=pad(labels[p["seat"]], ncols), delta=p.get("delta", 0),
                       mult=pad(mults[p["seat"]], mcols), total=p.get("total", 0),
                       balance=(t("table.ui.balance", lang, b=bal) if bal is not None else "")
                       + (t("table.ui.fee", lang, fee=p["fee"]) if p.get("fee") else "")))
        for tag in ("robbed", "contract", "gave_up", "escaped"):  # why a payment differs from the formula
            if any(tag in tg for tg in tags.values()):
                self.say(t(f"table.ui.why.{tag}", lang))
        if result.get("cumulative_queue"):  # RULES A7: the match's last hand drops them
            key = "table.ui.queue_dropped" if result.get("match_over") else "table.ui.queue"
            self.say(t(key, lang, q=", ".join(t(f"item.{c}", lang) for c in result["cumulative_queue"])))
        hand = getattr(self.runner, "hand", None)
        self._last_events = hand.events_json() if hand is not None and hand.ended else None  # for ``r``
        reveal = result.get("reveal") or {}
        self._last_reveal = None
        if reveal.get("commitment"):  # the check in short; the wall on request (``wall``, docs/replay.md)
            self._last_reveal = reveal
            self.say(t("table.ui.reveal", lang, c=reveal["commitment"], salt=reveal.get("salt", "")))
        if self.runner is not None and not self.runner.match_over and not self.quit.is_set():
            if self._next is not None:
                self._next.cancel()
            self._next = asyncio.create_task(self._pause_for_next())

    async def _pause_for_next(self) -> None:
        """After a result: "Enter for the next hand" (the runner's pause between hands lasts until
        then). On auto-play or at the end of input, the next hand comes after ``auto_pause`` seconds."""
        seat = self.runner.seats[self.seat]
        if seat.auto or self.reader.eof or self._listener is not None and not self._listener.done():
            if self.clock is not None:
                await self.clock.sleep(self.auto_pause)
        else:
            self._drop_early_input()
            key = "table.ui.next_hand_wall" if self._last_reveal else "table.ui.next_hand"
            key = "table.ui.next_hand_review" if self.review is not None and self._last_events else key
            while True:
                self.say(t(key, self.lang), end="")
                line = await self.reader.get()
                self._open_line = False
                word = line.strip().lower() if line is not None else ""
                if word in WALL_WORDS and self._last_reveal:
                    self.show_wall()
                    continue
                if word in REVIEW_WORDS and self.review is not None and self._last_events:
                    await self.show_review(self._last_events)
                    continue
                if word and word not in ("quit", "exit", "q"):  # a typo (or help) deals no hand: said, asked again
                    self.say(t("table.ui.next_bad", self.lang, text=shown(line or "")))
                    continue
                break
            if word in ("quit", "exit", "q"):
                self.quit.set()  # between hands leaving is no escape: the match just ends here
                return
        for _ in range(500):  # until the runner has left its pause (it may not have entered it yet)
            if not self.runner.running or self.runner.hand_running:
                return
            self.runner.skip_pause()
            await asyncio.sleep(0.01)

    async def show_review(self, events: list[dict]) -> None:
        """``r``: the coach's review of the last hand (docs/coach.md), made in a thread by ``review``."""
        self.say(t("table.ui.reviewing", self.lang))
        self.say(await asyncio.to_thread(self.review, events, self.seat, self.lang))  # type: ignore[arg-type]

    def show_wall(self) -> None:
        """The last hand's whole wall, with the command that checks it (``jxbot verify``)."""
        from jxbot.replay import wall_notation

        r = self._last_reveal or {}
        self.say(t("table.ui.reveal_wall", self.lang, c=r.get("commitment", ""), salt=r.get("salt", ""),
                   wall=wall_notation(r.get("wall") or [])))

    @staticmethod
    def payment_tags(result: dict, seat: int) -> list[str]:
        """Why this seat's payment is not the plain formula: 抢杠 (its 补杠 was robbed: ×3 alone), 承包
        (bound by the contract: ×5 / ×2), 放弃 (gave up: 0), 逃跑 (escaped: fee and loss, no winnings)."""
        tags = []
        if result.get("winner") is not None and result.get("robbed_from") == seat:
            tags.append("robbed")
        if seat in (result.get("contract") or ()):
            tags.append("contract")
        if seat in (result.get("gave_up") or ()):
            tags.append("gave_up")
        if seat in (result.get("escaped") or ()):
            tags.append("escaped")
        return tags

    @staticmethod
    def multiple(result: dict, p: dict) -> str:
        """`` ×5`` after a loser's payment when it is a whole multiple other than 1 of the hand's points
        (Jiaxing), so ×2, ×3, ×5 or ×8 under a rob or a contract explains itself; nothing when a wallet
        capped it, and nothing for a loser who pays nothing (放弃, or not the robbed seat)."""
        score = result.get("score") or {}
        points = score.get("points") or 0
        paid = -(p.get("delta", 0) + p.get("fee", 0))
        if of_view(result).multiplier_scoring or result.get("winner") in (None, p.get("seat")) or points <= 0:
            return ""
        if paid <= 0 or paid % points or paid == points:
            return ""
        return f" ×{paid // points}"

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
        if self._next is not None:
            self._next.cancel()
            self._next = None
        self.say()
        n = summary["hands"]
        self.say(t("table.ui.match_end_one", self.lang) if n == 1 else t("table.ui.match_end", self.lang, n=n))
        names = [t("table.ui.you", self.lang) if i == self.seat else str(n) for i, n in enumerate(summary["names"])]
        cols = max([8, *(width(n) for n in names)])
        for name, total in zip(names, summary["totals"], strict=True):
            self.say(t("table.ui.final", self.lang, name=pad(name, cols), total=total))
