"""A player's name on the standings and the /rank card is drawn as on the table and the result: characters the
bundled font lacks are dropped, and a name with nothing drawable left gets a fallback — never a row of "?"
(docs/render.md, "Player names")."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import render
from render import fonts
from tests.render.test_rank import VIEW as RANK


def _img(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _standings(names: list[str], lang: str) -> Image.Image:
    rows = [{"rank": i + 1, "name": n, "points": 3.0 - i, "placements": [1 + i]} for i, n in enumerate(names)]
    return _img(render.render_standings({"title": "Cup", "subtitle": "Swiss", "format": "swiss", "rows": rows}, lang))


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_standings_drop_what_the_font_lacks_instead_of_drawing_question_marks(lang: str) -> None:
    korean, emoji = "한국어 이름", "😀emoji🀄"
    assert fonts.missing_chars(korean + "😀🀄")  # the subset has none of these: they were drawn as "?"
    anon = "选手 1" if lang == "zh" else "Player 1"
    assert same(_standings([korean, emoji], lang), _standings([anon, "emoji"], lang))
    assert same(_standings([""], lang), _standings([anon], lang))
    assert not same(_standings(["alice"], lang), _standings([anon], lang))  # a drawable name is drawn


def test_the_rank_card_draws_the_name_as_the_table_does() -> None:
    plain = _img(render.render_rank({**RANK, "name": "alice"}, "en"))
    assert same(_img(render.render_rank({**RANK, "name": "😀alice🀄"}, "en")), plain)
    assert not same(_img(render.render_rank({**RANK, "name": "bob"}, "en")), plain)
