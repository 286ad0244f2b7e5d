"""Flood limits and server errors: 429 RetryAfter and 5xx answers from the Bot API are recovered, and the
hand is played to the end as if nothing happened."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.text.texts import t

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

retry_after_shim = pytest.mark.filterwarnings(
    "ignore:.*retry_after.*:telegram.warnings.PTBDeprecationWarning"
)


@retry_after_shim
@pytest.mark.parametrize("limiter", ["aiorate", "none"])
async def test_429_and_5xx_are_recovered(tg: FakeTelegramServer, tmp_path: Path, limiter: str) -> None:
    kwargs = {} if limiter == "aiorate" else {"rate_limiter": None}  # the outbox retries on its own too
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock(), **kwargs) as app:
        svc = service(app)
        tg.fail_next("sendMessage", times=2, retry_after=0.05)  # the lobby itself is flood-limited
        tid, _ = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        lobby = await lobby_message(tg, group, tid)
        tg.fail_next("editMessageText", times=1, retry_after=0.05)
        tg.fail_next("sendMessage", times=1, status=502)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        player = Player(tg, alice, tid)
        decision = await player.wait_decision(lambda: False)
        assert decision is not None
        message, data = decision
        tg.fail_next("answerCallbackQuery", times=1, status=500)
        tg.fail_next("editMessageText", times=2, status=503)
        query = player.press(message, data[0])
        await tg.wait_for(lambda _: query.answered, what="the answer, after a 500")
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        await play_hand([player], done)
        await tg.wait_idle()
    statuses = {c.status for c in tg.calls if c.injected_fault}
    assert statuses == {429, 500, 502, 503}
    assert not tg.faults  # every injected fault was met
    assert [c.status for c in tg.calls_to("answerCallbackQuery", callback_query_id=query.id)] == [500, 200]
    # nothing was lost: the lobby, the table message and the result are all there
    texts = [m.text or "" for m in tg.bot_messages(group)]
    assert any("🏁" in x for x in texts) and any("table #" in x for x in texts)
