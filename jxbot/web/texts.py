"""The web companion's texts (zh and en) and how a request chooses its language."""

from __future__ import annotations

from collections.abc import Mapping

from jxbot.i18n import LANGS, register

register({
    "web.site": {"zh": "嘉兴麻将 · jxbot", "en": "Jiaxing Mahjong · jxbot"},
    "web.lang_other": {"zh": "English", "en": "中文"},
    "web.home.title": {"zh": "嘉兴麻将网页", "en": "The Jiaxing Mahjong web pages"},
    "web.home.body": {"zh": "这里是 Discord 机器人 jxbot 的只读网页：服务器的排行榜、玩家资料、牌局回放和进行中的牌桌（延迟显示）。"
                            "服务器管理员用 /admin web on 打开本服务器的网页；机器人在回放消息里附上链接。",
                      "en": "The read-only pages of the jxbot Discord bot: a server's leaderboards, players' profiles, "
                            "hand replays and its running tables (delayed). A server's admins turn its pages on with "
                            "/admin web on; the bot's Replay messages carry the links."},
    "web.guild.title": {"zh": "服务器 {name}", "en": "Server {name}"},
    "web.board.balance": {"zh": "银子", "en": "Silver"},
    "web.board.net": {"zh": "净赢", "en": "Net winnings"},
    "web.board.wins": {"zh": "胡牌次数", "en": "Wins"},
    "web.board.biggest": {"zh": "最大一手", "en": "Biggest hand"},
    "web.period.all": {"zh": "全部", "en": "all time"},
    "web.period.week": {"zh": "本周", "en": "this week"},
    "web.period.day": {"zh": "今天", "en": "today"},
    "web.board.empty": {"zh": "还没有人上榜。", "en": "Nobody on this board yet."},
    "web.col.rank": {"zh": "名次", "en": "#"},
    "web.col.player": {"zh": "玩家", "en": "Player"},
    "web.col.value": {"zh": "数值", "en": "Value"},
    "web.col.hand": {"zh": "牌局", "en": "Hand"},
    "web.col.when": {"zh": "时间", "en": "When"},
    "web.col.result": {"zh": "结果", "en": "Result"},
    "web.col.delta": {"zh": "输赢", "en": "Won/lost"},
    "web.col.table": {"zh": "牌桌", "en": "Table"},
    "web.col.players": {"zh": "玩家", "en": "Players"},
    "web.ladder": {"zh": "段位与赛季", "en": "Ratings and seasons"},
    "web.ladder.board": {"zh": "段位榜 · {ruleset} · 第 {season} 赛季", "en": "Ratings · {ruleset} · season {season}"},
    "web.rating.title": {"zh": "段位走势 · {ruleset} · 第 {season} 赛季", "en": "Rating over time · {ruleset} · season {season}"},
    "web.rating.alt": {"zh": "段位从 {a} 到 {b}（最低 {lo}，最高 {hi}）", "en": "Rating from {a} to {b} (low {lo}, high {hi})"},
    "web.ruleset.jiaxing": {"zh": "嘉兴", "en": "Jiaxing"},
    "web.ruleset.caishen": {"zh": "财神", "en": "Caishen"},
    "web.live.title": {"zh": "进行中的牌桌", "en": "Live tables"},
    "web.live.none": {"zh": "现在没有进行中的牌桌。", "en": "No table is playing right now."},
    "web.live.delay": {"zh": "观战延迟 {n} 步：你看到的是 {n} 步之前的局面，只有公开信息。",
                       "en": "Spectators are {n} moves behind: what you see is the table {n} moves ago, public "
                             "information only."},
    "web.live.hand": {"zh": "第 {n} 局", "en": "Hand {n}"},
    "web.live.between": {"zh": "两局之间，等待下一局发牌。", "en": "Between hands: waiting for the next deal."},
    "web.live.ended": {"zh": "这张牌桌已经结束。", "en": "This table has ended."},
    "web.live.watch": {"zh": "观战", "en": "Watch"},
    "web.live.step": {"zh": "第 {k} 步", "en": "move {k}"},
    "web.recent.title": {"zh": "最近的牌局", "en": "Recent hands"},
    "web.recent.none": {"zh": "还没有打完的牌局。", "en": "No finished hand yet."},
    "web.drawn": {"zh": "荒庄", "en": "drawn"},
    "web.won_by": {"zh": "{who} 胡", "en": "{who} won"},
    "web.profile.title": {"zh": "{name} 的资料", "en": "{name}'s profile"},
    "web.stat.balance": {"zh": "银子", "en": "Silver"},
    "web.stat.hands": {"zh": "局数", "en": "Hands"},
    "web.stat.wins": {"zh": "胡牌", "en": "Wins"},
    "web.stat.win_rate": {"zh": "胡牌率", "en": "Win rate"},
    "web.stat.self_draws": {"zh": "自摸", "en": "Self-draws"},
    "web.stat.net": {"zh": "净赢", "en": "Net"},
    "web.stat.biggest_win": {"zh": "单局最多赢", "en": "Most won in a hand"},
    "web.stat.best_points": {"zh": "最大一手（分）", "en": "Biggest hand (points)"},
    "web.graph.title": {"zh": "银子走势", "en": "Silver over time"},
    "web.graph.none": {"zh": "还没有银子记录。", "en": "No silver moves yet."},
    "web.graph.alt": {"zh": "银子从 {a} 到 {b}（最低 {lo}，最高 {hi}）",
                      "en": "silver from {a} to {b} (lowest {lo}, highest {hi})"},
    "web.replay.title": {"zh": "牌局 {hand} 回放", "en": "Replay of hand {hand}"},
    "web.replay.step": {"zh": "第 {k} / {n} 步", "en": "Move {k} of {n}"},
    "web.replay.first": {"zh": "|◀ 开始", "en": "|◀ First"},
    "web.replay.prev": {"zh": "◀ 上一步", "en": "◀ Back"},
    "web.replay.next": {"zh": "下一步 ▶", "en": "Next ▶"},
    "web.replay.last": {"zh": "结束 ▶|", "en": "Last ▶|"},
    "web.replay.keys": {"zh": "键盘：← → 一步，Home / End 到头尾。", "en": "Keys: ← → one move, Home / End to either end."},
    "web.replay.seat": {"zh": "视角", "en": "Point of view"},
    "web.replay.public": {"zh": "只显示公开的信息（打出的牌、副露、张数）。", "en": "Public information only (discards, melds, counts)."},
    "web.replay.private": {"zh": "你自己的视角：这是你的私人链接，{days} 天后失效，请勿分享。",
                           "en": "Your own view: a private link, valid for {days} days. Do not share it."},
    "web.replay.share": {"zh": "分享这一步", "en": "Share this move"},
    "web.replay.share_hand": {"zh": "分享这手牌", "en": "Share this hand"},
    "web.replay.result": {"zh": "结算", "en": "Result"},
    "web.replay.table_alt": {"zh": "第 {k} 步的牌桌", "en": "the table at move {k}"},
    "web.replay.hand_alt": {"zh": "你的手牌", "en": "your hand"},
    "web.replay.result_alt": {"zh": "这手牌的结算", "en": "the hand's result"},
    "web.err.404": {"zh": "没有这一页（或这个服务器没有打开网页）。", "en": "No such page (or this server has not turned its pages on)."},
    "web.err.403": {"zh": "这个私人链接无效或已经过期。", "en": "This private link is not valid or has expired."},
    "web.err.429": {"zh": "请求太多，请稍后再试。", "en": "Too many requests: try again in a moment."},
    "web.err.500": {"zh": "这一页暂时出不来，请稍后再试。", "en": "This page could not be made just now: try again in a moment."},
    "web.err.title": {"zh": "出错了", "en": "Something is wrong"},
    "web.back": {"zh": "返回服务器", "en": "Back to the server"},
    "web.footer": {"zh": "只读网页 · 不显示进行中牌局的任何暗牌 · 公平发牌可以验证",
                   "en": "Read-only · no concealed tile of a running hand is ever shown · every deal can be verified"},
    "web.profile.link": {"zh": "资料", "en": "profile"},
    "web.player.unknown": {"zh": "玩家", "en": "player"},
})


def pick_lang(query: Mapping[str, str], accept: str | None) -> str:
    """``?lang=zh|en`` wins; else the first of Accept-Language's languages we have (by q); else zh."""
    q = (query.get("lang") or "").strip().lower()
    if q in LANGS:
        return q
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((accept or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        base = tag.strip().lower().split("-")[0]
        if base not in LANGS:
            continue
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                weight = 0.0
        if weight > 0 and (best is None or (-weight, i) < (best[0], best[1])):
            best = (-weight, i, base)
    return best[2] if best else "zh"
