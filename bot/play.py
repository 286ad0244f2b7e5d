"""A hand in play: presses, the engine loop, decisions with deadlines, timeouts, auto-play, the hand's end.

An accepted action goes engine → storage (one logged action, one transaction, with the state version it
produced) → memory; only then is it shown (``bot/present.py``).

Decisions: a human seat that must act has a ``Pending`` decision with a deadline; its buttons carry the hand
and the version the decision started at, so a press is accepted while that very decision is open (even if
another seat answered the same claim meanwhile) and answered "out of date" once it is over. A decision is
closed the moment an action on it is committed: a second press on it is stale even when what it names
happens to be legal in the new state (a double-click on "Kong" then "Discard"). On a deadline the bot plays
for the seat (take a win, else pass a claim or discard the drawn tile); after two timeouts in a row the
seat is on auto-play until the player presses "I'm back". AI seats (``bot.ai``) and auto-play seats act at
once, and so does a seat with a single legal action. When the hand ends, the table's totals are updated and
the hand-end hook (``HandEndHook``) decides what comes next.

The claim pause (docs/security.md): after every discard, and every kong that may be robbed, the table pauses
for the room's ``pause_s`` whether or not anyone may claim, and every chat shows the same thing meanwhile
(``Pause``; ``bot/present.py`` renders it). Only claim decisions open during a pause; everything else waits
for its end (the table's timer). A human who may claim keeps his whole claim timer: if he takes longer than
the pause, the wait is longer - that is the one signal left, and it says only that some human may claim.
"""

from __future__ import annotations

import logging
import random

import engine
from engine import Act, Action, Event, Observation, Phase, State
from storage import Storage, StorageError

