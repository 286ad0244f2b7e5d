"""The outbox (schema v9): one-off messages of a table (a hand's results, a note to the group) written in the
same transaction as what causes them, before they are sent, and deleted once sent, so that a restart sends
each exactly once (bot/telegram/outbox.py sends them).

The SQL of ``Storage``'s outbox methods (``storage/store.py`` puts the pieces together); ``outbox_rows`` and
``INSERT_POST`` serve the writes of ``storage/hands.py`` that carry posts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import InvalidInput
from .models import Post
from .runner import Db, Runner, check_int64

INSERT_POST = "INSERT INTO outbox (table_id, chat_id, text, keyboard, created_at) VALUES (?, ?, ?, ?, ?)"


def outbox_rows(
    table_id: int | None, posts: Sequence[Post], now: Callable[[], float]
) -> list[tuple[Any, ...]]:
    """``posts`` as rows for ``INSERT_POST``, checked (the clock is read only if there are any)."""
    if not posts:
        return []
    if table_id is None:
        raise InvalidInput("posts need the table they belong to")
    at = now()
    for p in posts:
        check_int64("chat_id", p.chat_id)
        if not isinstance(p.text, str) or not p.text:
            raise InvalidInput("a post needs a text")
    return [(table_id, p.chat_id, p.text, p.keyboard, at) for p in posts]


class Posts(Runner):
    """The outbox (``outbox``)."""

    async def add_posts(self, table_id: int, posts: Sequence[Post]) -> None:
        """One-off messages of a table that no other write causes (a note to the group): one transaction,
        before they are sent."""
        rows = outbox_rows(table_id, posts, self._now)
        if not rows:
            return

        async def run(db: Db) -> None:
            await db.executemany(INSERT_POST, rows)

        await self._write(run)

    async def unsent_posts(self, table_id: int | None = None) -> list[Post]:
        """The one-off messages not sent yet (of one table, or of all), in the order they were written."""
        where, params = ("WHERE table_id = ? ", (table_id,)) if table_id is not None else ("", ())

        async def run(db: Db) -> list[Post]:
            rows = await db.execute_fetchall(
                f"SELECT id, table_id, chat_id, text, keyboard FROM outbox {where}ORDER BY id", params
            )
            return [Post(int(r[2]), r[3], r[4], int(r[0]), int(r[1])) for r in rows]

        return await self._read(run)

    async def post_sent(self, post_id: int) -> None:
        """A one-off message was sent (or given up on): out of the outbox."""

        async def run(db: Db) -> None:
            await db.execute("DELETE FROM outbox WHERE id = ?", (post_id,))

        await self._single(run)
