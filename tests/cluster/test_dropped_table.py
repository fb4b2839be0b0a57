"""A table this process stopped running (its lease or its database session lost: ``ClusterCog.drop`` /
``_session_lost``) while the store still holds it as running stays present for every check that guards a
channel, a seat or silver, until it is resumed here or provably run by another process (docs/bot.md,
"Running N processes": "A table dropped here"). Driven with the bot test harness (a real ``JxBot`` and
store, raw payloads); the cluster cog's lease side is what these scenarios need of it, no PostgreSQL."""

from __future__ import annotations

from cogs.cluster import ClusterCog
from tests.bot.conftest import CHANNEL, GUILD, Harness, UserRef
from tests.bot.test_play import ALICE, BOB, MALLORY, start_table

OTHER_CHANNEL = CHANNEL + 1


class OtherOwner:
    """The lease side of ``coord``: another live process holds every lease (or none, ``owner=None``)."""

    def __init__(self, owner: str | None) -> None:
        self.owner = owner

    async def acquire(self, table_id: str, guild_id: int) -> bool:
        return self.owner is None


async def dropped_table(h: Harness):
    """Alice and Bob at a running table; then this process loses its database session (the LISTEN
    connection ended): every table stops here."""
    table = await start_table(h, BOB)
    store = h.bot.store
    held = {u: store.held(GUILD, u) for u in (ALICE, BOB)}
    assert all(held.values()), held
    cluster = ClusterCog(h.bot)
    cluster._session_lost()
    await h.settle()
    assert h.bot.get_cog("TablesCog").manager.get(table.id) is None, "not run here any more"
    return table, cluster, held


async def refused_while_away(h: Harness, table, held: dict[int, int]) -> None:
    fake, store = h.fake, h.bot.store
    manager = h.bot.get_cog("TablesCog").manager
    balance = await store.balance(GUILD, ALICE)
    # /pay of the held silver: refused, nothing moves
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=balance)
    assert await store.balance(GUILD, ALICE) == balance, "the held silver was paid away"
    assert "held" in fake.last_ephemeral(ALICE), fake.last_ephemeral(ALICE)
    assert {u: store.held(GUILD, u) for u in held} == held, "the holds stay while the store runs the table"
    # /mahjong create in the table's own channel (by anyone): refused, the channel is the running table's
    await h.command(MALLORY, "mahjong create", stake=1)
    assert "restarting" in fake.last_ephemeral(MALLORY), fake.last_ephemeral(MALLORY)
    # /mahjong create elsewhere by one of its players: refused, they sit at the table
    await h.command(BOB, "mahjong create", stake=1, channel_id=OTHER_CHANNEL)
    assert "restarting" in fake.last_ephemeral(BOB) and f"<#{CHANNEL}>" in fake.last_ephemeral(BOB)
    await h.command(BOB, "mahjong leave")
    assert "restarting" in fake.last_ephemeral(BOB)
    assert not manager.tables, "no table was opened"
    assert manager.in_channel(CHANNEL) is None and manager.in_channel(OTHER_CHANNEL) is None


async def test_a_dropped_table_keeps_its_channel_seats_and_holds_until_it_resumes_here(game):
    h = game
    table, cluster, held = await dropped_table(h)
    hand_id = table.session.runner.hand.context.hand_id
    await refused_while_away(h, table, held)

    # the next beat: no other process holds its lease, so it resumes here, from its events, the same hand
    await cluster.resume_waiting()
    await h.settle()
    manager = h.bot.get_cog("TablesCog").manager
    back = manager.get(table.id)
    assert back is not None and back is not table and back.session is not None, "resumed here"
    assert not manager.away and not cluster.waiting
    assert back.session.runner.hand.context.hand_id == hand_id
    assert await h.bot.store.open_hands(), "the hand is still open: it goes on, nobody escaped it"
    store = h.bot.store
    assert {u: store.held(GUILD, u) for u in held} == held, "held once again, not twice"
    assert manager.of_user(ALICE) is back and manager.of_user(BOB) is back
    # and the checks answer as for any running table
    await h.command(MALLORY, "mahjong create", stake=1)
    assert "already has a table" in h.fake.last_ephemeral(MALLORY)
    balance = await store.balance(GUILD, ALICE)
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=balance)
    assert await store.balance(GUILD, ALICE) == balance


async def test_a_dropped_table_another_process_runs_stays_present_here_until_it_resumes_here(game):
    h = game
    table, cluster, held = await dropped_table(h)
    cluster.coord = OtherOwner("other-process")  # type: ignore[assignment]
    h.bot.table_claimer = cluster.claim
    await cluster.resume_waiting()  # its lease is another live process's: not resumed here
    manager = h.bot.get_cog("TablesCog").manager
    assert table.id in cluster.waiting and manager.get(table.id) is None
    # the guild's commands still reach this process: what the table holds stays held here
    await refused_while_away(h, table, held)
    # once that process stops, its lease lapses and the table resumes here, held once
    cluster.coord.owner = None  # type: ignore[attr-defined]
    await cluster.resume_waiting()
    await h.settle()
    assert manager.get(table.id) is not None and not cluster.waiting and not manager.away
    assert {u: h.bot.store.held(GUILD, u) for u in held} == held


async def test_a_dropped_table_closed_in_the_store_is_released_here(game):
    h = game
    table, cluster, held = await dropped_table(h)
    await refused_while_away(h, table, held)
    await h.bot.store.close_table(table.id)  # its holder ended it
    await cluster.resume_waiting()
    manager = h.bot.get_cog("TablesCog").manager
    assert not manager.away and not manager.tables and not manager.seated and not cluster.waiting
    assert {u: h.bot.store.held(GUILD, u) for u in held} == {ALICE: 0, BOB: 0}
    await h.command(MALLORY, "mahjong create", stake=1)
    assert manager.in_channel(CHANNEL) is not None, "the channel is free again"
