"""Strings of the table runner and the terminal table (zh / en), in the shared catalog."""

from __future__ import annotations

from jxbot.i18n import register, t

STRINGS: dict[str, dict[str, str]] = {
    # submit() error codes (the runner's own and the game's IllegalAction codes)
    "table.err.no_hand": {"zh": "现在没有进行中的牌局。", "en": "No hand is running."},
    "table.err.paused": {"zh": "牌桌已暂停。", "en": "The table is paused."},
    "table.err.not_your_seat": {"zh": "这不是你的座位。", "en": "That is not your seat."},
    "table.err.escaped": {"zh": "你已离开这一局。", "en": "You have left this hand."},
    "table.err.bad_action": {"zh": "无法识别的操作。", "en": "Unknown action."},
    "table.err.table_error": {"zh": "牌桌出错，已暂停，稍后恢复。", "en": "The table hit an error and is paused."},
    "table.err.not_your_turn": {"zh": "还没轮到你。", "en": "It is not your turn."},
    "table.err.tile_not_held": {"zh": "你手里没有这张牌。", "en": "You do not hold that tile."},
    "table.err.cannot_claim": {"zh": "这张牌你不能这样吃碰杠胡。", "en": "You cannot claim that tile that way."},
    "table.err.window_closed": {"zh": "已经过了时限。", "en": "Too late: that window has closed."},
    "table.err.wildcard_in_meld": {"zh": "百搭不能吃、碰、杠。", "en": "The wildcard cannot be used in a meld."},
    "table.err.gave_up": {"zh": "你已放弃，只能摸打。", "en": "You gave up: you may only draw and discard."},
    "table.err.hand_over": {"zh": "这一局已经结束。", "en": "This hand is over."},
    # action names
    "table.act.discard": {"zh": "打", "en": "discard"},
    "table.act.tsumo": {"zh": "自摸", "en": "self-draw win"},
    "table.act.angang": {"zh": "暗杠", "en": "concealed kong"},
    "table.act.bugang": {"zh": "补杠", "en": "added kong"},
    "table.act.hu": {"zh": "胡", "en": "win"},
    "table.act.peng": {"zh": "碰", "en": "pung"},
    "table.act.gang": {"zh": "杠", "en": "kong"},
    "table.act.chi": {"zh": "吃", "en": "chow"},
    "table.act.pass": {"zh": "过", "en": "pass"},
    "table.act.persist": {"zh": "坚持", "en": "persist"},
    "table.act.give_up": {"zh": "放弃", "en": "give up"},
    "table.meld.chow": {"zh": "吃", "en": "chow"},
    "table.meld.pung": {"zh": "碰", "en": "pung"},
    "table.meld.kong": {"zh": "明杠", "en": "kong"},
    "table.meld.added_kong": {"zh": "补杠", "en": "added kong"},
    "table.meld.concealed_kong": {"zh": "暗杠", "en": "concealed kong"},
    # terminal table
    "table.ui.header": {"zh": "第{n}局 · {rw}风圈 · 庄家 {dealer} · {wword} {wild}（翻开 {ind}）· 牌墙剩 {wall} 张",
                        "en": "Hand {n} · {rw} round · dealer {dealer} · {wword} {wild} (flipped {ind}) · wall {wall}"},
    "table.ui.wword.jiaxing": {"zh": "百搭", "en": "wildcard"},
    "table.ui.wword.caishen": {"zh": "财神", "en": "caishen"},
    "table.ui.you": {"zh": "你", "en": "you"},
    "table.ui.white_face": {"zh": "白({face})", "en": "White({face})"},
    "table.ui.caishen_line": {"zh": "白板当财神的牌用：{face} · 作废：{voided}",
                              "en": "White plays the caishen's face: {face} · void: {voided}"},
    "table.ui.reseat": {"zh": "一版打完，重新抽风定座：你从{old}位换到{new}位（东位坐庄）。",
                        "en": "A 版 is over and the seats are drawn again: you move from {old} to {new} (East deals)."},
    "table.ui.reseat_stay": {"zh": "一版打完，重新抽风定座：你仍坐{new}位（东位坐庄）。",
                             "en": "A 版 is over and the seats are drawn again: you stay at {new} (East deals)."},
    "table.ui.reseat_line": {"zh": "  {wind}：{name}", "en": "  {wind}: {name}"},
    "table.ui.seat_line": {"zh": "{wind}{dealer} {name} 分 {total:>+6}  {auto}手牌 {n:>2} 张  副露 {melds}",
                           "en": "{wind}{dealer} {name} score {total:>+6}  {auto}{n:>2} tiles  melds {melds}"},
    "table.ui.discards": {"zh": "    弃牌: {tiles}", "en": "    discards: {tiles}"},
    "table.ui.auto": {"zh": "[托管] ", "en": "[auto] "},
    "table.ui.none": {"zh": "无", "en": "none"},
    "table.ui.hand": {"zh": "你的手牌: {tiles}", "en": "Your hand: {tiles}"},
    "table.ui.drawn": {"zh": "  摸到: {tile}", "en": "  drew: {tile}"},
    "table.ui.wild_mark": {"zh": "（*为{wword}，'为被吃碰杠走的牌，{dmark}为庄家）",
                           "en": "(* = {wword}, ' = a discard claimed by another seat, {dmark} = dealer)"},
    "table.ui.dealer_mark": {"zh": "庄", "en": "D"},
    "table.ui.pending_fan": {"zh": "  待胡累计番：{q}（下一个胡牌的人得）", "en": "  cumulative fan waiting: {q} (the next winner takes it)"},
    "table.ui.ready": {"zh": "  听牌：{tiles}", "en": "  ready: you win on {tiles}"},
    "table.ui.ready_if": {"zh": "  听牌：{parts}", "en": "  ready: {parts}"},
    "table.ui.ready_after": {"zh": "打{tile}听{tiles}", "en": "discard {tile} and win on {tiles}"},
    "table.ui.hint": {"zh": "  提示（电脑的打法）：{what}", "en": "  hint (the computer's play): {what}"},
    "table.ui.no_hint": {"zh": "  现在没有提示。", "en": "  No hint now."},
    "table.ui.turn_prompt": {"zh": "出牌：输入牌（如 5m、5万、东）；回车 = {enter}{opts}",
                             "en": "Discard: type a tile (5m, 5p, 1z…); Enter = {enter}{opts}"},
    "table.ui.claim_prompt": {"zh": "{who} 打出 {tile}：{opts}；回车 = 过",
                              "en": "{who} discarded {tile}: {opts}; Enter = pass"},
    "table.ui.rob_prompt": {"zh": "{who} 补杠 {tile}，可以抢杠胡：{opts}；回车 = 过",
                            "en": "{who} adds a kong of {tile}; you may rob it: {opts}; Enter = pass"},
    "table.ui.contract_prompt": {
        "zh": "{a} 与 {b} 互为承包（第三次吃碰杠同一家）。\n"
              "  坚持 = 照常打，还能胡（你胡时他们各付 ×2）；他们中有人胡，你付 ×2。\n"
              "  放弃 = 这一局不付分，但只能摸牌打牌，不能吃碰杠胡。\n{opts}；回车 = 坚持",
        "en": "{a} and {b} are bound by a contract (a third claim on the same seat).\n"
              "  persist = play on and you can still win (then each of them pays you ×2); if one of them wins, "
              "you pay ×2.\n"
              "  give up = you pay nothing this hand, but you may only draw and discard: no claims, no win.\n"
              "{opts}; Enter = persist"},
    "table.ui.input": {"zh": "> ", "en": "> "},
    "table.ui.clock": {"zh": "（{secs:>2} 秒）> ", "en": "({secs:>2} s) > "},
    "table.ui.not_held": {"zh": "你手里没有{tile}。", "en": "You don't hold {tile}."},
    "table.ui.not_discarding": {"zh": "现在不是你出牌：请从上面的选项里选（回车 = {enter}）。",
                                "en": "You are not discarding now: pick one of the options above (Enter = {enter})."},
    "table.ui.no_option": {"zh": "没有第 {n} 项。", "en": "There is no option {n}."},
    "table.ui.dropped": {"zh": "（还没轮到你时输入的“{text}”已忽略）", "en": "(ignored '{text}': typed before your turn)"},
    "table.ui.quit_confirm": {
        "zh": "现在离桌就是逃跑：电脑替你把这一局打完，你付服务费 {fee} 和这个座位输的分，赢了也不给你。"
              "确定离开？输入 y 确认，回车继续打。",
        "en": "Leaving now is an escape: a computer plays your seat to the end of this hand, you pay the fee ({fee}) "
              "and whatever the seat loses, and a win is not paid to you. Leave? y = yes, Enter = stay"},
    "table.ui.quit_confirm_nofee": {
        "zh": "现在离桌就是逃跑：电脑替你把这一局打完，你付这个座位输的分，赢了也不给你。"
              "确定离开？输入 y 确认，回车继续打。",
        "en": "Leaving now is an escape: a computer plays your seat to the end of this hand, you pay "
              "whatever the seat loses, and a win is not paid to you. Leave? y = yes, Enter = stay"},
    "table.ui.quit_stay": {"zh": "继续打。", "en": "Staying."},
    "table.ui.next_hand": {"zh": "回车开始下一局（quit = 离桌）> ", "en": "Enter for the next hand (quit = leave) > "},
    "table.ui.tag.contract": {"zh": "承包", "en": "contract"},
    "table.ui.tag.gave_up": {"zh": "放弃", "en": "gave up"},
    "table.ui.tag.escaped": {"zh": "逃跑", "en": "escaped"},
    "table.ui.tag.robbed": {"zh": "抢杠", "en": "robbed"},
    "table.ui.why.contract": {"zh": "  承包：两家互为承包——其中一家胡，另一家付 ×5、坚持的各付 ×2；别家胡，承包的两家各付 ×2",
                              "en": "  contract: the two bound seats. When one wins, the other pays ×5 and each "
                                    "persisting seat ×2; when another seat wins, each bound seat pays ×2"},
    "table.ui.why.gave_up": {"zh": "  放弃：这一局不付分（也不能胡）", "en": "  gave up: pays nothing this hand (and could not win)"},
    "table.ui.why.escaped": {"zh": "  逃跑：中途离桌，付服务费和本座位输的分，赢了不给",
                             "en": "  escaped: left during the hand: pays the fee and the seat's loss, wins nothing"},
    "table.ui.why.robbed": {"zh": "  抢杠：补杠被抢，这一家付 ×3，别家不付",
                            "en": "  robbed: its added kong was robbed: it pays ×3 alone, the others pay nothing"},
    "table.ui.or_number": {"zh": "；或输入序号 {opts}", "en": "; or a number {opts}"},
    "table.ui.bad_input": {"zh": "看不懂“{text}”。输入 help 查看帮助。", "en": "Cannot read '{text}'. Type help for help."},
    "table.ui.help": {"zh": "输入牌名出牌：5m/5p/5s（万/筒/条），1z-7z，或 5万、5筒、5条、东 南 西 北 白 发 中；"
                            "数字（或操作名：碰、吃、胡、过）选择操作，回车 = 默认，hint（提示）= 电脑的建议，auto = 托管开关，"
                            "autowin = 自动胡开关，quit = 离桌（逃跑），help（帮助）= 本帮助",
                      "en": "Type a tile to discard: 5m/5p/5s (characters/dots/bamboo), 1z-7z, or by name: East South "
                            "West North White Green Red (Chinese names work too: 5万, 东, 白); a number (or its word: pung, chow, win, pass) picks an option, "
                            "Enter = default, hint = the computer's advice, auto = auto-play on/off, "
                            "autowin = auto-win on/off, quit = leave (an escape), help = this help"},
    "table.ui.did": {"zh": "  {who}: {what}", "en": "  {who}: {what}"},
    "table.ui.timeout": {"zh": "  {who} 超时：{what}", "en": "  {who} timed out: {what}"},
    "table.ui.auto_on": {"zh": "  {who} 进入托管。", "en": "  {who}: auto-play on."},
    "table.ui.auto_off": {"zh": "  {who} 取消托管。", "en": "  {who}: auto-play off."},
    "table.ui.autowin_on": {"zh": "  自动胡已开启。", "en": "  Auto-win is on."},
    "table.ui.autowin_off": {"zh": "  自动胡已关闭。", "en": "  Auto-win is off."},
    "table.ui.escape": {"zh": "  {who} 逃跑了，由电脑托管。", "en": "  {who} left the hand; a computer plays the seat."},
    "table.ui.auto_hint": {"zh": "  （托管中：输入 auto 回车取消托管）", "en": "  (on auto-play: type auto to take your seat back)"},
    "table.ui.eof": {"zh": "（输入结束，进入托管）", "en": "(end of input: auto-play on)"},
    "table.ui.result_win": {"zh": "== {who} 胡了{how}！胡牌 {tile} ==", "en": "== Winner: {who}{how}, on {tile} =="},
    "table.ui.self_draw": {"zh": "（自摸）", "en": " (self-draw)"},
    "table.ui.robbed": {"zh": "（抢 {who} 的杠）", "en": " (robbing {who}'s kong)"},
    "table.ui.from": {"zh": "（{who} 放炮）", "en": " (off {who})"},
    "table.ui.drawn_game": {"zh": "== 荒庄：没有人胡 ==", "en": "== Drawn hand: nobody won =="},
    "table.ui.win_hand": {"zh": "  牌: {tiles} + {tile}  {melds}", "en": "  hand: {tiles} + {tile}  {melds}"},
    "table.ui.item": {"zh": "  {label} {value:>3} {unit}", "en": "  {label} {value:>3} {unit}"},
    "table.ui.tai": {"zh": "台", "en": "tai"},
    "table.ui.fan": {"zh": "番", "en": "fan"},
    "table.ui.total": {"zh": "  共 {tai} 台 × 2^{fan} 番 × 底 {stake} = {points}",
                       "en": "  total {tai} tai × 2^{fan} fan × stake {stake} = {points}"},
    "table.ui.payment": {"zh": "  {name} {delta:>+7}{mult}  合计 {total:>+7}{balance}",
                         "en": "  {name} {delta:>+7}{mult}  total {total:>+7}{balance}"},
    "table.ui.balance": {"zh": "  银子 {b}", "en": "  silver {b}"},
    "table.ui.fee": {"zh": "（含服务费 {fee}）", "en": " (fee {fee} included)"},
    "table.ui.match_end": {"zh": "== 牌局结束（{n} 局）==", "en": "== Match over ({n} hands) =="},
    "table.ui.match_end_one": {"zh": "== 牌局结束（1 局）==", "en": "== Match over (1 hand) =="},
    "table.ui.final": {"zh": "  {name} {total:>+7}", "en": "  {name} {total:>+7}"},
    "table.ui.queue": {"zh": "  累计番留到下局: {q}", "en": "  cumulative fan carried over: {q}"},
    "table.ui.queue_dropped": {"zh": "  牌局结束，累计番作废: {q}", "en": "  the match is over: cumulative fan dropped: {q}"},
    # the fair deal (`jxbot play`): the commitment at the deal, the wall revealed after the hand
    "table.ui.commitment": {"zh": "  公平发牌：牌墙承诺 SHA-256 {c}（结束后公布盐，牌墙输入 wall 查看）",
                            "en": "  fair deal: the wall's SHA-256 commitment is {c} (the salt after the hand, the wall on "
                                  "request)"},
    "table.ui.reveal": {"zh": "  公平发牌核对：盐 {salt}，承诺 {c}（输入 wall 或 牌墙 查看整副牌墙）",
                        "en": "  fair deal check: salt {salt}, commitment {c} (type wall to see the whole wall)"},
    "table.ui.reveal_wall": {"zh": "  牌墙（头到尾）：{wall}\n  核对：jxbot verify --wall '{wall}' --salt {salt} --commitment {c}",
                             "en": "  the wall (head to tail): {wall}\n"
                                   "  check: jxbot verify --wall '{wall}' --salt {salt} --commitment {c}"},
    "table.ui.next_hand_wall": {"zh": "回车开始下一局（wall = 看牌墙，quit = 离桌）> ",
                                "en": "Enter for the next hand (wall = see the wall, quit = leave) > "},
    "table.ui.interrupted": {"zh": "已中断。", "en": "Interrupted."},
    "table.ui.next_hand_review": {"zh": "回车开始下一局（r = 复盘，wall = 看牌墙，quit = 离桌）> ",
                                  "en": "Enter for the next hand (r = review, wall = see the wall, quit = leave) > "},
    "table.ui.which": {"zh": "有几个“{text}”可选：请输入它的编号。", "en": "More than one option is '{text}': type its number."},
    "table.ui.not_offered": {"zh": "现在不能“{text}”：请从上面的选项里选（回车 = {enter}）。",
                             "en": "'{text}' is not one of the options now: pick one above (Enter = {enter})."},
    "table.ui.next_bad": {"zh": "“{text}”不是这里的选项：回车开始下一局。",
                          "en": "'{text}' is not one of the choices here: Enter deals the next hand."},
    "table.ui.reviewing": {"zh": "复盘中…（与专家比较你的每个决定）", "en": "Reviewing… (each of your decisions against the expert's)"},
}
register(STRINGS)


def error_text(code: str, lang: str | None = None) -> str:
    """A player-facing sentence for a ``submit`` error code."""
    for key in (f"table.err.{code}", f"game.error.{code}"):
        text = t(key, lang)
        if text != key:
            return text
    return code
