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
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import engine
from bot.members.access import ADMIN, MEMBER, Access, JoinLinks
from bot.members.people import People
from bot.table import settings
from bot.table.play import Play
from bot.table.present import Presenter
from bot.table.runtime import DmProbe, FinishedHand, Reply, TableRuntime, Tables, Who
from bot.text import views
from bot.text.texts import t
from engine import Preset
from storage import RoomSettings, Storage, StorageError, TableSettings

log = logging.getLogger(__name__)

Room = tuple[Mapping[str, Any], int, TableSettings]  # a room to open: options, seat count, settings
_SEATED = ("ready", "vote_yes", "vote_no")  # per-seat settings a player takes with him when he leaves


# What a room keeps of a table's settings (or a remembered room): timers, claim pause, 局数, ready, the stop
# vote's timeout rule, the AI seats' level
ROOM_FIELDS = ("claim_s", "discard_s", "pause_s", "rounds", "ready_s", "vote_agree", "ai_level")


def room_fields(s: TableSettings | RoomSettings) -> dict[str, Any]:
    """The room's part of a table's settings (or of a remembered room), by field name."""
    return {name: getattr(s, name) for name in ROOM_FIELDS}


def room_part(s: TableSettings | RoomSettings) -> TableSettings:
    """What a room keeps of a table's settings (or a remembered room), alone."""
    return TableSettings(**room_fields(s))


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
        # called as a table closes, before it is shown closed (bot/table/vote.py: a vote in progress ends)
        self.closing: Callable[[TableRuntime], None] | None = None

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
    ) -> tuple[TableRuntime | int, bool]:
        """Open a table in a group (one per group); returns (table, created), or (the id of the group's open
        table, False) when another worker holds it and this one does not. The creator then joins.
        ``room``: its options, seat count and settings (a room opened again); else the group's last room
        of this variant (``remembered_room``), else the defaults. ``preset`` (``/newtable 血流成河``) is
        laid over them: its options, and its seat count where it fixes one."""
        async with self.tables.chat_lock(chat_id):
            existing = self.tables.in_chat(chat_id)
            if existing is not None:
                return existing, False
            opened = await self.storage.open_table_ids(chat_id=chat_id)  # another worker's (under the lock)
            if opened:
                return opened[0], False
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
                settings = dataclasses.replace(settings, **room_fields(same))
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
            if rt.settings.vote_until is not None:  # its voters are the players seated when it was asked
                return Reply(t("ans.vote.join", lang))
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
                    if user_id not in rt.dm_noted:  # Join, Leave, Join… posts the note once
                        rt.dm_noted.add(user_id)
                        await self.present.note_no_dm(rt, user_id, url)
                    self.present.show_lobby(rt)
                return Reply(t("ans.no_dm", lang), url=url)
            seats = list(rt.seats)
            seats[seat] = user_id
            await self._save_lobby(rt, seats, ai=tuple(s for s in rt.settings.ai if s != seat))
            rt.waiting_dm.discard(user_id)
            self.present.show_lobby(rt)
            return Reply(text if from_dm else t("ans.joined", lang), ok=True)

    async def lobby(
        self, table_id: int, user_id: int, op: str, a: int | None = None, b: int | None = None
    ) -> Reply:
        """Lobby buttons other than join, start and ready: leave (a seated player), AI seats and settings
        (the host or a group admin). Each op is one small method of ``OPS``."""
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)  # the presser's language (a toast), not the group's
        if rt is None:
            return Reply(t("ans.closed", lang))
        op_fn = OPS.get(op)
        if op_fn is None:
            return Reply(t("ans.stale", lang))
        refused = None if op == "l" else await self.refusal(rt, user_id, lang, manage=True)
        if refused is not None:
            return refused
        async with rt.lock:
            if rt.closed:  # stopped while Telegram was asked about him
                return Reply(t("ans.closed", lang))
            if rt.playing:
                return Reply(t("ans.started", lang))
            if op != "l" and rt.hands_played:  # the room's settings lock at its first hand
                return Reply(t("ans.locked", lang))
            reply = await op_fn(self, rt, user_id, lang, a, b)
            if reply.ok:
                self.present.show_lobby(rt)
            return reply

    async def _leave(self, rt: TableRuntime, user_id: int, lang: str, *_: int | None) -> Reply:
        if user_id in rt.waiting_dm:  # pressed Join without a private chat: cancel it
            rt.waiting_dm.discard(user_id)
            return Reply(t("ans.left", lang), ok=True)
        if user_id not in rt.seats:
            return Reply(t("ans.not_seated", lang))
        if rt.settings.vote_until is not None:  # its voters are the players seated when it was asked
            return Reply(t("ans.vote.leave", lang))
        await self.unseat(rt, {user_id})
        return Reply(t("ans.left", lang), ok=True)

    async def gone(self, rt: TableRuntime) -> set[int]:
        """The seated players Telegram says are no longer in the group (left, or removed): they are not dealt
        the next hand. Asked before the table's lock is taken; a failed check is no answer (he stays)."""
        return {u for u in set(rt.seats) if u is not None and await self.access.left(rt.chat_id, u)}

    async def unseat(self, rt: TableRuntime, users: set[int]) -> None:
        """``users`` leave their seats between hands (they left, or are no longer members of the group)."""
        seats = [None if u in users else u for u in rt.seats]
        sets = {k: tuple(s for s in getattr(rt.settings, k) if seats[s] is not None) for k in _SEATED}
        await self._save_lobby(rt, seats, **sets)

    async def _add_ai(self, rt: TableRuntime, user_id: int, lang: str, *_: int | None) -> Reply:
        free = [i for i, u in enumerate(rt.seats) if u is None and i not in rt.settings.ai]
        if not free:
            return Reply(t("ans.no_room", lang))
        await self._save_lobby(rt, ai=(*rt.settings.ai, free[0]))
        return Reply(t("ans.ok", lang), ok=True)

    async def _remove_ai(self, rt: TableRuntime, user_id: int, lang: str, *_: int | None) -> Reply:
        if not rt.settings.ai:
            return Reply(t("ans.no_ai", lang))
        await self._save_lobby(rt, ai=rt.settings.ai[:-1])
        return Reply(t("ans.ok", lang), ok=True)

    async def _open_settings(self, rt: TableRuntime, user_id: int, lang: str, *_: int | None) -> Reply:
        """The settings page (also: back from one setting's choices to the page)."""
        rt.setting_open = None
        await self._save_lobby(rt, editing=True)
        return Reply(t("ans.ok", lang), ok=True)

    async def _close_settings(self, rt: TableRuntime, user_id: int, lang: str, *_: int | None) -> Reply:
        rt.setting_open = None
        await self._save_lobby(rt, editing=False)
        return Reply(t("ans.ok", lang), ok=True)

    async def _open_setting(
        self, rt: TableRuntime, user_id: int, lang: str, row: int | None, _: int | None
    ) -> Reply:
        """One setting's choices, in place of the page."""
        if row is None or row >= len(self.setting_rows(rt)):
            return Reply(t("ans.stale", lang))
        rt.setting_open = row
        return Reply(t("ans.ok", lang), ok=True)

    async def _choose(
        self, rt: TableRuntime, user_id: int, lang: str, row: int | None, i: int | None
    ) -> Reply:
        """A setting set to one of its choices (stored first); the page comes back."""
        rows = self.setting_rows(rt)
        if row is None or i is None or row >= len(rows) or i >= len(rows[row].choices):
            return Reply(t("ans.stale", lang))
        setting, value = rows[row], rows[row].choices[i]
        rt.setting_open = None  # the page comes back
        if rt.settings.vote_until is not None and (setting.kind == "seats" or setting.name == "vote_agree"):
            # the vote in progress counts its answers by seat, and ends by the rule it began with
            return Reply(t("ans.vote.busy", lang), ok=True)
        if setting.kind == "option":
            await self._save_lobby(rt, options={setting.name: value}, remember=True)
        elif setting.kind == "field":
            await self._save_lobby(rt, **{setting.name: value}, remember=True)
        elif setting.kind == "seats":
            if value != len(rt.seats) and not await self._seat_count(rt, value):
                return Reply(t("ans.full", lang))
        elif setting.kind == "lang":
            await self.storage.set_chat_language(rt.chat_id, value, rt.id)
            self.people.chat_langs[rt.chat_id] = value
            rt.settings = dataclasses.replace(rt.settings, lang=value)
        return Reply(t("ans.ok", lang), ok=True)

    async def _preset(self, rt: TableRuntime, user_id: int, lang: str, i: int | None, _: int | None) -> Reply:
        """A preset: several options at once, and the seat count where it fixes one (三人两房)."""
        presets = rt.variant.presets
        if i is None or i >= len(presets):
            return Reply(t("ans.stale", lang))
        preset = presets[i]
        if preset.seats is not None and preset.seats != len(rt.seats):
            if rt.settings.vote_until is not None:
                return Reply(t("ans.vote.busy", lang))
            if not await self._seat_count(rt, preset.seats):
                return Reply(t("ans.full", lang))
        await self._save_lobby(rt, options=dict(preset.options), remember=True)
        return Reply(t("ans.ok", lang), ok=True)

    def setting_rows(self, rt: TableRuntime) -> list[settings.Row]:
        """The room's settings as the lobby's settings page lists them, in the group's language."""
        return settings.rows(rt.variant, rt.options, rt.settings, len(rt.seats), self.people.table_lang(rt))

    async def start(self, table_id: int, user_id: int) -> Reply:
        """Deal the next hand (the host or a group admin pressed Start): empty seats are played by the AI."""
        rt = self.tables.open(table_id)
        if rt is None:
            return Reply(t("ans.closed", self.people.dm_lang(user_id)))
        lang = self.people.dm_lang(user_id)  # the presser's language (a toast), not the group's
        refused = await self.refusal(rt, user_id, lang, manage=True)
        if refused is not None:
            return refused
        gone = await self.gone(rt)
        async with rt.lock:
            if rt.closed:  # stopped while Telegram was asked about him
                return Reply(t("ans.closed", lang))
            if rt.playing:
                return Reply(t("ans.started", lang))
            if gone & set(rt.seats):  # no longer in the group: not dealt in
                await self.unseat(rt, gone)
                self.present.show_lobby(rt)
            if not any(u is not None for u in rt.seats):
                return Reply(t("ans.need_player", lang))
            # between hands the host may deal before everyone is ready: all play, on their usual timers
            # (only a ready phase that runs out puts those not ready on auto-play, bot/table/night.py)
            if not await self.begin_hand(rt):
                return Reply(t("ans.error", lang), alert=True)
            return Reply(t("ans.ok", lang), ok=True)

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
        # a result still on its way (group messages are paced) is in this one's summary: none is lost
        self.present.set_summary(rt, finished.summary, rt.hand_lines.get(finished.hand.id, ""))
        rt.last_code = finished.hand.code if finished.hand.salt else ""  # the lobby's shuffle check button
        self.present.show_lobby(rt, fresh=True)

    async def close(
        self, rt: TableRuntime, note: str = "stopped in the chat", *, stopped: bool = False
    ) -> None:
        """Close the table (a hand in progress is abandoned), then its 大结算 (``finale``)."""
        await self.storage.close_table(rt.id, note)
        rt.closed = True
        self.play.stop_clock(rt)
        if self.closing is not None:
            self.closing(rt)
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


LobbyOp = Callable[[Lobby, TableRuntime, int, str, int | None, int | None], Awaitable[Reply]]
# The lobby's ops (bot/messages/presses.py ``LOBBY_OPS``) other than join, start and ready, which have their
# own entry points: one small method each.
OPS: dict[str, LobbyOp] = {
    "l": Lobby._leave,
    "a": Lobby._add_ai,
    "r": Lobby._remove_ai,
    "s": Lobby._open_settings,
    "b": Lobby._close_settings,
    "o": Lobby._open_setting,
    "v": Lobby._choose,
    "m": Lobby._preset,
}
