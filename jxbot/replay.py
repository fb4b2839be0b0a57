"""Replays, the shareable hand file and the fair-deal check. Pure: no I/O, no asyncio, no Discord.

A :class:`Replay` is built from a hand's stored event log (``Store.hand_events``) or from an exported
file (:func:`export_doc` / :func:`load_doc`). It cuts the log into *steps* a person follows — the deal,
each draw, discard, claim, kong, the contract and the end — and gives, for every step, the view a seat
(or the channel) had then, built by the game's own fold (``Hand.replay``), so pictures come from the
same renderer and views as live play. Who may see which concealed tiles is the caller's decision
(``concealed=``); without it a view is the public one, turned towards the chosen seat.

:func:`verify` recomputes the commitment ``sha256(bytes(wall) + salt)`` (docs/replay.md), checks the
wall is a full 136-tile set and replays the events against the revealed wall: the deal, every draw,
discard, meld and the winning hand must be the ones that wall gives.
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from jxbot.game import events as ev
from jxbot.game.hand import Hand
from jxbot.game.rng import check_wall
from jxbot.i18n import register, t
from jxbot.rules.tiles import WALL_SIZE, format_tile, parse_tiles, tile_name, wind_name
from jxbot.seatnames import display_name

FORMAT = "jxbot-hand"
VERSION = 1
VIEW_CACHE = 32  # views kept per replay (a view is ~0.2-1 ms to rebuild; pictures are cached by the bot)

# events that make a step of their own; the others (hand_started, claim_answered, claims_closed,
# hand_settled) are folded into the step before or after them
STEP_TYPES = frozenset({"dealt", "drew", "discarded", "claimed", "kong_declared", "konged", "contract_formed",
                        "contract_answered", "won", "drawn_game", "escaped"})

register({
    "replay.seat": {"zh": "{wind}（{name}）", "en": "{wind} ({name})"},
    "replay.dealt": {"zh": "发牌：庄家 {dealer}，骰子 {d1}+{d2}，百搭 {wild}",
                     "en": "Deal: {dealer} is dealer, dice {d1}+{d2}, wildcard {wild}"},
    "replay.drew": {"zh": "{who} 摸牌", "en": "{who} draws"},
    "replay.drew_tile": {"zh": "{who} 摸到 {tile}", "en": "{who} draws {tile}"},
    "replay.drew_repl": {"zh": "{who} 补牌", "en": "{who} draws a replacement tile"},
    "replay.drew_repl_tile": {"zh": "{who} 补牌 {tile}", "en": "{who} draws {tile} as a replacement"},
    "replay.discarded": {"zh": "{who} 打出 {tile}", "en": "{who} discards {tile}"},
    "replay.then_chow": {"zh": "{who} 吃", "en": "{who} chows"},
    "replay.then_pung": {"zh": "{who} 碰", "en": "{who} pungs"},
    "replay.then_kong": {"zh": "{who} 杠", "en": "{who} kongs"},
    "replay.then_win": {"zh": "{who} 胡", "en": "{who} wins on it"},
    "replay.claimed_chow": {"zh": "{who} 吃 {from_} 的 {tile}", "en": "{who} chows {from_}'s {tile}"},
    "replay.claimed_pung": {"zh": "{who} 碰 {from_} 的 {tile}", "en": "{who} pungs {from_}'s {tile}"},
    "replay.claimed_kong": {"zh": "{who} 杠 {from_} 的 {tile}", "en": "{who} kongs {from_}'s {tile}"},
    "replay.kong_declared": {"zh": "{who} 补杠 {tile}（可抢杠）", "en": "{who} adds {tile} to a pung (it may be robbed)"},
    "replay.konged_concealed": {"zh": "{who} 暗杠 {tile}", "en": "{who} declares a concealed kong of {tile}"},
    "replay.konged_added": {"zh": "{who} 补杠 {tile}", "en": "{who} completes the added kong of {tile}"},
    "replay.contract": {"zh": "承包：{a} 与 {b}", "en": "Contract: {a} and {b}"},
    "replay.give_up": {"zh": "{who} 放弃", "en": "{who} gives up"},
    "replay.persist": {"zh": "{who} 坚持", "en": "{who} persists"},
    "replay.won_self": {"zh": "{who} 自摸 {tile}", "en": "{who} wins by self-draw on {tile}"},
    "replay.won_from": {"zh": "{who} 胡 {from_} 打出的 {tile}", "en": "{who} wins on {from_}'s {tile}"},
    "replay.won_rob": {"zh": "{who} 抢 {from_} 的杠 {tile}", "en": "{who} robs {from_}'s kong of {tile}"},
    "replay.drawn_game": {"zh": "荒庄：牌墙摸完，无人胡牌", "en": "Drawn game: the wall ran out with no winner"},
    "replay.escaped": {"zh": "{who} 逃跑", "en": "{who} escapes"},
    "replay.none": {"zh": "无", "en": "none"},
    "verify.ok.wall_set": {"zh": "✅ 牌墙是完整的 136 张（每种 4 张）", "en": "✅ the wall is a full 136-tile set (4 of each kind)"},
    "verify.bad.wall_set": {"zh": "❌ 牌墙不完整：{detail}", "en": "❌ the wall is not a full tile set: {detail}"},
    "verify.ok.commitment": {"zh": "✅ sha256(牌墙 + 盐) = 开局前公布的承诺 {c}",
                             "en": "✅ sha256(wall + salt) = the commitment published before the deal, {c}"},
    "verify.bad.commitment": {"zh": "❌ 承诺不符：sha256(牌墙 + 盐) = {got}，公布的是 {c}。牌墙或盐不是开局前承诺的那一副。",
                              "en": "❌ the commitment does not match: sha256(wall + salt) = {got}, the published one is "
                                    "{c}. The wall or the salt is not the one committed to before the deal."},
    "verify.bad.published": {"zh": "❌ 这手牌记录的承诺 {got} 与公布的承诺 {c} 不同",
                             "en": "❌ the hand's log carries commitment {got}, not the published {c}"},
    "verify.ok.events": {"zh": "✅ 发牌与 {draws} 次摸牌都来自这副牌墙（{n} 个事件逐一重放）",
                         "en": "✅ the deal and all {draws} draws come from this wall ({n} events replayed)"},
    "verify.bad.events": {"zh": "❌ 第 {i} 个事件（{what}）与这副牌墙不符：{detail}",
                          "en": "❌ event {i} ({what}) does not follow from this wall: {detail}"},
    "verify.no_events": {"zh": "（没有事件记录：只核对了承诺与牌墙）",
                         "en": "(no event log given: only the commitment and the wall were checked)"},
})


def _b(wall: Sequence[int]) -> bytes:
    return bytes(wall)


def commitment_of(wall: Sequence[int], salt: str) -> str:
    """``sha256(bytes(wall) + salt.encode("utf-8")).hexdigest()`` — the documented byte format."""
    return hashlib.sha256(_b(wall) + salt.encode("utf-8")).hexdigest()


def wall_notation(wall: Sequence[int]) -> str:
    """The wall head to tail, one tile per token: ``"3m 7p 1z …"`` (parses back with :func:`parse_wall`)."""
    return " ".join(format_tile(x) for x in wall)


_HEX_RE = re.compile(r"[0-9a-fA-F]+\Z")


def parse_wall(text: str) -> list[int]:
    """A wall pasted as tile notation (``"3m 7p 1z …"``) or as the hex of its 136 bytes. ValueError if neither."""
    s = "".join(text.split())
    if len(s) == 2 * WALL_SIZE and _HEX_RE.match(s):
        return list(bytes.fromhex(s))
    return parse_tiles(text)


# ---------------------------------------------------------------------------------------------- steps


@dataclass(frozen=True, slots=True)
class Step:
    number: int  # 0-based
    first: int  # index of its first event in the log
    last: int  # index of its last event (the state of the step is the fold up to here)
    event: ev.Event  # the event that makes the step


def _feed(h: Hand, e: ev.Event) -> None:
    """Fold one more event into ``h`` exactly as ``Hand.replay`` does (one event at a time)."""
    h._fold(e)
    h.events.append(e)


def _to_events(events: Iterable[ev.Event | dict]) -> list[ev.Event]:
    return [e if isinstance(e, ev.Event) else ev.event_from_json(e) for e in events]


def cut_steps(events: Sequence[ev.Event]) -> list[Step]:
    steps: list[Step] = []
    first = 0
    for i, e in enumerate(events):
        if e.type in STEP_TYPES:
            steps.append(Step(len(steps), first, i, e))
            first = i + 1
    if steps and first < len(events):  # trailing events (claims closed, the settlement) end with the last step
        s = steps[-1]
        steps[-1] = Step(s.number, s.first, len(events) - 1, s.event)
    return steps


class Replay:
    """A finished (or running, for the terminal's audits) hand cut into steps, with the views of each."""

    def __init__(self, events: Iterable[ev.Event | dict], *, names: Sequence[str | None] | None = None,
                 computers: Sequence[bool] | None = None, balances: Sequence[int | None] | None = None,
                 result: dict | None = None) -> None:
        self.events = _to_events(events)
        if not self.events or not isinstance(self.events[0], ev.HandStarted):
            raise ValueError("an event log starts with hand_started")
        self.steps = cut_steps(self.events)
        if not self.steps:
            raise ValueError("the hand was not dealt")
        self.names = list(names) if names else [None] * 4
        self.computers = list(computers) if computers else [False] * 4
        self.balances = list(balances) if balances else [None] * 4
        self._final = Hand.replay(self.events)
        self._result = result
        self._views: OrderedDict[tuple[int, int | None, bool], dict] = OrderedDict()  # a few recent views
        self._cursor: tuple[int, Hand] | None = None

    # -- facts
    @property
    def hand_id(self) -> str:
        return self._final.hand_id

    @property
    def ended(self) -> bool:
        return self._final.ended

    @property
    def commitment(self) -> str:
        return self._final.commitment

    def __len__(self) -> int:
        return len(self.steps)

    def clamp(self, k: int) -> int:
        return max(0, min(len(self.steps) - 1, k))

    def result_view(self) -> dict | None:
        """The stored result (payments, names) when given, else the game's own result view."""
        if self._result is not None:
            return copy.deepcopy(self._result)
        if not self._final.ended:
            return None
        rv = self._final.result_view()
        for p in rv.get("payments") or []:
            p["name"] = self.seat_name(p["seat"])
        return rv

    # -- states and views
    def hand_at(self, k: int) -> Hand:
        """The hand as it stood at the end of step ``k`` (folded from the log; forward moves are incremental)."""
        last = self.steps[self.clamp(k)].last
        cur = self._cursor
        if cur is None or cur[0] > last:
            h = Hand.replay(self.events[:1])
            cur = (0, h)
        done, h = cur
        for i in range(done + 1, last + 1):
            _feed(h, self.events[i])
        self._cursor = (last, h)
        return h

    def view(self, k: int, seat: int | None, *, concealed: bool = False) -> dict:
        """The view at step ``k``: seat ``seat``'s own view when ``concealed`` (its tiles, its drawn tile),
        else the public view turned towards ``seat`` (no concealed tile). A fresh copy each call."""
        k = self.clamp(k)
        if seat is not None and not 0 <= seat < 4:
            raise ValueError("a seat is 0-3")
        key = (k, seat, bool(concealed and seat is not None))
        v = self._views.get(key)
        if v is None:
            h = self.hand_at(k)
            if key[2]:
                assert seat is not None
                v = h.view(seat)
                v.pop("actions", None)  # what the seat could press then is not part of the picture
            else:
                v = h.public_view()
                v["viewer"] = seat
            v["seats"] = [{**sv, "name": self.seat_name(i), "is_computer": bool(self.computers[i]),
                           "balance": self.balances[i], "auto": False}  # new dicts: the hand's are shared
                          for i, sv in enumerate(v["seats"])]
            v["actions"] = []
            v["deadline"] = None
            self._views[key] = v
            while len(self._views) > VIEW_CACHE:
                self._views.popitem(last=False)
        else:
            self._views.move_to_end(key)
        return copy.deepcopy(v)

    def seat_name(self, seat: int) -> str:
        name = self.names[seat] if seat < len(self.names) else None
        return name or f"{'ESWN'[seat]}"

    def who(self, seat: int, lang: str, escape: Callable[[str], str] | None = None) -> str:
        wind = wind_name((seat - self._final.dealer) % 4, lang)
        name = display_name(self.seat_name(seat), lang, seat < len(self.computers) and self.computers[seat])
        return t("replay.seat", lang, wind=wind, name=escape(name) if escape else name)

    def caption(self, k: int, lang: str, *, seat: int | None = None, concealed: bool = False,
                escape: Callable[[str], str] | None = None) -> str:
        """One line for step ``k`` ("南 discards 3万; 西 pungs"). A drawn tile is named only to its own
        seat when ``concealed`` is allowed for that seat. ``escape`` is applied to players' names."""
        step = self.steps[self.clamp(k)]
        e = step.event

        def w(s: int, lang: str) -> str:
            return self.who(s, lang, escape)

        tn = tile_name
        if isinstance(e, ev.Dealt):
            hs = self.events[0]
            assert isinstance(hs, ev.HandStarted)
            wild = tn(e.wildcard, lang) if e.wildcard is not None else t("replay.none", lang)
            return t("replay.dealt", lang, dealer=w(e.dealer, lang), d1=hs.dice[0], d2=hs.dice[1], wild=wild)
        if isinstance(e, ev.Drew):
            show = concealed and seat == e.seat
            key = "replay.drew_repl" if e.replacement else "replay.drew"
            if show:
                return t(key + "_tile", lang, who=w(e.seat, lang), tile=tn(e.tile, lang))
            return t(key, lang, who=w(e.seat, lang))
        if isinstance(e, ev.Discarded):
            text = t("replay.discarded", lang, who=w(e.seat, lang), tile=tn(e.tile, lang))
            nxt = self._next_step_event(step)
            if isinstance(nxt, ev.Claimed):
                kind = {"chow": "chow", "pung": "pung"}.get(nxt.kind, "kong")
                text += "; " + t(f"replay.then_{kind}", lang, who=w(nxt.seat, lang))
            elif isinstance(nxt, ev.Won) and nxt.discarder == e.seat:
                text += "; " + t("replay.then_win", lang, who=w(nxt.seat, lang))
            return text
        if isinstance(e, ev.Claimed):
            kind = {"chow": "chow", "pung": "pung"}.get(e.kind, "kong")
            return t(f"replay.claimed_{kind}", lang, who=w(e.seat, lang), from_=w(e.from_seat, lang),
                     tile=tn(e.tile, lang))
        if isinstance(e, ev.KongDeclared):
            return t("replay.kong_declared", lang, who=w(e.seat, lang), tile=tn(e.tile, lang))
        if isinstance(e, ev.Konged):
            key = "replay.konged_concealed" if e.kind == "concealed_kong" else "replay.konged_added"
            return t(key, lang, who=w(e.seat, lang), tile=tn(e.tile, lang))
        if isinstance(e, ev.ContractFormed):
            return t("replay.contract", lang, a=w(e.pair[0], lang), b=w(e.pair[1], lang))
        if isinstance(e, ev.ContractAnswered):
            return t("replay.give_up" if e.give_up else "replay.persist", lang, who=w(e.seat, lang))
        if isinstance(e, ev.Won):
            if e.self_draw:
                return t("replay.won_self", lang, who=w(e.seat, lang), tile=tn(e.tile, lang))
            if e.robbed_from is not None:
                return t("replay.won_rob", lang, who=w(e.seat, lang), from_=w(e.robbed_from, lang),
                         tile=tn(e.tile, lang))
            frm = e.discarder if e.discarder is not None else e.seat
            return t("replay.won_from", lang, who=w(e.seat, lang), from_=w(frm, lang), tile=tn(e.tile, lang))
        if isinstance(e, ev.DrawnGame):
            return t("replay.drawn_game", lang)
        if isinstance(e, ev.Escaped):
            return t("replay.escaped", lang, who=w(e.seat, lang))
        return e.type

    def _next_step_event(self, step: Step) -> ev.Event | None:
        if step.number + 1 < len(self.steps):
            return self.steps[step.number + 1].event
        return None

    # -- sharing
    def export(self) -> dict:
        return export_doc(self.events, names=self.names, computers=self.computers, result=self._result)


# ---------------------------------------------------------------------------------------------- export


def export_doc(events: Iterable[ev.Event | dict], *, names: Sequence[str | None] | None = None,
               computers: Sequence[bool] | None = None, result: dict | None = None) -> dict:
    """The shareable file of a finished hand (schema: docs/replay.md): the public event log (what the
    channel saw: no drawn tile, no claim answers) plus the reveal (wall and salt), which the channel also
    got once the hand ended. Raises ValueError for a hand that has not ended (its wall is still secret)."""
    evs = _to_events(events)
    hand = Hand.replay(evs)
    if not hand.ended:
        raise ValueError("the hand is still running: its wall is secret until it ends")
    public = [d for e in evs if (d := e.public_json(None)) is not None]
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "hand_id": hand.hand_id,
        "ruleset": hand.ruleset.name,
        "seats": [{"seat": i, "name": (names[i] if names and i < len(names) else None),
                   "computer": bool(computers[i]) if computers and i < len(computers) else False}
                  for i in range(4)],
        "commitment": hand.commitment,
        "reveal": {"wall": list(hand.wall), "wall_notation": wall_notation(hand.wall), "salt": hand.salt},
        "events": public,
    }
    if result is not None:
        doc["result"] = {k: v for k, v in result.items() if k != "reveal"}
    return doc


