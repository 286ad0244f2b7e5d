"""Strings of the Telegram front end (lobby, buttons, answers, notices) in Chinese and English.

Game strings (hands, prompts, settlements) live in ``bot/text/i18n.py``; ``t`` falls back to them, so callers
use one lookup for both.
"""

from __future__ import annotations

from bot.text.i18n import tr

_S: dict[str, tuple[str, str]] = {
    # lobby
    "lobby.title": ("🀄 {variant} · 第 {tid} 桌", "🀄 {variant} · table #{tid}"),
    "lobby.hand_no": ("下一局：第 {n} 局", "Next: hand {n}"),
    "lobby.seats": ("座位：", "Seats:"),
    "lobby.empty": ("（空位）", "(empty)"),
    "lobby.pending": (
        "⏳ 等待私聊开始后入座：{names}",
        "⏳ Seated once they start the private chat (waiting for the private chat): {names}",
    ),
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
    "btn.open_app": ("📱 打开牌桌", "📱 Open the table"),
    "dm.app_nudge": ("⏰ 第 {tid} 桌轮到你了", "⏰ Your move at table #{tid}"),
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
    "note.recent": ("最近：{moves}", "Recent: {moves}"),
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
        "/score [玩法] — 本群排行榜（含技术分）\n"
        "/history — 本群战绩；/replay 编号 回放；/export 编号 导出记录\n"
        "/stats — 我的战绩（回复别人的消息：他的）\n"
        "/hand — 重新私聊发我的手牌\n"
        "/stop — 结束本桌（入座玩家投票，或管理员）\n"
        "/lang [zh|en] — 切换本聊天的语言\n"
        "/view [pictures|text] — 本聊天用图片还是纯文字显示牌桌\n"
        "/help — 本帮助\n"
        "手牌和操作按钮在私聊里；群里显示牌桌。超时系统会代你出牌，两次超时后托管。",
        "🀄 Mahjong bot\n"
        "/newtable [variant] — open a table in a group ({variants})\n"
        "/rules [variant] — rules and room options\n"
        "/score [variant] — this group's leaderboard, with skill ratings\n"
        "/history — this group's hands; /replay CODE to watch one; /export CODE for its record\n"
        "/stats — my record (as a reply: the other player's)\n"
        "/hand — send my hand to me again in private\n"
        "/stop — stop the table (a vote of the seated players, or an admin)\n"
        "/lang [zh|en] — switch the language of this chat\n"
        "/view [pictures|text] — show the table in this chat as pictures or as text only\n"
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
    "cmd.newtable": ("开一桌", "open a table"),
    "cmd.rules": ("规则", "rules of a variant"),
    "cmd.score": ("排行榜", "leaderboard"),
    "cmd.hand": ("重发我的手牌", "send my hand again"),
    "cmd.stop": ("结束本桌", "stop the table"),
    "cmd.lang": ("切换语言", "switch language"),
    "cmd.help": ("帮助", "help"),
    # ---------------------------------------------------------------- the game night (issue 11)
    # room: 局数, ready, locked settings
    "night.rounds": ("局数：{n} 局", "Hands in the room: {n}"),
    "night.rounds.open": ("局数：不限（/stop 结束）", "Hands in the room: until /stop"),
    "night.progress": ("第 {n}/{total} 局", "hand {n} of {total}"),
    "night.ready_s": ("准备限时 {n} 秒", "Ready timer {n}s"),
    "night.ready": ("准备：{names}", "Ready: {names}"),
    "night.ready_wait": (
        "全员准备即开始；{n} 秒后自动开始，未准备的玩家由电脑托管。",
        "The next hand starts when everyone is ready, or in {n}s with those not ready on auto-play.",
    ),
    "night.locked": ("设置已锁定（第一局已开始）", "Settings are locked (the first hand has started)"),
    "night.no_player": ("没有玩家入座，等待有人加入。", "Nobody is seated: waiting for players to join."),
    "btn.ready": ("✅ 准备", "✅ Ready"),
    "btn.rounds": ("局数 {n}", "Hands {n}"),
    "btn.rounds.open": ("局数 不限", "Hands: until /stop"),
    "btn.ready_s": ("准备限时 {n} 秒", "Ready timer {n}s"),
    "btn.reopen": ("🔁 再来一场（同样设置）", "🔁 Play again (same settings)"),
    "ans.ready": ("已准备", "You're ready"),
    "ans.ready.already": ("你已经准备好了", "You're already ready"),
    "ans.ready.none": ("现在不用准备", "There is nothing to get ready for now"),
    "ans.locked": (
        "第一局开始后设置就锁定了",
        "Settings are locked once the first hand has started",
    ),
    "ans.reopened": ("已开新桌", "A new table is open"),
    "ans.table_exists": ("本群已有一桌", "This group already has a table"),
    # 大结算
    "final.title": (
        "🏆 大结算 · {variant} · 第 {tid} 桌 · 共 {n} 局",
        "🏆 Final summary · {variant} · table #{tid} · {n} hand(s)",
    ),
    "final.stopped": ("（提前结束）", "(stopped early)"),
    "final.winner": ("大赢家：{names}（{points:+d}）", "Big winner: {names} ({points:+d})"),
    "final.line": ("{rank}. {name} {points:+d}", "{rank}. {name} {points:+d}"),
    "final.detail": (
        "   胡 {wins} · 自摸 {self_draws} · 点炮 {deal_ins} · 杠 {kongs}",
        "   wins {wins} · self-draws {self_draws} · deal-ins {deal_ins} · kongs {kongs}",
    ),
    "final.best": ("   最佳牌型：{hand}（{value:+d}）", "   best hand: {hand} ({value:+d})"),
    "final.biggest": ("   单局最高：{value:+d}", "   biggest win: {value:+d}"),
    "final.none": ("本桌没有打完的牌局。", "No hand was finished at this table."),
    "final.reopen": (
        "点下面的按钮，用同样的设置再开一桌。",
        "Press the button to open a new table with the same settings.",
    ),
    # the provable shuffle (docs/verify.md)
    "shuffle.commit": ("🔒 洗牌承诺 SHA-256：{hex}", "🔒 Shuffle commitment (SHA-256): {hex}"),
    "shuffle.reveal": (
        "🔓 本局种子 {seed}，盐 {salt}。验证洗牌：\n{cmd}",
        "🔓 This hand's seed {seed}, salt {salt}. Check the shuffle:\n{cmd}",
    ),
    # 战绩 /history, /replay, /export
    "hist.title": ("📜 本群战绩 · 第 {page} 页", "📜 This group's hands · page {page}"),
    "hist.empty": ("本群还没有打完的牌局。", "No finished hands in this group yet."),
    "hist.line": (
        "#{code} · 第 {tid} 桌第 {n} 局 · {variant}",
        "#{code} · table #{tid} hand {n} · {variant}",
    ),
    "hist.win": ("  胡：{who}", "  Won: {who}"),
    "hist.draw": ("  流局", "  Drawn hand"),
    "hist.deltas": ("  得分：{deltas}", "  Points: {deltas}"),
    "hist.hint": (
        "回放：/replay 编号 · 导出：/export 编号",
        "Watch one: /replay CODE · its record: /export CODE",
    ),
    "btn.newer": ("◀ 较新", "◀ Newer"),
    "btn.older": ("较早 ▶", "Older ▶"),
    "code.usage": ("用法：/{cmd} 编号（编号见 /history）", "Usage: /{cmd} CODE (the codes are in /history)"),
    "code.unknown": ("没有编号为 {code} 的牌局。", "There is no hand with the code {code}."),
    "code.foreign": ("这一局不是在本群打的。", "That hand was not played in this group."),
    "code.live": (
        "这一局还没打完：结束后才能回放或导出。",
        "That hand is still being played: it can be watched or exported once it is over.",
    ),
    "code.abandoned": (
        "这一局没打完就作废了，没有可回放的结果。",
        "That hand was abandoned before it ended.",
    ),
    "code.not_yours": (
        "你没有参加这一局；请在它所在的群里用这个命令。",
        "You did not play in that hand; use the command in its group.",
    ),
    "replay.header": (
        "🎬 回放 #{code} · {variant} · 第 {tid} 桌第 {n} 局",
        "🎬 Replay #{code} · {variant} · table #{tid} hand {n}",
    ),
    "replay.step": ("第 {i}/{total} 步", "step {i} of {total}"),
    "replay.deal": ("发牌", "The deal"),
    "replay.dealer": ("庄", "dealer"),
    "replay.hand": ("手牌", "hand"),
    "replay.melds": ("副露", "melds"),
    "replay.discards": ("弃牌", "discards"),
    "replay.wall": ("牌墙剩 {n} 张", "{n} tiles left in the wall"),
    "replay.end": ("🏁 结算", "🏁 Settlement"),
    "replay.sent": ("回放已私聊发给你。", "The replay was sent to you in private."),
    "replay.no_dm": (
        "我没法私聊你：先打开和我的私聊并点 Start，再发一次。",
        "I can't message you in private: open a chat with me, press Start, then ask again.",
    ),
    "btn.first": ("⏮", "⏮"),
    "btn.prev": ("◀", "◀"),
    "btn.next_step": ("▶", "▶"),
    "btn.last": ("⏭", "⏭"),
    "export.caption": (
        "牌局 #{code} 的完整记录（JSON Lines，见 docs/export.md）",
        "The full record of hand #{code} (JSON Lines, see docs/export.md)",
    ),  # fmt: skip
    # /stats and ratings
    "stats.title": ("📊 {name} 的战绩{where}", "📊 {name}'s record{where}"),
    "stats.here": ("（本群）", " (this group)"),
    "stats.all": ("（所有群）", " (all groups)"),
    "stats.empty": ("{name} 还没有打完的牌局。", "{name} has not finished a hand yet."),
    "stats.variant": (
        "{variant}：{hands} 局 · 胡 {wins}（{rate}%）· 自摸 {self_draws} · 点炮 {deal_ins} · "
        "平均 {avg} 分/局",
        "{variant}: {hands} hands · {wins} won ({rate}%) · {self_draws} self-drawn · {deal_ins} dealt in · "
        "{avg} points a hand",
    ),
    "stats.best": ("  最佳牌型：{hand}（{value:+d}）", "  best hand: {hand} ({value:+d})"),
    "stats.rating": ("  技术分 {rating:.1f}（{n} 局）", "  skill rating {rating:.1f} ({n} hands)"),
    "stats.usage": (
        "/stats 看自己的战绩；回复某人的消息再发 /stats 看他的。",
        "/stats shows your record; reply to someone's message with /stats to see theirs.",
    ),
    "score.rating": ("⭐ 技术分（{variant}，openskill）", "⭐ skill rating ({variant}, openskill)"),
    "score.rating_line": (" · ⭐{r:.1f}", " · ⭐{r:.1f}"),
    "cmd.history": ("本群战绩", "this group's hands"),
    "cmd.replay": ("回放一局", "watch a hand again"),
    "cmd.export": ("导出一局的记录", "a hand's full record"),
    "cmd.stats": ("个人战绩", "player statistics"),
    # --- issue 12: the table you can see (pictures, the panel's context, the clock, results, /view, /rules)
    "group.title": ("🀄 {variant} · 第 {tid} 桌 · 第 {n} 局", "🀄 {variant} · table #{tid} · hand {n}"),
    "clock.until": ("{time} 截止（北京时间）", "until {time} UTC"),
    "clock.limit": ("⏱ 限时 {n} 秒 · {until}", "⏱ {n}s to decide · {until}"),
    "clock.warn": ("⏰ 只剩 {n} 秒！{until}", "⏰ {n}s left! {until}"),
    "clock.group": ("⏱ {who}：限时 {n} 秒 · {until}", "⏱ {who}: {n}s · {until}"),
    "clock.turn": ("{name} 出牌", "{name} to play"),
    "clock.deciding": ("{names} 在选", "{names} choosing"),
    "end.win": ("{name} 胡了：{hands}", "{name} won: {hands}"),
    "dm.ended_caption": (
        "本局结束 · 你的得分 {delta:+d} · 结算见下一条消息",
        "The hand is over · your points {delta:+d} · the settlement follows",
    ),
    "dm.result_title": ("🏁 第 {tid} 桌 · 第 {n} 局结算", "🏁 Table #{tid} · hand {n} settled"),
    "dm.your_total": (
        "你本局 {delta:+d}，本桌累计 {total:+d}",
        "You: {delta:+d} this hand, {total:+d} at this table so far",
    ),
    "dm.timeout": ("⏰ 时间到，系统替你：{label}", "⏰ Your time ran out; the bot played for you: {label}"),
    "view.pictures": (
        "本聊天现在用图片显示牌桌（/view text 改回纯文字）。",
        "This chat now shows the table as pictures (/view text for text only).",
    ),
    "view.text": (
        "本聊天现在只用文字显示牌桌（/view pictures 改回图片）。",
        "This chat now shows the table as text only (/view pictures for pictures).",
    ),
    "rules.part": ("（第 {i}/{n} 部分）", "(part {i}/{n})"),
    "rules.missing": (
        "（完整规则页不在这台机器上：以上只是摘要。）",
        "(The full rules page is not installed here: the above is only a summary.)",
    ),
    "cmd.view": ("图片 / 文字显示", "pictures or text"),
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
