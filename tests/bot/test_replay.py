"""Replays and the fair deal through Discord: the commitment in the channel at the deal, the Replay and Fair
deal buttons on the result, the ephemeral viewer (⏮ ◀ ▶ ⏭, seats, go to move N) showing what the event
log gives for each step, what a stranger may see, the admin setting, buttons after a restart, /mahjong
verify and /history."""

from __future__ import annotations

import hashlib
import re

import discord
import pytest

from jxbot.custom_ids import parse_custom_id
from jxbot.game import Hand
from jxbot.replay import Replay
from jxbot.table import FakeClock

from .conftest import GUILD, Harness, _shutdown, make_bot

ALICE, MALLORY = 101, 666
MANAGE = discord.Permissions(manage_guild=True)


@pytest.fixture
def drawn(harness, monkeypatch):
    """Every view the renderer is given, by kind (the pictures are drawn from these and nothing else;
    the in-process bots draw in threads, so the spy sees every picture)."""
    from jxbot import drawing

    seen: list[tuple[str, dict]] = []
    real = drawing.draw

    def spy(kind: str, view: dict, lang: str) -> tuple[bytes | None, float, str | None]:
        seen.append((kind, view))
        return real(kind, view, lang)

    monkeypatch.setattr(drawing, "draw", spy)
    return seen


