"""What worker processes share in PostgreSQL (storage/cluster.py): table leases (one holder at a time, freed
when a worker's connections go, the last holder named, given back when another worker asks, carrying the
group's pace), updates forwarded to a worker's channel, deadlines taken by one worker each (SKIP LOCKED),
heartbeats, the tables a dead worker leaves, and the send budget shared by the workers alive."""

from __future__ import annotations

import asyncio

import pytest
from telegram.ext import AIORateLimiter

from bot.telegram.cluster import SEND_BUDGET, Cluster, ClusterTimers, SendBudget
from bot.telegram.ptb_private import base_limiter
from storage import Storage
from storage.cluster import ClusterStore, Lease, channel_of

from .pgcluster import Cluster as PgCluster


@pytest.fixture
async def url(pg_cluster: PgCluster) -> str:
    url = await pg_cluster.clean_database()
    async with await Storage.open(url) as s:
        for chat in (1, 2, 3):
            await s.create_table(chat, "changsha")
    return url


async def test_a_lease_has_one_holder_who_gives_it_back_when_asked(url: str) -> None:
    """One holder at a time, named in the database (the last holder too); a worker that waits for the lease
    asks its holder, which gives it back with its group's pace."""
    a, b = await ClusterStore.connect(url, "worker-a"), await ClusterStore.connect(url, "worker-b")
    asked: asyncio.Queue[int] = asyncio.Queue()
    a.on_want = asked.put_nowait
    try:
        held = await a.take(1)
        assert held.moved and not held.orphaned  # nobody had it: a rebuilds it from the log
        assert await b.try_take(1) == "worker-a"  # not free: b learns who holds it (to forward to it)
        waiting = asyncio.ensure_future(b.take(1))
        assert await asyncio.wait_for(asked.get(), 5) == 1  # b asked a for it (NOTIFY), a heard it
        assert not waiting.done()  # a holds it until it gives it back
        await a.give(held, group_sent=1234.5)
        taken = await asyncio.wait_for(waiting, 5)
        assert taken.moved and not taken.orphaned  # a had it last, and a is alive
        assert taken.group_sent == 1234.5  # b keeps the group's pace from a's last send
        await b.give(taken)
        mine = await b.try_take(1)
        assert isinstance(mine, Lease) and not mine.moved  # b had it last: what b holds in memory is current
        await b.give(mine)
    finally:
        await a.close()
        await b.close()


async def test_a_worker_hears_what_is_sent_to_its_channel(url: str) -> None:
    a, b = await ClusterStore.connect(url, "worker-a"), await ClusterStore.connect(url, "worker-b")
    heard: asyncio.Queue[str] = asyncio.Queue()
    b.on_forwarded = heard.put_nowait
    try:
        assert channel_of("worker-b") == b.channel != a.channel
        await a.notify(channel_of("worker-b"), "u:an update")
        assert await asyncio.wait_for(heard.get(), 5) == "u:an update"
        assert await a.alive("worker-b") and not await a.alive("worker-gone")
    finally:
        await a.close()
        await b.close()


async def until_orphaned(store: ClusterStore, tables: set[int]) -> None:
    while await store.orphans() != tables:
        await asyncio.sleep(0.01)


async def test_a_dead_workers_lease_is_freed_and_its_tables_found(url: str) -> None:
    a, b = await ClusterStore.connect(url, "worker-a"), await ClusterStore.connect(url, "worker-b")
    try:
        await a.take(2)  # held, never given back: a dies holding it
        assert await b.orphans() == set()
        a._pool.terminate()  # its connections go, as when the process is killed
        a._conn.terminate()
        # the server ends a closed connection's backend a moment later: until then a still counts as alive
        await asyncio.wait_for(until_orphaned(b, {2}), 5)
        lease = await asyncio.wait_for(b.take(2), 5)  # the server freed the lock with the connection
        assert lease.moved and lease.orphaned
        await b.give(lease)
        assert await b.orphans() == set()
    finally:
        await b.close()


async def test_a_due_deadline_is_taken_by_one_worker(url: str) -> None:
    a, b = await ClusterStore.connect(url, "worker-a"), await ClusterStore.connect(url, "worker-b")
    try:
        for table in (1, 2, 3):
            await a.set_timer(table, 100.0 + table)
        await a.set_timer(3, 500.0)  # re-armed later: replaced
        got = await asyncio.gather(a.claim_due(200.0), b.claim_due(200.0))
        assert sorted(got[0] + got[1]) == [1, 2] and not set(got[0]) & set(got[1])
        await a.clear_timer(3)
        assert await b.claim_due(1000.0) == []
    finally:
        await a.close()
        await b.close()


async def test_a_worker_writes_its_tables_deadlines_as_they_move(url: str) -> None:
    store = await ClusterStore.connect(url, "worker-a")

    async def on_due(table_id: int) -> None:
        raise AssertionError("no deadline is run here")

    try:
        timers = ClusterTimers(on_due, lambda: 0.0, store=store)  # the deadlines are far: none fires
        timers.arm(1, 100.0)
        timers.arm(1, 200.0)  # moved on (the next decision): the database has the new deadline
        timers.arm(2, 100.0)
        await timers.flush()  # what piled up: in one statement
        timers.cancel(2)  # no deadline any more: its row goes
        await timers.flush()
        assert await store.claim_due(150.0) == []
        assert await store.claim_due(1000.0) == [1]
    finally:
        await store.close()


async def test_workers_beat_and_share_the_send_budget(url: str) -> None:
    a, b = await ClusterStore.connect(url, "worker-a"), await ClusterStore.connect(url, "worker-b")
    try:
        assert await a.heartbeat(1000.0, 6.0) == 1
        assert await b.heartbeat(1001.0, 6.0) == 2
        assert await a.heartbeat(1010.0, 6.0) == 1  # b's beat is too old: gone
        await b.leave()
    finally:
        await a.close()
        await b.close()
    limiter = AIORateLimiter()
    worker = Cluster(None, None, lambda: 0.0)  # type: ignore[arg-type]
    worker.limiter, worker.workers = limiter, 3
    worker._share_budget()
    base = base_limiter(limiter)
    assert base is not None and base.max_rate == SEND_BUDGET / 3
    worker.budget = SendBudget(None)  # type: ignore[arg-type]
    worker._share_budget()  # the database counts every worker's requests: the limiter may use it all
    assert base.max_rate == SEND_BUDGET


async def test_the_workers_never_exceed_the_send_budget_together(url: str) -> None:
    """Two workers send as fast as they can, together more than the budget of 6 requests a second allows:
    the database counts every request of both, and no second holds more than 6."""
    limit, each = 6, 4
    stores = [await ClusterStore.connect(url, f"worker-{c}") for c in "ab"]
    try:
        budgets = [SendBudget(s, limit=limit, batch=3) for s in stores]

        async def send(budget: SendBudget) -> None:
            for _ in range(each):
                await budget.take()

        await asyncio.gather(*(send(b) for b in budgets))
        rows = await stores[0]._pool.fetch("SELECT second, used FROM send_budget ORDER BY second")
        assert all(r["used"] <= limit for r in rows), rows
        assert sum(r["used"] for r in rows) >= 2 * each  # every request was counted (reserved ones too)
    finally:
        for s in stores:
            await s.close()