def doc_fields(doc: Any) -> tuple[list[int], str, str, list[dict]]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"not a jxbot hand file (no \"format\": \"{FORMAT}\")")
    version = doc.get("version")
    if version != VERSION:
        raise ValueError(f"hand file version {version!r}: this jxbot reads version {VERSION}")
    reveal = doc.get("reveal")
    events = doc.get("events")
    if not isinstance(reveal, dict) or not isinstance(events, list) or not events:
        raise ValueError("a hand file has \"reveal\" and a non-empty \"events\" list")
    wall = reveal.get("wall")
    if not isinstance(wall, list):
        raise ValueError("reveal.wall is a list of 136 tile kinds (0-33)")
    notation = reveal.get("wall_notation")
    if isinstance(notation, str) and parse_tiles(notation) != wall:
        raise ValueError("reveal.wall and reveal.wall_notation differ")
    salt, com = reveal.get("salt"), doc.get("commitment")
    if not isinstance(salt, str) or not isinstance(com, str):
        raise ValueError("a hand file has reveal.salt and commitment as strings")
    return list(wall), salt, com, [e for e in events if isinstance(e, dict)]


def full_events(public: Sequence[dict], wall: Sequence[int], salt: str) -> list[ev.Event]:
    """Rebuild the private log from a public one and the revealed wall: the wall and salt go back into
    ``hand_started`` and every draw gets the tile the wall gives. ValueError (naming the event) when the
    log cannot be played on that wall."""
    if not public or public[0].get("type") != "hand_started":
        raise ValueError("an event log starts with hand_started")
    first = dict(public[0], wall=list(wall), salt=salt)
    h = Hand.replay([first])
    out: list[ev.Event] = [h.events[0]]
    for i, d in enumerate(public[1:], start=1):
        d = dict(d)
        try:
            if d.get("type") == "drew" and "tile" not in d:
                live = h.live_wall()
                if not live:
                    raise ValueError("a draw from an empty wall")
                d["tile"] = live[-1] if d.get("replacement") else live[0]
            e = ev.event_from_json(d)
            _feed(h, e)
        except (ValueError, KeyError, IndexError, AssertionError, StopIteration) as exc:
            raise EventMismatch(i, str(d.get("type")), _why(exc)) from None
        out.append(e)
    return out


