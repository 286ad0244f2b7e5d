"""Players and chats: names, languages and display modes, and a group that became a supergroup.

The SQL of ``Storage``'s player and chat methods (``storage/store.py`` puts the pieces together).
"""

from __future__ import annotations

from .errors import InvalidInput
from .models import DISPLAYS, LANGUAGES, Player
from .runner import Db, Runner, check_int64


def check_language(language: str | None) -> str | None:
    if language is not None and language not in LANGUAGES:
        raise InvalidInput(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    return language


class Players(Runner):
    """Players (``players``) and chats (``chat_settings``)."""

    async def upsert_player(self, user_id: int, name: str, language: str | None = None) -> Player:
        """Record or refresh a player's display name, and his client's language ("zh"/"en"; None keeps the
        old one). A language he chose with ``set_player_language`` is kept over his client's."""
        check_int64("user_id", user_id)
        check_language(language)
        now = self._now()

        async def run(db: Db) -> Player:
            rows = await db.execute_fetchall(
                """
                INSERT INTO players (user_id, name, language, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET
                    name = excluded.name,
                    language = CASE WHEN players.language_chosen = 1 THEN players.language
                                    ELSE COALESCE(excluded.language, players.language) END,
                    updated_at = excluded.updated_at
                RETURNING user_id, name, language, language_chosen
                """,
                (user_id, name, language, now),
            )
            r = list(rows)[0]
            return Player(r[0], r[1], r[2], bool(r[3]))

        return await self._single(run)

    async def set_player_language(self, user_id: int, language: str) -> Player:
        """The language a player chose (/lang in private): kept whatever his client says later."""
        check_int64("user_id", user_id)
        check_language(language)
        now = self._now()

        async def run(db: Db) -> Player:
            rows = await db.execute_fetchall(
                """
                INSERT INTO players (user_id, name, language, language_chosen, updated_at)
                VALUES (?, '', ?, 1, ?)
                ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, language_chosen = 1
                RETURNING user_id, name, language, language_chosen
                """,
                (user_id, language, now),
            )
            r = list(rows)[0]
            return Player(r[0], r[1], r[2], bool(r[3]))

        return await self._single(run)

    async def get_player(self, user_id: int) -> Player | None:
        async def run(db: Db) -> Player | None:
            rows = list(
                await db.execute_fetchall(
                    "SELECT user_id, name, language, language_chosen FROM players WHERE user_id = ?",
                    (user_id,),
                )
            )
            if not rows:
                return None
            r = rows[0]
            return Player(r[0], r[1], r[2], bool(r[3]))

        return await self._single(run)

    # ------------------------------------------------------------------ chats

    async def chat_languages(self) -> dict[int, str]:
        """Every group's chosen language (a few bytes per group: loaded once at start)."""

        async def run(db: Db) -> dict[int, str]:
            rows = await db.execute_fetchall(
                "SELECT chat_id, language FROM chat_settings WHERE language IS NOT NULL"
            )
            return {int(r[0]): str(r[1]) for r in rows}

        return await self._single(run)

    async def set_chat_language(
        self, chat_id: int, language: str | None, table_id: int | None = None
    ) -> None:
        """A group's language (/lang there); with ``table_id``, that table's messages change with it in the
        same transaction."""
        check_int64("chat_id", chat_id)
        check_language(language)

        async def run(db: Db) -> None:
            await db.execute(
                "INSERT INTO chat_settings (chat_id, language) VALUES (?, ?) "
                "ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language",
                (chat_id, language),
            )
            if table_id is not None and language is not None:
                await db.execute(
                    "UPDATE table_settings SET lang = ? WHERE table_id = ?", (language, table_id)
                )

        await self._write(run)

    async def chat_displays(self) -> dict[int, str]:
        """Every chat's chosen display mode (pictures or text; a few bytes per chat: loaded once at start)."""

        async def run(db: Db) -> dict[int, str]:
            rows = await db.execute_fetchall(
                "SELECT chat_id, display FROM chat_settings WHERE display IS NOT NULL"
            )
            return {int(r[0]): str(r[1]) for r in rows}

        return await self._single(run)

    async def set_chat_display(self, chat_id: int, display: str | None) -> None:
        """How a chat (a group, or a player's private chat) shows a game: "pictures" or "text" (None: not
        chosen)."""
        check_int64("chat_id", chat_id)
        if display is not None and display not in DISPLAYS:
            raise InvalidInput(f"display must be one of {', '.join(DISPLAYS)}, not {display!r}")

        async def run(db: Db) -> None:
            await db.execute(
                "INSERT INTO chat_settings (chat_id, display) VALUES (?, ?) "
                "ON CONFLICT (chat_id) DO UPDATE SET display = excluded.display",
                (chat_id, display),
            )

        await self._write(run)

    async def migrate_chat(self, old_chat: int, new_chat: int) -> list[int]:
        """A group became a supergroup (Telegram's ``migrate_to_chat_id``): its tables, score rows, totals
        and settings move to the new chat id. The group's message ids do not carry over (they are
        forgotten). Returns the ids of the open tables that moved; running it twice moves nothing more."""
        check_int64("chat_id", old_chat)
        check_int64("chat_id", new_chat)

        async def run(db: Db) -> list[int]:
            rows = await db.execute_fetchall(
                "SELECT id FROM tables WHERE chat_id = ? AND status = 'open' ORDER BY id", (old_chat,)
            )
            moved = [int(r[0]) for r in rows]
            await db.executemany(
                "UPDATE table_settings SET lobby_msg = NULL, table_msg = NULL, vote_msg = NULL "
                "WHERE table_id = ?",
                [(t,) for t in moved],
            )
            await db.execute("UPDATE tables SET chat_id = ? WHERE chat_id = ?", (new_chat, old_chat))
            await db.execute("UPDATE score_deltas SET chat_id = ? WHERE chat_id = ?", (new_chat, old_chat))
            await db.execute("UPDATE outbox SET chat_id = ? WHERE chat_id = ?", (new_chat, old_chat))
            await db.execute(
                """
                INSERT INTO chat_totals (chat_id, user_id, points, hands, wins, best)
                SELECT CAST(? AS BIGINT), user_id, points, hands, wins, best FROM chat_totals
                WHERE chat_id = ? AND true
                ON CONFLICT (chat_id, user_id) DO UPDATE SET
                    points = chat_totals.points + excluded.points,
                    hands = chat_totals.hands + excluded.hands,
                    wins = chat_totals.wins + excluded.wins,
                    best = CASE WHEN excluded.best > chat_totals.best THEN excluded.best
                                ELSE chat_totals.best END
                """,
                (new_chat, old_chat),
            )
            await db.execute("DELETE FROM chat_totals WHERE chat_id = ?", (old_chat,))
            await db.execute(
                """
                INSERT INTO chat_settings (chat_id, language, display)
                SELECT CAST(? AS BIGINT), language, display FROM chat_settings WHERE chat_id = ? AND true
                ON CONFLICT (chat_id) DO UPDATE SET
                    language = COALESCE(chat_settings.language, excluded.language),
                    display = COALESCE(chat_settings.display, excluded.display)
                """,
                (new_chat, old_chat),
            )
            await db.execute("DELETE FROM chat_settings WHERE chat_id = ?", (old_chat,))
            await db.execute("UPDATE seat_stats SET chat_id = ? WHERE chat_id = ?", (new_chat, old_chat))
            # the new chat's own rows (if any) win
            for table, key in (("ratings", "variant, user_id"), ("chat_variant_settings", "variant")):
                same = " AND ".join(f"n.{k} = {table}.{k}" for k in key.split(", "))
                await db.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ? AND NOT EXISTS "
                    f"(SELECT 1 FROM {table} AS n WHERE n.chat_id = ? AND {same})",
                    (new_chat, old_chat, new_chat),
                )
                await db.execute(f"DELETE FROM {table} WHERE chat_id = ?", (old_chat,))
            return moved

        return await self._write(run)
