"""End to end: an event used the way people use it, wrongly (issue 32; docs/tournaments.md, "Pressed at the
wrong time"). An English server, an admin and eight players on English clients:

* a name of only spaces is refused (the announcement read "🏆 ****"); an event in a channel where the bot cannot
  create threads is refused with the permissions named (before: "Event created." and its tables could not open);
* the announcement reads "rounds: 1 · hands a table: 1" (it read "1 rounds · 1 hands a table"), and a name made
  of ``@everyone``, a user mention and markdown pings nobody and is shown as written;
* the thread permission taken away after the create: round 1's second table, which cannot open in the channel
  (its first table is there), is played in its players' DMs and the channel says so (before: it never opened
  and the round never ended);
* Register pressed twice at once registers once; once the event starts the announcement says registration is
  closed and loses its button (a stale copy's press is answered);
* a second ``/tournament start``, a check-in by a seated player and by someone never registered, each told what
  is the matter; a member without Manage Server cannot cancel;
* the admin cancels during round 1: the channel is told and the tables stop (before: nothing was said and the
  tables played on for an event that no longer counted them); Register and check-in afterwards say so.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from tests.e2e.double import state as st
from tests.e2e.players import Player
from tests.e2e.scenario import BOT_ARGV, fast_env, said
from tests.e2e.test_tournament import MANAGE_GUILD
from tests.e2e.test_tournament_timing import move_times

pytestmark = pytest.mark.e2e
NAMES = ["ann", "bo", "cy", "di", "ed", "fu", "gil", "hal"]


async def test_an_event_pressed_at_the_wrong_times(double, start_bot, tmp_path):
    g = double.add_guild("english server", locale="en-US")
    ch = double.add_text_channel(g, "mahjong")
    admin = Player.join(double, "admin", g, ch, locale="en-US")
    role = st.Role(st.snowflake(), "admins", MANAGE_GUILD, 2)
    g.roles[role.id] = role
    g.members[admin.id].roles.append(role.id)
    players = [Player.join(double, n, g, ch, locale="en-US") for n in NAMES]
    stranger = Player.join(double, "zed", g, ch, locale="en-US")
    bot = await start_bot(BOT_ARGV, env=fast_env(tmp_path / "jxbot.sqlite3", JXBOT_EVENT_TICK="600"))
    await double.wait_commands(timeout=40)
    await bot.wait_log("ready: every table resumed", timeout=40)

    def posts() -> list:
        return [m for m in ch.messages if m.author.id == double.bot.id and not m.ephemeral]

    assert "needs a name" in await said(await admin.slash("tournament create", name="   "))
    double.deny_permissions(ch, st.CREATE_PUBLIC_THREADS)
    refused = await said(await admin.slash("tournament create", name="cup"))
    assert "missing permissions" in refused and "Create Public Threads" in refused, refused
    assert not [m for m in posts() if "🏆" in m.content]  # no event announced
    assert "Manage Server" in await said(await stranger.slash("tournament create", name="cup"))
    double.restore_permissions(ch)

    name = f"@everyone <@{players[0].id}> **big**"
    assert "Event created" in await said(await admin.slash("tournament create", name=name, rounds=1))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    assert "rounds: 1 · hands a table: 1" in ann.content and "1 rounds" not in ann.content, ann.content
    assert ann.pinged_users() == set() and (ann.allowed_mentions or {}).get("parse") == [], ann.allowed_mentions
    assert "@everyone" not in ann.content.replace("@\u200beveryone", "") and "\\*\\*big\\*\\*" in ann.content
    event_id = re.search(r"id `([0-9a-f]+)`", ann.content).group(1)
    for p in players[:7]:
        assert "You are registered" in await said(await p.click(ann, label="Register"))
    a, b = await players[7].double_click(ann, label="Register")  # twice, as fast as a thumb on a phone
    got = sorted([await said(a), await said(b)])
    assert "already registered" in got[0] and "You are registered" in got[1], got
    await double.wait_for(lambda: "8 registered" in ann.content or None, 10, "the announcement's count")
    register_id = ann.buttons()[0]["custom_id"]

    double.deny_permissions(ch, st.CREATE_PUBLIC_THREADS)  # taken away after the create
    assert "has started" in await said(await admin.slash("tournament start"), timeout=15)
    again = await said(await admin.slash("tournament start", event=event_id), timeout=15)
    assert "already started" in again, again
    # the announcement says registration is over, without its button; a stale copy's press is answered
    await double.wait_for(lambda: "Registration is closed" in ann.content or None, 10, "the announcement closed")
    assert ann.buttons() == []
    assert "already started" in await said(await players[0].click_stale(ann, register_id))
    assert "already started" in await said(await players[0].slash("tournament leave"))
    notice = await admin.wait_message(lambda m: "Round 1, table 2 cannot open here" in m.content, ch, timeout=20)
    assert "played in its players' DMs" in notice.content
    await bot.wait_log(f"event {event_id}: round 1 table 1 is table", timeout=20)
    assert "(in DMs)" in bot.log().split(f"event {event_id}: round 1 table 1 is table", 1)[1].splitlines()[0]
    in_dms = [p for p in players if any("Table opened" in m.content for m in p.dm_messages())]
    assert len(in_dms) == 4, [(p.name, [m.content[:80] for m in p.dm_messages()]) for p in in_dms]  # table 2's four players have their table by DM

    assert "playing" in await said(await players[0].slash("tournament checkin"))
    assert "not registered" in await said(await stranger.slash("tournament checkin", event=event_id))
    assert "Manage Server" in await said(await stranger.slash("tournament cancel"))

    assert "is cancelled" in await said(await admin.slash("tournament cancel"), timeout=15)
    told = await admin.wait_message(lambda m: "🚫" in m.content, ch, timeout=10)
    assert "was cancelled" in told.content and told.pinged_users() == set()
    await bot.wait_log("stopped by admin", timeout=15)
    assert bot.log().count("stopped by admin") == 2  # both tables, the channel's and the DMs'
    await double.wait_for(lambda: "The event was cancelled" in ann.content or None, 10, "the announcement cancelled")
    assert "was cancelled" in await said(await players[1].click_stale(ann, register_id))
    assert "was cancelled" in await said(await players[1].slash("tournament checkin"))
    assert "was cancelled" in await said(await admin.slash("tournament cancel", event=event_id))
    assert "Traceback" not in bot.log(), bot.tail()


async def test_a_player_registering_for_an_event_with_check_in_is_told_to_check_in(double, start_bot, tmp_path):
    """Registering is not checking in when the event has a check-in: "You are registered." alone left a new
    player believing they were done, and at the start a computer played their seat. The reply and (an event
    started by hand, where no reminder comes) the announcement say to check in, and when. A scheduled event
    whose time comes with nobody checked in is cancelled, and the channel told once."""
    g = double.add_guild("english server", locale="en-US")
    ch = double.add_text_channel(g, "mahjong")
    admin = Player.join(double, "admin", g, ch, locale="en-US")
    role = st.Role(st.snowflake(), "admins", MANAGE_GUILD, 2)
    g.roles[role.id] = role
    g.members[admin.id].roles.append(role.id)
    ann, bo = Player.join(double, "ann", g, ch, locale="en-US"), Player.join(double, "bo", g, ch, locale="zh-CN")
    bot = await start_bot(BOT_ARGV, env=fast_env(tmp_path / "jxbot.sqlite3", JXBOT_EVENT_TICK="1"))
    await double.wait_commands(timeout=40)
    await bot.wait_log("ready: every table resumed", timeout=40)

    await said(await admin.slash("tournament create", name="by hand", checkin=30))
    by_hand = await admin.wait_message(lambda m: "by hand" in m.content, ch)
    assert "check in too: `/tournament checkin` (open now)" in by_hand.content, by_hand.content
    told = await said(await ann.click(by_hand, label="Register"))
    assert "You are registered" in told and "/tournament checkin" in told and "open now" in told, told
    told = await said(await bo.click(by_hand, label="Register"))
    assert "报名成功" in told and "/比赛 签到" in told and "现在就可以签到" in told, told
    assert "Checked in" in await said(await ann.slash("tournament checkin"))

    await said(await admin.slash("tournament create", name="scheduled", checkin=30, start_in=120, format="duplicate"))
    scheduled = await admin.wait_message(lambda m: "scheduled" in m.content, ch)
    told = await said(await ann.click(scheduled, label="Register"))
    assert "/tournament checkin" in told and "it opens <t:" in told, told
    plain = await said(await admin.slash("tournament create", name="plain"))  # no check-in: registering is enough
    assert "Event created" in plain
    plain_ann = await admin.wait_message(lambda m: "plain" in m.content and "🏆" in m.content, ch)
    assert "checkin" not in plain_ann.content
    assert await said(await ann.click(plain_ann, label="Register")) == "You are registered."

    # the scheduled event's time comes (moved in the store) and ann never checked in: nobody to play, so it is
    # cancelled and the channel told, once (before: the start was retried every tick, the event left open, silent)
    move_times(tmp_path / "jxbot.sqlite3", re.search(r"id `([0-9a-f]+)`", scheduled.content).group(1),
               start_at=time.time() - 1)
    gone = await admin.wait_message(lambda m: "did not start" in m.content, ch, timeout=15)
    assert "**scheduled**" in gone.content and "cancelled" in gone.content
    await double.wait_for(lambda: "The event was cancelled" in scheduled.content or None, 10, "its announcement")
    assert scheduled.buttons() == []
    await asyncio.sleep(2.5)  # two more ticks: said once
    assert len([m for m in ch.messages if "did not start" in m.content]) == 1
    # a duplicate event plays in DMs: its registered players are told there too, once
    assert len([m for m in ann.dm_messages() if "did not start" in m.content and "**scheduled**" in m.content]) == 1
