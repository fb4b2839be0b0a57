"""The table picture on a phone: Discord shows it about 550 px wide there. Every text stays readable
at that width, the picture has no empty felt, and it grows only with what there is to show."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import render
from render import common, demo
from render import table as table_mod

PHONE = 550


def _png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _long_hand():
    t = demo.table_view()
    for s in t["seats"]:
        s["discards"] = [{"tile": (i * 7 + s["seat"]) % 34, "claimed": i % 5 == 0} for i in range(24)]
    return t


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_text_is_smaller_than_12_px_at_phone_width(monkeypatch, lang):
    sizes: list[float] = []
    for name in ("text", "pill"):
        real = getattr(common, name)

        def spy(*args, _real=real, _at=3 if name == "text" else 4, **kw):
            sizes.append(args[_at])
            return _real(*args, **kw)

        monkeypatch.setattr(common, name, spy)
    real_badge = common.badge_circle

    def badge(dr, cx, cy, r, *a, **kw):
        sizes.append(round(r * 1.15))
        return real_badge(dr, cx, cy, r, *a, **kw)

    monkeypatch.setattr(common, "badge_circle", badge)
    v = demo.table_view()
    v["contract"], v["seats"][1]["auto"], v["seats"][2]["gave_up"] = [0, 1], True, True
    img = table_mod.draw_table(v, lang)
    assert sizes, "nothing drawn through the text helpers"
    scale = PHONE / img.width
    assert min(sizes) * scale >= 12, (min(sizes), img.width)
    assert img.width <= 640  # so that Discord's phone view shrinks it by no more than 0.86


@pytest.mark.parametrize("view", [demo.table_view, _long_hand], ids=["demo", "24 discards each"])
def test_no_band_of_empty_felt(view):
    """No run of rows where nothing but felt shows (the old picture's lower half was empty)."""
    v = view()
    img = _png(render.render_table(v, "zh"))
    bare = common.felt(img.width, img.height)
    diff = ImageChops.difference(img, bare).convert("L").point(lambda x: 255 if x > 12 else 0)
    x0, x1 = img.width // 4, img.width * 3 // 4  # the middle of the picture (a frame at the edges does not count)
    run = longest = 0
    for y in range(img.height):
        if diff.crop((x0, y, x1, y + 1)).getbbox() is None:
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    assert longest <= table_mod.GAP + table_mod.MARGIN, longest


def test_the_picture_grows_with_the_hand_and_stays_within_a_phone_screen():
    early = demo.table_view()
    for s in early["seats"]:
        s["discards"], s["melds"] = [], []
    short = _png(render.render_table(early, "zh"))
    mid = _png(render.render_table(demo.table_view(), "zh"))
    long = _png(render.render_table(_long_hand(), "zh"))
    assert short.height < mid.height < long.height
    assert long.height * PHONE / long.width < 1000  # about one phone screen at 550 px wide


def test_every_discard_shows():
    """One more discard changes the picture; the 24th discard of a seat still shows (a second row)."""
    v = _long_hand()
    before = _png(render.render_table(v, "zh"))
    v["seats"][2]["discards"][-1]["tile"] = (v["seats"][2]["discards"][-1]["tile"] + 9) % 34
    assert ImageChops.difference(before, _png(render.render_table(v, "zh"))).getbbox() is not None


def test_a_caishen_tables_voided_tiles_show_on_a_strip_under_the_header():
    """RULES B2: the tiles voided by kong replacements are out of play and shown to everyone."""
    v = {**demo.table_view(), "ruleset": "caishen"}
    plain = _png(render.render_table(v, "zh"))
    voided = _png(render.render_table({**v, "voided": [3, 17]}, "zh"))
    assert voided.height > plain.height
    m, h = table_mod.MARGIN, table_mod.HEADER_H
    header = (m + 4, m + 4, plain.width - m - 4, m + h - 4)  # inside the header bar (the felt depends on height)
    assert ImageChops.difference(plain.crop(header), voided.crop(header)).getbbox() is None  # header unchanged


def test_an_escaped_seat_is_tagged_on_the_table():
    v = demo.table_view()
    v["seats"][1]["auto"] = True
    auto = _png(render.render_table(v, "zh"))
    v["seats"][1]["escaped"] = True
    escaped = _png(render.render_table(v, "zh"))
    assert ImageChops.difference(auto, escaped).getbbox() is not None  # 逃跑 instead of 托管
