"""Every payment is explained (issue 26): the result text and the result picture say, per seat, the
multiplier and why (承包, 放弃, 抢杠, escape, a cap at the balance, the fee; for 财神 the dealer's 底 and
放铳), for real hands played through the engine and settled by the real rules."""

from __future__ import annotations

import jxbot.botstrings  # noqa: F401  (registers the result texts)
import render
import render.common as C
from jxbot.shell.texts import result_text
from tests.caishen.helpers import cs_hand
from tests.game.helpers import T, act, pass_all
from tests.game.test_contract import to_contract
from tests.game.test_kongs import rob_setup


def picture_texts(view: dict, lang: str, monkeypatch) -> list[str]:
    drawn: list[str] = []
    real = C.text

    def text(dr, xy, s, *a, **k):
        drawn.append(str(s))
        return real(dr, xy, s, *a, **k)

    monkeypatch.setattr(C, "text", text)
    render.render_result(view, lang)
    monkeypatch.setattr(C, "text", real)
    return drawn


def settled(h, balances, fee=0) -> dict:
    h.settle(balances, fee=fee)
    return h.result_view()


def lines(view: dict, lang: str) -> dict[int, str]:
    """The result text's payment line of each seat (the names are p0 … p3)."""
    out = {}
    for line in result_text(view, lang).splitlines()[1:]:
        out[int(line[1])] = line
    return out


def named(view: dict) -> dict:
    return {**view, "payments": [{**p, "name": f"p{p['seat']}"} for p in view["payments"]]}


def test_a_contract_win_with_a_give_up_says_who_pays_x2_and_who_pays_nothing(monkeypatch):
    h = to_contract()  # the pair is seats 1 and 0; seat 2 is ready on any 筒 tile
    act(h, "persist", 2)
    act(h, "give_up", 3)
    act(h, "discard", 1, "3z")
    pass_all(h)
    assert h.turn == 2 and h.drawn == T("3p")
    act(h, "tsumo", 2)
    view = named(settled(h, [1000, 1000, 1000, 1000], fee=3))
    pts = view["score"]["points"]
    assert [p["why"] for p in view["payments"]] == [[["contract", 2]], [["contract", 2]], [], [["gave_up", 0]]]
    zh, en = lines(view, "zh"), lines(view, "en")
    assert f"承包 ×2 · {pts} × 2 = {2 * pts} · 服务费 3" in zh[0] and f"承包 ×2 · {pts} × 2 = {2 * pts}" in zh[1]
    assert "放弃 ×0" in zh[3] and "gave up (放弃) ×0" in en[3]
    assert f"receives {4 * pts}" in en[2]
    for lang, label in (("zh", "承包 ×2"), ("en", "contract (承包) ×2")):
        texts = picture_texts(view, lang, monkeypatch)
        assert any(label in s and f"= {2 * pts}" in s for s in texts)
        assert any(("放弃 ×0" if lang == "zh" else "gave up (放弃) ×0") in s for s in texts)


def test_a_robbed_kong_says_the_robbed_seat_pays_x3_and_an_escape_and_a_cap_are_named(monkeypatch):
    h = rob_setup()
    h.escape(2)
    act(h, "bugang", 2, "5m")
    act(h, "hu", 3)
    view = named(settled(h, [1000, 1000, 2, 1000], fee=1))
    pts = view["score"]["points"]
    robbed = view["payments"][2]
    assert robbed["why"] == [["rob", 3], ["escape", 3]] and robbed["owed"] == 3 * pts and robbed["capped"]
    zh, en = lines(view, "zh"), lines(view, "en")
    assert f"被抢杠 ×3 · 逃跑：照付 · {pts} × 3 = {3 * pts} · 余额封顶：只付 2" in zh[2]
    assert "robbed (抢杠) ×3 · escaped: pays · 15 × 3 = 45 · capped: paid 2".replace("15", str(pts)).replace("45", str(3 * pts)) in en[2]
    assert "×0" in en[0] and "×0" in en[1]  # the others pay nothing on a robbed kong
    texts = picture_texts(view, "en", monkeypatch)
    assert any("robbed (抢杠) ×3" in s and "capped: paid 2" in s for s in texts)


def test_a_caishen_result_says_the_dealers_base_and_the_discarders_extra_share(monkeypatch):
    h = cs_hand({0: "147m258s1234567z7p", 1: "1122334455667p", 2: "369m258p147s1234z", 3: "258m147p369s4566z"},
                caishen="9s", streak=1)
    act(h, "discard", 0, "7p")
    act(h, "hu", 1)
    pass_all(h)
    view = named(settled(h, [None] * 4))
    assert view["payments"][0]["why"] == [["dealer_base", 3], ["discarder", 2]]
    assert view["payments"][2]["why"] == [["share", 1]]
    zh, en = lines(view, "zh"), lines(view, "en")
    assert "庄家 底 ×3 · 放铳 ×2 · 2 × 6 = 12" in zh[0] and "闲家 ×1 · 2 × 1 = 2" in zh[2]
    assert "dealer: base (底) ×3 · discarder (放铳) ×2" in en[0]
    for lang in ("zh", "en"):
        assert "財" not in result_text(view, lang)
        texts = picture_texts(view, lang, monkeypatch)
        assert any(("庄家 底 ×3" if lang == "zh" else "dealer: base (底) ×3") in s and "= 12" in s for s in texts)


def test_the_headline_says_the_points_are_multiplied_per_seat():
    h = to_contract()
    act(h, "persist", 2)
    act(h, "give_up", 3)
    act(h, "discard", 1, "3z")
    pass_all(h)
    act(h, "tsumo", 2)
    view = named(settled(h, [1000] * 4))
    assert "(each seat pays it × its multiplier below)" in result_text(view, "en").splitlines()[0]
    assert "每家再乘以下面的倍数" in result_text(view, "zh").splitlines()[0]


def test_a_win_by_one_of_the_pair_says_the_partner_pays_x5_and_the_persisting_seats_x2():
    from jxbot.rules.explain import explain
    from jxbot.rules.settle import settle

    s = settle(winner=1, points=12, contract=(1, 0), gave_up=(3,), balances=[1000, 1000, 1000, 1000], fee=2)
    rows = s.payments([1000, 1000, 1000, 1000])
    assert explain(rows[0], 12, "zh") == "承包 ×5 · 12 × 5 = 60 · 服务费 2"
    assert explain(rows[2], 12, "en") == "persisted (坚持) ×2 · 12 × 2 = 24 · fee 2"
    assert explain(rows[3], 12, "en") == "gave up (放弃) ×0 · fee 2"
    assert explain(rows[1], 12, "en") == "receives 84 · fee 2"
