"""Table integrity under real clicking (issue 13), through the cogs with raw payloads: presses at once and in
two places, panels bound to people, stakes held while seated, global-scope money, safe names."""

import asyncio
import re

import discord
import pytest

from jxbot.config import Settings
from jxbot.table import FakeClock

from .conftest import CHANNEL, GUILD, Harness, UserRef, _shutdown, make_bot

ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104
OWNER = 999
MANAGE = discord.Permissions(manage_guild=True)


@pytest.fixture
async def game(harness):
    cog = harness.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = 7
    return harness


def lobby_of(fake, channel=CHANNEL):
    return next(m for m in fake.channel(channel) if m.buttons and m.buttons[0]["label"] in ("加入", "Join"))


async def together(*coros):
    """Presses that reach the bot at the same time (each is dispatched before any is answered)."""
    return await asyncio.gather(*coros)


def pinged(m) -> set[int]:
    """Whom a message pings, as Discord decides: the mentions in its content that allowed_mentions lets through."""
    am = m.allowed_mentions
    ids = {int(x) for x in re.findall(r"<@!?(\d+)>", m.content or "")}
    if am is None:
        return ids
    if "users" in (am.get("parse") or []):
        return ids
    return ids & {int(u) for u in am.get("users") or []}


# ------------------------------------------------------------------ 1. double Start


async def test_double_start_runs_one_match(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = lobby_of(fake)
    await together(h.click(ALICE, lobby, "开始"), h.click(ALICE, lobby, "开始"))
    table = h.table()
    runners = [t for t in asyncio.all_tasks() if t.get_name() == f"table:{table.id}"]
    assert len(runners) == 1, "two runners for one table"
    answers = [m.content for m in fake.ephemerals(ALICE)]
    assert sum("started" in (a or "").lower() and "already" not in (a or "") for a in answers) == 1
    assert any("already started" in (a or "") for a in answers)
    # one hand dealt, one DM panel, one table message
    assert len(await h.bot.store.open_hands()) == 1
    assert len(fake.dms(ALICE)) == 1
    assert len([m for m in fake.channel() if m.attachments == ["table.png"]]) == 1


# ------------------------------------------------------------------ 2. a hand in the wrong DM


@pytest.mark.parametrize("how", ["leave", "kick"])
async def test_a_seat_panel_never_reaches_the_player_who_sat_there_before(game, how):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = lobby_of(fake)
    await h.click(BOB, lobby, "加入")
    bob_dm = fake.dms(BOB)[0]  # his sit notice: it would have become seat 1's panel
    if how == "leave":
        await h.click(BOB, lobby, "离开")
    else:
        await h.command(ALICE, "mahjong kick", user=UserRef(BOB))
    table = h.table()
    assert 1 not in table.panels
    # Carol takes seat 1; her DM setup fails every time (a 5xx, not 50007)
    fake.dm_failures[CAROL] = 2
    await h.click(CAROL, lobby, "加入")
    assert table.seat_of(CAROL) == 1 and "South" in fake.last_ephemeral(CAROL)
    assert 1 not in table.panels  # a failed setup leaves no binding
    await h.click(ALICE, lobby, "开始")
    assert bob_dm.edits == 0 and bob_dm.attachments == [], "Bob's DM was edited with Carol's hand"
    assert all(not m.attachments for m in fake.dms(BOB))
    carol_panel = fake.dms(CAROL)[-1]
    assert carol_panel.attachments == ["hand.png"] and table.panel_users[1] == CAROL


async def test_a_panel_bound_to_someone_else_is_not_edited(game):
    """Before every edit the bot checks the panel is the occupant's: a binding left from a former occupant
    (e.g. a table saved before bindings were cleared) is dropped, and a fresh DM goes to the occupant."""
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = lobby_of(fake)
    await h.click(BOB, lobby, "加入")
    bob_dm = fake.dms(BOB)[0]
    table = h.table()
    await h.click(BOB, lobby, "离开")
    await h.click(CAROL, lobby, "加入")
    table.panels[1] = (bob_dm.channel_id, bob_dm.id)  # a stale binding to Bob's DM
    table.panel_users[1] = BOB
    await h.click(ALICE, lobby, "开始")
    assert bob_dm.edits == 0
    assert fake.dms(CAROL)[-1].attachments == ["hand.png"]


async def test_dm_setup_is_retried_after_one_failure(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    fake.dm_failures[CAROL] = 1
    await h.click(CAROL, lobby_of(fake), "加入")
    table = h.table()
    assert table.panel_users.get(1) == CAROL and len(fake.dms(CAROL)) == 1
    assert table.seats[1].dm_ok is True


async def test_dm_panel_that_cannot_be_sent_falls_back_to_show_my_hand(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = lobby_of(fake)
    await h.click(BOB, lobby, "加入")
    table = h.table()
    await h.click(BOB, lobby, "离开")
    fake.dm_failures[CAROL] = 2
    await h.click(CAROL, lobby, "加入")
    assert 1 not in table.panels
    fake.dm_failures[CAROL] = 2
    await h.click(ALICE, lobby, "开始")  # Carol's panel cannot be sent at the deal either
    await h.settle()
    assert table.seats[1].dm_ok is False
    told = [m for m in fake.channel() if f"<@{CAROL}>" in (m.content or "") and "看我的牌" in m.content]
    assert told and pinged(told[-1]) == {CAROL}
    tm = next(m for m in fake.channel() if m.attachments == ["table.png"])
    await h.click(CAROL, tm, "看我的牌")
    eph = fake.ephemerals(CAROL)[-1]
    assert eph.attachments == ["hand.png"]


# ------------------------------------------------------------------ 3. stakes held while seated


async def test_seated_player_cannot_pay_away_the_table_minimum(game):
    h, fake = game, game.fake
    store = h.bot.store
    await h.command(BOB, "balance")
    await h.command(ALICE, "mahjong create", stake=5)  # minimum 5 × 10 + fee 1 = 51
    assert store.held(GUILD, ALICE) == 51
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=1000)
    text = fake.last_ephemeral(ALICE)
    assert "51 silver is held" in text and "up to 949" in text
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=949)
    assert await store.balance(GUILD, ALICE) == 51
    # mid-hand too
    await h.click(ALICE, lobby_of(fake), "开始")
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=1)
    assert "up to 0" in fake.last_ephemeral(ALICE)
    assert await store.balance(GUILD, ALICE) == 51
    assert await store.check() == []


