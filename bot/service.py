"""The table service: the one object handlers and the app talk to. It wires the parts and routes to them.

Each part has one job and gets the ports it needs, nothing more:

* ``runtime``  a table in memory (``TableRuntime``, its lock, ``Pending`` decisions), the open ``Tables``
* ``people``   names and languages of users and chats
* ``present``  what the group's messages and each private panel show (texts, keyboards, notes → outbox)
* ``lobby``    a table between hands: open, seats, AI seats, settings, start, the hand-end hook, stop
* ``play``     a hand: presses, engine → storage → memory, AI and auto seats, deadlines, timeouts
* ``restore``  rebuilding the open tables after a restart
* ``scores``   the group's score board

No Telegram types here or in the parts; every change to a table runs under that table's lock.
"""

from __future__ import annotations

import secrets
import time

from storage import Storage

from . import scores
from .access import Access, JoinLinks, MemberProbe, everyone_is_member
from .lobby import Lobby
from .meta import Meta
from .people import People
from .play import Play
from .present import Presenter
from .restore import restore_tables
from .runtime import (
    Clock,
    DmProbe,
    FinishedHand,
    Out,
    Reply,
    SeedFn,
    TableRuntime,
    Tables,
    TimerPort,
    Who,
)
from .texts import t

__all__ = ["Reply", "TableRuntime", "TableService", "Who"]


class TableService:
    def __init__(
        self,
        storage: Storage,
        meta: Meta,
        out: Out,
        timers: TimerPort,
        *,
        dm_probe: DmProbe,
        clock: Clock = time.time,
        seed_fn: SeedFn | None = None,
        bot_username: str = "",
        member_probe: MemberProbe = everyone_is_member,
        link_key: bytes | None = None,
        claim_pause: int | None = None,
    ) -> None:
        self.storage = storage
        self.meta = meta
        self.out = out
        self.timers = timers
        self.clock = clock
        self.registry = Tables()
        self.tables = self.registry.by_id  # open tables by id (read-only for callers)
        self.people = People(storage, meta)
        self.present = Presenter(out, self.people, meta, clock, bot_username)
        self.play = Play(
            self.registry,
            storage,
            meta,
            timers,
            clock,
            seed_fn or (lambda table_id, number: secrets.randbelow(2**62)),
            self.people,
            self.present,
            on_hand_end=self._hand_ended,
        )
        self.access = Access(member_probe, clock)
        self.links = JoinLinks(link_key if link_key is not None else secrets.token_bytes(32))
        self.lobbies = Lobby(
            self.registry,
            storage,
            meta,
            self.people,
            self.present,
            self.play,
            dm_probe,
            self.access,
            self.links,
            claim_pause,
        )

    @property
    def actions(self) -> int:
        """Accepted actions so far (for the benchmark)."""
        return self.play.actions

    async def _hand_ended(self, rt: TableRuntime, finished: FinishedHand) -> None:
        """The hand-end hook (under the table's lock): where a game night decides what comes next."""
        await self.lobbies.after_hand(rt, finished)

    # ------------------------------------------------------------------ users, chats, languages

    async def see_user(self, user_id: int, name: str, language_code: str | None) -> None:
        await self.people.see_user(user_id, name, language_code)

    def see_chat(self, chat_id: int, title: str | None) -> None:
        self.people.see_chat(chat_id, title)

    def dm_lang(self, user_id: int) -> str:
        return self.people.dm_lang(user_id)

    def chat_lang(self, chat_id: int, fallback: str | None = None) -> str:
        return self.people.chat_lang(chat_id, fallback)

    async def set_lang(self, chat_id: int, lang: str) -> None:
        await self.lobbies.set_lang(chat_id, lang)

    # ------------------------------------------------------------------ tables and lobbies

    def table_in(self, chat_id: int) -> TableRuntime | None:
        return self.registry.in_chat(chat_id)

    async def new_table(
        self, chat_id: int, user_id: int, variant: str, lang: str
    ) -> tuple[TableRuntime, bool]:
        return await self.lobbies.new_table(chat_id, user_id, variant, lang)

    async def join(
        self, table_id: int, user_id: int, *, from_dm: bool = False, who: Who | None = None
    ) -> Reply:
        return await self.lobbies.join(table_id, user_id, from_dm=from_dm, who=who)

    async def lobby(self, table_id: int, user_id: int, op: str, arg: int | None = None) -> Reply:
        return await self.lobbies.lobby(table_id, user_id, op, arg)

    async def start(self, table_id: int, user_id: int) -> Reply:
        return await self.lobbies.start(table_id, user_id)

    async def stop(self, chat_id: int, user_id: int, is_admin: bool) -> str:
        return await self.lobbies.stop(chat_id, user_id, is_admin)

    async def leaderboard(self, chat_id: int, period: str, lang: str) -> str:
        return await scores.leaderboard(self.storage, self.people, self.clock, chat_id, period, lang)

    # ------------------------------------------------------------------ a hand

    async def press(self, table_id: int, user_id: int, hand_id: int, decision: int, index: int) -> Reply:
        return await self.play.press(table_id, user_id, hand_id, decision, index)

    async def settle(self, table_id: int) -> None:
        await self.play.settle(table_id)

    async def on_due(self, table_id: int) -> None:
        await self.play.on_due(table_id)

    async def im_back(self, table_id: int, user_id: int) -> Reply:
        return await self.play.im_back(table_id, user_id)

    async def resend(self, user_id: int, chat_id: int | None = None) -> int:
        return await self.play.resend(user_id, chat_id)

    async def dm_forbidden(self, user_id: int) -> None:
        await self.play.dm_forbidden(user_id)

    async def private_start(self, user_id: int, payload: str, who: Who | None = None) -> str:
        """/start in private, with an optional deep-link payload (``j<table>_<mac>``: join, made by
        ``JoinLinks``; ``b<table>``: come back). A payload that is not a valid link says only that."""
        lang = self.people.dm_lang(user_id)
        if payload[:1] == "j":
            tid = self.links.table(payload)
            if tid is None:
                return t("dm.bad_link", lang)
            reply = await self.lobbies.join(tid, user_id, from_dm=True, who=who)
            if not reply.ok and reply.text != t("ans.already", lang):
                return t("dm.join_failed", lang, tid=tid, why=reply.text)
            return reply.text if reply.ok else t("ans.already", lang)
        for rt in [rt for rt in self.registry if user_id in rt.waiting_dm]:
            reply = await self.lobbies.join(rt.id, user_id, from_dm=True, who=who)
            if reply.ok:  # pressed Join, then Start
                return reply.text
        back = await self.play.come_back(user_id)
        return t("ans.back", lang) if back else t("dm.welcome", lang)

    # ------------------------------------------------------------------ restart, outbox bookkeeping

    async def restore(self) -> None:
        await restore_tables(self.storage, self.meta, self.registry, self.people, self.present, self.play)

    def on_message(self, chat_id: int, key: str, message_id: int) -> None:
        self.present.on_message(chat_id, key, message_id)
