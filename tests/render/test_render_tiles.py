"""Tile art: every face distinct, variants recognisable, sprites cached, glyphs inside the font subset."""

import itertools

import pytest
from PIL import ImageChops, ImageStat

from jxbot.rules.contract import FAN_CODES, TAI_CODES
from render import fonts, labels
from render.tiles import BACK, geometry, side_geometry, sprite


def _diff(a, b) -> float:
    """Mean absolute difference per channel (0-255) of two same-size RGB images."""
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


@pytest.mark.parametrize("w", [26, 38, 66])
def test_no_two_tile_faces_alike(w):
    faces = {k: sprite(k, w) for k in [*range(34), BACK]}
    closest = min(_diff(faces[a], faces[b]) for a, b in itertools.combinations(faces, 2))
    # even the closest pair (e.g. 2/3 bamboo) differs clearly, not by antialiasing noise
    assert closest > 2.0, closest


def test_wildcard_version_is_visibly_marked_and_sideways_is_rotated():
    for k in range(34):
        up, wild, side = sprite(k, 48), sprite(k, 48, "wild"), sprite(k, 48, "side")
        assert _diff(up, wild) > 8  # gold face, edge and badge
        assert side.size == side_geometry(48).sprite_size
        assert side.size[0] > up.size[0] and side.size[1] < up.size[1]
        assert _diff(up, sprite(k, 48, "dim")) > 5


def test_sprites_are_built_once_per_size():
    a = sprite(5, 50)
    assert sprite(5, 50) is a
    assert sprite(5, 51) is not a
    assert a.size == geometry(50).sprite_size


def test_every_label_is_inside_the_font_subset():
    missing = {}
    for s in labels.all_label_text():
        m = fonts.missing_chars(s)
        if m:
            missing[s] = m
    assert not missing, f"regenerate with scripts/make_font_subset.py: {missing}"
    assert not fonts.missing_chars(labels.TILE_FACE_CHARS, fonts.TILE_FONT)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_score_item_labels_are_real_words_not_codes(lang):
    for code in (*TAI_CODES, *FAN_CODES):
        label = labels.item_label(code, lang)
        assert label and label != code
        assert not fonts.missing_chars(label)


def test_names_the_font_cannot_draw_are_folded_or_fall_back():
    assert fonts.display_name("Ｍａｒｃｏ", "Seat 1") == "Marco"  # full-width letters fold
    assert fonts.display_name("\U0001f600 Anna", "Seat 1") == "Anna"  # an emoji is dropped
    assert fonts.display_name("\U00020000\U00020001", "Seat 2") == "Seat 2"  # nothing drawable left
    assert fonts.display_name("", "Seat 3") == "Seat 3"
