"""End to end: an event abused the way admins and players abuse one (docs/tournaments.md, "Pressed at the wrong
time"), against the real bot and the double; what test_tournament_misuse.py does not already press:

* an admin stops an event's table with ``/admin close`` before any hand of it finished: nobody played, so nobody
  is placed above anyone (before: placements 1-2-3-4 in seat order, so 东 was ranked first on the tie-breaks);
* an admin cancels an event while its start is still opening the tables (a slow Discord): no table is left
  playing for the cancelled event (before: the tables opened after the cancel played on); ``/mahjong verify``
  of the cancelled event says it was cancelled, and another server does not see a server's own event there;
* the only person at an event table leaves it (``/mahjong leave``) in its first hand: a computer finishes every
  hand of the table for him (before: "nobody left to play for", the table stopped after that hand, so a player
  ahead could lock his lead in by leaving, and a duplicate table left its later walls unplayed).
"""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.e2e.double import state as st
from tests.e2e.players import Player
from tests.e2e.scenario import BOT_ARGV, fast_env, said
from tests.e2e.test_tournament import MANAGE_GUILD

pytestmark = pytest.mark.e2e


async def _world(double, start_bot, tmp_path, names: list[str], **env: str):
    g = double.add_guild("english server", locale="en-US")
    ch = double.add_text_channel(g, "mahjong")
    admin = Player.join(double, "admin", g, ch, locale="en-US")
    role = st.Role(st.snowflake(), "admins", MANAGE_GUILD, 2)
    g.roles[role.id] = role
    g.members[admin.id].roles.append(role.id)
    players = [Player.join(double, n, g, ch, locale="en-US") for n in names]
    bot = await start_bot(BOT_ARGV, env=fast_env(tmp_path / "jxbot.sqlite3", JXBOT_EVENT_TICK="600", **env))
    await double.wait_commands(timeout=40)
    await bot.wait_log("ready: every table resumed", timeout=40)
    return g, ch, admin, players, bot


async def test_a_table_closed_by_an_admin_before_any_hand_ended_places_nobody_above_anyone(
        double, start_bot, tmp_path):
    g, ch, admin, players, bot = await _world(double, start_bot, tmp_path, ["ann", "bo", "cy", "di"])
    assert "Event created" in await said(await admin.slash("tournament create", name="cup", rounds=1))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    event_id = re.search(r"id `([0-9a-f]+)`", ann.content).group(1)
    for p in players:
        assert "You are registered" in await said(await p.click(ann, label="Register"))
    assert "has started" in await said(await admin.slash("tournament start"), timeout=15)
    await bot.wait_log(f"event {event_id}: round 1 table 0 is table", timeout=20)
    table_id = re.search(rf"event {event_id}: round 1 table 0 is table (\w+)", bot.log()).group(1)
    await double.wait_for(lambda: all(p.dm_panel() is not None for p in players) or None, 30, "every panel")
    # nobody moves: the first hand is still in play when the admin stops the table
    done = await said(await admin.slash("admin close", table=table_id), timeout=15)
    assert "void" in done.lower(), done
    final = await admin.wait_message(lambda m: m.content.startswith("**cup**") and "1." in m.content, ch, timeout=20)
    lines = [x for x in final.content.splitlines()[1:] if x.strip()]
    assert len(lines) == 4, final.content
    # every player shares the one rank and has no placement for the table nobody played
    assert all(re.match(r"^1\. \S+ \+0 · -$", x) for x in lines), final.content
    shown = await said(await players[3].slash("tournament standings", event=event_id), timeout=15)
    assert "1. di +0 · -" in shown, shown
    assert "Traceback" not in bot.log(), bot.tail()


async def _event_of_eight(double, start_bot, tmp_path, **env: str):
    g, ch, admin, players, bot = await _world(double, start_bot, tmp_path,
                                              ["ann", "bo", "cy", "di", "ed", "fu", "gil", "hal"], **env)
    assert "Event created" in await said(await admin.slash("tournament create", name="cup", rounds=2))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    event_id = re.search(r"id `([0-9a-f]+)`", ann.content).group(1)
    for p in players:
        assert "You are registered" in await said(await p.click(ann, label="Register"))
    return g, ch, admin, players, bot, ann, event_id


