"""The renderer against views produced by the real game engine (skipped if it is not importable)."""

import io

import pytest
from PIL import Image

import render

hand_mod = pytest.importorskip("jxbot.game.hand")
selfplay = pytest.importorskip("jxbot.ai.selfplay")
players_mod = pytest.importorskip("jxbot.ai.players")


def _check(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.width <= 1280
    return img


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_real_hands_render_at_every_stage(seed):
    players = [players_mod.make_player("easy", f"{seed}-{s}") for s in range(4)]
    hand = hand_mod.Hand.new(f"render-{seed}")
    steps = {"n": 0}

    def on_step(h):
        steps["n"] += 1
        if steps["n"] % 15 == 0 and h.phase != "ended":
            for seat in h.pending() or [h.turn]:
                _check(render.render_hand(h.view(seat), "zh"))
            _check(render.render_table(h.public_view(), "en"))

    selfplay.play_hand(hand, players, on_step=on_step)
    assert steps["n"] > 15
    hand.settle([1000, 1000, 1000, 1000], fee=2)
    result = hand.result_view()
    for lang in ("zh", "en"):
        _check(render.render_result(result, lang))
    _check(render.render_table(hand.public_view(), "zh"))
