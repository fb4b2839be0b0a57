#!/usr/bin/env python3
"""Measure the hard player's win-chance table (``jxbot.ai.hard._WIN``) from four normal players.

For every discard of every seat: the seat's best target shanten after the discard and its draws left
(``wall_remaining // 4``, in steps of 3); at the end of the hand, whether that seat won. Prints, per
shanten (rows 0..6), the share won per draws-left column (None under 20 samples) and the sample counts.

Usage: ``python scripts/ai_win_table.py [HANDS]`` (1500 gave the committed table, ~20 s).
"""

from __future__ import annotations

import sys
from collections import defaultdict

from jxbot.ai.evaluate import TARGETS, HandShape
from jxbot.ai.players import NormalPlayer, _Table
from jxbot.ai.selfplay import play_hand
from jxbot.game import Match


class _Recorder:
    level = "normal"

    def __init__(self, player: NormalPlayer, seat: int, log: list) -> None:
        self.player, self.seat, self.log = player, seat, log

    def choose(self, view: dict):
        a = self.player.choose(view)
        if a.type.value == "discard":
            tb = _Table(view)
            c = tb.counts.copy()
            c[a.tile] -= 1
            sh = HandShape(c, tb.melds, tb.wild)
            s = min(sh.shanten(t) for t in TARGETS)
            self.log.append((self.seat, min(s, 6), min(view["wall_remaining"] // 4 // 3, 6)))
        return a


def main(hands: int) -> None:
    stat: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    done = m = 0
    while done < hands:
        match = Match(f"calib/{m}")
        players = [NormalPlayer(f"c{m}/{i}") for i in range(4)]
        m += 1
        while not match.over and done < hands:
            hand = match.next_hand()
            log: list = []
            play_hand(hand, [_Recorder(p, i, log) for i, p in enumerate(players)])
            hand.settle([None] * 4)
            assert hand.result is not None
            for seat, s, col in log:
                st = stat[(s, col)]
                st[0] += 1
                st[1] += hand.result.winner == seat
            match.finish_hand(hand)
            done += 1
    for s in range(7):
        row = [stat[(s, c)] for c in range(7)]
        print(s, [round(k / n, 3) if n >= 20 else None for n, k in row], [n for n, _k in row])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1500)
