"""Who is who: players' display names and languages, chats' languages and display modes, group titles.

A user's language is stored once, with the player (``storage``): his Telegram client's, until he chooses one
with /lang in private. A group's is the one chosen there (stored as a chat setting), else its table's, else
Chinese. A chat's display mode (pictures or text, /view) is a chat setting too: a group's, or a player's
private chat's (keyed by his user id); without one, the bot's default. Everything is loaded at start and
kept in memory; changes are stored first.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Protocol

from bot.text.texts import lang_of
from storage import Storage, StorageError, TableSettings

log = logging.getLogger(__name__)


PICTURES, TEXT = "pictures", "text"


class GroupTable(Protocol):
    """A table as far as its group's language goes (bot/table/runtime.py's ``TableRuntime``)."""

    @property
    def chat_id(self) -> int: ...
    @property
    def settings(self) -> TableSettings: ...


class People:
    def __init__(self, storage: Storage, pictures: bool = True) -> None:
        self.storage = storage
        self.default_display = PICTURES if pictures else TEXT
        self.displays: dict[int, str] = {}  # chats' chosen display modes
        self.names: dict[int, str] = {}
        self.user_langs: dict[int, str] = {}  # the language the bot speaks to a user (stored)
        self.client_langs: dict[int, str] = {}  # what his client said last (to store only changes)
        self.chat_langs: dict[int, str] = {}  # groups' chosen languages
        self.chat_titles: dict[int, str] = {}

    def known(self, user_id: int, name: str, language_code: str | None) -> bool:
        """Whether this name and client language are already what the bot has of the user (nothing to
        store)."""
        lang = lang_of(language_code) if language_code else None
        return self.names.get(user_id) == name and (lang is None or self.client_langs.get(user_id) == lang)

    async def see_user(self, user_id: int, name: str, language_code: str | None) -> None:
        """Remember a user's display name and client language (stored when they change)."""
        if self.known(user_id, name, language_code):
            return
        lang = lang_of(language_code) if language_code else None
        self.names[user_id] = name
        if lang is not None:
            self.client_langs[user_id] = lang
        try:
            player = await self.storage.upsert_player(user_id, name, lang)
        except StorageError as e:
            log.warning("could not store player %s: %s", user_id, e)
            return
        if player.language:
            self.user_langs[user_id] = player.language

    async def load(self, users: Iterable[int]) -> None:
        """Names and languages of these users, and every group's language, from storage (at start)."""
        try:
            self.chat_langs.update(await self.storage.chat_languages())
            self.displays.update(await self.storage.chat_displays())
        except StorageError as e:
            log.warning("could not load the chats' languages and display modes: %s", e)
        for user in users:
            try:
                player = await self.storage.get_player(user)
            except StorageError:
                player = None
            if player is not None:
                self.names[user] = player.name or self.names.get(user, str(user))
                if player.language:
                    self.user_langs[user] = player.language

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        """/lang in private: stored first, then used."""
        await self.storage.set_player_language(user_id, lang)
        self.user_langs[user_id] = lang

    def pictures(self, chat_id: int) -> bool:
        """Does this chat (a group, or a player's private chat) see the game as pictures?"""
        return self.displays.get(chat_id, self.default_display) == PICTURES

    async def set_display(self, chat_id: int, display: str) -> None:
        """/view: stored first, then used."""
        await self.storage.set_chat_display(chat_id, display)
        self.displays[chat_id] = display

    def see_chat(self, chat_id: int, title: str | None) -> None:
        if title:
            self.chat_titles[chat_id] = title

    def move_chat(self, old_chat: int, new_chat: int) -> None:
        """A group became a supergroup: what we know of it follows (storage has moved it already)."""
        if old_chat in self.chat_langs:
            self.chat_langs.setdefault(new_chat, self.chat_langs.pop(old_chat))
        if old_chat in self.chat_titles:
            self.chat_titles.setdefault(new_chat, self.chat_titles.pop(old_chat))
        if old_chat in self.displays:
            self.displays.setdefault(new_chat, self.displays.pop(old_chat))

    def name(self, user_id: int) -> str:
        return self.names.get(user_id, str(user_id))

    def dm_lang(self, user_id: int) -> str:
        return self.user_langs.get(user_id) or "zh"

    def chat_lang(self, chat_id: int, fallback: str | None = None) -> str:
        if chat_id > 0:
            return self.user_langs.get(chat_id) or fallback or "zh"
        return self.chat_langs.get(chat_id) or fallback or "zh"

    def table_lang(self, rt: GroupTable | None) -> str:
        """The language of a table's group messages."""
        if rt is None:
            return "zh"
        return self.chat_langs.get(rt.chat_id) or rt.settings.lang
