"""/mahjong rules answers privately with the rules text and the illustrated rules card."""

import io

import pytest
from PIL import Image


@pytest.mark.parametrize("locale,needle", [("en-US", "Jiaxing Mahjong"), ("zh-CN", "嘉兴麻将")])
async def test_rules_reply_is_ephemeral_with_a_png_card(harness, monkeypatch, locale, needle):
    sent: list[bytes] = []
    orig = harness.fake._body

    def capture(payload, form, files):
        for f in files or ():
            pos = f.fp.tell()
            sent.append(f.fp.read())
            f.fp.seek(pos)
        return orig(payload, form, files)

    monkeypatch.setattr(harness.fake, "_body", capture)
    await harness.command(101, "mahjong rules", locale=locale)
    msg = harness.fake.ephemerals(101)[-1]
    assert needle in (msg.content or "")
    assert msg.attachments == ["rules.png"]
    assert not harness.fake.channel()  # nothing public
    assert len(sent) == 1 and sent[0][:8] == b"\x89PNG\r\n\x1a\n"
    assert Image.open(io.BytesIO(sent[0])).width <= 1280


async def test_rules_still_answers_when_the_card_cannot_be_drawn(harness, monkeypatch):
    import render

    def boom(*a, **k):
        raise RuntimeError("no font")

    monkeypatch.setattr(render, "render_rules", boom)
    await harness.command(101, "mahjong rules")
    msg = harness.fake.ephemerals(101)[-1]
    assert "Jiaxing Mahjong" in (msg.content or "") and not msg.attachments


async def test_rules_of_the_caishen_ruleset_come_with_its_own_card(harness, monkeypatch):
    sent: list[bytes] = []
    orig = harness.fake._body

    def capture(payload, form, files):
        for f in files or ():
            pos = f.fp.tell()
            sent.append(f.fp.read())
            f.fp.seek(pos)
        return orig(payload, form, files)

    monkeypatch.setattr(harness.fake, "_body", capture)
    await harness.command(101, "mahjong rules", locale="zh-CN")
    await harness.command(101, "mahjong rules", locale="zh-CN", ruleset="caishen")
    texts = [m.content or "" for m in harness.fake.ephemerals(101)[-2:]]
    assert "嘉兴麻将" in texts[0] and "财神麻将" in texts[1]
    assert len(sent) == 2 and sent[0] != sent[1]  # a different picture for each ruleset
