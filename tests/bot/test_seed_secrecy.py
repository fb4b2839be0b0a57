"""Issue 24 finding 9: the deal's secret. A table opened without a test seed stores a seed of at least 128 bits
from ``secrets`` (256: 64 hex digits), its public hand ids say nothing of it, and the table resumes from it
after a restart with the same wall. An explicit test seed still deals (and ids) exactly as before."""

import re

from jxbot.game import Match
from jxbot.game.rng import derive_id, seed_bytes, verify_commitment
from jxbot.replay_store import hand_code, hand_from_code
from jxbot.table import FakeClock, SeatInfo, TableConfig, TableRunner

from .conftest import Harness, _shutdown, make_bot, restarted
from .test_play import start_table


def _entropy_bits(seed) -> int:
    """The bits a fresh seed can carry: 4 per hex digit of a hex string, else its bit length."""
    if isinstance(seed, str):
        assert re.fullmatch(r"[0-9a-f]+", seed), seed
        return 4 * len(seed)
    return int(seed).bit_length()


def _seats():
    return [SeatInfo("alice", user_id=1)] + [SeatInfo.computer(f"c{i}") for i in range(1, 4)]


def test_fresh_seed_has_256_bits_and_ids_of_their_own():
    runners = [TableRunner(_seats(), TableConfig()) for _ in range(3)]
    seeds = [r.config.seed for r in runners]
    assert all(_entropy_bits(s) >= 128 for s in seeds)
    assert len(set(seeds)) == 3
    for r in runners:
        hand = r.match.next_hand()
        mid = r.match.match_id
        assert hand.hand_id == f"{mid}-1"
        # the public id is not a function of the seed: not the id the seed would derive
        assert mid != derive_id(r.config.seed, "jxbot-match-id")
        assert mid != Match(r.config.seed).match_id
        assert derive_id(r.config.seed, "jxbot-hand-id") not in hand.hand_id
        # the ids keep the bot's form (buttons, /mahjong replay and verify), and the fair deal checks
        assert hand_from_code(hand_code(hand.hand_id)) == hand.hand_id
        assert verify_commitment(hand.wall, hand.salt, hand.commitment)


def test_explicit_seed_deals_and_names_as_before():
    a = TableRunner(_seats(), TableConfig(seed=7))
    b = TableRunner(_seats(), TableConfig(seed=7))
    assert a.config.seed == 7
    assert a.match.match_id == b.match.match_id == derive_id(7, "jxbot-match-id")
    ha, hb = a.match.next_hand(), b.match.next_hand()
    assert ha.wall == hb.wall and ha.salt == hb.salt and ha.hand_id == hb.hand_id
    assert ha.wall == Match(7).next_hand().wall
    assert seed_bytes(7) == b"7"


async def test_created_table_stores_a_strong_seed_and_resumes(fake, monkeypatch, store):
    bot1 = await make_bot(fake, monkeypatch, store=store)
    h1 = Harness(bot1, fake)
    cog1 = bot1.get_cog("TablesCog")
    cog1.clock, cog1.computer_delay = FakeClock(), 0.0
    assert cog1.seed is None  # production: no JXBOT_TEST_SEED
    table1 = await start_table(h1)
    runner1 = table1.session.runner
    hand_id, wall, commitment = runner1.hand.hand_id, tuple(runner1.hand.wall), runner1.hand.commitment
    await runner1.pause()
    await _shutdown(bot1)

    (rec,) = await store.running_tables()
    seed = rec.state["runner"]["config"]["seed"]
    assert _entropy_bits(seed) >= 128
    assert rec.state["runner"]["match"]["seed"] == seed
    # the public hand id carries none of the seed
    assert not hand_id.startswith(derive_id(seed, "jxbot-match-id"))
    assert derive_id(seed, "jxbot-hand-id") not in hand_id
    # the stored seed deals the running hand again (what resume and the fair deal rest on)
    again = Match.from_json(rec.state["runner"]["match"]).next_hand()
    assert tuple(again.wall) == wall and again.commitment == commitment and again.hand_id == hand_id

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    runner2 = h2.table().session.runner
    assert runner2.hand.hand_id == hand_id and tuple(runner2.hand.wall) == wall
    assert runner2.config.seed == seed
    await _shutdown(bot2)
