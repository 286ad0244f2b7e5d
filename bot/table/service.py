"""The table service: the one object handlers and the app talk to. It wires the parts and routes to them.

Each part has one job and gets the ports it needs, nothing more:

* ``runtime``  a table in memory (``TableRuntime``, its lock, ``Pending`` decisions), the open ``Tables``
* ``people``   names and languages of users and chats
* ``present``  what the group's messages and each private panel show (texts, keyboards, notes → outbox)
* ``lobby``    a table between hands: open, seats, AI seats, settings, start, the hand-end hook, stop
* ``play``     a hand: presses, engine → storage → memory, AI and auto seats, deadlines, timeouts
* ``restore``  rebuilding the open tables after a restart
* ``scores``   the group's score board
* ``night``    the game night: 局数, Ready between hands, the 大结算 and "play again"
* ``votes``    the stop vote (申请解散): asked, answered, decided (a majority, or the countdown's end)
* ``history``  战绩: /history, /replay, /export, /stats

No Telegram types here or in the parts; every change to a table runs under that table's lock.
"""

from __future__ import annotations

import logging
import secrets
import time

from bot.members.access import Access, Clock, JoinLinks, MemberProbe, everyone_is_member
from bot.members.people import People
from bot.records import scores
from bot.records.history import History
from bot.table.feed import Feed
from bot.table.lobby import Lobby
from bot.table.night import Night
from bot.table.play import Play
from bot.table.present import Presenter, panel_key
from bot.table.restore import restore_tables
from bot.table.runtime import (
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
from bot.table.vote import Votes
from bot.text.texts import t
from engine import Preset
from storage import Storage, StorageError

log = logging.getLogger(__name__)

__all__ = ["Reply", "TableRuntime", "TableService", "Who"]

PRUNE_ANSWERS = 5_000  # updates recorded between two prunes of those a day old (``handled``)


class TableService:
    def __init__(
        self,
        storage: Storage,
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
        pictures: bool = True,
        registry: Tables | None = None,
    ) -> None:
        self.storage = storage
        self.out = out
        self.timers = timers
        self.clock = clock
        # a worker of several: bot/telegram/cluster.py
        self.registry = registry if registry is not None else Tables()
        self.tables = self.registry.by_id  # open tables by id (read-only for callers)
        self.people = People(storage, pictures)  # chats see pictures unless they chose text (/view)
        self.present = Presenter(out, self.people, storage, clock, bot_username)
        self.feed = Feed(self.present, self.registry)  # channels besides the chats: the Mini App
        self.present.feed = self.feed
        self.play = Play(
            self.registry,
            storage,
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
            self.people,
            self.present,
            self.play,
            dm_probe,
            self.access,
            self.links,
            claim_pause,
        )
        self.night = Night(
            self.registry, storage, self.people, self.present, self.lobbies, timers, clock, self.access
        )
        self.lobbies.finale = self.night.finale
        self.night.back = self.play.back
        self.votes = Votes(
            self.registry, storage, self.people, self.present, self.lobbies, self.play, self.night, clock
        )
        self.history = History(storage, self.people, self.access)
        self._top_update = 0  # the highest update id stored or seen (``delivered_again``)
        self._handling: set[int] = set()  # updates being handled, not recorded yet (``handled``)
        self._answers = 0  # updates recorded since the last prune
        self.once = True  # False: the workers of a cluster apply each update once (bot/telegram/cluster.py)

    @property
    def actions(self) -> int:
        """Accepted actions so far (for the benchmark)."""
        return self.play.actions

    async def _hand_ended(self, rt: TableRuntime, finished: FinishedHand) -> None:
        """The hand-end hook (under the table's lock): the game night decides what comes next."""
        await self.night.after_hand(rt, finished)

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

    async def set_display(self, chat_id: int, display: str) -> None:
        """/view: a chat sees the game as pictures or as text; its table or panels are shown again so."""
        await self.people.set_display(chat_id, display)
        for rt in self.registry:
            async with rt.lock:
                if rt.chat_id == chat_id:
                    self.present.refresh(rt)
                elif chat_id > 0 and rt.playing and (seat := rt.seat_of(chat_id)) is not None:
                    self.present.publish_seat(rt, seat)

    # ------------------------------------------------------------------ tables and lobbies

    def table_in(self, chat_id: int) -> TableRuntime | None:
        return self.registry.in_chat(chat_id)

    async def new_table(
        self, chat_id: int, user_id: int, variant: str, lang: str, preset: Preset | None = None
    ) -> tuple[TableRuntime | int, bool]:
        return await self.lobbies.new_table(chat_id, user_id, variant, lang, preset=preset)

    async def join(
        self, table_id: int, user_id: int, *, from_dm: bool = False, who: Who | None = None
    ) -> Reply:
        return await self.lobbies.join(table_id, user_id, from_dm=from_dm, who=who)

    async def lobby(
        self, table_id: int, user_id: int, op: str, a: int | None = None, b: int | None = None
    ) -> Reply:
        reply = await self.lobbies.lobby(table_id, user_id, op, a, b)
        if op == "l" and reply.ok:  # the last player not ready may have gone
            await self.night.left(table_id)
        return reply

    async def ready(self, table_id: int, user_id: int) -> Reply:
        return await self.night.ready(table_id, user_id)

    async def reopen(self, table_id: int, user_id: int, chat_id: int, lang: str) -> Reply:
        return await self.night.reopen(table_id, user_id, chat_id, lang)

    async def start(self, table_id: int, user_id: int) -> Reply:
        return await self.lobbies.start(table_id, user_id)

    async def stop(self, chat_id: int, user_id: int, is_admin: bool) -> str:
        """/stop in a group: an admin closes the table at once; a seated player asks for a stop vote (or
        agrees to the one in progress). Returns the reply."""
        return await self.votes.stop(chat_id, user_id, is_admin)

    async def ask_stop(self, table_id: int, user_id: int) -> Reply:
        """申请解散 from a button or the Mini App: a stop vote asked for (or agreed to, when one is open)."""
        return await self.votes.ask(table_id, user_id)

    async def stop_vote(self, table_id: int, user_id: int, vote: int, agree: bool) -> Reply:
        """An answer to stop vote number ``vote``: agree or refuse (out of date once that vote is over)."""
        return await self.votes.answer(table_id, user_id, vote, agree)

    async def leaderboard(self, chat_id: int, period: str, lang: str, variant: str | None = None) -> str:
        if variant is None and (rt := self.registry.in_chat(chat_id)) is not None:
            variant = rt.table.variant
        return await scores.leaderboard(self.storage, self.people, self.clock, chat_id, period, lang, variant)

    # ------------------------------------------------------------------ a hand

    async def press(
        self,
        table_id: int,
        user_id: int,
        hand_id: int,
        decision: int,
        index: int,
        update_id: int | None = None,
    ) -> Reply:
        reply = await self.play.press(table_id, user_id, hand_id, decision, index, update_id)
        if reply.ok and update_id is not None and update_id in self._handling:
            self._handling.discard(update_id)  # recorded with its action, with its answer
            await self._counted()
        return reply

    # ------------------------------------------------------------------ each update applied once
    #
    # Telegram delivers an update again until the bot confirms it (the webhook's answer, the next
    # getUpdates): a restart in between, or a webhook answer lost, brings it twice. One process records each
    # update it handled (``updates_seen``: a button's with the answer it got, a move's in the move's own
    # transaction), and a second delivery changes nothing; a press is answered again with what it did. (The
    # workers of a cluster record it in the table's transaction: bot/telegram/cluster.py.)

    async def delivered_again(self, update_id: int) -> str | None:
        """Whether update ``update_id`` was handled before, or is being handled: the answer its press got
        ("" for none) if so; None for a first delivery, which is then being handled until ``handled``.
        Telegram's update ids grow, so only an id not above the highest one seen (recorded before the start,
        or seen since) can be a second delivery; only those cost a read."""
        if update_id in self._handling:
            return ""
        if update_id > self._top_update:
            self._top_update = update_id
        else:
            try:
                done = await self.storage.update_seen(update_id)
            except StorageError as e:
                log.warning("whether an update was applied not read (handled as new): %s", e)
                done = None
            if done is not None:
                return done
        self._handling.add(update_id)
        return None

    async def handled(self, update_id: int, answer: str | None = None) -> None:
        """Update ``update_id`` is handled (``answer``: what its press was told): recorded, unless it was
        with its move or is not one of this process's to record (a second delivery, a cluster's)."""
        if update_id not in self._handling:
            return
        self._handling.discard(update_id)
        try:
            await self.storage.mark_seen(update_id, answer)
        except StorageError as e:
            log.warning("an update handled not recorded: %s", e)
            return
        await self._counted()

    async def _counted(self) -> None:
        self._answers += 1
        if self._answers >= PRUNE_ANSWERS:  # the records of a day ago go, now and then
            self._answers = 0
            try:
                await self.storage.prune_answers()
            except StorageError as e:
                log.warning("updates handled not pruned: %s", e)

    async def pick(self, table_id: int, user_id: int, hand_id: int, decision: int, index: int) -> Reply:
        return await self.play.pick(table_id, user_id, hand_id, decision, index)

    async def settle(self, table_id: int) -> None:
        await self.play.settle(table_id)

    async def on_due(self, table_id: int) -> None:
        """The table's one timer: a stop vote's countdown, a hand's deadlines, or the end of its ready phase
        between hands."""
        rt = self.registry.open(table_id)
        if rt is not None and rt.settings.vote_until is not None:
            await self.votes.on_due(table_id)
            rt = self.registry.open(table_id)
        if rt is None:
            return
        if not rt.playing and rt.settings.ready_until is not None:
            await self.night.on_due(table_id)
        else:
            await self.play.on_due(table_id)

    async def im_back(self, table_id: int, user_id: int) -> Reply:
        return await self.play.im_back(table_id, user_id)

    async def auto_play(self, table_id: int, user_id: int) -> Reply:
        """托管: the presser asks the bot to play for him until he presses "I'm back"."""
        return await self.play.go_auto(table_id, user_id)

    async def resend(self, user_id: int, chat_id: int | None = None) -> int:
        return await self.play.resend(user_id, chat_id)

    async def dm_forbidden(self, user_id: int) -> None:
        await self.play.dm_forbidden(user_id)

    def old_panel(self, user_id: int, table_id: int, chat_id: int, message_id: int) -> bool:
        """A message in the user's private chat with his buttons for this table that is not his live panel:
        one sent just before a crash, whose id never reached the database (a restart edits the stored one).
        Its keyboard may go once he presses it."""
        live = self.out.message_id(user_id, panel_key(table_id))
        return chat_id == user_id and live is not None and live != message_id

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
        seated = []  # pressed Join (in one group or several) before he had a private chat, then Start
        refused = []  # … at a table that has started or filled up meanwhile: he is told why
        for rt in [rt for rt in self.registry if user_id in rt.waiting_dm]:
            reply = await self.lobbies.join(rt.id, user_id, from_dm=True, who=who)
            if reply.ok:
                seated.append(reply.text)
            else:
                refused.append(t("dm.join_failed", lang, tid=rt.id, why=reply.text))
        if seated:
            return "\n\n".join([*seated, *refused])
        # the link posted when his private chat was lost names its table: back there (and wherever his chat
        # was lost too; 托管 he chose at another table stays); a plain /start is back at every table
        digits = payload[1:]
        named = payload[:1] == "b" and digits.isascii() and digits.isdigit() and len(digits) <= 15
        back = await self.play.come_back(user_id, int(digits) if named else None)
        return "\n\n".join([*refused, t("ans.back", lang) if back else t("dm.welcome", lang)])

    # ------------------------------------------------------------------ restart, outbox bookkeeping

    async def restore(self) -> None:
        try:  # hands finished before schema v6 (or imported) get their seat facts and ratings first
            await self.storage.derive_pending()
        except StorageError as e:
            log.warning("hand facts not derived: %s", e)
        try:  # updates Telegram may deliver again (``delivered_again``); not those of more than a day ago
            await self.storage.prune_answers()
            self._top_update = await self.storage.last_update()
        except StorageError as e:
            log.warning("press answers not read: %s", e)
        await restore_tables(
            self.storage, self.registry, self.people, self.present, self.play, before=self._renew
        )
        for rt in list(self.registry):  # a ready phase and a stop vote go on where they were
            async with rt.lock:
                await self.votes.restored(rt)
                await self.night.resume(rt)  # … or begin, or the room ends, if a kill came in between
                if not rt.closed:
                    self.night.arm(rt)

    async def _renew(self, rt: TableRuntime) -> None:
        """After a restart, before a table is rebuilt and its timer armed: the countdowns that must not run
        while the bot is down (a stop vote's, a ready phase's) start again."""
        await self.votes.renew(rt)
        await self.night.renew(rt)

    async def on_message(self, chat_id: int, key: str, message_id: int) -> None:
        """The outbox sent a live message anew: its id is stored at once (see ``Presenter.on_message``)."""
        table_id = int(key[1:]) if key[:1] in ("g", "l", "p", "v") and key[1:].isdigit() else None
        rt = self.registry.by_id.get(table_id) if table_id is not None else None
        if rt is not None:
            await self.present.on_message(rt, chat_id, key, message_id)

    # ------------------------------------------------------------------ Telegram's chat lifecycle

    async def chat_migrated(self, old_chat: int, new_chat: int) -> None:
        """A group became a supergroup (``migrate_to_chat_id``): its table, scores and settings follow it to
        the new chat id, and the table is shown there (the old group's messages cannot be edited any more).
        Telegram says so twice (in the old chat and the new one): the second time changes nothing."""
        async with self.registry.chat_lock(old_chat), self.registry.chat_lock(new_chat):
            moved = await self.storage.migrate_chat(old_chat, new_chat)
            self.people.move_chat(old_chat, new_chat)
            self.out.move_chat(old_chat, new_chat)
            for table_id in moved:
                rt = self.registry.by_id.get(table_id)
                if rt is None:
                    continue
                async with rt.lock:
                    self.registry.rebind(rt, await self.storage.get_table(table_id))
                    rt.settings = await self.storage.table_settings(table_id)
                    if rt.playing:
                        self.present.publish(rt, set(), fresh_group=True)
                    else:
                        self.present.show_lobby(rt, fresh=True)
                    if rt.settings.vote_until is not None:  # its tally and buttons, in the new chat too
                        self.votes.show(rt, fresh=True)

    async def bot_removed(self, chat_id: int) -> None:
        """The bot was removed from a group (``my_chat_member``: left or kicked): its table closes. Finished
        hands keep their scores; a hand in progress is abandoned and its players are told in private (the
        group can no longer be written to)."""
        rt = self.registry.in_chat(chat_id)
        if rt is None:
            return
        async with rt.lock:
            if rt.closed:
                return
            humans = rt.humans() if rt.playing else []
            try:
                await self.storage.close_table(rt.id, "the bot was removed from the group")
            except StorageError as e:
                log.warning("table %s: not closed: %s", rt.id, e)
                return
            rt.closed = True
            self.play.stop_clock(rt)
            self.votes.closing(rt)  # a stop vote in progress ends: its private buttons go
            self.registry.remove(rt)
            for user in humans:
                if user not in rt.live.dm_lost:
                    seat = rt.seat_of(user)
                    assert seat is not None
                    self.present.close_panel(rt, seat, t("dm.removed", self.people.dm_lang(user)))
            self.present.changed(rt)  # the Mini App's streams: closed
