"""One hand of Jiaxing Mahjong as a deterministic state machine: deal → turns and claims → win or draw.

The state is a fold over events: ``apply(action)`` validates the action (raising ``IllegalAction`` and
changing nothing when it is refused), then emits events, folding each into the state as it goes, and
carries on with everything that follows automatically (claim-window resolution, the next draw, a
drawn game). ``Hand.replay(events)`` folds the same events into an identical hand.

Wall layout (index 0 = head, 135 = tail): seat ``dealer+i`` is dealt ``wall[13i:13i+13]``, the dealer
also ``wall[52]`` (its 14th tile, shown as its drawn tile); draws continue from ``wall[53]``; the
indicator is ``wall[136 - (die1 + die2)]`` (counted from the tail) and is out of play; kong
replacements come from the tail, skipping the indicator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from jxbot.rules.contract import Score, ScoreItem, Settlement, Transfer
from jxbot.rules.melds import Meld, MeldKind
from jxbot.rules.ruleset import RULESETS, Ruleset, get_ruleset
from jxbot.rules.tiles import NUM_KINDS, WALL_SIZE, is_honor, next_in_sequence, sort_hand
from jxbot.rulesets import behaviour

from . import events as ev
from .actions import CLAIM_TYPES, TURN_TYPES, Action, ActionType, action_from_json
from .errors import IllegalAction
from .rng import check_wall, commitment, derive_id, shuffled_wall

if TYPE_CHECKING:
    from jxbot.rulesets.base import RulesetPlugin

PHASES = ("turn", "claim", "rob", "contract", "ended")
DEAL = 13

_LEVEL = {ActionType.HU: 3, ActionType.PUNG: 2, ActionType.KONG: 2, ActionType.CHOW: 1, ActionType.PASS: 0}
_CLAIM_MELD = {ActionType.PUNG: MeldKind.PUNG, ActionType.KONG: MeldKind.KONG, ActionType.CHOW: MeldKind.CHOW}
# The event fields naming the seats whose public part (tiles held, melds, discards, 放弃) an event changes.
# An event with none of them (the deal, a contract formed, a voided tile, a drawn hand, the settlement)
# may change any seat's part.
_SEAT_FIELDS = ("seat", "from_seat", "discarder", "robbed_from")


@dataclass(frozen=True, slots=True)
class HandContext:
    """What the match tells a hand before it starts."""

    hand_id: str = ""
    hand_number: int = 1  # 1-based within the match
    dealer: int = 0
    round_wind: int = 0  # 0..3 东南西北
    stake: int = 1  # 底分
    cumulative_queue: tuple[str, ...] = ()  # cumulative 番 waiting, oldest first (before this deal)
    previous_wildcard: int | None = None  # the 百搭 of the previous hand at this table
    dealer_streak: int = 0  # hands this dealer has already kept the deal in a row (caishen 牢莊 底)

    def __post_init__(self) -> None:
        if not 0 <= self.dealer < 4 or not 0 <= self.round_wind < 4:
            raise ValueError("dealer and round_wind are 0..3")
        object.__setattr__(self, "cumulative_queue", tuple(self.cumulative_queue))

    def to_json(self) -> dict:
        return {"hand_id": self.hand_id, "hand_number": self.hand_number, "dealer": self.dealer,
                "round_wind": self.round_wind, "stake": self.stake,
                "cumulative_queue": list(self.cumulative_queue), "previous_wildcard": self.previous_wildcard,
                "dealer_streak": self.dealer_streak}

    @classmethod
    def from_json(cls, d: dict) -> HandContext:
        return cls(hand_id=d["hand_id"], hand_number=d["hand_number"], dealer=d["dealer"],
                   round_wind=d["round_wind"], stake=d["stake"],
                   cumulative_queue=tuple(d["cumulative_queue"]), previous_wildcard=d["previous_wildcard"],
                   dealer_streak=d.get("dealer_streak", 0))


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended. ``hand`` is the winner's concealed tiles without ``win_tile``."""

    winner: int | None
    win_tile: int | None
    self_draw: bool
    discarder: int | None
    robbed_from: int | None
    score: Score | None
    contract: tuple[int, int] | None
    gave_up: tuple[int, ...]
    escaped: tuple[int, ...]
    drawn_game: bool
    cumulative_taken: tuple[str, ...] = ()
    hand: tuple[int, ...] = ()
    melds: tuple[Meld, ...] = ()

    def to_json(self) -> dict:
        return {
            "winner": self.winner, "win_tile": self.win_tile, "self_draw": self.self_draw,
            "discarder": self.discarder, "robbed_from": self.robbed_from,
            "score": self.score.to_json() if self.score else None,
            "contract": list(self.contract) if self.contract else None,
            "gave_up": list(self.gave_up), "escaped": list(self.escaped), "drawn_game": self.drawn_game,
            "cumulative_taken": list(self.cumulative_taken), "hand": list(self.hand),
            "melds": [m.to_json() for m in self.melds],
        }


# ---------------------------------------------------------------- JSON helpers


def ruleset_to_json(rs: Ruleset) -> tuple[str, dict]:
    """(name, fields that differ from the registered ruleset of that name)."""
    base = RULESETS.get(rs.name, Ruleset(name=rs.name))
    overrides = {f.name: getattr(rs, f.name) for f in fields(Ruleset)
                 if getattr(rs, f.name) != getattr(base, f.name)}
    return rs.name, overrides


