"""``/mahjong leave`` typed in a process that does not run the person's table (``ClusterCog.forward_command``):
the forwarding side, driven with the bot test harness (a real ``JxBot`` and store, raw payloads) and a stand-in
for the pending-press queue (no PostgreSQL). The owner's side and the two processes: tests/e2e/test_ranked_global.py."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

import jxbot.interactions
from cogs.cluster import ClusterCog
from tests.bot.conftest import ALL_PERMS, CHANNEL, Harness
from tests.bot.test_play import ALICE, BOB, start_table

ELSEWHERE = "t-elsewhere"  # the running table another process runs, where Alice sits


class Queue:
    """The pending-press queue: every payload forwarded is kept; the owner takes it at once."""

    def __init__(self) -> None:
        self.forwarded: list[dict[str, Any]] = []

    async def forward(self, table_id: str, payload: dict[str, Any]) -> tuple[int, str]:
        self.forwarded.append(payload)
        return len(self.forwarded), "other-process"

    async def wait_taken(self, press_id: int) -> bool:
        return True


def clustered(h: Harness, monkeypatch, *, lookup_seconds: float = 0.0) -> Queue:
    """This process as one of several: its command payloads kept (jxbot/cluster/bot.py), the forwarder set, and
    the store saying Alice sits at a table it does not run (the look-up taking ``lookup_seconds``)."""
    bot = h.bot
    queue = Queue()
    cluster = ClusterCog(bot)
    cluster.coord = queue  # type: ignore[assignment]
    bot.command_forwarder = cluster.forward_command
    bot.raw_presses = {}  # type: ignore[attr-defined]
    parse = bot._connection.parse_interaction_create

    def keep(data: Any) -> None:
        bot.raw_presses[int(data["id"])] = data  # type: ignore[attr-defined]
        parse(data)

    monkeypatch.setattr(bot._connection, "parse_interaction_create", keep)

    async def running_table_of(user_id: int) -> str | None:
        await asyncio.sleep(lookup_seconds)
        return ELSEWHERE if user_id == ALICE else None

    monkeypatch.setattr(bot.store, "running_table_of", running_table_of)
    return queue


async def test_leave_is_forwarded_even_when_the_guard_acknowledged_it_first(game, monkeypatch):
    """The acknowledgement guard defers a command still unanswered after 2 s (a slow look-up, or a process just
    started holding commands at its readiness gate): the forwarder's own deferral then raised
    ``InteractionResponded``, and Alice read "Something went wrong" while her table played on without her."""
    h = game
    monkeypatch.setattr(jxbot.interactions, "ACK_AFTER", 0.01)
    queue = clustered(h, monkeypatch, lookup_seconds=0.2)  # the guard fires during the look-up
    iid = await h.command(ALICE, "mahjong leave")
    assert [p.get("jx_command") for p in queue.forwarded] == ["leave"], "the leave went to the table's owner"
    assert queue.forwarded[0]["jx_table"] == ELSEWHERE
    said = [m.content or "" for m in h.fake.ephemerals(ALICE)]
    assert not any("went wrong" in s for s in said), said
    assert 5 in h.fake.callback_types(str(iid)) or 5 in h.fake.callback_types(iid), "acknowledged: thinking…"


async def test_leave_is_forwarded_and_acknowledged_privately(game, monkeypatch):
    h = game
    queue = clustered(h, monkeypatch)
    iid = await h.command(ALICE, "mahjong leave")
    assert [p.get("jx_command") for p in queue.forwarded] == ["leave"]
    assert 5 in h.fake.callback_types(str(iid)) or 5 in h.fake.callback_types(iid)
    assert not [m for m in h.fake.ephemerals(ALICE) if m.content], "the owner answers it, not this process"


def test_only_the_payloads_another_process_may_need_are_kept():
    """A shard-0 process keeps the gateway payloads it may forward (a DM press, ``/mahjong leave``) until their
    handler runs; every other command's (its token, what was typed) is not held, nor crowds those out."""
    from jxbot.cluster.bot import RAW_KEPT, ShardedJxBot
    from jxbot.cluster.shards import ShardPlan
    from jxbot.config import Settings

    def command(name: str, sub: str | None = None, guild: bool = True, **opts: Any) -> dict[str, Any]:
        options = [{"name": k, "type": 3, "value": v} for k, v in opts.items()]
        data = {"id": "1", "name": name, "type": 1,
                "options": [{"name": sub, "type": 1, "options": options}] if sub else options}
        return {"id": str(next(ids)), "type": 2, "token": "secret", "data": data, **({"guild_id": "5"} if guild else {})}

    import itertools

    ids = itertools.count(1000)
    bot = ShardedJxBot(Settings.from_mapping({}), ShardPlan.of([0], 2))  # type: ignore[arg-type]
    parse = bot._connection.parsers["INTERACTION_CREATE"]

    def keep(data: dict[str, Any]) -> None:
        with contextlib.suppress(KeyError, TypeError, ValueError):  # parsed on: these payloads are sketches
            parse(data)
    leave = command("mahjong", "leave")
    press = {"id": str(next(ids)), "type": 3, "token": "x", "data": {"custom_id": "mj:discard.3:t1:0:1"}}
    keep(leave)
    keep(press)
    for _ in range(RAW_KEPT + 5):  # a busy server's other commands meanwhile
        keep(command("tournament", "create", title="my secret event"))
        keep(command("pay", amount="5"))
        keep({"id": str(next(ids)), "type": 3, "guild_id": "5", "token": "y", "data": {"custom_id": "mj:join:t2"}})
    assert set(bot.raw_presses) == {int(leave["id"]), int(press["id"])}


