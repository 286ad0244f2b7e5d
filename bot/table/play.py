"""A hand in play: presses, the engine loop, decisions with deadlines, timeouts, auto-play, the hand's end.

An accepted action goes engine → storage (one logged action, one transaction, with the state version it
produced) → memory; only then is it shown (``bot/table/present.py``). The seats' play state that the action
changes (decisions opened or closed with their deadlines, timeouts in a row, auto-play) is written in the
same transaction, so a restart finds each decision where it was, deadline included.

Decisions: a human seat that must act has a ``Pending`` decision with a deadline; its buttons carry the hand
and the version the decision started at, so a press is accepted while that very decision is open (even if
another seat answered the same claim meanwhile) and answered "out of date" once it is over. A decision is
closed the moment an action on it is committed: a second press on it is stale even when what it names
happens to be legal in the new state (a double-click on "Kong" then "Discard"). On a deadline the bot plays
for the seat (take a win, else pass a claim or discard the drawn tile); after two timeouts in a row the
seat is on auto-play until the player presses "I'm back". AI seats (``bot.ai``) and auto-play seats act at
once, and so does a seat with a single legal action. When the hand ends, the table's totals are updated,
each player gets the result in private, and the hand-end hook (``HandEndHook``) decides what comes next.
Those results (and the notes on auto-play) are one-off messages: rendered before the action that causes them
and written to the database's outbox in its transaction, so that a stop or a dead worker cannot lose them
(``Presenter.queue_posts`` sends them, bot/table/restore.py those left over).

The clock: a decision's deadline is on its panel (and the group sees who is on the clock, never during a
claim window); ten seconds before it the panel is edited once with a warning (``Pending.warned``; a
decision too short for a useful warning gets none). Each player has one panel per hand, sent when the hand
is dealt and edited in place from then on; what the bot played for him on a timeout is a line on it.

The claim pause (docs/security.md): after every discard, and every kong that may be robbed, the table pauses
for the room's ``pause_s`` whether or not anyone may claim, and every chat shows the same thing meanwhile
(``Pause``; ``bot/table/present.py`` renders it). Only claim decisions open during a pause (stored like any
other); everything else waits for its end (the table's timer), when the decisions it held back open and
are stored. A human who may claim keeps his whole claim timer: if he takes longer than the pause, the wait
is longer - that is the one signal left, and it says only that some human may claim. The pause itself is
not stored: a restart ends it.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import secrets
from collections.abc import Collection, Mapping, Sequence

import engine
from bot import ai
from bot.members.access import Clock
from bot.members.people import People
from bot.table.present import Presenter
from bot.table.runtime import (
    FinishedHand,
    HandEndHook,
    HandLive,
    Moment,
    Pause,
    Pending,
    Reply,
    SeedFn,
    TableRuntime,
    Tables,
    TimerPort,
    decision_key,
)
from bot.text import render, views
from bot.text.texts import t
from bot.text.views import WARN_AT
from engine import Act, Action, ClaimKind, Event, EventKind, MeldKind, Observation, Phase, State
from storage import Facts, Post, PressAnswer, SeatPlay, Storage, StorageError
from storage.store import ActionLog

log = logging.getLogger(__name__)

MAX_AUTO_STEPS = 2000  # a hand never needs this many moves in a row without a human
TIMEOUTS_BEFORE_AUTO = 2
PAUSE_SLACK = 0.001  # a claim pause this close to its end is over (the timer may wake a hair early)


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


# public events that open a window someone may decide in, whoever can (开杠's tiles turned up or fallen,
# the last tile taken or shown): the moment the table pauses at, whether or not anyone can
_WINDOW_EVENTS = {
    EventKind.KONG_TILES: ClaimKind.KONG,
    EventKind.KONG_TILES_FALL: ClaimKind.KONG,
    EventKind.HAIDI_TAKE: ClaimKind.HAIDI,
    EventKind.HAIDI_SHOW: ClaimKind.HAIDI,
}


def claim_moment(before: State, action: Action, events: Sequence[Event] = ()) -> Moment | None:
    """The claimable moment ``action`` makes, judged by the rules alone (never by who could claim): a discard
    on a turn, or a kong on a turn of a kind the variant lets others rob (补杠 / 暗杠 where allowed); or the
    first window its ``events`` open (``_WINDOW_EVENTS``), with the public events up to it."""
    for i, ev in enumerate(events):
        window = _WINDOW_EVENTS.get(ev.kind)
        if window is not None:
            tiles = ev.tiles or ((ev.tile,) if ev.tile is not None else ())
            shown = tuple(e.public() for e in events[: i + 1] if e.kind not in views.QUIET_EVENTS)
            return Moment(window, ev.seat if ev.seat is not None else action.seat, tiles[0] if tiles else 0,
                          shown=shown)  # fmt: skip
    if before.phase != Phase.TURN or before.kong_tiles or action.tile is None:
        return None
    if action.act == Act.DISCARD:
        return Moment(ClaimKind.DISCARD, action.seat, action.tile)
    if action.act == Act.KONG:
        concealed = before.seats[action.seat].counts[action.tile] == 4
        kind = MeldKind.KONG_CONCEALED if concealed else MeldKind.KONG_ADDED
        if before.variant.robbable(before, kind):
            return Moment(ClaimKind.ROB, action.seat, action.tile, action.kong_mode)
    return None


def moment_events(m: Moment) -> tuple[Event, ...]:
    """The events the group's "recent" line shows for a moment (what the engine reports for a claim
    window)."""
    if m.shown:
        return m.shown
    if m.kind == ClaimKind.DISCARD:
        return (Event(EventKind.DISCARD, m.seat, m.tile),)
    return (Event(EventKind.KONG_DECLARED, m.seat, m.tile, mode=m.mode),)


def moment_event(m: Moment) -> Event:
    """The event the group's "recent" line shows for a moment (what the engine reports for a claim window)."""
    if m.kind == ClaimKind.DISCARD:
        return Event(EventKind.DISCARD, m.seat, m.tile)
    return Event(EventKind.KONG_DECLARED, m.seat, m.tile, mode=m.mode)


