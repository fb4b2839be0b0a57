"""``IllegalAction``: a refused action, with a reason code the UI can translate (``game.error.<code>``).

Messages never name a tile the acting seat does not already know about (no hidden information).
"""

from __future__ import annotations

from jxbot.i18n import register

ERROR_TEXTS: dict[str, tuple[str, str]] = {
    # code: (zh, en)
    "bad_action": ("无效的操作。", "That is not a valid action."),
    "bad_seat": ("没有这个座位。", "There is no such seat."),
    "hand_over": ("这一局已经结束。", "This hand is over."),
    "not_your_turn": ("还没轮到你。", "It is not your turn."),
    "tile_not_held": ("你手里没有这张牌。", "You do not hold that tile."),
    "cannot_claim": ("你不能这样吃/碰/杠/胡这张牌。", "You cannot make that claim on this tile."),
    "window_closed": ("认领时间已过。", "The claim window has closed."),
    "wildcard_in_meld": ("百搭不能用来吃、碰、杠。", "The wildcard (百搭) cannot take part in a chow, pung or kong."),
    "gave_up": ("你已放弃，只能摸牌和打牌。", "You gave up: you may only draw and discard."),
    "already_answered": ("你已经回应过了。", "You have already answered."),
    "no_decision": ("现在没有需要你决定的承包。", "There is no contract decision to make now."),
    "not_deciding": ("这个承包不需要你决定。", "This contract decision is not yours."),
    "waiting_contract": ("正在等待承包决定。", "Waiting for the contract decision."),
    "not_winning": ("这手牌还不能胡。", "This hand does not win."),
    "no_draw": ("只有摸牌之后才能这样做。", "You can only do that after drawing a tile."),
    "cannot_kong": ("你不能杠这张牌。", "You cannot declare that kong."),
    "floating": ("漂财后，在你下一次打出别的牌之前不能吃、碰、杠，只能自摸胡。",
                 "After floating a caishen you may not chow, pung or kong (and win only by self-draw) "
                 "until you discard another tile."),
    "wall_empty": ("牌墙已空，不能再杠。", "The wall is empty: no more kongs."),
    "last_discard": ("最后一张打出的牌只能胡，不能吃、碰、杠。",
                     "The last discard can only be won on: no chow, pung or kong."),
    "not_pending": ("现在不等你操作。", "Nothing is waiting for you now."),
    "not_ended": ("这一局还没有结束。", "The hand has not ended yet."),
    "already_settled": ("这一局已经结算过了。", "This hand is already settled."),
    "already_escaped": ("这个座位已经离开。", "That seat has already left."),
    "match_over": ("比赛已经结束。", "The match is over."),
    "wrong_hand": ("这不是当前的这一局。", "That is not the current hand of this match."),
}

register({f"game.error.{code}": {"zh": zh, "en": en} for code, (zh, en) in ERROR_TEXTS.items()})


class IllegalAction(Exception):
    """An action the hand refuses; the hand's state is left untouched.

    ``code`` is one of ``ERROR_TEXTS`` (stable, for programs and translation);
    ``message`` is a short English explanation.
    """

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = message or ERROR_TEXTS.get(code, ("", code))[1]
        super().__init__(code, self.message)  # args round-trip through pickle (multiprocessing)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"
