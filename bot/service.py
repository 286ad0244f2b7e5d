"""The table service: lobbies, hands, AI seats, timers and what each chat shows. No Telegram types here.

One ``TableRuntime`` per open table, each with its own ``asyncio.Lock``: every change to a table (a button,
a command, a timer, a restart) runs under that lock, so two players pressing at once are applied one after
the other against the current state version. An accepted action goes engine → storage (one logged action,
one transaction, with the state version it produced) → memory; only then is it shown. What is shown comes
from Observations (``views``), sent through the ``Outbox`` (edited in place, flood-friendly).

Decisions: a human seat that must act has a ``Pending`` decision with a deadline; its buttons carry the
version the decision started at, so a press is accepted while that decision is open (even if another seat
answered the same claim meanwhile) and answered "out of date" once it is over. On a deadline the bot plays
for the seat (take a win, else pass a claim or discard the drawn tile); after two timeouts in a row the
seat is on auto-play until the player presses "I'm back". AI seats (``bot.ai``) and auto-play seats act at
once, and so does a seat with a single legal action.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import engine
from engine import Act, Action, Event, Observation, Phase, State
from engine.ruleset import Ruleset
from storage import Hand, Period, Storage, StorageError, Table

from . import ai, render, views
from . import keyboards as kb
from .keyboards import Keyboard
from .meta import CLAIM_CHOICES, DISCARD_CHOICES, Meta, TableMeta
from .texts import lang_of, t

log = logging.getLogger(__name__)

Clock = Callable[[], float]
SeedFn = Callable[[int, int], int]

MAX_AUTO_STEPS = 2000  # a hand never needs this many moves in a row without a human
TIMEOUTS_BEFORE_AUTO = 2
ACTIVE_FOR = 10.0  # seconds after a press during which the player counts as looking at his panel


class Out(Protocol):
    """What the service needs from the outbox (bot/outbox.py)."""

    def live(
        self, chat_id: int, key: str, text: str, kb: Keyboard | None = None, *, fresh: bool = False
    ) -> None: ...
    def post(self, chat_id: int, text: str, kb: Keyboard | None = None) -> None: ...
    def adopt(self, chat_id: int, key: str, message_id: int) -> None: ...
    def forget(self, chat_id: int, key: str) -> None: ...


class TimerPort(Protocol):
    def arm(self, table_id: int, deadline: float) -> None: ...
    def cancel(self, table_id: int) -> None: ...


DmProbe = Callable[[int, str], Awaitable[bool]]  # send a DM; False when the user never started the bot


@dataclass(frozen=True, slots=True)
class Reply:
    """The short answer to a button press (or a command's text reply)."""

    text: str
    url: str | None = None
    alert: bool = False
    ok: bool = False  # the press changed something: the caller should let the table move on


@dataclass(slots=True)
class Pending:
    since: int  # the state version the decision started at
    deadline: float
    legal: tuple[Action, ...]
    key: tuple[Any, ...]


@dataclass(eq=False)
class TableRuntime:
    table: Table
    meta: TableMeta
    seats: list[int | None]  # the lobby: user id per seat (None: empty or AI, see meta.ai)
    options: dict[str, Any]
    hand: Hand | None = None
    state: State | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pending: dict[int, Pending] = field(default_factory=dict)
    timeouts: dict[int, int] = field(default_factory=dict)
    active: dict[int, float] = field(default_factory=dict)  # seat -> clock time of its last press
    recent: deque[Event] = field(default_factory=lambda: deque(maxlen=8))
    stop_votes: set[int] = field(default_factory=set)
    waiting_dm: set[int] = field(default_factory=set)  # pressed Join without a private chat
    dm_lost: set[int] = field(default_factory=set)  # seated players the bot cannot reach in private
    totals: dict[str, int] = field(default_factory=dict)
    next_dealer: int | None = None
    hands_played: int = 0
    closed: bool = False

    @property
    def id(self) -> int:
        return self.table.id

    @property
    def chat_id(self) -> int:
        return self.table.chat_id

    @property
    def ruleset(self) -> Ruleset:
        return engine.get_ruleset(self.table.variant)

    @property
    def playing(self) -> bool:
        return self.state is not None and self.hand is not None

    def hand_seats(self) -> tuple[int | None, ...]:
        return self.hand.seats if self.hand is not None else tuple(self.seats)

    def seat_of(self, user_id: int) -> int | None:
        seats = self.hand_seats()
        return seats.index(user_id) if user_id in seats else None

    def humans(self) -> list[int]:
        return [u for u in self.hand_seats() if u is not None]


def _score_key(rt: TableRuntime, seat: int) -> str:
    user = rt.hand_seats()[seat]
    return f"u{user}" if user is not None else f"ai{seat}"


def timeout_action(obs: Observation) -> Action:
    """What the bot plays for a player who let the clock run out: a win if there is one; a claim window
    is passed; on a turn the drawn tile goes (else the AI's discard); other choices as the AI would."""
    legal = obs.legal
    for a in legal:
        if a.act == Act.WIN:
            return a
    if obs.phase == Phase.CLAIM:
        return next((a for a in legal if a.act == Act.PASS), legal[0])
    if obs.phase == Phase.TURN and obs.drawn is not None:
        for a in legal:
            if a.act == Act.DISCARD and a.tile == obs.drawn:
                return a
    return ai.choose(obs, random.Random(f"timeout/{obs.variant}/{obs.version}/{obs.seat}"))


def decision_key(state: State, seat: int) -> tuple[Any, ...]:
    """Identifies one decision of a seat: it stays the same while other seats answer the same claim."""
    if state.phase == Phase.CLAIM and state.claim is not None:
        c = state.claim
        return ("claim", c.from_seat, c.tile, c.kind, state.discards_made, state.wall.remaining)
    if state.phase == Phase.CHOOSE:
        return ("choose",)
    return ("v", state.version)


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
    ) -> None:
        self.storage = storage
        self.meta = meta
        self.out = out
        self.timers = timers
        self.dm_probe = dm_probe
        self.clock = clock
        self.seed_fn: SeedFn = seed_fn or (lambda table_id, number: secrets.randbelow(2**62))
        self.bot_username = bot_username
        self.tables: dict[int, TableRuntime] = {}
        self.by_chat: dict[int, int] = {}
        self.names: dict[int, str] = {}
        self.user_langs: dict[int, str] = {}
        self._chat_locks: dict[int, asyncio.Lock] = {}
        self._chat_titles: dict[int, str] = {}
        self.actions = 0  # accepted actions (for the benchmark)

    # ================================================================== users and languages

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

    def dm_lang(self, user_id: int) -> str:
        return self.meta.chat_lang(user_id) or self.user_langs.get(user_id) or "zh"

    def chat_lang(self, chat_id: int, fallback: str | None = None) -> str:
        return self.meta.chat_lang(chat_id) or fallback or "zh"

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    def seat_names(self, rt: TableRuntime, lang: str, viewer: int | None = None) -> list[str]:
        out = []
        ai_n = 0
        for i, user in enumerate(rt.hand_seats()):
            if user is None:
                ai_n += 1
                name = t("ai.name", lang, n=ai_n)
            else:
                name = self.names.get(user, str(user))
            if viewer == i:
                name += t("you", lang)
            out.append(name)
        return out

    # ================================================================== tables

    def table_in(self, chat_id: int) -> TableRuntime | None:
        tid = self.by_chat.get(chat_id)
        return self.tables.get(tid) if tid is not None else None

    def tables_of(self, user_id: int) -> list[TableRuntime]:
        return [rt for rt in self.tables.values() if user_id in rt.hand_seats() or user_id in rt.seats]

    async def new_table(
        self, chat_id: int, user_id: int, variant: str, lang: str
    ) -> tuple[TableRuntime, bool]:
        """Open a table in a group (one per group); returns (table, created). The creator is seated."""
        lock = self._chat_locks.setdefault(chat_id, asyncio.Lock())
        async with lock:
            existing = self.table_in(chat_id)
            if existing is not None:
                return existing, False
            rs = engine.get_ruleset(variant)
            n = max(rs.seat_counts)
            table = await self.storage.create_table(chat_id, rs.id, None, [None] * n)
            tm = self.meta.table(table.id)
            tm.lang = self.chat_lang(chat_id, lang)
            tm.creator = user_id
            self.meta.save()
            rt = TableRuntime(table, tm, list(table.seats), dict(table.options))
            self.tables[table.id] = rt
            self.by_chat[chat_id] = table.id
            async with rt.lock:
                self._show_lobby(rt, fresh=True)
            return rt, True

    async def _save_seats(self, rt: TableRuntime, seats: list[int | None]) -> None:
        """Store the lobby's new seating first; memory follows only if the database took it."""
        rt.table = await self.storage.update_table(rt.id, seats=seats)
        rt.seats = list(rt.table.seats)
        self.meta.save()

    def _free_seat(self, rt: TableRuntime) -> int | None:
        for i, user in enumerate(rt.seats):
            if user is None and i not in rt.meta.ai:
                return i
        for i, user in enumerate(rt.seats):
            if user is None:
                return i
        return None

    async def join(self, table_id: int, user_id: int, *, from_dm: bool = False) -> Reply:
        rt = self.tables.get(table_id)
        lang = self.dm_lang(user_id) if from_dm else self._lang(rt)
        if rt is None or rt.closed:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            if user_id in rt.seats:
                return Reply(t("ans.already", lang))
            if rt.playing:
                return Reply(t("ans.started", lang))
            seat = self._free_seat(rt)
            if seat is None:
                return Reply(t("ans.full", lang))
            name = self.names.get(user_id, str(user_id))
            dlang = self.dm_lang(user_id)
            rs = rt.ruleset
            chat_title = self._chat_titles.get(rt.chat_id, "")
            text = t(
                "dm.joined", dlang, chat=chat_title or "—", tid=rt.id, variant=views.variant_name(rs, dlang)
            )
            if not await self.dm_probe(user_id, text):
                url = self.deep_link(f"j{rt.id}")
                if user_id not in rt.waiting_dm:
                    rt.waiting_dm.add(user_id)
                    glang = self._lang(rt)
                    self.out.post(
                        rt.chat_id, t("note.no_dm", glang, name=name), kb.deep_link_keyboard(url, glang)
                    )
                    self._show_lobby(rt)
                return Reply(t("ans.no_dm", lang), url=url)
            seats = list(rt.seats)
            seats[seat] = user_id
            await self._save_seats(rt, seats)
            rt.waiting_dm.discard(user_id)
            if seat in rt.meta.ai:
                rt.meta.ai.remove(seat)
            self._show_lobby(rt)
            return Reply(t("ans.joined", lang), ok=True)

    def see_chat(self, chat_id: int, title: str | None) -> None:
        if title:
            self._chat_titles[chat_id] = title

    async def lobby(self, table_id: int, user_id: int, op: str, arg: str = "") -> Reply:
        """Lobby buttons other than join: leave, AI seats, settings, start."""
        rt = self.tables.get(table_id)
        if rt is None or rt.closed:
            return Reply(t("ans.closed", self.dm_lang(user_id)))
        lang = self._lang(rt)
        if op == "go":
            return await self.start(table_id, user_id)
        async with rt.lock:
            if rt.playing:
                return Reply(t("ans.started", lang))
            seated = user_id in rt.seats
            anyone = not any(u is not None for u in rt.seats)
            if op == "l" and user_id in rt.waiting_dm:  # pressed Join without a private chat: cancel it
                rt.waiting_dm.discard(user_id)
                self._show_lobby(rt)
                return Reply(t("ans.left", lang), ok=True)
            if not seated and not (anyone and op != "l"):
                return Reply(t("ans.not_seated", lang))
            rs = rt.ruleset
            tm = rt.meta
            if op == "l":
                seats = [None if u == user_id else u for u in rt.seats]
                await self._save_seats(rt, seats)
                self._show_lobby(rt)
                return Reply(t("ans.left", lang), ok=True)
            if op == "a":
                free = [i for i, u in enumerate(rt.seats) if u is None and i not in tm.ai]
                if not free:
                    return Reply(t("ans.no_room", lang))
                tm.ai.append(free[0])
            elif op == "r":
                if not tm.ai:
                    return Reply(t("ans.no_ai", lang))
                tm.ai.pop()
            elif op == "s":
                tm.settings = True
            elif op == "b":
                tm.settings = False
            elif op == "o" and arg.isdigit() and int(arg) < len(rs.option_specs):
                spec = rs.option_specs[int(arg)]
                cur = rt.options.get(spec.name, spec.default)
                nxt = (
                    spec.choices[(spec.choices.index(cur) + 1) % len(spec.choices)]
                    if cur in spec.choices
                    else spec.default
                )
                rt.table = await self.storage.update_table(rt.id, options={spec.name: nxt})
                rt.options = dict(rt.table.options)
            elif op == "c":
                tm.claim_s = _cycle(CLAIM_CHOICES, tm.claim_s)
            elif op == "d":
                tm.discard_s = _cycle(DISCARD_CHOICES, tm.discard_s)
            elif op == "n" and len(rs.seat_counts) > 1:
                n = _cycle(tuple(sorted(rs.seat_counts)), len(rt.seats))
                humans = [u for u in rt.seats if u is not None]
                if len(humans) > n:
                    return Reply(t("ans.full", lang))
                await self._save_seats(rt, humans + [None] * (n - len(humans)))
                tm.ai = [i for i in tm.ai if i < n and rt.seats[i] is None]
            elif op == "t":
                tm.lang = "en" if tm.lang == "zh" else "zh"
                self.meta.chats.setdefault(rt.chat_id, {})["lang"] = tm.lang
            else:
                return Reply(t("ans.stale", lang))
            self.meta.save()
            self._show_lobby(rt)
            return Reply(t("ans.ok", tm.lang), ok=True)

    def _lang(self, rt: TableRuntime | None) -> str:
        if rt is None:
            return "zh"
        return self.meta.chat_lang(rt.chat_id) or rt.meta.lang

    def _seat_labels(self, rt: TableRuntime, lang: str) -> list[str]:
        out = []
        ai_n = 0
        for i, user in enumerate(rt.seats):
            if user is not None:
                out.append(self.names.get(user, str(user)))
            elif i in rt.meta.ai:
                ai_n += 1
                out.append("🤖 " + t("ai.name", lang, n=ai_n))
            else:
                out.append(t("lobby.empty", lang))
        for user in sorted(rt.waiting_dm):
            out_label = t("lobby.pending", lang, name=self.names.get(user, str(user)))
            out.append(f"… {out_label}")
        return out

    def _lobby_content(self, rt: TableRuntime) -> tuple[str, Keyboard]:
        lang = self._lang(rt)
        rs = rt.ruleset
        text = views.lobby_text(
            rs, rt.id, rt.options, rt.meta, self._seat_labels(rt, lang), rt.hands_played + 1, lang
        )
        if rt.meta.settings:
            keyboard = kb.settings_keyboard(rt.id, rs, rt.options, _with_lang(rt.meta, lang), len(rt.seats))
        else:
            keyboard = kb.lobby_keyboard(rt.id, lang, rt.hands_played > 0)
        return text, keyboard

    def _show_lobby(self, rt: TableRuntime, *, fresh: bool = False, prefix: str = "") -> None:
        text, keyboard = self._lobby_content(rt)
        if prefix:
            text = prefix + "\n\n" + text
        self.out.live(rt.chat_id, f"l{rt.id}", text, keyboard, fresh=fresh)

    # ================================================================== a hand

    async def start(self, table_id: int, user_id: int) -> Reply:
        rt = self.tables.get(table_id)
        if rt is None or rt.closed:
            return Reply(t("ans.closed", self.dm_lang(user_id)))
        lang = self._lang(rt)
        async with rt.lock:
            if rt.playing:
                return Reply(t("ans.started", lang))
            if user_id not in rt.seats:
                return Reply(t("ans.not_seated", lang))
            rt.meta.ai = [i for i, u in enumerate(rt.seats) if u is None]
            rt.meta.settings = False
            rt.meta.auto = []
            self.meta.save()
            number = rt.hands_played + 1
            seed = self.seed_fn(rt.id, number)
            dealer = rt.next_dealer if rt.next_dealer is not None and rt.next_dealer < len(rt.seats) else None
            try:
                hand, state = await self.storage.start_hand(rt.id, seed, dealer)
            except StorageError as e:
                log.warning("table %s: cannot start a hand: %s", rt.id, e)
                return Reply(t("ans.error", lang), alert=True)
            rt.hand, rt.state = hand, state
            rt.pending.clear()
            rt.timeouts.clear()
            rt.active.clear()
            rt.recent.clear()
            rt.stop_votes.clear()
            self.out.live(rt.chat_id, f"l{rt.id}", self._lobby_started_text(rt), None)
            await self._settle(rt, fresh_group=True)
            return Reply(t("ans.ok", lang), ok=True)

    def _lobby_started_text(self, rt: TableRuntime) -> str:
        text, _ = self._lobby_content(rt)
        lines = text.split("\n")
        return "\n".join(lines[:-1] + [t("lobby.started", self._lang(rt))])

    async def press(self, table_id: int, user_id: int, version: int, index: int) -> Reply:
        """A game button: the ``index``-th action of the decision that started at ``version``."""
        rt = self.tables.get(table_id)
        lang = self.dm_lang(user_id)
        if rt is None or rt.closed:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            state = rt.state
            if state is None or rt.hand is None:
                return Reply(t("ans.stale", lang))
            seat = rt.seat_of(user_id)
            if seat is None:
                return Reply(t("ans.not_seated", lang))
            p = rt.pending.get(seat)
            if p is None or not p.since <= version <= state.version or not 0 <= index < len(p.legal):
                return Reply(t("ans.stale", lang))
            action = p.legal[index]
            if action not in engine.legal_actions(state, seat):
                return Reply(t("ans.stale", lang))
            obs = engine.observe(state, seat)
            label = kb_label(obs, action, lang)
            try:
                await self._commit(rt, action)
            except StorageError as e:
                log.warning("table %s: action not stored (%s)", rt.id, type(e).__name__)  # e names the tile
                return Reply(t("ans.error", lang), alert=True)
            rt.timeouts[seat] = 0
            rt.active[seat] = self.clock()
            return Reply(t("ans.done", lang, label=label), ok=True)

    async def settle(self, table_id: int) -> None:
        """After an accepted press: AI and auto-play seats move, timers are re-armed, chats are updated."""
        rt = self.tables.get(table_id)
        if rt is None or rt.closed:
            return
        async with rt.lock:
            await self._settle(rt)

    async def on_due(self, table_id: int) -> None:
        """The turn timer of a table: play for every seat whose deadline has passed."""
        rt = self.tables.get(table_id)
        if rt is None or rt.closed:
            return
        async with rt.lock:
            if rt.state is None:
                return
            now = self.clock()
            while rt.state is not None and rt.state.phase != Phase.ENDED:
                state = rt.state
                due = [s for s, p in rt.pending.items() if p.deadline <= now + 0.001]
                if not due:
                    break
                seat = due[0]
                p = rt.pending.pop(seat)
                if p.key != decision_key(state, seat) or not engine.legal_actions(state, seat):
                    continue
                obs = engine.observe(state, seat)
                action = timeout_action(obs)
                lang = self._seat_lang(rt, seat)
                label = kb_label(obs, action, lang)
                try:
                    await self._commit(rt, action)
                except StorageError as e:
                    log.warning("table %s: timeout action not stored (%s)", rt.id, type(e).__name__)
                    break
                rt.timeouts[seat] = rt.timeouts.get(seat, 0) + 1
                user = rt.hand_seats()[seat]
                if user is not None and user not in rt.dm_lost:
                    self.out.post(user, t("note.timeout", lang, name=self.names.get(user, ""), label=label))
                if rt.timeouts[seat] >= TIMEOUTS_BEFORE_AUTO and seat not in rt.meta.auto:
                    self._set_auto(rt, seat, True)
            await self._settle(rt)

    async def im_back(self, table_id: int, user_id: int) -> Reply:
        rt = self.tables.get(table_id)
        lang = self.dm_lang(user_id)
        if rt is None or rt.closed:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            seat = rt.seat_of(user_id)
            if seat is None or not rt.playing:
                return Reply(t("ans.not_seated", lang))
            if seat not in rt.meta.auto:
                return Reply(t("ans.not_auto", lang))
            self._set_auto(rt, seat, False)
            rt.dm_lost.discard(user_id)
            await self._settle(rt, fresh_seats={seat})
            return Reply(t("ans.back", lang), ok=True)

    def _set_auto(self, rt: TableRuntime, seat: int, on: bool) -> None:
        user = rt.hand_seats()[seat]
        glang = self._lang(rt)
        name = self.names.get(user, str(user)) if user is not None else ""
        if on:
            if seat not in rt.meta.auto:
                rt.meta.auto.append(seat)
            rt.pending.pop(seat, None)
            self.out.post(rt.chat_id, t("note.auto_on", glang, name=name))
        else:
            if seat in rt.meta.auto:
                rt.meta.auto.remove(seat)
            rt.timeouts[seat] = 0
            self.out.post(rt.chat_id, t("note.auto_off", glang, name=name))
        self.meta.save()

    async def resend(self, user_id: int, chat_id: int | None = None) -> int:
        """/hand: send the user's private panels again as new messages; returns how many tables."""
        count = 0
        for rt in list(self.tables.values()):
            if chat_id is not None and rt.chat_id != chat_id:
                continue
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing:
                    continue
                rt.dm_lost.discard(user_id)
                self._publish_seat(rt, seat, fresh=True)
                count += 1
        return count

    async def dm_forbidden(self, user_id: int) -> None:
        """The outbox could not reach a player in private: play for him and tell the group how to fix it."""
        for rt in list(self.tables.values()):
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing or user_id in rt.dm_lost:
                    continue
                rt.dm_lost.add(user_id)
                glang = self._lang(rt)
                url = self.deep_link(f"b{rt.id}")
                self.out.post(
                    rt.chat_id,
                    t("note.dm_lost", glang, name=self.names.get(user_id, str(user_id))),
                    kb.deep_link_keyboard(url, glang),
                )
                if seat not in rt.meta.auto:
                    rt.meta.auto.append(seat)
                    rt.pending.pop(seat, None)
                    self.meta.save()
                await self._settle(rt)

    async def private_start(self, user_id: int, payload: str) -> str:
        """/start in private, with an optional deep-link payload (j<table>: join; b<table>: come back)."""
        lang = self.dm_lang(user_id)
        if payload[:1] == "j" and payload[1:].isdigit():
            reply = await self.join(int(payload[1:]), user_id, from_dm=True)
            if not reply.ok and reply.text != t("ans.already", lang):
                return t("dm.join_failed", lang, tid=payload[1:], why=reply.text)
            return reply.text if reply.ok else t("ans.already", lang)
        for rt in [rt for rt in self.tables.values() if user_id in rt.waiting_dm]:
            reply = await self.join(rt.id, user_id, from_dm=True)  # pressed Join, then Start without the link
            if reply.ok:
                return reply.text
        back = 0
        for rt in list(self.tables.values()):
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing:
                    continue
                if user_id in rt.dm_lost:
                    rt.dm_lost.discard(user_id)
                    if seat in rt.meta.auto:
                        self._set_auto(rt, seat, False)
                await self._settle(rt, fresh_seats={seat})
                back += 1
        return t("ans.back", lang) if back else t("dm.welcome", lang)

    # ------------------------------------------------------------------ the engine loop

    async def _commit(self, rt: TableRuntime, action: Action) -> None:
        """Apply one action and log it (one transaction, with its version); memory changes only after."""
        assert rt.state is not None and rt.hand is not None
        state, events = engine.apply(rt.state, action)
        final = state if state.phase == Phase.ENDED else None
        await self.storage.log_action(rt.hand.id, action, state.version, final=final)
        rt.state = state
        self.actions += 1
        for ev in events:
            if ev.kind not in views.QUIET_EVENTS:
                rt.recent.append(ev.public())

    def _is_bot_seat(self, rt: TableRuntime, seat: int) -> bool:
        return rt.hand_seats()[seat] is None or seat in rt.meta.auto

    async def _advance(self, rt: TableRuntime) -> None:
        """Let AI seats, auto-play seats and single-option decisions move until a human must decide."""
        for _ in range(MAX_AUTO_STEPS):
            state = rt.state
            if state is None or state.phase == Phase.ENDED:
                return
            mover = None
            for s in engine.to_act(state):
                if self._is_bot_seat(rt, s) or len(engine.legal_actions(state, s)) == 1:
                    mover = s
                    break
            if mover is None:
                return
            obs = engine.observe(state, mover)
            if rt.hand_seats()[mover] is None:
                assert rt.hand is not None
                action = ai.choose(obs, random.Random(f"{rt.id}/{rt.hand.id}/{mover}/{state.version}"))
            elif len(obs.legal) == 1:
                action = obs.legal[0]
            else:
                action = timeout_action(obs)
            await self._commit(rt, action)
        log.error("table %s: no human decision after %d automatic moves", rt.id, MAX_AUTO_STEPS)

    def _sync_pending(self, rt: TableRuntime) -> set[int]:
        """Open a decision (with its deadline) for each human seat that must act; returns the new ones."""
        state = rt.state
        new: set[int] = set()
        if state is None or state.phase == Phase.ENDED:
            rt.pending.clear()
            self.timers.cancel(rt.id)
            return new
        actors = [s for s in engine.to_act(state) if not self._is_bot_seat(rt, s)]
        for s in list(rt.pending):
            if s not in actors or rt.pending[s].key != decision_key(state, s):
                del rt.pending[s]
        now = self.clock()
        for s in actors:
            if s in rt.pending:
                continue
            limit = rt.meta.claim_s if state.phase == Phase.CLAIM else rt.meta.discard_s
            rt.pending[s] = Pending(
                state.version, now + limit, engine.legal_actions(state, s), decision_key(state, s)
            )
            new.add(s)
        if rt.pending:
            self.timers.arm(rt.id, min(p.deadline for p in rt.pending.values()))
        else:
            self.timers.cancel(rt.id)
        return new

    async def _settle(
        self, rt: TableRuntime, *, fresh_group: bool = False, fresh_seats: set[int] | None = None
    ) -> None:
        try:
            await self._advance(rt)
        except StorageError as e:
            log.warning("table %s: automatic move not stored (%s)", rt.id, type(e).__name__)
        new = self._sync_pending(rt)
        # A new decision is a new message (Telegram notifies the player) unless he is at the keyboard:
        # then his panel is edited in place, which keeps the chat calm and costs one request, not two.
        now = self.clock()
        fresh = {s for s in new if now - rt.active.get(s, -1e18) > ACTIVE_FOR}
        if fresh_seats:
            fresh |= fresh_seats
        self._publish(rt, fresh, fresh_group=fresh_group)
        if rt.state is not None and rt.state.phase == Phase.ENDED:
            await self._finish_hand(rt)

    # ------------------------------------------------------------------ what the chats show

    def _seat_lang(self, rt: TableRuntime, seat: int) -> str:
        user = rt.hand_seats()[seat]
        return self.dm_lang(user) if user is not None else self._lang(rt)

    def _group_content(self, rt: TableRuntime) -> tuple[str, Keyboard | None]:
        assert rt.state is not None and rt.hand is not None
        lang = self._lang(rt)
        names = self.seat_names(rt, lang)
        obs = views.public_observation(rt.state)
        auto = [names[s] for s in rt.meta.auto if s < len(names)]
        text = views.group_table_text(obs, lang, names, rt.id, rt.hand.number, list(rt.recent), auto)
        keyboard = kb.table_keyboard(rt.id, lang) if rt.state.phase != Phase.ENDED else None
        return text, keyboard

    def _panel_content(self, rt: TableRuntime, seat: int) -> tuple[str, Keyboard | None]:
        assert rt.state is not None and rt.hand is not None
        user = rt.hand_seats()[seat]
        assert user is not None
        lang = self.dm_lang(user)
        obs = engine.observe(rt.state, seat)
        names = self.seat_names(rt, lang, viewer=seat)
        rs = rt.ruleset
        header = t("dm.header", lang, variant=views.variant_name(rs, lang), tid=rt.id, n=rt.hand.number)
        auto = seat in rt.meta.auto
        p = rt.pending.get(seat)
        left = int(p.deadline - self.clock() + 0.5) if p is not None else None
        text = views.panel_text(obs, lang, names, header, left, auto)
        keyboard: Keyboard | None = None
        if obs.phase != Phase.ENDED:
            if auto:
                keyboard = kb.back_keyboard(rt.id, lang)
            elif p is not None:
                keyboard = kb.game_keyboard(obs, p.legal, rt.id, p.since, lang)
        return text, keyboard

    def _publish_seat(self, rt: TableRuntime, seat: int, *, fresh: bool = False) -> None:
        user = rt.hand_seats()[seat]
        if user is None or user in rt.dm_lost:
            return
        text, keyboard = self._panel_content(rt, seat)
        self.out.live(user, f"p{rt.id}", text, keyboard, fresh=fresh)

    def _publish(self, rt: TableRuntime, fresh_seats: set[int], *, fresh_group: bool = False) -> None:
        if rt.state is None:
            return
        text, keyboard = self._group_content(rt)
        self.out.live(rt.chat_id, f"g{rt.id}", text, keyboard, fresh=fresh_group)
        for seat, user in enumerate(rt.hand_seats()):
            if user is not None:
                self._publish_seat(rt, seat, fresh=seat in fresh_seats)

    async def _finish_hand(self, rt: TableRuntime) -> None:
        state, hand = rt.state, rt.hand
        assert state is not None and hand is not None and state.result is not None
        lang = self._lang(rt)
        names = self.seat_names(rt, lang)
        for seat, d in enumerate(state.result.deltas):
            key = _score_key(rt, seat)
            rt.totals[key] = rt.totals.get(key, 0) + d
        obs = views.public_observation(state)
        lines = [t("note.result_title", lang, n=hand.number), render.result_view(obs, lang, names)]
        totals = ", ".join(f"{names[s]} {rt.totals.get(_score_key(rt, s), 0):+d}" for s in range(len(names)))
        lines.append(t("note.totals", lang, totals=totals))
        rt.next_dealer = state.result.next_dealer
        rt.hands_played = hand.number
        rt.hand, rt.state = None, None
        rt.pending.clear()
        rt.meta.auto = []
        rt.dm_lost.clear()
        self.meta.save()
        self.timers.cancel(rt.id)
        self._show_lobby(rt, fresh=True, prefix="\n".join(lines))

    # ================================================================== stop, score, language

    async def stop(self, chat_id: int, user_id: int, is_admin: bool) -> str:
        rt = self.table_in(chat_id)
        lang = self.chat_lang(chat_id, self.user_langs.get(user_id))
        if rt is None:
            return t("note.no_table", lang)
        lang = self._lang(rt)
        async with rt.lock:
            humans = rt.humans()
            if not is_admin:
                if humans and user_id not in humans:
                    return t("note.stop_denied", lang)
                rt.stop_votes.add(user_id)
                need = len(humans) // 2 + 1
                votes = len(rt.stop_votes & set(humans)) if humans else need
                if votes < need:
                    return t(
                        "note.stop_vote", lang, name=self.names.get(user_id, str(user_id)), n=votes, need=need
                    )
            await self._close(rt)
            return t("note.stopped", lang)

    async def _close(self, rt: TableRuntime) -> None:
        await self.storage.close_table(rt.id, "stopped in the chat")
        rt.closed = True
        self.timers.cancel(rt.id)
        lang = self._lang(rt)
        if rt.state is not None and rt.hand is not None:
            text, _ = self._group_content(rt)
            self.out.live(rt.chat_id, f"g{rt.id}", text + "\n\n" + t("lobby.closed", lang), None)
            for seat, user in enumerate(rt.hand_seats()):
                if user is not None and user not in rt.dm_lost:
                    ptext, _ = self._panel_content(rt, seat)
                    self.out.live(
                        user, f"p{rt.id}", ptext + "\n\n" + t("dm.closed", self.dm_lang(user)), None
                    )
        text, _ = self._lobby_content(rt)
        self.out.live(rt.chat_id, f"l{rt.id}", text.split("\n")[0] + "\n" + t("lobby.closed", lang), None)
        self.tables.pop(rt.id, None)
        if self.by_chat.get(rt.chat_id) == rt.id:
            del self.by_chat[rt.chat_id]
        self.meta.drop_table(rt.id)

    async def leaderboard(self, chat_id: int, period: str, lang: str) -> str:
        per = Period(period) if period in ("all", "week", "month") else Period.ALL
        now = datetime.fromtimestamp(self.clock(), UTC)
        rows = await self.storage.leaderboard(chat_id, per, now=now, limit=20)
        lines = [t("score.title", lang, period=t(f"score.{per.value}", lang))]
        if not rows:
            lines.append(t("score.empty", lang))
        for i, r in enumerate(rows, 1):
            name = r.name or self.names.get(r.user_id, str(r.user_id))
            lines.append(
                t("score.line", lang, rank=i, name=name, points=r.points, hands=r.hands, wins=r.wins)
            )
        return "\n".join(lines)

    async def set_lang(self, chat_id: int, lang: str) -> None:
        self.meta.set_chat_lang(chat_id, lang)
        rt = self.table_in(chat_id)
        if rt is not None:
            async with rt.lock:
                rt.meta.lang = lang
                self.meta.save()
                if rt.playing:
                    self._publish(rt, set())
                else:
                    self._show_lobby(rt)
        for rt in self.tables_of(chat_id):  # a private chat: this player's panels
            async with rt.lock:
                seat = rt.seat_of(chat_id)
                if seat is not None and rt.playing:
                    self._publish_seat(rt, seat)

    # ================================================================== restart

    async def restore(self) -> None:
        """Rebuild every open table from storage (hands replayed from the action log) and go on."""
        restored = await self.storage.restore()
        users = {u for r in restored for u in r.table.seats if u is not None}
        users |= {u for r in restored if r.hand is not None for u in r.hand.seats if u is not None}
        for user in users:
            try:
                player = await self.storage.get_player(user)
            except StorageError:
                player = None
            if player is not None:
                self.names[user] = player.name
                if player.language:
                    self.user_langs[user] = player.language
        for r in restored:
            tm = self.meta.table(r.table.id)
            rt = TableRuntime(r.table, tm, list(r.table.seats), dict(r.table.options))
            self.tables[rt.id] = rt
            self.by_chat[rt.chat_id] = rt.id
            if tm.group_msg is not None:
                self.out.adopt(rt.chat_id, f"g{rt.id}", tm.group_msg)
            if tm.lobby_msg is not None:
                self.out.adopt(rt.chat_id, f"l{rt.id}", tm.lobby_msg)
            await self._load_totals(rt)
            async with rt.lock:
                lang = self._lang(rt)
                if r.error is not None and r.hand is not None:
                    # the reason quotes the logged action, which may be a hidden tile: not in logs or chats
                    log.warning("table %s: hand %s does not replay; abandoned", rt.id, r.hand.id)
                    try:
                        await self.storage.abandon_hand(r.hand.id, "does not replay")
                    except StorageError as e:
                        log.warning("table %s: %s", rt.id, e)
                    self.out.post(rt.chat_id, t("note.restore_failed", lang))
                    self._show_lobby(rt, fresh=True)
                elif r.state is None or r.hand is None or r.state.phase == Phase.ENDED:
                    self._show_lobby(rt)
                else:
                    rt.hand, rt.state = r.hand, r.state
                    tm.auto = [s for s in tm.auto if s < r.state.num_seats]
                    self.out.post(rt.chat_id, t("note.restored", lang))
                    humans = {s for s, u in enumerate(r.hand.seats) if u is not None}
                    await self._settle(rt, fresh_seats=humans)

    async def _load_totals(self, rt: TableRuntime) -> None:
        hands = await self.storage.table_hands(rt.id)
        for h in hands:
            res = h.result
            if not h.finished or not res or "deltas" not in res:
                continue
            rt.hands_played = max(rt.hands_played, h.number)
            rt.next_dealer = int(res.get("next_dealer", 0))
            for seat, d in enumerate(res["deltas"]):
                user = h.seats[seat] if seat < len(h.seats) else None
                key = f"u{user}" if user is not None else f"ai{seat}"
                rt.totals[key] = rt.totals.get(key, 0) + int(d)
        for h in hands:
            if h.finished:
                rt.hands_played = max(rt.hands_played, h.number)

    # ------------------------------------------------------------------ bookkeeping for the outbox

    def on_message(self, chat_id: int, key: str, message_id: int) -> None:
        """A live group message was (re)sent: remember its id so a restart edits it in place."""
        if key[:1] in ("g", "l") and key[1:].isdigit():
            tm = self.meta.tables.get(int(key[1:]))
            if tm is None:
                return
            if key[0] == "g":
                tm.group_msg = message_id
            else:
                tm.lobby_msg = message_id
            self.meta.save()


def kb_label(obs: Observation, action: Action, lang: str) -> str:
    return render.action_label(obs, action, lang)


def _cycle(choices: Sequence[int], current: int) -> int:
    if current in choices:
        return choices[(list(choices).index(current) + 1) % len(choices)]
    return choices[0]


def _with_lang(tm: TableMeta, lang: str) -> TableMeta:
    if tm.lang == lang:
        return tm
    copy = TableMeta(**{k: getattr(tm, k) for k in tm.__dataclass_fields__})
    copy.lang = lang
    return copy
