"""A table between hands: opening it, seats (join, leave, AI seats), settings, language, starting a hand,
what happens when a hand ends, and stopping the table.

Seating, options and the table's settings (AI seats, timers, the claim pause, language, the host) are stored
first (``storage``) and changed in memory only if the database took them. Joining needs a private chat with
the bot (that is where the hand is dealt): without one the player gets a deep link.

Who may do what (docs/security.md): members of the table's group may join and leave; settings, AI seats and
Start belong to the table's host (``is_host``) and the group's admins; anyone else changes nothing.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import engine
from bot.members.access import ADMIN, MEMBER, Access, JoinLinks
from bot.members.people import People
from bot.table.play import Play
from bot.table.present import Presenter
from bot.table.runtime import DmProbe, FinishedHand, Reply, TableRuntime, Tables, Who
from bot.text import views
from bot.text.texts import t
from engine import Preset
from storage import ROUNDS, RoomSettings, Storage, StorageError, TableSettings

log = logging.getLogger(__name__)

CLAIM_CHOICES = (10, 15, 20, 30, 45, 60)  # seconds to answer a claim
DISCARD_CHOICES = (20, 30, 45, 60, 90, 120)  # seconds for a turn
PAUSE_CHOICES = (2, 3, 5, 8)  # the uniform claim pause after every discard (docs/security.md)
READY_CHOICES = (15, 30, 60, 120)  # seconds between hands before the next one starts anyway
# ops that change the room: refused once its first hand has started (the settings are locked)
ROOM_OPS = frozenset({"a", "r", "s", "o", "m", "c", "d", "p", "n", "R", "Y"})
Room = tuple[Mapping[str, Any], int, TableSettings]  # a room to open: options, seat count, settings


def room_part(s: TableSettings | RoomSettings) -> TableSettings:
    """What a room keeps of a table's settings (or a remembered room): timers, claim pause, 局数, ready."""
    return TableSettings(
        claim_s=s.claim_s, discard_s=s.discard_s, pause_s=s.pause_s, rounds=s.rounds, ready_s=s.ready_s
    )


def is_host(rt: TableRuntime, user_id: int) -> bool:
    """The table's host: whoever opened it. The one place that knows where the host is kept."""
    return rt.settings.host == user_id


