"""A tiny stand-in for jxbot.game with the same surface (phase, pending, legal_actions, apply,
default_action, escape, settle, views, events), so clock behaviour is tested on exact situations.

Rules of the fake: each seat holds tiles; the seat whose turn it is has drawn one (``drawn``) and
discards. A discard opens a claim window for every other seat holding two of that kind (碰 or 过),
and for seats in ``hu_on`` (胡). The hand is drawn when the wall runs out. A ``contract_after`` pung
count opens a contract window for the two other seats.
"""

from __future__ import annotations

from dataclasses import dataclass

from jxbot.game.actions import Action, ActionType
from jxbot.rules.contract import Settlement


class FakeIllegal(Exception):
    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code


@dataclass(frozen=True)
class Ev:
    kind: str
    data: tuple

    def to_json(self) -> dict:
        return {"type": self.kind, "data": list(self.data)}


class FakeHand:
    def __init__(self, hand_id: str, hands: list[list[int]], wall: list[int], *, dealer: int = 0,
                 hu_on: dict[int, int] | None = None, contract_after: int | None = None) -> None:
        self.hand_id = hand_id
        self.hands = [list(h) for h in hands]
        self.wall = list(wall)
        self.turn = dealer
        self.drawn: int | None = None
        self.wildcard: int | None = None
        self.phase = "turn"
        self.discards: list[list[int]] = [[], [], [], []]
        self.last: tuple[int, int] | None = None
        self.waiting: set[int] = set()
        self.answers: dict[int, Action] = {}
        self.hu_on = dict(hu_on or {})  # seat -> the kind it wins on
        self.contract_after = contract_after
        self.pungs = 0
        self.escaped: set[int] = set()
        self.gave_up: set[int] = set()
        self.events: list[Ev] = [Ev("deal", (hand_id,))]
        self.winner: int | None = None
        self.settlement: Settlement | None = None
        self._draw()

    # -- the surface the runner uses
    def pending(self) -> frozenset[int]:
        if self.phase == "turn":
            return frozenset({self.turn})
        if self.phase in ("claim", "contract"):
            return frozenset(self.waiting - set(self.answers))
        return frozenset()

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending():
            return []
        if self.phase == "turn":
            tiles = sorted(set(self.hands[seat] + ([self.drawn] if self.drawn is not None else [])))
            acts = [Action(ActionType.DISCARD, seat, t) for t in tiles]
            if self.drawn is not None and self.hu_on.get(seat) == self.drawn:
                acts.insert(0, Action(ActionType.TSUMO, seat))
            return acts
        if self.phase == "contract":
            return [Action(ActionType.PERSIST, seat), Action(ActionType.GIVE_UP, seat)]
        _, tile = self.last
        acts = []
        if self.hu_on.get(seat) == tile:
            acts.append(Action(ActionType.HU, seat))
        if self.hands[seat].count(tile) >= 2:
            acts.append(Action(ActionType.PUNG, seat))
        return acts + [Action(ActionType.PASS, seat)]

    def default_action(self, seat: int) -> Action:
        if self.phase == "turn":
            tile = self.drawn if self.drawn is not None else self.hands[seat][-1]
            return Action(ActionType.DISCARD, seat, tile)
        if self.phase == "contract":
            return Action(ActionType.PERSIST, seat)
        return Action(ActionType.PASS, seat)

    def apply(self, action: Action) -> list[Ev]:
        if self.phase == "ended":
            raise FakeIllegal("hand_over")
        if action.seat not in self.pending():
            raise FakeIllegal("not_your_turn")
        if action not in self.legal_actions(action.seat):
            raise FakeIllegal("tile_not_held" if action.type is ActionType.DISCARD else "cannot_claim")
        n = len(self.events)
        s = action.seat
        self.events.append(Ev("action", (action.type.value, s, action.tile)))
        if action.type is ActionType.TSUMO:
            self._end(s)
        elif action.type is ActionType.DISCARD:
            tiles = self.hands[s] + ([self.drawn] if self.drawn is not None else [])
            tiles.remove(action.tile)
            self.hands[s], self.drawn = tiles, None
            self.discards[s].append(action.tile)
            self.last = (s, action.tile)
            self.waiting = {o for o in range(4) if o != s and o not in self.gave_up
                            and (self.hands[o].count(action.tile) >= 2 or self.hu_on.get(o) == action.tile)}
            self.answers = {}
            if self.waiting:
                self.phase = "claim"
            else:
                self._next_turn()
        elif self.phase == "contract":
            self.answers[s] = action
            if action.type is ActionType.GIVE_UP:
                self.gave_up.add(s)
            if not self.pending():
                self.phase = "turn"
        else:
            self.answers[s] = action
            self._resolve()
        return self.events[n:]

    def _resolve(self) -> None:
        hu = [a for a in self.answers.values() if a.type is ActionType.HU]
        if hu:
            self._end(hu[0].seat)
            return
        if self.pending():
            return
        pung = [a for a in self.answers.values() if a.type is ActionType.PUNG]
        if pung:
            s = pung[0].seat
            d, tile = self.last
            self.hands[s].remove(tile)
            self.hands[s].remove(tile)
            self.discards[d].pop()
            self.turn, self.drawn, self.phase = s, None, "turn"
            self.pungs += 1
            self.events.append(Ev("pung", (s, tile)))
            if self.contract_after is not None and self.pungs == self.contract_after:
                self.phase = "contract"
                self.waiting = {o for o in range(4) if o not in (s, d)}
                self.answers = {}
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn = (self.last[0] + 1) % 4
        self.phase = "turn"
        self._draw()

    def _draw(self) -> None:
        if not self.wall:
            self._end(None)
            return
        self.drawn = self.wall.pop(0)
        self.events.append(Ev("draw", (self.turn,)))

    def _end(self, winner: int | None) -> None:
        self.winner = winner
        self.phase = "ended"
        self.events.append(Ev("end", (winner,)))

    def escape(self, seat: int) -> list[Ev]:
        self.escaped.add(seat)
        self.events.append(Ev("escape", (seat,)))
        return self.events[-1:]

    def settle(self, balances, fee: int) -> Settlement:
        assert self.settlement is None, "settled twice"
        deltas = [0, 0, 0, 0]
        if self.winner is not None:
            for o in range(4):
                if o != self.winner and o not in self.gave_up:
                    deltas[o] -= 10
                    deltas[self.winner] += 10
        for e in self.escaped:  # the escaper is charged the fee and a loss
            deltas[e] -= 10 + fee
        self.settlement = Settlement(transfers=(), deltas=tuple(deltas), house_delta=-sum(deltas))
        self.events.append(Ev("settled", tuple(deltas)))
        return self.settlement

    def _seats(self) -> list[dict]:
        return [{"seat": i, "seat_wind": i, "is_dealer": i == 0, "concealed_count": len(self.hands[i]),
                 "melds": [], "discards": [{"tile": t, "claimed": False} for t in self.discards[i]],
                 "gave_up": i in self.gave_up} for i in range(4)]

    def public_view(self) -> dict:
        return {"hand_id": self.hand_id, "viewer": None, "phase": self.phase, "turn": self.turn,
                "hand_number": 1, "round_wind": 0, "dealer": 0, "wildcard": None, "indicator": None,
                "wall_remaining": len(self.wall), "commitment": "c0ffee",
                "last_discard": {"seat": self.last[0], "tile": self.last[1]} if self.last else None,
                "seats": self._seats()}

    def view(self, seat: int) -> dict:
        v = self.public_view()
        v.update(viewer=seat, hand=sorted(self.hands[seat]), drawn=self.drawn if self.turn == seat else None,
                 actions=[a.to_json() for a in self.legal_actions(seat)])
        return v

    def result_view(self) -> dict:
        return {"hand_id": self.hand_id, "winner": self.winner, "drawn_game": self.winner is None,
                "payments": [{"seat": i, "delta": d, "fee": 0} for i, d in enumerate(self.settlement.deltas)]}


class FakeMatch:
    """Plays the given hands in order (each a zero-argument factory)."""

    def __init__(self, factories) -> None:
        self.factories = list(factories)
        self.finished: list[str] = []
        self.over = False

    def next_hand(self) -> FakeHand:
        return self.factories[len(self.finished)]()

    def ends_with(self, hand: FakeHand) -> bool:
        return len(self.finished) + 1 >= len(self.factories)

    def finish_hand(self, hand: FakeHand) -> None:
        self.finished.append(hand.hand_id)
        self.over = len(self.finished) >= len(self.factories)

    def to_json(self) -> dict:
        return {"finished": list(self.finished)}


class FirstLegal:
    """A computer player: wins when it can, else passes / discards the drawn tile."""

    def choose(self, view: dict) -> Action:
        acts = [Action(ActionType(a["type"]), a["seat"], a.get("tile")) for a in view["actions"]]
        for a in acts:
            if a.type in (ActionType.HU, ActionType.TSUMO):
                return a
        for a in acts:
            if a.type in (ActionType.PASS, ActionType.PERSIST):
                return a
        if view.get("drawn") is not None:
            return Action(ActionType.DISCARD, view["viewer"], view["drawn"])
        return acts[-1]
