"""storage/aiosqlite_private.py: the internals of aiosqlite the store relies on, exercised on the installed
version, so that an upgrade that changes them fails here (and pyproject.toml's bound holds aiosqlite below
its next minor version meanwhile)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from storage import aiosqlite_private
from storage.aiosqlite_private import Incompatible, run_on_thread


def test_the_installed_version_has_what_the_store_uses() -> None:
    aiosqlite_private.check()


def test_check_fails_when_an_internal_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_queued(self: aiosqlite.Connection, fn: Any, *args: Any) -> Any: ...

    monkeypatch.setattr(aiosqlite.Connection, "_execute", not_queued)
    with pytest.raises(Incompatible, match="_execute"):
        aiosqlite_private.check()
    monkeypatch.undo()
    monkeypatch.setattr(aiosqlite.Connection, "_conn", None)
    with pytest.raises(Incompatible, match="_conn"):
        aiosqlite_private.check()


async def test_work_runs_on_the_connection_thread_with_its_connection(tmp_path: Path) -> None:
    db = await aiosqlite.connect(tmp_path / "t.db", isolation_level=None)

    def work(conn: sqlite3.Connection) -> int:
        conn.execute("INSERT INTO t VALUES (1)")
        return threading.get_ident()

    try:
        await db.execute("CREATE TABLE t (x INTEGER)")
        assert await run_on_thread(db, work) != threading.get_ident()
        assert list(await db.execute_fetchall("SELECT x FROM t")) == [(1,)]  # the same connection
    finally:
        await db.close()
    with pytest.raises(ValueError):  # aiosqlite's signal that the connection is closed (the store maps it)
        await run_on_thread(db, work)
