"""Plain view data of a review for the pictures (``render/review.py``) and texts for the terminal and Discord.

Only what the reviewed seat saw: its own tiles at the decision, the public discard it answered; never
another seat's concealed tiles (the views are built from the seat's own view at that moment).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jxbot.i18n import register, t
from jxbot.rules.tiles import tile_name
from jxbot.rulesets import of_view

from .review import Point, Review, action_key

SHOWN = 6  # candidates drawn per decision (the played one is added when it is not among them)

register({
    "coach.title": {"zh": "复盘 · {who}", "en": "Review · {who}"},
    "coach.subtitle": {"zh": "牌局 {hand}", "en": "Hand {hand}"},
    "coach.decision_title": {"zh": "第 {k}/{n} 步 · {who}", "en": "Decision {k} of {n} · {who}"},
    "coach.decision_sub": {"zh": "牌局 {hand} · 余牌 {wall}", "en": "Hand {hand} · {wall} tiles left"},
    "coach.act.discard": {"zh": "打 {tile}", "en": "discard {tile}"},
    "coach.act.tsumo": {"zh": "自摸 {tile}", "en": "self-draw win on {tile}"},
    "coach.act.angang": {"zh": "暗杠 {tile}", "en": "concealed kong of {tile}"},
    "coach.act.bugang": {"zh": "补杠 {tile}", "en": "add {tile} to the pung"},
    "coach.act.hu": {"zh": "胡 {tile}", "en": "win on {tile}"},
    "coach.act.peng": {"zh": "碰 {tile}", "en": "pung {tile}"},
    "coach.act.gang": {"zh": "杠 {tile}", "en": "kong {tile}"},
    "coach.act.chi": {"zh": "吃 {tile}", "en": "chow {tile}"},  # tile: the run, as the table's button (吃 345万)
    "coach.act.pass": {"zh": "过", "en": "pass"},
    "coach.act.persist": {"zh": "坚持", "en": "persist"},
    "coach.act.give_up": {"zh": "放弃", "en": "give up"},
    "coach.summary": {"zh": "与专家一致：{pct}%（{k}/{n} 步）· 估计少赢 {lost} 银",
                      "en": "Agrees with the expert: {pct}% ({k} of {n} decisions) · estimated loss {lost} silver"},
    "coach.costly": {"zh": "第 {n} 步：{played} → 建议 {best}（−{loss} 银）",
                     "en": "Decision {n}: {played} → the expert: {best} (−{loss} silver)"},
    "coach.line": {"zh": "{n:>2}. {mark} {played}{best}  {cands}", "en": "{n:>2}. {mark} {played}{best}  {cands}"},
    "coach.line_best": {"zh": " → 建议 {best}（−{loss}）", "en": " → expert: {best} (−{loss})"},
    "coach.line_differs": {"zh": " → 建议 {best}（差别不明显）", "en": " → expert: {best} (no clear cost)"},
    "coach.cand": {"zh": "{act} {ev}（胡 {win}%）", "en": "{act} {ev} (win {win}%)"},
    "coach.none": {"zh": "这手牌里你没有要做的决定。", "en": "You had no decision to make in this hand."},
})


def action_text(a: dict, lang: str) -> str:
    tile = a.get("tile")
    name = tile_name(tile, lang) if isinstance(tile, int) else ""
    if a.get("type") == "chi" and isinstance(tile, int) and tile < 27:  # tile: the run's lowest, not the claimed
        name = "".join(tile_name(tile + i, lang)[0] for i in range(3)) + name[1:]
    return t(f"coach.act.{a.get('type')}", lang, tile=name)


def _badge(view: dict) -> str:
    try:
        return of_view(view).badge
    except Exception:  # an unknown ruleset: the common 百搭 badge
        return "wild"


def summary_view(review: Review, who: str, lang: str, *, wildcard: int | None = None, badge: str = "wild") -> dict:
    """The summary picture's view (``render_review_summary``)."""
    n = len(review.decisions)
    agreed = sum(1 for d in review.decisions if d["agree"])
    return {
        "title": t("coach.title", lang, who=who), "subtitle": t("coach.subtitle", lang, hand=review.hand_id),
        "decisions": n, "agreed": agreed, "agreement": review.agreement, "lost": review.lost,
        "costliest": [{"n": d["n"], "played": d["played"], "best": d["best"], "loss": d["loss"]}
                      for d in review.costliest()],
        "wildcard": wildcard, "badge": badge,
    }


