"""转转麻将 and 红中麻将 in the bot, like the other variants: found by id or Chinese name by
/newtable and /rules, a whole hand played over the fake Telegram Bot API, the 四红中 win at the deal and the
added-points bird hits rendered from the variant (bot/ names no variant)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.telegram.handlers import find_variant
from bot.text import render
from bot.text.texts import t
from engine import Act, observe

from .bot_support import (
    Clock,
    Player,
    bot_running,
    hand_over,
    lobby_message,
    open_table,
    play_hand,
    service,
)
from .dealing import act, last_settlement
from .fake_telegram import FakeTelegramServer
from .zhuanzhuan_helpers import HZ, JUNK, TWO_HITS, deal, self_draw


def test_find_variant_by_id_and_chinese_name() -> None:
    assert find_variant("hongzhong") == "hongzhong"
    assert find_variant("红中") == "hongzhong"
    assert find_variant("红中麻将") == "hongzhong"
    assert find_variant("转转") == "zhuanzhuan"
    assert find_variant("Zhuanzhuan") == "zhuanzhuan"


async def test_newtable_by_chinese_name_plays_a_whole_hand(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """`/newtable 红中` opens a 红中麻将 table; a scripted player and three AI seats play a hand to the end
    over HTTP; the group sees the result and the next lobby."""
    alice = tg.add_user("Alice", language_code="zh", started=True)
    group = tg.add_group("麻将", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "红中")
        rt = svc.tables[tid]
        assert rt.table.variant == "hongzhong"
        await tg.wait_for(lambda _: alice.id in rt.seats, what="Alice seated")
        lobby = await lobby_message(tg, group, tid)
        assert "红中麻将" in (lobby.text or "")
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        done = hand_over(tg, group, t("note.result_title", "zh", n=1))
        assert await play_hand([Player(tg, alice, tid)], done) > 0
        await tg.wait_idle()
        result = next(m for m in tg.bot_messages(group) if "🏁" in (m.text or ""))
        assert f"L|{tid}|go" in result.callback_data


async def test_newtable_by_id_and_rules_by_chinese_name(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """`/newtable hongzhong` in one group, `/newtable 转转` in another; `/rules 转转` and `/rules hongzhong`
    show the variant's options with their labels."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    one = tg.add_group("One", members=[alice])
    two = tg.add_group("Two", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, one, "hongzhong")
        assert svc.tables[tid].table.variant == "hongzhong"
        tid2, _ = await open_table(tg, alice, two, "转转")
        assert svc.tables[tid2].table.variant == "zhuanzhuan"
        await tg.wait_idle()  # the joins' private messages are sent
        for text, expected in (
            ("/rules 转转", ("转转麻将 Zhuanzhuan", "可接炮", "一码全中")),
            ("/rules hongzhong", ("红中麻将 Hongzhong", "四红中 four red dragons", "无红中")),
        ):
            mark = tg.mark()
            tg.send_text(alice, None, text)  # in private: the page itself (a group gets a summary)
            last = await tg.wait_for_call(  # the rules page itself, in parts: the last says "(part n/n)"
                "sendMessage",
                chat_id=alice.id,
                since=mark,
                predicate=lambda c: re.search(r"\(part (\d)/\1\)", c.params["text"]) is not None,
            )
            parts = [c.params["text"] for c in tg.calls_to("sendMessage", chat_id=alice.id) if c.seq >= mark]
            assert parts[-1] == last.params["text"] and "Room options" in parts[0] and "(part 1/" in parts[1]
            for word in expected:
                assert word in "".join(parts), (text, word)


def test_the_deal_win_is_asked_in_plain_words() -> None:
    """四红中 at the deal: the holder is asked to win or pass (not to declare an opening hand)."""
    state = deal([JUNK[0] + "8m", "369m369s369p7z7z7z7z", JUNK[1], JUNK[2]], HZ)
    obs = observe(state, 1)
    assert render.prompt(obs, "en") == t("prompt.deal_win", "en")
    labels = {a.act: label for a, label in render.choices(obs, "zh")}
    assert labels == {Act.WIN: "胡", Act.PASS: "过"}
    state = act(state, 1, Act.WIN)
    assert "四红中" in render.settlement_view(observe(state, 0), last_settlement(state), "zh")


def test_bird_hits_that_add_points_are_shown_without_a_multiplier() -> None:
    """159中码 hits add 2 × 底分 each: the payment line adds them (how many hit, how much), no multiplier."""
    state = self_draw(HZ, front=TWO_HITS)
    text = render.settlement_view(observe(state, 0), last_settlement(state), "en")
    assert "self-draw 2 + 2 birds hit 4 = 6 · base ×1 = 6" in text and "hit ×" not in text