def ruleset_from_json(name: str, overrides: dict) -> Ruleset:
    base = RULESETS.get(name, Ruleset(name=name))
    return base.with_(**overrides) if overrides else base


def score_from_json(d: dict) -> Score:
    return Score(
        winning=d["winning"], reason=d.get("reason"),
        tai=tuple(ScoreItem(i["name"], i["value"]) for i in d.get("tai", ())),
        fan=tuple(ScoreItem(i["name"], i["value"]) for i in d.get("fan", ())),
        total_tai=d.get("total_tai", 0), total_fan=d.get("total_fan", 0), stake=d.get("stake", 1),
        points=d.get("points", 0), sets=tuple(tuple(s) for s in d.get("sets", ())),
        pair=tuple(d["pair"]) if d.get("pair") else None,  # type: ignore[arg-type]
        patterns=tuple(d.get("patterns", ())),
    )


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, list | tuple | set | frozenset):
        return [_jsonable(x) for x in v]
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if hasattr(v, "to_json"):
        return v.to_json()
    return str(v)


def settlement_to_json(s: Settlement) -> dict:
    d = s.to_json()
    d["details"] = _jsonable(s.details)
    return d


def settlement_from_json(d: dict) -> Settlement:
    return Settlement(
        transfers=tuple(Transfer(t["payer"], t["payee"], t["amount"], t["reason"]) for t in d["transfers"]),
        deltas=tuple(d["deltas"]),  # type: ignore[arg-type]
        house_delta=d["house_delta"],
        owed=tuple(d.get("owed", (0, 0, 0, 0))),  # type: ignore[arg-type]
        details=dict(d.get("details", {})),
    )


def choose_wildcard(rs: Ruleset, indicator: int | None) -> int | None:
    mode = rs.wildcard_mode
    if mode == "flipped":
        return indicator
    if mode == "next":
        return None if indicator is None else next_in_sequence(indicator)
    if mode == "fixed":
        return rs.fixed_wildcard
    return None


class _Window:
    """An open claim window (on a discard) or rob window (on a 补杠)."""

    __slots__ = ("kind", "seat", "tile", "options", "answers")

    def __init__(self, kind: str, seat: int, tile: int, options: dict[int, tuple[Action, ...]]) -> None:
        self.kind = kind
        self.seat = seat  # the discarder / the seat declaring the 补杠
        self.tile = tile
        self.options = options
        self.answers: dict[int, Action] = {}


