"""The illustrated rules card of /mahjong rules: both rulesets and languages, computed values, glyphs."""

import io

import pytest
from PIL import Image

from jxbot.rules import score_win
from render import fonts, render_rules
from render.common import MAX_WIDTH
from render.rules_card import EXAMPLES, card_strings, score_example

CASES = [(lang, rs) for rs in ("jiaxing", "caishen") for lang in ("zh", "en")]


@pytest.mark.parametrize("lang,ruleset", CASES)
def test_card_is_a_png_within_discord_friendly_limits(lang, ruleset):
    png = render_rules(lang, ruleset)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    assert img.width <= MAX_WIDTH and 600 <= img.height <= 1700
    assert len(png) < 1_000_000
    # not a blank canvas: the tile sprites and text give many colours
    assert len(img.convert("RGB").getcolors(1 << 16) or ()) > 40


@pytest.mark.parametrize("lang,ruleset", CASES)
def test_card_bytes_are_deterministic(lang, ruleset):
    assert render_rules(lang, ruleset) == render_rules(lang, ruleset)


def test_languages_and_rulesets_give_different_pictures():
    pics = {render_rules(lang, rs) for lang, rs in CASES}
    assert len(pics) == 4


@pytest.mark.parametrize("lang,ruleset", CASES)
def test_every_drawn_string_is_in_the_font(lang, ruleset):
    strings = card_strings(lang, ruleset)
    assert strings
    for s in strings:
        assert not fonts.missing_chars(s), (s, fonts.missing_chars(s))


def test_jiaxing_examples_carry_their_pattern_and_engine_value():
    want = {"full_flush": 4, "half_flush": 2, "all_honors": 10, "all_pungs": 2}
    assert {ex.code for ex in EXAMPLES["jiaxing"]} == set(want)
    for ex in EXAMPLES["jiaxing"]:
        tiles, sc = score_example("jiaxing", ex)
        assert sc.winning and len(tiles) == 14
        assert {i.name: i.value for i in sc.tai}[ex.code] == want[ex.code]
    # one example uses the wildcard, so the card shows a 百搭 inside a hand
    assert any(score_example("jiaxing", ex)[0].count(26) for ex in EXAMPLES["jiaxing"])  # 9s


def test_caishen_examples_win_with_the_documented_multipliers():
    # docs/caishen.md B4: 七對子 ×2, 財神頭 ×4, 單釣財神頭 ×8, 財神會 stacks (×2 more), 自摸 ×2
    want = {"seven_pairs": 2, "caishen_head": 4, "single_caishen_head": 8, "caishen_hui": 16, "self_draw": 2}
    for ex in EXAMPLES["caishen"]:
        tiles, sc = score_example("caishen", ex)
        assert ex.code in {i.name for i in sc.fan}
        assert sc.points == want[ex.code]
        again = score_win(tiles[:-1], tiles[-1], wildcard=16, self_draw=ex.self_draw, ruleset="caishen")  # 8p (16): the card's 財神
        assert again.points == sc.points


def test_unknown_ruleset_is_refused():
    with pytest.raises(ValueError):
        render_rules("zh", "riichi")


@pytest.mark.parametrize("lang,ruleset", CASES)
def test_item_breakdowns_fit_without_being_cut(lang, ruleset):
    from render.rules_card import detail_lines

    for ex in EXAMPLES[ruleset]:
        _, sc = score_example(ruleset, ex)
        lines = detail_lines(ruleset, ex, lang)
        assert not any(line.endswith("…") for line in lines), lines
        assert str(sc.total_tai if ruleset == "jiaxing" else sc.points) in lines[-1]


@pytest.mark.parametrize("lang,ruleset", CASES)
def test_the_card_reads_on_a_phone(lang, ruleset):
    """Discord shows it about 550 px wide on a phone: at that width every text is at least 12 px and every
    tile at least 40 px wide, measured from the sizes the card drew (scaled by 550/width)."""
    from render.rules_card import card_layout

    img, lay = card_layout(lang, ruleset)
    assert lay.width == img.width <= 760
    assert Image.open(io.BytesIO(render_rules(lang, ruleset))).size == img.size
    scale = 550 / lay.width
    assert min(lay.text_sizes) * scale >= 12, min(lay.text_sizes)
    assert min(lay.tile_widths) * scale >= 40, min(lay.tile_widths)
