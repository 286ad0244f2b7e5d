"""Less switching between the group and the private chat, over the fake Bot API: a player's private result
carries Ready (and for the host Next hand) while the room goes on, as the group's lobby does; 托管 by choice
from the panel, and "I'm back" in the group as well as in private; /rules in a group is a short summary with
a button that sends the whole page in private, in the presser's language, without a repository path."""

from __future__ import annotations

from pathlib import Path

from bot.text.texts import t

from .bot_support import (
    Clock,
    bot_running,
    lobby_message,
    open_table,
    press,
    quiet,
    service,
    until_hands,
)
from .fake_telegram import FakeChat, FakeMessage, FakeTelegramServer, FakeUser


def last_with(tg: FakeTelegramServer, chat: FakeChat | FakeUser, data: str) -> FakeMessage:
    return next(m for m in reversed(tg.bot_messages(chat)) if data in m.callback_data)


async def test_auto_play_by_choice_and_ready_from_the_private_result(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Alice (the Chinese host) presses 托管 on her panel: the group is told, her panel offers "I'm back",
    and so does the group's table message, where Bob's press of it is refused and hers brings her back.
    After the hand each player's private result has Ready (the host's Next hand too, and the shuffle check);
    for a player the bot was playing for it reads "I'm back · Ready". Both press it there: the next hand is
    dealt."""
    clock = Clock()
    alice = tg.add_user("Alice", language_code="zh-hans", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=1) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        assert await press(tg, bob, lobby, f"L|{tid}|j") == "You're seated"
        lobby = await lobby_message(tg, group, tid)
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "好的"
        rt = svc.tables[tid]
        await quiet(app, tg)
        panel = last_with(tg, alice, f"A|{tid}")  # 托管 on her panel, whatever she is asked
        assert await press(tg, alice, panel, f"A|{tid}") == "已托管：电脑替你出牌，点「我回来了」恢复"
        seat = rt.seat_of(alice.id)
        assert seat in rt.live.auto
        await quiet(app, tg)
        assert any("Alice 选择了托管" in (m.text or "") for m in tg.bot_messages(group))
        assert f"b|{tid}" in tg.message(alice, panel.message_id).callback_data
        table = last_with(tg, group, f"b|{tid}")  # "I'm back" in the group too
        assert await press(tg, bob, table, f"b|{tid}") == "You're not on auto-play"
        assert await press(tg, alice, table, f"b|{tid}") == "欢迎回来！"
        assert rt.playing and seat not in rt.live.auto
        await until_hands(app, svc, clock, tid, tg, 1)  # both time out twice: the bot plays for them
        assert rt.hands_played == 1 and not rt.playing
        code = (await svc.storage.table_hands(tid))[0].code
        mine = last_with(tg, alice, f"L|{tid}|y")
        assert "第 1 局结算" in (mine.text or "")
        assert {f"L|{tid}|go", f"C|{code}"} <= set(mine.callback_data)  # the host's Next hand, the check
        assert "🙋 我回来了 · 准备" in [b["text"] for b in mine.buttons]
        his = last_with(tg, bob, f"L|{tid}|y")
        assert f"L|{tid}|go" not in his.callback_data and "🙋 I'm back · Ready" in [
            b["text"] for b in his.buttons
        ]
        assert await press(tg, alice, mine, f"L|{tid}|y") == "已准备"
        await quiet(app, tg)
        assert "Alice ✅" in (last_with(tg, group, f"L|{tid}|y").text or "")
        assert await press(tg, bob, his, f"L|{tid}|y") == "You're ready"
        assert rt.playing and rt.live.auto == frozenset()  # both back: nobody on auto-play


async def test_rules_in_a_group_is_a_summary_and_the_page_comes_in_private(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """/rules sichuan in a group put ~8 KB there; now a short summary with a button. Bob (English) gets the
    page in private in English, Li (Chinese) in Chinese, with "the common rules" for what the page refers
    to (no ``common.md``) and a button for that page too; someone who never started the bot is told how."""
    li = tg.add_user("李雷", language_code="zh-hans", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    dave = tg.add_user("Dave", language_code="en")  # never opened a private chat with the bot
    group = tg.add_group("牌桌", members=[li, bob, dave])
    async with bot_running(tg, tmp_path / "bot.db", Clock()):
        mark = tg.mark()
        tg.send_text(li, group, "/rules sichuan")
        call = await tg.wait_for_call("sendMessage", chat_id=group.id, since=mark)
        await tg.wait_idle()
        sent = [c for c in tg.calls_to("sendMessage", chat_id=group.id) if c.seq >= mark]
        assert len(sent) == 1 and len(call.params["text"]) < 2000 and "四川麻将" in call.params["text"]
        summary = tg.bot_messages(group)[-1]
        assert summary.callback_data == ["P|sichuan"]
        assert await press(tg, bob, summary, "P|sichuan") == "The whole rules were sent to you in private"
        parts = [m.text or "" for m in tg.bot_messages(bob)]
        assert len(parts) >= 2 and parts[-1].endswith(f"(part {len(parts)}/{len(parts)})")
        page = "\n".join(parts)
        assert "the common rules" in page and ".md" not in page and "换三张" in page
        assert not any("出牌" in p for p in parts)  # his language only
        common = tg.bot_messages(bob)[-1]
        assert common.callback_data == ["P|common"]
        assert await press(tg, bob, common, "P|common") == "The whole rules were sent to you in private"
        assert any("Missed win" in (m.text or "") for m in tg.bot_messages(bob)[len(parts) :])
        assert await press(tg, li, summary, "P|sichuan") == "完整规则已私聊发给你"
        zh = "\n".join(m.text or "" for m in tg.bot_messages(li))
        assert "通用规则" in zh and ".md" not in zh
        q = tg.press(dave, group, summary.message_id, "P|sichuan")
        await tg.wait_for(lambda _: q.answered)
        answer = next(c for c in tg.calls_to("answerCallbackQuery") if c.params["callback_query_id"] == q.id)
        assert answer.params["text"] == t("ans.open_dm", "en") and "start=" in answer.params["url"]


async def test_a_group_command_in_private_says_where_it_belongs(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """/newtable, /stop and /history are a group's: in a private chat each is answered with where to use it,
    in the writer's language, and nothing happens."""
    li = tg.add_user("李雷", language_code="zh-hans", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    async with bot_running(tg, tmp_path / "bot.db", Clock()):
        for user, command, key in [
            (bob, "/newtable", "note.group_only"),
            (li, "/newtable changsha", "note.group_only"),
            (bob, "/stop", "note.in_group"),
            (li, "/history", "note.in_group"),
        ]:
            mark = tg.mark()
            tg.send_text(user, None, command)
            call = await tg.wait_for_call("sendMessage", chat_id=user.id, since=mark)
            assert call.params["text"] == t(key, "zh" if user is li else "en")
        await tg.wait_idle()
        assert {c.params["chat_id"] for c in tg.calls_to("sendMessage")} == {li.id, bob.id}  # nothing else
