"""What worker processes share in PostgreSQL (storage/cluster.py): table leases (one holder at a time, freed
when a worker's connections go, the last holder named), deadlines taken by one worker each (SKIP LOCKED),
heartbeats, the tables a dead worker leaves, and the send budget split among the workers alive."""

from __future__ import annotations

import asyncio

import pytest
from telegram.ext import AIORateLimiter

from bot.cluster import SEND_BUDGET, Cluster
from storage import Storage
from storage.cluster import ClusterStore

from .pgcluster import Cluster as PgCluster


@pytest.fixture
async def url(pg_cluster: PgCluster) -> str:
    url = await pg_cluster.clean_database()
    async with await Storage.open(url) as s:
        for chat in (1, 2, 3):
            await s.create_table(chat, "changsha")
    return url


async def test_a_lease_has_one_holder_and_names_the_last(url: str) -> None:
    a, b = await ClusterStore.connect(url, "worker-a"), await ClusterStore.connect(url, "worker-b")
    try:
        first = await a.take(1)
        assert first.moved and not first.orphaned  # nobody had it: a rebuilds it from the log
        waiting = asyncio.ensure_future(b.take(1))
        await asyncio.sleep(0.05)
        assert not waiting.done()  # one holder at a time
        await a.give(first)
        second = await asyncio.wait_for(waiting, 5)
        assert second.moved and not second.orphaned  # a had it last, and a is alive
        await b.give(second)
        again = await b.take(1)
        assert not again.moved  # b had it last: what b holds in memory is current
        await b.give(again)
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
    assert limiter._base_limiter is not None and limiter._base_limiter.max_rate == SEND_BUDGET / 3
