"""The guide states what its example hands really score (jxbot.rules.score_win), in both languages, and
docs/howto.md is the guide's own text."""

from __future__ import annotations

from pathlib import Path

import pytest

import render
from jxbot.howto import RULESET_SETS, body, guide_text, markdown, page_view, pages, score
from jxbot.howto.pages import multiplier
from render.fonts import missing_chars
from render.guide import MIN_TEXT, WIDTH

ALL = [(rs, p) for rs in RULESET_SETS for p in pages(rs)]


@pytest.mark.parametrize(("rs", "page"), ALL, ids=[f"{rs}-{p.key}" for rs, p in ALL])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_page_states_its_example_hands_real_score(rs, page, lang):
    text = body(page, lang)
    for ex in page.examples:
        sc = score(ex)  # raises if the hand does not win
        assert sc.winning
        if page.example == ex:
            if rs == "jiaxing":
                assert f"{sc.total_tai}" in text and f"{sc.total_fan}" in text and f"{sc.points}" in text, text
            else:
                assert f"×{multiplier(sc)}" in text, text
    view = page_view(page, lang)
    for row, drawn in zip(page.rows, view["rows"], strict=True):
        if row.example is not None:  # the picture's caption states the row's real value
            sc = score(row.example)
            want = f"→ {sc.points}" if row.example.ruleset == "jiaxing" else f"×{multiplier(sc)}"
            assert want in drawn["caption"], drawn["caption"]


def test_the_pattern_pages_show_their_pattern_and_value():
    by_key = {p.key: p for p in pages("jiaxing")}
    want = {"full_flush": ("full_flush", 4), "half_flush": ("half_flush", 2), "all_honors": ("all_honors", 10),
            "all_pungs": ("all_pungs", 2)}
    for key, (code, tai) in want.items():
        sc = score(by_key[key].example)
        assert (code, tai) in [(i.name, i.value) for i in sc.tai]
    worked = score(by_key["formula"].example)
    assert [i.name for i in worked.fan] == ["kong_bloom", "huang"]  # the cumulative 番 counted
    assert worked.points == worked.stake * worked.total_tai * 2 ** worked.total_fan
    assert f"= {worked.points}" in body(by_key["formula"], "en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_pictures_fit_a_phone_and_draw_only_known_glyphs(lang):
    import io

    from PIL import Image

    for _, p in ALL:
        png = render.render_guide(page_view(p, lang), lang)
        img = Image.open(io.BytesIO(png))
        assert img.width <= 760
        assert MIN_TEXT * 550 / WIDTH >= 12  # every text ≥ 12 px when shown 550 px wide
        view = page_view(p, lang)
        for s in [view["title"], *(r["caption"] for r in view["rows"])]:
            assert not missing_chars(s), (s, missing_chars(s))


def test_docs_howto_is_the_guides_text():
    doc = Path(__file__).resolve().parents[2] / "docs" / "howto.md"
    assert doc.read_text(encoding="utf-8") == markdown(), "regenerate: python3 -m jxbot.howto > docs/howto.md"


def test_terminal_text_has_every_page():
    for lang in ("zh", "en"):
        text = guide_text(lang)
        assert all(body(p, lang).splitlines()[0] in text for p in pages("jiaxing"))


def test_a_caishen_table_gets_the_common_pages_and_its_own():
    text = guide_text("en", "caishen")
    assert "The tiles and their names" in text and "Caishen: who pays what" in text
    assert "Full flush" not in text  # Jiaxing's patterns are not a 財神 table's
