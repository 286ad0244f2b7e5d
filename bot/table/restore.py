"""After a restart: rebuild every open table from storage and carry on where it stopped, unseen.

Hands are replayed from the action log (``storage.restore``); a hand that no longer replays is abandoned
and its table goes back to its lobby. The group's messages and the players' panels of before are edited in
place (their ids are stored); a new message is sent only where the old one is gone. Each open decision keeps
its start and deadline; only a decision whose deadline passed while the bot was down gets a fresh timer, and
then (only then) the group is told the bot restarted. A hand result the group had not been shown yet is
shown now, once, above the lobby (several: one summary, a line each) and before anything else of the
table in the group. AI seats make any moves they had not made yet.

One-off messages the stop cut off (a player's result of a hand, a note: rows of the database's outbox,
written with what caused them) are sent first, in the order they were written, before a table's live
messages are shown again - also those of a table closed since (the 大结算 of a game night).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import engine
from bot.members.people import People
from bot.table.play import Play, open_decisions, seat_rows
from bot.table.present import Presenter
from bot.table.runtime import HandLive, Pending, TableRuntime, Tables, decision_key, score_key
from bot.text.views import WARN_AT
from engine import Phase
from storage import Facts, Hand, Restored, Storage, StorageError

log = logging.getLogger(__name__)


async def restore_tables(
    storage: Storage,
    tables: Tables,
    people: People,
    present: Presenter,
    play: Play,
    before: Callable[[TableRuntime], Awaitable[None]] | None = None,
) -> None:
    """Rebuild every open table from storage (hands replayed from the action log) and go on. ``before``
    runs for each table before it is rebuilt and its timers armed (a stop vote's countdown renewed)."""
    restored = await storage.restore()
    users = {u for r in restored for u in r.table.seats if u is not None}
    users |= {u for r in restored if r.hand is not None for u in r.hand.seats if u is not None}
    await people.load(users)
    for r in restored:
        rt = TableRuntime(r.table, r.settings, list(r.table.seats), dict(r.table.options))
        tables.add(rt)
        async with rt.lock:
            if before is not None:
                await before(rt)
            await rebuild(storage, rt, r, present, play)
    try:  # what closed tables still owe (each open table's were queued with it)
        present.queue_rows(await storage.unsent_posts())
    except StorageError as e:
        log.warning("unsent messages not read: %s", e)


async def rebuild(
    storage: Storage,
    rt: TableRuntime,
    r: Restored,
    present: Presenter,
    play: Play,
    *,
    resend: bool = False,
    quiet: bool = False,
) -> None:
    """One table from its stored record ``r``, into ``rt`` (fresh, or emptied by the caller), and go on;
    the caller holds the table's lock. A restart does it for every table; a worker does it for a table
    another worker moved (bot/telegram/cluster.py): both carry on from what the database says. ``resend``:
    show a hand in progress in new messages rather than edit the stored ones (a dead worker may have sent
    newer ones, whose buttons are for a decision already taken).
    ``quiet``: a hand in progress is only rebuilt in memory, its deadlines as stored, nothing shown or
    moved on (a worker alive handed the table over with every message sent and every timer armed).
    First of all, the table's one-off messages not sent yet (rows of the outbox: cut off by a stop or a
    dead worker) are queued, in the order they were written."""
    present.adopt(rt, dict(r.panels or {}))
    await present.queue_posts(rt.id)
    done = await load_totals(storage, rt)
    if r.error is not None and r.hand is not None:
        # the reason quotes the logged action, which may be a hidden tile: not in logs or chats
        log.warning("table %s: hand %s does not replay; abandoned", rt.id, r.hand.id)
        try:
            await storage.abandon_hand(r.hand.id, "does not replay")
        except StorageError as e:
            log.warning("table %s: %s", rt.id, e)
        await present.note_group(rt, "note.restore_failed")
        present.show_lobby(rt, fresh=True)
    elif r.state is None or r.hand is None or r.state.phase == Phase.ENDED:
        await _lobby(storage, rt, present, done)  # its buttons work in any of its messages: edited in place
    elif quiet:
        rt.hand = hand_live(r.hand, r.state, r.facts)
        reopen(rt, r, play.clock(), keep=True)
    else:
        due, final = await _last_result(storage, rt, present, done)
        if due:  # cut off by the stop
            present.show_lobby_started(rt, fresh=True)
        _show_final(rt, present, final, group=False)
        rt.hand = hand_live(r.hand, r.state, r.facts)
        if reopen(rt, r, play.clock()):
            await present.note_group(rt, "note.restored")
        try:
            await _store_play(storage, rt)
        except StorageError as e:
            log.warning("table %s: seats not stored after the restart: %s", rt.id, e)
        if resend:
            await play.resume(rt, fresh_group=True, fresh_seats=set(range(len(r.hand.seats))))
        else:
            await play.resume(rt)
    present.adopt_vote_prompts(rt)  # by seat: the hand's seats, or the lobby's, as rebuilt


def hand_live(hand: Hand, state: engine.State, facts: Facts | None) -> HandLive:
    """A hand in progress, as its log rebuilt it, with the facts gathered by that replay (血流成河: wins
    earlier in the hand keep how they were made)."""
    return HandLive(hand, state, facts=facts if facts is not None else Facts())


def reopen(rt: TableRuntime, r: Restored, now: float, *, keep: bool = False) -> bool:
    """The hand's play state as stored: auto-play, timeouts and each open decision with its start and
    deadline. A decision whose deadline passed while the bot was down starts its timer again (no one
    could press meanwhile; ``keep``: not so, the bot was not down); returns True if any did, i.e. a player
    was kept waiting by the restart."""
    assert r.state is not None
    state = r.state
    n = state.num_seats
    rt.live.auto = frozenset(p.seat for p in r.seats if p.auto and p.seat < n)
    rt.live.timeouts = {p.seat: p.timeouts for p in r.seats if p.timeouts and p.seat < n}
    limit = rt.settings.claim_s if state.phase == Phase.CLAIM else rt.settings.discard_s
    for p in r.seats:
        if p.seat < n and p.since is not None and p.deadline is not None and p.since <= state.version:
            legal = engine.legal_actions(state, p.seat)
            key = decision_key(state, p.seat)
            rt.live.pending[p.seat] = Pending(p.since, p.deadline, legal, key, warned=limit < 2 * WARN_AT)
    rt.live.stored = {p.seat: p for p in r.seats if p.seat < n}
    delayed = False
    for seat, open_ in list(rt.live.pending.items()):
        if open_.deadline < now and not keep:
            delayed = True
            del rt.live.pending[seat]  # opened again below, with a full timer
    # panels are edited in place, not sent anew
    rt.live.pending = open_decisions(rt, state, rt.live.auto, now)
    return delayed


async def _store_play(storage: Storage, rt: TableRuntime) -> None:
    assert rt.state is not None
    rows = seat_rows(rt.state.num_seats, rt.live.auto, rt.live.timeouts, rt.live.pending)
    changed = [p for s, p in rows.items() if rt.live.stored.get(s) != p]
    if changed:
        await storage.save_seats(rt.id, changed)
    rt.live.stored = rows


async def _lobby(storage: Storage, rt: TableRuntime, present: Presenter, done: list[Hand]) -> None:
    """A table between hands: the lobby as it was, with the last hand's result above it (sent now, in a new
    lobby message, if the group had not seen it yet) - the group's first message after the restart, so
    that restarts in a row cannot keep the result and its Ready from the group - and then the hand's last
    picture again, in place."""
    due, final = await _last_result(storage, rt, present, done)
    rt.restored_due = due
    present.show_lobby(rt, fresh=due)
    _show_final(rt, present, final, group=due)


def _show_final(rt: TableRuntime, present: Presenter, final: HandLive | None, *, group: bool) -> None:
    """The final state of the table's last hand shown again, in case the stop cut it off: in the panels,
    and in the group's table message (``group``: unless a newer hand has one). Edits: unchanged ones are
    no-ops."""
    if final is None:
        return
    rt.hand = final
    if group:
        present.publish(rt, set())
    else:
        for seat in range(len(final.seats)):
            present.publish_seat(rt, seat)
    rt.hand = None


async def _last_result(
    storage: Storage, rt: TableRuntime, present: Presenter, done: list[Hand]
) -> tuple[bool, HandLive | None]:
    """The summary of the table's last finished hand, shown above its lobby (``Presenter.set_summary``:
    with the hands whose result the group has not seen yet, one line each, when there are several); whether
    some are due, and the last hand as it ended (for ``_show_final``)."""
    if not done:
        return False, None
    due = [h for h in done if not h.result_delivered]
    rt.result_due = [h.id for h in due]
    latest, line, final = "", "", None
    for hand in [h for h in due if h is not done[-1]] + [done[-1]]:
        try:
            state, facts = await storage.rebuild_with_facts(hand.id)
        except StorageError as e:
            log.warning("table %s: a hand's result cannot be shown: %s", rt.id, e)
            continue
        rt.hand = HandLive(hand, state, facts=facts)
        line = present.hand_line(rt)
        if hand in due:
            rt.hand_lines[hand.id] = line
        if hand is done[-1]:
            latest, final = present.hand_summaries(rt), rt.hand
            rt.last_code = hand.code if hand.salt else ""
        rt.hand = None
    present.set_summary(rt, latest, line)
    return bool(due), final


async def load_totals(storage: Storage, rt: TableRuntime) -> list[Hand]:
    """The table's running totals, hands played and next dealer, from its finished hands; returns the hands
    that ended with a result, in order."""
    hands = await storage.table_hands(rt.id)
    done: list[Hand] = []
    for h in hands:
        res = h.result
        if not h.finished or not res or "deltas" not in res:
            continue
        rt.hands_played = max(rt.hands_played, h.number)
        rt.next_dealer = int(res.get("next_dealer", 0))
        done.append(h)
        for seat, d in enumerate(res["deltas"]):
            user = h.seats[seat] if seat < len(h.seats) else None
            key = score_key(user, seat)
            rt.totals[key] = rt.totals.get(key, 0) + int(d)
    for h in hands:
        if h.finished:
            rt.hands_played = max(rt.hands_played, h.number)
    return done
