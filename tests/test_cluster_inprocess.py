"""Two workers of one bot in this process (PostgreSQL, one webhook port), for what the worker processes of
tests/test_cluster_e2e.py cannot show from outside: what a worker keeps in memory."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

from bot.telegram.app import running
from bot.telegram.webhook import WebhookConfig

from .bot_support import Clock, lobby_message, make_app, open_table, press
from .fake_telegram import FakeTelegramServer
from .pgcluster import Cluster as PgCluster
from .pgcluster import free_port


async def test_presses_naming_tables_that_never_were_leave_nothing_in_memory(
    tg: FakeTelegramServer, pg_cluster: PgCluster
) -> None:
    """Forged presses naming 200 table ids that never existed are answered "closed", and no worker keeps a
    lock for any of them (each kept one for good: memory any stranger could fill, ~370 bytes a press)."""
    url = await pg_cluster.database()
    port = free_port()
    hook = WebhookConfig(f"http://127.0.0.1:{port}/hook", "secret", "127.0.0.1", port)
    alice = tg.add_user("Alice", language_code="en", started=True)
    mallory = tg.add_user("Mallory", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, mallory])
    apps = [make_app(tg, url, Clock()) for _ in range(2)]  # type: ignore[arg-type]
    async with AsyncExitStack() as stack:
        for app in apps:
            await stack.enter_async_context(running(app, webhook=hook))
        tid, _ = await open_table(tg, alice, group, "changsha")
        lobby = await lobby_message(tg, group, tid)
        for i in range(200):
            assert await press(tg, mallory, lobby, f"L|{10**12 + i}|j") == "This table is closed"
        await tg.wait_idle()
        clusters: list[Any] = [app.bot_data["cluster"] for app in apps]
        assert all(set(c._locks) <= {tid} for c in clusters), [len(c._locks) for c in clusters]
