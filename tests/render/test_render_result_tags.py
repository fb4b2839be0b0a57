"""The result picture says why a seat paid what it paid: 承包 / 放弃 / 逃跑 tags by the names."""

import io

import pytest
from PIL import Image, ImageChops

import render
from render import demo, fonts, labels


def _img(view: dict, lang: str) -> Image.Image:
    return Image.open(io.BytesIO(render.render_result(view, lang))).convert("RGB")


def _row_changed(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_contract_and_give_up_are_tagged_on_the_settlement_rows(lang):
    plain = demo.result_view()
    tagged = demo.result_view()
    tagged["contract"] = [2, 1]
    tagged["gave_up"] = [3]
    a, b = _img(plain, lang), _img(tagged, lang)
    assert a.size == b.size
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None, "a contract and a give-up must show on the picture"
    # only the settlement table changes (the hand, the items and the formula look the same)
    top = b.height - (70 + 32 - 18) - 18 - (50 + 46 * 4 + 16)
    assert box[1] >= top
    # the untagged seat 0 row is unchanged, the tagged rows 1..3 are
    row_y = top + 50
    rows = [(0, row_y + 46 * i, b.width, row_y + 46 * (i + 1)) for i in range(4)]
    changed = [_row_changed(a.crop(r), b.crop(r)) for r in rows]
    assert changed == [False, True, True, True]


def test_an_escaped_seat_is_tagged_too():
    plain = demo.result_view()
    esc = demo.result_view()
    esc["escaped"] = [0]
    assert render.render_result(plain, "zh") != render.render_result(esc, "zh")


def test_no_tags_when_contract_is_null_and_lists_are_empty():
    v = demo.result_view()
    w = demo.result_view()
    w.update({"contract": None, "gave_up": [], "escaped": []})
    assert render.render_result(v, "en") == render.render_result(w, "en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tag_labels_are_real_words_inside_the_font_subset(lang):
    for key in ("contract", "gave_up", "escaped"):
        s = labels.L(key, lang)
        assert s and not s.startswith("render."), s
        assert not fonts.missing_chars(s), (key, s)
    if lang == "zh":
        assert [labels.L(k, "zh") for k in ("contract", "gave_up", "escaped")] == ["承包", "放弃", "逃跑"]