async def played(h) -> tuple[str, list]:
    """Alice and three computers play one hand to its end; returns the hand id and the result message."""
    cog = h.bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, 7
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = next(m for m in h.fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    runner = h.table().session.runner
    hand = runner.hand
    # the commitment is in the channel at the deal, before the first discard
    assert not any(s["discards"] for s in hand.public_view()["seats"])
    table_msg = next(m for m in h.fake.channel() if m.attachments == ["table.png"])
    assert hand.commitment in table_msg.content
    runner.config.max_hands = 1
    await runner.set_auto(0, True)
    await h.settle()
    assert runner.results
    res = next(m for m in h.fake.channel() if m.attachments == ["result.png"])
    return hand.hand_id, res


def viewer(fake, user) -> object:
    return fake.ephemerals(user)[-1]


def viewers(fake, user) -> list:
    return [m for m in fake.ephemerals(user) if "**Replay**" in (m.content or "")]


def nav(msg, i: int) -> dict:
    return next(b for b in msg.buttons if b["custom_id"].startswith(f"mj:rp.{i}:"))


def seat_button(msg, s: int) -> dict:
    return next(b for b in msg.buttons if b["custom_id"].startswith(f"mj:rps.{s}:"))


def move_of(msg) -> tuple[int, int]:
    m = re.search(r"move (\d+)/(\d+)", msg.content)
    assert m, msg.content
    return int(m[1]), int(m[2])


async def expected(h, hand_id: str) -> Replay:
    """The steps as the stored event log gives them, folded here independently of the cog."""
    return Replay(await h.bot.store.hand_events(hand_id))


async def test_a_player_steps_through_the_hand_and_each_picture_is_the_logged_state(harness, drawn):
    h, fake = harness, harness.fake
    hand_id, res = await played(h)
    labels = [b.get("label") for b in res.buttons]
    assert "Replay" in labels or "回放" in labels
    await h.click(ALICE, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    v = viewer(fake, ALICE)
    assert v.attachments == ["table.png", "hand.png"]  # Alice sat at the table: her hand is shown
    assert move_of(v)[0] == 0 and hand_id in v.content
    rp = await expected(h, hand_id)
    last = len(rp) - 1
    assert move_of(v)[1] == last

    def check(k: int, seat: int) -> None:
        table_view = next(vw for kd, vw in reversed(drawn) if kd == "table")
        state = Hand.replay(rp.events[: rp.steps[k].last + 1])
        want = state.view(seat)
        assert table_view["viewer"] == seat
        assert [s["discards"] for s in table_view["seats"]] == [s["discards"] for s in want["seats"]]
        assert [s["melds"] for s in table_view["seats"]] == [s["melds"] for s in want["seats"]]
        assert table_view["wall_remaining"] == want["wall_remaining"]
        assert (table_view["hand"], table_view["drawn"]) == (want["hand"], want["drawn"])

    check(0, 0)
    await h.click(ALICE, v, custom_id=nav(v, 3)["custom_id"])  # ⏭
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == last and "result.png" in v.attachments
    assert nav(v, 2).get("disabled") and nav(v, 3).get("disabled")
    check(last, 0)
    await h.click(ALICE, v, custom_id=nav(v, 1)["custom_id"])  # ◀
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == last - 1
    check(last - 1, 0)
    n = len(drawn)
    await h.click(ALICE, v, custom_id=nav(v, 2)["custom_id"])  # ▶ to the end again: cached, nothing redrawn
    await h.click(ALICE, viewer(fake, ALICE), custom_id=nav(viewer(fake, ALICE), 1)["custom_id"])
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == last - 1 and len(drawn) == n and "hand.png" in v.attachments
    await h.click(ALICE, v, custom_id=seat_button(v, 2)["custom_id"])  # watch from seat 2, same move
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == last - 1 and v.attachments == ["table.png", "hand.png"]
    check(last - 1, 2)
    await h.click(ALICE, v, custom_id=nav(v, 0)["custom_id"])  # ⏮
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == 0 and nav(v, 0).get("disabled")
    await h.click(ALICE, v, custom_id=nav(v, 2)["custom_id"])  # ▶
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == 1
    check(1, 2)
    assert rp.caption(1, "en", seat=2, concealed=True).split(") ", 1)[1] in v.content  # "discards 9p"
    assert len(viewers(fake, ALICE)) == 1  # one viewer message, edited in place


async def test_a_stranger_sees_no_concealed_tile_and_the_setting_decides_after(harness, drawn):
    h, fake = harness, harness.fake
    hand_id, res = await played(h)
    drawn.clear()  # (Alice's own pictures of the live hand): from here on, what the replay draws
    await h.click(MALLORY, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    v = viewer(fake, MALLORY)
    assert v.attachments == ["table.png"] and "public tiles only" in v.content
    for step in (3, 0, 2, 3):
        await h.click(MALLORY, v, custom_id=nav(v, step)["custom_id"])
        v = viewer(fake, MALLORY)
        for s in range(4):
            await h.click(MALLORY, v, custom_id=seat_button(v, s)["custom_id"])
            v = viewer(fake, MALLORY)
            assert "hand.png" not in v.attachments
    tables = [vw for kd, vw in drawn if kd == "table"]
    assert tables and all("hand" not in vw and "drawn" not in vw for vw in tables)
    assert not [vw for kd, vw in drawn if kd == "hand"]
    rp = await expected(h, hand_id)
    for k in range(len(rp)):  # no caption names a drawn tile to a stranger
        e = rp.steps[k].event
        if e.type == "drew":
            assert rp.caption(k, "en") == rp.caption(k, "en", seat=e.seat)  # what the stranger is shown
    # the server's admins open the hands to everyone
    await h.command(ALICE, "admin replays", member_perms=MANAGE, who="everyone")
    assert "everyone in the server" in fake.last_ephemeral(ALICE)
    await h.click(MALLORY, v, custom_id=seat_button(v, 1)["custom_id"])
    assert viewer(fake, MALLORY).attachments[:2] == ["table.png", "hand.png"]
    # "own": a player sees only her own seat's tiles
    await h.command(ALICE, "admin replays", member_perms=MANAGE, who="own")
    await h.click(ALICE, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    v = viewer(fake, ALICE)
    assert v.attachments == ["table.png", "hand.png"]
    await h.click(ALICE, v, custom_id=seat_button(v, 1)["custom_id"])
    assert viewer(fake, ALICE).attachments == ["table.png"]
    # members without Manage Server cannot change it
    await h.command(MALLORY, "admin replays", who="everyone")
    assert "Manage Server" in fake.last_ephemeral(MALLORY)
    assert (await h.bot.store.get_guild_settings(GUILD)).replay_hands == "own"


async def test_go_to_move_and_bad_numbers(harness):
    h, fake = harness, harness.fake
    hand_id, res = await played(h)
    await h.command(ALICE, "mahjong replay", hand=hand_id, move=4, seat=1)
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == 4 and seat_button(v, 1)["style"] == discord.ButtonStyle.primary.value
    go = v.button(prefix="mj:rpgo:")
    iid = await h.click(ALICE, v, custom_id=go["custom_id"])
    assert fake.callback_types(iid) == [9]  # a modal
    modal_id = next(c for c in fake.callbacks if c["id"] == iid)["data"]["custom_id"]
    await submit(h, ALICE, v, modal_id, "7")
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == 7 and len(viewers(fake, ALICE)) == 1
    for bad in ("abc", "99999", "-1"):
        await submit(h, ALICE, v, modal_id, bad)
        assert "Give a move number from 0 to" in fake.last_ephemeral(ALICE)
    assert move_of(viewers(fake, ALICE)[-1])[0] == 7  # the viewer did not move


async def submit(h: Harness, user: int, msg, custom_id: str, value: str) -> str:
    """A modal submit, as the gateway delivers it (its custom id carries the viewer's place)."""
    p = h._base(user, locale="en-US", channel_id=msg.channel_id, guild=True, perms=discord.Permissions.all())
    h.fake.ephemeral_of[p["token"]] = user
    h.fake._message_of[p["token"]] = msg.id
    p["type"] = 5
    p["message"] = msg.payload()
    p["data"] = {"custom_id": custom_id,
                 "components": [{"type": 1, "components": [{"type": 4, "custom_id": "move", "value": value}]}]}
    return await h._dispatch(p)


async def test_running_unknown_and_foreign_hands_are_refused(harness):
    h, fake = harness, harness.fake
    cog = h.bot.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, 7
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = next(m for m in fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    running = h.table().session.runner.hand
    await h.command(ALICE, "mahjong replay", hand=running.hand_id)
    assert "still running" in fake.last_ephemeral(ALICE)
    await h.command(MALLORY, "mahjong verify", hand=running.hand_id)
    text = fake.last_ephemeral(MALLORY)
    assert "still running" in text and running.commitment in text and running.salt not in text
    await h.command(ALICE, "mahjong replay", hand="nope-1")
    assert "no hand `nope-1`" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "mahjong replay", hand="<@123> @everyone")
    assert fake.ephemerals(ALICE)[-1].content.count("@everyone") == 1  # echoed as text, never a ping


async def test_fair_deal_reveal_checks_out_with_hashlib_and_verify(harness):
    h, fake = harness, harness.fake
    hand_id, res = await played(h)
    table_msg = next(m for m in fake.channel() if m.attachments == ["table.png"])
    published = re.search(r"`([0-9a-f]{64})`", table_msg.content)[1]
    await h.click(MALLORY, res, custom_id=res.button(prefix="mj:fair:")["custom_id"])
    eph = fake.ephemerals(MALLORY)[-1]
    assert eph.content.count("✅") == 3 and published in eph.content
    assert eph.attachments and eph.attachments[0].startswith("fair-deal-")
    # an independent check of the documented format: sha256(136 wall bytes + salt)
    rec = await h.bot.store.get_hand(hand_id)
    salt = re.search(r"Salt: `([0-9a-f]+)`", eph.content)[1]
    assert salt == rec.reveal["salt"]
    assert hashlib.sha256(bytes(rec.reveal["wall"]) + salt.encode()).hexdigest() == published
    await h.command(ALICE, "mahjong verify", hand=hand_id)
    assert fake.last_ephemeral(ALICE).count("✅") == 3


async def test_viewer_buttons_work_after_a_restart_and_history_offers_replays(fake, monkeypatch, store):
    bot1 = await make_bot(fake, monkeypatch, store=store)
    h1 = Harness(bot1, fake)
    hand_id, res = await played(h1)
    await h1.click(ALICE, res, custom_id=res.button(prefix="mj:replay:")["custom_id"])
    v = viewer(fake, ALICE)
    await h1.click(ALICE, v, custom_id=nav(v, 2)["custom_id"])
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == 1
    await _shutdown(bot1)
    bot2 = await make_bot(fake, monkeypatch, store=store)  # a new process: nothing in memory
    h2 = Harness(bot2, fake)
    await h2.click(ALICE, v, custom_id=nav(v, 2)["custom_id"])
    v = viewer(fake, ALICE)
    assert move_of(v)[0] == 2 and v.attachments == ["table.png", "hand.png"]
    # /history: one Replay button per hand, opening the same viewer
    await h2.command(ALICE, "history")
    hist = fake.ephemerals(ALICE)[-1]
    assert hand_id in hist.content
    b = hist.button(prefix="mj:replay:")
    assert parse_custom_id(b["custom_id"]) is not None
    await h2.click(ALICE, hist, custom_id=b["custom_id"])
    assert move_of(viewer(fake, ALICE))[0] == 0
    await _shutdown(bot2)


def test_custom_ids_fit_discords_limits():
    from jxbot.replay_store import hand_code, hand_from_code

    for hid in ("0123456789ab-1", "0123456789ab-99", "abcdefabcdef-999999"):
        code = hand_code(hid)
        assert code is not None and len(code) <= 16 and hand_from_code(code) == hid
    assert hand_code("not-a-bot-hand") is None and hand_from_code("zz") is None


async def test_another_servers_hand_is_not_found_and_a_tampered_reveal_is_refused(harness):
    import json

    from tests.replay.helpers import played_hand, store_hand

    h, fake = harness, harness.fake
    other = played_hand(2, hand_id="abcdefabcdef-1")
    await store_hand(h.bot.store, other)  # a hand of another server (guild 5)
    await h.command(ALICE, "mahjong replay", hand=other.hand_id)
    assert "no hand `abcdefabcdef-1`" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "mahjong verify", hand=other.hand_id)
    assert "no hand" in fake.last_ephemeral(ALICE) and other.salt not in fake.last_ephemeral(ALICE)
    running = Hand.new(8, context=type(other.context)(hand_id="abcdefabcdef-2"))
    await h.bot.store.create_hand(running.hand_id, 5, 6, "jiaxing", [None] * 4, running.commitment)
    await h.command(ALICE, "mahjong replay", hand=running.hand_id)  # not even "still running"
    assert "no hand `abcdefabcdef-2`" in fake.last_ephemeral(ALICE)
    hand_id, _res = await played(h)
    rec = await h.bot.store.get_hand(hand_id)
    forged = dict(rec.reveal, salt="0" * len(rec.reveal["salt"]))
    async with h.bot.store._write() as db:  # someone edits the database
        await db.execute("UPDATE hands SET reveal = ? WHERE hand_id = ?", (json.dumps(forged), hand_id))
    await h.command(ALICE, "mahjong verify", hand=hand_id.replace("-", ""))  # the short form works too
    text = fake.last_ephemeral(ALICE)
    assert "❌ the commitment does not match" in text and "✅ the wall is a full 136-tile set" in text


def test_names_in_the_viewer_text_are_escaped():
    from tests.replay.helpers import played_hand

    h = played_hand(3)
    rp = Replay(h.events_json(), names=["**bold**", "`x`", "c", "d"])
    text = rp.caption(1, "en", escape=discord.utils.escape_markdown) + rp.who(1, "en", discord.utils.escape_markdown)
    assert "\\*\\*bold\\*\\*" in text or "\\`x\\`" in text
