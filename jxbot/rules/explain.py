"""Why each seat paid what it paid: the result view's ``payments[i]["why"]`` put in words (zh, en).

``why`` is a list of ``[code, multiplier]`` filled by the settlement (``jxbot.rules.settle`` for Jiaxing,
``jxbot.rulesets.caishen.rules.settle`` for 財神); ``owed`` is what the seat owed at the table before its
balance capped it, ``capped`` whether it paid less. Used by the result text (``jxbot.shell.texts``), the
result picture (``render.result``) and the terminal.
"""

from __future__ import annotations

from jxbot.i18n import register, t

register({
    "why.discard": {"zh": "点炮胡 ×{m}", "en": "win on a discard ×{m}"},
    "why.self_draw": {"zh": "自摸 ×{m}", "en": "self-draw ×{m}"},
    "why.contract": {"zh": "承包 ×{m}", "en": "contract (承包) ×{m}"},
    "why.persist": {"zh": "坚持 ×{m}", "en": "persisted (坚持) ×{m}"},
    "why.gave_up": {"zh": "放弃 ×0", "en": "gave up (放弃) ×0"},
    "why.rob": {"zh": "被抢杠 ×{m}", "en": "robbed (抢杠) ×{m}"},
    "why.not_robbed": {"zh": "抢杠胡只由被抢者付 ×0", "en": "抢杠: not robbed ×0"},
    "why.escape": {"zh": "逃跑：照付", "en": "escaped: pays"},
    "why.dealer_base": {"zh": "庄家 底 ×{m}", "en": "dealer: base (底) ×{m}"},
    "why.share": {"zh": "闲家 ×1", "en": "non-dealer ×1"},
    "why.discarder": {"zh": "放铳 ×2", "en": "discarder (放铳) ×2"},
    "why.cs_rob": {"zh": "被抢杠：包付全部", "en": "kong robbed: pays every share"},
    "why.cs_shun_bao": {"zh": "顺包：包付全部", "en": "顺包: pays every share"},
    "why.cs_fan_bao": {"zh": "反包：包付全部 ×2", "en": "反包: pays every share ×2"},
    "why.cs_drawn": {"zh": "荒牌：庄家付每家", "en": "drawn hand: the dealer pays each seat"},
    "why.cs_beigen": {"zh": "被跟：付每家", "en": "被跟: pays each other seat"},
    "why.amount": {"zh": "{points} × {mult} = {owed}", "en": "{points} × {mult} = {owed}"},
    "why.owed": {"zh": "应付 {owed}", "en": "owes {owed}"},
    "why.capped": {"zh": "余额封顶：只付 {paid}", "en": "capped: paid {paid}"},
    "why.fee": {"zh": "服务费 {fee}", "en": "fee {fee}"},
    "why.received": {"zh": "收 {amount}", "en": "receives {amount}"},
})


def reasons(row: dict, lang: str) -> list[str]:
    """The reason labels of one payment row (``承包 ×5``, ``放弃 ×0`` …)."""
    return [t("why." + str(code), lang, m=m) for code, m in row.get("why") or []]


def explain(row: dict, points: int, lang: str, *, fee: bool = True) -> str:
    """One line: why the seat paid (reasons, the arithmetic ``points × multiplier = owed``, a cap, the fee).
    ``points`` is the score's points (one unit); "" when there is nothing to say."""
    parts = reasons(row, lang)
    owed = int(row.get("owed") or 0)
    fee_paid = int(row.get("fee") or 0)
    if owed:
        codes = {c for c, _ in row.get("why") or []}
        if points and owed % points == 0 and not codes & {"cs_drawn", "cs_beigen"}:
            parts.append(t("why.amount", lang, points=points, mult=owed // points, owed=owed))
        else:
            parts.append(t("why.owed", lang, owed=owed))
        if row.get("capped"):
            parts.append(t("why.capped", lang, paid=-(int(row.get("delta") or 0) + fee_paid)))
    elif int(row.get("delta") or 0) + fee_paid > 0:
        parts.append(t("why.received", lang, amount=int(row.get("delta") or 0) + fee_paid))
    if fee and fee_paid:
        parts.append(t("why.fee", lang, fee=fee_paid))
    return " · ".join(parts)
