"""/score (all time / week / month) with running table totals, and the language: the user's Telegram
language by default, switchable per chat with /lang or the lobby's settings."""

from __future__ import annotations

from pathlib import Path

from bot.text.texts import t

from .bot_support import (
    Clock,
    Player,
    bot_running,
    choose_setting,
    hand_over,
    last_with_button,
    lobby_message,
    open_table,
    play_hand,
    service,
)
from .fake_telegram import FakeTelegramServer

DAY = 86_400


async def test_score_periods_and_running_totals(tg: FakeTelegramServer, tmp_path: Path) -> None:
    clock = Clock()
    clock.advance(-20 * DAY)  # the first hand is played in the previous month
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", clock) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        for n in (1, 2):
            lobby = await lobby_message(tg, group, tid)
            tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
            await play_hand([Player(tg, alice, tid)], hand_over(tg, group, t("note.result_title", "en", n=n)))
            await tg.wait_idle()
            clock.advance(20 * DAY)
        rt = svc.tables[tid]
        hands = await svc.storage.table_hands(tid)
        assert [h.number for h in hands] == [1, 2]
        mine = sum(h.result["deltas"][h.seats.index(alice.id)] for h in hands if h.result)  # type: ignore[index]
        assert rt.totals[f"u{alice.id}"] == mine
        result = next(m for m in reversed(tg.bot_messages(group)) if "🏁 Hand 2" in (m.text or ""))
        assert f"Table totals: Alice {mine:+d}" in (result.text or "")

        clock.advance(-20 * DAY)  # "now" is the day of the second hand
        mark = tg.mark()
        tg.send_text(alice, group, "/score")
        call = await tg.wait_for_call("sendMessage", chat_id=group.id, since=mark)
        text = call.params["text"]
        assert "Leaderboard · all time" in text and "1. Alice" in text and "(2 played" in text
        board = last_with_button(tg, group, "S|week")
        assert board is not None
        for period, expected in (("week", "(1 played"), ("month", "(1 played"), ("all", "(2 played")):
            q = tg.press(alice, group, board.message_id, f"S|{period}")
            await tg.wait_for(lambda _, q=q: q.answered)
            await tg.wait_idle()
            assert expected in (tg.message(group, board.message_id).text or ""), period
        clock.advance(40 * DAY)  # two months later: nothing this week
        q = tg.press(alice, group, board.message_id, "S|week")
        await tg.wait_for(lambda _: q.answered)
        await tg.wait_idle()
        assert "No scores yet" in (tg.message(group, board.message_id).text or "")


async def test_language_by_user_and_per_chat(tg: FakeTelegramServer, tmp_path: Path) -> None:
    li = tg.add_user("李雷", language_code="zh-hans", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[li, bob])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, li, group, "changsha")  # a Chinese speaker opens: Chinese lobby
        assert "座位" in (lobby.text or "")
        lobby = await lobby_message(tg, group, tid, "j")
        tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_for(lambda _: bob.id in svc.tables[tid].seats)
        await tg.wait_idle()
        assert "你已加入" in (tg.bot_messages(li)[-1].text or "")  # each player in his own language
        assert "You joined" in (tg.bot_messages(bob)[-1].text or "")

        tg.send_text(li, group, "/lang en")  # the group switches to English (its host may: /lang)
        await tg.wait_for(lambda _: "Seats:" in (tg.message(group, lobby.message_id).text or ""))
        assert svc.people.chat_langs.get(group.id) == "en"
        q = tg.press(li, group, lobby.message_id, f"L|{tid}|s")
        await tg.wait_for(lambda _: q.answered)
        await tg.wait_for(lambda _: f"L|{tid}|b" in tg.message(group, lobby.message_id).callback_data)
        await choose_setting(tg, li, lobby, svc, "lang", "zh")  # the settings' language button
        await tg.wait_for(lambda _: "座位" in (tg.message(group, lobby.message_id).text or ""))
        assert svc.people.chat_langs.get(group.id) == "zh"

        tg.send_text(bob, None, "/lang zh")  # in private: Bob's own panels
        await tg.wait_for(lambda _: svc.dm_lang(bob.id) == "zh")
        tg.press(li, group, lobby.message_id, f"L|{tid}|b", check=False)
        lobby = await lobby_message(tg, group, tid)
        tg.press(li, group, lobby.message_id, f"L|{tid}|go")
        await tg.wait_for(lambda _: any("的手牌" in (m.text or "") for m in tg.bot_messages(bob)))
    # the choice survives a restart
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        assert svc.dm_lang(bob.id) == "zh" and svc.people.chat_langs.get(group.id) == "zh"
        assert svc.dm_lang(li.id) == "zh"
