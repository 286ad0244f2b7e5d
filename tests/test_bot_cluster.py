"""Two bot workers in one process, on one PostgreSQL database, behind one webhook port
(bot/telegram/cluster.py): every table moves under a lease, a worker rebuilds a table the other moved, and the
players see one consistent game. Quick to debug (one process); ``make soak`` runs it."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest

from bot.telegram.app import running
from bot.telegram.webhook import WebhookConfig
from bot.text.texts import t
from storage import Storage

from .bot_support import Clock, Player, hand_over, lobby_message, make_app, open_table, play_hand
from .fake_telegram import FakeTelegramServer
from .pgcluster import Cluster as PgCluster
from .pgcluster import free_port


@pytest.mark.soak  # make test runs tests/test_cluster_e2e.py, which covers this with processes
async def test_two_workers_play_one_hand_together(tg: FakeTelegramServer, pg_cluster: PgCluster) -> None:
    url = await pg_cluster.database()
    port = free_port()
    hook = WebhookConfig(f"http://127.0.0.1:{port}/hook", "secret", "127.0.0.1", port)
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    apps = [make_app(tg, url, clock) for _ in range(2)]  # type: ignore[arg-type]
    async with AsyncExitStack() as stack:
        for app in apps:
            await stack.enter_async_context(running(app, webhook=hook))
        tid, _ = await open_table(tg, alice, group, "changsha")
        lobby = await lobby_message(tg, group, tid)
        tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_idle()
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        assert await play_hand([Player(tg, alice, tid), Player(tg, bob, tid)], done) > 0
        await tg.wait_idle()
        workers = [app.bot_data["cluster"] for app in apps]
        handled = [(w.seen, w.forwarded, w.rebuilt) for w in workers]
        assert all(seen > 0 for seen, _, _ in handled), handled  # the updates were spread over both
        # and the buttons of a table the other held were forwarded to it (or the table handed over)
        assert sum(fwd + rebuilt for _, fwd, rebuilt in handled) > 0, handled
    posts = {uid for uid, status in tg.webhook_posts if status == 200}
    assert posts == {u["update_id"] for u in tg.updates}
    async with await Storage.open(url) as storage:
        [hand] = await storage.table_hands(tid)
        assert hand.finished and hand.result is not None
    results = [m for m in tg.bot_messages(group) if "🏁" in (m.text or "")]
    assert len(results) == 1, handled  # the result is shown once