async def test_a_cancel_while_the_start_is_still_opening_tables_leaves_no_table_playing(
        double, start_bot, tmp_path):
    """The admin starts an event of two tables and cancels it at once, while the second table's thread is still
    being made (Discord is slow): the cancel stopped the tables open at that moment, and the start went on to open
    the second table for an event that no longer existed — four players seated at a table that counts for
    nothing, their seats held, the table playing on."""
    g, ch, admin, players, bot, ann, event_id = await _event_of_eight(double, start_bot, tmp_path)
    slow = double.slow("POST /channels/{channel_id}/threads", 2.0)
    start = await admin.slash("tournament start")
    await bot.wait_log(f"event {event_id}: round 1 table 0 is table", timeout=30)
    assert "is cancelled" in await said(await admin.slash("tournament cancel"), timeout=15)
    await said(start, timeout=20)
    slow.stop()
    await asyncio.sleep(4.0)  # the second table's thread came, whatever the start did with it
    left = await said(await admin.slash("admin tables"), timeout=10)
    assert "no tables" in left, left
    busy = await said(await players[7].slash("mahjong create"), timeout=10)
    assert "seated" not in busy.lower() and "already" not in busy.lower(), busy
    # /mahjong verify <event id> of the cancelled event says so (it read "is not over … revealed at the end",
    # of an event that will never end); from another server, a server's own event is no event at all
    told = await said(await players[0].slash("mahjong verify", hand=event_id), timeout=10)
    assert "cancelled" in told and "is not over" not in told, told
    g2 = double.add_guild("elsewhere", locale="en-US")
    outsider = Player.join(double, "out", g2, double.add_text_channel(g2, "general"), locale="en-US")
    told = await said(await outsider.slash("mahjong verify", hand=event_id), timeout=10)
    assert event_id not in told.replace(f"`{event_id}`", "") and "commitment" not in told.lower(), told
    assert "Traceback" not in bot.log(), bot.tail()


async def test_registering_and_withdrawing_in_a_burst_edits_the_announcement_paced_and_it_ends_right(
        double, start_bot, tmp_path):
    """Eight people press Register in the same second, and one of them then toggles ``join``/``leave`` as fast
    as Discord lets him: every success edited the announcement at once, one PATCH per press against the
    channel's 5-per-5-seconds limit (a spammer alone kept the event's channel behind a queue of edits), and two
    edits racing could leave the count of an earlier one on it. The count is the store's at the end, and the
    edits are paced (at most one a second)."""
    g, ch, admin, players, bot = await _world(double, start_bot, tmp_path,
                                              ["ann", "bo", "cy", "di", "ed", "fu", "gil", "hal"],
                                              JXBOT_EDIT_INTERVAL="1.0")
    assert "Event created" in await said(await admin.slash("tournament create", name="cup"))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    edits_before = len(ann.rest_edits)
    t0 = asyncio.get_running_loop().time()
    acts = await asyncio.gather(*(p.click(ann, label="Register") for p in players))
    for a in acts:
        assert "You are registered" in await said(a)
    spammer = players[0]
    for _ in range(6):
        assert "withdrawn" in (await said(await spammer.slash("tournament leave"))).lower()
        assert "You are registered" in await said(await spammer.slash("tournament join"))
    elapsed = asyncio.get_running_loop().time() - t0
    await double.wait_for(lambda: "8 registered" in ann.content or None, 15, "the announcement's count")
    await asyncio.sleep(2.5)  # whatever was still queued went out: the count stays right
    assert "8 registered" in ann.content, ann.content
    edits = len(ann.rest_edits) - edits_before
    assert edits <= elapsed + 3, (edits, elapsed)  # 20 successes: paced to about one edit a second
    assert "Traceback" not in bot.log(), bot.tail()