async def test_escaper_is_charged_from_held_silver(game):
    h, fake = game, game.fake
    store = h.bot.store
    await h.command(BOB, "balance")
    await h.command(ALICE, "mahjong create", stake=5)
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=949)
    await h.click(ALICE, lobby_of(fake), "开始")
    table = h.table()
    runner = table.session.runner
    await h.command(ALICE, "pay", user=UserRef(BOB), amount=51)
    assert "held" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "mahjong leave")  # an escape: the hand is auto-played, then settled
    assert runner.results, "the hand did not finish"
    pay = runner.results[0]["payments"][0]
    assert pay["delta"] < 0 and await store.balance(GUILD, ALICE) == 51 + pay["delta"]
    assert store.held(GUILD, ALICE) == 0  # released once the hand she left was settled
    assert await store.check() == []


async def test_player_below_the_minimum_is_stood_up_between_hands(game):
    h, fake = game, game.fake
    store = h.bot.store
    await h.command(ALICE, "mahjong create", stake=5)
    lobby = lobby_of(fake)
    await h.click(BOB, lobby, "加入")
    await h.click(ALICE, lobby, "开始")
    table = h.table()
    runner = table.session.runner
    runner.config.max_hands = 2
    runner.config.between_hands = 600.0
    await store.admin_set(GUILD, BOB, 10, reason="test")  # Bob is now short of the 51 minimum
    assert table.seat_of(BOB) == 1  # not mid-hand
    await runner.set_auto(0, True)
    await runner.set_auto(1, True)
    await h.settle()
    assert len(runner.results) == 1 and table.seat_of(BOB) == 1  # still seated between hands
    await runner.set_auto(0, False)
    runner.skip_pause()
    await h.settle()
    assert runner.hand_running and runner.hand.public_view()["hand_number"] == 2
    assert table.seat_of(BOB) is None and runner.seats[1].is_computer
    told = [m for m in fake.channel() if "below this table's minimum" in (m.content or "")
            or "最低要求" in (m.content or "")]
    assert told and f"<@{BOB}>" in told[-1].content
    assert store.held(GUILD, BOB) == 0 and h.bot.get_cog("TablesCog").manager.of_user(BOB) is None
    await h.command(BOB, "mahjong create", stake=1, channel_id=CHANNEL + 1)  # free to sit elsewhere
    assert "between" not in fake.last_ephemeral(BOB) and "another table" not in fake.last_ephemeral(BOB)


# ------------------------------------------------------------------ 4. one user at two tables


