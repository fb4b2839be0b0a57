"""The evaluator's ``own_policy``: the viewing seat plays the level asked after the action (the expert oracle's
hard continuation, bench/expert_oracle.py), the other seats the playout policy."""

from __future__ import annotations

from jxbot.ai import montecarlo as mc
from jxbot.ai.players import make_player
from jxbot.game import Hand
from jxbot.game.hand import HandContext


def _first_turn_view() -> dict:
    ctx = HandContext(hand_id="own-policy", hand_number=1, dealer=0, round_wind=0, stake=1)
    hand = Hand.new(b"own-policy", context=ctx)
    while True:
        seat = min(hand.pending())
        view = hand.view(seat)
        if seat == 0 and sum(a["type"] == "discard" for a in view["actions"]) >= 2:
            return view
        hand.apply(make_player("normal", seat).choose(view))


def test_the_viewer_plays_the_level_asked(monkeypatch) -> None:
    view = _first_turn_view()
    made: list[tuple[str, object]] = []
    real = mc.make_player

    def spy(level: str, seed: str):
        made.append((level, seed))
        return real(level, seed)

    monkeypatch.setattr(mc, "make_player", spy)
    acts = view["actions"][:2]
    plain = mc.evaluate_view(view, seed="s", worlds=3, actions=acts)
    assert {lv for lv, _s in made} == {mc.PLAYOUT_LEVEL}  # the playout policy at every seat
    made.clear()
    own = mc.evaluate_view(view, seed="s", worlds=3, actions=acts, own_policy="easy")
    # one easy player for the viewer per world and action, seeded as the viewer's stream; the others unchanged
    easy = [s for lv, s in made if lv == "easy"]
    assert len(easy) == 6 and all(s.endswith("/p0") for s in easy)
    assert {lv for lv, _s in made if lv != "easy"} == {mc.PLAYOUT_LEVEL}
    # an easy player throws at random: the playouts differ from the fast player's
    assert [e.outcomes for e in own] != [e.outcomes for e in plain] or [e.wins for e in own] != [e.wins for e in plain]