async def test_the_last_person_leaving_an_event_table_does_not_cut_its_hands_short(double, start_bot, tmp_path):
    g, ch, admin, players, bot = await _world(double, start_bot, tmp_path, ["ann"], JXBOT_MAX_HANDS="4")
    ann_ = players[0]
    assert "Event created" in await said(await admin.slash("tournament create", name="cup", rounds=1, hands=3))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    event_id = re.search(r"id `([0-9a-f]+)`", ann.content).group(1)
    assert "You are registered" in await said(await ann_.click(ann, label="Register"))
    assert "has started" in await said(await admin.slash("tournament start"), timeout=15)
    await ann_.wait_dm(lambda m: m.image() is not None, timeout=30)  # her first hand is dealt
    told = await said(await ann_.slash("mahjong leave"), timeout=10)
    # what she is told is what happens: no silver moves at a points-only event, and the table's result is hers
    # (before: "you are charged the fee plus your loss", of silver nobody plays for here)
    assert "charged" not in told and "no silver" in told and "counts for you" in told, told
    await admin.wait_message(lambda m: "is over!" in m.content, ch, timeout=90)
    import sqlite3

    con = sqlite3.connect(str(tmp_path / "jxbot.sqlite3"))
    try:
        n = con.execute("SELECT COUNT(*) FROM hands WHERE status = 'settled'").fetchone()[0]
        (res,) = con.execute("SELECT result FROM event_tables WHERE event_id = ?", (event_id,)).fetchone()
    finally:
        con.close()
    import json

    assert n == 3 and len(json.loads(res)["hand_deltas"]) == 3, (n, res)  # the computer played her 3 hands
    assert "Traceback" not in bot.log(), bot.tail()


def _seats_of(db, event_id: str) -> dict[int, list[int]]:
    import json
    import sqlite3

    con = sqlite3.connect(str(db))
    try:
        rows = con.execute("SELECT key, spec FROM arranged WHERE key LIKE ?", (f"ev:{event_id}/r1/%",)).fetchall()
    finally:
        con.close()
    return {int(k.rsplit("/t", 1)[1]): [s["user_id"] for s in json.loads(spec)["seats"]] for k, spec in rows}


def peek_files(p) -> list:
    """The wall files (``hand-….txt``) among what the bot answered ``p`` privately."""
    return [a for m in p.ephemerals() for a in m.attachments if "txt" in str(getattr(a, "filename", ""))]


