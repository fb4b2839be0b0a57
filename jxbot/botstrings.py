"""Strings of the Discord bot (zh-CN and en), registered in the shared catalog (``jxbot.i18n``)."""

from __future__ import annotations

from jxbot.i18n import register


def _cmd(key: str, zh_name: str, en_name: str, zh_desc: str, en_desc: str) -> dict[str, dict[str, str]]:
    return {f"bot.cmd.{key}.name": {"zh": zh_name, "en": en_name},
            f"bot.cmd.{key}.desc": {"zh": zh_desc, "en": en_desc}}


def _opt(key: str, zh_name: str, en_name: str, zh_desc: str, en_desc: str) -> dict[str, dict[str, str]]:
    return {f"bot.opt.{key}.name": {"zh": zh_name, "en": en_name},
            f"bot.opt.{key}.desc": {"zh": zh_desc, "en": en_desc}}


STRINGS: dict[str, dict[str, str]] = {}
for spec in [
    ("mahjong", "麻将", "mahjong", "嘉兴麻将牌桌", "Jiaxing Mahjong tables"),
    ("create", "开桌", "create", "在本频道开一张新牌桌", "Open a new table in this channel"),
    ("join", "加入", "join", "坐到本频道的牌桌", "Sit at this channel's table"),
    ("leave", "离开", "leave", "离开牌桌（牌局中离开算逃跑）", "Leave the table (leaving a running hand is an escape)"),
    ("start", "开始", "start", "开始牌局，空位由电脑补上", "Start the match; empty seats get computer players"),
    ("addbot", "加电脑", "addbot", "给空位加一个电脑玩家", "Put a computer player in an empty seat"),
    ("kick", "踢出", "kick", "开局前请一位玩家离桌（桌主）", "Remove a player before the start (table owner)"),
    ("status", "状态", "status", "本频道牌桌的状态", "Status of this channel's table"),
    ("hand", "我的牌", "hand", "再发一次我的手牌", "Send me my hand again"),
    ("autowin", "自动胡", "autowin", "开关听牌自动胡", "Switch auto-win on or off"),
    ("rules", "规则", "rules", "嘉兴麻将规则（图解）", "The rules of Jiaxing Mahjong, illustrated"),
    ("score", "算分", "score", "算一手牌的台和番", "Score a hand: 台 and 番"),
    ("balance", "银子", "balance", "查看银子余额", "Show a silver balance"),
    ("daily", "签到", "daily", "每日领取银子", "Collect your daily silver"),
    ("pay", "转账", "pay", "把银子转给另一位玩家", "Give silver to another player"),
    ("leaderboard", "排行榜", "leaderboard", "本服务器排行榜", "This server's leaderboard"),
    ("stats", "战绩", "stats", "玩家战绩", "A player's statistics"),
    ("history", "历史", "history", "我最近的牌局", "My last hands"),
    ("admin", "管理", "admin", "牌桌与银子管理（需要管理服务器权限）", "Table and silver admin (Manage Server)"),
    ("settings", "设置", "settings", "查看或修改本服务器的牌桌设置", "Show or change this server's table settings"),
    ("grant", "发放", "grant", "给玩家加（或减）银子", "Add (or remove) silver for a player"),
    ("set", "设定", "set", "把玩家的银子设为某个数", "Set a player's silver to an amount"),
]:
    STRINGS.update(_cmd(*spec))
