"""Who sat at a hand's seats when its table was points-only (an event's, jxbot/shell/arranged.py PointsSink): the
seats hold no wallet, the result names the players — else a player was a stranger to his own hand (the review
refused him, the replay drew him as a computer, a global event's DM hand was "unknown" to him)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from jxbot.replay_store import hand_players, players_of
from jxbot.shell.dmtable import dm_hand_of, dm_key


class _Store:
    def __init__(self, result: dict | None) -> None:
        self.result = result
        self.reads = 0

    async def hand_result(self, hand_id: str) -> SimpleNamespace:
        self.reads += 1
        return SimpleNamespace(result=self.result)


def _rec(seats, status="settled", channel_id=5):
    return SimpleNamespace(hand_id="abcdefabcdef-1", seats=tuple(seats), status=status, channel_id=channel_id)


def test_a_points_only_hand_names_its_players_and_a_wallet_hand_keeps_its_seats():
    assert players_of((None,) * 4, {"players": [7, None, 9, None]}) == (7, None, 9, None)
    assert players_of((1, None, 3, None), {"players": [7, 8, 9, 10]}) == (1, 8, 3, 10)  # a wallet's owner first
    assert players_of((None,) * 4, {"players": [7, 8]}) == (None,) * 4  # malformed: nobody
    assert players_of((None,) * 4, None) == (None,) * 4
    store = _Store({"players": [7, None, 9, None]})
    assert asyncio.run(hand_players(store, _rec([1, 2, 3, 4]))) == (1, 2, 3, 4) and store.reads == 0
    assert asyncio.run(hand_players(store, _rec([None] * 4))) == (7, None, 9, None)
    assert asyncio.run(hand_players(store, _rec([None] * 4, status="running"))) == (None,) * 4


def test_a_points_only_dm_table_s_hand_is_its_players_and_nobody_else_s():
    store = _Store({"players": [7, None, 9, None]})
    dm = _rec([None] * 4, channel_id=dm_key("abcdefabcdef"))
    assert asyncio.run(dm_hand_of(store, dm, 7)) and asyncio.run(dm_hand_of(store, dm, 9))
    assert not asyncio.run(dm_hand_of(store, dm, 8))
    assert not asyncio.run(dm_hand_of(store, _rec([None] * 4, channel_id=10**17), 7))  # a server's hand
