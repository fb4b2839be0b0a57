"""The guide's texts, zh and en, in the string catalog (``howto.*``). ``{score}`` and the other fields of a
page's body are filled from the rules engine's score of the page's example (jxbot/howto/__init__.py)."""

from __future__ import annotations

from jxbot.i18n import register

TEXTS: dict[str, dict[str, str]] = {
    "howto.head": {"zh": "**怎么玩** · 第 {k}/{n} 页", "en": "**How to play** · page {k}/{n}"},
    "howto.prev": {"zh": "上一页", "en": "Back"},
    "howto.next": {"zh": "下一页", "en": "Next"},
    "howto.terminal_hint": {"zh": "rules / 规则 = 怎么玩（牌、百搭、吃碰杠、胡牌牌型、算分、承包、台费）",
                            "en": "rules = how to play (tiles, wildcard, claims, winning patterns, scoring, contract, fee)"},
    "howto.terminal_head": {"zh": "怎么玩（{name}）", "en": "How to play ({name})"},
    "howto.name.jiaxing": {"zh": "嘉兴麻将", "en": "Jiaxing mahjong"},
    "howto.name.caishen": {"zh": "财神麻将", "en": "Caishen mahjong"},
    # picture captions
    "howto.cap.man": {"zh": "万 1-9", "en": "Characters 1-9"},
    "howto.cap.pin": {"zh": "筒 1-9", "en": "Dots 1-9"},
    "howto.cap.sou": {"zh": "条 1-9", "en": "Bamboo 1-9"},
    "howto.cap.winds": {"zh": "东 南 西 北", "en": "Winds E S W N"},
    "howto.cap.dragons": {"zh": "白 发 中", "en": "Dragons"},
    "howto.cap.indicator": {"zh": "翻出的牌", "en": "Flipped tile"},
    "howto.cap.wilds": {"zh": "百搭", "en": "Wildcards"},
    "howto.cap.hand": {"zh": "手牌", "en": "Hand"},
    "howto.cap.drawn": {"zh": "摸牌", "en": "Drawn"},
    "howto.cap.pung": {"zh": "碰", "en": "Pung"},
    "howto.cap.chow": {"zh": "吃", "en": "Chow"},
    "howto.cap.kong": {"zh": "杠", "en": "Kong"},
    "howto.cap.caishen": {"zh": "财神", "en": "Caishen"},
    "howto.cap.white": {"zh": "白板当 8筒 用：顺子 7-8-9筒", "en": "White plays as 8p: a run 7-8-9p"},
    # pages
    "howto.tiles.title": {"zh": "牌和名字", "en": "The tiles and their names"},
    "howto.tiles.body": {
        "zh": "136 张牌：万、筒、条三门各 1-9，每种 4 张；字牌东南西北（风）和白发中（箭）。\n"
              "终端里打 5m/5p/5s 或 1z-7z（1z=东 … 5z=白 6z=发 7z=中），也可以打 5万、东、白。",
        "en": "136 tiles: three suits, characters (m), dots (p) and bamboo (s), 1-9, four of each; and honors: "
              "the winds East South West North and the dragons White Green Red.\n"
              "In the terminal type 5m/5p/5s or 1z-7z (1z=East … 5z=White 6z=Green 7z=Red), or a name: East, White."},
    "howto.wild.title": {"zh": "百搭", "en": "The wildcard (百搭)"},
    "howto.wild.body": {
        "zh": "开局从牌墙尾翻一张牌，这种牌的另外三张就是百搭，可以当任何牌用（图上标“搭”）。\n"
              "百搭不能吃、碰、杠；打出的百搭没人能要。",
        "en": "At the deal a tile is flipped from the wall's tail; the other three copies of that kind are "
              "wildcards and stand for any tile (marked 搭 in the pictures).\n"
              "A wildcard never takes part in a chow, pung or kong, and a discarded one cannot be claimed."},
    "howto.turn.title": {"zh": "一轮", "en": "A turn"},
    "howto.turn.body": {
        "zh": "每人 13 张，庄家 14 张先出牌。轮到你：摸一张，然后可以自摸胡、暗杠、补杠，或者打出一张。\n"
              "胡牌 = 四组（顺子或刻子）加一对，还要是下面四种牌型之一。",
        "en": "Everyone holds 13 tiles; the dealer has 14 and discards first. On your turn you draw, then you "
              "may win (self-draw), declare a kong, or discard one tile.\n"
              "A win is four sets (runs or triplets) and a pair, in one of the four patterns that follow."},
    "howto.claims.title": {"zh": "吃、碰、杠、胡", "en": "Claims and their priority"},
    "howto.claims.body": {
        "zh": "别人打出的牌，几秒内可以要：胡（能胡的人）、碰（有两张）、杠（有三张）、吃（只有下家，凑顺子）。\n"
              "优先级：胡 > 碰/杠 > 吃。两人同时胡，按出牌后的顺序先到先得。碰、吃后直接出牌，杠后补一张。",
        "en": "A discard can be claimed within a few seconds: win (anyone it completes), pung (holding two), "
              "kong (holding three), chow (only the next seat, to make a run).\n"
              "Priority: win > pung/kong > chow; two wins: the first in turn order after the discarder. "
              "After a pung or chow you discard; after a kong you draw a replacement."},
    "howto.pattern.body": {
        "zh": "{pattern}：{what}\n例：{items} = {tai} 台，{fan} 番 → 底分 1 得 {points}。",
        "en": "{pattern}: {what}\nExample: {items} = {tai} tai, {fan} fan → {points} at stake 1."},
    "howto.full_flush.title": {"zh": "清一色", "en": "Full flush (清一色)"},
    "howto.full_flush.what": {"zh": "全部是同一门（万、筒或条）。", "en": "every tile of one suit."},
    "howto.half_flush.title": {"zh": "混一色", "en": "Half flush (混一色)"},
    "howto.half_flush.what": {"zh": "一门数牌加字牌。", "en": "one suit plus honors."},
    "howto.all_honors.title": {"zh": "字一色", "en": "All honors (字一色)"},
    "howto.all_honors.what": {"zh": "全是字牌。", "en": "honors only."},
    "howto.all_pungs.title": {"zh": "对对胡", "en": "All pungs (对对胡)"},
    "howto.all_pungs.what": {"zh": "四组都是刻子或杠，没有顺子。这手用了三张百搭（9条），再加 1 番。",
                             "en": "every set a pung or kong, no run. This one uses three wildcards (9s): "
                                   "one fan more."},
    "howto.formula.title": {"zh": "算分", "en": "The formula"},
    "howto.formula.body": {
        "zh": "得分 = 底分 × 台 × 2^番。台相加，每个番翻一倍。\n"
              "累计番（黄番、老头黄、包子、百搭连庄）排队，每次胡牌取最早的一个 +1 番。\n"
              "例：暗杠 1111m 后杠上开花，对对胡带中，且有一个黄番：{items}；{fan_items}。\n"
              "底分 {stake} × {tai} 台 × 2^{fan} = {points}，其他三家各付 {points}。",
        "en": "points = stake × tai × 2^fan. Tai add up; each fan doubles.\n"
              "Cumulative fan (drawn hand, honor wildcard, doubles, repeated wildcard) queue up; a win takes "
              "the oldest one: +1 fan.\n"
              "Example: after a concealed kong 1111m, a win on the replacement, all pungs with Red, one "
              "drawn-hand fan queued: {items}; {fan_items}.\n"
              "stake {stake} × {tai} tai × 2^{fan} = {points}, paid by each of the three others."},
    "howto.contract.title": {"zh": "承包：坚持还是放弃", "en": "The contract (承包): persist or give up"},
    "howto.contract.body": {
        "zh": "一家第三次吃/碰/杠同一家打的牌，两家互为承包。另外两家选：坚持 或 放弃（15 秒，不选 = 坚持）。\n"
              "放弃的人只摸打，不能要牌、不能胡，也不付钱。\n"
              "承包的一方胡：另一方付 ×5，坚持的人各 ×2；坚持的人胡：承包两家各 ×2，另一坚持者 ×1。\n"
              "抢杠胡：被抢的人独付 ×3（与承包相加）。",
        "en": "When a seat claims a third time from the same seat's discards, the two are bound (承包). "
              "The other two choose: persist (坚持) or give up (放弃) — 15 s, no answer = persist.\n"
              "A seat that gave up only draws and discards: no claims, no win, and it pays nothing.\n"
              "One of the pair wins: the partner pays ×5, each persisting seat ×2; a persisting seat wins: "
              "each of the pair ×2, the other persisting seat ×1.\n"
              "Robbing a kong: the robbed seat alone pays ×3 (added to a contract's)."},
    "howto.fee.title": {"zh": "台费与逃跑", "en": "The fee and escape"},
    "howto.fee.body": {
        "zh": "输赢用银子结算，付不起就付到 0 为止。每手正常结束后每人付台费。\n"
              "中途离桌算逃跑：付台费加上这个座位本来要输的钱，电脑替你打完，赢了也不给。"
              "掉线不算逃跑：两次超时后电脑按你的利益替你打。",
        "en": "Points are paid in silver; nobody pays below 0. After each hand that ends normally every seat "
              "pays the table's fee.\n"
              "Leaving a running hand is an escape: you pay the fee plus what your seat would have lost; a "
              "computer plays your seat out and any winnings are not paid. A dropped connection is not an "
              "escape: after two timeouts the computer plays for you, in your interest."},
    "howto.cs_caishen.title": {"zh": "财神麻将：财神", "en": "Caishen: the wildcard"},
    "howto.cs_caishen.body": {
        "zh": "开局后庄家掷骰，从海底翻一张：这种牌就是财神，只在胡牌时当任何牌用。\n"
              "白板当财神本身的牌用（财神 = 8筒 时，白板就是 8筒）。打出财神叫漂财，漂财期间只能自摸。",
        "en": "After the deal the dealer rolls and flips a tile from the tail: that kind is the caishen, wild "
              "for winning only.\n"
              "White plays as the caishen's own face (caishen 8p: White is an 8p). Discarding a caishen is a "
              "float: while it lasts you may only win by self-draw."},
    "howto.cs_patterns.title": {"zh": "财神麻将：牌型与倍数", "en": "Caishen: patterns and multipliers"},
    "howto.cs_patterns.body": {
        "zh": "四组一对或七对子，至少二倍才能胡。几种牌型取最大的，每多一种再翻一倍。\n例：{items} → ×{mult}。",
        "en": "Four sets and a pair, or seven pairs; a hand needs at least ×2. Several patterns: the largest, "
              "doubled once per further one.\nExample: {items} → ×{mult}."},
    "howto.cs_pay.title": {"zh": "财神麻将：谁付多少", "en": "Caishen: who pays what"},
    "howto.cs_pay.body": {
        "zh": "底 = 庄家连庄次数 + 1。庄家胡：闲家各付 底 × 倍数；闲家胡：庄家付 底 × 倍数，其他闲家付 1 × 倍数；"
              "放铳的人多付一份。\n例：{items} = ×{mult}，底 {stake}：庄家付 {points}，其他人各付 {mult}。",
        "en": "Base = the dealer's wins in a row + 1. The dealer wins: each other seat pays base × multiplier; "
              "another seat wins: the dealer pays base × multiplier, the others 1 × multiplier; the discarder "
              "pays one share more.\nExample: {items} = ×{mult}, base {stake}: the dealer pays {points}, "
              "the others {mult} each."},
}

register(TEXTS)
