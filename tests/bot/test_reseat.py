"""A caishen reseat (RULES B11) through the bot: after a 版 the players draw new seats; the lobby's seats,
Alice's Discord seat, her panel and her buttons follow her, the channel is told, and a restart resumes
with the new seats. (A 版 is shortened to one round so the test reaches a reseat quickly.)"""

from __future__ import annotations

import copy

import pytest

from jxbot.custom_ids import parse_custom_id
from jxbot.game import Match
from jxbot.rulesets.caishen.plugin import CAISHEN
from jxbot.table import FakeClock, TableRunner

from .conftest import Harness, _shutdown, make_bot, restarted

ALICE = 101
PAUSE = 10_000.0


@pytest.fixture
def short_ban(monkeypatch):
    def new_match(self):
        c = self.config
        return Match(c.seed, ruleset=CAISHEN.with_(cs_rounds_per_ban=1), rounds=c.rounds, stake=c.stake, fee=c.fee,
                     max_hands=c.max_hands)

    monkeypatch.setattr(TableRunner, "_new_match", new_match)


def reseat_notices(fake):
    return [m for m in fake.channel() if "版" in (m.content or "") and "抽" in (m.content or "")]


async def play_until_reseat(h, runner):
    for _ in range(60):
        await h.settle()
        if reseat_notices(h.fake):
            return
        await h.advance(PAUSE)  # the pause between hands
    raise AssertionError("no reseat happened")


async def test_reseat_moves_the_player_her_panel_and_buttons_and_survives_a_restart(
        fake, monkeypatch, store, short_ban):
    bot1 = await make_bot(fake, monkeypatch, store=store)
    h = Harness(bot1, fake)
    cog = bot1.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, "reseat-bot-1"
    await h.command(ALICE, "mahjong create", stake=1, ruleset="caishen", rounds=2)
    lobby = next(m for m in fake.channel() if m.buttons)
    await h.click(ALICE, lobby, "开始")
    table = h.table()
    session = table.session
    runner = session.runner
    runner.config.between_hands = PAUSE  # the table waits (on the fake clock) after each hand
    panel_msg = table.panels[0]
    before = copy.deepcopy(fake.dms(ALICE)[-1])  # Alice's panel as her client shows it, seat 0's buttons
    old_buttons = [b for b in before.buttons if parse_custom_id(b["custom_id"]).verb == "discard"]
    assert old_buttons
    await runner.set_auto(0, True)
    await play_until_reseat(h, runner)
    moves = next(r["reseat"] for r in runner.match.results if "reseat" in r)
    new = moves[0]
    # everyone agrees where Alice sits now
    assert runner.seat_of_user(ALICE) == new
    assert table.seat_of(ALICE) == new
    assert set(session.seats) == {new} and session.seats[new].seat == new
    assert table.panels == {new: panel_msg}  # the same DM message stays her panel
    for o, s in zip(table.seats, runner.seats, strict=True):  # every computer moved with its number too
        assert o.user_id == s.user_id and (not o.is_computer or s.name.endswith(o.name.lstrip("#")))
    # the channel is told, with Alice at her new wind
    notice = reseat_notices(fake)[-1].content
    from jxbot.rules.tiles import wind_name

    assert f"{wind_name(new, table.lang)} · <@{ALICE}>" in notice
    # a button shown before the reseat is taken no more
    n_actions = len(runner.hand.events) if hasattr(runner.hand, "events") else None
    await h.click(ALICE, before, custom_id=old_buttons[0]["custom_id"])
    said = fake.last_ephemeral(ALICE)
    assert ("expired" in said) if new == 0 else ("another player" in said)  # seat 0 is someone else's now
    if n_actions is not None:
        assert len(runner.hand.events) == n_actions
    # the saved state has the new seats: a restart resumes Alice at her new seat
    saved = (await store.running_tables())[0].state
    assert [o and o.get("user_id") for o in saved["bot_table"]["seats"]].index(ALICE) == new
    assert [s.get("user_id") for s in saved["runner"]["seats"]].index(ALICE) == new
    await runner.pause()
    await _shutdown(bot1)

    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    table2 = h2.table()
    assert table2.seat_of(ALICE) == new
    assert table2.session.runner.seat_of_user(ALICE) == new
    assert set(table2.session.seats) == {new}
    await table2.session.runner.pause()
    await _shutdown(bot2)


# ---------------------------------------------------------------------------------------------- seats saved as one
BOB = 102
CRASH_SEED = "reseat-crash-3"  # its reseat moves Alice (East) to North and Bob (South) to East, onto Alice's seat


def tiles_line(view: dict, lang: str) -> str:
    """A panel's tile line, as cogs/play.py panel_text writes it (the concealed hand)."""
    from jxbot.rules.tiles import tile_name

    wild = view.get("wildcard")
    return " ".join(("★" if x == wild else "") + tile_name(x, lang) for x in view.get("hand") or [])