class Owner:
    """The owner's side of the queue: the payload forwarded to this process, taken once."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw: dict[str, Any] | None = raw

    async def take(self, press_id: int) -> dict[str, Any] | None:
        raw, self.raw = self.raw, None
        return raw


def forwarded_leave(h: Harness, user_id: int, table_id: str) -> dict[str, Any]:
    """``/mahjong leave`` as another process forwards it here (acknowledged there: "thinking…")."""
    p = h._base(user_id, locale="en-US", channel_id=CHANNEL + 7, guild=True, perms=ALL_PERMS)
    h.fake.ephemeral_of[p["token"]] = user_id
    p["type"] = 2
    p["data"] = {"id": "9", "name": "mahjong", "type": 1, "options": [{"name": "leave", "type": 1, "options": []}]}
    return {**p, "jx_command": "leave", "jx_table": table_id}


async def test_the_owner_runs_a_forwarded_leave_as_an_escape(game):
    h = game
    table = await start_table(h, BOB)
    cluster = ClusterCog(h.bot)
    cluster.coord = Owner(forwarded_leave(h, ALICE, table.id))  # type: ignore[assignment]
    await cluster._run_forwarded(1)
    await h.settle()
    assert table.seat_of(ALICE) is None and ALICE in table.escapers, "a computer plays her seat"
    assert "escape" in h.fake.last_ephemeral(ALICE), h.fake.last_ephemeral(ALICE)


async def test_a_forwarded_leave_that_fails_is_answered_and_logged(game, monkeypatch, caplog):
    """The owner's escape failing (a store or Discord error in it) left the presser's "thinking…" for ever, and
    the traceback was never logged (an unwatched task's exception): now the log has it and the presser is told,
    privately, that something went wrong."""
    h = game
    table = await start_table(h, BOB)
    tables = h.bot.get_cog("TablesCog")

    async def broken(interaction: Any, table: Any) -> None:
        raise RuntimeError("the store went away")

    monkeypatch.setattr(tables, "do_leave", broken)
    cluster = ClusterCog(h.bot)
    cluster.coord = Owner(forwarded_leave(h, ALICE, table.id))  # type: ignore[assignment]
    await cluster._run_forwarded(1)
    await h.settle()
    assert "went wrong" in h.fake.last_ephemeral(ALICE), h.fake.last_ephemeral(ALICE)
    assert any("RuntimeError" in (r.exc_text or "") or r.exc_info for r in caplog.records if r.levelname == "ERROR")


class NobodyHolds(Queue):
    """The table's lease is nobody's live one (its process is restarting): nothing is forwarded."""

    async def forward(self, table_id: str, payload: dict[str, Any]) -> None:  # type: ignore[override]
        return None


@pytest.mark.parametrize("locale, words", [("en-US", "/mahjong leave again"), ("zh-CN", "/麻将 离开")])
async def test_leave_for_a_restarting_table_says_to_type_it_again(game, monkeypatch, locale, words):
    """Not "press again": nothing was pressed. One private answer, in the presser's language."""
    h = game
    clustered(h, monkeypatch)
    h.bot.command_forwarder.__self__.coord = NobodyHolds()  # type: ignore[attr-defined, union-attr]
    await h.command(ALICE, "mahjong leave", locale=locale)
    said = [m.content for m in h.fake.ephemerals(ALICE) if m.content]
    assert len(said) == 1 and words in said[0], said


async def test_a_forwarded_leave_reaching_its_table_as_it_restarts_says_so(game):
    """The owner stopped running the table between the hand-over and the take (its lease lost: it resumes where a
    lease can be taken): Alice still sits at it, so "you are not at this table" was wrong — type it again."""
    h = game
    table = await start_table(h, BOB)
    cluster = ClusterCog(h.bot)
    cluster.drop(table, "its lease is held by another process")
    await h.settle()
    cluster.coord = Owner(forwarded_leave(h, ALICE, table.id))  # type: ignore[assignment]
    await cluster._run_forwarded(1)
    assert "/mahjong leave again" in h.fake.last_ephemeral(ALICE), h.fake.last_ephemeral(ALICE)