def open_decisions(
    rt: TableRuntime,
    state: State,
    auto: Collection[int],
    now: float,
    *,
    closed: int | None = None,
    paused: bool = False,
    current: Mapping[int, Pending] | None = None,
) -> dict[int, Pending]:
    """The human decisions open in ``state``: one that goes on (same seat, same decision) keeps its start and
    deadline, a new one gets the table's full timer; the decision of seat ``closed`` was just answered and
    does not go on. Seats the bot plays (AI, auto-play) and seats with a single legal action (played at
    once) have none, and during a claim pause (``paused``) only claim decisions open. ``current``: the
    decisions open before ``state`` (``rt.live.pending`` unless a run of actions is worked out ahead)."""
    if state.phase == Phase.ENDED or (paused and state.phase != Phase.CLAIM):
        return {}
    seats = rt.hand_seats()
    before = rt.live.pending if current is None else current
    out: dict[int, Pending] = {}
    for s in engine.to_act(state):
        if seats[s] is None or s in auto:
            continue
        legal = engine.legal_actions(state, s)
        if len(legal) < 2:
            continue
        key = decision_key(state, s)
        p = before.get(s) if s != closed else None
        if p is not None and p.key == key:
            out[s] = p
            continue
        limit = rt.settings.claim_s if state.phase == Phase.CLAIM else rt.settings.discard_s
        # a warning 10 s before the deadline, unless the whole decision is hardly longer than that
        out[s] = Pending(state.version, now + limit, legal, key, warned=limit < 2 * WARN_AT)
    return out


def seat_rows(
    n: int, auto: Collection[int], timeouts: Mapping[int, int], pending: Mapping[int, Pending]
) -> dict[int, SeatPlay]:
    """Every seat's play state as it is stored."""
    rows = {}
    for s in range(n):
        p = pending.get(s)
        since, deadline = (p.since, p.deadline) if p is not None else (None, None)
        rows[s] = SeatPlay(s, s in auto, timeouts.get(s, 0), since, deadline)
    return rows