from . import ai, views
from .meta import Meta
from .people import People
from .present import Presenter
from .runtime import (
    Clock,
    FinishedHand,
    HandEndHook,
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
from .texts import t

log = logging.getLogger(__name__)

MAX_AUTO_STEPS = 2000  # a hand never needs this many moves in a row without a human
TIMEOUTS_BEFORE_AUTO = 2
ACTIVE_FOR = 10.0  # seconds after a press during which the player counts as looking at his panel


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


def claim_moment(before: State, action: Action) -> Moment | None:
    """The claimable moment ``action`` makes, judged by the rules alone (never by who could claim): a discard
    on a turn, or a kong on a turn of a kind the variant lets others rob (补杠 / 暗杠 where allowed)."""
    if before.phase != Phase.TURN or before.kong_tiles or action.tile is None:
        return None
    if action.act == Act.DISCARD:
        return Moment("discard", action.seat, action.tile)
    if action.act == Act.KONG:
        rs = before.ruleset
        concealed = before.seats[action.seat].counts[action.tile] == 4
        if rs.rob_concealed if concealed else rs.robbing_kong:
            return Moment("rob", action.seat, action.tile, action.detail)
    return None


def moment_event(m: Moment) -> Event:
    """The event the group's "recent" line shows for a moment (what the engine reports for a claim window)."""
    if m.kind == "discard":
        return Event("discard", m.seat, m.tile)
    return Event("kong_declared", m.seat, m.tile, m.detail)


class Play:
    def __init__(
        self,
        tables: Tables,
        storage: Storage,
        meta: Meta,
        timers: TimerPort,
        clock: Clock,
        seed_fn: SeedFn,
        people: People,
        present: Presenter,
        on_hand_end: HandEndHook,
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.meta = meta
        self.timers = timers
        self.clock = clock
        self.seed_fn = seed_fn
        self.people = people
        self.present = present
        self.on_hand_end = on_hand_end
        self.actions = 0  # accepted actions (for the benchmark)

    # ================================================================== entry points (take the table lock)

    async def press(self, table_id: int, user_id: int, hand_id: int, decision: int, index: int) -> Reply:
        """A game button: action ``index`` of the presser's decision ``decision`` of hand ``hand_id``."""
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)
        if rt is None:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            seat = rt.seat_of(user_id)
            if seat is None:
                return Reply(t("ans.not_seated", lang))
            state = rt.state
            if state is None or rt.hand is None or rt.hand.id != hand_id:
                return Reply(t("ans.stale", lang))
            p = rt.pending.get(seat)
            if p is None or p.since != decision or not 0 <= index < len(p.legal):
                return Reply(t("ans.stale", lang))
            action = p.legal[index]
            if action not in engine.legal_actions(state, seat):
                return Reply(t("ans.stale", lang))
            obs = engine.observe(state, seat)
            label = self.present.action_label(obs, action, lang)
            try:
                await self.commit(rt, action)
            except StorageError as e:
                log.warning("table %s: action not stored (%s)", rt.id, type(e).__name__)  # e names the tile
                return Reply(t("ans.error", lang), alert=True)
            rt.timeouts[seat] = 0
            rt.active[seat] = self.clock()
            return Reply(t("ans.done", lang, label=label), ok=True)

    async def settle(self, table_id: int) -> None:
        """After an accepted press: AI and auto-play seats move, timers are re-armed, chats are updated."""
        rt = self.tables.open(table_id)
        if rt is None:
            return
        async with rt.lock:
            await self.resume(rt)

    async def on_due(self, table_id: int) -> None:
        """The turn timer of a table: play for every seat whose deadline has passed."""
        rt = self.tables.open(table_id)
        if rt is None:
            return
        async with rt.lock:
            if rt.state is None:
                return
            now = self.clock()
            if rt.pause is not None and rt.pause.until <= now + 0.001:
                rt.pause = None  # the claim pause is over: the hand moves on (resume, below)
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
                lang = self.present.seat_lang(rt, seat)
                label = self.present.action_label(obs, action, lang)
                try:
                    await self.commit(rt, action)
                except StorageError as e:
                    log.warning("table %s: timeout action not stored (%s)", rt.id, type(e).__name__)
                    break
                rt.timeouts[seat] = rt.timeouts.get(seat, 0) + 1
                self.present.note_timeout(rt, seat, label, lang)
                if rt.timeouts[seat] >= TIMEOUTS_BEFORE_AUTO and seat not in rt.meta.auto:
                    self.set_auto(rt, seat, True)
            await self.resume(rt)

    async def im_back(self, table_id: int, user_id: int) -> Reply:
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)
        if rt is None:
            return Reply(t("ans.closed", lang))
        async with rt.lock:
            seat = rt.seat_of(user_id)
            if seat is None or not rt.playing:
                return Reply(t("ans.not_seated", lang))
            if seat not in rt.meta.auto:
                return Reply(t("ans.not_auto", lang))
            self.set_auto(rt, seat, False)
            rt.dm_lost.discard(user_id)
            await self.resume(rt, fresh_seats={seat})
            return Reply(t("ans.back", lang), ok=True)

    async def resend(self, user_id: int, chat_id: int | None = None) -> int:
        """/hand: send the user's private panels again as new messages; returns how many tables."""
        count = 0
        for rt in self.tables:
            if chat_id is not None and rt.chat_id != chat_id:
                continue
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing:
                    continue
                rt.dm_lost.discard(user_id)
                self.present.publish_seat(rt, seat, fresh=True)
                count += 1
        return count

    async def dm_forbidden(self, user_id: int) -> None:
        """The outbox could not reach a player in private: play for him and tell the group how to fix it."""
        for rt in self.tables:
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing or user_id in rt.dm_lost:
                    continue
                rt.dm_lost.add(user_id)
                self.present.note_dm_lost(rt, user_id, self.present.deep_link(f"b{rt.id}"))
                if seat not in rt.meta.auto:
                    rt.meta.auto.append(seat)
                    rt.pending.pop(seat, None)
                    self.meta.save()
                await self.resume(rt)

    async def come_back(self, user_id: int) -> int:
        """/start in private from a seated player: he is reachable again (auto-play off if a lost private
        chat put him on it) and gets fresh panels; returns how many tables."""
        back = 0
        for rt in self.tables:
            async with rt.lock:
                seat = rt.seat_of(user_id)
                if seat is None or not rt.playing:
                    continue
                if user_id in rt.dm_lost:
                    rt.dm_lost.discard(user_id)
                    if seat in rt.meta.auto:
                        self.set_auto(rt, seat, False)
                await self.resume(rt, fresh_seats={seat})
                back += 1
        return back

    # ================================================================== under the table lock

    async def deal(self, rt: TableRuntime) -> bool:
        """Start the table's next hand (seed, dealer) in storage and memory; False if it was not stored.
        The caller shows it with ``resume(rt, fresh_group=True)``."""
        number = rt.hands_played + 1
        seed = self.seed_fn(rt.id, number)
        dealer = rt.next_dealer if rt.next_dealer is not None and rt.next_dealer < len(rt.seats) else None
        try:
            hand, state = await self.storage.start_hand(rt.id, seed, dealer)
        except StorageError as e:
            log.warning("table %s: cannot start a hand: %s", rt.id, e)
            return False
        rt.hand, rt.state = hand, state
        rt.pending.clear()
        rt.pause = None
        rt.timeouts.clear()
        rt.active.clear()
        rt.recent.clear()
        rt.stop_votes.clear()
        return True

    async def resume(
        self, rt: TableRuntime, *, fresh_group: bool = False, fresh_seats: set[int] | None = None
    ) -> None:
        """Move the hand on to the next human decision, open it (deadlines, timer), show every chat the
        new state; at the end of the hand, finish it."""
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
        self.present.publish(rt, fresh, fresh_group=fresh_group)
        if rt.state is not None and rt.state.phase == Phase.ENDED:
            await self._finish_hand(rt)

    async def commit(self, rt: TableRuntime, action: Action) -> None:
        """Apply one action and log it (one transaction, with its version); memory changes only after."""
        assert rt.state is not None and rt.hand is not None
        before = rt.state
        state, events = engine.apply(before, action)
        final = state if state.phase == Phase.ENDED else None
        await self.storage.log_action(rt.hand.id, action, state.version, final=final)
        rt.state = state
        self.actions += 1
        rt.pending.pop(action.seat, None)  # the decision is closed: no second press on it
        prior = tuple(rt.recent)
        for ev in events:
            if ev.kind not in views.QUIET_EVENTS:
                rt.recent.append(ev.public())
        moment = claim_moment(before, action)
        if state.phase == Phase.ENDED:
            rt.pause = None
        elif moment is not None and rt.meta.pause_s > 0:
            recent = (*prior, moment_event(moment))[-(rt.recent.maxlen or 8) :]
            rt.pause = Pause(self.clock() + rt.meta.pause_s, before, moment, recent)

    def set_auto(self, rt: TableRuntime, seat: int, on: bool) -> None:
        """Put a seat on auto-play (the bot plays for it at once) or take it off; the group is told."""
        if on:
            if seat not in rt.meta.auto:
                rt.meta.auto.append(seat)
            rt.pending.pop(seat, None)
        else:
            if seat in rt.meta.auto:
                rt.meta.auto.remove(seat)
            rt.timeouts[seat] = 0
        self.present.note_auto(rt, seat, on)
        self.meta.save()

    def stop_clock(self, rt: TableRuntime) -> None:
        """No more timeouts for this table (it is closing)."""
        self.timers.cancel(rt.id)

    # ------------------------------------------------------------------ the engine loop

    def _is_bot_seat(self, rt: TableRuntime, seat: int) -> bool:
        return rt.hand_seats()[seat] is None or seat in rt.meta.auto

    async def _advance(self, rt: TableRuntime) -> None:
        """Let AI seats, auto-play seats and single-option decisions move until a human must decide."""
        for _ in range(MAX_AUTO_STEPS):
            state = rt.state
            if state is None or state.phase == Phase.ENDED or self.paused(rt):
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
            await self.commit(rt, action)
        log.error("table %s: no human decision after %d automatic moves", rt.id, MAX_AUTO_STEPS)

    def paused(self, rt: TableRuntime) -> bool:
        """A claim pause is on (one whose time is up is ended here, whether or not its timer ran yet)."""
        if rt.pause is not None and rt.pause.until <= self.clock() + 0.001:
            rt.pause = None
        return rt.pause is not None

    def _sync_pending(self, rt: TableRuntime) -> set[int]:
        """Open a decision (with its deadline) for each human seat that must act; returns the new ones.
        During a claim pause only claim decisions open; the rest wait for the pause to end."""
        state = rt.state
        new: set[int] = set()
        if state is None or state.phase == Phase.ENDED:
            rt.pending.clear()
            rt.pause = None
            self.timers.cancel(rt.id)
            return new
        actors = [s for s in engine.to_act(state) if not self._is_bot_seat(rt, s)]
        if self.paused(rt) and state.phase != Phase.CLAIM:
            actors = []
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
        wake = [p.deadline for p in rt.pending.values()]
        if rt.pause is not None:
            wake.append(rt.pause.until)
        if wake:
            self.timers.arm(rt.id, min(wake))
        else:
            self.timers.cancel(rt.id)
        return new

    async def _finish_hand(self, rt: TableRuntime) -> None:
        """The hand ended: add it to the table's totals, put the table back in its lobby, call the hook."""
        state, hand = rt.state, rt.hand
        assert state is not None and hand is not None and state.result is not None
        for seat, d in enumerate(state.result.deltas):
            key = rt.score_key(seat)
            rt.totals[key] = rt.totals.get(key, 0) + d
        summary = self.present.hand_summary(rt)
        rt.next_dealer = state.result.next_dealer
        rt.hands_played = hand.number
        rt.hand, rt.state = None, None
        rt.pending.clear()
        rt.pause = None
        rt.meta.auto = []
        rt.dm_lost.clear()
        self.meta.save()
        self.timers.cancel(rt.id)
        await self.on_hand_end(rt, FinishedHand(hand, state, summary))
