"""Computer players in real hands (jxbot.game), and the self-play loop."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from jxbot.ai import make_player
from jxbot.ai.selfplay import InvariantError, merge_results, play_hand, play_match, simulate
from jxbot.game import Hand, HandContext, Match
from jxbot.game.actions import ActionType


class Spy:
    """Wraps a player; records (view, action) pairs."""

    def __init__(self, inner):
        self.inner = inner
        self.level = inner.level
        self.log: list[tuple[dict, object]] = []

    def choose(self, view):
        a = self.inner.choose(view)
        self.log.append((view, a))
        return a


def _hand(seed) -> Hand:
    ctx = HandContext(hand_id=f"t-{seed}", hand_number=1, dealer=0, round_wind=0, stake=1,
                      cumulative_queue=(), previous_wildcard=None)
    return Hand.new(f"ai-test/{seed}", context=ctx)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), levels=st.lists(st.sampled_from(["normal", "easy"]),
                                                                    min_size=4, max_size=4))
def test_players_choose_only_legal_actions_in_real_hands(seed, levels):
    spies = [Spy(make_player(lv, seed + i)) for i, lv in enumerate(levels)]
    hand = play_hand(_hand(seed), spies)  # raises InvariantError on an unlisted action
    assert hand.phase == "ended"
    for spy in spies:
        for view, action in spy.log:
            assert action.to_json() in view["actions"]
            assert action.seat == view["viewer"]


def test_normal_player_always_takes_a_win_it_is_offered():
    offered = 0
    for seed in range(60):
        spies = [Spy(make_player("normal", f"w{seed}/{i}")) for i in range(4)]
        play_hand(_hand(f"win-{seed}"), spies)
        for spy in spies:
            for view, action in spy.log:
                types = {a["type"] for a in view["actions"]}
                if types & {"hu", "tsumo"}:
                    offered += 1
                    assert action.type in (ActionType.HU, ActionType.TSUMO)
    assert offered >= 30  # the property was really exercised


def test_normal_player_keeps_its_wildcard_in_real_hands():
    checked = 0
    for seed in range(30):
        spies = [Spy(make_player("normal", f"k{seed}/{i}")) for i in range(4)]
        play_hand(_hand(f"keep-{seed}"), spies)
        for spy in spies:
            for view, action in spy.log:
                if action.type is ActionType.DISCARD and view["wildcard"] is not None:
                    others = [a for a in view["actions"] if a["type"] == "discard" and a["tile"] != view["wildcard"]]
                    if others:
                        checked += 1
                        assert action.tile != view["wildcard"]
    assert checked > 500


def test_play_hand_refuses_an_illegal_choice():
    class Cheater:
        level = "cheater"

        def choose(self, view):
            from jxbot.game.actions import Action
            return Action(ActionType.TSUMO, view["viewer"], None)

    try:
        play_hand(_hand("cheat"), [Cheater()] * 4)
    except InvariantError as exc:
        assert "not a legal action" in str(exc)
    else:
        raise AssertionError("an illegal action went through")


def test_simulate_reports_figures_and_keeps_invariants():
    r = simulate(24, ["normal", "easy", "easy", "easy"], seed="t1", replay_every=4, census_every=1)
    for key in ("hands", "wins", "draws", "wins_by_seat", "points_by_seat", "self_draws", "pattern_counts",
                "avg_turns", "hands_per_second", "invariant_violations"):
        assert key in r
    assert r["hands"] == 24
    assert r["wins"] + r["draws"] == 24
    assert sum(r["wins_by_seat"]) == r["wins"]
    assert r["invariant_violations"] == 0, r["violations"]
    assert sum(r["points_by_seat"]) == 0  # house-backed seats: what the winners get, the losers paid
    assert sum(r["pattern_counts"].values()) >= r["wins"]  # every win has a pattern
    assert r["avg_turns"] > 10


def test_simulate_is_deterministic_given_the_seed():
    a = simulate(12, ["normal", "normal", "easy", "easy"], seed=5)
    b = simulate(12, ["normal", "normal", "easy", "easy"], seed=5)
    for k in ("wins_by_seat", "points_by_seat", "pattern_counts", "total_discards", "draws"):
        assert a[k] == b[k]


def test_merge_results_adds_parts_up():
    a = simulate(6, ["normal", "easy", "easy", "easy"], seed=1)
    b = simulate(6, ["normal", "easy", "easy", "easy"], seed=2)
    m = merge_results([a, b])
    assert m["hands"] == 12
    assert m["wins_by_seat"] == [x + y for x, y in zip(a["wins_by_seat"], b["wins_by_seat"], strict=True)]
    assert m["points_by_seat"] == [x + y for x, y in zip(a["points_by_seat"], b["points_by_seat"], strict=True)]


def test_normal_beats_easy_players():
    r = simulate(150, ["normal", "easy", "easy", "easy"], seed="strength")
    normal, easy = r["wins_by_seat"][0], max(r["wins_by_seat"][1:])
    assert normal >= 3 * easy, r["wins_by_seat"]
    assert r["points_by_seat"][0] > 0


def test_play_match_plays_a_full_round():
    match = Match("m-ai", rounds=1)
    seen = []
    play_match(match, [make_player("normal", i) for i in range(4)], on_hand=lambda h, s: seen.append(h.hand_id))
    assert match.over
    assert len(seen) == len(match.results) >= 4


def test_normal_player_claims_only_toward_a_pattern():
    """Its melds always leave some Jiaxing pattern possible: all pungs, or one suit (plus honors)."""
    claims = 0
    for seed in range(40):
        hand = play_hand(_hand(f"claims-{seed}"), [make_player("normal", f"c{seed}/{i}") for i in range(4)])
        for s in hand.public_view()["seats"]:
            melds = s["melds"]
            claims += sum(1 for m in melds if m["from_seat"] is not None)
            suits = {m["tiles"][0] // 9 for m in melds if m["tiles"][0] < 27}
            all_pungs = all(m["kind"] != "chow" for m in melds)
            assert all_pungs or len(suits) <= 1, melds
    assert claims >= 40  # the normal player does claim
