"""Strings of the Telegram front end (lobby, buttons, answers, notices) in Chinese and English.

Game strings (hands, prompts, settlements) live in ``bot/i18n.py``; ``t`` falls back to them, so callers
use one lookup for both.
"""

from __future__ import annotations

from .i18n import tr

_S: dict[str, tuple[str, str]] = {
    # lobby
    "lobby.title": ("🀄 {variant} · 第 {tid} 桌", "🀄 {variant} · table #{tid}"),
    "lobby.hand_no": ("下一局：第 {n} 局", "Next: hand {n}"),
    "lobby.seats": ("座位：", "Seats:"),
    "lobby.empty": ("（空位）", "(empty)"),
    "lobby.pending": ("{name}（等待私聊开始）", "{name} (waiting for the private chat)"),
    "lobby.options": ("规则：{opts}", "Rules: {opts}"),
    "lobby.no_options": ("规则：默认", "Rules: default"),
    "lobby.preset": ("玩法：{label}", "Room: {label}"),
    "lobby.timers": (
        "限时：吃碰杠 {claim} 秒 · 出牌 {discard} 秒",
        "Timers: claims {claim}s · discard {discard}s",
    ),
    "lobby.lang": ("语言：中文", "Language: English"),
    "lobby.pause": (
        "每次出牌后停顿 {n} 秒等待吃碰杠胡（人人一样，不透露谁能吃碰）",
        "After every discard the table pauses {n}s for claims (always, so nobody can tell who may claim)",
    ),
    "lobby.hint": (
        "点「加入」入座；开始时空位由电脑补上。",
        "Press Join to sit down; empty seats get AI players when the game starts.",
    ),
    "lobby.started": ("牌局进行中……", "Game in progress…"),
    "lobby.closed": ("本桌已结束。", "This table is closed."),
    "ai.name": ("电脑{n}", "AI {n}"),
    "you": ("（你）", " (you)"),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    # buttons
    "btn.join": ("🙋 加入", "🙋 Join"),
    "btn.leave": ("🚪 离开", "🚪 Leave"),
    "btn.add_ai": ("🤖 加电脑", "🤖 Add AI"),
    "btn.remove_ai": ("➖ 减电脑", "➖ Remove AI"),
    "btn.settings": ("⚙️ 设置", "⚙️ Settings"),
    "btn.start": ("▶️ 开始", "▶️ Start"),
    "btn.next": ("▶️ 下一局", "▶️ Next hand"),
    "btn.back": ("⬅️ 返回", "⬅️ Back"),
    "btn.my_hand": ("🀄 我的手牌", "🀄 My hand"),
    "btn.im_back": ("🙋 我回来了", "🙋 I'm back"),
    "btn.open_dm": ("💬 打开私聊并点 Start", "💬 Open the chat and press Start"),
    "btn.claim_s": ("吃碰限时 {n} 秒", "Claim timer {n}s"),
    "btn.discard_s": ("出牌限时 {n} 秒", "Discard timer {n}s"),
    "btn.pause_s": ("出牌后停顿 {n} 秒", "Pause after each discard {n}s"),
    "btn.seats": ("人数 {n}", "Players {n}"),
    "btn.preset": ("🀄 {label}", "🀄 {label}"),
    "btn.pick_confirm": ("✔ 确认：{label}", "✔ Confirm: {label}"),
    "btn.pick_suggest": ("💡 推荐：{label}", "💡 Suggested: {label}"),
    "btn.lang": ("语言：中文", "Language: English"),
    "btn.all": ("总榜", "All time"),
    "btn.week": ("本周", "This week"),
    "btn.month": ("本月", "This month"),
    # callback answers
    "ans.joined": ("已入座", "You're seated"),
    "ans.already": ("你已经在座位上了", "You're already seated"),
    "ans.full": ("座位已满", "The table is full"),
    "ans.left": ("已离开座位", "You left the table"),
    "ans.not_seated": ("你不在这一桌", "You're not seated at this table"),
    "ans.started": ("牌局已经开始了", "The game has already started"),
    "ans.not_started": ("牌局还没开始", "The game hasn't started"),
    "ans.no_dm": ("请先打开和我的私聊并点 Start", "Open a private chat with me and press Start first"),
    "ans.need_player": ("至少要有一位玩家入座", "At least one player must be seated"),
    "ans.no_ai": ("没有可以移除的电脑", "There is no AI seat to remove"),
    "ans.no_room": ("没有空位了", "There is no free seat"),
    "ans.ok": ("好的", "OK"),
    "ans.stale": ("这个按钮已过期", "This button is out of date"),
    "ans.unknown": ("这个按钮已过期或无效", "This button is out of date or unknown"),
    "ans.not_member": ("只有本群成员可以加入这一桌", "Only members of this group can join this table"),
    "ans.host_only": (
        "只有开桌的人或群管理员可以设置和开始",
        "Only the table's host or a group admin can change settings or start",
    ),
    "ans.check_failed": (
        "暂时无法确认你的群成员身份，请稍后再试",
        "Couldn't check your membership; try again",
    ),
    "ans.not_yours": ("现在不是你的回合", "It's not your turn"),
    "ans.closed": ("本桌已结束", "This table is closed"),
    "ans.done": ("✔ {label}", "✔ {label}"),
    "ans.picked": ("已选 {n}/{k} 张", "{n} of {k} tiles picked"),
    "ans.back": ("欢迎回来！", "Welcome back!"),
    "ans.not_auto": ("你不在托管中", "You're not on auto-play"),
    "ans.hand_sent": ("手牌已私聊发送", "Your hand was sent in private"),
    "ans.busy": ("请稍候再试", "Please try again in a moment"),
    "ans.error": ("出错了，请重试", "Something went wrong, please try again"),
    # group notices
    "note.no_dm": (
        "{name}：我无法私聊你——你还没有打开和我的私聊（Telegram 不允许机器人先发私信）。"
        "点下面的按钮打开私聊并点 Start，你就会入座。",
        "{name}: I can't message you privately because you have never opened a chat with me (Telegram "
        "doesn't let bots write first). Press the button below, then Start, and you'll be seated.",
    ),
    "note.dm_lost": (
        "{name}：私聊发送失败（你可能屏蔽了我），先由电脑托管。点按钮打开私聊并点 Start 即可回来。",
        "{name}: I can't reach you in private (did you block me?), so the bot plays for you. Press the "
        "button and Start to come back.",
    ),
    "note.table_exists": ("本群已有一桌（第 {tid} 桌）。", "This group already has a table (#{tid})."),
    "note.group_only": ("请在群里用 /newtable 开桌。", "Use /newtable in a group to open a table."),
    "note.in_group": ("请在牌桌所在的群里用这个命令。", "Use this command in the table's group."),
    "note.unknown_variant": (
        "不认识的玩法 “{name}”。可选：{known}",
        "Unknown variant '{name}'. Known: {known}",
    ),
    "note.no_table": (
        "本群没有进行中的牌桌。用 /newtable 开一桌。",
        "No open table here. Open one with /newtable.",
    ),
    "note.stop_vote": ("{name} 提议结束本桌（{n}/{need}）。", "{name} votes to stop the table ({n}/{need})."),
    "note.stop_denied": (
        "只有入座的玩家（投票）或群管理员可以结束牌桌。",
        "Only seated players (by a vote) or a group admin can stop the table.",
    ),
    "note.stopped": ("本桌已结束。", "The table has been stopped."),
    "note.auto_on": (
        "{name} 两次超时，已由电脑托管（点「我回来了」恢复）。",
        '{name} timed out twice and is on auto-play until pressing "I\'m back".',
    ),
    "note.auto_off": ("{name} 回来了。", "{name} is back."),
    "note.timeout": ("{name} 超时，系统代为操作：{label}", "{name} timed out; the bot played: {label}"),
    "note.restored": (
        "机器人重启，让大家久等了：牌局继续，计时重新开始。",
        "The bot restarted and kept you waiting: the game goes on, the timers start again.",
    ),
    "note.restore_failed": (
        "这一局无法恢复（规则或记录已变），已作废。",
        "This hand could not be restored (the rules or its record changed) and was abandoned.",
    ),
    "note.lang": ("本聊天的语言已设为中文。", "The language of this chat is now English."),
    "note.result_title": ("🏁 第 {n} 局结束", "🏁 Hand {n} is over"),
    "note.totals": ("本桌累计：{totals}", "Table totals: {totals}"),
    "note.recent": ("最近：", "Recent:"),
    "note.auto_seats": ("托管中：{names}", "On auto-play: {names}"),
    "note.settlement": ("结算：", "Settled:"),
    # private
    "dm.welcome": (
        "你好！把我加到群里，用 /newtable 开一桌麻将。你的手牌会在这里私聊发给你。\n/help 查看命令。",
        "Hello! Add me to a group and open a table with /newtable. Your hand will be sent to you here.\n"
        "/help lists the commands.",
    ),
    "dm.joined": (
        "你已加入「{chat}」的第 {tid} 桌（{variant}）。",
        "You joined table #{tid} ({variant}) in {chat}.",
    ),
    "dm.join_failed": ("没能加入第 {tid} 桌：{why}", "Could not join table #{tid}: {why}"),
    "dm.bad_link": (
        "这个链接无效或已过期。请在群里点「加入」。",
        "This link is not valid (or has expired). Press Join in the group instead.",
    ),
    "group.header": ("🀄 第 {tid} 桌 · 第 {n} 局", "🀄 table #{tid} · hand {n}"),
    "dm.header": ("🀄 {variant} · 第 {tid} 桌 · 第 {n} 局", "🀄 {variant} · table #{tid} · hand {n}"),
    "dm.time_left": ("⏱ 限时 {n} 秒", "⏱ {n}s to decide"),
    "dm.picked": (
        "已选 {n}/{k} 张：{tiles}（点手牌选或放回）",
        "Picked {n} of {k}: {tiles} (press a tile to pick it or put it back)",
    ),
    "dm.auto": (
        "🤖 你正在托管中，系统替你出牌。",
        "🤖 You are on auto-play: the bot plays for you.",
    ),
    "dm.result": ("本局你的得分：{delta:+d}", "Your points this hand: {delta:+d}"),
    "dm.not_seated": ("你现在不在任何牌桌上。", "You're not seated at any table."),
    "dm.ended": ("本局结束。", "The hand is over."),
    "dm.closed": ("牌桌已结束。", "The table was closed."),
    "dm.removed": (
        "机器人已被移出群聊：本局作废，之前各局的得分保留。",
        "The bot was removed from the group: this hand is abandoned; earlier hands keep their scores.",
    ),
    # score
    "score.title": ("🏆 排行榜 · {period}", "🏆 Leaderboard · {period}"),
    "score.all": ("总榜", "all time"),
    "score.week": ("本周", "this week"),
    "score.month": ("本月", "this month"),
    "score.line": (
        "{rank}. {name} {points:+d}（{hands} 局，胡 {wins}）",
        "{rank}. {name} {points:+d} ({hands} played, {wins} won)",
    ),
    "score.empty": ("还没有成绩。", "No scores yet."),
    # help / rules
    "help": (
        "🀄 麻将机器人\n"
        "/newtable [玩法] — 在群里开一桌（{variants}）\n"
        "/rules [玩法] — 规则和选项\n"
        "/score — 本群排行榜\n"
        "/hand — 重新私聊发我的手牌\n"
        "/stop — 结束本桌（入座玩家投票，或管理员）\n"
        "/lang [zh|en] — 切换本聊天的语言\n"
        "/help — 本帮助\n"
        "手牌和操作按钮在私聊里；群里显示牌桌。超时系统会代你出牌，两次超时后托管。",
        "🀄 Mahjong bot\n"
        "/newtable [variant] — open a table in a group ({variants})\n"
        "/rules [variant] — rules and room options\n"
        "/score — this group's leaderboard\n"
        "/hand — send my hand to me again in private\n"
        "/stop — stop the table (a vote of the seated players, or an admin)\n"
        "/lang [zh|en] — switch the language of this chat\n"
        "/help — this help\n"
        "Your hand and buttons come in a private chat; the group shows the table. On a timeout the bot "
        "plays for you; after two timeouts you are on auto-play.",
    ),
    "rules.title": ("📜 {name}（{id}）", "📜 {name} ({id})"),
    "rules.players": ("人数：{n}", "Players: {n}"),
    "rules.options": ("房间选项：", "Room options:"),
    "rules.presets": ("预设房间：{names}", "Presets: {names}"),
    "rules.option": ("  {label}：{choices}（默认 {default}）", "  {label}: {choices} (default {default})"),
    "rules.hands": ("牌型：{names}", "Hands: {names}"),
    "rules.doc": ("完整规则：docs/rules/{id}.md", "Full rules: docs/rules/{id}.md"),
    "cmd.newtable": ("开一桌", "open a table"),
    "cmd.rules": ("规则", "rules of a variant"),
    "cmd.score": ("排行榜", "leaderboard"),
    "cmd.hand": ("重发我的手牌", "send my hand again"),
    "cmd.stop": ("结束本桌", "stop the table"),
    "cmd.lang": ("切换语言", "switch language"),
    "cmd.help": ("帮助", "help"),
}