async def test_two_quick_joins_on_two_tables_seat_once(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    await h.command(CAROL, "mahjong create", stake=1, channel_id=CHANNEL + 1)
    a, b = lobby_of(fake), lobby_of(fake, CHANNEL + 1)
    await together(h.click(BOB, a, "加入"), h.click(BOB, b, "加入"))
    cog = h.bot.get_cog("TablesCog")
    seats = [t for t in cog.manager.tables.values() if t.seat_of(BOB) is not None]
    assert len(seats) == 1, "Bob sits at two tables"
    assert any("another table" in (m.content or "") for m in fake.ephemerals(BOB))
    assert h.bot.store.held(GUILD, BOB) == 11  # one hold, not two


async def test_two_quick_joins_on_one_table_seat_once(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = lobby_of(fake)
    await together(h.click(BOB, lobby, "加入"), h.click(BOB, lobby, "加入"))
    assert sum(o is not None and o.user_id == BOB for o in h.table().seats) == 1


# ------------------------------------------------------------------ 5. global silver scope


@pytest.fixture
async def global_harness(fake, monkeypatch, tmp_path):
    from jxbot.store import Store

    store = await Store.open(str(tmp_path / "g.sqlite3"), scope="global")
    settings = Settings.from_mapping({"JXBOT_EDIT_INTERVAL": "0", "JXBOT_NEXT_HAND_SECONDS": "0",
                                      "SILVER_SCOPE": "global", "JXBOT_OWNER_IDS": str(OWNER)})
    bot = await make_bot(fake, monkeypatch, store=store, settings=settings)
    yield Harness(bot, fake)
    await _shutdown(bot)
    await store.close()


async def test_global_scope_money_is_the_bot_owners(global_harness):
    h, fake = global_harness, global_harness.fake
    store = h.bot.store
    await h.command(BOB, "balance")
    await h.command(ALICE, "admin set", member_perms=MANAGE, user=UserRef(BOB), amount=10**9)
    assert "only the bot's owner" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "admin grant", member_perms=MANAGE, user=UserRef(BOB), amount=500)
    assert "only the bot's owner" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "admin settings", member_perms=MANAGE, daily_amount=10**9)
    assert "only the bot's owner" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "admin settings", member_perms=MANAGE, starting_grant=10**9)
    assert "only the bot's owner" in fake.last_ephemeral(ALICE)
    assert await store.balance(GUILD, BOB) == 1000
    gs = await store.get_guild_settings(GUILD)
    assert gs.daily_amount == 100 and gs.starting_grant == 1000
    # a server admin keeps the table options
    await h.command(ALICE, "admin settings", member_perms=MANAGE, fee=3)
    assert "fee = 3" in fake.last_ephemeral(ALICE)
    # the bot's owner (JXBOT_OWNER_IDS) may move silver
    await h.command(OWNER, "admin grant", member_perms=MANAGE, user=UserRef(BOB), amount=500)
    assert "now 1500" in fake.last_ephemeral(OWNER)
    await h.command(OWNER, "admin settings", member_perms=MANAGE, daily_amount=200)
    assert (await store.get_guild_settings(GUILD)).daily_amount == 200
    assert await store.check() == []


# ------------------------------------------------------------------ 6. owner-only Add computer


