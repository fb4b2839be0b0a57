"""The ruleset interface: everything that differs between variants, asked of one object.

A ruleset is two things: its **data** (a ``jxbot.rules.Ruleset``: every RULES.md ``[default]`` is a
field, a table may override fields) and its **behaviour** (an object satisfying ``RulesetPlugin``
below). ``Ruleset.family`` names the registered behaviour that plays the data (``jxbot.rulesets``'s
``behaviour(rs)``); ``Ruleset.name`` is what tables, hands and replays store.

The core (tiles, shape tables, ``jxbot.game.Hand``, ``Match``, the table runner, the computer players'
search, the renderer, the cogs, the terminal) calls these hooks and never compares a ruleset's name.
Shared machinery lives in the core and is used by the rulesets, never the other way round: a ruleset
package imports ``jxbot.rules``, ``jxbot.game`` and ``jxbot.ai``; the core imports only this module
and the registry (``jxbot.rulesets``), which loads the ruleset packages lazily.

The easiest way to add a ruleset is to subclass an existing one (``jxbot.rulesets.jiaxing.plugin.
Jiaxing`` implements every hook with the Jiaxing rules) and override the hooks that differ; see
docs/rulesets.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from jxbot.game.actions import Action
    from jxbot.game.hand import Hand
    from jxbot.rules.contract import Score, Settlement
    from jxbot.rules.melds import Meld
    from jxbot.rules.ruleset import Ruleset


@runtime_checkable
class RulesetPlugin(Protocol):
    """What a ruleset answers. Hooks taking ``hand`` read the live ``jxbot.game.Hand`` (its state,
    ``hand.ruleset`` for the table's data) and must not change it; all are pure (no I/O, no clock)."""

    name: str
    """Registry key, stored with tables and hands (``/mahjong create ruleset:``, ``--ruleset``)."""
    data: Ruleset
    """The default fields; ``data.name == name`` and ``data.family`` = the behaviour (usually ``name``)."""

    # ---------------------------------------------------------------- texts and pictures
    wildcard_key: str
    """i18n key suffix of the wildcard's name: ``wildcard`` (百搭) or ``wildcard.caishen`` (財神);
    render looks up ``render.<key>``, the terminal ``table.ui.wword.<name>`` falls back to it."""
    ui_wildcard_key: str
    """The terminal's i18n key of the wildcard's name (``table.ui.wword.jiaxing`` = 百搭)."""
    badge: str
    """The wildcard's sprite variant in ``render.tiles`` (``wild`` = 搭 badge, ``caishen`` = 財)."""
    multiplier_scoring: bool
    """Items are multipliers (倍, points = stake × their product), not 台 × 2^番."""

    def title(self, lang: str | None) -> str:
        """The ruleset's name for players (``嘉兴`` / ``jiaxing``): choices, rules cards."""
        ...

    def rules_summary(self, lang: str | None, stake: int) -> str:
        """``/mahjong rules``' text."""
        ...

    def card(self) -> dict[str, Any]:
        """What ``render.rules_card`` draws: ``{"wildcard": "9s", "examples": [(tiles, win, melds,
        score), ...]}`` (see render/rules_card.py for the layout)."""
        ...

    # ---------------------------------------------------------------- pure rules (jxbot.rules dispatches here)
    def is_winning(self, concealed: Sequence[int], melds: Sequence[Meld], wildcard: int | None,
                   rs: Ruleset) -> bool: ...

    def waits(self, concealed: Sequence[int], melds: Sequence[Meld], wildcard: int | None,
              rs: Ruleset) -> set[int]: ...

    def score_win(self, concealed: Sequence[int], win_tile: int, melds: Sequence[Meld], *, rs: Ruleset,
                  **context: Any) -> Score:
        """``jxbot.rules.score_win``'s keyword arguments (after validation of the context)."""
        ...

    # ---------------------------------------------------------------- the hand (jxbot.game.Hand calls these)
    def dead_indices(self, hand: Hand, indicator_index: int | None) -> frozenset[int]:
        """Wall indices out of play (the indicator; reserves held back)."""
        ...

    def meld_claims(self, hand: Hand, seat: int, tile: int, *, chow: bool) -> list[Action]:
        """The 明杠 / 碰 / 吃 ``seat`` may make on the discard ``tile`` (``chow``: it is the next seat)."""
        ...

    def can_win(self, hand: Hand, seat: int, tiles: Sequence[int], win_tile: int, *, self_draw: bool,
                robbing: bool = False) -> bool:
        """May ``seat`` win with ``tiles`` (win tile included): on a draw, a discard, or robbing a 补杠."""
        ...

    def claim_barred(self, hand: Hand, seat: int) -> bool:
        """True when ``seat`` may make no claim now (caishen: its 漂財 is live); explains a refusal."""
        ...

    def wildcard_chows_refused(self) -> bool:
        """A chow holding the wildcard's kind is refused (Jiaxing), or played as a face (caishen)."""
        ...

    def chow_tiles(self, hand: Hand, lo: int) -> tuple[int, int, int]:
        """The tiles that go down for a chow whose (faced) run starts at ``lo``."""
        ...

    def white_as(self, hand: Hand) -> int | None:
        """The kind a 白板 stands for in the views (None: a 白板 is a 白板)."""
        ...

    def meld_json(self, hand: Hand, m: Meld) -> dict:
        """A meld as the views show it."""
        ...

    def score(self, hand: Hand, seat: int, concealed: Sequence[int], tile: int, *, self_draw: bool,
              robbed_from: int | None, first_turn: bool, cumulative: tuple[str, ...]) -> Score:
        """Score the win ``hand`` is about to record (``concealed`` without ``tile``)."""
        ...

    def settle(self, hand: Hand, balances: Sequence[int | None], fee: int) -> Settlement:
        """Pay the ended hand."""
        ...

    def contract_pair(self, hand: Hand) -> tuple[int, int] | None:
        """(fed seat, feeder seat) of a contract-like liability (承包, 大包), for statistics."""
        ...

    def win_payments(self, rs: Ruleset, *, winner: int, points: int, base: int, stake: int,
                     discarder: int | None, robbed: int | None) -> list[int] | None:
        """Each seat's gain for a win with the dealer at seat 0 (``jxbot score``'s payments line for a
        multiplier ruleset: ``--base``, ``--from``), or None when the calculator shows none."""
        ...

    # ---------------------------------------------------------------- match flow (jxbot.game.Match)
    def reseat_every(self, rs: Ruleset) -> int | None:
        """Rounds after which players redraw seats (0 = never), or None when the ruleset has no
        seating record at all (Jiaxing)."""
        ...

    # ---------------------------------------------------------------- computer players (jxbot.ai)
    def decide(self, level: str, table: Any) -> dict | None:
        """A computer player's action for ``table`` (``jxbot.ai.players.Table``) at ``level``, or
        None to let the core player (which plays for the Jiaxing patterns) decide."""
        ...