for spec in [
    ("stake", "底分", "stake", "每台的银子（底分）", "Silver per 台 (the stake)"),
    ("ruleset", "规则", "ruleset", "规则集", "Ruleset"),
    ("rounds", "圈数", "rounds", "打几圈（一圈 = 东风圈；不填：按规则，财神一版四圈）",
     "Wind rounds to play (default: the ruleset's match; caishen: one 版, 4 rounds)"),
    ("user", "玩家", "user", "玩家", "The player"),
    ("amount", "数量", "amount", "银子数量", "Amount of silver"),
    ("reason", "原因", "reason", "原因（记在账上）", "Reason (kept in the ledger)"),
    ("kind", "类别", "kind", "按什么排", "What to rank by"),
    ("period", "时段", "period", "时间范围", "Time range"),
    ("tiles", "牌", "tiles", "手牌，如 123m456p789s11z 东", "A hand, e.g. 123m456p789s1122z"),
    ("wildcard", "百搭", "wildcard", "百搭牌，如 5p", "The 百搭 (wildcard) tile, e.g. 5p"),
    ("fee", "服务费", "fee", "每局每人服务费", "Service fee per seat per hand"),
    ("min_stake", "最低底分", "min_stake", "最低底分", "Lowest stake"),
    ("max_stake", "最高底分", "max_stake", "最高底分", "Highest stake"),
    ("claim_window", "抢牌秒数", "claim_window", "吃碰杠胡的等待秒数", "Seconds to claim a discard"),
    ("turn_seconds", "出牌秒数", "turn_seconds", "每手出牌时限（秒）", "Turn time limit in seconds"),
    ("daily_amount", "签到银子", "daily_amount", "每日签到的银子", "Silver given by /daily"),
    ("starting_grant", "初始银子", "starting_grant", "新玩家的初始银子", "Silver for a new player"),
]:
    STRINGS.update(_opt(*spec))