async def play_to_a_reseat_recording_saves(fake, monkeypatch, store):
    """Alice and Bob with two computers play a caishen table up to its reseat; every save_table is recorded,
    and where in those saves the runner moved its seats."""
    saves: list[tuple[str, dict, dict]] = []
    real_save = store.save_table
    marks: list[int] = []

    async def save_table(table_id, guild_id, channel_id, config_json, state_json, now=None):
        saves.append((table_id, copy.deepcopy(config_json), copy.deepcopy(state_json)))
        return await real_save(table_id, guild_id, channel_id, config_json, state_json, now=now)

    monkeypatch.setattr(store, "save_table", save_table)
    real_reseat = TableRunner._reseat

    def reseat(self, moves):
        real_reseat(self, moves)
        marks.append(len(saves))

    monkeypatch.setattr(TableRunner, "_reseat", reseat)
    bot1 = await make_bot(fake, monkeypatch, store=store)
    h = Harness(bot1, fake)
    cog = bot1.get_cog("TablesCog")
    cog.clock, cog.computer_delay, cog.seed = FakeClock(), 0.0, CRASH_SEED
    await h.command(ALICE, "mahjong create", stake=1, ruleset="caishen", rounds=2)
    lobby = next(m for m in fake.channel() if m.buttons)
    await h.click(BOB, lobby, "加入")
    await h.click(ALICE, lobby, "开始")
    table = h.table()
    runner = table.session.runner
    runner.config.between_hands = PAUSE  # the table waits (on the fake clock) after each hand
    assert [table.seat_of(ALICE), table.seat_of(BOB)] == [0, 1]
    await runner.set_auto(0, True)
    await runner.set_auto(1, True)
    await play_until_reseat(h, runner)
    moves = next(r["reseat"] for r in runner.match.results if "reseat" in r)
    assert moves[0] != 0 and moves[1] != 1 and moves[1] == 0  # both move; Bob onto Alice's old seat
    assert len(marks) == 1
    await runner.pause()
    await _shutdown(bot1)
    monkeypatch.setattr(store, "save_table", real_save)
    monkeypatch.setattr(TableRunner, "_reseat", real_reseat)
    return saves, marks[0], moves


@pytest.mark.parametrize("crash_after", [0, 1, -1])
async def test_a_crash_after_any_save_around_a_reseat_resumes_every_player_at_their_own_seat(
        fake, monkeypatch, store, short_ban, crash_after):
    """The process dies right after one of the writes that follow the runner's move (its own table_state,
    the save after the result, the save after the reseat notice): the next process resumes from exactly that
    record, and each human's panel shows their own seat's hand, never another's."""
    saves, mark, moves = await play_to_a_reseat_recording_saves(fake, monkeypatch, store)
    after = saves[mark:]
    assert len(after) >= 2  # the runner's write, and the bot's after it
    table_id, config, state = after[crash_after]
    # what a crash right after that write leaves: the store as it was then (no hand was dealt since the move)
    from .conftest import CHANNEL, GUILD

    assert await store.save_table(table_id, GUILD, CHANNEL, config, state)
    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 1
    await h2.settle()
    table2 = h2.table()
    runner2 = table2.session.runner
    for uid in (ALICE, BOB):
        await runner2.set_auto(runner2.seat_of_user(uid), False)  # they play the next hand: it waits for them
    await h2.advance(PAUSE)  # the next hand is dealt
    assert runner2.hand_running
    for uid, old in ((ALICE, 0), (BOB, 1)):
        seat = runner2.seat_of_user(uid)  # where the runner plays for them
        assert seat == moves[old]
        mine = tiles_line(runner2.view(seat), "en")  # (they play in English: en-US clients)
        others = [tiles_line(runner2.view(s), "en") for s in range(4) if s != seat]
        shown = [text or "" for m in fake.dms(uid) for text in [*m.content_history, m.content]]
        for text in shown:  # no message of their DM ever showed another seat's hand
            assert not any(o in text for o in others), (uid, text)
        panel = fake.messages[table2.panels[seat][1]]  # their panel: in their own DM, with their own hand
        assert panel.channel_id == fake.dm_channels[uid] and mine in (panel.content or "")
        assert table2.seat_of(uid) == seat and table2.panel_users[seat] == uid and table2.session.seats[seat].seat == seat
    await runner2.pause()
    await _shutdown(bot2)


async def test_a_record_whose_seats_disagree_suspends_the_table_instead_of_binding_the_wrong_player(
        fake, monkeypatch, store, short_ban):
    """A stored table whose lobby puts Alice where the runner holds Bob (a record written apart) is not
    resumed: the table is suspended, the channel and the panels say why in the table's language, and the
    seats are free."""
    saves, mark, moves = await play_to_a_reseat_recording_saves(fake, monkeypatch, store)
    table_id, config, state = saves[-1]
    state = copy.deepcopy(state)
    lobby_seats = state["bot_table"]["seats"]
    a, b = moves[0], moves[1]
    lobby_seats[a], lobby_seats[b] = lobby_seats[b], lobby_seats[a]  # Alice and Bob swapped in the lobby only
    from .conftest import CHANNEL, GUILD

    assert await store.save_table(table_id, GUILD, CHANNEL, config, state)
    before = set(fake.messages)
    bot2, h2, cog2 = await restarted(fake, monkeypatch, store)
    assert await cog2.resume_all() == 0
    await h2.settle()
    assert cog2.manager.get(table_id) is None  # nobody is bound to anything: the seats are free
    assert cog2.manager.of_user(ALICE) is None and cog2.manager.of_user(BOB) is None
    said = [m.content for m in fake.channel() if m.id not in before]
    assert any("saved seats disagree" in (c or "") or "座位对不上" in (c or "") for c in said), said
    # it says the hand is void (nobody pays), not "paused" (暂停), which would promise it comes back
    assert any("这一局作废" in (c or "") or "this hand is void" in (c or "") for c in said), said
    assert [s["table_id"] for s in await store.suspended_tables()] == [table_id]
    assert not [r for r in await store.running_tables() if r.table_id == table_id]
    panels = {p[1] for p in (state["bot_table"].get("panels") or {}).values()}
    assert len(panels) == 2
    for mid in panels:  # each panel says so and keeps no button
        assert "saved seats disagree" in (fake.messages[mid].content or "") and not fake.messages[mid].buttons
    # the table can be opened again in the channel
    await h2.command(ALICE, "mahjong create", stake=1)
    assert cog2.manager.of_user(ALICE) is not None
    await _shutdown(bot2)
