"""The hand picture on a phone: Discord shows it about 550 px wide there. The widest hands a game can
produce (13 tiles and the drawn one; four kongs; melds beside a claim) keep every text at least 12 px and
every tile at least 40 px wide at that width, measured from the renderer's own layout, scaled by 550/width."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from render import common, demo
from render import hand as hand_mod

PHONE = 550
VIEWS = {"demo": demo.seat_view, **{k: (lambda k=k: demo.widest_seat_views()[k]) for k in ("full", "kongs", "melds")},
         "caishen-full": lambda: {**demo.widest_seat_views()["full"], "ruleset": "caishen"}}


def _layout(view: dict, lang: str) -> hand_mod.Layout:
    from jxbot.rules.tiles import sort_hand

    return hand_mod.layout({**view, "hand": sort_hand(view.get("hand") or [], view.get("wildcard"))}, lang)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_smallest_text_and_tile_at_phone_width(name, lang):
    view = VIEWS[name]()
    lay = _layout(view, lang)
    img = Image.open(io.BytesIO(render.render_hand(view, lang)))
    assert img.size == (lay.width, lay.height)
    assert lay.width <= hand_mod.MAX_W
    scale = PHONE / lay.width
    assert min(lay.text_sizes()) * scale >= 12, (min(lay.text_sizes()), lay.width)
    assert min(lay.tile_widths()) * scale >= 40, (min(lay.tile_widths()), lay.width)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_layout_holds_every_text_and_tile_the_picture_draws(monkeypatch, lang):
    """What the test above measures is what is drawn: every text, pill and tile goes through the layout."""
    view = demo.widest_seat_views()["melds"]
    drawn_sizes: list[int] = []
    drawn_tiles: list[int] = []
    real_text, real_pill, real_meld = common.text, common.pill, common.draw_meld
    monkeypatch.setattr(common, "text", lambda dr, xy, s, size, *a, **kw: (drawn_sizes.append(size),
                                                                           real_text(dr, xy, s, size, *a, **kw))[1])
    monkeypatch.setattr(common, "pill", lambda dr, x, y, s, size, *a, **kw: (drawn_sizes.append(size),
                                                                             real_pill(dr, x, y, s, size, *a, **kw))[1])
    monkeypatch.setattr(common, "draw_meld", lambda img, m, seat, x, y, w, *a, **kw: (drawn_tiles.append(w),
                                                                                     real_meld(img, m, seat, x, y, w, *a, **kw))[1])
    real_sprite = hand_mod.sprite
    monkeypatch.setattr(hand_mod, "sprite", lambda k, w, *a: (drawn_tiles.append(w), real_sprite(k, w, *a))[1])
    hand_mod.draw_hand(view, lang)
    lay = _layout(view, lang)
    assert sorted(drawn_sizes) == sorted(lay.text_sizes())
    assert min(drawn_tiles) == min(lay.tile_widths())


def test_a_full_hand_wraps_into_two_rows_and_keeps_the_discard_numbers():
    view = demo.widest_seat_views()["full"]
    lay = _layout(view, "zh")
    tiles = [op for op in lay.ops if op[0] == "tile" and op[3] == hand_mod.TILE_W]
    assert len(tiles) == 14
    assert len({op[2] for op in tiles}) == 2  # two rows
    numbers = [op[3] for op in lay.ops if op[0] == "text" and op[3].isdigit()]
    assert numbers == [str(i) for i in range(1, 15)]
    assert hand_mod.discard_indices(view)[-1] == (14, view["drawn"])


def test_four_kongs_wrap_and_stay_inside_the_picture():
    view = demo.widest_seat_views()["kongs"]
    lay = _layout(view, "en")
    melds = [op for op in lay.ops if op[0] == "meld"]
    assert len(melds) == 4
    for op in melds:
        assert op[1] + common.meld_width(op[4], op[3]) <= lay.width - hand_mod.PAD
    assert len({op[2] for op in melds}) == 2
