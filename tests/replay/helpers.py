"""A played hand (four computer players) and a store holding it, as the bot would have written it."""

from __future__ import annotations

from typing import Any

from jxbot.ai.players import make_player
from jxbot.ai.selfplay import play_hand
from jxbot.game import Hand, HandContext

GUILD, CHANNEL = 5, 6
NAMES = ["Alice", "Bob", "Carol", "Dan"]


def played_hand(seed: int = 3, *, hand_id: str = "0123456789ab-1") -> Hand:
    h = Hand.new(seed, context=HandContext(hand_id=hand_id))
    play_hand(h, [make_player("normal", seed * 10 + i) for i in range(4)])
    h.settle([1000] * 4, 1)
    return h


async def store_hand(store: Any, hand: Hand, seats: list[int | None] | None = None, *,
                     events: list[dict] | None = None) -> None:
    """Create, log and settle ``hand`` in ``store`` like the bot's StoreSink (seats: user ids, None = computer)."""
    seats = seats if seats is not None else [None] * 4
    for uid, name in zip(seats, NAMES, strict=True):
        if uid is not None:
            await store.ensure_player(uid, name)
            await store.grant_starting(GUILD, uid)
    await store.create_hand(hand.hand_id, GUILD, CHANNEL, hand.ruleset.name, seats, hand.commitment)
    for i, e in enumerate(events if events is not None else hand.events_json()):
        await store.append_event(hand.hand_id, i, e)
    result = hand.result_view()
    for p in result["payments"]:
        p["name"] = NAMES[p["seat"]]
    assert hand.settlement is not None
    await store.settle_hand(hand.hand_id, GUILD, seats, hand.settlement, result)
