"""Typed errors of the store. Each has a stable ``code`` and a localized ``message(lang)``.

Error texts never carry hidden information (tiles, the wall): only ids, amounts and times.
"""

from __future__ import annotations

from jxbot.i18n import register, t

MAX_AMOUNT = 2**63 - 1  # the largest silver amount / balance (SQLite INTEGER)
MIN_HOUSE = -(2**63 - 1)  # the house may go negative (it backs grants and computer seats)


class StoreError(Exception):
    """Base class. ``code`` is stable (for tests, logs and i18n keys ``store.error.<code>``)."""

    code = "store_error"

    def __init__(self, detail: str = "", **params: object) -> None:
        self.detail = detail
        self.params = params
        super().__init__(f"{self.code}: {detail}" if detail else self.code)

    def message(self, lang: str | None = None) -> str:
        """A user-facing, localized message."""
        try:
            return t(f"store.error.{self.code}", lang, **self.params)
        except (KeyError, IndexError, ValueError):  # a template missing a parameter
            return t(f"store.error.{self.code}", lang)


class InvalidAmount(StoreError):
    code = "invalid_amount"


class AmountOverflow(StoreError):
    code = "amount_overflow"


class InvalidArgument(StoreError):
    code = "invalid_argument"


class UnknownPlayer(StoreError):
    code = "unknown_player"


class InsufficientFunds(StoreError):
    code = "insufficient_funds"


class FundsHeld(InsufficientFunds):
    """A payment would touch silver held for a seated player (RULES A10); ``free`` is what they may pay."""

    code = "funds_held"


class SelfTransfer(StoreError):
    code = "self_transfer"


class DailyCooldown(StoreError):
    code = "daily_cooldown"

    def __init__(self, detail: str = "", *, next_at: float, **params: object) -> None:
        self.next_at = next_at
        super().__init__(detail, next_at=int(next_at), **params)


class UnknownHand(StoreError):
    code = "unknown_hand"


class HandConflict(StoreError):
    code = "hand_conflict"


class HandSettled(HandConflict):
    """The hand is settled (paid, or void): no event is appended to it and no other settlement replaces it."""

    code = "hand_settled"


class HandLive(HandConflict):
    """The hand's table still runs: it is not abandoned, so it is not voided (and not shown as finished)."""

    code = "hand_live"


class EventConflict(StoreError):
    code = "event_conflict"


class EventOutOfOrder(StoreError):
    code = "event_out_of_order"


class UnknownTable(StoreError):
    code = "unknown_table"


class SchemaTooNew(StoreError):
    code = "schema_too_new"


class SchemaTooOld(StoreError):
    code = "schema_too_old"


class ScopeMismatch(StoreError):
    code = "scope_mismatch"


register(
    {
        "store.error.store_error": {"zh": "存储出错，请稍后再试。", "en": "Storage error, please try again later."},
        "store.error.invalid_amount": {
            "zh": "金额必须是正整数。",
            "en": "The amount must be a positive whole number.",
        },
        "store.error.amount_overflow": {"zh": "金额过大。", "en": "That amount is too large."},
        "store.error.invalid_argument": {"zh": "参数无效。", "en": "Invalid value."},
        "store.error.unknown_player": {
            "zh": "找不到该玩家（还没有玩过）。",
            "en": "Unknown player (they have not played yet).",
        },
        "store.error.insufficient_funds": {
            "zh": "银子不足：需要 {needed}，你有 {balance}。",
            "en": "Not enough silver: {needed} needed, you have {balance}.",
        },
        "store.error.funds_held": {
            "zh": "你正坐在牌桌上，{held} 银子为可能的输分保留着：现在最多可以转 {free}。",
            "en": "{held} silver is held while you sit at a table (what you can still lose): you can pay up to {free}.",
        },
        "store.error.self_transfer": {"zh": "不能转给自己。", "en": "You cannot pay yourself."},
        "store.error.daily_cooldown": {
            "zh": "今天已经领过了，<t:{next_at}:R> 再来。",
            "en": "Already claimed; come back <t:{next_at}:R>.",
        },
        "store.error.unknown_hand": {"zh": "找不到这一局。", "en": "Unknown hand."},
        "store.error.hand_conflict": {
            "zh": "这一局的记录与请求不符。",
            "en": "The hand record does not match this request.",
        },
        "store.error.hand_settled": {
            "zh": "这一局已经结算，不能再更改。",
            "en": "This hand is settled; it cannot change any more.",
        },
        "store.error.hand_live": {
            "zh": "这一局的牌桌还在进行，牌局结束后才能查看。",
            "en": "This hand's table is still playing; it can be viewed once the hand is over.",
        },
        "store.error.event_conflict": {
            "zh": "牌局事件冲突。",
            "en": "Conflicting hand event.",
        },
        "store.error.event_out_of_order": {
            "zh": "牌局事件顺序错误。",
            "en": "Hand event out of order.",
        },
        "store.error.unknown_table": {"zh": "找不到这张桌子。", "en": "Unknown table."},
        "store.error.schema_too_new": {
            "zh": "数据库版本比程序新，请升级程序。",
            "en": "The database is newer than this program; please upgrade.",
        },
        "store.error.schema_too_old": {
            "zh": "数据库版本比程序旧，启动机器人一次即可升级。",
            "en": "The database is older than this program; starting the bot once upgrades it.",
        },
        "store.error.scope_mismatch": {
            "zh": "数据库的银子范围设置与当前设置不同。",
            "en": "The database was created with a different silver scope.",
        },
    }
)
