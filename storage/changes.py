"""Table changes told to every worker of a bot (PostgreSQL ``LISTEN``/``NOTIFY``), for the Mini App's streams.

A worker that has committed a change to a table and shown it NOTIFYs the bot's channel with the table id;
every other worker hears it and, if it holds streams of that table, reads the table again from the database
and pushes (bot/miniapp/relay.py). A notification is only a hint that something changed: the receiving worker
reads what the database says, so a notification lost or doubled costs a frame, never a wrong one. One
connection per worker, of its own (the game's pool is never held by a listener). SQLite has one process and
needs none of this.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from .errors import StorageError

log = logging.getLogger(__name__)


def channel_for(bot: str) -> str:
    """The bot's channel (a valid identifier): every worker of one bot, and only those, share it."""
    return "mjt_" + hashlib.sha1(bot.encode()).hexdigest()[:24]


class TableChanges:
    def __init__(self, conn: Any, channel: str) -> None:
        self._conn = conn
        self.channel = channel
        self.pid: int = conn.get_server_pid()
        self.on_change: Callable[[int], None] | None = None

    @classmethod
    async def connect(cls, dsn: str, channel: str) -> TableChanges:
        try:
            conn = await asyncpg.connect(dsn)
        except (asyncpg.PostgresError, OSError) as e:
            raise StorageError(f"cannot connect for table changes: {e}") from None
        changes = cls(conn, channel)
        await conn.add_listener(channel, changes._heard)
        return changes

    def _heard(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        if pid == self.pid or not payload.isascii() or not payload.isdigit() or len(payload) > 15:
            return  # this worker's own, or not a table id
        if self.on_change is not None:
            self.on_change(int(payload))

    async def notify(self, table_id: int) -> None:
        """Tell the other workers that table ``table_id`` changed (after the change was committed)."""
        try:
            await self._conn.execute("SELECT pg_notify($1, $2)", self.channel, str(table_id))
        except (asyncpg.PostgresError, OSError, asyncpg.InterfaceError) as e:
            log.warning("table %s: change not told to the other workers: %s", table_id, type(e).__name__)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._conn.close(timeout=5)
