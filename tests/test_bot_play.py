"""A whole hand of every variant, played through the Telegram front end over real HTTP: a scripted player
presses the buttons of his private panel, AI seats fill the table, the group sees the table and the result."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from bot.text.texts import t
from storage import Storage

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
from .fake_telegram import FakeTelegramServer


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
async def test_whole_hand_of_each_variant(tg: FakeTelegramServer, tmp_path: Path, variant: str) -> None:
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", clock) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, variant)
        rt = svc.tables[tid]
        assert rt.table.variant == variant
        await tg.wait_for(lambda _: alice.id in rt.seats, what="Alice seated")
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        presses = await play_hand([Player(tg, alice, tid)], done)
        assert presses > 0
        await tg.wait_idle()
        result = next(m for m in tg.bot_messages(group) if "🏁" in (m.text or ""))
        assert "Table totals" in (result.text or "")
        assert f"L|{tid}|go" in result.callback_data  # the lobby for the next hand
        panel = [m for m in tg.bot_messages(alice) if "The hand is over" in (m.text or "")]
        assert panel and not panel[-1].callback_data
    async with await Storage.open(tmp_path / "bot.db") as storage:
        [hand] = await storage.table_hands(tid)
        assert hand.finished and hand.result is not None and "deltas" in hand.result
        board = await storage.leaderboard(group.id)
        assert [s.user_id for s in board] == [alice.id]
