"""The texts of a running table: the channel's status lines, a seat's panel text, the result text.
"""

from __future__ import annotations

import logging

from jxbot import rulesets
from jxbot.ai.strings import computer_name
from jxbot.i18n import t
from jxbot.rules.explain import explain
from jxbot.rules.tiles import tile_name, wind_name
from jxbot.safety import ECHO_MAX, cap, md
from jxbot.seatnames import seat_name
from jxbot.shell.lobby import Table

log = logging.getLogger("jxbot.shell.texts")


def when(deadline: float | None) -> str:
    """Discord's relative timestamp (a live countdown in the client)."""
    return f"<t:{int(deadline)}:R>" if deadline else "—"


def seat_label(view: dict, seat: int, lang: str) -> str:
    seats = view.get("seats") or []
    name = seat_name(seats[seat], lang) if seat < len(seats) and seats[seat].get("name") else None
    wind = wind_name(seats[seat]["seat_wind"], lang) if seat < len(seats) and "seat_wind" in seats[seat] else str(seat)
    return f"{md(name) if name else seat} ({wind})"


def status_text(view: dict, lang: str) -> str:
    """The channel's status lines (public information only)."""
    wild = view.get("wildcard")
    lines = [t("bot.status.line", lang, hand=view.get("hand_number", "?"), round=wind_name(view.get("round_wind", 0), lang),
               dealer=seat_label(view, view.get("dealer", 0), lang),
               wild=tile_name(wild, lang) if wild is not None else "—", wall=view.get("wall_remaining", "?"))]
    phase = view.get("phase")
    dl = when(view.get("deadline"))
    if phase == "turn" and view.get("deadline"):
        lines.append(t("bot.status.turn", lang, name=seat_label(view, view.get("turn", 0), lang), when=dl))
    elif phase == "turn":  # a computer's move (it comes within a second or so): no clock to show
        lines.append(t("bot.status.turn_cpu", lang, name=seat_label(view, view.get("turn", 0), lang)))
    elif phase == "claim" and view.get("last_discard"):
        ld = view["last_discard"]
        lines.append(t("bot.status.claim", lang, name=seat_label(view, ld["seat"], lang), tile=tile_name(ld["tile"], lang),
                       when=dl))
    elif phase == "rob" and view.get("last_discard"):
        lines.append(t("bot.status.rob", lang, tile=tile_name(view["last_discard"]["tile"], lang), when=dl))
    elif phase == "contract" and view.get("contract"):
        a, b = view["contract"]
        lines.append(t("bot.status.contract", lang, a=seat_label(view, a, lang), b=seat_label(view, b, lang), when=dl))
    elif phase == "ended":
        lines.append(t("bot.status.ended", lang))
    from jxbot.shell.replay_buttons import fair_line

    fair = fair_line(view, lang)  # the wall's commitment, in the channel from the deal on
    if fair:
        lines.append(fair)
    return "\n".join(lines)


def panel_text(table: Table, seat: int, view: dict, lang: str) -> str:
    sv = (view.get("seats") or [{}] * 4)[seat]
    lines = [t("bot.panel.title", lang, table=table.id, wind=wind_name(sv.get("seat_wind", seat), lang))]
    hand = view.get("hand") or []
    wild = view.get("wildcard")
    tiles = " ".join(("★" if x == wild else "") + tile_name(x, lang) for x in hand)
    if view.get("drawn") is not None:
        d = view["drawn"]
        tiles += "  + " + ("★" if d == wild else "") + tile_name(d, lang)
    lines.append(tiles)
    phase = view.get("phase")
    types = {a["type"] for a in view.get("actions") or ()}
    dl = when(view.get("deadline"))
    if phase == "turn" and view.get("turn") == seat and types:
        lines.append(t("bot.panel.your_turn", lang, when=dl))
    elif phase in ("claim", "rob") and types and view.get("last_discard"):
        ld = view["last_discard"]
        lines.append(t("bot.panel.claim", lang, name=seat_label(view, ld["seat"], lang), tile=tile_name(ld["tile"], lang),
                       when=dl))
    elif phase == "contract" and types and view.get("contract"):
        a, b = view["contract"]
        lines.append(t("bot.panel.contract", lang, a=seat_label(view, a, lang), b=seat_label(view, b, lang), when=dl))
    elif phase == "ended":
        lines.append(t("bot.status.ended", lang))
    else:
        lines.append(t("bot.panel.wait", lang))
    if sv.get("auto") and phase != "ended":
        lines.append(t("bot.panel.auto", lang))
    return "\n".join(lines)


def caishen_mult(score: dict) -> int:
    """The multiplier (倍) of a caishen score's JSON: points = stake × 倍 (its items are multipliers)."""
    stake, points = int(score.get("stake") or 0), int(score.get("points") or 0)
    if stake > 0 and points % stake == 0:
        return points // stake
    m = 1
    for item in score.get("fan") or []:
        m *= int(item.get("value", 1))
    return m