async def test_a_duplicate_wall_is_not_shown_while_another_table_still_plays_it(double, start_bot, tmp_path):
    from tests.e2e.players import AutoPlayer, Style

    g, ch, admin, players, bot = await _world(double, start_bot, tmp_path,
                                              ["ann", "bo", "cy", "di", "ed", "fu", "gil", "hal"])
    assert "Event created" in await said(await admin.slash("tournament create", name="dup", format="duplicate",
                                                           rounds=1, hands=1))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    event_id = re.search(r"id `([0-9a-f]+)`", ann.content).group(1)
    for p in players:
        assert "You are registered" in await said(await p.click(ann, label="Register"))
    assert "has started" in await said(await admin.slash("tournament start"), timeout=15)
    await bot.wait_log(f"event {event_id}: round 1 table 1 is table", timeout=30)
    seats = _seats_of(tmp_path / "jxbot.sqlite3", event_id)
    fast = [p for p in players if p.id in seats[0]]
    slow = [p for p in players if p.id in seats[1]]
    assert len(fast) == 4 and len(slow) == 4
    aps = [AutoPlayer(p, Style()).start() for p in fast]  # table 1 plays its wall; table 2's people think

    def fair_button(p=None):
        for m in (p.dm_messages() if p is not None else double.messages.values()):
            for b in m.buttons():
                if str(b.get("custom_id", "")).startswith("mj:fair:"):
                    return m, b["custom_id"]
        return None

    result, fair_id = await double.wait_for(fair_button, 120, "table 1's result with its Fair deal button")
    for ap in aps:
        await ap.stop()
    # the tables play in their players' DMs: the other table sees neither its discards nor its result picture
    assert f"event {event_id}: round 1 table 0 is table" in bot.log() and "(in DMs)" in bot.log()
    assert not [c for c in double.channels.values() if c.parent_id == ch.id]  # no thread opened
    with pytest.raises(PermissionError):
        await slow[0].click(result, custom_id=fair_id)
    # and a player of the finished table cannot hand the wall over: his own Fair deal and Replay are refused
    result, fair_id = await double.wait_for(lambda: fair_button(fast[1]), 30, "fast[1]'s own result")
    peek = await said(await fast[1].click(result, custom_id=fair_id), timeout=10)
    assert "Salt" not in peek and "another table" in peek and not peek_files(fast[1]), peek
    replay_id = next(b["custom_id"] for b in result.buttons() if str(b.get("custom_id", "")).startswith("mj:replay:"))
    peek = await said(await fast[1].click(result, custom_id=replay_id), timeout=10)
    assert "another table" in peek, peek
    import sqlite3

    con = sqlite3.connect(str(tmp_path / "jxbot.sqlite3"))
    try:
        (hid,) = con.execute("SELECT hand_id FROM hands WHERE status = 'settled'").fetchone()
    finally:
        con.close()
    peek = await said(await slow[2].slash("mahjong replay", hand=hid), timeout=10)  # the id passed on
    assert "another table" in peek, peek
    # a player of the finished table reviews his own seat meanwhile (what he saw as he played it)
    review_id = next(b["custom_id"] for b in result.buttons() if str(b.get("custom_id", "")).startswith("mj:review:"))
    mine = await said(await fast[1].click(result, custom_id=review_id), timeout=10)
    assert mine and "another table" not in mine and "Only the players" not in mine, mine
    # the round over, the wall is everyone's to check
    aps = [AutoPlayer(p, Style()).start() for p in slow]
    await admin.wait_message(lambda m: "is over!" in m.content, ch, timeout=150)
    for ap in aps:
        await ap.stop()
    # (pressed in his DM: before, the bot answered nothing there once the hand could be shown)
    shown = await said(await fast[1].click(result, custom_id=fair_id), timeout=15)
    assert "Salt" in shown and peek_files(fast[1]), shown
    assert "Traceback" not in bot.log(), bot.tail()


async def test_what_held_two_starts_at_once_from_two_channels_a_pre_restart_register_and_junk_ids(
        double, start_bot, tmp_path):
    """Pressed as people press, and answered right already (kept as a guard): ``/tournament start`` from two
    channels at the same moment starts the event once (one "has started", one "already started", one round
    announcement, each table once); the announcement's Register button, pressed on a message from before a restart,
    registers; an event id of junk or mentions is answered "no such event" without echoing it or pinging."""
    g, ch, admin, players, bot = await _world(double, start_bot, tmp_path, ["ann", "bo", "cy", "di", "ed"])
    other = double.add_text_channel(g, "lounge")
    assert "Event created" in await said(await admin.slash("tournament create", name="cup", rounds=1))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    for p in players[:4]:
        assert "You are registered" in await said(await p.click(ann, label="Register"))
    await bot.kill()
    await bot.start()
    await bot.wait_log("ready: every table resumed", timeout=40)
    while bot.log().count("ready: every table resumed") < 2:
        await asyncio.sleep(0.1)
    assert "You are registered" in await said(await players[4].click(ann, label="Register"), timeout=10)
    await double.wait_for(lambda: "5 registered" in ann.content or None, 10, "the count after the restart")
    for junk in ("@everyone", f"<@{players[0].id}>", "x" * 500):
        act = await players[0].slash("tournament standings", event=junk)
        told = await said(act)
        act = act.interaction
        assert "No such event" in told or "no such event" in told.lower(), told
        assert "everyone" not in told and str(players[0].id) not in told and "xxxx" not in told, told
        assert all(not m.pinged_users() for m in [act.original, *act.followups] if m is not None)
    a, b = await asyncio.gather(admin.slash("tournament start"), admin.slash("tournament start", channel=other))
    got = sorted([await said(a, timeout=20), await said(b, timeout=20)])
    assert "already started" in got[0] and "has started" in got[1], got
    await asyncio.sleep(2.0)
    assert len([m for m in ch.messages if "round 1 begins" in m.content]) == 1
    log = bot.log()  # five players and three computers: two tables, each opened once
    assert log.count("round 1 table 0 is table") == 1 and log.count("round 1 table 1 is table") == 1, log
    assert "Traceback" not in bot.log(), bot.tail()


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