def decision_view(review: Review, point: Point, who: str, lang: str, claim_from: str | None = None) -> dict:
    """Decision ``point.n``'s picture view: the seat's tiles then, played vs the expert, the candidates."""
    d = review.decisions[point.n]
    v = point.view
    me = v["viewer"]
    played_key, best_key = action_key(d["played"]), action_key(d["best"])
    cands = []
    for i, c in enumerate(d["candidates"]):
        k = action_key(c["action"])
        if i < SHOWN or k == played_key:
            cands.append({**c, "played": k == played_key, "best": k == best_key})
    claim = None
    if v.get("phase") in ("claim", "rob"):
        src = v.get("pending_kong") if v.get("phase") == "rob" else v.get("last_discard")
        if src:
            claim = {"tile": src.get("tile"), "from": claim_from or ""}
    return {
        "title": t("coach.decision_title", lang, k=point.n + 1, n=len(review.decisions), who=who),
        "subtitle": t("coach.decision_sub", lang, hand=review.hand_id, wall=v.get("wall_remaining", 0)),
        "n": point.n, "of": len(review.decisions),
        "hand": list(v.get("hand") or []), "drawn": v.get("drawn"),
        "melds": [{"kind": m.get("kind"), "tiles": list(m.get("tiles") or [])} for m in v["seats"][me]["melds"]],
        "wildcard": v.get("wildcard"), "badge": _badge(v), "claim": claim,
        "played": d["played"], "best": d["best"], "agree": d["agree"], "loss": d["loss"], "candidates": cands,
    }


def _fmt(x: float) -> str:
    return f"{x:.2f}"


def summary_text(review: Review, lang: str) -> str:
    """The summary in words (the terminal, and the Discord message above the picture)."""
    n = len(review.decisions)
    if not n:
        return t("coach.none", lang)
    agreed = sum(1 for d in review.decisions if d["agree"])
    lines = [t("coach.summary", lang, pct=round(100 * review.agreement), k=agreed, n=n, lost=_fmt(review.lost))]
    for d in review.costliest():
        lines.append(t("coach.costly", lang, n=d["n"] + 1, played=action_text(d["played"], lang),
                       best=action_text(d["best"], lang), loss=_fmt(d["loss"])))
    return "\n".join(lines)


def expert_words(d: dict, lang: str) -> str:
    """What follows the played move of a decision that is not the expert's: the expert's move and what it cost
    (or "no clear cost"); nothing when it agrees."""
    if d["agree"]:
        return ""
    key = "coach.line_best" if d["loss"] > 0 else "coach.line_differs"  # not the expert's, no clear cost
    return t(key, lang, best=action_text(d["best"], lang), loss=_fmt(d["loss"]))


def decision_lines(review: Review, lang: str, top: int = 3) -> list[str]:
    """One line per decision (the terminal's ``jxbot review``)."""
    out = []
    for d in review.decisions:
        best = expert_words(d, lang)
        mark = "  " if d["agree"] else "✗ " if d["loss"] > 0 else "~ "
        cands = " · ".join(t("coach.cand", lang, act=action_text(c["action"], lang), ev=f"{c['ev']:+.2f}",
                             win=round(100 * c["win"])) for c in d["candidates"][:top])
        out.append(t("coach.line", lang, n=d["n"] + 1, mark=mark,
                     played=action_text(d["played"], lang), best=best, cands=cands))
    return out


def wildcard_of(points: Sequence[Point]) -> tuple[int | None, str]:
    if not points:
        return None, "wild"
    v: dict[str, Any] = points[0].view
    return v.get("wildcard"), _badge(v)
