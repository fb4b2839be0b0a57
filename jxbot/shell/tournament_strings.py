"""The tournament commands' names, options, answers and channel texts (zh and en; cogs/tournament.py), registered
before the cog's decorators read them."""

from __future__ import annotations

from jxbot.i18n import register

register({
    "tour.cmd.name": {"zh": "比赛", "en": "tournament"},
    "tour.cmd.desc": {"zh": "比赛：瑞士制或复式赛", "en": "Tournaments: Swiss or duplicate events"},
    "tour.cmd.create.name": {"zh": "创建", "en": "create"},
    "tour.cmd.create.desc": {"zh": "创建一场比赛（需要管理服务器权限）", "en": "Create an event (Manage Server)"},
    "tour.cmd.join.name": {"zh": "报名", "en": "join"},
    "tour.cmd.join.desc": {"zh": "报名参加比赛", "en": "Register for the event"},
    "tour.cmd.leave.name": {"zh": "退出", "en": "leave"},
    "tour.cmd.leave.desc": {"zh": "取消报名", "en": "Withdraw your registration"},
    "tour.cmd.checkin.name": {"zh": "签到", "en": "checkin"},
    "tour.cmd.checkin.desc": {"zh": "签到：开始前；被电脑代打者比赛中签到，下一轮起亲自上场",
                              "en": "Check in before the start; substituted by a computer? Check in to play the next round"},
    "tour.cmd.start.name": {"zh": "开始", "en": "start"},
    "tour.cmd.start.desc": {"zh": "开始比赛（需要管理服务器权限）", "en": "Start the event (Manage Server)"},
    "tour.cmd.standings.name": {"zh": "排名", "en": "standings"},
    "tour.cmd.standings.desc": {"zh": "比赛排名", "en": "The event's standings"},
    "tour.cmd.cancel.name": {"zh": "取消", "en": "cancel"},
    "tour.cmd.cancel.desc": {"zh": "取消比赛（需要管理服务器权限）", "en": "Cancel the event (Manage Server)"},
    "tour.opt.name.name": {"zh": "名称", "en": "name"},
    "tour.opt.name.desc": {"zh": "比赛名称", "en": "The event's name"},
    "tour.opt.format.name": {"zh": "赛制", "en": "format"},
    "tour.opt.format.desc": {"zh": "瑞士制或复式", "en": "Swiss or duplicate"},
    "tour.opt.rounds.name": {"zh": "轮数", "en": "rounds"},
    "tour.opt.rounds.desc": {"zh": "比赛轮数", "en": "Rounds of the event"},
    "tour.opt.hands.name": {"zh": "每桌局数", "en": "hands"},
    "tour.opt.hands.desc": {"zh": "每轮每桌打几局", "en": "Hands per table in a round"},
    "tour.opt.stake.name": {"zh": "底分", "en": "stake"},
    "tour.opt.stake.desc": {"zh": "0 为只计分，不动银子", "en": "0: points only, no silver moves"},
    "tour.opt.start.name": {"zh": "开始于", "en": "start_in"},
    "tour.opt.start.desc": {"zh": "几分钟后自动开始（不填则手动开始）", "en": "Start automatically in this many minutes"},
    "tour.opt.checkin.name": {"zh": "签到时长", "en": "checkin"},
    "tour.opt.checkin.desc": {"zh": "开始前几分钟开放签到（0：报名即签到）",
                              "en": "Check-in opens this many minutes before the start (0: registering is checking in)"},
    "tour.opt.substitute.name": {"zh": "电脑替补", "en": "substitute"},
    "tour.opt.substitute.desc": {"zh": "未签到者由电脑代打", "en": "Computers play for players not checked in"},
    "tour.opt.wait.name": {"zh": "等待时长", "en": "wait"},
    "tour.opt.wait.desc": {"zh": "不替补时，牌桌最多等未签到者几分钟，之后由电脑代打",
                           "en": "Without substitutes: minutes a table waits for a no-show before a computer plays"},
    "tour.opt.event.name": {"zh": "比赛", "en": "event"},
    "tour.opt.event.desc": {"zh": "比赛编号（不填：本服务器最近的比赛）", "en": "The event's id (default: this server's latest)"},
    "tour.choice.swiss": {"zh": "瑞士制", "en": "Swiss"},
    "tour.choice.duplicate": {"zh": "复式（同牌墙）", "en": "Duplicate (same walls)"},
    "tour.btn.register": {"zh": "报名", "en": "Register"},
    "tour.announce": {"zh": "🏆 **{name}**（编号 `{id}`）· {fmt} · {rounds} 轮 · 每桌 {hands} 局 · {stake}\n"
                            "牌墙承诺：`{c}`（比赛结束时公布密钥，可用 `/麻将 验牌 {id}` 核对）",
                      # "rounds: 1", not "1 rounds" (the default is one hand a table: "1 hands" read wrong)
                      "en": "🏆 **{name}** (id `{id}`) · {fmt} · rounds: {rounds} · hands a table: {hands} · {stake}\n"
                            "Walls commitment: `{c}` (the secret is revealed at the end: check with "
                            "`/mahjong verify {id}`)"},
    "tour.points_only": {"zh": "只计分", "en": "points only"},
    "tour.staked": {"zh": "底分 {stake}", "en": "stake {stake}"},
    "tour.players": {"zh": "已报名 {n} 人", "en": "{n} registered"},
    "tour.starts_at": {"zh": "开始时间：<t:{at}:R>", "en": "Starts <t:{at}:R>"},
    "tour.checkin_opens": {"zh": "签到开放：<t:{at}:f>（<t:{at}:R>）", "en": "Check-in opens <t:{at}:f> (<t:{at}:R>)"},
    "tour.reminder": {"zh": "⏰ **{name}** 签到已开放，比赛 <t:{start}:R> 开始。还没签到的请用 `/比赛 签到`：{who}",
                      "en": "⏰ **{name}**: check-in is open; the event starts <t:{start}:R>. Not checked in yet? "
                            "Use `/tournament checkin`: {who}"},
    "tour.wait_expired": {"zh": "⌛ **{name}**：牌桌已等待 {m} 分钟，{who} 仍未签到，改由电脑代打（成绩归其本人；"
                                "之后签到，可从下一轮起亲自上场）。",
                          "en": "⌛ **{name}**: the tables waited their limit ({m} min); {who} did not check in, so a computer "
                                "plays their seats (the result stays theirs; checking in later, they play from the "
                                "next round on)."},
    "tour.ok.created": {"zh": "比赛已创建。", "en": "Event created."},
    "tour.not_started": {"zh": "🚫 **{name}** 到了开始时间，却没有可以参赛的人（没人报名，或报名的人都没签到）：比赛已取消。",
                         "en": "🚫 **{name}** did not start: at its start time nobody could play (nobody registered, "
                               "or nobody registered had checked in). The event is cancelled."},
    "tour.reg_closed.started": {"zh": "报名已截止：比赛已经开始。", "en": "Registration is closed: the event has started."},
    "tour.reg_closed.cancelled": {"zh": "🚫 比赛已取消。", "en": "🚫 The event was cancelled."},
    "tour.ok.joined": {"zh": "报名成功。", "en": "You are registered."},
    # an event with check-in: registering is not enough, and the player was not told (issue 32's no-shows)
    "tour.ok.joined_checkin": {"zh": "报名成功。别忘了签到：开始前用 `/比赛 签到`（{when}），未签到的人不能亲自上场。",
                               "en": "You are registered. Check in too: `/tournament checkin` before the start "
                                     "({when}); a player not checked in does not play in person."},
    "tour.checkin_when.now": {"zh": "现在就可以签到", "en": "open now"},
    "tour.checkin_when.at": {"zh": "<t:{at}:f> 开放", "en": "it opens <t:{at}:f>"},
    "tour.checkin_needed": {"zh": "报名后还需签到：`/比赛 签到`（现在就可以）。",
                            "en": "Registered players check in too: `/tournament checkin` (open now)."},
    "tour.ok.left": {"zh": "已取消报名。", "en": "Registration withdrawn."},
    "tour.ok.checked_in": {"zh": "签到成功。", "en": "Checked in."},
    "tour.ok.back": {"zh": "签到成功：你从第 {r} 轮起亲自上场（本轮由电脑代打完，成绩归你）。",
                     "en": "Checked in: you play from round {r} on (a computer finishes this round for you; the "
                           "result stays yours)."},
    "tour.ok.started": {"zh": "比赛开始。", "en": "The event has started."},
    "tour.ok.cancelled": {"zh": "比赛已取消。", "en": "The event is cancelled."},
    "tour.cancelled": {"zh": "🚫 **{name}** 已被管理员取消，还在进行的牌桌已停止（不计成绩）。",
                       "en": "🚫 **{name}** was cancelled by an admin; its tables still playing are stopped (no results "
                             "count)."},
    "tour.round": {"zh": "**{name}** 第 {r} 轮开始（共 {n} 桌）。", "en": "**{name}**: round {r} begins (tables: {n})."},
    "tour.ended": {"zh": "**{name}** 结束！牌墙密钥：`{secret}`（承诺 `{c}`，用 `/麻将 验牌 {id}` 核对）",
                   "en": "**{name}** is over! Walls secret: `{secret}` (commitment `{c}`; check with "
                         "`/mahjong verify {id}`)"},
    "tour.standings.sub": {"zh": "{fmt} · 第 {r} 轮 / {n}", "en": "{fmt} · round {r} of {n}"},
    # before round 1 ("round 0 of 3" read like a bug): the registered players, no points yet
    "tour.standings.more": {"zh": "……另有 {n} 人（见图）", "en": "… and {n} more (see the picture)"},
    "tour.standings.sub0": {"zh": "{fmt} · 尚未开始（共 {n} 轮）", "en": "{fmt} · not started yet (rounds: {n})"},
    "tour.err.not_found": {"zh": "没有这场比赛。", "en": "No such event."},
    "tour.err.not_open": {"zh": "比赛已不在报名阶段。", "en": "The event is no longer open for registration."},
    "tour.err.already_joined": {"zh": "你已经报名了。", "en": "You are already registered."},
    "tour.err.not_joined": {"zh": "你没有报名这场比赛。", "en": "You are not registered for this event."},
    "tour.err.too_few": {"zh": "没有可参赛的选手。", "en": "Nobody to play."},
    "tour.err.ended": {"zh": "比赛已经结束。", "en": "The event is over."},
    "tour.err.started": {"zh": "比赛已经开始了。", "en": "The event has already started."},
    "tour.err.cancelled": {"zh": "比赛已经取消了。", "en": "The event was cancelled."},
    "tour.err.playing": {"zh": "你已经签到，正在参赛，不需要再签到。",
                         "en": "You are checked in and playing: nothing more to do."},
    "tour.err.last_round": {"zh": "最后一轮已经开始，没有下一轮了：电脑替你打完（成绩归你）。",
                            "en": "The last round is under way, with no round after it: a computer plays your seat to "
                                  "the end (the result stays yours)."},
    "tour.err.checkin_closed": {"zh": "签到尚未开放：<t:{at}:f>（<t:{at}:R>）开放。",
                                "en": "Check-in is not open yet: it opens <t:{at}:f> (<t:{at}:R>)."},
    "tour.err.manage": {"zh": "需要“管理服务器”权限。", "en": "This needs the Manage Server permission."},
    "tour.err.no_store": {"zh": "比赛需要数据库。", "en": "Events need the database."},
    "tour.err.bad": {"zh": "参数无效：{what}", "en": "Invalid option: {what}"},
    "tour.err.no_name": {"zh": "比赛名称不能是空的。", "en": "The event needs a name (not only spaces)."},
    "tour.err.missing_perms": {"zh": "我在这个频道缺少权限：{perms}。比赛的牌桌开在这个频道的子区里：请管理员给我这些权限后再创建比赛。",
                               "en": "I am missing permissions in this channel: {perms}. An event's tables open in "
                                     "threads of its channel: grant them, then create the event again."},
    "tour.no_thread": {"zh": "第 {r} 轮第 {table} 桌没法在这个频道开（我不能在这里创建子区）：改在四位玩家的私信里进行。",
                       "en": "Round {r}, table {table} cannot open here (I cannot create a thread in this channel): "
                             "it is played in its players' DMs."},
    "tour.verify.ok": {"zh": "✅ 比赛 `{id}`：密钥与承诺一致，{n} 局的牌墙都由密钥得出。",
                       "en": "✅ Event `{id}`: the secret matches the commitment and every hand's wall follows "
                             "from it (hands: {n})."},
    "tour.verify.bad": {"zh": "❌ 比赛 `{id}` 核对失败：{what}", "en": "❌ Event `{id}` fails its check: {what}"},
    # global events (docs/tournaments.md, "Events across servers")
    "tour.announce.global": {"zh": "🌐 全服比赛：任何服务器的玩家都可以用 `/比赛 报名 比赛:{id}` 报名；牌桌在私信里进行。",
                             "en": "🌐 Global event: players on any server register with `/tournament join event:{id}`; "
                                   "the tables are played in DMs."},
    "tour.announce.dm": {"zh": "🔒 复式赛：同一轮的每一桌摸的是同一副牌墙，所以牌桌在私信里进行，各桌互相看不到。",
                         "en": "🔒 Duplicate: every table of a round plays the same walls, so the tables are played "
                               "in DMs, out of each other's sight."},
    "tour.err.global_store": {"zh": "全服比赛需要各服务器共用的数据库（PostgreSQL，或 SILVER_SCOPE=global）；"
                                    "本机器人的银子按服务器分开存在 SQLite 里，只能创建本服务器的比赛。",
                              "en": "A global event needs the servers' shared store (a PostgreSQL database, or "
                                    "SILVER_SCOPE=global); this bot keeps silver per server in SQLite, so its events "
                                    "are a server's own."},
    "tour.err.global_silver": {"zh": "动银子（底分大于 0）的全服比赛需要全服共用的银子（SILVER_SCOPE=global）；"
                                     "银子按服务器分开时，这样的比赛没有共同的钱包。",
                               "en": "A global event played for silver (stake above 0) needs one wallet everywhere "
                                     "(SILVER_SCOPE=global); with silver kept per server it has no wallet to play from."},
    "tour.err.global_stake": {"zh": "动银子（底分大于 0）的全服比赛只能由机器人的所有者创建；管理员可以创建只计分的全服比赛。",
                              "en": "A global event played for silver (stake above 0) is the bot owner's to create; a "
                                    "server manager may create a points-only global event."},
    "tour.err.own_server": {"zh": "这场全服比赛只能在创建它的服务器里开始或取消。",
                            "en": "This global event is started or cancelled on the server that created it."},
    "tour.err.dm_closed": {"zh": "这场比赛的牌桌在私信里进行，但我无法私信你。请允许服务器成员私信你，然后再报名。",
                           "en": "This event's tables are played in DMs, and I cannot DM you: allow direct messages "
                                 "from server members, then register again."},
    "tour.dm.registered": {"zh": "你已报名 **{name}**（编号 `{id}`）。这场比赛的牌桌在私信里进行，每轮开始时我会在这里告诉你。",
                           "en": "You are registered for **{name}** (id `{id}`). This event's tables are played "
                                 "in DMs; I will tell you here when each round begins."},
    "tour.dm.round": {"zh": "**{name}** 第 {r} 轮开始：你在第 {table} 桌（{seats}），牌桌在私信里进行。",
                      "en": "**{name}**: round {r} begins. You are at table {table} ({seats}), played in DMs."},
    "tour.verify.cancelled": {"zh": "比赛 `{id}` 已取消：承诺 `{c}`，密钥不再公布；每一局的牌墙仍可用该局的“公平发牌”按钮核对。",
                              "en": "Event `{id}` was cancelled: commitment `{c}`; its secret is not revealed. Each "
                                    "hand's wall can still be checked with its Fair deal button."},
    "tour.verify.running": {"zh": "比赛 `{id}` 尚未结束：承诺 `{c}`，结束时公布密钥。",
                            "en": "Event `{id}` is not over: commitment `{c}`; the secret is revealed at the end."},
})
