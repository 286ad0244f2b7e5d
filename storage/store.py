"""``Storage``: the one object that talks to the database. Everything is async.

``Storage`` is a facade put together from one module per concern, each holding the SQL of its methods:

* ``players.py``  players and chats: names, languages, display modes, a group become a supergroup
* ``tables.py``   tables, their settings and panels, the rooms a group remembers
* ``hands.py``    hands: dealing, the action log, seats' play state, finishing, restoring after a restart
* ``posts.py``    the outbox: one-off messages written with what causes them, deleted once sent
* ``answers.py``  the answers of button presses applied, by update id (a press delivered twice)
* ``stats.py``    score rows, leaderboards, per-seat figures, ratings
* ``runner.py``   how that SQL runs (``_single``, ``_read``, ``_write``, ``_write_each``), carried out by
  ``sqlite.py`` (aiosqlite's thread: the default) or ``postgres.py`` (an asyncpg pool: ``PgStorage``, a
  subclass of ``Storage`` with the same methods)

The SQL is written once for both databases (SQLite's ``?`` placeholders; the few phrases they spell
differently are ``Runner``'s ``_SCORED``, ``_PENDING`` and ``_SEATED``).
"""

from __future__ import annotations

import os
import time

from .answers import Answers
from .hands import (
    ActionLog,
    ArchivedHand,
    Hands,
    clean_code,
    new_code,
    replay_actions,
    replay_from,
    replay_with_facts,
)
from .players import Players
from .posts import Posts
from .runner import Clock
from .sqlite import SqliteRunner, open_sqlite
from .stats import Stats, period_bounds
from .tables import Tables

__all__ = [
    "POSTGRES_SCHEMES",
    "ActionLog",
    "ArchivedHand",
    "Clock",
    "Storage",
    "clean_code",
    "is_postgres_url",
    "new_code",
    "period_bounds",
    "replay_actions",
    "replay_from",
    "replay_with_facts",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(path: object) -> bool:
    """Whether ``MAHJONG_DB`` names a PostgreSQL server (``postgresql://...``) rather than an SQLite file."""
    return isinstance(path, str) and path.startswith(POSTGRES_SCHEMES)


class Storage(Players, Tables, Hands, Posts, Answers, Stats, SqliteRunner):
    """The bot's persistence: tables, players, hands, the action log and scores, in one SQLite file (or on a
    PostgreSQL server: ``PgStorage``).

    Open with ``await Storage.open(path)``; use as ``async with`` or call ``close()``.
    """

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "NORMAL",
        busy_timeout: float = 5.0,
        check: bool = True,
        clock: Clock = time.time,
    ) -> Storage:
        """Open (creating if needed) and migrate the database at ``path``.

        ``path`` may also be a ``postgresql://`` URL: the same storage on a PostgreSQL server
        (``storage/postgres.py``; the SQLite options do not apply there).

        Fails early and clearly (``OpenError`` subclasses) rather than half-way through a game: corrupt or
        foreign files, newer schemas and read-only files are refused before anything is written.
        ``synchronous``: NORMAL (WAL: a committed action survives a process crash; an OS crash may lose the
        last few) or FULL (fsync at every commit). ``check`` runs ``PRAGMA quick_check`` on existing files.
        ``clock`` gives the times stored with each row (UTC seconds); tests pass a fake one.
        """
        if is_postgres_url(path):
            from .postgres import PgStorage

            return await PgStorage.connect(str(path), clock=clock)
        db, p = await open_sqlite(path, synchronous=synchronous, busy_timeout=busy_timeout, check=check)
        return cls(db, p, clock)

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
