"""Who is who: players' display names and languages, chats' languages, group titles.

A user's language is the one he chose with /lang in private, else his Telegram client's; a group's is the
one chosen there (else the table's, else Chinese). Names and client languages are stored with the player
(``storage``) and reloaded after a restart; chosen languages are bot settings (``bot/meta.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from storage import Storage, StorageError

from .meta import Meta
from .runtime import TableRuntime
from .texts import lang_of

log = logging.getLogger(__name__)


class People:
    def __init__(self, storage: Storage, meta: Meta) -> None:
        self.storage = storage
        self.meta = meta
        self.names: dict[int, str] = {}
        self.user_langs: dict[int, str] = {}
        self.chat_titles: dict[int, str] = {}

    async def see_user(self, user_id: int, name: str, language_code: str | None) -> None:
        """Remember a user's display name and language (stored when they change)."""
        lang = lang_of(language_code) if language_code else None
        if self.names.get(user_id) == name and (lang is None or self.user_langs.get(user_id) == lang):
            return
        self.names[user_id] = name
        if lang is not None:
            self.user_langs[user_id] = lang
        try:
            await self.storage.upsert_player(user_id, name, lang)
        except StorageError as e:
            log.warning("could not store player %s: %s", user_id, e)

    async def load(self, users: Iterable[int]) -> None:
        """Names and languages of these users from storage (after a restart)."""
        for user in users:
            try:
                player = await self.storage.get_player(user)
            except StorageError:
                player = None
            if player is not None:
                self.names[user] = player.name
                if player.language:
                    self.user_langs[user] = player.language

    def see_chat(self, chat_id: int, title: str | None) -> None:
        if title:
            self.chat_titles[chat_id] = title

    def name(self, user_id: int) -> str:
        return self.names.get(user_id, str(user_id))

    def dm_lang(self, user_id: int) -> str:
        return self.meta.chat_lang(user_id) or self.user_langs.get(user_id) or "zh"

    def chat_lang(self, chat_id: int, fallback: str | None = None) -> str:
        return self.meta.chat_lang(chat_id) or fallback or "zh"

    def table_lang(self, rt: TableRuntime | None) -> str:
        """The language of a table's group messages."""
        if rt is None:
            return "zh"
        return self.meta.chat_lang(rt.chat_id) or rt.meta.lang
