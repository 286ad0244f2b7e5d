"""The game night: a room of 4, 8 or 16 hands (or until /stop), Ready between hands, and the
final summary (大结算) that closes it, with a button that opens the same room again.

Between two hands the table is in its ready phase: every seated player presses Ready; when all have, the
next hand is dealt at once; when the room's ready timer runs out first, it is dealt anyway and those who
were not ready play on auto-play (they press "I'm back" to take over). The phase (its deadline, who is
ready) is stored with the table's settings, so a restart goes on with it; its deadline does not run
while the bot is down (``Night.renew``). After the room's last hand, or
when it is stopped (/stop), the group and each player get the 大结算 of the hands finished there: totals,
the big winner (大赢家), and per player 胡 / 自摸 / 点炮 / 杠 / best hand / biggest win (from the seat rows
storage derives from each hand's log).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable

from bot.members.access import MEMBER, Access, Clock
from bot.members.people import People
from bot.messages import keyboards as kb
from bot.table.lobby import Lobby, room_part
from bot.table.present import Presenter, post_of
from bot.table.runtime import FinishedHand, Reply, TableRuntime, Tables, TimerPort
from bot.text import nightview
from bot.text.texts import t
from storage import Post, Storage, StorageError

log = logging.getLogger(__name__)

READY_SLACK = 0.001  # a ready phase this close to its end is over (the timer may wake a hair early)


class Night:
    def __init__(
        self,
        tables: Tables,
        storage: Storage,
        people: People,
        present: Presenter,
        lobby: Lobby,
        timers: TimerPort,
        clock: Clock,
        access: Access,
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.people = people
        self.present = present
        self.lobby = lobby
        self.timers = timers
        self.clock = clock
        self.access = access
        # Play.back: Ready pressed once the ready timer dealt the next hand with him on auto-play (the
        # result's "I'm back · Ready", as a player who was away presses it) is his "I'm back"
        self.back: Callable[[TableRuntime, int, int, str], Awaitable[Reply]] | None = None

    # ================================================================== under the table lock

    async def after_hand(self, rt: TableRuntime, finished: FinishedHand) -> None:
        """The hand-end hook: the result above the lobby; then the room's end, or its ready phase."""
        await self.lobby.after_hand(rt, finished)
        rounds = rt.settings.rounds
        if rounds and finished.hand.number >= rounds:
            await self.lobby.close(rt, "the room's last hand was played")
            return
        await self._ready_phase(rt, self.clock() + rt.settings.ready_s)

    async def _ready_phase(self, rt: TableRuntime, until: float | None, ready: tuple[int, ...] = ()) -> None:
        try:
            rt.settings = await self.storage.update_settings(rt.id, ready_until=until, ready=ready)
        except StorageError as e:
            log.warning("table %s: ready phase not stored: %s", rt.id, e)
            return
        self.arm(rt)
        self.present.show_lobby(rt)

    async def resume(self, rt: TableRuntime) -> None:
        """After a restart (under the table's lock, its timers not armed yet): what ``after_hand`` does once a
        hand's final action is committed, if the bot died before doing it - the room whose last hand was
        played closes now (its 大结算), and a room between hands with players seated and no ready phase gets
        one (else nobody could press Ready, and the night waited for the host's Start). The sign of that kill
        is a last result the group had not seen when the table was restored (``restored_due``)."""
        if rt.closed or rt.playing or not rt.hands_played:
            return
        rounds = rt.settings.rounds
        if rounds and rt.hands_played >= rounds:
            await self.lobby.close(rt, "the room's last hand was played")
        elif rt.settings.ready_until is None and rt.restored_due and any(u is not None for u in rt.seats):
            # its last hand's result never reached the group: the kill came between the hand's end and its
            # ready phase (a lobby that waits for the host's Start, nobody having been seated, is left so)
            await self._ready_phase(rt, self.clock() + rt.settings.ready_s)

    async def renew(self, rt: TableRuntime) -> None:
        """After a restart, before the table is rebuilt and its timer armed (under the table's lock): the
        ready phase's deadline does not run while the bot is down. A phase with less than a full period
        left (its deadline passed while the bot was down, or is near) gets a fresh full period
        (``ready_s``) from now, stored; one that has more keeps its deadline.

        A fresh period rather than the time left when the bot stopped: a kill leaves no mark of when the
        bot went down (learning it would take a heartbeat written every few seconds), and the players need
        the time to see the lobby again and press Ready - presses made while the bot was down arrive only
        now, and must not find the hand dealt without them. A full period is the most the phase could have
        had left, so nobody loses time to a restart; the cost is at most one period more of waiting, once
        per restart. It is renewed before the timer is armed (as the stop vote's countdown,
        ``Votes.renew``): a timer armed first would deal at once, with everyone on auto-play."""
        until = rt.settings.ready_until
        if until is None or rt.closed:
            return
        fresh = self.clock() + rt.settings.ready_s
        if until >= fresh:
            return
        try:
            rt.settings = await self.storage.update_settings(rt.id, ready_until=fresh)
        except StorageError as e:
            log.warning("table %s: the ready phase's deadline not renewed: %s", rt.id, e)

    def arm(self, rt: TableRuntime) -> None:
        """Between hands the table's timer wakes it at the end of its ready phase, or of a stop vote in
        progress (bot/table/vote.py), whichever comes first (after a restart too). During a hand the hand's
        own timer does (``Play._arm``)."""
        if rt.playing:
            return
        wake = [d for d in (rt.settings.ready_until, rt.settings.vote_until) if d is not None]
        if wake:
            self.timers.arm(rt.id, min(wake))
        else:
            self.timers.cancel(rt.id)

    async def _deal_now(self, rt: TableRuntime, gone: set[int] | None = None) -> bool:
        """End the ready phase: deal with every seated player who is not ready on auto-play; those no longer
        in the group (``gone``) leave their seats first. Nothing is dealt while nobody is seated (the lobby
        waits for a player, and the host's Start)."""
        if gone and gone & set(rt.seats):
            await self.lobby.unseat(rt, gone)
        seated = [i for i, u in enumerate(rt.seats) if u is not None]
        if not seated:
            await self._ready_phase(rt, None)
            return False
        absent = frozenset(i for i in seated if i not in rt.settings.ready)
        self.timers.cancel(rt.id)
        return await self.lobby.begin_hand(rt, auto=absent)

    async def finale(self, rt: TableRuntime, stopped: bool) -> None:
        """The table has closed: its 大结算 in the group (with "play again") and in each player's chat."""
        try:
            rows = await self.storage.table_stats(rt.id)
        except StorageError as e:
            log.warning("table %s: no final summary: %s", rt.id, e)
            return
        hands = sorted({r.hand_id for r in rows})
        if not hands:  # stopped before its first hand was finished: the group is told so, with "play again"
            lang = self.people.table_lang(rt)
            body = nightview.final_text(rt.variant, rt.id, 0, [], stopped, lang)
            body += "\n\n" + t("final.reopen", lang)
            await self.present.send_posts(rt, [post_of(rt.chat_id, body, kb.reopen_keyboard(rt.id, lang))])
            return
        users = {r.user_id for r in rows if r.user_id is not None}
        await self.people.load(u for u in users if u not in self.people.names)

        def text(lang: str) -> str:
            return nightview.room_final(rt.variant, rt.id, rows, self.people.name, stopped, lang)

        lang = self.people.table_lang(rt)
        body = text(lang) + "\n\n" + t("final.reopen", lang)
        posts = [post_of(rt.chat_id, body, kb.reopen_keyboard(rt.id, lang))]
        lost = rt.hand.dm_lost if rt.hand is not None else set()  # a room stopped mid-hand
        posts += [Post(u, text(self.people.dm_lang(u))) for u in sorted(users) if u not in lost]
        await self.present.send_posts(rt, posts)  # through the outbox: a stop does not lose them

    # ================================================================== entry points (take the table lock)

    async def ready(self, table_id: int, user_id: int) -> Reply:
        """A seated player pressed Ready; when every seated player has, the next hand is dealt."""
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)  # a toast: the presser's language, not the group's
        if rt is None:
            return Reply(t("ans.closed", lang))
        # asked of Telegram before the table's lock is taken: his own status only (each who presses Ready is
        # asked in turn, so a deal when all are ready deals only members; the ready timer asks of everyone)
        gone = {user_id} if await self.access.left(rt.chat_id, user_id) else set()
        async with rt.lock:
            if rt.closed:
                return Reply(t("ans.closed", lang))
            if rt.playing:
                seat = rt.seat_of(user_id)
                if self.back is not None and seat is not None and seat in rt.live.auto:
                    return await self.back(rt, seat, user_id, lang)
                return Reply(t("ans.started", lang))
            if user_id in gone:  # removed from the group (or left it): he leaves his seat
                await self.lobby.unseat(rt, {user_id})
                self.present.show_lobby(rt)
                await self._deal_if_all_ready(rt)
                return Reply(t("ans.not_member", lang))
            if user_id not in rt.seats:
                return Reply(t("ans.not_seated", lang))
            if rt.settings.ready_until is None:
                return Reply(t("ans.ready.none", lang))
            seat = rt.seats.index(user_id)
            if seat in rt.settings.ready:
                return Reply(t("ans.ready.already", lang))
            ready = tuple(sorted({*rt.settings.ready, seat}))
            if all(i in ready for i, u in enumerate(rt.seats) if u is not None):
                rt.settings = dataclasses.replace(rt.settings, ready=ready)
                if not await self._deal_now(rt):
                    return Reply(t("ans.error", lang), alert=True)
                return Reply(t("ans.ready", lang), ok=True)
            await self._ready_phase(rt, rt.settings.ready_until, ready)
            return Reply(t("ans.ready", lang), ok=True)

    async def left(self, table_id: int) -> None:
        """A player left his seat between hands: when everyone still seated has pressed Ready, the next hand
        is dealt now, as when the last of them presses it."""
        rt = self.tables.open(table_id)
        if rt is None:
            return
        async with rt.lock:
            if not rt.closed and not rt.playing:
                await self._deal_if_all_ready(rt)

    async def _deal_if_all_ready(self, rt: TableRuntime) -> None:
        """Under the lock, between hands: in a ready phase where everyone still seated is ready (someone
        left), the next hand is dealt now."""
        seated = [i for i, u in enumerate(rt.seats) if u is not None]
        if rt.settings.ready_until is not None and seated and all(i in rt.settings.ready for i in seated):
            await self._deal_now(rt)

    async def on_due(self, table_id: int) -> None:
        """The ready timer ran out: deal, with those not ready on auto-play."""
        rt = self.tables.open(table_id)
        if rt is None:
            return
        gone = await self.lobby.gone(rt)
        async with rt.lock:
            until = rt.settings.ready_until
            if rt.closed or rt.playing or until is None:
                return
            if until > self.clock() + READY_SLACK:
                self.arm(rt)  # woke early
                return
            await self._deal_now(rt, gone)

    async def reopen(self, table_id: int, user_id: int, chat_id: int, lang: str) -> Reply:
        """大结算's "play again": a new table in the closed table's group, with its variant, options, seat
        count and settings; the presser (a member of the group) is its host and sits down."""
        try:
            old = await self.storage.get_table(table_id)
            settings = await self.storage.table_settings(table_id)
        except StorageError:
            return Reply(t("ans.unknown", lang))
        if old.chat_id != chat_id:
            return Reply(t("ans.unknown", lang))
        status = await self.access.status(chat_id, user_id)
        if status not in MEMBER:
            return Reply(t("ans.not_member" if status else "ans.check_failed", lang))
        rt, created = await self.lobby.new_table(
            chat_id, user_id, old.variant, lang, room=(dict(old.options), len(old.seats), room_part(settings))
        )
        if not created or isinstance(rt, int):
            return Reply(t("ans.table_exists", lang))
        await self.lobby.join(rt.id, user_id)
        return Reply(t("ans.reopened", lang), ok=True)