@dataclasses.dataclass(slots=True)
class _Step:
    """One action worked out ahead of being stored (``Play._prepare``): what memory becomes once it is."""

    action: Action
    state: State
    events: tuple[Event, ...]
    final: State | None  # the state, when the action ended the hand
    pause: Pause | None
    pending: dict[int, Pending]
    auto: frozenset[int]
    timeouts: dict[int, int]
    stored: dict[int, SeatPlay]  # every seat's play state as stored with it
    changed: list[SeatPlay]  # the seats' rows it writes
    facts: Facts
    recent: tuple[Event, ...]  # the public events it adds to the group's "recent" line
    posts: list[Post]  # the one-off messages stored with it (the players' results of a hand it ends)
    forced: bool = False  # made for a player because it was his only move (his panel says so)


class Play:
    def __init__(
        self,
        tables: Tables,
        storage: Storage,
        timers: TimerPort,
        clock: Clock,
        seed_fn: SeedFn,
        people: People,
        present: Presenter,
        on_hand_end: HandEndHook,
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.timers = timers
        self.clock = clock
        self.seed_fn = seed_fn
        self.people = people
        self.present = present
        self.on_hand_end = on_hand_end
        self.actions = 0  # accepted actions (for the benchmark)

    # ================================================================== entry points (take the table lock)

    async def press(
        self,
        table_id: int,
        user_id: int,
        hand_id: int,
        decision: int,
        index: int,
        update_id: int | None = None,
    ) -> Reply:
        """A game button: action ``index`` of the presser's decision ``decision`` of hand ``hand_id``. Its
        answer is stored with the action, by ``update_id`` (the update that carried the press): delivered
        again after a restart, the press is answered with what it did (``TableService.delivered_again``)."""
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)
        if rt is None:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            found = self._decision(rt, user_id, hand_id, decision, lang)
            if isinstance(found, Reply):
                return found
            seat, p, state = found
            if not 0 <= index < len(p.legal):
                return Reply(t("ans.stale", lang))
            action = p.legal[index]
            if action not in engine.legal_actions(state, seat):
                return Reply(t("ans.stale", lang))
            obs = engine.observe(state, seat)
            done = t("ans.done", lang, label=self.present.action_label(obs, action, lang))
            answer = PressAnswer(update_id, done) if update_id is not None else None
            try:
                await self.commit(rt, action, timeouts={seat: 0}, answer=answer)
            except StorageError as e:
                log.warning("table %s: action not stored (%s)", rt.id, type(e).__name__)  # e names the tile
                return Reply(t("ans.error", lang), alert=True)
            # stored (his panel is shown again after): what the bot played for him last time goes, he is back
            # at the keyboard; so do 换三张's tiles received, at his first move of play
            rt.live.notes.pop(seat, None)
            if action.act != Act.CHOOSE:
                rt.live.news.pop(seat, None)
            return Reply(done, ok=True)

    async def pick(self, table_id: int, user_id: int, hand_id: int, decision: int, index: int) -> Reply:
        """A tile of the presser's hand picked or put back, in a decision made by picking tiles (换三张): only
        his panel changes (the pick is sent by its confirmation, a game button)."""
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)
        if rt is None:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            found = self._decision(rt, user_id, hand_id, decision, lang)
            if isinstance(found, Reply):
                return found
            seat, p, state = found
            obs = engine.observe(state, seat)
            pick = render.tile_pick(obs)
            if pick is None or not 0 <= index < len(obs.hand):
                return Reply(t("ans.stale", lang))
            picked = set(rt.live.picked(seat)) ^ {index}
            if not render.pick_extends(obs, [obs.hand[i] for i in picked]):
                return Reply(t("ans.stale", lang))
            rt.live.picks[seat] = (p.since, frozenset(picked))
            self.present.publish_seat(rt, seat)
            return Reply(t("ans.picked", lang, n=len(picked), k=pick.count), ok=True)

    @staticmethod
    def _decision(
        rt: TableRuntime, user_id: int, hand_id: int, decision: int, lang: str
    ) -> tuple[int, Pending, State] | Reply:
        """The presser's seat, his open decision ``decision`` of hand ``hand_id`` and the state (under the
        table's lock), or the answer to a press that is not his or out of date (or on a table that closed
        while the press waited for its lock)."""
        if rt.closed:
            return Reply(t("ans.closed", lang))
        seat = rt.seat_of(user_id)
        if seat is None:
            return Reply(t("ans.not_seated", lang))
        state = rt.state
        if state is None or rt.hand is None or rt.hand.id != hand_id:
            return Reply(t("ans.stale", lang))
        p = rt.live.pending.get(seat)
        if p is None or p.since != decision:
            return Reply(t("ans.stale", lang))
        return seat, p, state

    async def settle(self, table_id: int) -> None:
        """After an accepted press: AI and auto-play seats move, timers are re-armed, chats are updated."""
        rt = self.tables.open(table_id)
        if rt is None:
            return
        async with rt.lock:
            if rt.playing and not rt.closed:  # (the hand may be over once it holds the lock)
                await self.resume(rt)

    async def on_due(self, table_id: int) -> None:
        """The turn timer of a table: play for every seat whose deadline has passed."""
        rt = self.tables.open(table_id)
        if rt is None:
            return
        async with rt.lock:
            if rt.state is None or rt.closed:  # closed while it waited for the lock: nothing to play
                return
            now = self.clock()
            for seat, p in rt.live.pending.items():  # ten seconds left: his panel says so, once
                if not p.warned and p.deadline - WARN_AT <= now + 0.001:
                    p.warned = True
                    self.present.publish_seat(rt, seat)
            while rt.state is not None and rt.state.phase != Phase.ENDED:
                state = rt.state
                due = [s for s, p in rt.live.pending.items() if p.deadline <= now + 0.001]
                if not due:
                    break
                seat = due[0]
                p = rt.live.pending[seat]
                if p.key != decision_key(state, seat) or not engine.legal_actions(state, seat):
                    del rt.live.pending[seat]
                    continue
                obs = engine.observe(state, seat)
                action = timeout_action(obs)
                lang = self.present.seat_lang(rt, seat)
                label = self.present.action_label(obs, action, lang)
                count = rt.live.timeouts.get(seat, 0) + 1
                goes_auto = count >= TIMEOUTS_BEFORE_AUTO and seat not in rt.live.auto
                note = [self.present.auto_post(rt, seat, True)] if goes_auto else []
                try:
                    await self.commit(
                        rt, action, timeouts={seat: count}, auto=rt.live.auto | {seat} if goes_auto else None,
                        posts=note,
                    )  # fmt: skip
                except StorageError as e:
                    log.warning("table %s: timeout action not stored (%s)", rt.id, type(e).__name__)
                    break
                self.present.note_timeout(rt, seat, label)
                if note:
                    await self.present.queue_posts(rt.id)
            await self.resume(rt)

    async def im_back(self, table_id: int, user_id: int) -> Reply:
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)
        if rt is None:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            seat = rt.seat_of(user_id)
            if rt.closed:
                return Reply(t("ans.closed", lang))
            if seat is None or not rt.playing:
                return Reply(t("ans.not_seated", lang))
            if seat not in rt.live.auto:
                return Reply(t("ans.not_auto", lang))
            return await self.back(rt, seat, user_id, lang)

    async def back(self, rt: TableRuntime, seat: int, user_id: int, lang: str) -> Reply:
        """Under the table's lock: ``seat`` (on auto-play in the hand in play) plays for himself again."""
        if not await self._off_auto(rt, seat):
            return Reply(t("ans.error", lang), alert=True)
        rt.live.dm_lost.discard(user_id)
        await self.resume(rt)  # he pressed it on his panel: that panel is edited
        return Reply(t("ans.back", lang), ok=True)

    async def _off_auto(self, rt: TableRuntime, seat: int) -> bool:
        """Under the table's lock: ``seat``'s auto-play switched off, stored, and the note of the moves made
        for him dropped; False if it could not be stored (he stays on auto-play)."""
        try:
            await self.set_auto(rt, seat, False)
        except StorageError as e:
            log.warning("table %s: auto-play not switched off: %s", rt.id, e)
            return False
        rt.live.notes.pop(seat, None)
        return True

    async def go_auto(self, table_id: int, user_id: int) -> Reply:
        """托管 by choice (the panel's button, the Mini App): the bot plays for him from now on, as after two
        timeouts, until he presses "I'm back"; the group is told."""
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)
        if rt is None:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            seat = rt.seat_of(user_id)
            if rt.closed:
                return Reply(t("ans.closed", lang))
            if seat is None or not rt.playing:
                return Reply(t("ans.not_seated", lang))
            if seat in rt.live.auto:
                return Reply(t("ans.already_auto", lang))
            try:
                await self.set_auto(rt, seat, True, chosen=True)
            except StorageError as e:
                log.warning("table %s: auto-play not switched on: %s", rt.id, e)
                return Reply(t("ans.error", lang), alert=True)
            rt.live.notes.pop(seat, None)
            await self.resume(rt)  # his decision, if one is open, is played now
            return Reply(t("ans.auto", lang), ok=True)

    async def resend(self, user_id: int, chat_id: int | None = None) -> int:
        """/hand: send the user's private panels again as new messages; returns how many tables."""
        count = 0
        for rt in self.tables:
            if chat_id is not None and rt.chat_id != chat_id:
                continue
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing or rt.closed:
                    continue
                rt.live.dm_lost.discard(user_id)
                self.present.publish_seat(rt, seat, fresh=True)
                count += 1
        return count

    async def dm_forbidden(self, user_id: int) -> None:
        """The outbox could not reach a player in private: play for him and tell the group how to fix it."""
        for rt in self.tables:
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing or rt.closed or user_id in rt.live.dm_lost:
                    continue
                rt.live.dm_lost.add(user_id)
                note = [self.present.dm_lost_post(rt, user_id, self.present.deep_link(f"b{rt.id}"))]
                if seat not in rt.live.auto:
                    try:  # the note in the transaction that puts him on auto-play
                        await self._save_play(rt, auto=rt.live.auto | {seat}, posts=note)
                        note = []
                    except StorageError as e:
                        log.warning("table %s: auto-play not switched on: %s", rt.id, e)
                if note:  # not stored with auto-play: in a transaction of its own (then queued)
                    await self.present.send_posts(rt, note)
                else:
                    await self.present.queue_posts(rt.id)
                await self.resume(rt)

    async def come_back(self, user_id: int, table_id: int | None = None) -> int:
        """/start in private from a seated player: he is back - reachable again, off auto-play (whether a lost
        private chat, his timeouts or 托管 put him on it: the answer says "Welcome back", and he plays) - and
        gets fresh panels, at every table, or at ``table_id`` (the link of a lost chat) and at the others
        where his chat was lost too; returns how many tables."""
        back = 0
        for rt in self.tables:
            if table_id is not None and rt.id != table_id and user_id not in rt.live_dm_lost():
                continue  # another table: unless he was unreachable there too (his chat works again)
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing or rt.closed:
                    continue
                rt.live.dm_lost.discard(user_id)
                if seat in rt.live.auto:
                    await self._off_auto(rt, seat)
                await self.resume(rt, fresh_seats={seat})
                back += 1
        return back

    # ================================================================== under the table lock

    async def deal(self, rt: TableRuntime, auto: frozenset[int] = frozenset()) -> bool:
        """Start the table's next hand (seed, dealer) in storage and memory; False if it was not stored.
        ``auto``: seats whose player was not ready, dealt on auto-play. The caller shows it with
        ``resume(rt, fresh_group=True)``. The shuffle's salt is drawn here and kept secret with the seed
        until the hand ends (docs/verify.md)."""
        number = rt.hands_played + 1
        seed = self.seed_fn(rt.id, number)
        dealer = rt.next_dealer if rt.next_dealer is not None and rt.next_dealer < len(rt.seats) else None
        if dealer is None and rt.hands_played == 0:  # the first hand: the variant may name its dealer
            host = rt.seats.index(rt.settings.host) if rt.settings.host in rt.seats else None
            dealer = rt.variant.first_dealer(len(rt.seats), host)
        ai_seats = tuple(i for i, u in enumerate(rt.seats) if u is None)
        auto = frozenset(s for s in auto if s < len(rt.seats) and rt.seats[s] is not None)
        now = self.clock()
        first: dict[int, Pending] = {}

        def seats_for(state: State) -> list[SeatPlay]:  # the dealt hand's first decisions, stored with it
            first.clear()
            first.update(open_decisions(rt, state, auto, now, current={}))
            return list(seat_rows(state.num_seats, auto, {}, first).values())

        try:
            hand, state = await self.storage.start_hand(
                rt.id, seed, dealer, ai=ai_seats, seats_for=seats_for, salt=secrets.token_hex(16)
            )
        except StorageError as e:
            log.warning("table %s: cannot start a hand: %s", rt.id, e)
            return False
        rt.settings = dataclasses.replace(rt.settings, ai=ai_seats, editing=False, ready_until=None, ready=())
        rt.hand = HandLive(
            hand,
            state,
            pending=first,
            auto=auto,
            stored=seat_rows(state.num_seats, auto, {}, first),
            fresh_panels={s for s, u in enumerate(hand.seats) if u is not None},  # one new panel each
        )
        return True

    async def resume(
        self, rt: TableRuntime, *, fresh_group: bool = False, fresh_seats: set[int] | None = None
    ) -> None:
        """Move the hand on to the next human decision, open it (deadlines, timer), show every chat the
        new state; at the end of the hand, finish it."""
        await self.present.store_ids(rt)  # a message id the database refused before (a full disk)
        try:
            await self._advance(rt)
        except StorageError as e:
            log.warning("table %s: automatic move not stored (%s)", rt.id, type(e).__name__)
        self._arm(rt)
        # One panel per player per hand: sent new when the hand is dealt (or on request), then edited in
        # place - a decision does not send a new message.
        fresh, rt.live.fresh_panels = rt.live.fresh_panels | (fresh_seats or set()), set()
        self.present.publish(rt, fresh, fresh_group=fresh_group)
        if rt.state is not None and rt.state.phase == Phase.ENDED:
            await self._finish_hand(rt)

    async def commit(
        self,
        rt: TableRuntime,
        action: Action,
        *,
        timeouts: Mapping[int, int] | None = None,
        auto: frozenset[int] | None = None,
        posts: Sequence[Post] = (),
        answer: PressAnswer | None = None,
    ) -> None:
        """Apply one action and log it (one transaction, with its version, the seats' play state it
        changes: decisions, ``timeouts``, ``auto``, and the one-off messages it causes: ``posts``, the
        players' results if it ends the hand, and the ``answer`` of the press it applies); memory changes
        only after. The caller queues the posts (``Presenter.queue_posts``; the results: ``_finish_hand``)."""
        assert rt.hand is not None
        step = self._prepare(rt, rt.live, action, timeouts=timeouts, auto=auto)
        await self.storage.log_action(
            rt.hand.id, action, step.state.version, final=step.final, table_id=rt.id, seats=step.changed,
            facts=step.facts, posts=[*posts, *step.posts], answer=answer,
        )  # fmt: skip
        self._adopt(rt, step)

    def _prepare(
        self,
        rt: TableRuntime,
        base: HandLive | _Step,
        action: Action,
        *,
        timeouts: Mapping[int, int] | None = None,
        auto: frozenset[int] | None = None,
        recent: Sequence[Event] = (),
    ) -> _Step:
        """Work out ``action`` played after ``base`` (the table as in memory, or the step before it in a run
        not stored yet, whose public events ``recent`` are not in ``rt.live.recent`` yet): the state, the
        decisions, pause and play state it leads to, and the seats' rows to store with it; when it ends the
        hand, the players' results (rendered here, only for that final step). Changes nothing."""
        before = base.state
        assert before is not None
        state, events = engine.apply(before, action)
        final = state if state.phase == Phase.ENDED else None
        new_auto = base.auto if auto is None else auto
        new_timeouts = {**base.timeouts, **timeouts} if timeouts else base.timeouts
        now = self.clock()
        pause = None if final is not None else base.pause
        moment = claim_moment(before, action, events)
        if moment is not None and final is None and rt.settings.pause_s > 0:
            pause = Pause(now + rt.settings.pause_s, before, moment, self._recent_with(rt, moment, recent))
        paused = pause is not None and pause.until > now + PAUSE_SLACK
        pending = open_decisions(
            rt, state, new_auto, now, closed=action.seat, paused=paused, current=base.pending
        )
        rows = seat_rows(state.num_seats, new_auto, new_timeouts, pending)
        stored = base.stored
        changed = [r for s, r in rows.items() if stored.get(s, SeatPlay(s)) != r] if final is None else []
        facts = base.facts.after(before, action, events)
        return _Step(
            action, state, events, final, pause, pending, new_auto, new_timeouts,
            rows if final is None else seat_rows(state.num_seats, (), {}, {}), changed,
            facts,
            tuple(ev.public() for ev in events if ev.kind not in views.QUIET_EVENTS),
            self.present.result_posts(rt, final, facts.ways) if final is not None else [],
        )  # fmt: skip

    def _adopt(self, rt: TableRuntime, step: _Step) -> None:
        """Memory follows a stored action (``_prepare``'s step)."""
        h = rt.live
        if step.forced and h.state is not None:
            seat = step.action.seat
            self.present.note_forced(rt, seat, engine.observe(h.state, seat), step.action)
        h.state, h.facts, h.pause = step.state, step.facts, step.pause
        h.pending, h.auto, h.timeouts, h.stored = step.pending, step.auto, step.timeouts, step.stored
        self.actions += 1
        for ev in step.events:
            if ev.private and ev.tiles and ev.seat is not None and ev.kind == EventKind.VARIANT:
                h.news[ev.seat] = ev  # his own part of a variant's step (换三张: what he received)
        h.recent.extend(step.recent)

    @staticmethod
    def _recent_with(rt: TableRuntime, moment: Moment, recent: Sequence[Event] = ()) -> tuple[Event, ...]:
        """The group's "recent" line as the claim window of ``moment`` shows it (``recent``: public events
        of a run not stored yet, after ``rt.live.recent``)."""
        return (*rt.live.recent, *recent, *moment_events(moment))[-(rt.live.recent.maxlen or 8) :]

    async def set_auto(self, rt: TableRuntime, seat: int, on: bool, *, chosen: bool = False) -> None:
        """Put a seat on auto-play (the bot plays for it at once) or take it off; the group is told (the note
        stored with the change; ``chosen``: he asked for it, 托管)."""
        auto = rt.live.auto
        await self._save_play(
            rt, auto=auto | {seat} if on else auto - {seat}, timeouts=None if on else {seat: 0},
            posts=[self.present.auto_post(rt, seat, on, chosen=chosen)],
        )  # fmt: skip
        await self.present.queue_posts(rt.id)

    async def _save_play(
        self,
        rt: TableRuntime,
        *,
        auto: frozenset[int],
        timeouts: Mapping[int, int] | None = None,
        posts: Sequence[Post] = (),
    ) -> None:
        """Change seats' auto-play (and timeouts) without an action: the decisions that opens or closes
        are stored with it (and ``posts``, the notes that say so: the caller queues them), then memory
        follows."""
        if rt.state is None:
            return
        new_timeouts = {**rt.live.timeouts, **(timeouts or {})}
        pending = open_decisions(rt, rt.state, auto, self.clock(), paused=self._paused(rt))
        rows = seat_rows(rt.state.num_seats, auto, new_timeouts, pending)
        changed = [r for s, r in rows.items() if rt.live.stored.get(s, SeatPlay(s)) != r]
        if changed or posts:
            await self.storage.save_seats(rt.id, changed, posts)
        rt.live.pending, rt.live.auto, rt.live.timeouts, rt.live.stored = pending, auto, new_timeouts, rows

    def stop_clock(self, rt: TableRuntime) -> None:
        """No more timeouts for this table (it is closing)."""
        self.timers.cancel(rt.id)

    # ------------------------------------------------------------------ the engine loop

    async def _advance(self, rt: TableRuntime) -> None:
        """Let AI seats, auto-play seats and single-option decisions move until a human must decide.

        The moves up to the next human decision, claim pause or the hand's end are worked out ahead and
        stored in one trip to the database (``Storage.log_actions``: still one transaction each); memory
        then takes exactly the ones committed, so a failure part-way leaves it as the database is."""
        left = MAX_AUTO_STEPS
        while left > 0:
            if rt.state is None or rt.state.phase == Phase.ENDED or await self._held(rt):
                return
            run: list[_Step] = []
            recent: list[Event] = []
            base: HandLive | _Step = rt.live
            more = False  # the run stopped at a pause or the end, not at a human decision
            while left > 0:
                action = self._auto_action(rt, base)
                if action is None:
                    break
                step = self._prepare(rt, base, action, recent=recent)
                # a player not on auto-play moves here only when it is his only move: told when it is a play
                step.forced = rt.hand_seats()[action.seat] is not None and action.seat not in base.auto
                step.forced &= action.act in (Act.DISCARD, Act.CHOOSE)
                run.append(step)
                left -= 1
                if step.final is not None or step.pause is not None:
                    more = True
                    break
                recent.extend(step.recent)
                base = step
            if run:
                await self._store_run(rt, run)
            if not more:
                if left > 0:
                    return
                break
        log.error("table %s: no human decision after %d automatic moves", rt.id, MAX_AUTO_STEPS)

    def _auto_action(self, rt: TableRuntime, base: HandLive | _Step) -> Action | None:
        """The move the bot makes next in ``base``'s state (an AI or auto-play seat, or a single-option
        decision), or None when a human must decide (or the hand is over)."""
        state = base.state
        if state is None or state.phase == Phase.ENDED:
            return None
        seats = rt.hand_seats()
        mover = None
        for s in engine.to_act(state):
            if seats[s] is None or s in base.auto or len(engine.legal_actions(state, s)) == 1:
                mover = s
                break
        if mover is None:
            return None
        obs = engine.observe(state, mover)
        if len(obs.legal) == 1:
            return obs.legal[0]
        assert rt.hand is not None
        rng = random.Random(f"{rt.id}/{rt.hand.id}/{mover}/{state.version}")
        if seats[mover] is None:  # an AI seat plays at the room's strength
            return ai.choose(obs, rng, level=rt.settings.ai_level or ai.DEFAULT_LEVEL)
        return ai.choose(obs, rng)  # 托管 (auto-play): the strongest level, whatever the room's AI seats play

    async def _store_run(self, rt: TableRuntime, run: Sequence[_Step]) -> None:
        """Log a run of automatic moves in one trip (one transaction each); memory takes the ones committed,
        in order, and the error that stopped the rest is raised."""
        assert rt.hand is not None
        hand_id = rt.hand.id
        seqs, error = await self.storage.log_actions(
            [
                ActionLog(hand_id, s.action, s.state.version, s.final, rt.id, s.changed, s.facts, s.posts)
                for s in run
            ]
        )
        for step in run[: len(seqs)]:
            self._adopt(rt, step)
        if error is not None:
            raise error

    def _paused(self, rt: TableRuntime) -> bool:
        return rt.live.pause is not None and rt.live.pause.until > self.clock() + PAUSE_SLACK

    async def _held(self, rt: TableRuntime) -> bool:
        """True while a claim pause holds the hand. One whose time is up ends here (whether or not its timer
        ran yet), and the decisions it held back open: stored first, like any decision."""
        if rt.live.pause is None:
            return False
        if self._paused(rt):
            return True
        rt.live.pause = None
        await self._save_play(rt, auto=rt.live.auto)
        return False

    def _arm(self, rt: TableRuntime) -> None:
        """Arm the table's timer for its earliest deadline, warning or the end of a claim pause (or of a stop
        vote in progress: bot/table/vote.py)."""
        wake = [p.deadline for p in rt.live.pending.values()]
        wake += [p.deadline - WARN_AT for p in rt.live.pending.values() if not p.warned]
        if rt.live.pause is not None:
            wake.append(rt.live.pause.until)
        if rt.settings.vote_until is not None:
            wake.append(rt.settings.vote_until)
        if wake:
            self.timers.arm(rt.id, min(wake))
        else:
            self.timers.cancel(rt.id)

    async def _finish_hand(self, rt: TableRuntime) -> None:
        """The hand ended: add it to the table's totals, put the table back in its lobby, call the hook."""
        live = rt.live
        state, hand = live.state, live.row
        assert state.result is not None
        for seat, d in enumerate(state.result.deltas):
            key = rt.score_key(seat)
            rt.totals[key] = rt.totals.get(key, 0) + d
        summary = self.present.hand_summaries(rt)
        rt.hand_lines[hand.id] = self.present.hand_line(rt)  # for a summary of several (``set_summary``)
        await self.present.queue_posts(rt.id)  # the players' results, stored with the final action
        rt.next_dealer = state.result.next_dealer
        rt.hands_played = hand.number
        rt.hand = None  # everything of the hand goes with it
        rt.result_due.append(hand.id)  # due since the final action; delivered with the lobby after it
        self.timers.cancel(rt.id)
        await self.on_hand_end(rt, FinishedHand(hand, state, summary))
