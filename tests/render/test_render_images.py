"""The three pictures: deterministic bytes, size limits, hidden tiles stay hidden, golden images."""

import copy
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

import render
from render import demo, tiles
from render.common import claim_position
from render.hand import discard_indices

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("JXBOT_REGEN_GOLDEN") == "1"


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


CASES = {
    "hand-zh": lambda: render.render_hand(demo.seat_view(), "zh"),
    "hand-en": lambda: render.render_hand(demo.seat_view(), "en"),
    # the widest hands a game can produce, drawn for a phone (tests/render/test_render_hand_phone.py)
    "hand-full-zh": lambda: render.render_hand(demo.widest_seat_views()["full"], "zh"),
    "hand-full-en": lambda: render.render_hand(demo.widest_seat_views()["full"], "en"),
    "hand-kongs-zh": lambda: render.render_hand(demo.widest_seat_views()["kongs"], "zh"),
    "hand-melds-en": lambda: render.render_hand(demo.widest_seat_views()["melds"], "en"),
    "table-zh": lambda: render.render_table(demo.table_view(), "zh"),
    "table-en": lambda: render.render_table(demo.table_view(), "en"),
    "table-caishen-zh": lambda: render.render_table({**demo.table_view(), "ruleset": "caishen"}, "zh"),
    "result-zh": lambda: render.render_result(demo.result_view(), "zh"),
    "result-drawn-en": lambda: render.render_result(demo.result_view(drawn_game=True), "en"),
    "tiles-zh": lambda: render.render_tile_sheet("zh"),
    "rules-zh": lambda: render.render_rules("zh"),
    "rules-en": lambda: render.render_rules("en"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_input_same_bytes_even_after_a_cold_sprite_cache(name):
    first = CASES[name]()
    tiles.clear_cache()
    assert CASES[name]() == first


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_image(name):
    """Compared at half size with a tolerance, so a Pillow/FreeType update does not fail it but a
    moved seat, a lost tile or a wrong colour does. JXBOT_REGEN_GOLDEN=1 rewrites the goldens."""
    small = _half(CASES[name]())
    path = GOLDEN / f"{name}.png"
    if REGEN or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        small.quantize(256).save(path, optimize=True)
        if not REGEN:
            pytest.fail(f"golden {path.name} was missing and has been written; check it and commit it")
    assert _matches(small, Image.open(path).convert("RGB"))


def _half(data: bytes) -> Image.Image:
    img = _png(data).convert("RGB")
    return img.resize((img.width // 2, img.height // 2), Image.Resampling.LANCZOS)


def _matches(small: Image.Image, want: Image.Image) -> bool:
    """Same size, small mean difference, and under 1% of pixels clearly changed."""
    if small.size != want.size:
        return False
    diff = ImageChops.difference(small, want).convert("L")
    mean = ImageStat.Stat(diff).mean[0]
    changed = diff.point(lambda v: 255 if v > 48 else 0).histogram()[255] / (small.width * small.height)
    return mean < 4.0 and changed < 0.01


def test_the_golden_comparison_catches_one_changed_tile():
    v = demo.seat_view()
    want = Image.open(GOLDEN / "hand-zh.png").convert("RGB")
    assert _matches(_half(render.render_hand(v, "zh")), want)
    v["hand"][5] = (v["hand"][5] + 10) % 34  # one different tile in the hand
    assert not _matches(_half(render.render_hand(v, "zh")), want)


def _big_hand_view():
    """The widest possible hand: four kongs (one of each kind), a pair and a drawn tile."""
    v = demo.seat_view()
    me = v["viewer"]
    v["seats"][me]["melds"] = [
        {"kind": "kong", "tiles": [0] * 4, "from_seat": (me + 3) % 4, "claimed": 0},
        {"kind": "added_kong", "tiles": [10] * 4, "from_seat": (me + 2) % 4, "claimed": 10},
        {"kind": "concealed_kong", "tiles": [20] * 4, "from_seat": None, "claimed": None},
        {"kind": "kong", "tiles": [33] * 4, "from_seat": (me + 1) % 4, "claimed": 33},
    ]
    v["hand"], v["drawn"] = [27], 27
    return v


def test_sizes_stay_within_limits():
    for data in (render.render_hand(demo.seat_view(), "zh"), render.render_hand(_big_hand_view(), "en")):
        img = _png(data)
        assert img.width <= 1280 and len(data) <= 80 * 1024
    v = demo.seat_view()
    v["hand"] = [v["wildcard"]] * 3 + list(range(10))  # 13 tiles, three 百搭
    img = _png(render.render_hand(v, "zh"))
    assert img.width <= 1280
    t = demo.table_view()
    for s in t["seats"]:  # a very long hand: 30 discards each
        s["discards"] = [{"tile": (i * 7 + s["seat"]) % 34, "claimed": i % 5 == 0} for i in range(30)]
    for data in (render.render_table(t, "zh"), render.render_result(demo.result_view(), "en")):
        img = _png(data)
        assert img.width <= 1280 and img.height <= 1280


def test_the_table_never_shows_a_concealed_tile():
    """A seat view given to the table renderer draws exactly what the public view draws."""
    v = demo.seat_view()
    other = copy.deepcopy(v)
    other["hand"] = sorted((t + 5) % 34 for t in v["hand"])
    other["drawn"] = None if v["drawn"] is None else (v["drawn"] + 9) % 34
    assert render.render_table(v, "zh") == render.render_table(other, "zh")


def test_long_and_odd_names_do_not_break_the_layout():
    t = demo.table_view()
    t["seats"][0]["name"] = "W" * 80
    t["seats"][1]["name"] = "\U0001f600\U0001f600"
    t["seats"][2]["name"] = None
    t["seats"][3]["balance"] = None
    t["contract"] = [0, 1]
    t["seats"][2]["gave_up"] = True
    t["phase"] = "contract"
    assert _png(render.render_table(t, "en")).width == 640  # the phone-sized table (render/table.py)


def test_discard_numbers_follow_the_hand_then_the_drawn_tile():
    v = {"hand": [3, 4, 5], "drawn": 9}
    assert discard_indices(v) == [(1, 3), (2, 4), (3, 5), (4, 9)]
    assert discard_indices({"hand": [3], "drawn": None}) == [(1, 3)]


def test_claimed_tile_turns_toward_the_seat_it_came_from():
    # seat 0: previous seat (上家) is 3 -> left, across is 2 -> middle, next seat 1 -> right
    assert claim_position("pung", 3, 3, 0) == 0
    assert claim_position("pung", 3, 2, 0) == 1
    assert claim_position("pung", 3, 1, 0) == 2
    assert claim_position("kong", 4, 1, 0) == 3
    assert claim_position("concealed_kong", 4, None, 0) is None


def test_hand_needs_a_seat_view():
    with pytest.raises(ValueError, match="seat view"):
        render.render_hand(demo.table_view(), "zh")


def test_render_imports_nothing_from_the_game_the_runner_or_discord():
    code = ("import sys, render; from render import demo; render.render_table(demo.table_view());"
            "render.render_hand(demo.seat_view()); render.render_result(demo.result_view());"
            "bad=[m for m in sys.modules if m.startswith(('jxbot.game','jxbot.table','discord','cogs'))];"
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert r.returncode == 0, r.stdout + r.stderr


def test_cli_writes_the_demo_pictures(tmp_path):
    from jxbot.cli import main

    assert main(["render", "--demo", str(tmp_path), "--lang", "en"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["hand-full.png", "hand-kongs.png", "hand.png", "result-drawn.png", "result.png", "rules.png",
                     "table.png", "tiles.png"]
    for p in tmp_path.iterdir():
        assert _png(p.read_bytes()).width <= 1280
    assert main(["render"]) == 2


def test_cli_writes_phone_copies_550_px_wide(tmp_path):
    from jxbot.cli import main

    assert main(["render", "--demo", str(tmp_path), "--lang", "both", "--phone"]) == 0
    phone = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("phone-"))
    kinds = ("hand", "hand-full", "hand-kongs", "result", "rules", "table")
    assert phone == sorted(f"phone-{k}-{lang}.png" for k in kinds for lang in ("en", "zh"))
    for name in phone:
        assert Image.open(tmp_path / name).width == 550


def test_the_hand_offers_the_claimable_tile_with_the_claims_in_priority_order():
    from render.hand import _claim

    v = demo.seat_view(seat=0)
    v["phase"], v["last_discard"] = "claim", {"seat": 3, "tile": 27}
    v["actions"] = [{"type": "peng", "seat": 0, "tile": 27}, {"type": "hu", "seat": 0, "tile": 27},
                    {"type": "pass", "seat": 0, "tile": None}]
    assert _claim(v) == (27, ["hu", "peng"])
    plain = dict(v, actions=[{"type": "pass", "seat": 0, "tile": None}])
    assert _claim(plain) is None
    assert render.render_hand(v, "zh") != render.render_hand(plain, "zh")
    rob = dict(v, phase="rob", pending_kong={"seat": 2, "tile": 15}, actions=[{"type": "hu", "seat": 0, "tile": 15}])
    assert _claim(rob) == (15, ["hu"])


def test_warm_up_builds_the_caches_the_first_image_needs():
    from render import palette

    tiles.clear_cache()
    palette.palette.cache_clear()
    render.warm_up()
    assert palette.palette.cache_info().currsize == 1
    assert tiles.sprite.cache_info().currsize > 30


def test_the_shipped_palette_is_the_one_the_images_give():
    """render/assets/palette.bin spares each drawing process the ~1 s median cut. It must stay the cut of
    the current colours: the reserved colours (felt ramp, text, tiles) exactly, the cut's rest near enough
    that a Pillow update does not fail this but a changed colour scheme does (then run
    ``python3 -c "import render.palette as p; p.write_palette()"``)."""
    from render import palette as C

    shipped = list(C.PALETTE_FILE.read_bytes())
    fresh = C.build_palette().getpalette() or []
    assert len(shipped) == 768 and C.palette().getpalette() == shipped  # what the images use
    rgb = lambda flat: [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]  # noqa: E731
    want, have = rgb(fresh), rgb(shipped)
    reserved = len(C.felt_ramp()) + 20
    assert have[:reserved] == want[:reserved]
    near = sum(1 for c in want if min(sum((a - b) ** 2 for a, b in zip(c, h, strict=True)) for h in have) <= 12 ** 2)
    assert near >= 0.95 * len(want)
