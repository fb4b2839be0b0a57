"""JXBOT_TEST_SEED (tests only): every table gets its own deterministic stream. A second table in the same
process plays (it used to die with HandConflict: both tables dealt the same hand ids), the same seed gives
the same tables again, and a restarted process on the same database never reuses a stream."""

from __future__ import annotations

from jxbot.config import Settings
from jxbot.store import Store
from jxbot.table import FakeClock

from .conftest import CHANNEL, Harness, _shutdown, make_bot
from .test_play import ALICE, BOB

CHANNEL2 = CHANNEL + 1


async def _bot(fake, monkeypatch, store):
    settings = Settings.from_mapping({"JXBOT_EDIT_INTERVAL": "0", "JXBOT_NEXT_HAND_SECONDS": "0",
                                      "JXBOT_TEST_SEED": "7"})
    bot = await make_bot(fake, monkeypatch, store=store, settings=settings)
    cog = bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay = FakeClock(), 0.0
    return Harness(bot, fake), cog


async def _open(h, user, channel):
    await h.command(user, "mahjong create", stake=1, channel_id=channel)
    lobby = [m for m in h.fake.channel(channel) if m.buttons][-1]
    await h.click(user, lobby, "开始")
    table = h.bot.get_cog("TablesCog").manager.in_channel(channel)
    return table.session.runner


async def _two_tables(fake, monkeypatch, store):
    h, cog = await _bot(fake, monkeypatch, store)
    r1 = await _open(h, ALICE, CHANNEL)
    r2 = await _open(h, BOB, CHANNEL2)
    await h.advance(60)  # both tables play on (turn limits pass, computers move)
    await h.settle()
    out = [(r.config.seed, r.hand.view(0)["hand"] if r.hand else None, r.running, r._error) for r in (r1, r2)]
    return h, out


async def test_two_tables_in_one_process_each_get_their_own_deterministic_stream(fake, monkeypatch, tmp_path):
    s1 = await Store.open(str(tmp_path / "a.sqlite3"))
    h, first = await _two_tables(fake, monkeypatch, s1)
    (seed1, hand1, running1, err1), (seed2, hand2, running2, err2) = first
    assert err1 is None and err2 is None, (err1, err2)  # the second table no longer dies (HandConflict)
    assert running1 and running2
    assert (seed1, seed2) == (7, "7/table/1")
    hands = [r.hand_id for r in await s1.open_hands()]
    assert len(hands) == 2 and len(set(hands)) == 2
    await _shutdown(h.bot)

    # the same seed in a fresh process and database: the same two tables again
    s2 = await Store.open(str(tmp_path / "b.sqlite3"))
    h2, again = await _two_tables(fake, monkeypatch, s2)
    assert [(a[0], a[1]) for a in again] == [(seed1, hand1), (seed2, hand2)]
    await _shutdown(h2.bot)
    await s2.close()

    # a restarted process on the first database skips the streams it already dealt
    h3, cog3 = await _bot(fake, monkeypatch, s1)
    assert await cog3.table_seed() == "7/table/2"
    await _shutdown(h3.bot)
    await s1.close()