def load_doc(doc: Any) -> Replay:
    """A :class:`Replay` from an exported file (ValueError says what is wrong)."""
    wall, salt, _com, events = doc_fields(doc)
    problem = check_wall(wall)
    if problem:
        raise ValueError(f"reveal.wall: {problem}")
    evs = full_events(events, wall, salt)
    seats = doc.get("seats") if isinstance(doc.get("seats"), list) else []
    names = [s.get("name") if isinstance(s, dict) else None for s in seats][:4]
    computers = [bool(s.get("computer")) if isinstance(s, dict) else False for s in seats][:4]
    return Replay(evs, names=names or None, computers=computers or None)


# ---------------------------------------------------------------------------------------------- verify


class EventMismatch(ValueError):
    def __init__(self, index: int, what: str, detail: str) -> None:
        super().__init__(f"event {index} ({what}): {detail}")
        self.index, self.what, self.detail = index, what, detail


def _why(exc: BaseException) -> str:
    text = str(exc)
    if "x not in list" in text:
        return "the tile is not in that hand"
    return text or type(exc).__name__


@dataclass(frozen=True, slots=True)
class Check:
    ok: bool
    key: str  # verify.ok.* / verify.bad.*
    args: dict

    def text(self, lang: str) -> str:
        return t(self.key, lang, **self.args)


