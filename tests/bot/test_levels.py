"""Computer levels in the product (issue 18): /mahjong create and /mahjong addbot take a level, the
server default is an admin setting, the lobby and the table's seat names show each computer's level."""

import discord
import pytest

from jxbot.table.clock import FakeClock

from .conftest import GUILD

ALICE, BOB = 101, 102
MANAGE = discord.Permissions(manage_guild=True)


@pytest.fixture
async def game(harness):
    cog = harness.bot.get_cog("TablesCog")
    cog.clock = FakeClock()
    cog.computer_delay = 0.0
    cog.seed = "levels"
    return harness


def lobby(fake):
    return next(m for m in fake.channel() if m.buttons and m.buttons[0]["label"] in ("加入", "Join"))


async def test_create_and_addbot_take_a_level_and_the_lobby_shows_it(game):
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=2, level="hard")
    msg = lobby(fake)
    await h.click(ALICE, msg, "加电脑")  # the button adds a computer of the table's level
    assert "困难电脑 1" in msg.content
    await h.command(ALICE, "mahjong addbot", level="easy")
    assert "简单电脑 2" in msg.content
    table = h.table()
    assert [o.level for o in table.seats if o is not None and o.is_computer] == ["hard", "easy"]
    # start: the empty seat is filled at the table's level, and the runner plays each seat at its own
    await h.click(ALICE, msg, "开始")
    infos = table.session.runner.seats
    assert [s.level for s in infos if s.is_computer] == ["hard", "easy", "hard"]
    # a computer's name is kept as a key and put in words in each viewer's language (issue 24, finding 7)
    from jxbot.seatnames import display_name
    assert [display_name(s.name, "zh") for s in infos if s.is_computer] == ["困难电脑 1", "简单电脑 2", "困难电脑 3"]


def _drawn_texts(monkeypatch, draw, *args) -> list[str]:
    import render.common as C

    drawn: list[str] = []
    real = C.text
    monkeypatch.setattr(C, "text", lambda dr, xy, s, *a, **k: drawn.append(str(s)) or real(dr, xy, s, *a, **k))
    draw(*args)
    monkeypatch.setattr(C, "text", real)
    return drawn


async def test_computer_names_follow_each_viewers_language_not_the_tables(game, monkeypatch):
    # the table is in Chinese (the server's language); Alice reads English, Bob Chinese
    import render
    from jxbot.shell.texts import result_text, status_text

    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=2, level="hard")
    msg = lobby(fake)
    await h.click(BOB, msg, "加入", locale="zh-CN")
    await h.click(ALICE, msg, "开始")
    table = h.table()
    assert table.lang == "zh" and [o.lang for o in table.seats[:2]] == ["en", "zh"]
    runner = table.session.runner
    for seat, lang, want, other in ((0, "en", "Hard computer", "困难电脑"), (1, "zh", "困难电脑", "Hard computer")):
        view = runner.view(seat)
        texts = _drawn_texts(monkeypatch, render.render_table, view, lang)
        assert sum(want in x for x in texts) == 2 and not any(other in x for x in texts), texts  # the picture
        panel = status_text({**view, "dealer": 2, "turn": 3}, lang)  # a computer deals and is on turn
        assert want in panel and other not in panel
    # the result rows carry the runner's names (keys): the result text and picture put them in words too
    rows = [{"seat": i, "delta": 0, "fee": 0, "balance": None, "name": s.name, "is_computer": s.is_computer}
            for i, s in enumerate(runner.seats)]
    result = {"drawn_game": True, "winner": None, "payments": rows}
    assert "Hard computer 1" in result_text(result, "en") and "困难电脑 1" not in result_text(result, "en")
    assert "困难电脑 1" in result_text(result, "zh") and "Hard computer 1" not in result_text(result, "zh")


async def test_unknown_level_gets_a_clear_message(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=2, level="grandmaster")
    assert "no computer level 'grandmaster'" in fake.last_ephemeral(ALICE)
    assert h.bot.get_cog("TablesCog").manager.tables == {}
    await h.command(ALICE, "mahjong create", stake=2)
    await h.command(ALICE, "mahjong addbot", level="godlike")
    assert "no computer level 'godlike'" in fake.last_ephemeral(ALICE)
    assert "🤖" not in lobby(fake).content


async def test_server_default_level_is_an_admin_setting(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "admin settings", member_perms=MANAGE, computer_level="easy")
    assert "computer_level = easy" in fake.last_ephemeral(ALICE)
    assert (await h.bot.store.get_guild_settings(GUILD)).computer_level == "easy"
    await h.command(ALICE, "mahjong create", stake=2)
    await h.command(ALICE, "mahjong addbot")
    assert "简单电脑 1" in lobby(fake).content
    await h.command(BOB, "admin settings", member_perms=MANAGE, computer_level="grandmaster")
    assert "computer_level" in fake.last_ephemeral(BOB)  # refused, and says which setting
    assert (await h.bot.store.get_guild_settings(GUILD)).computer_level == "easy"


async def test_status_names_computers_in_the_askers_language(game):
    # /mahjong status answers one person (an ephemeral): its seat list, computers included, is in their
    # language, not the table's (issue 24 finding 7, one more place)
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=2, level="hard")  # a Chinese table (the server's language)
    await h.command(ALICE, "mahjong addbot")
    for starting in (True, False):
        await h.command(BOB, "mahjong status", locale="en-US")
        text = fake.last_ephemeral(BOB)
        assert "Hard computer 1" in text and "困难电脑" not in text, text
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in text.split("\n")[0] + text.split("\n")[1]), text
        if starting:
            await h.click(ALICE, lobby(fake), "开始")
    await h.command(BOB, "mahjong status", locale="zh-CN")
    assert "困难电脑 1" in fake.last_ephemeral(BOB)