def result_text(result: dict, lang: str) -> str:
    pays = result.get("payments") or []
    names = {p.get("seat"): seat_name(p, lang) for p in pays}
    if result.get("drawn_game") or result.get("winner") is None:
        head = t("bot.result.draw", lang)
    else:
        sc = result.get("score") or {}
        wt = result.get("win_tile")
        name = md(names.get(result["winner"], result["winner"]))
        tile = tile_name(wt, lang) if wt is not None else "?"
        if rulesets.of_view(result).multiplier_scoring:  # caishen: a multiplier (倍), not 台 / 番
            head = t("bot.result.win_cs", lang, name=name, tile=tile,
                     formula=t("score.caishen_formula", lang, stake=sc.get("stake", 0), mult=caishen_mult(sc),
                               points=sc.get("points", 0)))
        else:
            head = t("bot.result.win", lang, name=name, tile=tile, tai=sc.get("total_tai", 0),
                     fan=sc.get("total_fan", 0), stake=sc.get("stake", 0), points=sc.get("points", 0))
    lines = [head]
    points = int((result.get("score") or {}).get("points") or 0)
    for p in pays:
        bal = p.get("balance")
        line = t("bot.result.payment", lang, name=md(seat_name(p, lang) or str(p.get("seat"))),
                 delta=int(p.get("delta", 0)), balance="—" if bal is None else bal)
        why = explain(p, points, lang)  # why this seat paid what it paid (承包 ×5, 放弃 ×0, a cap, the fee)
        lines.append(f"{line} — {why}" if why else line)
    return "\n".join(lines)


def score_hand(tiles: str, wildcard: str | None, stake: int, lang: str, *, ruleset: str = "jiaxing") -> str:
    """The /mahjong score calculator (uses ``jxbot.rules.score_win`` when available)."""
    from jxbot.rules.tiles import parse_tile, parse_tiles

    if len(tiles) > ECHO_MAX or (wildcard is not None and len(wildcard) > ECHO_MAX):
        return t("bot.err.tiles_too_long", lang, max=ECHO_MAX)
    # bad input is told in the asker's language (the parser's own texts are English, for programs)
    for text, parse in ((tiles, parse_tiles), (wildcard, parse_tile)):
        try:
            if text:
                parse(text)
        except ValueError:
            return t("bot.err.tile_notation", lang, text=cap(text or ""))
    hand = parse_tiles(tiles)
    wild = parse_tile(wildcard) if wildcard else None
    if len(hand) != 14:
        return t("bot.err.tile_count", lang, n=len(hand))
    over = next((x for x in sorted(set(hand)) if hand.count(x) > 4), None)
    if over is not None:
        return t("bot.err.tile_copies", lang, tile=tile_name(over, lang), n=hand.count(over))
    try:
        from jxbot.rules import score_win
    except ImportError:
        return t("bot.err.no_game", lang)
    try:
        plugin = rulesets.get(ruleset)  # (its package registers its item and formula strings)
        # the last tile is the winning tile
        sc = score_win(hand[:-1], hand[-1], wildcard=wild, stake=stake, ruleset=ruleset)
    except ValueError as exc:
        return t("bot.err.bad_tiles", lang, error=cap(str(exc)))
    from jxbot.rules.tiles import format_tiles

    if not sc.winning:
        return t("bot.score.not_winning", lang, tiles=format_tiles(hand), reason=t(f"reason.{sc.reason}", lang))
    if plugin.multiplier_scoring:  # caishen: the items are multipliers (倍): points = stake × their product
        mult = sc.points // stake if stake else 0
        items = "\n".join(f"• {t('item.' + i.name, lang)} ×{i.value}" for i in sc.fan)
        return t("bot.score.result_cs", lang, tiles=format_tiles(hand), wild=format_tiles([wild]) if wild is not None
                 else "?", formula=t("score.caishen_formula", lang, stake=stake, mult=mult, points=sc.points),
                 items=items)
    items = "\n".join(f"• {t('item.' + i.name, lang)} {i.value} 台" for i in sc.tai)
    items += "".join(f"\n• {t('item.' + i.name, lang)} {i.value} 番" for i in sc.fan)
    return t("bot.score.result", lang, tiles=format_tiles(hand), tai=sc.total_tai, fan=sc.total_fan, points=sc.points,
             stake=sc.stake, items=items)


def lobby_text(table: Table, lang: str | None = None) -> str:
    """The lobby's text: in the table's language on the lobby message (everyone reads it), in the
    asker's when it answers one person (``/mahjong status``), computers' names included."""
    lang = lang or table.lang
    c = table.config
    lines = [f"**{t('bot.lobby.title', lang, table=table.id)}**",
             t("bot.lobby.info", lang, stake=c.stake, rounds=c.rounds, ruleset=c.ruleset, fee=c.fee),
             t("bot.lobby.owner", lang, owner=table.owner_id)]
    for i, occ in enumerate(table.seats):
        if occ is None:
            who = t("bot.lobby.empty", lang)
        elif occ.is_computer:
            who = "🤖 " + computer_name(occ.name.lstrip("#"), occ.level, lang)
        else:
            who = f"<@{occ.user_id}>"
        lines.append(f"{wind_name(i, lang)} · {who}")
    if table.state == "lobby":
        lines.append(t("bot.status.lobby", lang, n=table.filled))
        lines.append(t("bot.lobby.hint", lang))
    elif table.state == "running":
        lines.append(t("bot.lobby.started", lang))
    else:
        lines.append(t("bot.lobby.closed", lang))
    return "\n".join(lines)
