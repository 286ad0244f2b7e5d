"""Two workers of one bot in this process (PostgreSQL, one webhook port), for what the worker processes of
tests/test_cluster_e2e.py cannot show from outside: what a worker keeps in memory."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import asyncpg

from bot.telegram.app import running

from .bot_support import (
    Clock,
    lobby_message,
    loopback_webhook,
    make_app,
    open_table,
    press,
    seated_and_dealt,
    service,
    until_hands,
)
from .fake_telegram import FakeTelegramServer
from .pgcluster import Cluster as PgCluster


async def test_presses_naming_tables_that_never_were_leave_nothing_in_memory(
    tg: FakeTelegramServer, pg_cluster: PgCluster
) -> None:
    """Forged presses naming 200 table ids that never existed are answered "closed", and no worker keeps a
    lock for any of them (each kept one for good: memory any stranger could fill, ~370 bytes a press)."""
    url = await pg_cluster.database()
    hook = loopback_webhook()
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


async def test_a_worker_taking_a_table_over_makes_good_a_kill_between_a_hand_and_its_ready_phase(
    tg: FakeTelegramServer, pg_cluster: PgCluster
) -> None:
    """As a restart does (tests/test_bot_restart.py), a worker that takes over a dead worker's table whose
    hand ended without its ready phase (the kill came in between: its result never reached the group)
    starts that ready phase, so that Ready works again (``Night.resume`` from bot/telegram/cluster.py)."""
    url = await pg_cluster.database()
    hook = loopback_webhook()
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with AsyncExitStack() as stack:
        app = make_app(tg, url, clock)  # type: ignore[arg-type]
        await stack.enter_async_context(running(app, webhook=hook))
        svc = service(app)
        tid = await seated_and_dealt(tg, app, group, alice, (bob,))
        await until_hands(app, svc, clock, tid, tg, 1)
        await svc.storage.update_settings(tid, ready_until=None, ready=())  # as the kill left it …
    conn = await asyncpg.connect(url)
    try:  # … its result not yet shown in the group
        await conn.execute("UPDATE hands SET result_delivered = 0 WHERE table_id = $1", tid)
    finally:
        await conn.close()
    async with AsyncExitStack() as stack:
        app = make_app(tg, url, clock)  # type: ignore[arg-type]
        await stack.enter_async_context(running(app, webhook=hook))
        svc = service(app)
        lobby = await lobby_message(tg, group, tid, "y")
        assert await press(tg, bob, lobby, f"L|{tid}|y") == "You're ready"
        rt = svc.registry.by_id[tid]
        assert rt.settings.ready_until is not None
