"""Panel layout and labels from seat views (docs/views.md), and the commands around a running table."""

from jxbot.custom_ids import parse_custom_id
from jxbot.rules.tiles import parse_tile, parse_tiles

from .test_play import ALICE, MALLORY, discard_buttons, game, panel, start_table  # noqa: F401


def view_with(actions, wildcard=None, phase="turn"):
    return {"actions": actions, "wildcard": wildcard, "phase": phase, "seats": [{"seat_wind": i} for i in range(4)]}


def rows(v):
    out = {}
    for item in v.children:
        out.setdefault(item.row, []).append(item)
    return out


def test_turn_panel_biggest_case_fits_discord_limits():
    from jxbot.shell.buttons import panel_components

    hand = parse_tiles("1234567m1234567p")  # 14 distinct kinds
    acts = [{"type": "discard", "seat": 0, "tile": x} for x in hand]
    acts += [{"type": "tsumo", "seat": 0, "tile": None}]
    acts += [{"type": "angang", "seat": 0, "tile": x} for x in parse_tiles("123m")]
    acts += [{"type": "bugang", "seat": 0, "tile": parse_tile("5p")}]
    v = panel_components("abc", 0, 7, view_with(acts, wildcard=parse_tile("5p")), "zh")
    r = rows(v)
    assert all(len(items) <= 5 for items in r.values()) and max(r) <= 4
    labels = [i.item.label for i in v.children]
    assert labels[0] == "★5筒"  # the 百搭 first, marked
    assert len([i for i in v.children if parse_custom_id(i.custom_id).verb == "discard"]) == 14
    assert "自摸" in labels and "暗杠 1万" in labels and "补杠 5筒" in labels and labels[-1] == "自动胡"
    cids = [parse_custom_id(i.custom_id) for i in v.children]
    assert all(c.seat == 0 and c.nonce == "7" and c.table == "abc" for c in cids)
    assert len({i.custom_id for i in v.children}) == len(v.children)  # Discord requires unique ids


def test_claim_panel_one_button_per_chow_and_pass():
    from jxbot.shell.buttons import panel_components

    acts = [{"type": t, "seat": 1, "tile": x} for t, x in
            [("hu", None), ("gang", None), ("peng", None), ("chi", 2), ("chi", 3), ("chi", 4), ("pass", None)]]
    v = panel_components("abc", 1, 3, view_with(acts, phase="claim"), "zh")
    labels = [i.item.label for i in v.children]
    assert labels[:3] == ["胡", "杠", "碰"]
    assert labels[3:6] == ["吃 345万", "吃 456万", "吃 567万"]
    assert "过" in labels
    verbs = [(parse_custom_id(i.custom_id).verb, parse_custom_id(i.custom_id).arg) for i in v.children]
    assert ("chi", 2) in verbs and ("pass", None) in verbs


def test_contract_panel_and_english_labels():
    from jxbot.shell.buttons import panel_components

    acts = [{"type": "persist", "seat": 2, "tile": None}, {"type": "give_up", "seat": 2, "tile": None}]
    v = panel_components("abc", 2, 1, view_with(acts, phase="contract"), "en")
    assert [i.item.label for i in v.children][:2] == ["Persist", "Give up"]
    en = panel_components("abc", 0, 1, view_with([{"type": "discard", "seat": 0, "tile": 4}]), "en")
    assert en.children[0].item.label == "5m"


async def test_hand_start_addbot_status_commands(game):  # noqa: F811
    h, fake = game, game.fake
    await h.command(ALICE, "mahjong create", stake=1)
    await h.command(ALICE, "mahjong addbot")
    assert "Computer player added" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "mahjong hand")
    assert "not started" in fake.last_ephemeral(ALICE)
    await h.command(ALICE, "mahjong start")
    assert "Started" in fake.last_ephemeral(ALICE)
    table = h.table()
    view = table.session.runner.view(0)
    n_dms = len(fake.dms(ALICE))
    await h.command(ALICE, "mahjong hand")  # sends the panel again, as a new DM
    assert "sent to you" in fake.last_ephemeral(ALICE) and len(fake.dms(ALICE)) == n_dms + 1
    assert discard_buttons(panel(fake, ALICE))
    await h.command(MALLORY, "mahjong status")
    status = fake.last_ephemeral(MALLORY)
    assert "Hand 1" in status and "tiles left" in status
    from jxbot.rules.tiles import tile_name

    assert " ".join(tile_name(x, "en") for x in view["hand"]) not in status  # nothing concealed
    await h.command(ALICE, "mahjong join")
    assert "already seated" in fake.last_ephemeral(ALICE)
    await h.command(MALLORY, "mahjong join")
    assert "already started" in fake.last_ephemeral(MALLORY)


def test_channel_status_shows_a_countdown_on_claims_and_no_dash_on_a_computers_turn():
    from jxbot.shell.texts import status_text

    seats = [{"name": n, "seat_wind": i} for i, n in enumerate(["alice", "cpu1", "cpu2", "cpu3"])]
    base = {"hand_number": 1, "round_wind": 0, "dealer": 0, "wildcard": None, "wall_remaining": 80, "seats": seats}
    claim = status_text({**base, "phase": "claim", "last_discard": {"seat": 1, "tile": 4}, "deadline": 1_700_000_005.4},
                        "zh")
    assert "<t:1700000005:R>" in claim.splitlines()[1]
    cpu = status_text({**base, "phase": "turn", "turn": 2, "deadline": None}, "en").splitlines()[1]
    assert cpu == "cpu2 (West) to play"  # a computer's move: no "time runs out —"
    human = status_text({**base, "phase": "turn", "turn": 0, "deadline": 1_700_000_020.0}, "en").splitlines()[1]
    assert human.endswith("time runs out <t:1700000020:R>")


def test_background_pictures_take_turns_in_every_event_loop(monkeypatch):
    import asyncio
    import time

    import jxbot.shell.pictures as play
    from jxbot import drawing

    def fake_png(kind, view, lang):
        time.sleep(0.02)
        return b"png", 0.02, None

    monkeypatch.setattr(drawing, "draw", fake_png)

    async def burst():
        t0 = time.perf_counter()
        out = await asyncio.gather(*(play.render_async("table", {}, "zh") for _ in range(3)),
                                   play.render_async("hand", {}, "zh", urgent=True))
        return out, time.perf_counter() - t0

    for _ in range(2):  # a second loop must not trip over the first one's gate
        out, took = asyncio.run(burst())
        assert out == [b"png"] * 4
        assert took >= 3 * 0.02 * 2 * 0.9  # three background pictures, one after another, each followed by a rest
