"""The caishen ruleset in pictures: its wildcard (財神) carries a 財 badge instead of 百搭's 搭, and real
caishen hands played by computers render at every stage (seat, public and result views)."""

import io

import pytest
from PIL import Image, ImageChops, ImageStat

import render
from render import demo, fonts, labels
from render.hand import GAP, PAD, TILE_W, layout
from render.tiles import BADGES, geometry, sprite

hand_mod = pytest.importorskip("jxbot.game.hand")
selfplay = pytest.importorskip("jxbot.ai.selfplay")
players_mod = pytest.importorskip("jxbot.ai.players")


def _diff(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


def _on_felt(spr: Image.Image, felt: Image.Image) -> Image.Image:
    out = felt.copy().convert("RGBA")
    out.alpha_composite(spr)
    return out.convert("RGB")


def test_the_caishen_badge_is_a_real_cai_glyph_from_the_bundled_font():
    assert BADGES == {"wild": "搭", "caishen": "財"}
    assert set("".join(BADGES.values())) <= set(labels.BADGE_CHARS)  # the font subset collects them
    assert not fonts.missing_chars("財")
    font = fonts.ui(60)
    cai, da = font.getmask("財"), font.getmask("搭")
    notdef = font.getmask("\u9fff")  # a hanzi the subset does not hold: the missing-glyph box
    assert bytes(cai) != bytes(da) and bytes(cai) != bytes(notdef)


def test_the_caishen_tile_differs_from_the_baida_tile_only_in_its_badge():
    w = 96
    g = geometry(w)
    for k in (0, 13, 31):
        wild, cai = sprite(k, w, "wild"), sprite(k, w, "caishen")
        assert wild.size == cai.size
        # top-right corner: the badge (radius 0.2 × width, inside the gold edge)
        badge = (round(g.w * 0.5), 0, g.w, round(g.w * 0.5))
        assert _diff(wild.crop(badge), cai.crop(badge)) > 3
        rest = (0, round(g.w * 0.55), wild.width, wild.height)
        assert _diff(wild.crop(rest), cai.crop(rest)) == 0
        assert _diff(sprite(k, w), cai) > 8  # still the gold wildcard face, not a plain tile


@pytest.mark.parametrize("ruleset, want, other", [("caishen", "caishen", "wild"), ("jiaxing", "wild", "caishen")])
def test_the_wildcard_in_a_hand_carries_its_rulesets_badge(ruleset, want, other):
    v = {**demo.seat_view(), "ruleset": ruleset}
    wc = v["wildcard"]
    assert v["hand"][0] == wc  # the wildcard sorts to the far left
    img = Image.open(io.BytesIO(render.render_hand(v, "zh"))).convert("RGB")
    top = _tiles_top(v)
    box = (PAD, top, PAD + TILE_W, top + sprite(wc, TILE_W).height)
    shown = img.crop(box)
    felt = shown.copy()  # the sprite has transparent corners: compare both candidates on the same felt
    near = _diff(shown, _on_felt(sprite(wc, TILE_W, want), felt))
    far = _diff(shown, _on_felt(sprite(wc, TILE_W, other), felt))
    assert near < far
    # the second tile is no wildcard: same picture in either ruleset
    box2 = (PAD + TILE_W + GAP, box[1], PAD + 2 * TILE_W + GAP, box[3])
    plain = Image.open(io.BytesIO(render.render_hand({**v, "ruleset": "jiaxing" if ruleset == "caishen"
                                                       else "caishen"}, "zh"))).convert("RGB")
    assert _diff(img.crop(box2), plain.crop(box2)) == 0


def test_the_header_names_the_wildcard_caishen():
    cs = render.render_hand({**demo.seat_view(), "ruleset": "caishen"}, "zh")
    jx = render.render_hand(demo.seat_view(), "zh")
    a, b = (Image.open(io.BytesIO(p)).convert("RGB") for p in (cs, jx))
    header = (0, 0, a.width, _tiles_top(demo.seat_view()) - 4)
    assert _diff(a.crop(header), b.crop(header)) > 0.2  # 财神 / 財 badge instead of 百搭 / 搭


def _tiles_top(view: dict) -> int:
    """The top of the concealed tiles, from the renderer's layout (below the header)."""
    return min(op[2] for op in layout(view, "zh").ops if op[0] == "tile" and op[3] == TILE_W)


def _check(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.width <= 1280 and img.height <= 1280
    return img


@pytest.mark.parametrize("seed", [1, 2])
def test_real_caishen_hands_render_at_every_stage(seed):
    players = [players_mod.make_player("normal" if s == 0 else "easy", f"cs{seed}-{s}") for s in range(4)]
    hand = hand_mod.Hand.new(f"render-caishen-{seed}", ruleset="caishen")
    steps = {"n": 0, "wild_seen": 0}

    def on_step(h):
        steps["n"] += 1
        if steps["n"] % 12 == 0 and h.phase != "ended":
            for seat in h.pending() or [h.turn]:
                v = h.view(seat)
                assert v["ruleset"] == "caishen"
                steps["wild_seen"] += v["hand"].count(v["wildcard"])
                _check(render.render_hand(v, "zh"))
            _check(render.render_table(h.public_view(), "en"))

    selfplay.play_hand(hand, players, on_step=on_step)
    assert steps["n"] > 12
    hand.settle([1000, 1000, 1000, 1000], fee=1)
    result = hand.result_view()
    assert result["ruleset"] == "caishen"
    for lang in ("zh", "en"):
        _check(render.render_result(result, lang))
    _check(render.render_table(hand.public_view(), "zh"))
    for seat in range(4):
        _check(render.render_hand(hand.view(seat), "en"))


def test_a_won_caishen_hand_shows_multipliers_and_the_cai_badge():
    """Hands are played until one is won; its result picture is drawn in both languages."""
    for n in range(20):
        players = [players_mod.make_player("normal", f"w{n}-{s}") for s in range(4)]
        hand = selfplay.play_hand(hand_mod.Hand.new(f"render-caishen-win-{n}", ruleset="caishen"), players)
        if hand.result is not None and not hand.result.drawn_game:
            break
    else:
        pytest.fail("no caishen hand was won in 20 tries")
    hand.settle([1000, 1000, 1000, 1000], fee=0)
    result = hand.result_view()
    score = result["score"]
    mult = 1
    for item in score["fan"]:
        mult *= item["value"]
    assert mult >= 2 and score["points"] == score["stake"] * mult
    zh = _check(render.render_result(result, "zh"))
    en = _check(render.render_result(result, "en"))
    assert zh.size[0] == en.size[0]
