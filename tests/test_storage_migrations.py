"""Schema migrations by PRAGMA user_version: from an empty file and from every earlier version, with data."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

import engine
from storage import IncompatibleDatabase, OpenError, Player, Storage, result_to_json, schema
from storage.postgres import _PgConn
from storage.postgres import migrate as pg_migrate
from storage.stats import score_rows
from storage.store import is_postgres_url

CHANGSHA = engine.get_variant("changsha")
FINISHED_SEED, OPEN_SEED, OPEN_UPTO = 20, 31, 25


def moves(seed: int) -> list[tuple[engine.Action, engine.State]]:
    state = engine.new_hand(CHANGSHA, seed)
    rng = random.Random(seed)
    out = []
    while state.phase != engine.Phase.ENDED:
        seat = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, action)
        out.append((action, state))
    return out


def dump_schema(path: Path) -> list[tuple[str, str, str, str]]:
    c = sqlite3.connect(path)
    try:
        return c.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
    finally:
        c.close()


def pragma(path: Path, name: str) -> int:
    c = sqlite3.connect(path)
    try:
        return int(c.execute(f"PRAGMA {name}").fetchone()[0])
    finally:
        c.close()


async def old_database(path: Path | str, version: int) -> None:
    """A database at schema ``version`` (an SQLite file, or a ``postgresql://`` database), holding what a bot
    of that version would have written: a finished hand with its result and a hand in progress with part of
    its log."""
    if is_postgres_url(path):
        conn = await asyncpg.connect(str(path))
        try:
            assert await pg_migrate(conn, version) == version
            if version:
                async with conn.transaction():
                    await old_rows(_PgConn(conn), version)
        finally:
            await conn.close()
        return
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await schema.migrate(db, version) == version
        if version == 0:
            return
        await db.execute("BEGIN")
        await old_rows(db, version)
        await db.execute("COMMIT")


async def old_rows(db: Any, version: int) -> None:
    """The rows of ``old_database``, in the v1 shape (raw SQL on purpose: the current API cannot write an old
    schema); inside the caller's transaction."""
    opts = json.dumps(dict(CHANGSHA.make_options()))
    await db.execute(
        "INSERT INTO players (user_id, name, language, updated_at)"
        " VALUES (1, 'Ann', ?, 0), (2, 'Bo', NULL, 0)",
        ("en-US" if version < 4 else "en",),  # before v4 any language code went in
    )
    await db.execute(
        "INSERT INTO tables VALUES (1, 500, 'changsha', ?, '[1, 2, 3, null]', 'open', 0)", (opts,)
    )
    if version >= 4:
        await db.execute("INSERT INTO table_settings (table_id, host) VALUES (1, 1)")
        await db.execute("INSERT INTO table_seats (table_id, seat) VALUES (1, 0), (1, 1), (1, 2), (1, 3)")
    done, ongoing = moves(FINISHED_SEED), moves(OPEN_SEED)[:OPEN_UPTO]
    final = done[-1][1]
    for hand_id, seed, state, log, ended in (
        (1, FINISHED_SEED, final, done, True),
        (2, OPEN_SEED, ongoing[-1][1], ongoing, False),
    ):
        await db.execute(
            "INSERT INTO hands (id, table_id, number, seed, dealer, dealer_drawn, seats, options,"
            " started_at) VALUES (?, 1, ?, ?, ?, 1, '[1, 2, 3, null]', ?, 100)",
            (hand_id, hand_id, seed, state.dealer, opts),
        )
        await db.executemany(
            "INSERT INTO actions VALUES (?, ?, ?, ?, ?, 100)",
            [(hand_id, s.version, a.seat, str(a), s.version) for a, s in log],
        )
        if ended:
            await db.execute(
                "UPDATE hands SET result = ?, ended_at = 200 WHERE id = ?",
                (json.dumps(result_to_json(state)), hand_id),
            )
            if version >= 2:  # a v2 bot wrote score rows as it finished the hand
                if isinstance(db, _PgConn):
                    await score_rows(db, hand_id)
                else:
                    await db.execute(schema.SCORE_ROWS_FOR_HAND, (hand_id,))


def test_migration_steps_are_listed_in_order() -> None:
    assert schema.LATEST == len(schema.MIGRATIONS) >= 2
    assert all(step and all(isinstance(sql, str) for sql in step) for step in schema.MIGRATIONS)


async def test_missing_and_empty_files_get_the_current_schema(tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()
    for name in ("new.db", "empty.db"):
        async with await Storage.open(tmp_path / name):
            pass
        assert pragma(tmp_path / name, "user_version") == schema.LATEST
        assert pragma(tmp_path / name, "application_id") == schema.APPLICATION_ID
    assert dump_schema(tmp_path / "new.db") == dump_schema(tmp_path / "empty.db")


@pytest.mark.parametrize("version", range(schema.LATEST + 1))
async def test_upgrade_from_every_version_keeps_the_data(tmp_path: Path, version: int) -> None:
    fresh, old = tmp_path / "fresh.db", tmp_path / "old.db"
    async with await Storage.open(fresh):
        pass
    await old_database(old, version)
    assert pragma(old, "user_version") == version

    async with await Storage.open(old) as s:
        assert pragma(old, "user_version") == schema.LATEST
        assert dump_schema(old) == dump_schema(fresh)
        await assert_upgraded(s, version)


async def assert_upgraded(s: Storage, version: int) -> None:
    """What ``old_database(version)`` holds, as the current code sees it once the database is upgraded."""
    if version == 0:
        assert await s.open_tables() == []
        return
    # the finished hand's scores exist whether written by v2+ code or backfilled by the v2 step
    board = [(x.user_id, x.name, x.points, x.hands, x.wins, x.best) for x in await s.leaderboard(500)]
    assert board == [(1, "Ann", 28, 1, 1, 28), (2, "Bo", 0, 1, 0, 0), (3, None, -28, 1, 0, 0)]
    assert [h.delta for h in await s.player_history(1)] == [28]
    assert (await s.get_player(1)) == Player(1, "Ann", "en", False)  # "en-US" read as the bot's "en"
    # every table has its bot settings and four seat rows, with the defaults (a claim pause of 3 s)
    settings = await s.table_settings(1)
    assert (settings.lang, settings.claim_s, settings.discard_s, settings.ai) == ("zh", 30, 60, ())
    assert settings.pause_s == 3
    # the hand in progress replays to the same state as in memory, and takes the next action
    (r,) = await s.restore()
    expected = moves(OPEN_SEED)[OPEN_UPTO - 1][1]
    assert r.hand is not None and r.hand.id == 2 and r.state == expected
    nxt_action, nxt_state = moves(OPEN_SEED)[OPEN_UPTO]
    assert await s.log_action(2, str(nxt_action), nxt_state.version) == OPEN_UPTO + 1
    rec = await s.hand_replay(1)
    assert rec.state() == moves(FINISHED_SEED)[-1][1]


async def test_reopening_at_the_current_version_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await old_database(path, schema.LATEST)
    before = dump_schema(path)
    for _ in range(2):
        async with await Storage.open(path) as s:
            assert len(await s.leaderboard(500)) == 3
    assert dump_schema(path) == before and pragma(path, "user_version") == schema.LATEST


async def test_a_failing_step_leaves_the_previous_version_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.db"
    await old_database(path, schema.LATEST)
    broken = (*schema.MIGRATIONS, ("CREATE TABLE half_done (x INTEGER)", "SELECT no_such_function()"))
    monkeypatch.setattr(schema, "MIGRATIONS", broken)
    monkeypatch.setattr(schema, "LATEST", len(broken))
    with pytest.raises(OpenError, match="no_such_function"):
        await Storage.open(path)
    monkeypatch.undo()
    assert pragma(path, "user_version") == schema.LATEST
    assert "half_done" not in [name for _, name, _, _ in dump_schema(path)]
    async with await Storage.open(path) as s:
        assert len(await s.leaderboard(500)) == 3


async def test_a_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await old_database(path, schema.LATEST)
    c = sqlite3.connect(path)
    c.execute(f"PRAGMA user_version = {schema.LATEST + 1}")
    c.close()
    before = path.read_bytes()
    with pytest.raises(IncompatibleDatabase, match="newer"):
        await Storage.open(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("app_id", [0, 12345])
async def test_another_applications_database_is_refused_untouched(tmp_path: Path, app_id: int) -> None:
    path = tmp_path / "other.db"
    c = sqlite3.connect(path)
    c.execute(f"PRAGMA application_id = {app_id}")
    c.execute("CREATE TABLE notes (body TEXT)")
    c.commit()
    c.close()
    before = path.read_bytes()
    with pytest.raises(IncompatibleDatabase):
        await Storage.open(path)
    assert path.read_bytes() == before
