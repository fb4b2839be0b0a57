"""``jxbot score``: the hand calculator.

``jxbot score 11122233m777z55p --win 5p --wildcard 3s --round E --seat S --self-draw --stake 5 --json``

Exit 0 for a win, 1 for a hand that does not win (says why), 2 for bad notation or an impossible
hand (a fifth copy, a wrong tile count, a wildcard in a meld…).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from jxbot.i18n import add_lang_argument, register

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3, "东": 0, "南": 1, "西": 2, "北": 3}


def _wind(text: str) -> int:
    key = text.strip().upper() if text.strip().isascii() else text.strip()
    if key in WINDS:
        return WINDS[key]
    if key.isdigit() and 0 <= int(key) <= 3:
        return int(key)
    raise argparse.ArgumentTypeError(f"bad wind {text!r}: use E, S, W or N (or 东 南 西 北)")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score", help="score a winning hand (台, 番, points)",
        description="Score a Jiaxing Mahjong hand. HAND is the concealed tiles in Tenhou notation "
                    "(123m456p789s1234567z; z = 东南西北白发中): either 14 with the winning tile typed last (as "
                    "Discord's /mahjong score), or 13 and the winning tile as --win (3 fewer per meld).",
    )
    p.add_argument("hand", metavar="HAND",
                   help="the concealed tiles: 14 with the winning tile last (11122233m777z55p5p), or 13 with --win")
    p.add_argument("--win", default=None, metavar="TILE",
                   help="the winning tile, e.g. 5p (then HAND holds the 13 others)")
    p.add_argument("--wildcard", metavar="TILE", help="the 百搭 kind this hand, e.g. 3s")
    p.add_argument("--ruleset", default="jiaxing", help="ruleset name (default: jiaxing)")
    p.add_argument("--chi", action="append", default=[], metavar="TILES", help="an exposed chow, e.g. 123m (repeatable)")
    p.add_argument("--peng", action="append", default=[], metavar="TILES", help="an exposed pung, e.g. 777z (repeatable)")
    p.add_argument("--gang", action="append", default=[], metavar="TILES", help="an exposed kong, e.g. 1111m (repeatable)")
    p.add_argument("--angang", action="append", default=[], metavar="TILES",
                   help="a concealed kong, e.g. 9999p (repeatable)")
    p.add_argument("--round", type=_wind, default=0, metavar="WIND", help="round wind E/S/W/N (default E)")
    p.add_argument("--seat", type=_wind, default=0, metavar="WIND", help="seat wind E/S/W/N (default E = dealer)")
    p.add_argument("--self-draw", action="store_true", help="自摸: the winning tile was drawn")
    p.add_argument("--kong-draw", action="store_true", help="杠上开花: drawn as a kong replacement (with --self-draw)")
    p.add_argument("--last-tile", action="store_true", help="海底捞月: the last drawable tile (with --self-draw)")
    p.add_argument("--rob", action="store_true", help="抢杠胡: won by robbing a kong")
    p.add_argument("--first-turn", action="store_true", help="天胡 (dealer) / 地胡 (others)")
    p.add_argument("--cumulative", default="0", metavar="N",
                   help="cumulative 番 taken by this win: a number, or codes like baozi,huang")
    p.add_argument("--float", type=int, default=0, dest="float_run", metavar="N",
                   help="caishen: 漂財, the 財神 the winner discarded in a row before this self-draw (default 0)")
    p.add_argument("--stake", type=int, default=1, help="底分, the table's stake (default 1)")
    p.add_argument("--base", type=int, default=None, metavar="N",
                   help="caishen: 底 of the hand, 2 + the hands the dealer has kept in a row (default 2)")
    p.add_argument("--from", type=_wind, default=None, dest="from_seat", metavar="WIND",
                   help="caishen: seat wind of the discarder (or of the robbed seat with --rob); "
                        "with it, or with --self-draw, the payments are printed (E = the dealer)")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


register({
    "cli.score.needs_wildcard": {
        "zh": "{ruleset} 规则需要财神的牌种：加上 --wildcard 牌（如 --wildcard 5m）",
        "en": "the {ruleset} ruleset needs the caishen kind: add --wildcard TILE (e.g. --wildcard 5m)"},
    "cli.score.count_with_win": {
        "zh": "输入了 {n} 张暗牌和 --win：有 --win 时要 {want} 张（不含胡的那张，{melds} 副露）；"
              "或者不用 --win，输入 {want} 张再加胡的那张放在最后",
        "en": "{n} concealed tiles typed with --win: with --win give {want} (without the winning tile, {melds} melds); "
              "or leave out --win and type the winning tile last"},
    "cli.score.count_no_win": {
        "zh": "输入了 {n} 张暗牌：要 {want} 张，胡的那张放在最后（{melds} 副露）；或者输入 {less} 张再加 --win 牌",
        "en": "{n} concealed tiles typed: give {want} with the winning tile last ({melds} melds), "
              "or {less} and the winning tile as --win"},
    "cli.score.read_win": {"zh": "（读作：{n} 张 + 胡 {win}（--win））", "en": "(read as: {n} tiles + the winning {win} from --win)"},
    "cli.score.read_last": {"zh": "（读作：{n} 张，最后一张 {win} 是胡的牌）",
                            "en": "(read as: {n} tiles, the last one, {win}, is the winning tile)"},
})


def _pad(text: str, width: int) -> str:
    """Left-justify by display width (CJK characters take two columns)."""
    import unicodedata

    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - w)


def _fail(args: argparse.Namespace, message: str, code: int) -> int:
    if args.json:
        print(json.dumps({"winning": False, "error": message}, ensure_ascii=False))
    print(f"jxbot score: {message}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    from jxbot import rulesets
    from jxbot.i18n import t
    from jxbot.rules import Meld, check_hand, get_ruleset, parse_tile, parse_tiles, score_win
    from jxbot.rules.names import item_name
    from jxbot.rules.tiles import format_tiles, tile_name, wind_name

    lang = args.lang
    try:
        rs = get_ruleset(args.ruleset)
        hand = parse_tiles(args.hand)
        wildcard = parse_tile(args.wildcard) if args.wildcard else None
        melds = [Meld.chow(s) for s in args.chi] + [Meld.pung(s) for s in args.peng]
        melds += [Meld.kong(s) for s in args.gang] + [Meld.concealed_kong(s) for s in args.angang]
        if rulesets.behaviour(rs).multiplier_scoring and wildcard is None:
            raise ValueError(t("cli.score.needs_wildcard", lang, ruleset=args.ruleset))
        # two conventions: 13 tiles + --win, or 14 with the winning tile typed last (/mahjong score)
        without = 13 - 3 * len(melds)
        if args.win is not None:
            if len(hand) != without:
                raise ValueError(t("cli.score.count_with_win", lang, n=len(hand), want=without, melds=len(melds)))
            win = parse_tile(args.win)
            read = t("cli.score.read_win", lang, n=len(hand), win=format_tiles([win]))
        else:
            if len(hand) != without + 1:
                raise ValueError(t("cli.score.count_no_win", lang, n=len(hand), want=without + 1, melds=len(melds),
                                   less=without))
            win = hand.pop()
            read = t("cli.score.read_last", lang, n=len(hand) + 1, win=format_tiles([win]))
        cum_text = args.cumulative.strip()
        cumulative: int | tuple[str, ...]
        if cum_text.isdigit():
            cumulative = int(cum_text)
        else:
            cumulative = tuple(c.strip() for c in cum_text.split(",") if c.strip())
        if args.stake < 0:
            raise ValueError("the stake cannot be negative")
        check_hand(hand, melds, extra=(win,), wildcard=wildcard, tiles_mod3=2)
        if win == wildcard and not args.self_draw and not rs.wildcard_discard_claimable:
            raise ValueError("a discarded 百搭 (wildcard) cannot be claimed, not even for 胡: "
                             "a wildcard win tile needs --self-draw")
        plugin = rulesets.behaviour(rs)
        if not plugin.multiplier_scoring and (args.base is not None or args.from_seat is not None or args.float_run):
            raise ValueError("--base, --from and --float belong to the caishen ruleset (--ruleset caishen)")
        if args.from_seat is not None and args.self_draw:
            raise ValueError("--from names the discarder (or the robbed seat): a self-draw has none")
        if args.from_seat is not None and args.from_seat == args.seat:
            raise ValueError("--from is another seat than the winner's (--seat)")
        if args.base is not None and args.base < 1:
            raise ValueError("the base (底) is at least 1")
        score = score_win(
            hand, win, melds, wildcard=wildcard, self_draw=args.self_draw, kong_draw=args.kong_draw,
            last_tile=args.last_tile, robbing_kong=args.rob, seat_wind=args.seat, round_wind=args.round,
            first_turn=args.first_turn, cumulative=cumulative, stake=args.stake, ruleset=rs,
            float_run=args.float_run,
        )
    except ValueError as exc:
        return _fail(args, str(exc), 2)
    caishen = plugin.multiplier_scoring  # RULES B: items are multipliers, payments by 底 and seat
    payments = _payments(args, score, rs) if caishen and score.winning else None

    if args.json:
        out = score.to_json()
        out["read"] = read
        out["tai"] = [dict(i.to_json(), label=item_name(i.name, lang)) for i in score.tai]
        out["fan"] = [dict(i.to_json(), label=item_name(i.name, lang)) for i in score.fan]
        if not score.winning:
            out["why"] = t(f"reason.{score.reason}", lang)
        if caishen:
            out["multiplier"] = _product(score) if score.winning else 0
            out["base"] = 2 if args.base is None else args.base
            if payments is not None:
                out["payments"] = payments
        print(json.dumps(out, ensure_ascii=False))
        return 0 if score.winning else 1

    names = " ".join(tile_name(x, lang) for x in hand)
    head = f"{format_tiles(hand)} + {format_tiles([win])}  ({names} + {tile_name(win, lang)})"
    if melds:
        head += "  | " + " ".join(format_tiles(m.tiles) for m in melds)
    if wildcard is not None:
        zh, en = WILDCARD_WORDS.get(plugin.wildcard_key, WILDCARD_WORDS["wildcard"])
        wname = zh if lang == "zh" else en
        head += f"  {wname} {tile_name(wildcard, lang)}"
    print(head)
    print(read)
    if caishen:
        pass  # no wind items in the caishen ruleset
    elif lang == "zh":
        print(f"圈风 {wind_name(args.round, lang)}  门风 {wind_name(args.seat, lang)}")
    else:
        print(f"round wind {wind_name(args.round, lang)}, seat wind {wind_name(args.seat, lang)}")
    if not score.winning:
        print(t("score.not_winning", lang, why=t(f"reason.{score.reason}", lang)))
        return 1
    width = 26
    if caishen:  # RULES B: items are multipliers; their product is the hand's multiplier
        mult = 1
        for item in score.fan:
            mult *= item.value
            print(f"  {_pad(item_name(item.name, lang), width)} ×{item.value}")
        print(f"  {_pad(t('score.multiplier', lang), width)} ×{mult}")
        print(t("score.caishen_formula", lang, stake=score.stake, mult=mult, points=score.points))
        if payments is not None:
            base = 2 if args.base is None else args.base
            paid = "  ".join(f"{wind_name(w, lang)} {d:+d}" for w, d in enumerate(payments))
            print(f"  {t('score.base', lang)} {base}: {paid}")
        return 0
    for item in score.tai:
        print(f"  {_pad(item_name(item.name, lang), width)} {item.value:>3} {t('score.tai', lang)}")
    for item in score.fan:
        print(f"  {_pad(item_name(item.name, lang), width)} {item.value:>3} {t('score.fan', lang)}")
    print(f"  {_pad(t('score.total_tai', lang), width)} {score.total_tai:>3}")
    print(f"  {_pad(t('score.total_fan', lang), width)} {score.total_fan:>3}")
    reading = " ".join(format_tiles(s) for s in score.sets)
    if score.pair:
        reading += " " + format_tiles(score.pair)
    print(f"  {t('score.reading', lang)}: {reading}")
    print(t("score.formula", lang, stake=score.stake, tai=score.total_tai, fan=score.total_fan, points=score.points))
    return 0


WILDCARD_WORDS = {"wildcard": ("百搭", "wildcard"), "wildcard.caishen": ("财神", "caishen")}  # by wildcard_key


def _product(score: Any) -> int:
    m = 1
    for item in score.fan:
        m *= item.value
    return m


def _payments(args: argparse.Namespace, score: Any, rs: Any) -> list[int] | None:
    """Each seat's gain (by seat wind, E = the dealer) for a win of a multiplier ruleset (caishen), or
    None when the discarder is not known (a win on a discard without ``--from``)."""
    if not args.self_draw and args.from_seat is None:
        return None
    from jxbot import rulesets

    other = None if args.self_draw else args.from_seat
    return rulesets.behaviour(rs).win_payments(
        rs, winner=args.seat, points=score.points, base=2 if args.base is None else args.base,
        stake=max(1, args.stake), discarder=None if args.rob else other, robbed=other if args.rob else None)
