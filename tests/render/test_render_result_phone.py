"""The result picture on a phone (about 550 px wide): the formula's legend (底分 × 台 × 2^番) reads at
12 px or more, on its own line under the formula."""

from __future__ import annotations

import pytest

from render import common, demo
from render import result as result_mod

PHONE = 550


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_formula_legend_reads_on_a_phone(monkeypatch, lang):
    calls: list[tuple[str, float, float]] = []  # (text, size, y)
    real = common.text

    def spy(dr, xy, s, size, *a, **kw):
        calls.append((s, size, xy[1]))
        return real(dr, xy, s, size, *a, **kw)

    monkeypatch.setattr(common, "text", spy)
    img = result_mod.draw_result(demo.result_view(), lang)
    legend = [c for c in calls if "2^" in c[0]]
    assert len(legend) == 1, calls
    _, size, y = legend[0]
    assert size * PHONE / img.width >= 12, (size, img.width)
    formula = [c for c in calls if c[0].strip() == "="]  # the formula's "=" sits on its baseline
    assert formula and y - formula[0][2] >= size, "the legend is not on a line of its own under the formula"