async def test_only_the_owner_adds_computers(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = lobby_of(fake)
    await h.click(BOB, lobby, "加入")
    await h.click(BOB, lobby, "加电脑")
    assert "owner" in fake.last_ephemeral(BOB)
    await h.command(BOB, "mahjong addbot")
    assert "owner" in fake.last_ephemeral(BOB)
    assert h.table().filled == 2
    await h.click(ALICE, lobby, "加电脑")
    assert h.table().filled == 3


# ------------------------------------------------------------------ 7. names that cannot ping


async def test_names_never_ping_and_markdown_is_escaped(game):
    h, fake = game, game.fake
    fake.users[ALICE] = {"id": str(ALICE), "username": "alice", "discriminator": "0", "avatar": None,
                         "global_name": f"<@{DAVE}> **big** @everyone"}
    await h.command(DAVE, "balance")
    await h.command(ALICE, "mahjong create", stake=1)
    table = h.table()
    await h.click(ALICE, lobby_of(fake), "开始")
    runner = table.session.runner
    runner.config.max_hands = 1
    await runner.set_auto(0, True)
    await h.settle()
    assert runner.results
    # the picture's seat name is the name as written; the messages show it escaped
    assert runner.seats[0].name == f"<@{DAVE}> **big** @everyone"
    res = next(m for m in fake.channel() if m.attachments == ["result.png"])
    assert f"<@{DAVE}>" not in res.content and "**big**" not in res.content and "\\*\\*big\\*\\*" in res.content
    over = next(m for m in fake.channel() if "牌局结束" in (m.content or ""))
    assert "@everyone" not in over.content.replace("@\u200beveryone", "")
    for m in fake.channel():
        assert m.allowed_mentions is not None, m.content
        assert not {"everyone", "roles"} & set(m.allowed_mentions.get("parse") or []), m.content
        assert DAVE not in pinged(m), m.content
    # the leaderboard lists players as mentions and pings none of them
    await h.command(CAROL, "leaderboard")
    board = fake.channel()[-1]
    assert f"<@{ALICE}>" in board.content and pinged(board) == set()


async def test_blank_name_falls_back_to_an_id_based_name(game):
    h, fake = game, game.fake
    fake.users[ALICE] = {"id": str(ALICE), "username": "\u3000", "discriminator": "0", "avatar": None,
                         "global_name": "\u3000\u3000\u200b"}
    await h.command(ALICE, "mahjong create", stake=1)
    assert "went wrong" not in fake.last_ephemeral(ALICE)
    assert (await h.bot.store.get_player(ALICE)).name == f"user-{str(ALICE)[-4:]}"
    await h.command(ALICE, "daily")
    assert "100" in fake.last_ephemeral(ALICE)


# ------------------------------------------------------------------ 8. the smaller points


async def test_stake_out_of_range_names_the_range_and_admin_defaults_stick(game):
    h, fake = game, game.fake
    # the admin sets the stake maximum to 100, which is also the store's built-in default
    await h.command(ALICE, "admin settings", member_perms=MANAGE, max_stake=100)
    await h.command(ALICE, "mahjong create", stake=900)  # JXBOT_MAX_STAKE is 1000: the admin's 100 wins
    text = fake.last_ephemeral(ALICE)
    assert "between 1 and 100" in text and "Not enough" not in text
    assert h.bot.get_cog("TablesCog").manager.tables == {}


async def test_stake_within_range_but_too_rich_says_how_much_is_needed(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=900)  # within 1–1000 (no admin setting)
    assert "needs 9001" in fake.last_ephemeral(ALICE)


async def test_score_caps_what_it_echoes(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong score", tiles="1m" * 1500)
    text = fake.last_ephemeral(ALICE)
    assert len(text) < 2000 and "too long" in text
    await h.command(ALICE, "mahjong score", tiles="<@104>zz")
    text = fake.last_ephemeral(ALICE)
    assert "<@104>" not in text and len(text) < 300


async def test_pay_does_not_register_the_recipient(game):
    h, fake = game, game.fake
    await h.command(ALICE, "pay", user=UserRef(DAVE), amount=5)
    assert "Unknown player" in fake.last_ephemeral(ALICE)
    assert await h.bot.store.get_player(DAVE) is None
    assert await h.bot.store.balance(GUILD, ALICE) == 1000


async def test_a_kick_or_leave_releases_the_seat_its_hold_and_its_buttons(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    lobby = lobby_of(fake)
    await h.click(BOB, lobby, "加入")
    table = h.table()
    store = h.bot.store
    assert store.held(GUILD, BOB) == 11
    n = table.nonces.get(1, 0)
    await h.command(ALICE, "mahjong kick", user=UserRef(BOB))
    assert store.held(GUILD, BOB) == 0 and table.nonces[1] > n
    assert h.bot.get_cog("TablesCog").manager.of_user(BOB) is None
    await h.command(ALICE, "mahjong leave")  # the last human: the table closes
    assert store.held(GUILD, ALICE) == 0 and h.bot.get_cog("TablesCog").manager.tables == {}


async def test_a_lobby_that_cannot_be_posted_opens_no_table(game):
    from .conftest import http_error

    h, fake = game, game.fake
    fake.fail_next["POST"] = [http_error(503, 0, "Service Unavailable")]
    await h.command(ALICE, "mahjong create", stake=1)
    assert "no table was opened" in fake.last_ephemeral(ALICE)
    assert h.bot.get_cog("TablesCog").manager.tables == {} and h.bot.store.held(GUILD, ALICE) == 0
    await h.command(ALICE, "mahjong create", stake=1)  # and the owner is free to try again
    assert lobby_of(fake) is not None


def test_owner_ids_setting():
    from jxbot.config import ConfigError

    assert Settings.from_mapping({"JXBOT_OWNER_IDS": "12, 34 56"}).owner_ids == (12, 34, 56)
    assert Settings.from_mapping({}).owner_ids == ()
    with pytest.raises(ConfigError, match="JXBOT_OWNER_IDS"):
        Settings.from_mapping({"JXBOT_OWNER_IDS": "12,abc"})
