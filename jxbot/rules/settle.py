"""``settle``: who pays whom after a hand (RULES A9 payment, A10 silver).

1. Multipliers: every seat but the winner pays ``points × multiplier`` (default 1). 抢杠胡: the
   robbed seat ×3, the others 0. A contract (A8) sets the others' multipliers (partner ×5,
   persisting ×2; winner outside the pair: pair ×2 each, the other persisting seat ×1; a seat
   that gave up 0) and adds to the robbing multiplier (partner robbed: ×8).
2. ``owed`` is that, before any cap. A payer pays ``min(owed, balance)``; the winner receives
   what was paid. A computer seat (balance ``None``) is backed by the house: it always pays in
   full and never pays the fee.
3. The fee F is then taken from each human seat, from what it has left, down to 0 (to the house).
4. Escape (decision): an escaped seat pays what its seat owes (reason ``"escape"``) plus F; its
   own winnings are not paid out (nobody pays it); in a hand with an escape, only the escapers
   pay the fee. Drawn hand (``winner`` None): fees only.

``sum(deltas) + house_delta == 0`` always.
"""

from __future__ import annotations

from collections.abc import Sequence

from .contract import Settlement, Transfer
from .ruleset import Ruleset, get_ruleset

SEATS = range(4)


def multipliers(*, winner: int, self_draw: bool = False, robbed: int | None = None,
                contract: tuple[int, int] | None = None, gave_up: Sequence[int] = (),
                ruleset: str | Ruleset = "jiaxing") -> tuple[int, int, int, int]:
    """Each seat's payment multiplier for a win (0 for the winner)."""
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    base = rs.mult_self_draw if self_draw else rs.mult_discard
    mult = [0, 0, 0, 0]
    for s in SEATS:
        if s == winner:
            continue
        if contract is not None:
            if s in gave_up:  # a seat that gave up pays nothing, whatever happens (A8)
                mult[s] = 0
                continue
            if winner in contract:
                m = rs.mult_contract_partner if s in contract else rs.mult_contract_persist
            else:
                m = rs.mult_contract_pair_when_other_wins if s in contract else rs.mult_contract_other_persist_when_other_wins
            if robbed == s:
                m += rs.mult_rob_kong
        elif robbed is not None:
            m = rs.mult_rob_kong if s == robbed else 0
        else:
            m = base
        mult[s] = m
    return (mult[0], mult[1], mult[2], mult[3])


def _why(mult: Sequence[int], *, winner: int | None, self_draw: bool, robbed: int | None,
         contract: tuple[int, int] | None, gave_up: Sequence[int], escaped: set[int], rob: int) -> list[list]:
    """Why each seat pays what it pays: ``[[code, multiplier], ...]`` per seat (the result view's
    ``payments[i]["why"]``, put in words by ``jxbot.rules.explain``)."""
    out: list[list] = [[], [], [], []]
    if winner is None:
        return out
    for s in SEATS:
        if s == winner:
            continue
        why = out[s]
        if contract is not None and s in gave_up:
            why.append(["gave_up", 0])
        elif contract is not None:
            why.append(["contract" if s in contract else "persist", mult[s] - (rob if robbed == s else 0)])
            if robbed == s:
                why.append(["rob", rob])
        elif robbed is not None:
            why.append(["rob", mult[s]] if s == robbed else ["not_robbed", 0])
        else:
            why.append(["self_draw" if self_draw else "discard", mult[s]])
        if s in escaped:
            why.append(["escape", mult[s]])
    return out


def _check_seat(name: str, s: int | None) -> None:
    if s is not None and (not isinstance(s, int) or isinstance(s, bool) or s not in SEATS):
        raise ValueError(f"{name} must be a seat 0–3, not {s!r}")


def settle(*, winner: int | None, points: int = 0, self_draw: bool = False, discarder: int | None = None,
           robbed: int | None = None, contract: tuple[int, int] | None = None, gave_up: Sequence[int] = (),
           escaped: Sequence[int] = (), balances: Sequence[int | None], fee: int = 0,
           ruleset: str | Ruleset = "jiaxing") -> Settlement:
    """Payments of one hand. ``balances[i]`` is seat i's silver, ``None`` for a computer seat."""
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    if len(balances) != 4:
        raise ValueError("balances needs one entry per seat (4)")
    for i, b in enumerate(balances):
        if b is not None and (not isinstance(b, int) or b < 0):
            raise ValueError(f"balance of seat {i} must be an int ≥ 0 or None, not {b!r}")
    for name, s in (("winner", winner), ("discarder", discarder), ("robbed", robbed)):
        _check_seat(name, s)
    for s in (*gave_up, *escaped):
        _check_seat("a gave-up or escaped seat", s)
    if points < 0 or fee < 0:
        raise ValueError("points and fee cannot be negative")
    if contract is not None:
        contract = (int(contract[0]), int(contract[1]))
        for s in contract:
            _check_seat("a contract seat", s)
        if contract[0] == contract[1]:
            raise ValueError("a contract binds two different seats")
        if any(s in contract for s in gave_up):
            raise ValueError("a seat of the contract pair cannot give up")
    if winner is not None:
        if winner in gave_up:
            raise ValueError("a seat that gave up cannot win")
        if robbed == winner or discarder == winner:
            raise ValueError("the winner cannot be the robbed seat or the discarder")

    owed = [0, 0, 0, 0]
    mult = (0, 0, 0, 0)
    escaped_set = set(escaped)
    if winner is not None and points and (winner not in escaped_set or rs.escape_winnings_paid):
        mult = multipliers(winner=winner, self_draw=self_draw, robbed=robbed, contract=contract,
                           gave_up=gave_up, ruleset=rs)
        owed = [points * m for m in mult]

    left: list[int | None] = list(balances)
    transfers: list[Transfer] = []
    deltas = [0, 0, 0, 0]
    paid = [0, 0, 0, 0]
    house = 0
    if winner is not None:
        # pay in play order after the winner, so the record reads naturally
        for k in range(1, 4):
            s = (winner + k) % 4
            if not owed[s]:
                continue
            bal = left[s]
            amount = owed[s] if bal is None else min(owed[s], bal)
            if bal is not None:
                left[s] = bal - amount
            wb = left[winner]
            if wb is not None:
                left[winner] = wb + amount
            paid[s] = amount
            deltas[s] -= amount
            deltas[winner] += amount
            transfers.append(Transfer(s, winner, amount, "escape" if s in escaped_set else "win"))
    if fee:
        payers = [s for s in SEATS if s in escaped_set] if escaped_set and not rs.escape_fee_all else list(SEATS)
        for s in payers:
            bal = left[s]
            if bal is None:  # computer seat: no fee
                continue
            amount = min(fee, bal)
            left[s] = bal - amount
            deltas[s] -= amount
            house += amount
            transfers.append(Transfer(s, None, amount, "fee"))
    assert sum(deltas) + house == 0
    details = {
        "multipliers": list(mult),
        "why": _why(mult, winner=winner, self_draw=self_draw, robbed=robbed, contract=contract, gave_up=gave_up,
                    escaped=escaped_set, rob=rs.mult_rob_kong),
        "escaped": sorted(escaped_set),
        "paid": paid,
        "capped": [paid[s] < owed[s] for s in SEATS],
    }
    return Settlement(transfers=tuple(transfers), deltas=(deltas[0], deltas[1], deltas[2], deltas[3]),
                      house_delta=house, owed=(owed[0], owed[1], owed[2], owed[3]), details=details)