async def test_a_name_with_bidi_controls_cannot_turn_a_standings_line_around(double, start_bot, tmp_path):
    """A nickname holding a right-to-left override (U+202E) turns the rest of its line around wherever the bot
    writes it: in the standings, ``1. ‮0001+ ann`` reads as if another player's points were his. Names are
    written without the bidi controls (embeddings, overrides, isolates); the letters stay."""
    evil = "\u202e0001+ ann"
    g, ch, admin, players, bot = await _world(double, start_bot, tmp_path, [evil, "bo"])
    assert "Event created" in await said(await admin.slash("tournament create", name="cup \u202eevil"))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    for p in players:
        assert "You are registered" in await said(await p.click(ann, label="Register"))
    act = await players[1].slash("tournament standings")
    board = await said(act, timeout=15)
    assert "0001+ ann" in board, board
    bot_texts = [m.content for m in double.messages.values() if m.author.id == double.bot.id]
    assert not [x for x in bot_texts + [board] if any(c in x for c in BIDI)], [x for x in bot_texts if any(
        c in x for c in BIDI)]


async def test_a_player_of_a_points_only_event_may_review_his_own_hand(double, start_bot, tmp_path):
    """The 复盘 button on an event table's result: a points-only table recorded its hands with no player behind
    any seat (so no wallet moved), and the review then told the very player who played it "Only the players of
    this hand can review their decisions." Now he gets his review; a stranger is still refused."""
    from tests.e2e.players import AutoPlayer, Style

    g, ch, admin, players, bot = await _world(double, start_bot, tmp_path, ["ann", "bo"],
                                              JXBOT_REVIEW_PROCESSES="1", JXBOT_REVIEW_BUDGET_MS="600",
                                              JXBOT_CLAIM_WINDOW="1")
    stranger = Player.join(double, "zed", g, ch, locale="en-US")
    assert "Event created" in await said(await admin.slash("tournament create", name="cup", rounds=1))
    ann = await admin.wait_message(lambda m: "🏆" in m.content, ch)
    for p in players:
        assert "You are registered" in await said(await p.click(ann, label="Register"))
    aps = [AutoPlayer(p, Style()).start() for p in players]
    assert "has started" in await said(await admin.slash("tournament start"), timeout=15)

    def result():
        for m in double.messages.values():
            for b in m.buttons():
                if str(b.get("custom_id", "")).startswith("mj:review:"):
                    return m, b["custom_id"]
        return None

    msg, review_id = await double.wait_for(result, 120, "the hand's result with its Review button")
    for ap in aps:
        await ap.stop()
    act = await players[0].click(msg, custom_id=review_id)
    await act.settled()
    assert "Only the players" not in " ".join(act.texts()), act.texts()
    shown = await double.wait_for(lambda: next((m for m in players[0].ephemerals()
                                                if m.content.startswith("**Review**") and m.attachments), None),
                                  90, "ann's review")
    assert shown.ephemeral_for == players[0].id
    act = await stranger.click(msg, custom_id=review_id)
    await act.settled()
    assert act.texts() == ["Only the players of this hand can review their decisions."], act.texts()
    assert "Traceback" not in bot.log(), bot.tail()
