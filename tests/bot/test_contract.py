"""承包 through the bot (RULES A8): a scripted wall where Bob chows Alice's discard a third time; only Carol
and Dave (the two other seats) get 放弃 / 坚持 buttons, and Carol's give-up press is taken."""

from __future__ import annotations

import pytest

from jxbot.custom_ids import parse_custom_id
from jxbot.game import Match
from jxbot.game.actions import Action, ActionType
from jxbot.game.scripted import scripted_hand
from jxbot.rules.tiles import parse_tile
from jxbot.table import FakeClock

ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104

# the wall of tests/game/test_contract.py: seat 1 chows the dealer's 3m, 6m and 9m (holding 12m, 45m, 78m)
HANDS = {
    0: "1m23568s1234567z3m",
    1: "124578m5p123z147s",
    2: "1112345678999p",
    3: "369m1234z567z567z",
}
DRAWS = "6s4z6m5s6z9m3p"


@pytest.fixture
def scripted(monkeypatch):
    def next_hand(self):
        return scripted_hand(HANDS, indicator="9s", draws=DRAWS, context=self.next_context())

    monkeypatch.setattr(Match, "next_hand", next_hand)


async def do(h, runner, kind: str, seat: int, tile: str | None = None) -> None:
    err = await runner.submit(seat, Action(ActionType(kind), seat, parse_tile(tile) if tile else None))
    assert err is None, (kind, seat, tile, err)
    await h.settle()


async def pass_all(h, runner) -> None:
    while runner.hand.phase in ("claim", "rob"):
        for s in sorted(runner.hand.pending()):
            await do(h, runner, "pass", s)


async def discard_drawn(h, runner, seat: int) -> None:
    hand = runner.hand
    assert hand.phase == "turn" and hand.turn == seat
    a = hand.default_action(seat)
    assert (await runner.submit(seat, a)) is None
    await h.settle()
    await pass_all(h, runner)


def verbs(msg) -> set[str]:
    return {parse_custom_id(b["custom_id"]).verb for b in msg.buttons if b.get("custom_id", "").startswith("mj:")}


async def test_contract_buttons_go_to_the_two_other_seats_and_a_give_up_is_taken(harness, scripted):
    h, fake = harness, harness.fake
    cog = h.bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, 5
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = next(m for m in fake.channel() if m.buttons)
    for p in (BOB, CAROL, DAVE):
        await h.click(p, lobby, "加入")
    await h.click(ALICE, lobby, "开始")
    table = h.table()
    runner = table.session.runner
    assert [table.seat_of(u) for u in (ALICE, BOB, CAROL, DAVE)] == [0, 1, 2, 3]
    await do(h, runner, "discard", 0, "3m")
    await do(h, runner, "chi", 1, "1m")
    await do(h, runner, "discard", 1, "1z")
    await pass_all(h, runner)
    await discard_drawn(h, runner, 2)
    await discard_drawn(h, runner, 3)
    await do(h, runner, "discard", 0, "6m")
    await do(h, runner, "chi", 1, "4m")
    await do(h, runner, "discard", 1, "2z")
    await pass_all(h, runner)
    await discard_drawn(h, runner, 2)
    await discard_drawn(h, runner, 3)
    await do(h, runner, "discard", 0, "9m")
    await do(h, runner, "chi", 1, "7m")  # the third claim on Alice: Bob and Alice are bound
    hand = runner.hand
    assert hand.phase == "contract" and hand.contract == (1, 0)
    panels = {u: fake.dms(u)[-1] for u in (ALICE, BOB, CAROL, DAVE)}
    for u in (CAROL, DAVE):
        assert {"give_up", "persist"} <= verbs(panels[u]), u
    for u in (ALICE, BOB):
        assert not {"give_up", "persist"} & verbs(panels[u]), u
    # the contract is said in the channel's table message too
    assert any("承包" in (m.content or "") for m in fake.channel())
    give_up = next(b for b in panels[CAROL].buttons
                   if b.get("custom_id", "").startswith("mj:") and parse_custom_id(b["custom_id"]).verb == "give_up")
    await h.click(CAROL, panels[CAROL], custom_id=give_up["custom_id"])
    await h.settle()
    assert runner.hand.phase == "contract" and runner.hand.pending() == {3}  # Dave still decides
    assert runner.hand.public_view()["seats"][2]["gave_up"] is True
    assert not {"give_up", "persist"} & verbs(fake.dms(CAROL)[-1])  # Carol's buttons are gone
    await h.click(DAVE, panels[DAVE], custom_id=next(
        b["custom_id"] for b in panels[DAVE].buttons
        if b.get("custom_id", "").startswith("mj:") and parse_custom_id(b["custom_id"]).verb == "persist"))
    await h.settle()
    assert runner.hand.phase == "turn" and runner.hand.turn == 1
    assert [s["gave_up"] for s in runner.hand.public_view()["seats"]] == [False, False, True, False]