class Lobby:
    def __init__(
        self,
        tables: Tables,
        storage: Storage,
        people: People,
        present: Presenter,
        play: Play,
        dm_probe: DmProbe,
        access: Access,
        links: JoinLinks,
        default_pause: int | None = None,
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.people = people
        self.present = present
        self.play = play
        self.dm_probe = dm_probe
        self.access = access
        self.links = links
        self.default_pause = default_pause  # the claim pause of new tables (None: the room default)
        # called once a table has closed (bot/table/night.py: the 大结算); True when it was stopped early
        self.finale: Callable[[TableRuntime, bool], Awaitable[None]] | None = None

    async def refusal(self, rt: TableRuntime, user_id: int, lang: str, *, manage: bool) -> Reply | None:
        """Why ``user_id`` may not join (``manage=False``) or change settings and start (``manage=True``)
        at this table, or None if he may: members join; the host, while a member, and admins manage."""
        status = await self.access.status(rt.chat_id, user_id)
        if status not in MEMBER:
            return Reply(t("ans.not_member" if status else "ans.check_failed", lang))
        if manage and status not in ADMIN and not is_host(rt, user_id):
            return Reply(t("ans.host_only", lang))
        return None

    # ================================================================== entry points (take the table lock)

    async def new_table(
        self,
        chat_id: int,
        user_id: int,
        variant: str,
        lang: str,
        room: Room | None = None,
        preset: Preset | None = None,
    ) -> tuple[TableRuntime, bool]:
        """Open a table in a group (one per group); returns (table, created). The creator then joins.
        ``room``: its options, seat count and settings (a room opened again); else the group's last room
        of this variant (``remembered_room``), else the defaults. ``preset`` (``/newtable 血流成河``) is
        laid over them: its options, and its seat count where it fixes one."""
        async with self.tables.chat_lock(chat_id):
            existing = self.tables.in_chat(chat_id)
            if existing is not None:
                return existing, False
            rs = engine.get_variant(variant)
            n = max(rs.seat_counts)
            options: Mapping[str, Any] | None = None
            settings = TableSettings(lang=self.people.chat_lang(chat_id, lang), host=user_id)
            if self.default_pause is not None:
                settings = dataclasses.replace(settings, pause_s=self.default_pause)
            if room is None:
                room = await self._remembered(chat_id, rs)
            if room is not None:
                options, n, same = room
                settings = dataclasses.replace(
                    settings,
                    claim_s=same.claim_s,
                    discard_s=same.discard_s,
                    pause_s=same.pause_s,
                    rounds=same.rounds,
                    ready_s=same.ready_s,
                )
            if preset is not None:
                options = {**(options or {}), **preset.options}
                n = preset.seats if preset.seats in rs.seat_counts else n
            table = await self.storage.create_table(chat_id, rs.id, options, [None] * n, settings=settings)
            rt = TableRuntime(table, settings, list(table.seats), dict(table.options))
            self.tables.add(rt)
            async with rt.lock:
                self.present.show_lobby(rt, fresh=True)
            return rt, True

    async def join(
        self, table_id: int, user_id: int, *, from_dm: bool = False, who: Who | None = None
    ) -> Reply:
        """Seat a member of the table's group (``who``: his name and language, stored once he may join)."""
        rt = self.tables.by_id.get(table_id)
        lang = self.people.dm_lang(user_id)  # answers are read by him: his language, not the group's
        if rt is None or rt.closed:
            return Reply(t("ans.closed", lang))
        refused = await self.refusal(rt, user_id, lang, manage=False)
        if refused is not None:
            return refused
        if who is not None:
            await self.people.see_user(user_id, who.name, who.language)
        async with rt.lock:
            if rt.closed:  # stopped while Telegram was asked about him
                return Reply(t("ans.closed", lang))
            if user_id in rt.seats:
                return Reply(t("ans.already", lang))
            if rt.playing:
                return Reply(t("ans.started", lang))
            seat = self._free_seat(rt)
            if seat is None:
                return Reply(t("ans.full", lang))
            dlang = self.people.dm_lang(user_id)
            chat_title = self.people.chat_titles.get(rt.chat_id, "")
            variant = views.variant_name(rt.variant, dlang)
            text = t("dm.joined", dlang, chat=chat_title or "—", tid=rt.id, variant=variant)
            # from his private chat (a deep link's /start) the reply there says it: one message, no probe
            if not from_dm and not await self.dm_probe(user_id, text):
                url = self.present.deep_link(self.links.payload(rt.id))
                if user_id not in rt.waiting_dm:
                    rt.waiting_dm.add(user_id)
                    await self.present.note_no_dm(rt, user_id, url)
                    self.present.show_lobby(rt)
                return Reply(t("ans.no_dm", lang), url=url)
            seats = list(rt.seats)
            seats[seat] = user_id
            await self._save_lobby(rt, seats, ai=tuple(s for s in rt.settings.ai if s != seat))
            rt.waiting_dm.discard(user_id)
            self.present.show_lobby(rt)
            return Reply(text if from_dm else t("ans.joined", lang), ok=True)

    async def lobby(self, table_id: int, user_id: int, op: str, arg: int | None = None) -> Reply:
        """Lobby buttons other than join: leave (a seated player), AI seats, settings and start (the host or
        a group admin)."""
        rt = self.tables.open(table_id)
        if rt is None:
            return Reply(t("ans.closed", self.people.dm_lang(user_id)))
        lang = self.people.dm_lang(user_id)  # the presser's language (a toast), not the group's
        if op == "go":
            return await self.start(table_id, user_id)
        refused = None if op == "l" else await self.refusal(rt, user_id, lang, manage=True)
        if refused is not None:
            return refused
        async with rt.lock:
            if rt.closed:  # stopped while Telegram was asked about him
                return Reply(t("ans.closed", lang))
            if rt.playing:
                return Reply(t("ans.started", lang))
            if op in ROOM_OPS and rt.hands_played:
                return Reply(t("ans.locked", lang))
            if op == "l" and user_id in rt.waiting_dm:  # pressed Join without a private chat: cancel it
                rt.waiting_dm.discard(user_id)
                self.present.show_lobby(rt)
                return Reply(t("ans.left", lang), ok=True)
            if op == "l" and user_id not in rt.seats:
                return Reply(t("ans.not_seated", lang))
            rs = rt.variant
            tm = rt.settings
            if op == "l":
                seats = [None if u == user_id else u for u in rt.seats]
                ready = tuple(s for s in tm.ready if seats[s] is not None)
                await self._save_lobby(rt, seats, ready=ready)
                self.present.show_lobby(rt)
                return Reply(t("ans.left", lang), ok=True)
            if op == "a":
                free = [i for i, u in enumerate(rt.seats) if u is None and i not in tm.ai]
                if not free:
                    return Reply(t("ans.no_room", lang))
                await self._save_lobby(rt, ai=(*tm.ai, free[0]))
            elif op == "r":
                if not tm.ai:
                    return Reply(t("ans.no_ai", lang))
                await self._save_lobby(rt, ai=tm.ai[:-1])
            elif op == "s":
                await self._save_lobby(rt, editing=True)
            elif op == "b":
                await self._save_lobby(rt, editing=False)
            elif op == "o" and arg is not None and arg < len(rs.option_specs):
                spec = rs.option_specs[arg]
                cur = rt.options.get(spec.name, spec.default)
                nxt = (
                    spec.choices[(spec.choices.index(cur) + 1) % len(spec.choices)]
                    if cur in spec.choices
                    else spec.default
                )
                await self._save_lobby(rt, options={spec.name: nxt}, remember=True)
            elif op == "c":
                await self._save_lobby(rt, claim_s=_cycle(CLAIM_CHOICES, tm.claim_s), remember=True)
            elif op == "d":
                await self._save_lobby(rt, discard_s=_cycle(DISCARD_CHOICES, tm.discard_s), remember=True)
            elif op == "p":
                await self._save_lobby(rt, pause_s=_cycle(PAUSE_CHOICES, tm.pause_s), remember=True)
            elif op == "m" and arg is not None and arg < len(rs.presets):
                # a preset: several options at once, and the seat count where it fixes one (三人两房)
                preset = rs.presets[arg]
                if preset.seats is not None and preset.seats != len(rt.seats):
                    if not await self._seat_count(rt, preset.seats):
                        return Reply(t("ans.full", lang))
                await self._save_lobby(rt, options=dict(preset.options), remember=True)
            elif op == "R":
                await self._save_lobby(rt, rounds=_cycle(ROUNDS, tm.rounds), remember=True)
            elif op == "Y":
                await self._save_lobby(rt, ready_s=_cycle(READY_CHOICES, tm.ready_s), remember=True)
            elif op == "n" and len(rs.seat_counts) > 1:
                # the next seat count that holds everyone seated (4 → 2 is skipped with three seated: → 3)
                seated = sum(1 for u in rt.seats if u is not None)
                counts = tuple(sorted(rs.seat_counts))
                n = _cycle(counts, len(rt.seats))
                while n < seated and n != len(rt.seats):
                    n = _cycle(counts, n)
                if n == len(rt.seats) or not await self._seat_count(rt, n):
                    return Reply(t("ans.full", lang))
            elif op == "t":
                new = "en" if tm.lang == "zh" else "zh"
                await self.storage.set_chat_language(rt.chat_id, new, rt.id)
                self.people.chat_langs[rt.chat_id] = new
                rt.settings = dataclasses.replace(rt.settings, lang=new)
            else:
                return Reply(t("ans.stale", lang))
            self.present.show_lobby(rt)
            return Reply(t("ans.ok", lang), ok=True)

    async def start(self, table_id: int, user_id: int) -> Reply:
        """Deal the next hand (the host or a group admin pressed Start): empty seats are played by the AI."""
        rt = self.tables.open(table_id)
        if rt is None:
            return Reply(t("ans.closed", self.people.dm_lang(user_id)))
        lang = self.people.dm_lang(user_id)  # the presser's language (a toast), not the group's
        refused = await self.refusal(rt, user_id, lang, manage=True)
        if refused is not None:
            return refused
        async with rt.lock:
            if rt.closed:  # stopped while Telegram was asked about him
                return Reply(t("ans.closed", lang))
            if rt.playing:
                return Reply(t("ans.started", lang))
            if not any(u is not None for u in rt.seats):
                return Reply(t("ans.need_player", lang))
            # between hands the host may deal before everyone is ready: all play, on their usual timers
            # (only a ready phase that runs out puts those not ready on auto-play, bot/table/night.py)
            if not await self.begin_hand(rt):
                return Reply(t("ans.error", lang), alert=True)
            return Reply(t("ans.ok", lang), ok=True)

    async def stop(self, chat_id: int, user_id: int, is_admin: bool) -> str:
        """/stop: a group admin closes the table at once; players close it by a majority of their votes."""
        rt = self.tables.in_chat(chat_id)
        lang = self.people.chat_lang(chat_id, self.people.user_langs.get(user_id))
        if rt is None:
            return t("note.no_table", lang)
        lang = self.people.table_lang(rt)
        async with rt.lock:
            humans = rt.humans()
            if not is_admin:
                if humans and user_id not in humans:
                    return t("note.stop_denied", lang)
                rt.stop_votes.add(user_id)
                need = len(humans) // 2 + 1
                votes = len(rt.stop_votes & set(humans)) if humans else need
                if votes < need:
                    return t("note.stop_vote", lang, name=self.people.name(user_id), n=votes, need=need)
            await self.close(rt, stopped=True)
            return t("note.stopped", lang)

    async def set_lang(self, chat_id: int, lang: str) -> None:
        """/lang: a group's language (its table is shown again) or a player's (his panels are)."""
        if chat_id > 0:
            await self.people.set_user_lang(chat_id, lang)
        rt = self.tables.in_chat(chat_id)
        if rt is not None:
            async with rt.lock:
                await self.storage.set_chat_language(chat_id, lang, rt.id)
                self.people.chat_langs[chat_id] = lang
                rt.settings = dataclasses.replace(rt.settings, lang=lang)
                self.present.refresh(rt)
        elif chat_id < 0:
            await self.storage.set_chat_language(chat_id, lang)
            self.people.chat_langs[chat_id] = lang
        for rt in self.tables.of_user(chat_id):  # a private chat: this player's panels
            async with rt.lock:
                seat = rt.seat_of(chat_id)
                if seat is not None and rt.playing:
                    self.present.publish_seat(rt, seat)

    # ================================================================== under the table lock

    async def begin_hand(self, rt: TableRuntime, auto: frozenset[int] = frozenset()) -> bool:
        """Deal a hand with the lobby's seating (empty seats go to the AI; ``auto``: seats dealt on
        auto-play) and show it; False if it could not be stored."""
        if not await self.play.deal(rt, auto):
            return False
        self.present.show_lobby_started(rt)
        await self.play.resume(rt, fresh_group=True)
        return True

    async def after_hand(self, rt: TableRuntime, finished: FinishedHand) -> None:
        """A hand ended: the lobby comes back (a new message, under the hand's result) for the next one.
        Its message id, once sent, marks the result delivered (``Presenter.on_message``)."""
        # a result still on its way (group messages are paced) stays above this one: none is lost
        earlier = rt.summary + "\n\n" if len(rt.result_due) > 1 and rt.summary else ""
        rt.summary = earlier + finished.summary
        self.present.show_lobby(rt, fresh=True)

    async def close(
        self, rt: TableRuntime, note: str = "stopped in the chat", *, stopped: bool = False
    ) -> None:
        """Close the table (a hand in progress is abandoned), then its 大结算 (``finale``)."""
        await self.storage.close_table(rt.id, note)
        rt.closed = True
        self.play.stop_clock(rt)
        self.present.show_closed(rt)
        self.tables.remove(rt)
        if self.finale is not None:
            await self.finale(rt, stopped)

    async def _save_lobby(
        self, rt: TableRuntime, seats: list[int | None] | None = None, **settings: Any
    ) -> None:
        """Store the lobby's new seating, options and settings first (one transaction); memory follows only
        if the database took them. ``remember=True``: the room becomes the group's remembered one."""
        rt.table, rt.settings = await self.storage.update_lobby(rt.id, seats=seats, **settings)
        rt.seats = list(rt.table.seats)
        rt.options = dict(rt.table.options)

    async def _remembered(self, chat_id: int, rs: engine.Variant) -> Room | None:
        """The group's last room of this variant, if it still fits the variant (options, seat count)."""
        try:
            room = await self.storage.remembered_room(chat_id, rs.id)
            if room is None or room.seats not in rs.seat_counts:
                return None
            options = dict(rs.make_options(room.options))
        except (StorageError, engine.EngineError) as e:
            log.info("chat %s: remembered room not used: %s", chat_id, e)
            return None
        return options, room.seats, room_part(room)

    async def _seat_count(self, rt: TableRuntime, n: int) -> bool:
        """Make the table one of ``n`` seats (the players keep theirs, in order); False if more are seated."""
        humans = [u for u in rt.seats if u is not None]
        if len(humans) > n:
            return False
        seats = humans + [None] * (n - len(humans))
        ai = tuple(i for i in rt.settings.ai if i < n and seats[i] is None)
        await self._save_lobby(rt, seats, ai=ai, remember=True)
        return True

    @staticmethod
    def _free_seat(rt: TableRuntime) -> int | None:
        for i, user in enumerate(rt.seats):
            if user is None and i not in rt.settings.ai:
                return i
        for i, user in enumerate(rt.seats):
            if user is None:
                return i
        return None


def _cycle(choices: Sequence[int], current: int) -> int:
    if current in choices:
        return choices[(list(choices).index(current) + 1) % len(choices)]
    return choices[0]
