"""``/tournament checkin`` and ``/tournament leave`` typed without an id in a server with several live events
(cogs/tournament.py ``_event``): the event the presser means (``meant_event``)."""

from __future__ import annotations

from typing import Any

from jxbot.events.service import meant_event

BO = 7
NOW = 1_000.0


def row(event_id: str, status: str, *, state: dict[str, Any] | None = None, opens: float | None = None) -> dict:
    return {"event_id": event_id, "status": status, "config": {"checkin_opens": opens}, "state": state or {}}


def reg(checked_in: bool) -> dict[str, Any]:
    return {"user_id": BO, "checked_in": checked_in}


def test_leave_means_the_open_event_not_the_running_one_bo_was_substituted_in():
    """Bo was substituted in the running cup (never checked in) and registered in the newer open one: his
    ``/tournament leave`` went to the running cup ("the event has already started") and he could not leave the
    open one without its id. Only an open event can be left."""
    live = [row("cup", "running", state={"absent": [BO]}), row("next", "open")]
    regs = {"cup": reg(False), "next": reg(True)}
    assert meant_event(live, regs, BO, "leave", NOW) == "next"
    # even once he came back to the cup (checked in there by his return: no, the return is in the state)
    live[0]["state"]["returned"] = {str(BO): 2}
    assert meant_event(live, regs, BO, "leave", NOW) == "next"


def test_checkin_means_the_running_event_that_substituted_bo():
    live = [row("cup", "running", state={"absent": [BO]}), row("next", "open")]
    assert meant_event(live, {"cup": reg(False), "next": reg(True)}, BO, "checkin", NOW) == "cup"
    # … even when the newer one is not checked in to yet, but its check-in has not opened: a check-in there
    # would only say "check-in opens at …", while the cup takes him back
    assert meant_event(live, {"cup": reg(False), "next": reg(False)}, BO, "checkin", NOW) == "cup"
    live[1]["config"]["checkin_opens"] = NOW + 600
    assert meant_event(live, {"cup": reg(False), "next": reg(False)}, BO, "checkin", NOW) == "cup"


def test_checkin_means_the_newest_event_it_does_something_in():
    live = [row("old", "open"), row("cup", "running"), row("next", "open")]
    # seated in person in the running cup, not checked in to either open one: the newest
    regs = {"old": reg(False), "cup": reg(True), "next": reg(False)}
    assert meant_event(live, regs, BO, "checkin", NOW) == "next"
    # the cup's tables wait for him (a late check-in opens them): the cup
    live[1]["state"] = {"waiting": [BO]}
    assert meant_event(live, {"cup": reg(False), "next": reg(True)}, BO, "checkin", NOW) == "cup"
    # checked in everywhere: the newest he is registered in (it answers "already checked in")
    live[1]["state"] = {}
    assert meant_event(live, {"old": reg(True), "cup": reg(True)}, BO, "checkin", NOW) == "cup"


def test_nothing_meant_where_bo_is_not_registered():
    live = [row("cup", "running"), row("next", "open")]
    assert meant_event(live, {}, BO, "checkin", NOW) is None
    assert meant_event(live, {"cup": reg(True)}, BO, "leave", NOW) is None  # no open event of his to leave