def t(key: str, lang: str = "zh", **kwargs: object) -> str:
    """The front-end string ``key`` in ``lang``; game strings come from ``bot.i18n.tr``."""
    pair = _S.get(key)
    if pair is None:
        return tr(key, lang, **kwargs)
    text = pair[1] if lang == "en" else pair[0]
    return text.format(**kwargs) if kwargs else text


# Characters never echoed or stored from user input: C0/C1 controls and the bidirectional overrides that
# make a name display backwards (line breaks are folded into spaces first).
_BIDI = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_DROP = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0), *map(ord, _BIDI)])
NAME_LIMIT = 64  # display names and group titles as stored
QUOTE_LIMIT = 32  # what a reply quotes of an unknown argument


def clean(text: str | None, limit: int = NAME_LIMIT) -> str:
    """User input made safe to store and echo: controls dropped, whitespace folded, at most ``limit``
    characters (an ellipsis marks a cut)."""
    if not text:
        return ""
    if len(text) > 16 * limit:  # no need to look at the rest of a 10 KB argument
        text = text[: 16 * limit]
    folded = " ".join(text.split()).translate(_DROP).strip()
    return folded if len(folded) <= limit else folded[: limit - 1].rstrip() + "…"


def lang_of(code: str | None) -> str:
    """Telegram's ``language_code`` (``zh-hans``, ``en``, None) as one of our languages."""
    return "zh" if code and code.lower().startswith("zh") else "en"
