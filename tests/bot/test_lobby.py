
from jxbot.bot import parse_custom_id

ALICE, BOB, CAROL = 101, 102, 103


async def test_create_posts_lobby_with_buttons(harness):
    h, fake = harness, harness.fake
    await h.command(ALICE, "mahjong create", stake=5)
    lobby = fake.channel()[-1]
    assert f"<@{ALICE}>" in lobby.content
    labels = [b["label"] for b in lobby.buttons]
    assert labels == ["加入", "离开", "加电脑", "开始"]  # the channel's language is the guild's (zh-CN)
    cid = parse_custom_id(lobby.buttons[0]["custom_id"])
    assert cid is not None and cid.verb == "join"