STRINGS.update({
    # choices
    "bot.choice.kind.balance": {"zh": "银子", "en": "balance"},
    "bot.choice.kind.net": {"zh": "净赢", "en": "net winnings"},
    "bot.choice.kind.wins": {"zh": "胡牌次数", "en": "wins"},
    "bot.choice.kind.biggest": {"zh": "最大一手", "en": "biggest hand"},
    "bot.choice.period.day": {"zh": "今天", "en": "today"},
    "bot.choice.period.week": {"zh": "本周", "en": "this week"},
    "bot.choice.period.all": {"zh": "全部", "en": "all time"},
    # permissions (names shown when missing)
    "bot.perm.view_channel": {"zh": "查看频道", "en": "View Channel"},
    "bot.perm.send_messages": {"zh": "发送消息", "en": "Send Messages"},
    "bot.perm.embed_links": {"zh": "嵌入链接", "en": "Embed Links"},
    "bot.perm.attach_files": {"zh": "附加文件", "en": "Attach Files"},
    "bot.perm.read_message_history": {"zh": "读取消息历史", "en": "Read Message History"},
    "bot.perm.create_public_threads": {"zh": "创建公开子区", "en": "Create Public Threads"},
    "bot.perm.send_messages_in_threads": {"zh": "在子区中发送消息", "en": "Send Messages in Threads"},
    # errors (short, ephemeral)
    "bot.err.internal": {"zh": "出错了，已记录。请稍后再试。", "en": "Something went wrong; it has been logged. Please try again."},
    "bot.err.table_stopped": {"zh": "这张牌桌因错误停了（已记录），请看频道里的说明。",
                               "en": "The table stopped because of an error (logged); see the channel for what happens next."},
    "bot.err.escaped": {"zh": "你已离开本局，电脑在替你打完。", "en": "You left this hand; a computer is finishing it for you."},
    "bot.err.gave_up": {"zh": "你在承包中选择了放弃：本局只能摸牌打牌。", "en": "You gave up in the contract: you can only draw and discard this hand."},
    "bot.err.stale": {"zh": "这个按钮已经过期了。", "en": "That button has expired."},
    "bot.err.not_your_seat": {"zh": "这不是你的座位的按钮。", "en": "That button belongs to another player."},
    "bot.err.not_now": {"zh": "现在不能这样做：{reason}", "en": "You can't do that now: {reason}"},
    "bot.err.too_late": {"zh": "太晚了，这个机会已经过去。", "en": "Too late: that chance has passed."},
    "bot.err.already": {"zh": "已经收到你的选择了。", "en": "Your choice was already taken."},
    "bot.err.guild_only": {"zh": "这个命令只能在服务器频道里用。", "en": "This command only works in a server channel."},
    "bot.err.need_manage_guild": {"zh": "需要“管理服务器”权限。", "en": "You need the Manage Server permission."},
    "bot.err.cooldown": {"zh": "请 {seconds} 秒后再试。", "en": "Try again in {seconds} s."},
    "bot.err.no_store": {"zh": "银子功能暂时不可用。", "en": "Silver is not available right now."},
    "bot.err.missing_perms": {"zh": "我在这个频道缺少权限：{perms}。请管理员给我这些权限后再开桌。",
                              "en": "I am missing permissions in this channel: {perms}. Ask an admin to grant them, then create the table again."},
    "bot.err.no_table": {"zh": "这个频道没有牌桌。用 /麻将 开桌 开一张。", "en": "No table in this channel. Use /mahjong create to open one."},
    "bot.err.table_exists": {"zh": "这个频道已经有一张牌桌了。", "en": "This channel already has a table."},
    "bot.err.at_other_table": {"zh": "你已经坐在另一张牌桌（<#{channel}>）。", "en": "You are already at another table (<#{channel}>)."},
    "bot.err.at_dm_table": {"zh": "你已经坐在另一张牌桌（在私信里）。", "en": "You are already at another table (in your DMs)."},
    # a table this process stopped (several processes: its lease moved) while the store still runs it
    "bot.err.channel_restarting": {"zh": "这个频道的牌桌正在重启，请几秒钟后再试。",
                                   "en": "This channel's table is restarting. Please try again in a few seconds."},
    "bot.err.seat_restarting": {"zh": "你所在的牌桌（<#{channel}>）正在重启，请几秒钟后再试。",
                                "en": "Your table (<#{channel}>) is restarting. Please try again in a few seconds."},
    "bot.err.already_seated": {"zh": "你已经坐下了。", "en": "You are already seated."},
    "bot.err.table_full": {"zh": "牌桌已满。", "en": "The table is full."},
    "bot.err.not_seated": {"zh": "你不在这张牌桌上。", "en": "You are not at this table."},
    "bot.err.not_owner": {"zh": "只有桌主可以这样做。", "en": "Only the table owner can do that."},
    "bot.err.running": {"zh": "牌局已经开始了。", "en": "The match has already started."},
    "bot.err.not_running": {"zh": "牌局还没有开始。", "en": "The match has not started yet."},
    "bot.err.no_humans": {"zh": "至少要有一位真人玩家。", "en": "At least one human player is needed."},
    "bot.err.cannot_kick_self": {"zh": "桌主不能踢自己，用 /麻将 离开。", "en": "You can't kick yourself; use /mahjong leave."},
    "bot.err.stake_range": {"zh": "底分必须在 {lo} 到 {hi} 之间。", "en": "The stake must be between {lo} and {hi}."},
    "bot.err.rounds_range": {"zh": "圈数必须在 1 到 {hi} 之间。", "en": "Rounds must be between 1 and {hi}."},
    "bot.err.unknown_ruleset": {"zh": "没有这个规则集：{name}", "en": "Unknown ruleset: {name}"},
    "bot.err.poor": {"zh": "银子不够：这张桌至少要 {need}，你有 {have}。", "en": "Not enough silver: this table needs {need}, you have {have}."},
    "bot.err.bad_tiles": {"zh": "看不懂这手牌：{error}", "en": "Can't read that hand: {error}"},
    "bot.err.no_game": {"zh": "牌局引擎还没有装好。", "en": "The game engine is not available in this build."},
    "bot.err.amount": {"zh": "数量必须是正整数。", "en": "The amount must be a positive whole number."},
    "bot.err.self_pay": {"zh": "不能转给自己。", "en": "You can't pay yourself."},
    "bot.err.bot_user": {"zh": "不能转给机器人。", "en": "You can't pay a bot."},
    # lobby
    "bot.lobby.title": {"zh": "嘉兴麻将 · 牌桌 {table}", "en": "Jiaxing Mahjong · table {table}"},
    "bot.lobby.info": {"zh": "底分 {stake} · {rounds} 圈 · 规则 {ruleset} · 服务费 {fee}",
                   "en": "Stake {stake} · {rounds} round(s) · ruleset {ruleset} · fee {fee}"},
    "bot.lobby.owner": {"zh": "桌主：<@{owner}>", "en": "Owner: <@{owner}>"},
    "bot.lobby.empty": {"zh": "（空位）", "en": "(empty)"},
    "bot.lobby.computer": {"zh": "电脑 {n}", "en": "Computer {n}"},
    "bot.lobby.hint": {"zh": "按“加入”坐下；桌主按“开始”，空位由电脑补上。", "en": "Press Join to sit; the owner presses Start, empty seats get computer players."},
    "bot.lobby.started": {"zh": "牌局已开始。", "en": "The match has started."},
    "bot.lobby.closed": {"zh": "牌桌已关闭。", "en": "The table is closed."},
    "bot.btn.join": {"zh": "加入", "en": "Join"},
    "bot.btn.leave": {"zh": "离开", "en": "Leave"},
    "bot.btn.addbot": {"zh": "加电脑", "en": "Add computer"},
    "bot.btn.start": {"zh": "开始", "en": "Start"},
    "bot.btn.show_hand": {"zh": "看我的牌", "en": "Show my hand"},
    "bot.btn.next": {"zh": "下一局", "en": "Next"},
    "bot.ok.created": {"zh": "牌桌已开好。", "en": "Table created."},
    "bot.ok.joined": {"zh": "你坐在 {wind} 位。", "en": "You sit in seat {wind}."},
    "bot.ok.left": {"zh": "你离开了牌桌。", "en": "You left the table."},
    "bot.ok.escaped": {"zh": "你在牌局中离开（逃跑）：本局由电脑代打，按规则扣服务费和应付的输分。",
                   "en": "You left a running hand (escape): the computer plays your seat to the end and you are charged the fee plus your loss."},
    "bot.ok.escaped_event": {"zh": "你在牌局中离开（逃跑）：这一局按规则扣服务费和应付的输分；电脑代打到这张牌桌结束，这张牌桌的成绩仍算你的。",
                         "en": "You left a running hand (escape): you are charged the fee plus your loss for it; a "
                               "computer plays your seat to the end of this table, and the table's result counts for you."},
    "bot.ok.escaped_event_points": {"zh": "你离开了比赛牌桌：电脑代打到这张牌桌结束，这张牌桌的成绩仍算你的。这场比赛只计分：不动银子。",
                                    "en": "You left your event table: a computer plays your seat to the end of this "
                                          "table, and the table's result counts for you. The event is points only: "
                                          "no silver moves."},
    "bot.ok.bot_added": {"zh": "已加入电脑玩家。", "en": "Computer player added."},
    "bot.ok.kicked": {"zh": "已请 <@{user}> 离桌。", "en": "<@{user}> was removed from the table."},
    "bot.ok.started": {"zh": "开始！", "en": "Started!"},
    "bot.ok.autowin_on": {"zh": "听牌自动胡：开。", "en": "Auto-win: on."},
    "bot.ok.autowin_off": {"zh": "听牌自动胡：关。", "en": "Auto-win: off."},
    "bot.ok.panel_sent": {"zh": "已把手牌私信给你。", "en": "Your hand was sent to you by DM."},
    "bot.ok.choice_taken": {"zh": "好的。", "en": "OK."},
    "bot.dm.closed": {"zh": "<@{user}> 我无法私信你（私信已关闭）。请用牌桌消息里的“看我的牌”按钮查看手牌。",
                  "en": "<@{user}> I can't DM you (your DMs are closed). Use the \"Show my hand\" button on the table message to see your hand."},
    "bot.dm.closed_dm_table": {"zh": "无法私信 <@{user}>（私信已关闭）：这张私信牌桌上，TA 的座位超时后由电脑代打。",
                               "en": "<@{user}> cannot be sent DMs (closed): at this DM table a computer plays their seat "
                                     "after its timeouts."},
    "bot.dm.resumed": {"zh": "机器人重启过，牌局继续。", "en": "The bot restarted; the match continues."},
    # table status
    "bot.status.line": {"zh": "第 {hand} 局 · {round}风圈 · 庄 {dealer} · 百搭 {wild} · 余 {wall} 张",
                    "en": "Hand {hand} · {round} round · dealer {dealer} · wildcard {wild} · {wall} tiles left"},
    "bot.status.turn": {"zh": "轮到 {name}，{when} 超时", "en": "{name} to play, time runs out {when}"},
    "bot.status.turn_cpu": {"zh": "轮到 {name}", "en": "{name} to play"},
    "bot.status.claim": {"zh": "{name} 打出 {tile}，等待吃碰杠胡（{when}）", "en": "{name} discarded {tile}; waiting for claims ({when})"},
    "bot.status.contract": {"zh": "承包：{a} 与 {b}，等待其他两家选择放弃/坚持（{when}）", "en": "Contract: {a} and {b}; the other two choose give up / persist ({when})"},
    "bot.status.rob": {"zh": "补杠 {tile}，等待抢杠（{when}）", "en": "Added kong of {tile}; waiting for robbing ({when})"},
    "bot.status.lobby": {"zh": "等待玩家：{n}/4", "en": "Waiting for players: {n}/4"},
    "bot.status.ended": {"zh": "本局结束。", "en": "The hand is over."},
    "bot.status.reseat": {"zh": "新的一版：重新抽风位换座。", "en": "A new 版: the players drew new seats."},
    "bot.status.moved": {"zh": "机器人重启过：牌桌移到了新消息 {link}", "en": "The bot restarted: the table moved to a new message {link}"},
    "bot.status.match_over": {"zh": "牌局结束，谢谢！", "en": "The match is over. Thanks for playing!"},
    "bot.result.win": {"zh": "{name} 胡了 {tile}！{tai} 台 × 2^{fan} 番 × 底分 {stake} = {points}（每家再乘以下面的倍数）",
                   "en": "{name} wins on {tile}! {tai} 台 × 2^{fan} 番 × stake {stake} = {points} (each seat pays it "
                         "× its multiplier below)"},
    "bot.choice.ruleset.jiaxing": {"zh": "嘉兴", "en": "jiaxing"},
    "bot.choice.ruleset.caishen": {"zh": "财神", "en": "caishen"},
    "bot.result.win_cs": {"zh": "{name} 胡了 {tile}！底分 {formula}（每家再乘以下面的倍数）",
                      "en": "{name} wins on {tile}! stake {formula} (each seat pays it × its multiplier below)"},
    "bot.result.draw": {"zh": "荒牌，流局。", "en": "Drawn hand (荒): nobody won."},
    "bot.result.payment": {"zh": "{name}：{delta:+d}（余 {balance}）", "en": "{name}: {delta:+d} (balance {balance})"},
    "bot.panel.title": {"zh": "你的手牌 · 牌桌 {table} · {wind} 位", "en": "Your hand · table {table} · seat {wind}"},
    "bot.panel.your_turn": {"zh": "轮到你出牌（{when} 超时）。", "en": "Your turn ({when})."},
    "bot.panel.claim": {"zh": "{name} 打出 {tile}：要吗？（{when}）", "en": "{name} discarded {tile}: claim it? ({when})"},
    "bot.panel.contract": {"zh": "{a} 与 {b} 互为承包。你放弃还是坚持？（{when}）", "en": "{a} and {b} are bound by a contract. Give up or persist? ({when})"},
    "bot.panel.auto": {"zh": "🤖 电脑正在替你打。按任意按钮接回。", "en": "🤖 A computer is playing for you. Press any button to take over."},
    "bot.ok.next_vote": {"zh": "好的，等其他人（{n}/{total}）。", "en": "OK, waiting for the others ({n}/{total})."},
    "bot.panel.wait": {"zh": "等待其他玩家…", "en": "Waiting for the others…"},
    "bot.act.tsumo": {"zh": "自摸", "en": "Self-draw win"},
    "bot.act.hu": {"zh": "胡", "en": "Win"},
    "bot.act.angang": {"zh": "暗杠 {tile}", "en": "Kong {tile}"},
    "bot.act.bugang": {"zh": "补杠 {tile}", "en": "Add kong {tile}"},
    "bot.act.gang": {"zh": "杠", "en": "Kong"},
    "bot.act.peng": {"zh": "碰", "en": "Pung"},
    "bot.act.chi": {"zh": "吃 {tiles}", "en": "Chow {tiles}"},
    "bot.white_face": {"zh": "白({face})", "en": "White({face})"},
    "bot.act.pass": {"zh": "过", "en": "Pass"},
    "bot.act.persist": {"zh": "坚持", "en": "Persist"},
    "bot.act.give_up": {"zh": "放弃", "en": "Give up"},
    "bot.act.autowin": {"zh": "自动胡", "en": "Auto-win"},
    # economy
    "bot.eco.balance": {"zh": "<@{user}> 有 {amount} 两银子。", "en": "<@{user}> has {amount} silver."},
    "bot.eco.daily": {"zh": "领到 {amount} 两银子（连续 {streak} 天）。下次：{next}", "en": "You got {amount} silver (streak {streak}). Next: {next}"},
    "bot.eco.daily_wait": {"zh": "今天已经签到过了，下次：{next}", "en": "Already collected; next: {next}"},
    "bot.eco.paid": {"zh": "已转给 <@{user}> {amount} 两银子。你还有 {balance}。", "en": "Paid {amount} silver to <@{user}>. You have {balance} left."},
    "bot.eco.leaderboard": {"zh": "排行榜 · {kind} · {period}", "en": "Leaderboard · {kind} · {period}"},
    "bot.eco.lb_empty": {"zh": "还没有人上榜。", "en": "Nobody on the board yet."},
    "bot.eco.review_stats_one": {"zh": "🧑‍🏫 复盘 1 手：与专家一致 {pct}% · 估计少赢 {lost} 银",
                                 "en": "🧑‍🏫 Reviewed 1 hand: {pct}% agreement with the expert · {lost} silver lost"},
    "bot.eco.review_stats": {"zh": "🧑‍🏫 复盘 {hands} 手：与专家一致 {pct}% · 每手估计少赢 {lost} 银",
                             "en": "🧑‍🏫 Reviewed {hands} hands: {pct}% agreement with the expert · {lost} silver lost "
                                   "per hand"},
    "bot.eco.stats": {"zh": "<@{user}> 的战绩：{hands} 局，胡 {wins} 次（{rate}%），自摸 {tsumo}，最大一手 {best}，净 {net:+d}",
                  "en": "<@{user}>: {hands} hands, {wins} wins ({rate}%), {tsumo} self-draws, biggest {best}, net {net:+d}"},
    "bot.eco.history_empty": {"zh": "你还没有打过牌。", "en": "You have not played a hand yet."},
    "bot.eco.history_line": {"zh": "{when} · {result} · {delta:+d}", "en": "{when} · {result} · {delta:+d}"},
    "bot.eco.granted": {"zh": "已给 <@{user}> {amount:+d}，现在 {balance}。", "en": "Gave <@{user}> {amount:+d}; now {balance}."},
    "bot.eco.set": {"zh": "<@{user}> 的银子设为 {balance}。", "en": "<@{user}> now has {balance}."},
    "bot.admin.settings": {"zh": "本服务器的牌桌设置：\n{lines}", "en": "This server's table settings:\n{lines}"},
    "bot.admin.updated": {"zh": "已更新。", "en": "Updated."},
    "bot.rules.summary_caishen": {
        "zh": "**财神麻将**：庄家掷骰，从海底数出一张翻开，其牌种为财神（胡牌时可当任何牌），白板当财神原来的牌用（吃、碰、杠、胡都算）。"
              "海底留 10 对不摸；杠牌从其前面最后一对的下面一张补，上面一张作废（亮出，不能吃碰）；摸完无人胡即流局（庄家付每家 2 点并连庄）。"
              "四组一对或七对子可胡，且须二倍以上：平胡自摸 ×2，七对子 ×2、自摸 ×4；财神头 ×4、单钓财神头 ×8、财神会 ×4 都是总倍数，自摸不再翻倍；"
              "多种牌型取最大再每种 ×2，杠底再翻倍。打出财神（漂财）后，在打出别的牌之前，漂财者不能吃碰杠、只能自摸："
              "漂财一次 ×8、连漂 ×16。庄家连胡底数 2、3、4…；放铳者多付一份。",
        "en": "**Caishen Mahjong**: the dealer rolls and a tile counted from the tail is flipped; its kind is the "
              "caishen (wild for winning) and White plays as the caishen's own face (in chows, pungs, kongs and "
              "wins). 20 tiles stay back; a kong takes the lower tile of the last pair in front of them and the "
              "upper one is void (shown, never claimable); when the wall runs out with no win the hand is drawn "
              "(the dealer pays each other seat 2 and keeps the deal). Four sets and a pair, or seven pairs, win "
              "if worth at least x2: a plain self-draw x2, seven pairs x2 (x4 self-drawn); caishen pair x4, "
              "single-wait caishen pair x8, three caishen x4 are totals, self-draw does not double them; several "
              "patterns: the largest, x2 per extra one; a kong draw doubles. After discarding a caishen (a float) "
              "the floater may not chow, pung or kong and wins only by self-draw until it discards another tile: "
              "x8 once, x16 twice in a row. The dealer's base grows 2, 3, 4... while they keep the deal; the "
              "discarder pays one extra share.",
    },
    "bot.rules.summary": {
        "zh": "**嘉兴麻将（抬头胡）**\n• 136 张，无花。翻一张牌，同种其余三张为**百搭**（万能牌）。\n"
              "• 胡牌：四组一对，且必须是 清一色 / 混一色 / 字一色 / 对对胡 之一。\n"
              "• 得分 = 底分 × 台 × 2^番。台：中发白、圈风、门风刻子各 1，无百搭 1，对对胡 2，混一色 2，清一色 4，字一色 10。\n"
              "• 番：三百搭、杠上开花、单吊、海底捞月各 1；天胡、地胡 2；黄番/老头黄/包子/百搭连庄 累积番。\n"
              "• 吃碰杠胡 5 秒内按按钮；胡 > 碰/杠 > 吃。第三次吃碰同一家 → 承包。",
        "en": "**Jiaxing Mahjong**\n• 136 tiles, no flowers. A flipped tile makes the other three of its kind **wildcards** (百搭).\n"
              "• A win is four sets and a pair AND one of: full flush, half flush, all honors, all pungs.\n"
              "• Score = stake × 台 × 2^番. 台: dragon / round-wind / seat-wind pungs 1 each, no wildcard 1, all pungs 2, half flush 2, full flush 4, all honors 10.\n"
              "• 番: three wildcards, kong bloom, single wait, last tile 1 each; heavenly / earthly 2; cumulative 番 from drawn hands and special deals.\n"
              "• Claim a discard within 5 s with the buttons; win > pung/kong > chow. A third claim on the same seat binds a contract."},
    "bot.score.result": {"zh": "{tiles}：{tai} 台 × 2^{fan} 番 = {points}（底分 {stake}）\n{items}",
                     "en": "{tiles}: {tai} 台 × 2^{fan} 番 = {points} (stake {stake})\n{items}"},
    "bot.score.result_cs": {"zh": "{tiles}（财神 {wild}）：底分 {formula}\n{items}",
                        "en": "{tiles} (财神 {wild}): stake {formula}\n{items}"},
    "bot.score.not_winning": {"zh": "{tiles} 不是胡牌（{reason}）。", "en": "{tiles} is not a winning hand ({reason})."},
})

register(STRINGS)
