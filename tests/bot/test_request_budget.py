"""The request budget of one bot token (jxbot/request_budget.py): claim offers first, then panels, then table
messages; a process's share of it; the tokens a message's updates may use."""

from __future__ import annotations

from jxbot.request_budget import ChannelTokens, RequestBudget, TokenRoute


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_offers_first_then_panels_then_table_messages() -> None:
    clock = Clock()
    b = RequestBudget(20.0, reserve=0.3, clock=clock)
    # table messages stop at 70 % of the second, panels at 95 %, offers take the rest
    tables = 0
    while b.try_take("table") == 0.0:
        tables += 1
    assert tables == 14
    panels = 0
    while b.try_take("panel") == 0.0:
        panels += 1
    assert panels == 5
    assert b.try_take("offer") == 0.0 and b.try_take("offer") > 0
    assert b.taken == {"offer": 1, "panel": 5, "table": 14}
    # never more than the rate in any one second: room comes back as the oldest requests leave the window
    clock.now += 0.5
    assert b.try_take("panel") > 0
    clock.now += 0.5
    assert b.try_take("panel") == 0.0


def test_a_process_takes_its_share_of_the_budget() -> None:
    clock = Clock()
    b = RequestBudget(45.0, clock=clock)
    b.set_processes(3)
    assert b.rate == 15.0
    n = sum(1 for _ in range(100) if b.try_take("offer") == 0.0)
    assert n == 15
    clock.now += 1.0
    b.set_processes(1)
    assert sum(1 for _ in range(100) if b.try_take("offer") == 0.0) == 45


def test_a_token_is_not_used_near_its_end() -> None:
    r = TokenRoute(object(), 1, at=0.0)
    assert r.usable(839.9, 900.0) and not r.usable(840.0, 900.0)  # a minute's margin of Discord's 15
    assert r.usable(2.6, 3.0) and not r.usable(2.7, 3.0)  # a tenth of a shorter life


class Answered:
    class response:
        type = 7

        @staticmethod
        def is_done() -> bool:
            return True


class Deferred:
    extras: dict = {}

    class response:
        type = 5

        @staticmethod
        def is_done() -> bool:
            return True


def test_a_channel_offers_its_freshest_answered_press_until_it_expires() -> None:
    clock = Clock()
    tokens = ChannelTokens(900.0, clock=clock)
    assert tokens.freshest(1) is None
    a = Answered()
    tokens.note(1, a)
    clock.now += 10
    d = Deferred()
    d.extras = {}
    tokens.note(1, d)  # a deferral's first follow-up would fill its "thinking…": not offered while handled
    route = tokens.freshest(1)
    assert route is not None and route.interaction is a and route.at == 100.0
    d.extras["handled"] = True  # its handler answered (that follow-up was its own)
    route = tokens.freshest(1)
    assert route is not None and route.interaction is d
    clock.now += 850
    assert tokens.freshest(1) is None  # too near its end: never used
