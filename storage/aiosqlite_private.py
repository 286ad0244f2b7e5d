"""The one place the store relies on aiosqlite's internals (pyproject.toml bounds aiosqlite below the next
minor version for it; tests/test_storage_private.py fails on a version that changes them).

aiosqlite runs each statement on its thread, one trip per statement. The store runs a whole transaction in
one trip (``storage/sqlite.py``): it queues a function on that same thread with the connection's private
``Connection._execute(fn, *args)`` and hands it the raw ``sqlite3.Connection`` (``Connection._conn``, which
raises ``ValueError`` once the connection is closed). Going through aiosqlite's own queue keeps the order of
everything else queued on the connection (first in, first out).
"""

from __future__ import annotations

import inspect
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")


class Incompatible(RuntimeError):
    """The installed aiosqlite no longer has the internals this module uses."""


def check() -> None:
    """Raise ``Incompatible`` unless aiosqlite's ``Connection`` has ``async _execute(fn, *args, **kwargs)``
    and a ``_conn`` property."""
    execute = getattr(aiosqlite.Connection, "_execute", None)
    if execute is None or not inspect.iscoroutinefunction(execute):
        raise Incompatible("aiosqlite.Connection._execute is gone or no longer a coroutine function")
    params = list(inspect.signature(execute).parameters.values())
    if not (
        len(params) >= 3
        and params[1].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        and params[2].kind is inspect.Parameter.VAR_POSITIONAL
    ):
        found = inspect.signature(execute)
        raise Incompatible(f"aiosqlite.Connection._execute{found} is not (self, fn, *args, **kwargs)")
    if not isinstance(inspect.getattr_static(aiosqlite.Connection, "_conn", None), property):
        raise Incompatible("aiosqlite.Connection._conn is no longer a property")


async def run_on_thread(db: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(raw connection)`` on the connection's thread, queued behind what is already there. Raises
    ``ValueError`` if the connection is closed (aiosqlite's own signal for it)."""
    execute: Any = db._execute
    return await execute(work, db._conn)  # type: ignore[no-any-return]


check()