class Hand:
    """One hand. Build it with ``Hand.new``, ``Hand.from_wall`` or ``Hand.replay``."""

    def __init__(self) -> None:
        self.events: list[ev.Event] = []
        self.ruleset: Ruleset = get_ruleset("jiaxing")
        self.context = HandContext()
        self.wall: tuple[int, ...] = ()
        self.dice: tuple[int, int] = (1, 1)
        self.salt = ""
        self.commitment = ""
        self.indicator: int | None = None
        self.wildcard: int | None = None
        self.concealed: list[list[int]] = [[], [], [], []]
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.discards: list[list[list]] = [[], [], [], []]  # [tile, claimed]
        self.phase = "turn"
        self.turn = 0
        self.drawn: int | None = None
        self.kong_draw = False  # the drawn tile is a kong replacement
        self.last_tile = False  # the drawn tile was the last drawable one
        self.last_discard: tuple[int, int] | None = None
        self.window: _Window | None = None
        self.need_draw: str | None = None  # "head" / "tail" once the turn seat must draw
        self.claim_counts: Counter[tuple[int, int]] = Counter()
        self.any_claim = False
        self.discarded_seats: set[int] = set()
        self.voided: list[int] = []  # caishen: tiles voided by kong replacements (public)
        self.contract: tuple[int, int] | None = None
        self.deciders: tuple[int, ...] = ()
        self.decisions: dict[int, bool] = {}
        self.gave_up: set[int] = set()
        self.escaped: set[int] = set()
        self.queue: list[str] = []
        self.result: HandResult | None = None
        self.settlement: Settlement | None = None
        self._live: list[int] = []  # wall indices of the live wall, head first
        self._h = 0
        self._t = -1
        self._legal_cache: dict[int, list[Action]] = {}
        # The views' public part, built once per state and shared by every view of it (docs/views.md,
        # "Shared parts"): each seat's part until an event names that seat, the rest until the next event.
        self._seat_views: list[dict | None] = [None] * 4
        self._base_view: dict | None = None
        self._settle_balances: tuple[int | None, ...] = ()
        self._settle_fee = 0

    # ------------------------------------------------------------ construction

    @classmethod
    def new(cls, seed: int | str | bytes, *, ruleset: str | Ruleset = "jiaxing",
            context: HandContext | None = None) -> Hand:
        """Shuffle from ``seed`` (deterministic), publish the commitment, roll the dice, deal."""
        wall, dice, salt = shuffled_wall(seed)
        ctx = context or HandContext()
        if not ctx.hand_id:
            ctx = replace(ctx, hand_id=derive_id(seed, "jxbot-hand-id"))
        return cls._start(wall, dice, salt, get_ruleset(ruleset), ctx)

    @classmethod
    def from_wall(cls, wall: Sequence[int], dice: tuple[int, int], *, ruleset: str | Ruleset = "jiaxing",
                  context: HandContext | None = None, salt: str | None = None) -> Hand:
        """A hand on a given wall (for tests and scripted scenarios)."""
        problem = check_wall(wall)
        if problem:
            raise ValueError(problem)
        if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise ValueError(f"dice are two ints 1..6, not {dice!r}")
        ctx = context or HandContext()
        if salt is None:
            salt = derive_id(bytes(wall), "jxbot-salt") * 2
        if not ctx.hand_id:
            ctx = replace(ctx, hand_id=derive_id(bytes(wall) + salt.encode(), "jxbot-hand-id"))
        return cls._start(list(wall), (dice[0], dice[1]), salt, get_ruleset(ruleset), ctx)

    @classmethod
    def _start(cls, wall: list[int], dice: tuple[int, int], salt: str, rs: Ruleset, ctx: HandContext) -> Hand:
        h = cls()
        name, overrides = ruleset_to_json(rs)
        out: list[ev.Event] = []
        h._emit(ev.HandStarted(hand_id=ctx.hand_id, ruleset=name, ruleset_overrides=overrides,
                               context=ctx.to_json(), wall=tuple(wall), dice=dice, salt=salt,
                               commitment=commitment(wall, salt)), out)
        ind = h._indicator_index()
        indicator = wall[ind] if ind is not None else None
        wildcard = choose_wildcard(rs, indicator)
        added: list[str] = []
        if indicator is not None and wildcard is not None and is_honor(wildcard):
            added.append("laotou_huang")
        if dice[0] == dice[1]:
            added.append("baozi")
        if indicator is not None and wildcard is not None and wildcard == ctx.previous_wildcard:
            added.append("wildcard_repeat")
        if rs.cumulative_per_win <= 0:  # no cumulative 番 in this ruleset (caishen)
            added = []
        h._emit(ev.Dealt(dealer=ctx.dealer, indicator=indicator, wildcard=wildcard,
                         cumulative_added=tuple(added)), out)
        return h

    @classmethod
    def replay(cls, events: Iterable[ev.Event | dict]) -> Hand:
        """Fold stored events (objects or their JSON) into the identical hand."""
        h = cls()
        for e in events:
            if isinstance(e, dict):
                e = ev.event_from_json(e)
            if not h.events and not isinstance(e, ev.HandStarted):
                raise ValueError("an event log starts with hand_started")
            h._fold(e)
            h.events.append(e)
        if not h.events:
            raise ValueError("no events to replay")
        return h

    def _indicator_index(self) -> int | None:
        if self.ruleset.wildcard_mode not in ("flipped", "next"):
            return None
        return WALL_SIZE - (self.dice[0] + self.dice[1])

    # ------------------------------------------------------------ simple properties

    @property
    def hand_id(self) -> str:
        return self.context.hand_id

    @property
    def dealer(self) -> int:
        return self.context.dealer

    @property
    def wall_remaining(self) -> int:
        """Drawable tiles left in the live wall."""
        return max(0, self._t - self._h + 1 - self.ruleset.reserve_tiles)

    @property
    def ended(self) -> bool:
        return self.phase == "ended"

    def seat_wind(self, seat: int) -> int:
        return (seat - self.context.dealer) % 4

    def live_wall(self) -> list[int]:
        """The undrawn live wall, head first (hidden information: tests and audits only)."""
        return [self.wall[i] for i in self._live[self._h:self._t + 1]]

    def pending(self) -> frozenset[int]:
        """Seats whose answer the hand waits for now."""
        if self.phase == "turn":
            return frozenset((self.turn,))
        if self.phase in ("claim", "rob"):
            w = self.window
            assert w is not None
            return frozenset(s for s in w.options if s not in w.answers)
        if self.phase == "contract":
            return frozenset(s for s in self.deciders if s not in self.decisions)
        return frozenset()

    # ------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int) -> list[Action]:
        if not isinstance(seat, int) or not 0 <= seat < 4:
            return []
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = self._compute_legal(seat)
        return list(cached)

    def _compute_legal(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == "turn":
            if seat != self.turn or self.need_draw:
                return []
            hand = self.concealed[seat]
            discards = [Action(ActionType.DISCARD, seat, k) for k in sorted(set(hand))]
            if seat in self.gave_up or self.drawn is None:
                return discards
            acts: list[Action] = []
            if self._can_win(seat, hand, self.drawn, self_draw=True):
                acts.append(Action(ActionType.TSUMO, seat, self.drawn))
            if self.wall_remaining > 0:
                counts = Counter(hand)
                for k in sorted(counts):
                    if counts[k] == 4 and k != self.wildcard:
                        acts.append(Action(ActionType.CONCEALED_KONG, seat, k))
                for m in self.melds[seat]:
                    if m.kind is MeldKind.PUNG and counts[m.tiles[0]] and m.tiles[0] != self.wildcard:
                        acts.append(Action(ActionType.ADDED_KONG, seat, m.tiles[0]))
            return acts + discards
        if phase in ("claim", "rob"):
            w = self.window
            assert w is not None
            if seat in w.options and seat not in w.answers:
                return [*w.options[seat], Action(ActionType.PASS, seat)]
            return []
        if phase == "contract":
            if seat in self.deciders and seat not in self.decisions:
                return [Action(ActionType.PERSIST, seat), Action(ActionType.GIVE_UP, seat)]
            return []
        return []

    def _claim_options(self, discarder: int, tile: int) -> dict[int, tuple[Action, ...]]:
        rs, wc = self.ruleset, self.wildcard
        if tile == wc and not rs.wildcard_discard_claimable:
            return {}
        opts: dict[int, tuple[Action, ...]] = {}
        last_discard = self.wall_remaining <= 0  # made when no drawable tile is left
        for k in (1, 2, 3):
            s = (discarder + k) % 4
            if s in self.gave_up:
                continue
            hand = self.concealed[s]
            acts: list[Action] = []
            if self._can_win(s, [*hand, tile], tile, self_draw=False):
                acts.append(Action(ActionType.HU, s, tile))
            if not last_discard:  # RULES A3: the last discard may only be won on (no 吃, 碰 or 明杠)
                acts += self.plugin.meld_claims(self, s, tile, chow=k == 1)  # caishen: faced tiles, no floater
            if acts:
                opts[s] = tuple(acts)
        return opts

    def _rob_options(self, declarer: int, tile: int) -> dict[int, tuple[Action, ...]]:
        opts: dict[int, tuple[Action, ...]] = {}
        for k in (1, 2, 3):
            s = (declarer + k) % 4
            if s in self.gave_up:
                continue
            hand = self.concealed[s]
            if self.plugin.can_win(self, s, [*hand, tile], tile, self_draw=False, robbing=True):
                opts[s] = (Action(ActionType.HU, s, tile),)
        return opts

    def _can_win(self, seat: int, tiles: list[int], win_tile: int, *, self_draw: bool) -> bool:
        """May ``seat`` win with ``tiles`` (the win tile included)? Asked of the ruleset (caishen also
        needs ×2 and bars a floater (漂財) from winning on a discard)."""
        return self.plugin.can_win(self, seat, tiles, win_tile, self_draw=self_draw)

    @property
    def plugin(self) -> RulesetPlugin:
        """The ruleset's behaviour (``jxbot.rulesets``): every hook where variants differ."""
        return behaviour(self.ruleset)

    def _dead_indices(self) -> frozenset[int]:
        """Wall indices out of play: the indicator (and in caishen the 20 tiles kept back)."""
        return self.plugin.dead_indices(self, self._indicator_index())

    # ------------------------------------------------------------ applying actions

    def apply(self, action: Action | dict) -> list[ev.Event]:
        """Take one action; return the events it caused (including automatic ones that followed)."""
        if isinstance(action, dict):
            try:
                action = action_from_json(action)
            except (KeyError, ValueError, TypeError):
                raise IllegalAction("bad_action") from None
        act = self._validate(action)
        out: list[ev.Event] = []
        t = act.type
        seat = act.seat
        if t is ActionType.DISCARD:
            assert act.tile is not None
            self._emit(ev.Discarded(seat=seat, tile=act.tile), out)
        elif t is ActionType.TSUMO:
            assert self.drawn is not None
            self._emit(self._won(seat, self.drawn, self_draw=True), out)
        elif t is ActionType.CONCEALED_KONG:
            assert act.tile is not None
            self._emit(ev.Konged(seat=seat, kind=MeldKind.CONCEALED_KONG.value, tile=act.tile), out)
        elif t is ActionType.ADDED_KONG:
            assert act.tile is not None
            self._emit(ev.KongDeclared(seat=seat, tile=act.tile), out)
        elif t in CLAIM_TYPES:
            self._emit(ev.ClaimAnswered(seat=seat, action=t.value, tile=act.tile), out)
        else:
            self._emit(ev.ContractAnswered(seat=seat, give_up=t is ActionType.GIVE_UP), out)
        self._advance(out)
        return out

    def escape(self, seat: int) -> list[ev.Event]:
        """The player of ``seat`` left: mark it escaped (the runner auto-plays it from now on)."""
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise IllegalAction("bad_seat")
        if self.phase == "ended":
            raise IllegalAction("hand_over")
        if seat in self.escaped:
            raise IllegalAction("already_escaped")
        out: list[ev.Event] = []
        self._emit(ev.Escaped(seat=seat), out)
        return out

    def default_action(self, seat: int) -> Action:
        """What a timeout does for ``seat``: discard the drawn tile (or the last tile of the sorted hand
        after a claim), pass a claim or rob window, or the ruleset's contract default."""
        if seat not in self.pending():
            raise IllegalAction("not_pending")
        if self.phase == "turn":
            tile = self.drawn if self.drawn is not None else sort_hand(self.concealed[seat], self.wildcard)[-1]
            return Action(ActionType.DISCARD, seat, tile)
        if self.phase in ("claim", "rob"):
            return Action(ActionType.PASS, seat)
        give_up = self.ruleset.contract_default == "give_up"
        return Action(ActionType.GIVE_UP if give_up else ActionType.PERSIST, seat)

    def _normalize(self, a: Action) -> Action:
        t = a.type
        if t in (ActionType.PASS, ActionType.PERSIST, ActionType.GIVE_UP) and a.tile is not None:
            return Action(t, a.seat)
        if a.tile is None:
            if t in (ActionType.HU, ActionType.PUNG, ActionType.KONG) and self.window is not None:
                return Action(t, a.seat, self.window.tile)
            if t is ActionType.TSUMO and self.drawn is not None:
                return Action(t, a.seat, self.drawn)
        return a

    def _validate(self, action: Action) -> Action:
        if not isinstance(action, Action) or not isinstance(action.type, ActionType):
            raise IllegalAction("bad_action")
        seat = action.seat
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise IllegalAction("bad_seat")
        tile = action.tile
        if tile is not None and (not isinstance(tile, int) or isinstance(tile, bool) or not 0 <= tile < NUM_KINDS):
            raise IllegalAction("bad_action")
        if self.phase == "ended":
            raise IllegalAction("hand_over")
        act = self._normalize(action)
        if act in self.legal_actions(seat):
            return act
        raise self._diagnose(act)

    def _diagnose(self, a: Action) -> IllegalAction:
        t, seat, phase = a.type, a.seat, self.phase
        decision = t in (ActionType.PERSIST, ActionType.GIVE_UP)
        if phase == "turn":
            if decision:
                return IllegalAction("no_decision")
            if t in CLAIM_TYPES:
                last = self.last_discard
                wc_discard = (last is not None and last[1] == self.wildcard and a.tile in (None, self.wildcard)
                              and not self.ruleset.wildcard_discard_claimable)
                if wc_discard and t is not ActionType.HU and t is not ActionType.PASS:
                    return IllegalAction("wildcard_in_meld")
                if wc_discard and t is ActionType.HU:
                    return IllegalAction("cannot_claim", "A discarded wildcard (百搭) cannot be claimed.")
                if (t is not ActionType.PASS and last is not None and last[0] != seat
                        and self.plugin.claim_barred(self, seat)):
                    return IllegalAction("floating")  # RULES B5: no window was opened for the floater
                return IllegalAction("window_closed")
            if seat != self.turn:
                return IllegalAction("not_your_turn")
            if seat in self.gave_up and t is not ActionType.DISCARD:
                return IllegalAction("gave_up")
            if t is ActionType.DISCARD:
                return IllegalAction("tile_not_held" if a.tile not in self.concealed[seat] else "bad_action")
            if t is ActionType.TSUMO:
                return IllegalAction("no_draw" if self.drawn is None else "not_winning")
            # kongs
            if a.tile is not None and a.tile == self.wildcard:
                return IllegalAction("wildcard_in_meld")
            if self.drawn is None:
                return IllegalAction("no_draw")
            if self.wall_remaining <= 0:
                return IllegalAction("wall_empty")
            if a.tile is None or a.tile not in self.concealed[seat]:
                return IllegalAction("tile_not_held")
            return IllegalAction("cannot_kong")
        if phase in ("claim", "rob"):
            w = self.window
            assert w is not None
            if decision:
                return IllegalAction("no_decision")
            if t in TURN_TYPES:
                return IllegalAction("not_your_turn")
            if seat in self.gave_up:
                return IllegalAction("gave_up")
            if seat in w.answers:
                return IllegalAction("already_answered")
            if t is not ActionType.PASS and self.plugin.claim_barred(self, seat):
                return IllegalAction("floating")  # RULES B5
            if t in (ActionType.PUNG, ActionType.KONG, ActionType.CHOW) and w.kind == "claim" \
                    and self.wall_remaining <= 0:
                return IllegalAction("last_discard")  # RULES A3
            if t in (ActionType.PUNG, ActionType.KONG, ActionType.CHOW) and self.wildcard is not None:
                if t is ActionType.CHOW and a.tile is not None and 0 <= a.tile < 27 and a.tile % 9 <= 6:
                    seq = (a.tile, a.tile + 1, a.tile + 2)
                    if (seat == (w.seat + 1) % 4 and w.tile in seq and self.wildcard in seq
                            and self.plugin.wildcard_chows_refused()):  # caishen: a 白板 plays that face
                        return IllegalAction("wildcard_in_meld")
                elif w.tile == self.wildcard:
                    return IllegalAction("wildcard_in_meld")
            return IllegalAction("cannot_claim")
        # contract
        if decision:
            if seat not in self.deciders:
                return IllegalAction("not_deciding")
            return IllegalAction("already_answered")
        if t in CLAIM_TYPES:
            return IllegalAction("window_closed")
        return IllegalAction("waiting_contract")

    # ------------------------------------------------------------ automatic progress

    def _advance(self, out: list[ev.Event]) -> None:
        while True:
            if self.phase in ("claim", "rob"):
                if not self._resolve_window(out):
                    return
                continue
            if self.phase == "turn" and self.need_draw:
                if self.wall_remaining <= 0:
                    self._emit(ev.DrawnGame(), out)
                    return
                tail = self.need_draw == "tail"
                idx = self._live[self._t] if tail else self._live[self._h]
                self._emit(ev.Drew(seat=self.turn, tile=self.wall[idx], replacement=tail), out)
                if tail and self.ruleset.kong_void and self.wall_remaining > 0:  # RULES B2: the upper tile
                    self._emit(ev.TileVoided(tile=self.wall[self._live[self._t]]), out)
                continue
            return

    def _resolve_window(self, out: list[ev.Event]) -> bool:
        """Close the window if its outcome is certain; emit what follows. False = keep waiting."""
        w = self.window
        assert w is not None
        best: tuple[tuple[int, int], Action] | None = None
        for seat, act in w.answers.items():
            key = (_LEVEL[act.type], -((seat - w.seat) % 4))
            if best is None or key > best[0]:
                best = (key, act)
        for seat, acts in w.options.items():
            if seat in w.answers:
                continue
            potential = (max(_LEVEL[a.type] for a in acts), -((seat - w.seat) % 4))
            if best is None or potential > best[0]:
                return False
        win = best[1] if best is not None and best[1].type is not ActionType.PASS else None
        if w.kind == "rob":
            if win is None:
                self._emit(ev.Konged(seat=w.seat, kind=MeldKind.ADDED_KONG.value, tile=w.tile), out)
            else:
                self._emit(self._won(win.seat, w.tile, self_draw=False, robbed_from=w.seat), out)
            return True
        if win is None:
            self._emit(ev.ClaimsClosed(seat=w.seat, tile=w.tile), out)
        elif win.type is ActionType.HU:
            self._emit(self._won(win.seat, w.tile, self_draw=False, discarder=w.seat), out)
        else:
            kind = _CLAIM_MELD[win.type]
            meld: tuple[int, ...]
            if kind is MeldKind.CHOW:
                assert win.tile is not None
                meld = self.plugin.chow_tiles(self, win.tile)
            else:
                meld = (w.tile,) * (4 if kind is MeldKind.KONG else 3)
            claimer = win.seat
            self._emit(ev.Claimed(seat=claimer, kind=kind.value, tile=w.tile, from_seat=w.seat, meld=meld), out)
            n = self.ruleset.contract_claims
            if self.contract is None and n > 0 and self.claim_counts[(claimer, w.seat)] >= n:
                deciders = tuple(s for s in range(4) if s not in (claimer, w.seat))
                self._emit(ev.ContractFormed(pair=(claimer, w.seat), deciders=deciders), out)
        return True

    def _won(self, seat: int, tile: int, *, self_draw: bool, discarder: int | None = None,
             robbed_from: int | None = None) -> ev.Won:
        hand = list(self.concealed[seat])
        if self_draw:
            hand.remove(tile)
        dealer = self.context.dealer
        if seat == dealer:
            first_turn = self_draw and not self.discarded_seats and not self.melds[seat]
        else:
            first_turn = seat not in self.discarded_seats and not self.any_claim
        taken = tuple(self.queue[: max(0, self.ruleset.cumulative_per_win)])
        score = self.plugin.score(self, seat, hand, tile, self_draw=self_draw, robbed_from=robbed_from,
                                  first_turn=first_turn, cumulative=taken)
        if not score.winning:  # legal_actions only offers wins that is_winning accepts
            raise RuntimeError(f"rules disagree: is_winning but score_win says {score.reason}")
        return ev.Won(seat=seat, tile=tile, self_draw=self_draw, discarder=discarder, robbed_from=robbed_from,
                      hand=tuple(sort_hand(hand, self.wildcard)), cumulative_taken=taken,
                      score=score.to_json())

    # ------------------------------------------------------------ settlement

    def settle(self, balances: Sequence[int | None], fee: int = 0) -> Settlement:
        """Pay the hand (``jxbot.rules.settle``); record it as a ``HandSettled`` event. Only once.

        ``balances[i]`` is seat i's silver, ``None`` for a computer seat (house-backed)."""
        if self.phase != "ended" or self.result is None:
            raise IllegalAction("not_ended")
        if self.settlement is not None:
            raise IllegalAction("already_settled")
        if len(balances) != 4:
            raise ValueError("balances has one entry per seat")
        s = self.plugin.settle(self, balances, fee)
        self._emit(ev.HandSettled(balances=tuple(balances), fee=fee, settlement=settlement_to_json(s)), [])
        assert self.settlement is not None
        return self.settlement

    # ------------------------------------------------------------ the fold

    def _emit(self, e: ev.Event, out: list[ev.Event]) -> None:
        self._fold(e)
        self.events.append(e)
        out.append(e)

    def _fold(self, e: ev.Event) -> None:
        self._legal_cache = {}
        fold = getattr(self, "_on_" + e.type, None)
        if fold is None:
            raise ValueError(f"unknown event {e.type!r}")
        try:
            fold(e)
        finally:  # after the change (a view asked for during it is not kept)
            self._forget_views(e)

    def _forget_views(self, e: ev.Event) -> None:
        """Drop the views' parts the event may have changed (docs/views.md, "Shared parts")."""
        self._base_view = None
        touched = [s for s in (getattr(e, f, None) for f in _SEAT_FIELDS) if s is not None]
        if touched:  # an event changes the seats it names (and the table's part) only
            kept = list(self._seat_views)  # a new list: a copy of this Hand keeps its own parts
            for s in touched:
                kept[s] = None
            self._seat_views = kept
        else:  # the deal, a contract, a voided tile, the end, the settlement: everything is built again
            self._seat_views = [None] * 4

    def _on_hand_started(self, e: ev.HandStarted) -> None:
        if self.events:
            raise ValueError("hand_started must be the first event")
        self.ruleset = ruleset_from_json(e.ruleset, e.ruleset_overrides)
        self.context = HandContext.from_json(e.context)
        problem = check_wall(e.wall)
        if problem:
            raise ValueError(problem)
        self.wall, self.dice, self.salt, self.commitment = tuple(e.wall), (e.dice[0], e.dice[1]), e.salt, e.commitment
        self.queue = list(self.context.cumulative_queue)

    def _on_dealt(self, e: ev.Dealt) -> None:
        d = self.context.dealer
        w = self.wall
        for i in range(4):
            self.concealed[(d + i) % 4] = list(w[DEAL * i:DEAL * (i + 1)])
        self.concealed[d].append(w[4 * DEAL])
        dead = self._dead_indices()
        self.indicator, self.wildcard = e.indicator, e.wildcard
        self._live = [i for i in range(4 * DEAL + 1, WALL_SIZE) if i not in dead]
        self._h, self._t = 0, len(self._live) - 1
        self.queue.extend(e.cumulative_added)
        self.turn, self.drawn, self.phase = d, w[4 * DEAL], "turn"

    def _on_drew(self, e: ev.Drew) -> None:
        if e.replacement:
            idx = self._live[self._t]
            self._t -= 1
        else:
            idx = self._live[self._h]
            self._h += 1
        if self.wall[idx] != e.tile or e.seat != self.turn:
            raise ValueError("event log does not match the wall")
        self.concealed[e.seat].append(e.tile)
        self.drawn, self.kong_draw, self.need_draw = e.tile, e.replacement, None
        self.last_tile = self.wall_remaining == 0

    def _on_discarded(self, e: ev.Discarded) -> None:
        self.concealed[e.seat].remove(e.tile)
        self.discards[e.seat].append([e.tile, False])
        self.last_discard = (e.seat, e.tile)
        self.drawn, self.kong_draw, self.last_tile = None, False, False
        self.discarded_seats.add(e.seat)
        self.window = _Window("claim", e.seat, e.tile, self._claim_options(e.seat, e.tile))
        self.phase = "claim"

    def _on_claim_answered(self, e: ev.ClaimAnswered) -> None:
        assert self.window is not None
        self.window.answers[e.seat] = Action(ActionType(e.action), e.seat, e.tile)

    def _on_claims_closed(self, e: ev.ClaimsClosed) -> None:
        self.window = None
        self.turn, self.need_draw, self.phase = (e.seat + 1) % 4, "head", "turn"

    def _on_claimed(self, e: ev.Claimed) -> None:
        hand = self.concealed[e.seat]
        rest = list(e.meld)
        rest.remove(e.tile)
        for x in rest:
            hand.remove(x)
        self.melds[e.seat].append(Meld(MeldKind(e.kind), tuple(e.meld), e.from_seat, e.tile))
        self.discards[e.from_seat][-1][1] = True
        self.last_discard = None
        self.window = None
        self.claim_counts[(e.seat, e.from_seat)] += 1
        self.any_claim = True
        self.turn, self.drawn, self.phase = e.seat, None, "turn"
        self.need_draw = "tail" if e.kind == MeldKind.KONG.value else None

    def _on_kong_declared(self, e: ev.KongDeclared) -> None:
        self.window = _Window("rob", e.seat, e.tile, self._rob_options(e.seat, e.tile))
        self.drawn, self.phase = None, "rob"

    def _on_konged(self, e: ev.Konged) -> None:
        hand = self.concealed[e.seat]
        t = e.tile
        if e.kind == MeldKind.CONCEALED_KONG.value:
            for _ in range(4):
                hand.remove(t)
            self.melds[e.seat].append(Meld(MeldKind.CONCEALED_KONG, (t,) * 4))
        else:
            hand.remove(t)
            ms = self.melds[e.seat]
            i = next(i for i, m in enumerate(ms) if m.kind is MeldKind.PUNG and m.tiles[0] == t)
            ms[i] = Meld(MeldKind.ADDED_KONG, (t,) * 4, ms[i].from_seat, ms[i].claimed)
        self.window = None
        self.turn, self.drawn, self.need_draw, self.phase = e.seat, None, "tail", "turn"

    def _on_tile_voided(self, e: ev.TileVoided) -> None:
        idx = self._live[self._t]
        if self.wall[idx] != e.tile:
            raise ValueError("event log does not match the wall")
        self._t -= 1
        self.voided.append(e.tile)
        self.last_tile = self.drawn is not None and self.wall_remaining == 0

    def _on_contract_formed(self, e: ev.ContractFormed) -> None:
        self.contract = (e.pair[0], e.pair[1])
        self.deciders = tuple(e.deciders)
        self.decisions = {}
        self.phase = "contract"

    def _on_contract_answered(self, e: ev.ContractAnswered) -> None:
        self.decisions[e.seat] = e.give_up
        if e.give_up:
            self.gave_up.add(e.seat)
        if all(s in self.decisions for s in self.deciders):
            self.phase = "turn"

    def _on_won(self, e: ev.Won) -> None:
        if e.discarder is not None:
            self.discards[e.discarder][-1][1] = True
            self.concealed[e.seat].append(e.tile)
        elif e.robbed_from is not None:
            self.concealed[e.robbed_from].remove(e.tile)
            self.concealed[e.seat].append(e.tile)
        for code in e.cumulative_taken:
            self.queue.remove(code)
        self.window = None
        self.phase = "ended"
        self.turn = e.seat
        self.result = HandResult(
            winner=e.seat, win_tile=e.tile, self_draw=e.self_draw, discarder=e.discarder,
            robbed_from=e.robbed_from, score=score_from_json(e.score), contract=self.contract,
            gave_up=tuple(sorted(self.gave_up)), escaped=tuple(sorted(self.escaped)), drawn_game=False,
            cumulative_taken=tuple(e.cumulative_taken), hand=tuple(e.hand), melds=tuple(self.melds[e.seat]),
        )

    def _on_drawn_game(self, e: ev.DrawnGame) -> None:
        if self.ruleset.cumulative_per_win > 0:
            self.queue.append("huang")
        self.phase = "ended"
        self.result = HandResult(
            winner=None, win_tile=None, self_draw=False, discarder=None, robbed_from=None, score=None,
            contract=self.contract, gave_up=tuple(sorted(self.gave_up)), escaped=tuple(sorted(self.escaped)),
            drawn_game=True,
        )

    def _on_escaped(self, e: ev.Escaped) -> None:
        self.escaped.add(e.seat)

    def _on_hand_settled(self, e: ev.HandSettled) -> None:
        if self.result is None or self.settlement is not None:
            raise ValueError("hand_settled out of place")
        self.settlement = settlement_from_json(e.settlement)
        self._settle_balances = tuple(e.balances)
        self._settle_fee = e.fee

    # ------------------------------------------------------------ views

    def _seat_public(self, s: int) -> dict:
        sv = self._seat_views[s]
        if sv is None:
            sv = self._seat_views[s] = self._build_seat_public(s)
        return sv

    def _build_seat_public(self, s: int) -> dict:
        return {
            "seat": s,
            "seat_wind": self.seat_wind(s),
            "is_dealer": s == self.context.dealer,
            "concealed_count": len(self.concealed[s]),
            "melds": [self.plugin.meld_json(self, m) for m in self.melds[s]],
            "discards": [{"tile": t, "claimed": c} for t, c in self.discards[s]],
            "gave_up": s in self.gave_up,
        }

    def public_view(self) -> dict:
        """What everyone may see (docs/views.md): no concealed tile, no wall."""
        return self._view(None)

    def view(self, seat: int) -> dict:
        """What ``seat`` may see: the public view plus its own tiles and its legal actions."""
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise IllegalAction("bad_seat")
        return self._view(seat)

    def _view(self, viewer: int | None) -> dict:
        base = self._base_view
        if base is None:
            base = self._base_view = self._build_base_view()
        v = dict(base)  # the top level is the caller's; what it holds is shared and never changed
        v["viewer"] = viewer
        if viewer is not None:
            hand = list(self.concealed[viewer])
            drawn = self.drawn if viewer == self.turn and self.phase == "turn" else None
            if drawn is not None:
                hand.remove(drawn)
            v["hand"] = sort_hand(hand, self.wildcard)
            v["drawn"] = drawn
            v["actions"] = [a.to_json() for a in self.legal_actions(viewer)]
        return v

    def _build_base_view(self) -> dict:
        """The public part of every view of the current state (``viewer`` None: the public view)."""
        ctx = self.context
        w = self.window
        v: dict[str, Any] = {
            "hand_id": ctx.hand_id,
            "ruleset": self.ruleset.name,
            "viewer": None,
            "hand_number": ctx.hand_number,
            "round_wind": ctx.round_wind,
            "dealer": ctx.dealer,
            "dice": list(self.dice),
            "wildcard": self.wildcard,
            "white_as": self.plugin.white_as(self),
            "indicator": self.indicator,
            "wall_remaining": self.wall_remaining,
            "turn": self.turn,
            "phase": self.phase,
            "last_discard": {"seat": self.last_discard[0], "tile": self.last_discard[1]}
            if self.last_discard else None,
            "pending_kong": {"seat": w.seat, "tile": w.tile} if w is not None and w.kind == "rob" else None,
            "voided": list(self.voided),
            "contract": list(self.contract) if self.contract else None,
            "cumulative_queue": list(self.queue),
            "commitment": self.commitment,
            "seats": [self._seat_public(s) for s in range(4)],
        }
        return v

    def result_view(self) -> dict:
        """The end-of-hand view (docs/views.md); ``payments`` is filled once the hand is settled."""
        r = self.result
        if r is None:
            raise IllegalAction("not_ended")
        s = self.settlement
        payments = s.payments(self._settle_balances) if s is not None else []
        ctx = self.context
        return {
            "hand_id": ctx.hand_id, "ruleset": self.ruleset.name, "hand_number": ctx.hand_number,
            "round_wind": ctx.round_wind, "dealer": ctx.dealer,
            "wildcard": self.wildcard, "indicator": self.indicator, "voided": list(self.voided),
            "drawn_game": r.drawn_game, "winner": r.winner, "win_tile": r.win_tile, "self_draw": r.self_draw,
            "robbed_from": r.robbed_from, "discarder": r.discarder,
            "hand": list(r.hand), "melds": [self.plugin.meld_json(self, m) for m in r.melds],
            "white_as": self.plugin.white_as(self),
            "score": r.score.to_json() if r.score else None,
            "cumulative_taken": list(r.cumulative_taken),
            "contract": list(r.contract) if r.contract else None,
            "gave_up": list(r.gave_up), "escaped": list(r.escaped),
            "payments": payments,
            "cumulative_queue": list(self.queue),
            "reveal": {"wall": list(self.wall), "salt": self.salt, "commitment": self.commitment},
        }

    # ------------------------------------------------------------ misc

    def events_json(self) -> list[dict]:
        return [e.to_json() for e in self.events]

    def public_events(self, viewer: int | None = None) -> list[dict]:
        """The event log as ``viewer`` (a seat, or ``None`` for the channel) may see it."""
        out = []
        for e in self.events:
            d = e.public_json(viewer)
            if d is not None:
                out.append(d)
        return out

    def tile_census(self) -> list[int]:
        """Count of each kind over hands, melds, unclaimed discards, live wall, indicator and the tiles
        dealt-but-dead (none in Jiaxing). Always 4 of each kind (an invariant the tests check)."""
        c = [0] * NUM_KINDS
        for s in range(4):
            for t in self.concealed[s]:
                c[t] += 1
            for m in self.melds[s]:
                for t in m.tiles:
                    c[t] += 1
            for t, claimed in self.discards[s]:
                if not claimed:
                    c[t] += 1
        for t in self.voided:
            c[t] += 1
        if self._live:
            for i in self._live[self._h:self._t + 1]:
                c[self.wall[i]] += 1
            for i in self._dead_indices():
                c[self.wall[i]] += 1
        return c

    def __repr__(self) -> str:
        return f"<Hand {self.context.hand_id} #{self.context.hand_number} phase={self.phase} turn={self.turn}>"
