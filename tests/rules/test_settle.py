"""settle: RULES A9 multipliers, the seed's contract examples, caps, fees, escape, computer seats."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jxbot.rules import settle

RICH = [10_000, 10_000, 10_000, 10_000]


def paid_to(s, payee):
    return {t.payer: t.amount for t in s.transfers if t.payee == payee and t.reason in ("win", "escape")}


def test_everyone_pays_once_by_default():
    s = settle(winner=2, points=60, discarder=0, balances=RICH)
    assert paid_to(s, 2) == {0: 60, 1: 60, 3: 60}
    assert s.deltas == (-60, -60, 180, -60) and s.house_delta == 0
    s = settle(winner=2, points=60, self_draw=True, balances=RICH)
    assert s.deltas == (-60, -60, 180, -60)


def test_robbed_kong_pays_three_times_alone():
    s = settle(winner=0, points=60, robbed=3, balances=RICH)
    assert paid_to(s, 0) == {3: 180}
    assert s.deltas == (180, 0, 0, -180)


def test_seed_contract_partner_robbed_pays_480_persisting_120():
    s = settle(winner=0, points=60, robbed=1, contract=(0, 1), balances=RICH)
    assert paid_to(s, 0) == {1: 480, 2: 120, 3: 120}
    assert s.owed == (0, 480, 120, 120)


def test_contract_winner_in_pair_partner_five_gave_up_zero():
    s = settle(winner=1, points=10, discarder=2, contract=(0, 1), gave_up=(3,), balances=RICH)
    assert paid_to(s, 1) == {0: 50, 2: 20}
    assert s.owed[3] == 0


def test_contract_winner_is_a_persisting_other():
    s = settle(winner=2, points=10, contract=(0, 1), balances=RICH)
    assert paid_to(s, 2) == {0: 20, 1: 20, 3: 10}
    s = settle(winner=2, points=10, contract=(0, 1), gave_up=(3,), balances=RICH)
    assert paid_to(s, 2) == {0: 20, 1: 20}


def test_a_seat_that_gave_up_cannot_win():
    with pytest.raises(ValueError):
        settle(winner=3, points=10, contract=(0, 1), gave_up=(3,), balances=RICH)


def test_payer_capped_at_balance_and_winner_gets_what_was_paid():
    s = settle(winner=0, points=100, balances=[0, 30, 500, 100])
    assert s.owed == (0, 100, 100, 100)
    assert paid_to(s, 0) == {1: 30, 2: 100, 3: 100}
    assert s.deltas == (230, -30, -100, -100)


def test_fee_taken_from_what_is_left_down_to_zero():
    s = settle(winner=0, points=100, balances=[0, 105, 500, 100], fee=10)
    fees = {t.payer: t.amount for t in s.transfers if t.reason == "fee"}
    assert fees == {0: 10, 1: 5, 2: 10, 3: 0}
    assert s.house_delta == 25
    assert s.deltas == (300 - 10, -105, -110, -100)


def test_computer_seats_pay_in_full_and_pay_no_fee():
    s = settle(winner=0, points=100, balances=[50, None, None, 5], fee=10)
    assert paid_to(s, 0) == {1: 100, 2: 100, 3: 5}
    assert {t.payer for t in s.transfers if t.reason == "fee"} == {0, 3}
    assert sum(s.deltas) + s.house_delta == 0


def test_drawn_hand_fees_only():
    s = settle(winner=None, balances=[100, 5, None, 0], fee=10)
    assert s.deltas == (-10, -5, 0, 0) and s.house_delta == 15
    assert all(t.reason == "fee" for t in s.transfers)


def test_escaper_pays_loss_and_fee_others_pay_no_fee():
    s = settle(winner=0, points=60, escaped=(2,), balances=RICH, fee=10)
    assert paid_to(s, 0) == {1: 60, 2: 60, 3: 60}
    assert [t.reason for t in s.transfers if t.payer == 2] == ["escape", "fee"]
    assert {t.payer for t in s.transfers if t.reason == "fee"} == {2}


def test_escaped_winner_is_not_paid_but_pays_the_fee():
    s = settle(winner=1, points=60, escaped=(1,), balances=RICH, fee=10)
    assert s.deltas == (0, -10, 0, 0) and s.house_delta == 10


@settings(max_examples=300, deadline=None)
@given(
    winner=st.one_of(st.none(), st.integers(0, 3)),
    points=st.integers(0, 5000),
    kind=st.sampled_from(["discard", "self", "rob"]),
    other=st.integers(0, 3),
    contract=st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 3))),
    gave=st.lists(st.integers(0, 3), max_size=2, unique=True),
    escaped=st.lists(st.integers(0, 3), max_size=2, unique=True),
    balances=st.lists(st.one_of(st.none(), st.integers(0, 20_000)), min_size=4, max_size=4),
    fee=st.integers(0, 200),
)
def test_settlements_sum_to_zero_and_never_overdraw(winner, points, kind, other, contract, gave, escaped,
                                                    balances, fee):
    if contract is not None and contract[0] == contract[1]:
        contract = None
    gave = [g for g in gave if contract is not None and g not in contract and g != winner]
    robbed = other if kind == "rob" and winner is not None and other != winner else None
    discarder = other if kind == "discard" and winner is not None and other != winner else None
    s = settle(winner=winner, points=points, self_draw=kind == "self", discarder=discarder, robbed=robbed,
               contract=contract, gave_up=gave, escaped=escaped, balances=balances, fee=fee)
    assert sum(s.deltas) + s.house_delta == 0
    for i, b in enumerate(balances):
        if b is not None:
            assert b + s.deltas[i] >= 0  # nobody goes below zero
        else:
            assert not any(t.payer == i and t.reason == "fee" for t in s.transfers)
        out = sum(t.amount for t in s.transfers if t.payer == i and t.reason != "fee")
        assert out <= s.owed[i]
    if winner is not None:
        got = sum(t.amount for t in s.transfers if t.payee == winner)
        assert got == sum(t.amount for t in s.transfers if t.reason in ("win", "escape"))
    for g in gave:
        assert s.owed[g] == 0
