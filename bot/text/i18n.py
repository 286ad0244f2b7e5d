"""User-facing strings in Chinese (zh) and English (en): one table, one lookup function."""

from __future__ import annotations

LANGS = ("zh", "en")

_STRINGS: dict[str, tuple[str, str]] = {
    # seats
    "seat.0": ("你", "You"),
    "seat.1": ("下家", "Next"),
    "seat.2": ("对家", "Opposite"),
    "seat.3": ("上家", "Previous"),
    "dealer": ("庄", "dealer"),
    "seat.won": ("已胡", "won"),
    # table
    "table.header": (
        "{variant} · 庄家 {dealer} · 牌墙剩 {wall} 张",
        "{variant} · dealer {dealer} · {wall} tiles left in the wall",
    ),
    "turn.turn": ("轮到 {name} 出牌", "{name} to play"),
    "turn.claim": (
        "等待对 {name} 的 {tile} 的回应",
        "waiting for answers to {name}'s {tile}",
    ),
    "turn.claim.rob": (
        "等待对 {name} 补杠 {tile} 的回应",
        "waiting for answers to {name}'s added kong {tile}",
    ),
    "turn.claim.kong": (
        "等待对 {name} 开杠翻出的牌的回应",
        "waiting for answers to the tiles {name}'s open kong turned up",
    ),
    "turn.claim.haidi": (
        "海底牌 {tile} 已亮出，等待回应",
        "the last tile {tile} is shown, waiting for answers",
    ),
    "turn.haidi": ("海底漫游：问 {name} 要不要海底牌", "last tile: {name} may take it or not"),
    "turn.haidi.taken": ("{name} 摸了海底牌", "{name} took the last tile"),
    "turn.choose": ("开局前：大家在选{what}", "before the hand: everyone picks {what}"),
    "turn.opening": ("起手：等 {name} 决定", "at the deal: {name} is deciding"),
    "turn.ended": ("本局结束", "the hand is over"),
    "seat.tiles": ("{n} 张", "{n} tiles"),
    "seat.melds": ("副露", "melds"),
    "seat.no_melds": ("无副露", "no melds"),
    "seat.concealed_kongs": ("暗杠 ×{n}", "concealed kong ×{n}"),
    "seat.discards": ("弃牌", "discards"),
    "seat.no_discards": ("（无）", "(none)"),
    "seat.locked": ("已开杠·锁牌", "opened a kong, hand locked"),
    "seat.locked.won": ("胡后锁牌", "hand locked after the win"),
    "seat.wins": ("已胡 {n} 次", "won {n}×"),
    "seat.declared": ("起手", "opening"),
    "seat.shown": ("亮牌", "shown"),
    "seat.hand": ("手牌", "hand"),
    "last_discard": ("最新弃牌：{name} 打 {tile}", "last discard: {name} {tile}"),
    "kong_tiles": ("开杠翻出：{tiles}", "turned up by the open kong: {tiles}"),
    "ctx.wall": ("牌墙剩 {n} 张", "{n} tiles left"),
    "ctx.river": ("弃 {tiles}", "discards {tiles}"),
    "ctx.shown": ("亮 {tiles}", "shows {tiles}"),
    "ctx.nothing": ("还没出牌", "no discards yet"),
    # own hand
    "hand.title": ("{name}的手牌（{n} 张）", "{name}: hand ({n} tiles)"),
    "hand.blind": (
        "{name}：{n} 张牌已发好，扣着——选好之后才看得到",
        "{name}: your {n} tiles are dealt face down; you see them once you have chosen",
    ),
    "hand.drawn": ("摸到", "drew"),
    "hand.melds": ("副露", "melds"),
    "hand.waits": ("听牌", "waiting on"),
    "hand.unseen": ("未见 {n} 张", "{n} unseen"),
    "hand.discard_waits": ("打 {tile} 听 {waits}", "discard {tile} → waiting on {waits}"),
    "hand.ready_after": ("可听牌的打法", "discards that leave you ready"),
    "hand.passed_win": (
        "漏胡：自己下次摸牌（或碰、杠）之前不能胡别人打的牌",
        "missed win: no win on a discard until your next draw, pung or kong",
    ),
    "hand.locked": ("已开杠：摸到不胡的牌自动打出", "kong opened: every tile that does not win is discarded"),
    "hand.locked.won": (
        "胡后锁牌：摸到不胡的牌自动打出，还能再胡",
        "locked after your win: every tile that does not win is discarded; you may win again",
    ),
    "suit.0": ("万", "Characters"),
    "suit.1": ("条", "Bamboo"),
    "suit.2": ("筒", "Dots"),
    "suit.3": ("字", "Honors"),
    # prompts
    "prompt.turn": ("轮到你：打一张牌", "Your turn: discard a tile"),
    "prompt.turn.more": ("轮到你：打一张牌，或 {what}", "Your turn: discard a tile, or {what}"),
    "prompt.win": ("胡", "win"),
    "prompt.kong": ("杠", "kong"),
    "prompt.locked": ("手牌已锁定（开杠）", "your hand is locked (kong opened)"),
    "prompt.locked.won": ("手牌已锁定（胡后）", "your hand is locked (after your win)"),
    "prompt.claim": ("{name} 打出 {tile}。你可以：{options}", "{name} discarded {tile}. You may: {options}"),
    "prompt.claim.rob": (
        "{name} 补杠 {tile}。你可以：{options}",
        "{name} adds {tile} to a pung (added kong). You may: {options}",
    ),
    "prompt.claim.kong": (
        "{name} 开杠翻出的牌没人留：{tile}。你可以：{options}",
        "{name}'s open kong turned up {tile}. You may: {options}",
    ),
    "prompt.claim.haidi": (
        "{name} 的海底牌 {tile} 亮出。你可以：{options}",
        "{name}'s last tile {tile} is shown. You may: {options}",
    ),
    "prompt.haidi": (
        "只剩最后一张海底牌：要不要？要了能胡就胡（海底捞月），不能胡就亮出，别人能胡就是海底炮。",
        "Only the last tile is left: take it? If it wins for you, you win (海底捞月); if not it is "
        "shown and anyone who can win on it does (海底炮).",
    ),
    "prompt.haidi.win": ("你摸的海底牌 {tile} 能胡！", "The last tile {tile} wins for you!"),
    "prompt.opening": (
        "你有起手小胡：{hands}。报了每家按小胡自摸付钱（有鸟），相应的牌亮给大家看。",
        "You hold opening hands: {hands}. Declaring one is paid as a small self-drawn win (birds "
        "count) and shows those tiles to the table.",
    ),
    "prompt.deal_win": ("你起手就能胡！胡，还是过？", "The tiles you were dealt win: win now, or pass?"),
    "prompt.wait": ("等待其他玩家……", "Waiting for the other players…"),
    "opt.sep": ("；", "; "),
    # claim option descriptions
    "desc.win": ("胡 {tile}", "win on {tile}"),
    "desc.win.rob": ("抢杠胡 {tile}", "rob the kong and win on {tile}"),
    "desc.win.haidi": ("胡 {tile}（海底炮）", "win on {tile} (海底炮)"),
    "desc.pung": ("碰 {tile}（用手里两张 {tile}）", "pung {tile} (with two {tile} from your hand)"),
    "desc.chow": ("吃 {run}（用手里 {used}）", "chow {run} (with {used} from your hand)"),
    "desc.kong.bu": (
        "杠 {tile} 补张（从牌尾补一张，照常打牌）",
        "kong {tile}, replace (draw from the back, play on)",
    ),
    "desc.kong.kai": (
        "杠 {tile} 开杠（掷骰子翻牌；之后手牌锁定，不胡的牌自动打出）",
        "kong {tile}, open (dice pick the tile; then the hand is locked and non-winning tiles are discarded)",
    ),
    "desc.kong": ("杠 {tile}", "kong {tile}"),
    "desc.pass": ("过", "pass"),
    # action labels (buttons)
    "act.discard": ("打 {tile}", "Discard {tile}"),
    "act.win": ("胡", "Win"),
    "act.pass": ("过", "Pass"),
    "act.pung": ("碰", "Pung"),
    "act.chow": ("吃 {run}", "Chow {run}"),
    "act.kong.bu": ("杠 {tile} 补张", "Kong {tile} (replace)"),
    "act.kong.kai": ("杠 {tile} 开杠", "Kong {tile} (open)"),
    "act.kong": ("杠 {tile}", "Kong {tile}"),
    "act.opening": ("报 {hands}", "Declare {hands}"),
    "act.opening.pass": ("不报", "Don't declare"),
    "act.take": ("要海底", "Take the last tile"),
    "act.refuse": ("不要", "Decline"),
    "act.other": ("其他", "Other"),
    "prompt.choose": ("开局选择", "Choose before the hand starts"),
    "prompt.choose.blind": (
        "不看牌选：大家都选好后，牌才翻开。",
        "You choose before looking: the tiles are turned up once everyone has chosen.",
    ),
    "prompt.choose.held": ("你的手牌：{per}", "Your hand: {per}"),
    "prompt.choose.suit": ("{suit} {n} 张", "{suit} {n}"),
    # settlement
    "settle.opening": ("{label}：{name} {hands}", "{label}: {name} {hands}"),
    "settle.win": ("胡牌：{name} {hands}", "Win: {name} {hands}"),
    "settle.for": ("按 {name} 的 {hands} 计", "counted as {name}'s {hands}"),
    "settle.kong": ("杠分：{name} {kong}", "Kong money: {name}, {kong}"),
    "settle.draw": ("流局结算", "Drawn-hand settlement"),
    "settle.seat": ("{name}：{hands}", "{name}: {hands}"),
    "settle.bird": ("{tile}→{name}", "{tile}→{name}"),
    "settle.pay": ("{payer} 付 {payee} {amount}", "{payer} → {payee} {amount}"),
    "settle.how": ("（{how}）", " ({how})"),
    "settle.deltas": ("得分：{deltas}", "Points: {deltas}"),
    "result.win": ("本局：{names} 胡", "Result: {names} won"),
    "result.draw": ("本局：流局（荒庄）", "Result: drawn hand (荒庄)"),
    "result.deltas": ("本局得分：{deltas}", "This hand: {deltas}"),
    "result.next_dealer": ("下一局庄家：{name}", "Next dealer: {name}"),
    "result.hands": ("各家手牌", "Hands"),
    "totals": ("累计：{deltas}", "Running totals: {deltas}"),
    # events
    "ev.draw": ("{name} 摸了 {tile}", "{name} drew {tile}"),
    "ev.draw.hidden": ("{name} 摸牌", "{name} drew a tile"),
    "ev.draw.kong": ("{name} 杠后补牌 {tile}", "{name} drew {tile} after the kong"),
    "ev.draw.kong.hidden": ("{name} 杠后补牌", "{name} drew a replacement"),
    "ev.discard": ("{name} 打 {tile}", "{name} discarded {tile}"),
    "ev.discard.auto": ("{name} 打 {tile}（自动）", "{name} discarded {tile} (automatic)"),
    "ev.pung": ("{name} 碰 {tile}", "{name} punged {tile}"),
    "ev.chow": ("{name} 吃 {tile} 成 {meld}", "{name} chowed {tile} into {meld}"),
    "ev.kong": ("{name} 杠 {tile}{mode}", "{name} made a kong of {tile}{mode}"),
    "ev.kong.concealed": ("{name} 暗杠{mode}", "{name} made a concealed kong{mode}"),
    "ev.kong_declared": ("{name} 要补杠 {tile}", "{name} declares an added kong of {tile}"),
    "ev.rob_passed": ("没人抢杠，{name} 的杠成立", "nobody robbed {name}'s kong"),
    "ev.dice": ("{name} 掷骰子 {detail}", "{name} rolled {detail}"),
    "ev.win": ("{name} 胡了 {tile}{hands}", "{name} won on {tile}{hands}"),
    "ev.win.notile": ("{name} 胡了{hands}", "{name} won{hands}"),
    "ev.opening": ("{name} 报起手小胡：{hands}", "{name} declared opening hands: {hands}"),
    "ev.opening.pass": ("{name} 起手没有报", "{name} passed at the deal"),
    "ev.chosen": ("{name} 选好了", "{name} has chosen"),
    "ev.choices": ("{what}：{picked}", "{what}: {picked}"),
    "ev.kong_tiles": ("{name} 开杠翻出 {tiles}", "{name}'s open kong turned up {tiles}"),
    "ev.kong_tiles_fall": ("没人要的 {tiles} 落进河里", "{tiles} went unclaimed into the river"),
    "ev.haidi_offer": ("海底牌问 {name}", "the last tile is offered to {name}"),
    "ev.haidi_take": ("{name} 要了海底牌 {tile}", "{name} took the last tile {tile}"),
    "ev.haidi_take.hidden": ("{name} 要了海底牌", "{name} took the last tile"),
    "ev.haidi_refuse": ("{name} 不要海底牌", "{name} declined the last tile"),
    "ev.haidi_show": ("{name} 亮出海底牌 {tile}", "{name} shows the last tile {tile}"),
    "ev.pass": ("{name} 过", "{name} passed"),
    "ev.passed_win": ("你漏胡了", "you passed a win (missed win)"),
    "mode.bu": ("（补张）", " (replace)"),
    "mode.kai": ("（开杠）", " (open)"),
    # console
    "console.welcome": (
        "长沙麻将 · 你（座位 0）对三个电脑。输入序号选择，或直接输入牌名（如 5m）打牌；q 退出。",
        "Changsha mahjong · you (seat 0) against three AI seats. Type a number, or a tile such as "
        "5m to discard it; q quits.",
    ),
    "console.hand_no": ("==== 第 {n} 局 · 庄家 {dealer} ====", "==== Hand {n} · dealer {dealer} ===="),
    "console.choices": ("你的选择：", "Your options:"),
    "console.ask": ("请选择 [1-{n}]（q 退出）：", "Choose [1-{n}] (q to quit): "),
    "console.bad": (
        "无效输入 “{text}”：请输入 1 到 {n} 的序号，或你手里的一张牌（如 {example}），q 退出。",
        "Invalid input '{text}': type a number from 1 to {n}, or a tile you hold (e.g. {example}); q quits.",
    ),
    "console.empty": (
        "请输入 1 到 {n} 的序号，或一张牌（如 {example}）。",
        "Please type a number from 1 to {n}, or a tile (e.g. {example}).",
    ),
    "console.not_legal_tile": (
        "现在不能打 {tile}：{why}",
        "You cannot discard {tile} now: {why}",
    ),
    "console.not_held": ("你手里没有 {tile}", "you do not hold {tile}"),
    "console.no_discard": ("现在不是出牌的时候", "it is not time to discard"),
    "console.locked_only": ("开杠后只能打摸到的牌", "after opening a kong only the drawn tile may go"),
    "console.only": ("只有一个选择：{label}", "Only one option: {label}"),
    "console.next": ("回车开始下一局，q 退出：", "Press Enter for the next hand, q to quit: "),
    "console.bye": ("再见！", "Bye!"),
    "console.eof": ("输入结束，退出。", "End of input, quitting."),
    "console.played": ("共打了 {n} 局。", "{n} hand(s) played."),
}


def tr(key: str, lang: str = "zh", **kwargs: object) -> str:
    """The string ``key`` in ``lang`` ("zh" or "en"), formatted with ``kwargs``."""
    pair = _STRINGS.get(key)
    if pair is None:
        text = key
    else:
        text = pair[1] if lang == "en" else pair[0]
    return text.format(**kwargs) if kwargs else text


def default_names(lang: str = "zh", seats: int = 4) -> list[str]:
    """Seat names for the console: you, then the others in play order."""
    return [tr(f"seat.{i}", lang) for i in range(seats)]
