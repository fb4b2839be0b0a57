"""LOG_LEVEL=DEBUG is safe to turn on: a whole hand played by the real bot process at DEBUG leaves no
concealed tile, no stored event, no interaction token and not the bot token in its log. The control: the
separate, documented-as-unsafe JXBOT_UNSAFE_DISCORD_DEBUG=1 does show tokens (so the scan can see them)."""

from __future__ import annotations

import sqlite3

import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import (
    events_of,
    gather_players,
    hand_states,
    hidden_words,
    open_hand_ids,
    open_table,
    start_world,
    wait_match_over,
)

pytestmark = pytest.mark.e2e


def secrets_in(log: str, secrets: dict[str, str]) -> list[str]:
    return [name for name, s in secrets.items() if s and s in log]


async def test_a_hand_at_debug_logs_no_concealed_tile_and_no_token(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"], env={"LOG_LEVEL": "DEBUG", "JXBOT_TEST_SEED": "4"})
    await open_table(w, computers=3)
    ap = AutoPlayer(w.players[0], Style()).start()
    await wait_match_over(w)
    await gather_players([ap])
    log = w.bot.log()
    assert "LOG_LEVEL=DEBUG" in log and "DEBUG asyncio: Using selector" in log  # it really ran at DEBUG
    con = sqlite3.connect(w.db)
    (hand_id,) = con.execute("SELECT hand_id FROM hands").fetchone()
    raw_events = [r[0] for r in con.execute("SELECT event FROM hand_events WHERE hand_id = ? ORDER BY idx",
                                            (hand_id,))]
    con.close()
    assert raw_events and not await open_hand_ids(w.db)
    states = hand_states(await events_of(w.db, hand_id))
    secrets = {"bot token": double.token}
    secrets.update({f"token of interaction {i.id}": i.token for i in double.interactions.values()})
    secrets.update({f"event {k}": e for k, e in enumerate(raw_events)})
    secrets.update({f"concealed tiles {hw!r}": hw for hw in hidden_words(states)})
    assert len(double.interactions) >= 3 and len(secrets) > 50
    leaks = secrets_in(log, secrets)
    assert not leaks, leaks[:10]


async def test_the_unsafe_discord_debug_setting_is_what_shows_payloads(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"],
                          env={"LOG_LEVEL": "DEBUG", "JXBOT_UNSAFE_DISCORD_DEBUG": "1"})
    await open_table(w, computers=3)
    await w.players[0].wait_dm(lambda m: m.image() is not None, timeout=20)
    log = w.bot.log()
    assert "JXBOT_UNSAFE_DISCORD_DEBUG=1" in log  # the operator is warned
    tokens = {f"token of interaction {i.id}": i.token for i in double.interactions.values()}
    assert secrets_in(log, tokens), "discord.py's DEBUG payload logging did not reach the log"
