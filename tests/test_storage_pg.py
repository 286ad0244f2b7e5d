"""The PostgreSQL schema (storage/pg_schema.py): the same versions as SQLite's, from an empty database and
from every earlier version with data, a failing step, a newer or foreign database, and several processes
opening one database at once. The rest of the storage suite runs on both backends (the ``database``
fixture in tests/conftest.py)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from storage import IncompatibleDatabase, OpenError, Storage, pg_schema, schema
from storage.cluster import ClusterStore
from storage.postgres import TIMEOUTS, redact, schema_version, to_dollar

from .pgcluster import Cluster
from .storage_helpers import assert_upgraded, old_database


async def dump_schema(url: str) -> list[tuple[object, ...]]:
    """Columns (with types, defaults, nullability), indexes, constraints and triggers, in a stable order."""
    conn = await asyncpg.connect(url)
    try:
        cols = await conn.fetch(
            "SELECT table_name, column_name, data_type, column_default, is_nullable FROM "
            "information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name"
        )
        idx = await conn.fetch(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1"
        )
        cons = await conn.fetch(
            "SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2"
        )
        trg = await conn.fetch(
            "SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) FROM pg_trigger "
            "WHERE NOT tgisinternal ORDER BY 1, 2"
        )
        return [tuple(r) for r in [*cols, *idx, *cons, *trg]]
    finally:
        await conn.close()


async def version_of(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await schema_version(conn)
    finally:
        await conn.close()


def test_every_sqlite_step_has_its_postgresql_form() -> None:
    """A step is listed once per version; where PostgreSQL needs its own text it is under the same number,
    and a step without one (portable SQL) runs as written for SQLite."""
    steps = pg_schema.steps()
    assert len(steps) == schema.LATEST
    assert set(pg_schema.OWN_STEPS) <= set(range(1, schema.LATEST + 1))
    for version, step in enumerate(steps, 1):
        assert step is pg_schema.OWN_STEPS.get(version, schema.MIGRATIONS[version - 1])


def test_a_password_never_reaches_a_message() -> None:
    assert redact("postgresql://bot:s3cret@db.example:5433/mj") == "postgresql://bot:***@db.example:5433/mj"


def test_placeholders_become_numbered_outside_quotes() -> None:
    assert to_dollar("SELECT ?, '?', \"a?\" FROM t WHERE x = ? -- why?\nAND y = ?") == (
        "SELECT $1, '?', \"a?\" FROM t WHERE x = $2 -- why?\nAND y = $3"
    )


_FRESH: dict[int, list[tuple[object, ...]]] = {}  # the schema of a new database, per server (one per session)


async def fresh_schema(pg: Cluster) -> list[tuple[object, ...]]:
    if id(pg) not in _FRESH:
        url = await pg.database()
        async with await Storage.open(url):
            pass
        _FRESH[id(pg)] = await dump_schema(url)
    return _FRESH[id(pg)]


@pytest.mark.parametrize("version", range(schema.LATEST + 1))
async def test_upgrade_from_every_version_keeps_the_data(pg_cluster: Cluster, version: int) -> None:
    old = await pg_cluster.database()
    await old_database(old, version)
    assert await version_of(old) == version
    async with await Storage.open(old) as s:
        assert await version_of(old) == schema.LATEST
        assert await dump_schema(old) == await fresh_schema(pg_cluster)
        await assert_upgraded(s, version)


async def test_a_failing_step_leaves_the_previous_version_whole(
    pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await pg_cluster.database()
    await old_database(url, schema.LATEST)
    before = await dump_schema(url)
    broken = (*schema.MIGRATIONS, ("CREATE TABLE half_done (x INTEGER)", "SELECT no_such_function()"))
    monkeypatch.setattr(schema, "MIGRATIONS", broken)
    monkeypatch.setattr(schema, "LATEST", len(broken))
    with pytest.raises(OpenError, match="no_such_function"):
        await Storage.open(url)
    monkeypatch.undo()
    assert await version_of(url) == schema.LATEST and await dump_schema(url) == before
    async with await Storage.open(url) as s:
        assert len(await s.leaderboard(500)) == 3


async def test_a_newer_schema_and_a_foreign_database_are_refused_untouched(pg_cluster: Cluster) -> None:
    newer, foreign = await pg_cluster.database(), await pg_cluster.database()
    await old_database(newer, schema.LATEST)
    conn = await asyncpg.connect(newer)
    await conn.execute(f"UPDATE {pg_schema.VERSION_TABLE} SET version = {schema.LATEST + 1}")
    await conn.close()
    with pytest.raises(IncompatibleDatabase, match="newer"):
        await Storage.open(newer)
    conn = await asyncpg.connect(foreign)
    await conn.execute("CREATE TABLE notes (body TEXT)")
    await conn.close()
    with pytest.raises(IncompatibleDatabase, match="did not create"):
        await Storage.open(foreign)
    assert await dump_schema(foreign) == [("notes", "body", "text", None, "YES")]


async def test_workers_opening_one_database_at_once_migrate_it_once(pg_cluster: Cluster) -> None:
    url = await pg_cluster.database()
    stores = await asyncio.gather(*(Storage.open(url) for _ in range(4)))
    try:
        assert {await s.schema_version() for s in stores} == {schema.LATEST}  # type: ignore[attr-defined]
        t = await stores[0].create_table(1, "changsha")
        assert [x.id for x in await stores[3].open_tables()] == [t.id]
    finally:
        for s in stores:
            await s.close()


async def test_an_unreachable_server_is_a_clear_open_error(pg_cluster: Cluster) -> None:
    url = pg_cluster.url("no_such_database")
    with pytest.raises(OpenError, match="no_such_database"):
        await Storage.open(url)
    with pytest.raises(OpenError, match="cannot connect"):
        await Storage.open("postgresql://nobody:secret@127.0.0.1:1/x")


async def test_a_worker_stopped_inside_a_statement_loses_its_row_locks(pg_cluster: Cluster) -> None:
    """A worker stopped between asyncpg's prepare (Parse, Describe, Flush) and its bind holds its row locks
    in a session PostgreSQL shows ``active``, waiting for the client, where neither the idle-in-transaction
    timeout nor the statement timeout reaches it: another worker cuts it off (``cut_stalled``). A worker
    idle in a transaction, and a session of no worker, are left to the server's own timeouts."""
    url = await pg_cluster.database()
    async with await Storage.open(url):
        pass  # the schema
    pool = await asyncpg.create_pool(url, min_size=0, max_size=2)
    live, stopped, idle = (ClusterStore(pool, w) for w in ("w-live", "w-stopped", "w-idle"))
    for store in (live, stopped, idle):
        await store.heartbeat(1000.0, 5.0)
    conns = {
        name: await asyncpg.connect(url, server_settings={"application_name": name, **TIMEOUTS})
        for name in ("w-stopped", "w-idle", "psql")
    }
    try:
        for name, conn in conns.items():
            await conn.execute("BEGIN")
            await conn.execute("SELECT 1 FROM workers WHERE worker = $1 FOR UPDATE", name)
        await conns["w-stopped"].prepare("SELECT count(*) FROM workers")  # Parse, Describe, Flush: no bind
        await conns["psql"].prepare("SELECT count(*) FROM workers")
        states = dict(
            await conns["w-idle"].fetch(
                "SELECT application_name, state || '/' || coalesce(wait_event, '') FROM pg_stat_activity"
                " WHERE application_name IN ('w-stopped', 'psql')"
            )
        )
        assert states == {"w-stopped": "active/ClientRead", "psql": "active/ClientRead"}

        assert await live.cut_stalled(0.0) == ["w-stopped"]

        conn = await asyncpg.connect(url, server_settings={"lock_timeout": "5000"})
        try:
            async with conn.transaction():
                await conn.execute("SELECT 1 FROM workers WHERE worker = 'w-stopped' FOR UPDATE")
        finally:
            await conn.close()
        assert await conns["w-idle"].fetchval("SELECT 1") == 1  # still in its transaction
        assert await live.cut_stalled(0.0) == []  # psql is nobody's worker
    finally:
        for conn in conns.values():
            conn.terminate()
        await pool.close()
