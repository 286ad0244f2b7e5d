"""Every word the bot shows a player, in Chinese (zh) and English (en): one catalogue of ``Label`` entries
and one lookup, ``t(key, lang, **fields)``. Game strings (hands, prompts, settlements) and the front end's
(lobby, buttons, answers, notices) are in the same table; a key says where it is used (``btn.``, ``ans.``,
``dm.``, ``turn.``...). Also here: what user input may become before it is stored or quoted (``clean``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

LANGS = ("zh", "en")


@dataclass(frozen=True, slots=True)
class Label:
    """One text in both languages."""

    zh: str
    en: str

    def __call__(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh


CATALOGUE: dict[str, Label] = {
    # ------------------------------------------------------------------ the game (hands, prompts, results)
    # seats
    "seat.0": Label("你", "You"),
    "seat.1": Label("下家", "Next player"),
    "seat.2": Label("对家", "Opposite player"),
    "seat.3": Label("上家", "Previous player"),
    "seat.rel": Label("{where} {name}", "the {where} ({name})"),  # mid-sentence: "to the next player (A)"
    "dealer": Label("庄", "dealer"),
    "seat.won": Label("已胡", "won"),
    "seat.won.on": Label("已胡 {tiles}", "won on {tiles}"),
    # table
    "table.header": Label(
        "{variant} · 庄家 {dealer} · 牌墙剩 {wall} 张",
        "{variant} · dealer {dealer} · {wall} tiles left in the wall",
    ),
    "turn.turn": Label("轮到 {name} 出牌", "{name} to play"),
    "turn.claim": Label(
        "等待对 {name} 的 {tile} 的回应",
        "waiting for answers to {tile} from {name}",
    ),
    "turn.claim.rob": Label(
        "等待对 {name} 补杠 {tile} 的回应",
        "waiting for answers to {name}'s added kong {tile}",
    ),
    "turn.claim.kong": Label(
        "等待对 {name} 开杠翻出的牌的回应",
        "waiting for answers to the tiles {name}'s open kong turned up",
    ),
    "turn.claim.haidi": Label(
        "海底牌 {tile} 已亮出，等待回应",
        "the last tile {tile} is shown, waiting for answers",
    ),
    "turn.haidi": Label("海底漫游：问 {name} 要不要海底牌", "last tile: {name} may take it or not"),
    "turn.haidi.taken": Label("{name} 摸了海底牌", "{name} took the last tile"),
    "turn.choose": Label("开局前：大家在选{what}", "before the hand: everyone picks {what}"),
    "turn.opening": Label("起手：等 {name} 决定", "at the deal: waiting for {name} to decide"),
    "turn.ended": Label("本局结束", "the hand is over"),
    "seat.tiles": Label("{n} 张", "{n} tiles"),
    "seat.melds": Label("副露", "melds"),
    "seat.no_melds": Label("无副露", "no melds"),
    "seat.concealed_kongs": Label("暗杠 ×{n}", "concealed kong ×{n}"),
    "seat.discards": Label("弃牌", "discards"),
    "seat.no_discards": Label("（无）", "(none)"),
    "seat.locked": Label("已开杠·锁牌", "opened a kong, hand locked"),
    "seat.locked.won": Label("胡后锁牌", "hand locked after the win"),
    "seat.wins": Label("已胡 {n} 次", "won {n}×"),
    "seat.wins.on": Label("已胡 {n} 次：{tiles}", "won {n}× on {tiles}"),
    "seat.declared": Label("起手", "opening"),
    "seat.shown": Label("亮牌", "shown"),
    "seat.hand": Label("手牌", "hand"),
    "last_discard": Label("最新弃牌：{name} 打 {tile}", "last discard: {name} {tile}"),
    "kong_tiles": Label("开杠翻出：{tiles}", "turned up by the open kong: {tiles}"),
    "ctx.wall": Label("牌墙剩 {n} 张", "{n} tiles left"),
    "ctx.river": Label("弃 {tiles}", "discards {tiles}"),
    "ctx.shown": Label("亮 {tiles}", "shows {tiles}"),
    "ctx.nothing": Label("河里没有牌", "nothing on the river"),  # its discards may all have been claimed
    # own hand
    "hand.title": Label("{name}的手牌（{n} 张）", "{name}: hand ({n} tiles)"),
    "hand.wild": Label(
        "{tiles}是万能牌：可当任何一张牌，不能打出",
        "{tiles}: wild, stands for any tile, cannot be discarded",
    ),
    "hand.blind": Label(
        "{name}：{n} 张牌已发好，扣着——选好之后才看得到",
        "{name}: your {n} tiles are dealt face down; you see them once you have chosen",
    ),
    "hand.drawn": Label("摸到", "drew"),
    "hand.melds": Label("副露", "melds"),
    "hand.waits": Label("听牌", "waiting on"),
    "hand.unseen": Label("未见 {n} 张", "{n} unseen"),
    "hand.discard_waits": Label("打 {tile} 听 {waits}", "discard {tile} → waiting on {waits}"),
    "hand.ready_after": Label("可听牌的打法", "discards that leave you ready"),
    "hand.passed_win": Label(
        "漏胡：自己下次摸牌（或碰、杠）之前不能胡别人打的牌",
        "missed win: no win on a discard until your next draw, pung or kong",
    ),
    "hand.locked": Label(
        "已开杠：摸到不胡的牌自动打出", "kong opened: every tile that does not win is discarded"
    ),
    "hand.locked.won": Label(
        "胡后锁牌：还能再胡；摸到的牌不胡就打出（不改听牌的杠可以开）",
        "locked after your win: you may win again; a tile you draw that does not win is discarded (a kong"
        " that keeps your waits is allowed)",
    ),
    "hand.out": Label(
        "你已胡牌，出局：等这局打完", "you have won and are out of play: wait for the hand to end"
    ),
    "meld.concealed": Label("暗杠", "concealed"),
    "suit.0": Label("万", "Characters"),
    "suit.1": Label("条", "Bamboo"),
    "suit.2": Label("筒", "Dots"),
    "suit.3": Label("字", "Honors"),
    # prompts
    "prompt.turn": Label("轮到你：打一张牌", "Your turn: discard a tile"),
    "prompt.turn.more": Label("轮到你：打一张牌，或 {what}", "Your turn: discard a tile, or {what}"),
    "prompt.turn.void": Label(
        "轮到你：先打完定缺那门的牌（{void}）", "Your turn: your void suit's tiles go first ({void})"
    ),
    "prompt.win": Label("胡", "win"),
    "prompt.kong": Label("杠", "kong"),
    "prompt.locked": Label("手牌已锁定（开杠）", "your hand is locked (kong opened)"),
    "prompt.locked.won": Label("手牌已锁定（胡后）", "your hand is locked (after your win)"),
    # a locked hand asked: what it may do besides throwing the tile it drew
    "prompt.locked.more": Label(
        "{locked}：{what}，或打出摸到的牌", "{locked}: {what}, or discard the tile you drew"
    ),
    "prompt.claim": Label(
        "{name} 打出 {tile}。你可以：{options}", "{name} discarded {tile}. You may: {options}"
    ),
    "prompt.claim.rob": Label(
        "{name} 补杠 {tile}。你可以：{options}",
        "{name} adds {tile} to a pung (added kong). You may: {options}",
    ),
    "prompt.claim.kong": Label(
        "{name} 开杠翻出的牌没人留：{tile}。你可以：{options}",
        "{name}'s open kong turned up {tile}. You may: {options}",
    ),
    "prompt.claim.haidi": Label(
        "{name} 的海底牌 {tile} 亮出。你可以：{options}",
        "{name}'s last tile {tile} is shown. You may: {options}",
    ),
    "prompt.haidi": Label(
        "只剩最后一张海底牌：要不要？要了能胡就胡（海底捞月），不能胡就亮出，别人能胡就是海底炮。",
        "Only the last tile is left: take it? If it wins for you, you win (海底捞月); if not it is "
        "shown and anyone who can win on it does (海底炮).",
    ),
    "prompt.haidi.win": Label("你摸的海底牌 {tile} 能胡！", "The last tile {tile} wins for you!"),
    "prompt.opening": Label(
        "你有起手小胡：{hands}。报了每家按小胡自摸付钱（有鸟），相应的牌亮给大家看。",
        "You hold opening hands: {hands}. Declaring one is paid as a small self-drawn win (birds "
        "count) and shows those tiles to the table.",
    ),
    "prompt.deal_win": Label("你起手就能胡！胡，还是过？", "The tiles you were dealt win: win now, or pass?"),
    "prompt.wait": Label("等待其他玩家……", "Waiting for the other players…"),
    "opt.sep": Label("；", "; "),
    # claim option descriptions
    "desc.win": Label("胡 {tile}", "win on {tile}"),
    "desc.win.rob": Label("抢杠胡 {tile}", "rob the kong and win on {tile}"),
    "desc.win.haidi": Label("胡 {tile}（海底炮）", "win on {tile} (海底炮)"),
    "desc.pung": Label("碰 {tile}（用手里两张 {tile}）", "pung {tile} (with two {tile} from your hand)"),
    "desc.chow": Label("吃 {run}（用手里 {used}）", "chow {run} (with {used} from your hand)"),
    "desc.kong.bu": Label(
        "杠 {tile} 补张（从牌尾补一张，照常打牌）",
        "kong {tile}, replace (draw from the back, play on)",
    ),
    "desc.kong.kai": Label(
        "杠 {tile} 开杠（掷骰子翻牌；之后手牌锁定，不胡的牌自动打出）",
        "kong {tile}, open (the dice say what turns up; then the hand is locked and non-winning tiles are "
        "discarded)",
    ),
    "desc.kong": Label("杠 {tile}", "kong {tile}"),
    "desc.pass": Label("过", "pass"),
    # action labels (buttons)
    "act.discard": Label("打 {tile}", "Discard {tile}"),
    "act.win": Label("胡", "Win"),
    "act.pass": Label("过", "Pass"),
    "act.pung": Label("碰", "Pung"),
    "act.chow": Label("吃 {run}", "Chow {run}"),
    "act.kong.bu": Label("杠 {tile} 补张", "Kong {tile} (replace)"),
    "act.kong.kai": Label("杠 {tile} 开杠", "Kong {tile} (open)"),
    "act.kong": Label("杠 {tile}", "Kong {tile}"),
    "act.opening": Label("报 {hands}", "Declare {hands}"),
    "act.opening.pass": Label("不报", "Don't declare"),
    "act.take": Label("要海底", "Take the last tile"),
    "act.refuse": Label("不要", "Decline"),
    "act.other": Label("其他", "Other"),
    "prompt.choose": Label("开局选择", "Choose before the hand starts"),
    "prompt.choose.blind": Label(
        "不看牌选：大家都选好后，牌才翻开。",
        "You choose before looking: the tiles are turned up once everyone has chosen.",
    ),
    "prompt.choose.held": Label("你的手牌：{per}", "Your hand: {per}"),
    "prompt.choose.suit": Label("{suit} {n} 张", "{suit} {n}"),
    # settlement
    "settle.opening": Label("{label}：{name} {hands}", "{label}: {name} {hands}"),
    "settle.win": Label("胡牌：{name} {hands}", "Win: {name}, {hands}"),
    "settle.for": Label("按 {name} 的 {hands} 计", "counted as {name}'s {hands}"),
    "settle.kong": Label("杠分：{name} {kong}", "Kong money: {name}, {kong}"),
    "settle.draw": Label("流局结算", "Drawn-hand settlement"),
    "settle.seat": Label("{name}：{hands}", "{name}: {hands}"),
    "settle.bird": Label("{tile}→{name}", "{tile}→{name}"),
    "settle.pay": Label("{payer} 付给 {payee}：{amount}", "{payer} pays {payee}: {amount}"),
    "settle.how": Label("（{how}）", " ({how})"),
    "settle.deltas": Label("得分：{deltas}", "Points: {deltas}"),
    "way.self": Label("自摸", "self-drawn"),
    "way.self_named": Label("自摸", "self-draw"),  # a hand name that already says it (自摸加底...)
    "way.discard": Label("{name} 点炮", "on {name}'s discard"),
    "way.rob": Label("抢 {name} 的杠", "robbing {name}'s kong"),
    "way.kong": Label("{name} 开杠翻出的牌", "on the tiles {name}'s open kong turned up"),
    "way.haidi": Label("{name} 亮出的海底牌", "on the last tile {name} showed"),
    "way.discard.you": Label("你点炮", "on your discard"),
    "way.rob.you": Label("抢你的杠", "robbing your kong"),
    "way.kong.you": Label("你开杠翻出的牌", "on the tiles your open kong turned up"),
    "way.haidi.you": Label("你亮出的海底牌", "on the last tile you showed"),
    "result.win": Label("本局：{names} 胡", "Result: {names} won"),
    "result.draw": Label("本局：流局（荒庄）", "Result: drawn hand (荒庄)"),
    "result.deltas": Label("本局得分：{deltas}", "This hand: {deltas}"),
    "result.next_dealer": Label("下一局庄家：{name}", "Next dealer: {name}"),
    "result.next_dealer.why": Label("下一局庄家：{name}（{why}）", "Next dealer: {name} ({why})"),
    "result.hands": Label("各家手牌", "Hands"),
    "result.waits": Label("听 {tiles}", "waiting on {tiles}"),
    "totals": Label("累计：{deltas}", "Running totals: {deltas}"),
    # events
    "ev.draw": Label("{name} 摸了 {tile}", "{name} drew {tile}"),
    "ev.draw.hidden": Label("{name} 摸牌", "{name} drew a tile"),
    "ev.draw.kong": Label("{name} 杠后补牌 {tile}", "{name} drew {tile} after the kong"),
    "ev.draw.kong.hidden": Label("{name} 杠后补牌", "{name} drew a replacement"),
    "ev.discard": Label("{name} 打 {tile}", "{name} discarded {tile}"),
    "ev.discard.auto": Label("{name} 打 {tile}（自动）", "{name} discarded {tile} (automatic)"),
    "ev.pung": Label("{name} 碰 {tile}", "{name} punged {tile}"),
    "ev.chow": Label("{name} 吃 {tile} 成 {meld}", "{name} chowed {tile} into {meld}"),
    "ev.kong": Label("{name} 杠 {tile}{mode}", "{name} made a kong of {tile}{mode}"),
    "ev.kong.concealed": Label("{name} 暗杠{mode}", "{name} made a concealed kong{mode}"),
    "ev.kong.concealed.tile": Label(
        "{name} 暗杠 {tile}{mode}", "{name} made a concealed kong of {tile}{mode}"
    ),
    "ev.kong_declared": Label("{name} 要补杠 {tile}", "{name} declares an added kong of {tile}"),
    "ev.rob_passed": Label("没人抢杠，{name} 的杠成立", "nobody robbed {name}'s kong"),
    "ev.dice": Label("{name} 掷骰子 {detail}", "{name} rolled {detail}"),
    "ev.win": Label("{name} 胡了 {tile}{hands}", "{name} won on {tile}{hands}"),
    "ev.win.notile": Label("{name} 胡了{hands}", "{name} won{hands}"),
    "ev.opening": Label("{name} 报{label}：{hands}", "{name} declared {label}: {hands}"),
    "ev.opening.pass": Label("{name} 起手没有报", "{name} passed at the deal"),
    "ev.chosen": Label("{name} 选好了", "{name} has chosen"),
    "ev.choices": Label("{what}：{picked}", "{what}: {picked}"),
    "ev.kong_tiles": Label("{name} 开杠翻出 {tiles}", "{name}'s open kong turned up {tiles}"),
    # 开杠's turned-up tiles the konger cannot win on: thrown, and others may still win on them (杠上炮)
    "ev.kong_tiles_fall": Label(
        "{name} 不要开杠翻出的 {tiles}，打进河里", "{name} does not keep {tiles} from the kong: discarded"
    ),
    "ev.haidi_offer": Label("海底牌问 {name}", "the last tile is offered to {name}"),
    "ev.haidi_take": Label("{name} 要了海底牌 {tile}", "{name} took the last tile {tile}"),
    "ev.haidi_take.hidden": Label("{name} 要了海底牌", "{name} took the last tile"),
    "ev.haidi_refuse": Label("{name} 不要海底牌", "{name} declined the last tile"),
    "ev.haidi_show": Label("{name} 亮出海底牌 {tile}", "{name} shows the last tile {tile}"),
    "ev.pass": Label("{name} 过", "{name} passed"),
    "ev.passed": Label(
        "{what}：你的 {n} 张给了{to}，收到{frm} 的 {tiles}",
        "{what}: your {n} tiles went to {to}; you received {tiles} from {frm}",
    ),
    "ev.passed_by": Label(
        "{what}：{name} 的 {n} 张给了 {to}，收到 {frm} 的 {tiles}",
        "{what}: {name}'s {n} tiles went to {to}; {name} received {tiles} from {frm}",
    ),
    "ev.passed_win": Label("你漏胡了", "you passed a win (missed win)"),
    "mode.bu": Label("（补张）", " (replace)"),
    "mode.kai": Label("（开杠）", " (open)"),
    # console
    "console.welcome": Label(
        "{room} · 你（座位 0）对三个电脑。输入序号选择，或直接输入牌名（如 5m）打牌；q 退出。",
        "{room} · you (seat 0) against three AI seats. Type a number, or a tile such as "
        "5m to discard it; q quits.",
    ),
    "console.me": Label("你", "Player (you)"),
    "console.hand_no": Label("==== 第 {n} 局 · 庄家 {dealer} ====", "==== Hand {n} · dealer {dealer} ===="),
    "console.choices": Label("你的选择：", "Your options:"),
    "console.ask": Label("请选择 [1-{n}]（q 退出）：", "Choose [1-{n}] (q to quit): "),
    "console.bad": Label(
        "无效输入 “{text}”：请输入 1 到 {n} 的序号，或你手里的一张牌（如 {example}），q 退出。",
        "Invalid input '{text}': type a number from 1 to {n}, or a tile you hold (e.g. {example}); q quits.",
    ),
    "console.empty": Label(
        "请输入 1 到 {n} 的序号，或一张牌（如 {example}）。",
        "Please type a number from 1 to {n}, or a tile (e.g. {example}).",
    ),
    "console.not_legal_tile": Label(
        "现在不能打 {tile}：{why}",
        "You cannot discard {tile} now: {why}",
    ),
    "console.not_held": Label("你手里没有 {tile}", "you do not hold {tile}"),
    "console.no_discard": Label("现在不是出牌的时候", "it is not time to discard"),
    "console.locked_only": Label("开杠后只能打摸到的牌", "after opening a kong only the drawn tile may go"),
    "console.only": Label("只有一个选择：{label}", "Only one option: {label}"),
    "console.next": Label("回车开始下一局，q 退出：", "Press Enter for the next hand, q to quit: "),
    "console.bye": Label("再见！", "Bye!"),
    "console.eof": Label("输入结束，退出。", "End of input, quitting."),
    "console.played": Label("共打了 {n} 局。", "Hands played: {n}."),
    # ------------------------------------------------------------------ the front end (lobby, buttons,
    # answers) lobby
    "lobby.title": Label("🀄 {variant} · 第 {tid} 桌", "🀄 {variant} · table #{tid}"),
    "lobby.hand_no": Label("下一局：第 {n} 局", "Next: hand {n}"),
    "lobby.seats": Label("座位：", "Seats:"),
    "lobby.empty": Label("（空位）", "(empty)"),
    "lobby.pending": Label(
        "⏳ 等待私聊开始后入座：{names}",
        "⏳ Seated once they open a private chat with the bot: {names}",
    ),
    "lobby.options": Label("规则：{opts}", "Rules: {opts}"),
    "lobby.no_options": Label("规则：默认", "Rules: default"),
    "lobby.preset": Label("玩法：{label}", "Room: {label}"),
    "lobby.timers": Label(
        "限时：吃碰杠 {claim} 秒 · 出牌 {discard} 秒",
        "Timers: claims {claim}s · discard {discard}s",
    ),
    "lobby.lang": Label("语言：中文", "Language: English"),
    "lobby.pause": Label(
        "每次出牌后停顿 {n} 秒等待吃碰杠胡（人人一样，不透露谁能吃碰）",
        "After every discard the table pauses {n}s for claims (always, so nobody can tell who may claim)",
    ),
    "lobby.no_pause": Label(
        "出牌后不停顿：只有能吃碰杠胡的人会被问到",
        "No pause after a discard: only those who may claim are asked",
    ),
    "lobby.hint": Label(
        "点「加入」入座；开始时空位由电脑（{level}）补上。",
        "Press Join to sit down; empty seats get AI players ({level}) when the game starts.",
    ),
    "lobby.ai_levels": Label(
        "电脑水平（补空位的电脑；托管总按最强的打）：",
        "AI strength of the AI seats (auto-play always plays the strongest):",
    ),
    "lobby.ai_level": Label("【{label}】{note}", "{label} — {note}"),
    "lobby.started": Label("牌局进行中……", "Game in progress…"),
    "lobby.closed": Label("本桌已结束。", "This table is closed."),
    "ai.name": Label("电脑{n}", "AI {n}"),  # n: its seat's number (ai_name), the same all night
    "you": Label("（你）", " (you)"),
    "yes": Label("是", "yes"),
    "no": Label("否", "no"),
    # buttons
    "btn.join": Label("🙋 加入", "🙋 Join"),
    "btn.leave": Label("🚪 离开", "🚪 Leave"),
    "btn.add_ai": Label("🤖 加电脑", "🤖 Add AI"),
    "btn.remove_ai": Label("➖ 减电脑", "➖ Remove AI"),
    "btn.settings": Label("⚙️ 设置", "⚙️ Settings"),
    "btn.start": Label("▶️ 开始", "▶️ Start"),
    "btn.next": Label("▶️ 下一局", "▶️ Next hand"),
    "btn.back": Label("⬅️ 返回", "⬅️ Back"),
    "btn.my_hand": Label("🀄 我的手牌", "🀄 My hand"),
    "btn.im_back": Label("🙋 我回来了", "🙋 I'm back"),
    "btn.auto": Label("🤖 托管", "🤖 Auto-play"),
    "btn.back_ready": Label("🙋 我回来了 · 准备", "🙋 I'm back · Ready"),
    "btn.stop": Label("🗳 申请解散", "🗳 Ask to stop"),
    "btn.vote_yes": Label("✅ 同意解散", "✅ Agree to stop"),
    "btn.vote_no": Label("❌ 拒绝", "❌ Refuse"),
    "btn.rules_page": Label("📖 完整规则（私聊发给你）", "📖 The whole rules (in private)"),
    "btn.rules_common": Label("📖 通用规则", "📖 The common rules"),
    "btn.verify": Label("🔍 验证洗牌", "🔍 Check the shuffle"),
    "btn.commitment": Label("🔒 洗牌承诺", "🔒 Shuffle commitment"),
    "btn.open_app": Label("📱 打开牌桌", "📱 Open the table"),
    "dm.app_nudge": Label("⏰ 第 {tid} 桌轮到你了", "⏰ Your move at table #{tid}"),
    "btn.open_dm": Label("💬 打开私聊并点 Start", "💬 Open the chat and press Start"),
    "settings.seconds": Label("{n} 秒", "{n}s"),
    "settings.players": Label("{n} 人", "{n} players"),
    "settings.seats": Label("人数", "Players"),
    "settings.hands": Label("{n} 局", "{n} hands"),
    "settings.hands_open": Label("不限（到 /stop）", "until /stop"),
    "settings.rounds": Label("局数", "Hands"),
    "settings.claim_s": Label("吃碰限时", "Claim timer"),
    "settings.discard_s": Label("出牌限时", "Discard timer"),
    "settings.pause_s": Label("出牌后停顿", "Pause after a discard"),
    "settings.ready_s": Label("准备限时", "Ready timer"),
    "settings.lang": Label("语言", "Language"),
    "settings.vote_agree": Label("解散投票超时", "Stop vote timeout"),
    "settings.ai_level": Label("电脑水平", "AI strength"),
    "settings.vote.agree": Label("算同意", "counts as agree"),
    "settings.vote.refuse": Label("算拒绝", "counts as refuse"),
    "btn.preset": Label("🀄 {label}", "🀄 {label}"),
    "btn.pick_confirm": Label("✔ 确认：{label}", "✔ Confirm: {label}"),
    "btn.pick_suggest": Label("💡 推荐：{label}", "💡 Suggested: {label}"),
    "btn.all": Label("总榜", "All time"),
    "btn.week": Label("本周", "This week"),
    "btn.month": Label("本月", "This month"),
    # callback answers
    "ans.joined": Label("已入座", "You're seated"),
    "ans.already": Label("你已经在座位上了", "You're already seated"),
    "ans.full": Label("座位已满", "The table is full"),
    "ans.left": Label("已离开座位", "You left the table"),
    "ans.not_seated": Label("你不在这一桌", "You're not seated at this table"),
    "ans.started": Label("牌局已经开始了", "The game has already started"),
    "ans.not_started": Label("牌局还没开始", "The game hasn't started"),
    "ans.no_dm": Label("请先打开和我的私聊并点 Start", "Open a private chat with me and press Start first"),
    "ans.need_player": Label("至少要有一位玩家入座", "At least one player must be seated"),
    "ans.no_ai": Label("没有可以移除的电脑", "There is no AI seat to remove"),
    "ans.no_room": Label("没有空位了", "There is no free seat"),
    "ans.ok": Label("好的", "OK"),
    "ans.stale": Label("这个按钮已过期", "This button is out of date"),
    "ans.unknown": Label("这个按钮已过期或无效", "This button is out of date or unknown"),
    "ans.not_member": Label("只有本群成员可以加入这一桌", "Only members of this group can join this table"),
    "ans.no_bots": Label("机器人账号不能入座", "Bot accounts can't take a seat"),
    "ans.host_only": Label(
        "只有开桌的人或群管理员可以设置和开始",
        "Only the table's host or a group admin can change settings or start",
    ),
    "ans.check_failed": Label(
        "暂时无法确认你的群成员身份，请稍后再试",
        "Couldn't check your membership; try again",
    ),
    "ans.not_yours": Label("现在不是你的回合", "It's not your turn"),
    "ans.closed": Label("本桌已结束", "This table is closed"),
    "ans.done": Label("✔ {label}", "✔ {label}"),
    "ans.picked": Label("已选 {n}/{k} 张", "{n} of {k} tiles picked"),
    "ans.back": Label("欢迎回来！", "Welcome back!"),
    "ans.not_auto": Label("你不在托管中", "You're not on auto-play"),
    "ans.auto": Label(
        "已托管：电脑替你出牌，点「我回来了」恢复", 'On auto-play: press "I\'m back" to play again'
    ),
    "ans.already_auto": Label("你已经在托管中", "You're already on auto-play"),
    "ans.vote.opened": Label("已发起解散投票", "You asked to stop the table"),
    "ans.vote.yes": Label("你同意了解散", "You agreed to stop the table"),
    "ans.vote.no": Label("你拒绝了解散", "You refused to stop the table"),
    "ans.vote.already": Label("你已经投过票了", "You have already voted"),
    "ans.vote.join": Label(
        "解散投票进行中，投票结束后再入座", "A stop vote is in progress: join when it ends"
    ),
    "ans.vote.not_member": Label(
        "你已不在本群，不能发起或回应解散投票",
        "You are no longer in this group: you cannot ask for or answer a stop vote",
    ),
    "ans.vote.leave": Label(
        "解散投票进行中，投票结束后再离座", "A stop vote is in progress: leave when it ends"
    ),
    "ans.vote.busy": Label(
        "解散投票进行中，投票结束后再改", "A stop vote is in progress: change this when it ends"
    ),
    "ans.rules_sent": Label("完整规则已私聊发给你", "The whole rules were sent to you in private"),
    "ans.verify_sent": Label("验证结果已私聊发给你", "The check was sent to you in private"),
    "ans.open_dm": Label(
        "请先打开和我的私聊并点 Start，再按一次", "Open a private chat with me, press Start, then press again"
    ),
    "ans.hand_sent": Label("手牌已私聊发送", "Your hand was sent in private"),
    "ans.busy": Label("请稍候再试", "Please try again in a moment"),
    "ans.error": Label("出错了，请重试", "Something went wrong, please try again"),
    # group notices
    "note.no_dm": Label(
        "{name}：我无法私聊你——你还没有打开和我的私聊（Telegram 不允许机器人先发私信）。"
        "点下面的按钮打开私聊并点 Start，你就会入座。",
        "{name}: I can't message you privately because you have never opened a chat with me (Telegram "
        "doesn't let bots write first). Press the button below, then Start, and you'll be seated.",
    ),
    "note.dm_lost": Label(
        "{name}：私聊发送失败（你可能屏蔽了我），先由电脑托管。点按钮打开私聊并点 Start 即可回来。",
        "{name}: I can't reach you in private (did you block me?), so the bot plays for you. Press the "
        "button and Start to come back.",
    ),
    "note.table_exists": Label("本群已有一桌（第 {tid} 桌）。", "This group already has a table (#{tid})."),
    "note.group_only": Label("请在群里用 /newtable 开桌。", "Use /newtable in a group to open a table."),
    "note.in_group": Label("请在牌桌所在的群里用这个命令。", "Use this command in the table's group."),
    "note.as_yourself": Label(
        "请用你自己的账号发这个命令：匿名管理员或频道身份不能开桌入座。",
        "Send this as yourself: an anonymous admin or a channel can't open a table or take a seat.",
    ),
    "note.unknown_variant": Label(
        "不认识的玩法 “{name}”。可选：{known}",
        "Unknown variant '{name}'. Known: {known}",
    ),
    "note.no_table": Label(
        "本群没有进行中的牌桌。用 /newtable 开一桌。",
        "No open table here. Open one with /newtable.",
    ),
    "note.vote_opened": Label(
        "🗳 {name} 申请解散本桌：每位入座玩家都会收到「同意 / 拒绝」，{n} 秒内过半数同意就解散。",
        "🗳 {name} asks to stop the table: every seated player is asked to agree or refuse; it stops if a "
        "majority agree within {n}s.",
    ),
    "note.vote_open": Label(
        "🗳 解散投票进行中：同意 {yes}/{need}，见投票消息。",
        "🗳 A stop vote is under way: {yes} of the {need} needed agree (see the vote's message).",
    ),
    "note.vote_agreed": Label(
        "🗳 {name} 同意解散（{yes}/{need}）。", "🗳 {name} agrees to stop ({yes}/{need})."
    ),
    "note.stop_denied": Label(
        "只有入座的玩家（投票）或群管理员可以结束牌桌。",
        "Only seated players (by a vote) or a group admin can stop the table.",
    ),
    "note.stopped": Label("本桌已结束。", "The table has been stopped."),
    "note.auto_on": Label(
        "{name} 两次超时，已由电脑托管（点「我回来了」恢复）。",
        '{name} timed out twice and is on auto-play until pressing "I\'m back".',
    ),
    "note.auto_off": Label("{name} 回来了。", "{name} is back."),
    "note.restored": Label(
        "机器人重启，让大家久等了：牌局继续，计时重新开始。",
        "The bot restarted and kept you waiting: the game goes on, the timers start again.",
    ),
    "note.restore_failed": Label(
        "这一局无法恢复（规则或记录已变），已作废。",
        "This hand could not be restored (the rules or its record changed) and was abandoned.",
    ),
    "note.lang": Label("本聊天的语言已设为中文。", "The language of this chat is now English."),
    "note.lang_denied": Label(
        "只有开桌的人或群管理员可以切换本群的语言。",
        "Only the table's host or a group admin can change this group's language.",
    ),
    "note.view_denied": Label(
        "只有开桌的人或群管理员可以切换本群的显示方式（图片或文字）。",
        "Only the table's host or a group admin can change how this group shows the table.",
    ),
    "note.auto_chosen": Label(
        "{name} 选择了托管，由电脑代打（点「我回来了」恢复）。",
        '{name} chose auto-play: the bot plays for them until they press "I\'m back".',
    ),
    "note.result_title": Label("🏁 第 {n} 局结束", "🏁 Hand {n} is over"),
    "note.backlog": Label(
        "🏁 这 {k} 局的结果（每位玩家的详细结算已私信发送）：",
        "🏁 The results of these {k} hands (each player has the full settlement in private):",
    ),
    "note.in_private": Label(
        "（每位玩家的详细结算已私信发送）", "(each player has the full settlement in private)"
    ),
    "note.hand_line": Label("第 {n} 局 · {how} · {deltas}", "Hand {n} · {how} · {deltas}"),
    "note.hand_won": Label("胡：{who}", "won: {who}"),
    "note.hand_drawn": Label("流局", "drawn"),
    "note.totals": Label("本桌累计：{totals}", "Table totals: {totals}"),
    "note.recent": Label("最近：{moves}", "Recent: {moves}"),
    "note.auto_seats": Label("托管中：{names}", "On auto-play: {names}"),
    "note.settlement": Label("结算：", "Settled:"),
    # private
    "dm.welcome": Label(
        "你好！把我加到群里，用 /newtable 开一桌麻将。你的手牌会在这里私聊发给你。\n/help 查看命令。",
        "Hello! Add me to a group and open a table with /newtable. Your hand will be sent to you here.\n"
        "/help lists the commands.",
    ),
    "dm.joined": Label(
        "你已加入「{chat}」的第 {tid} 桌（{variant}）。",
        "You joined table #{tid} ({variant}) in {chat}.",
    ),
    "dm.join_failed": Label("没能加入第 {tid} 桌：{why}", "Could not join table #{tid}: {why}"),
    "dm.bad_link": Label(
        "这个链接无效或已过期。请在群里点「加入」。",
        "This link is not valid (or has expired). Press Join in the group instead.",
    ),
    "group.header": Label("🀄 第 {tid} 桌 · 第 {n} 局", "🀄 table #{tid} · hand {n}"),
    "dm.header": Label("🀄 {variant} · 第 {tid} 桌 · 第 {n} 局", "🀄 {variant} · table #{tid} · hand {n}"),
    "dm.time_left": Label("⏱ 限时 {n} 秒", "⏱ {n}s to decide"),
    "dm.picked": Label(
        "已选 {n}/{k} 张：{tiles}（点手牌选或放回）",
        "Picked {n} of {k}: {tiles} (press a tile to pick it or put it back)",
    ),
    "dm.auto": Label(
        "🤖 你正在托管中，系统替你出牌。",
        "🤖 You are on auto-play: the bot plays for you.",
    ),
    "dm.result": Label("本局你的得分：{delta:+d}", "Your points this hand: {delta:+d}"),
    "dm.not_seated": Label("你现在不在任何牌桌上。", "You're not seated at any table."),
    "dm.ended": Label("本局结束。", "The hand is over."),
    "dm.closed": Label("牌桌已结束。", "The table was closed."),
    "dm.removed": Label(
        "机器人已被移出群聊：本局作废，之前各局的得分保留。",
        "The bot was removed from the group: this hand is abandoned; earlier hands keep their scores.",
    ),
    # score
    "score.title": Label("🏆 排行榜 · {period}", "🏆 Leaderboard · {period}"),
    "score.all": Label("总榜", "all time"),
    "score.week": Label("本周", "this week"),
    "score.month": Label("本月", "this month"),
    "score.line": Label(
        "{rank}. {name} {points:+d}（{hands} 局，胡 {wins}）",
        "{rank}. {name} {points:+d} ({hands} played, {wins} won)",
    ),
    "score.empty": Label("还没有成绩。", "No scores yet."),
    # help / rules
    "help": Label(
        "🀄 麻将机器人\n"
        "/newtable [玩法] — 在群里开一桌（{variants}）\n"
        "/rules [玩法] — 规则和选项\n"
        "/score [玩法] — 本群排行榜（含技术分）\n"
        "/history — 本群战绩；/replay 编号 回放；/export 编号 导出记录\n"
        "/stats — 我的战绩（回复别人的消息：他的）\n"
        "/hand — 重新私聊发我的手牌\n"
        "/stop — 申请解散：入座玩家投票同意或拒绝（群管理员直接结束）\n"
        "/lang [zh|en] — 切换本聊天的语言（群里：开桌的人或管理员）\n"
        "/view [pictures|text] — 本聊天用图片还是纯文字显示牌桌\n"
        "/help — 本帮助\n"
        "手牌和操作按钮在私聊里；群里显示牌桌。超时系统会代你出牌，两次超时后托管；也可以随时点「托管」。",
        "🀄 Mahjong bot\n"
        "/newtable [variant] — open a table in a group ({variants})\n"
        "/rules [variant] — rules and room options\n"
        "/score [variant] — this group's leaderboard, with skill ratings\n"
        "/history — this group's hands; /replay CODE to watch one; /export CODE for its record\n"
        "/stats — my record (as a reply: the other player's)\n"
        "/hand — send my hand to me again in private\n"
        "/stop — ask to stop the table: the seated players agree or refuse (a group admin stops it at once)\n"
        "/lang [zh|en] — switch the language of this chat (in a group: the table's host or an admin)\n"
        "/view [pictures|text] — show the table in this chat as pictures or as text only\n"
        "/help — this help\n"
        "Your hand and buttons come in a private chat; the group shows the table. On a timeout the bot "
        "plays for you; after two timeouts you are on auto-play (or whenever you press Auto-play).",
    ),
    "rules.title": Label("📜 {name}（{id}）", "📜 {name} ({id})"),
    "rules.players": Label("人数：{n}", "Players: {n}"),
    "rules.options": Label("房间选项：", "Room options:"),
    "rules.presets": Label("预设房间：{names}", "Presets: {names}"),
    "rules.option": Label(
        "  {label}：{choices}（默认 {default}）", "  {label}: {choices} (default {default})"
    ),
    "rules.hands": Label("牌型：{names}", "Hands: {names}"),
    "cmd.newtable": Label("开一桌", "open a table"),
    "cmd.rules": Label("规则", "rules of a variant"),
    "cmd.score": Label("排行榜", "leaderboard"),
    "cmd.hand": Label("重发我的手牌", "send my hand again"),
    "cmd.stop": Label("申请解散本桌", "ask to stop the table"),
    "cmd.lang": Label("切换语言", "switch language"),
    "cmd.help": Label("帮助", "help"),
    # ---------------------------------------------------------------- the game night
    # room: 局数, ready, locked settings
    "night.rounds": Label("局数：{n} 局", "Hands in the room: {n}"),
    "night.rounds.open": Label("局数：不限（/stop 结束）", "Hands in the room: until /stop"),
    "night.progress": Label("第 {n}/{total} 局", "hand {n} of {total}"),
    "night.ready_s": Label("准备限时 {n} 秒", "Ready timer {n}s"),
    "night.ready": Label("准备：{names}", "Ready: {names}"),
    "night.ready_wait": Label(
        "全员准备即开始；{n} 秒后自动开始，未准备的玩家由电脑托管。",
        "The next hand starts when everyone is ready, or in {n}s with those not ready on auto-play.",
    ),
    "night.locked": Label("设置已锁定（第一局已开始）", "Settings are locked (the first hand has started)"),
    "night.no_player": Label(
        "没有玩家入座，等待有人加入。", "Nobody is seated: waiting for players to join."
    ),
    "btn.ready": Label("✅ 准备", "✅ Ready"),
    "btn.reopen": Label("🔁 再来一场（同样设置）", "🔁 Play again (same settings)"),
    "ans.ready": Label("已准备", "You're ready"),
    "ans.ready.already": Label("你已经准备好了", "You're already ready"),
    "ans.ready.none": Label("现在不用准备", "There is nothing to get ready for now"),
    "ans.locked": Label(
        "第一局开始后设置就锁定了",
        "Settings are locked once the first hand has started",
    ),
    "ans.reopened": Label("已开新桌", "A new table is open"),
    "ans.table_exists": Label("本群已有一桌", "This group already has a table"),
    # the stop vote (申请解散, bot/table/vote.py)
    "vote.title": Label("🗳 解散投票 · 第 {tid} 桌", "🗳 Vote to stop table #{tid}"),
    "vote.asked": Label("{name} 申请解散本桌。", "{name} asks to stop the table."),
    "vote.asked_dm": Label(
        "{name} 申请解散「{chat}」的第 {tid} 桌：同意还是拒绝？",
        "{name} asks to stop table #{tid} in {chat}: agree or refuse?",
    ),
    "vote.need": Label(
        "过半数同意即解散（{need}/{n} 人）。", "It stops when a majority agree ({need} of {n})."
    ),
    "vote.yes": Label("✅ 同意：{names}", "✅ Agreed: {names}"),
    "vote.no": Label("❌ 拒绝：{names}", "❌ Refused: {names}"),
    "vote.waiting": Label("⏳ 未表态：{names}", "⏳ Not answered yet: {names}"),
    "vote.left": Label(
        "⏱ {until}，到时未表态的{rule}。", "⏱ {until}; whoever has not answered by then {rule}."
    ),
    "vote.timeout": Label("⏱ 时间到，未表态的{rule}。", "⏱ Time is up; whoever had not answered {rule}."),
    "vote.rule.agree": Label("算同意", "counts as agreeing"),
    "vote.rule.refuse": Label("算拒绝", "counts as refusing"),
    "vote.you": Label("你已{answer}。", "You {answer}."),
    "vote.you.yes": Label("同意", "agreed"),
    "vote.you.no": Label("拒绝", "refused"),
    "vote.passed": Label("✅ 投票通过：本桌解散。", "✅ The vote passed: the table stops."),
    "vote.failed": Label("❌ 投票未通过：牌局继续。", "❌ The vote failed: the game goes on."),
    "vote.closed": Label("本桌已结束。", "The table is closed."),
    # 大结算
    "final.title": Label(
        "🏆 大结算 · {variant} · 第 {tid} 桌 · 共 {n} 局",
        "🏆 Final summary · {variant} · table #{tid} · hands played: {n}",
    ),
    "final.stopped": Label("（提前结束）", " (stopped early)"),  # follows the title without a space in zh
    "final.winner": Label("大赢家：{names}（{points:+d}）", "Big winner: {names} ({points:+d})"),
    "final.line": Label("{rank}. {name} {points:+d}", "{rank}. {name} {points:+d}"),
    "final.detail": Label(
        "   胡 {wins} · 自摸 {self_draws} · 点炮 {deal_ins} · 杠 {kongs}",
        "   wins {wins} · self-draws {self_draws} · deal-ins {deal_ins} · kongs {kongs}",
    ),
    "final.best": Label("   最佳牌型：{hand}（{value:+d}）", "   best hand: {hand} ({value:+d})"),
    "final.biggest": Label("   单局最高：{value:+d}", "   biggest win: {value:+d}"),
    "final.none": Label(
        "房间在第一局打完之前就结束了，没有结算。",
        "The room ended before its first hand was finished: nothing to settle.",
    ),
    "final.reopen": Label(
        "点下面的按钮，用同样的设置再开一桌。",
        "Press the button to open a new table with the same settings.",
    ),
    # the provable shuffle (docs/verify.md)
    "shuffle.commit": Label("🔒 洗牌已公证 · 可验证 · {short}", "🔒 Shuffle sealed · checkable · {short}"),
    "shuffle.reveal": Label("🔓 洗牌已公开 · 可验证 · {short}", "🔓 Shuffle revealed · checkable · {short}"),
    "verify.title": Label(
        "🔍 洗牌验证 · 第 {tid} 桌第 {n} 局（#{code}）", "🔍 Shuffle check · table #{tid} hand {n} (#{code})"
    ),
    "verify.commitment": Label(
        "开局前的承诺（SHA-256）：\n{hex}", "The commitment made before the hand (SHA-256):\n{hex}"
    ),
    "verify.sealed": Label(
        "本局还在进行：种子和盐在本局结束后公布，到时再按一次按钮就能验证。",
        "The hand is still being played: its seed and salt are revealed when it ends; press the button "
        "again then to check it.",
    ),
    "verify.revealed": Label("种子：{seed}\n盐：{salt}", "The seed: {seed}\nThe salt: {salt}"),
    "verify.ok": Label(
        "✅ 机器人自查：种子和盐算出的承诺与开局前的一致；用这个种子重新发牌，"
        "本局记录的每一步都照样打得出来，结算也一样。",
        "✅ The bot's own check: the seed and salt give the commitment made before the hand; dealt again "
        "from this seed, every recorded move of the hand plays out the same, with the same settlement.",
    ),
    "verify.bad": Label("❌ 机器人自查没有通过：{why}", "❌ The bot's own check failed: {why}"),
    "verify.bad.commitment": Label("承诺对不上", "the commitment does not match"),
    "verify.bad.replay": Label("重新发牌后记录打不出来", "the record does not play out on the deal again"),
    "verify.cmd": Label(
        "想自己验证：下载本项目的代码后运行\n{cmd}",
        "To check it yourself, with this project's code:\n{cmd}",
    ),
    # 战绩 /history, /replay, /export
    "hist.title": Label("📜 本群战绩 · 第 {page} 页", "📜 This group's hands · page {page}"),
    "hist.empty": Label("本群还没有打完的牌局。", "No finished hands in this group yet."),
    "hist.line": Label(
        "#{code} · 第 {tid} 桌第 {n} 局 · {variant}",
        "#{code} · table #{tid} hand {n} · {variant}",
    ),
    "hist.win": Label("  胡：{who}", "  Won: {who}"),
    "hist.draw": Label("  流局", "  Drawn hand"),
    "hist.deltas": Label("  得分：{deltas}", "  Points: {deltas}"),
    "hist.hint": Label(
        "回放：/replay 编号 · 导出：/export 编号",
        "Watch one: /replay CODE · its record: /export CODE",
    ),
    "btn.newer": Label("◀ 较新", "◀ Newer"),
    "btn.older": Label("较早 ▶", "Older ▶"),
    "code.usage": Label(
        "用法：/{cmd} 编号（编号见 /history）", "Usage: /{cmd} CODE (the codes are in /history)"
    ),
    "code.unknown": Label("没有编号为 {code} 的牌局。", "There is no hand with the code {code}."),
    "code.foreign": Label("这一局不是在本群打的。", "That hand was not played in this group."),
    "code.live": Label(
        "这一局还没打完：结束后才能回放或导出。",
        "That hand is still being played: it can be watched or exported once it is over.",
    ),
    "code.abandoned": Label(
        "这一局没打完就作废了，没有可回放的结果。",
        "That hand was abandoned before it ended.",
    ),
    "code.not_yours": Label(
        "你没有参加这一局；请在它所在的群里用这个命令。",
        "You did not play in that hand; use the command in its group.",
    ),
    "replay.header": Label(
        "🎬 回放 #{code} · {variant} · 第 {tid} 桌第 {n} 局",
        "🎬 Replay #{code} · {variant} · table #{tid} hand {n}",
    ),
    "replay.step": Label("第 {i}/{total} 步", "step {i} of {total}"),
    "replay.deal": Label("发牌", "The deal"),
    "replay.dealer": Label("庄", "dealer"),
    "replay.hand": Label("手牌", "hand"),
    "replay.melds": Label("副露", "melds"),
    "replay.discards": Label("弃牌", "discards"),
    "replay.wall": Label("牌墙剩 {n} 张", "{n} tiles left in the wall"),
    "replay.end": Label("🏁 结算", "🏁 Settlement"),
    "replay.sent": Label("回放已私聊发给你。", "The replay was sent to you in private."),
    "replay.no_dm": Label(
        "我没法私聊你：先打开和我的私聊并点 Start，再发一次。",
        "I can't message you in private: open a chat with me, press Start, then ask again.",
    ),
    "btn.first": Label("⏮", "⏮"),
    "btn.prev": Label("◀", "◀"),
    "btn.next_step": Label("▶", "▶"),
    "btn.last": Label("⏭", "⏭"),
    "export.caption": Label(
        "牌局 #{code} 的完整记录：每行一条（发牌、每一步、结算），可用来复盘或导入其他工具",
        "The full record of hand #{code}: one line per event (the deal, every move, the settlement), for "
        "your own review or other tools",
    ),
    # /stats and ratings
    "stats.title": Label("📊 {name} 的战绩{where}", "📊 {name}'s record{where}"),
    "stats.here": Label("（本群）", " (this group)"),
    "stats.all": Label("（所有群）", " (all groups)"),
    "stats.empty": Label("{name} 还没有打完的牌局。", "{name} has not finished a hand yet."),
    "stats.variant": Label(
        "{variant}：{hands} 局 · 胡 {wins}（{rate}%）· 自摸 {self_draws} · 点炮 {deal_ins} · "
        "平均 {avg} 分/局",
        "{variant}: played {hands} · won {wins} ({rate}%) · self-drawn {self_draws} · dealt in {deal_ins} · "
        "{avg} points a hand",
    ),
    "stats.best": Label("  最佳牌型：{hand}（{value:+d}）", "  best hand: {hand} ({value:+d})"),
    "stats.rating": Label(
        "  技术分 {rating:.1f}（{n} 局）", "  skill rating {rating:.1f} (hands rated: {n})"
    ),
    "stats.usage": Label(
        "/stats 看自己的战绩；回复某人的消息再发 /stats 看他的。",
        "/stats shows your record; reply to someone's message with /stats to see theirs.",
    ),
    "score.rating": Label(
        "⭐ 技术分（{variant}：按名次估算，新玩家从 0 起，多打几局才准）",
        "⭐ skill rating ({variant}: from the places you finish in; new players start at 0, it settles over "
        "a few nights)",
    ),
    "score.rating_line": Label(" · ⭐{r:.1f}", " · ⭐{r:.1f}"),
    "cmd.history": Label("本群战绩", "this group's hands"),
    "cmd.replay": Label("回放一局", "watch a hand again"),
    "cmd.export": Label("导出一局的记录", "a hand's full record"),
    "cmd.stats": Label("个人战绩", "player statistics"),
    # --- the table you can see (pictures, the panel's context, the clock, results, /view, /rules)
    "group.title": Label("🀄 {variant} · 第 {tid} 桌 · 第 {n} 局", "🀄 {variant} · table #{tid} · hand {n}"),
    "clock.until": Label("还剩 {n} 秒", "{n}s left"),
    "clock.limit": Label("⏱ {until}（限时 {n} 秒）", "⏱ {until} (of {n}s)"),
    "clock.warn": Label("⏰ 只剩 {n} 秒！", "⏰ Only {n}s left!"),
    "clock.group": Label("⏱ {who} · {until}", "⏱ {who} · {until}"),
    "clock.turn": Label("{name} 出牌", "{name} to play"),
    "clock.deciding": Label("{names} 在选", "{names} choosing"),
    "end.win": Label("{name} 胡了：{hands}", "{name} won: {hands}"),
    "end.check": Label("{what}：{seats}", "{what}: {seats}"),
    "end.seat": Label("{name} {hands}", "{name} {hands}"),
    "dm.ended_caption": Label(
        "本局结束 · 你的得分 {delta:+d} · 结算见下一条消息",
        "The hand is over · your points {delta:+d} · the settlement follows",
    ),
    "dm.result_title": Label("🏁 第 {tid} 桌 · 第 {n} 局结算", "🏁 Table #{tid} · hand {n} settled"),
    "dm.your_total": Label(
        "你本局 {delta:+d}，本桌累计 {total:+d}",
        "You: {delta:+d} this hand, {total:+d} at this table so far",
    ),
    "dm.timeout": Label(
        "⏰ 时间到，系统替你：{label}", "⏰ Your time ran out; the bot played for you: {label}"
    ),
    "dm.forced": Label("只能这样走，系统已替你：{label}", "Your only move, made for you: {label}"),
    "view.pictures": Label(
        "本聊天现在用图片显示牌桌（/view text 改回纯文字）。",
        "This chat now shows the table as pictures (/view text for text only).",
    ),
    "view.text": Label(
        "本聊天现在只用文字显示牌桌（/view pictures 改回图片）。",
        "This chat now shows the table as text only (/view pictures for pictures).",
    ),
    "rules.common": Label("通用规则", "the common rules"),
    "rules.page_of": Label("{name}规则", "the {name} rules"),
    "rules.more": Label(
        "完整规则很长，按下面的按钮私聊发给你。",
        "The whole rules are long: press the button to get them in private.",
    ),
    "rules.part": Label("（第 {i}/{n} 部分）", "(part {i}/{n})"),
    "rules.missing": Label(
        "（完整规则页不在这台机器上：以上只是摘要。）",
        "(The full rules page is not installed here: the above is only a summary.)",
    ),
    "cmd.view": Label("图片 / 文字显示", "pictures or text"),
}


def listed(items: Iterable[str], lang: str = "zh", *, names: bool = False) -> str:
    """Items of a list as the reader writes them: ``A +3，B -1`` in Chinese (a full-width comma; ``names``, a
    plain enumeration of names: ``Alice、Bob``), ``A +3, B -1`` in English."""
    if lang != "zh":
        return ", ".join(items)
    return ("、" if names else "，").join(items)


def t(key: str, lang: str = "zh", **kwargs: object) -> str:
    """The string ``key`` in ``lang`` ("zh" or "en"), formatted with ``kwargs`` (an unknown key reads as
    itself, so a missing entry shows up in the text rather than failing a hand)."""
    label = CATALOGUE.get(key)
    text = label(lang) if label is not None else key
    return text.format(**kwargs) if kwargs else text


def default_names(lang: str = "zh", seats: int = 4) -> list[str]:
    """Seat names for the console: you, then the others in play order."""
    return [t(f"seat.{i}", lang) for i in range(seats)]


# Characters never echoed or stored from user input (line breaks and tabs are folded into spaces first):
# controls (Unicode category Cc: C0, DEL, C1) and format characters (Cf: the zero-width space, joiners and
# non-joiners, the word joiner, the byte order mark, the bidirectional marks and overrides that make a name
# display backwards, soft hyphens, tag characters), and the letters that draw nothing (the combining
# grapheme joiner, the Hangul fillers, the blank braille pattern): an invisible name, or one that looks like
# another's. A ZWJ inside an emoji sequence goes too: the emoji fall apart into their parts, still visible.
_INVISIBLE = frozenset("\u034f\u115f\u1160\u2800\u3164\uffa0")
_ASCII_CONTROLS = dict.fromkeys([*range(0x20), 0x7F])


def _hidden(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf") or ch in _INVISIBLE


NAME_LIMIT = 64  # display names and group titles as stored
QUOTE_LIMIT = 32  # what a reply quotes of an unknown argument


def clean(text: str | None, limit: int = NAME_LIMIT) -> str:
    """User input made safe to store and echo: whitespace folded, controls and invisible characters dropped,
    at most ``limit`` characters (an ellipsis marks a cut)."""
    if not text:
        return ""
    if len(text) > 16 * limit:  # no need to look at the rest of a 10 KB argument
        text = text[: 16 * limit]
    folded = " ".join(text.split())
    if folded.isascii():
        folded = folded.translate(_ASCII_CONTROLS)
    else:  # what is left between two spaces by a dropped character is one space
        folded = " ".join("".join(ch for ch in folded if not _hidden(ch)).split())
    return folded if len(folded) <= limit else folded[: limit - 1].rstrip() + "…"


def lang_of(code: str | None) -> str:
    """Telegram's ``language_code`` (``zh-hans``, ``en``, None) as one of our languages."""
    return "zh" if code and code.lower().startswith("zh") else "en"


def ai_name(seat: int, lang: str) -> str:
    """An AI seat's name: 电脑3 / AI 3 for the AI at seat 3 (1-based). Named by its seat, not counted among
    the hand's AI seats, so that it keeps its name all night while players sit down or leave around it: its
    points are kept by seat, and the running totals and the 大结算 name it as the hands did."""
    return t("ai.name", lang, n=seat + 1)