def verify(wall: Sequence[int], salt: str, published: str, events: Sequence[dict | ev.Event] = ()) -> list[Check]:
    """Every check of the fair deal, in order: the 136-tile set, the commitment, then (given the hand's
    events, private or public) the deal, draws, discards, melds and the win replayed on that wall."""
    checks: list[Check] = []
    problem = check_wall(list(wall))
    checks.append(Check(problem is None, "verify.ok.wall_set" if problem is None else "verify.bad.wall_set",
                        {"detail": problem or ""}))
    got = commitment_of(wall, salt) if problem is None or all(isinstance(x, int) and 0 <= x < 256 for x in wall) \
        else "-"
    same = got == published.strip().lower()
    checks.append(Check(same, "verify.ok.commitment" if same else "verify.bad.commitment",
                        {"got": got, "c": published}))
    if not events:
        return checks
    dicts = [e.to_json() if isinstance(e, ev.Event) else dict(e) for e in events]
    logged = dicts[0].get("commitment") if dicts and dicts[0].get("type") == "hand_started" else None
    if logged is not None and logged != published.strip().lower():
        checks.append(Check(False, "verify.bad.published", {"got": logged, "c": published}))
    if problem is not None:
        return checks
    try:
        evs = full_events([d for d in dicts if d.get("type") != "claim_answered"], wall, salt)
        h = Hand.replay(evs[:1])
        for i, e in enumerate(evs[1:], start=1):
            if isinstance(e, ev.Dealt):
                ind = h._indicator_index()
                want = wall[ind] if ind is not None else None
                if e.indicator != want:
                    raise EventMismatch(i, "dealt", f"the flipped tile is {_tn(e.indicator)}, the wall has "
                                                    f"{_tn(want)} there")
            try:
                _feed(h, e)
            except (ValueError, KeyError, IndexError, AssertionError, StopIteration) as exc:
                raise EventMismatch(i, e.type, _why(exc)) from None
            if isinstance(e, ev.Won):
                held = sorted(h.concealed[e.seat])
                told = sorted([*e.hand, e.tile])
                if held != told:
                    raise EventMismatch(i, "won", f"the winning hand shown is {''.join(map(_tn, told))}, the "
                                                  f"wall gives {''.join(map(_tn, held))}")
    except EventMismatch as m:
        checks.append(Check(False, "verify.bad.events", {"i": m.index, "what": m.what, "detail": m.detail}))
        return checks
    draws = sum(1 for e in evs if isinstance(e, ev.Drew))
    checks.append(Check(True, "verify.ok.events", {"draws": draws, "n": len(evs)}))
    return checks


def _tn(x: int | None) -> str:
    return "-" if x is None else format_tile(x)


def verified(checks: Sequence[Check]) -> bool:
    return bool(checks) and all(c.ok for c in checks)


def reveal_text(hand_id: str, wall: Sequence[int], salt: str, commitment: str) -> str:
    """The reveal as a small text file anyone can check with standard tools (docs/replay.md)."""
    return "\n".join([
        f"jxbot fair deal — hand {hand_id}",
        f"commitment (published before the deal): {commitment}",
        f"salt: {salt}",
        f"wall (head to tail, {len(wall)} tiles): {wall_notation(wall)}",
        f"wall bytes (hex, one byte per tile kind 0-33): {_b(wall).hex()}",
        "",
        "check it:",
        f"  (echo {_b(wall).hex()} | xxd -r -p; printf %s {salt}) | sha256sum",
        "  python3 -c \"import hashlib,sys; w=bytes.fromhex(sys.argv[1]); print(hashlib.sha256(w + sys.argv[2].encode()).hexdigest())\" "
        f"{_b(wall).hex()} {salt}",
        "  jxbot verify --wall '<wall>' --salt <salt> --commitment <commitment>",
        "",
    ])
