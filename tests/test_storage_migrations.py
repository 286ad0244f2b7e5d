"""Schema migrations by PRAGMA user_version: from an empty file and from every earlier version, with data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import engine
from storage import IncompatibleDatabase, OpenError, Storage, schema

from .storage_helpers import assert_upgraded, old_database

CHANGSHA = engine.get_variant("changsha")


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
