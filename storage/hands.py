"""Hands: dealing, the action log, seats' play state, finishing (its result, score rows and facts) and
reading them back - a hand's record, a table restored after a restart, a hand by its public code.

The SQL of ``Storage``'s hand methods (``storage/store.py`` puts the pieces together). The action log is
the source of truth for a hand in progress: ``log_action`` is one INSERT of one row (a trigger in the schema
checks the version order, so a duplicate or a gap is refused by the database itself), and ``restore``
rebuilds each open table's hand by replaying it through the engine.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine

from . import stats
from .answers import INSERT_ANSWER, PressAnswer, answer_params
from .errors import (
    HandFinished,
    HandInProgress,
    InvalidInput,
    NotFound,
    ReplayError,
    StorageError,
    TableClosed,
    VersionConflict,
)
from .facts import Facts, SeatFacts, seat_facts
from .models import (
    FinishedHandRow,
    Hand,
    HandReplay,
    LoggedAction,
    Post,
    Restored,
    SeatPlay,
    Table,
    TableStatus,
    result_to_json,
    to_datetime,
)
from .posts import INSERT_POST, outbox_rows
from .runner import INTEGRITY, Db, Row, Runner, Work, check_int64, dumps, scalar
from .tables import (
    MAX_SEATS,
    TABLE_COLS,
    check_seats,
    check_settings,
    read_bot_state,
    read_table,
    resolve_options,
    table_from,
    variant_of,
    write_settings,
)

# a hand's public code: lower-case letters and digits that cannot be misread (no 0/o, 1/l/i), ~50 bits
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10
MIN_CODE, MAX_CODE = 4, 32  # what a typed code may look like before it is looked up

# a hand's version is its last action's (0 before the first): derived, so logging writes a single row
_HAND_VERSION = (
    "COALESCE((SELECT a.version FROM actions AS a WHERE a.hand_id = hands.id ORDER BY a.seq DESC LIMIT 1), 0)"
)
_HAND_COLS = (
    "id, table_id, number, seed, dealer, dealer_drawn, seats, options, "
    f"{_HAND_VERSION}, result, started_at, ended_at, result_delivered, code, salt"
)
_INSERT_HAND = f"""
    INSERT INTO hands (table_id, number, seed, dealer, dealer_drawn, seats, options, started_at, code, salt)
    VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM hands WHERE table_id = ?), ?, ?, ?, ?, ?, ?, ?, ?)
    RETURNING {_HAND_COLS}
"""
_INSERT_ACTION = """
    INSERT INTO actions (hand_id, seq, seat, action, version, at)
    VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE hand_id = ?), ?, ?, ?, ?)
    RETURNING seq
"""
_UPDATE_SEAT = (
    "UPDATE table_seats SET auto = ?, timeouts = ?, since = ?, deadline = ? WHERE table_id = ? AND seat = ?"
)
_CLEAR_PLAY = (
    "UPDATE table_seats SET auto = 0, timeouts = 0, since = NULL, deadline = NULL WHERE table_id = ?"
)


@dataclass(frozen=True, slots=True)
class ArchivedHand:
    """A finished hand to import in bulk (old archives, benchmarks). The caller vouches that ``result``
    is what replaying ``actions`` gives; ``Storage.rebuild`` can check it later."""

    seed: int
    dealer: int
    dealer_drawn: bool  # True if the dealer came from the seed (``new_hand(dealer=None)``)
    seats: Sequence[int | None]
    options: Mapping[str, Any]
    actions: Sequence[str]
    result: Mapping[str, Any]
    started_at: float
    ended_at: float


@dataclass(frozen=True, slots=True)
class ActionLog:
    """One action to log (``Storage.log_action``'s arguments), for ``Storage.log_actions``."""

    hand_id: int
    action: str | engine.Action
    version: int
    final: engine.State | None = None
    table_id: int | None = None
    seats: Sequence[SeatPlay] = ()
    facts: Facts | None = None
    posts: Sequence[Post] = ()  # one-off messages of ``table_id`` it causes (the outbox, v9)
    answer: PressAnswer | None = None  # the press it applies: its update id and answer (v13)


def new_code() -> str:
    """A fresh public hand code (``CODE_LENGTH`` characters of ``CODE_ALPHABET``)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: str) -> str | None:
    """A code as a user typed it (``#AB12…``, any case), or None if it cannot be one."""
    code = text.strip().removeprefix("#").lower()
    if not MIN_CODE <= len(code) <= MAX_CODE or not code.isascii() or not code.isalnum():
        return None
    return code


def _hand(row: Row) -> Hand:
    return Hand(
        id=row[0],
        table_id=row[1],
        number=row[2],
        seed=row[3],
        dealer=row[4],
        dealer_drawn=bool(row[5]),
        seats=tuple(json.loads(row[6])),
        options=json.loads(row[7]),
        version=row[8],
        result=json.loads(row[9]) if row[9] is not None else None,
        started_at=to_datetime(row[10]),
        ended_at=to_datetime(row[11]) if row[11] is not None else None,
        result_delivered=bool(row[12]),
        code=row[13] or "",
        salt=row[14],
    )


def _seat_rows(table_id: int, seats: Iterable[SeatPlay]) -> list[tuple[Any, ...]]:
    rows = []
    for p in seats:
        if not 0 <= p.seat < MAX_SEATS or p.timeouts < 0 or (p.since is None) != (p.deadline is None):
            raise InvalidInput(f"table {table_id}: not a seat's state: {p!r}")
        rows.append((int(p.auto), p.timeouts, p.since, p.deadline, table_id, p.seat))
    return rows


def replay_actions(variant: str, hand: Hand, actions: Iterable[LoggedAction]) -> engine.State:
    """Rebuild a hand from its record, checking that every step lands on the version that was logged."""
    return replay_with_facts(variant, hand, actions)[0]


def replay_with_facts(
    variant: str, hand: Hand, actions: Iterable[LoggedAction]
) -> tuple[engine.State, Facts]:
    """``replay_actions``, gathering the hand's facts on the way (``storage/facts.py``)."""
    try:
        rules = variant_of(variant)
        state = engine.new_hand(rules, hand.seed, hand.options, hand.dealer_arg, len(hand.seats))
    except (engine.EngineError, InvalidInput) as e:
        raise ReplayError(f"hand {hand.id} cannot be dealt again: {e}") from None
    return replay_from(hand, state, Facts(), actions)


def replay_from(
    hand: Hand,
    state: engine.State,
    facts: Facts,
    actions: Iterable[LoggedAction],
    seen: list[engine.Event] | None = None,
) -> tuple[engine.State, Facts]:
    """``replay_with_facts`` from a state already reached (the hand's actions after it): a worker catching up
    with the actions another worker logged. ``seen``: the actions' events are added to it."""
    for a in actions:
        try:
            before, action = state, engine.Action.parse(a.action)
            state, events = engine.apply(before, action)
        except engine.EngineError as e:
            raise ReplayError(f"hand {hand.id}: action #{a.seq} {a.action!r} does not replay: {e}") from None
        facts = facts.after(before, action, events)
        if seen is not None:
            seen.extend(events)
        if state.version != a.version:
            raise ReplayError(
                f"hand {hand.id}: action #{a.seq} {a.action!r} gave version {state.version}, "
                f"the log says {a.version}"
            )
    if state.version != hand.version:
        raise ReplayError(
            f"hand {hand.id}: replay reached version {state.version}, the hand says {hand.version}"
        )
    return state, facts


async def _get_hand(db: Db, hand_id: int) -> Hand:
    rows = list(await db.execute_fetchall(f"SELECT {_HAND_COLS} FROM hands WHERE id = ?", (hand_id,)))
    if not rows:
        raise NotFound(f"no hand {hand_id}")
    return _hand(rows[0])


def _final_result(state: engine.State) -> dict[str, Any]:
    if state.phase != engine.Phase.ENDED or state.result is None:
        raise InvalidInput(f"the hand has not ended (phase {state.phase}); only an ended hand is finished")
    return result_to_json(state)


async def _finish(
    db: Db,
    hand_id: int,
    state: engine.State,
    result: dict[str, Any],
    now: float,
    facts: Facts | None = None,
) -> None:
    """Write the result, its score rows and its facts (``derive``), and clear the seats' play state; inside
    the caller's transaction."""
    hand = await _get_hand(db, hand_id)
    if hand.finished:
        raise HandFinished(f"hand {hand_id} has already ended")
    if (state.seed, state.dealer, state.num_seats) != (hand.seed, hand.dealer, len(hand.seats)):
        raise InvalidInput(f"that final state is not hand {hand_id}'s (different seed, dealer or seats)")
    if state.version != hand.version:
        raise VersionConflict(
            f"hand {hand_id}: the final state is version {state.version} but the log is at version "
            f"{hand.version}; log every action before finishing",
            hand_id,
            hand.version,
            state.version,
        )
    await db.execute(
        "UPDATE hands SET result = ?, ended_at = ?, result_delivered = 0 WHERE id = ?",
        (dumps(result), now, hand_id),
    )
    await stats.score_rows(db, hand_id)
    await db.execute(_CLEAR_PLAY, (hand.table_id,))
    await derive(db, hand_id, facts.seats(state) if facts is not None else None)


async def derive(db: Db, hand_id: int, known: list[SeatFacts] | None = None) -> None:
    """A finished hand's per-seat facts (``known``, else by replaying its log), recorded with the ratings
    they move (``stats.record_hand``); inside the caller's transaction. A hand that no longer replays gets
    neither (its ``derive_pending`` is cleared all the same)."""
    hand = await _get_hand(db, hand_id)
    rows = list(
        await db.execute_fetchall("SELECT chat_id, variant FROM tables WHERE id = ?", (hand.table_id,))
    )
    deltas = (hand.result or {}).get("deltas")
    await db.execute("UPDATE hands SET derive_pending = 0 WHERE id = ?", (hand_id,))
    if not rows or not isinstance(deltas, list) or hand.ended_at is None:
        return
    chat_id, variant = int(rows[0][0]), str(rows[0][1])
    facts = known
    if facts is None:
        acts = await db.execute_fetchall(
            "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
        )
        try:
            start = engine.new_hand(
                variant_of(variant), hand.seed, hand.options, hand.dealer_arg, len(hand.seats)
            )
            _, facts = seat_facts(start, [engine.Action.parse(r[0]) for r in acts])
        except (engine.EngineError, InvalidInput):
            return
    await stats.record_hand(db, hand, chat_id, variant, deltas, facts)


async def _action_refused(db: Db, e: Exception, hand_id: int, text: str, version: int) -> StorageError:
    """Explain why the order triggers refused an action (the statement changed nothing)."""
    msg = str(e)
    if "no such hand" in msg or "FOREIGN KEY" in msg:
        return NotFound(f"no hand {hand_id}; {text!r} was not logged")
    if "hand ended" in msg:
        return HandFinished(f"hand {hand_id} has ended; {text!r} was not logged")
    if "version out of order" in msg:
        # PostgreSQL's trigger says the logged version (its transaction is aborted: no more reads in it)
        detail = getattr(e, "detail", None)
        logged = (
            int(detail)
            if isinstance(detail, str) and detail.isdigit()
            else ((await _get_hand(db, hand_id)).version)
        )
        why = "already logged: applied twice?" if version <= logged else "actions are missing in between"
        return VersionConflict(
            f"hand {hand_id}: refused {text!r} with version {version}: the log is at version {logged}, "
            f"so the next action must have version {logged + 1} ({why})",
            hand_id,
            logged + 1,
            version,
        )
    return StorageError(f"hand {hand_id}: {text!r} was not logged: {msg}")


class Hands(Runner):
    """Hands (``hands``), the action log (``actions``), seats' play state (``table_seats``), and the facts
    derived from them (``seat_stats`` and ``ratings`` through ``storage/stats.py``)."""

    async def start_hand(
        self,
        table_id: int,
        seed: int,
        dealer: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        ai: Sequence[int] | None = None,
        seats_for: Callable[[engine.State], Iterable[SeatPlay]] | None = None,
        salt: str | None = None,
    ) -> tuple[Hand, engine.State]:
        """Deal the table's next hand and record it; returns the record and the dealt state (version 0).

        ``options`` overlay the table's for this hand only. ``dealer=None`` lets the engine draw it from the
        seed; the dealer actually used is stored, and whether it was drawn (replay needs to know).
        Refused while another hand of the table is unfinished. In the same transaction every seat's play
        state starts afresh (``seats_for(dealt state)`` gives the first decisions), ``ai`` replaces the
        lobby's AI seats, the lobby leaves its settings page and its ready phase ends, and the last hand's
        table message and panels are forgotten (the new hand's are new messages). ``salt`` is kept
        secret with the seed for the hand's shuffle commitment. The hand gets a fresh public code.
        """
        check_int64("seed", seed)
        if salt is not None and (not salt.isascii() or not salt.isalnum() or not 8 <= len(salt) <= 64):
            raise InvalidInput("a shuffle salt is 8-64 letters or digits")
        lobby = check_settings(
            {
                "editing": False,
                "table_msg": None,
                "ready_until": None,
                "ready": (),
                **({"ai": ai} if ai is not None else {}),
            }
        )
        now = self._now()

        async def run(db: Db) -> tuple[Hand, engine.State]:
            table = await read_table(db, table_id)
            if table.status != TableStatus.OPEN:
                raise TableClosed(f"table {table_id} is closed")
            variant = variant_of(table.variant)
            opts = resolve_options(variant, {**table.options, **(options or {})})
            if len(table.seats) not in variant.seat_counts:
                raise InvalidInput(
                    f"table {table_id} has {len(table.seats)} seats; {variant.id} needs {variant.seat_counts}"
                )
            try:
                state = engine.new_hand(variant, seed, opts, dealer, len(table.seats))
            except engine.EngineError as e:
                raise InvalidInput(str(e)) from None
            try:
                rows = await db.execute_fetchall(
                    _INSERT_HAND,
                    (
                        table_id,
                        table_id,
                        seed,
                        state.dealer,
                        int(dealer is None),
                        dumps(list(table.seats)),
                        dumps(opts),
                        now,
                        new_code(),
                        salt,
                    ),
                )
            except INTEGRITY as e:
                if "hands.table_id" in str(e) or "hands_unfinished" in str(e):
                    raise HandInProgress(
                        f"table {table_id} already has an unfinished hand; finish or abandon it first"
                    ) from None
                raise
            await db.execute(_CLEAR_PLAY, (table_id,))
            # the new hand's panels are new messages (below the last result), as its table message is: a
            # restart before they are sent must not edit the last hand's panels in their place
            await db.execute("DELETE FROM panels WHERE table_id = ?", (table_id,))
            await write_settings(db, table_id, lobby)
            if seats_for is not None:
                await db.executemany(_UPDATE_SEAT, _seat_rows(table_id, seats_for(state)))
            return _hand(list(rows)[0]), state

        return await self._write(run)

    async def save_seats(self, table_id: int, seats: Iterable[SeatPlay], posts: Sequence[Post] = ()) -> None:
        """Seats' play state (auto-play, timeouts, open decisions) changed without an action, e.g. a player
        came back from auto-play: one transaction, with the ``posts`` that say so (the outbox)."""
        rows = _seat_rows(table_id, seats)
        post_rows = outbox_rows(table_id, posts, self._now)

        async def run(db: Db) -> None:
            await db.executemany(_UPDATE_SEAT, rows)
            if post_rows:
                await db.executemany(INSERT_POST, post_rows)

        await self._write(run)

    async def result_delivered(self, hand_ids: Sequence[int], lobby_msg: int | None = None) -> None:
        """The group has seen a finished hand's result (in the lobby message ``lobby_msg``, stored too)."""

        async def run(db: Db) -> None:
            for hand_id in hand_ids:
                hand = await _get_hand(db, hand_id)
                await db.execute("UPDATE hands SET result_delivered = 1 WHERE id = ?", (hand_id,))
                if lobby_msg is not None:
                    await write_settings(db, hand.table_id, check_settings({"lobby_msg": lobby_msg}))

        await self._write(run)

    async def log_action(
        self,
        hand_id: int,
        action: str | engine.Action,
        version: int,
        *,
        final: engine.State | None = None,
        table_id: int | None = None,
        seats: Sequence[SeatPlay] = (),
        facts: Facts | None = None,
        posts: Sequence[Post] = (),
        answer: PressAnswer | None = None,
    ) -> int:
        """Persist one accepted action with the state version it produced; returns its sequence number.

        One transaction: the action is logged with its version, or not at all. ``version`` must be exactly
        the logged version + 1, otherwise ``VersionConflict`` (a gap, or the same action applied twice) and
        nothing is written. Pass the resulting state as ``final`` when the action ended the hand: the result
        and scores are then written in the same transaction, so a crash cannot separate them (and every
        seat's play state is cleared). ``seats``: the seats of ``table_id`` whose play state (decisions,
        timeouts, auto-play) the action changed, written in the same transaction. ``facts``: the hand's
        facts gathered as it was played, this action included (else finishing replays the hand once).
        ``posts``: one-off messages of ``table_id`` the action causes (the players' results of a hand it
        ends), written to the outbox in the same transaction. ``answer``: the button press it applies (its
        update id and the answer it got), recorded in the same transaction (``press_answer``).
        """
        fn, single = self._action_work(
            ActionLog(hand_id, action, version, final, table_id, seats, facts, posts, answer)
        )
        return await (self._single(fn) if single else self._write(fn))

    async def log_actions(self, entries: Sequence[ActionLog]) -> tuple[list[int], StorageError | None]:
        """Persist a run of actions (the AI seats' moves after a press), each in its own transaction exactly
        as ``log_action`` would, in order (on SQLite in one trip to the database thread); the first that
        fails stops the run. Returns the sequence numbers of those committed (a prefix of ``entries``) and
        the error that stopped the rest (None if all were logged): the caller keeps in memory exactly that
        prefix."""
        works = [self._action_work(e) for e in entries]  # bad input raises here, before anything is written
        return await self._write_each(works)

    def _action_work(self, entry: ActionLog) -> tuple[Work[int], bool]:
        """The store function that logs ``entry`` (see ``log_action``), and whether it is a single statement
        (atomic by itself) rather than a transaction."""
        hand_id, action, version, final = entry.hand_id, entry.action, entry.version, entry.final
        table_id, seats, facts = entry.table_id, entry.seats, entry.facts
        try:
            parsed = engine.Action.parse(action) if isinstance(action, str) else action
        except engine.EngineError as e:
            raise InvalidInput(f"hand {hand_id}: cannot log {action!r}: {e}") from None
        text = str(parsed)
        if not isinstance(version, int) or isinstance(version, bool):
            raise InvalidInput(f"version must be an integer, not {version!r}")
        result = None
        if final is not None:
            if final.version != version:
                raise InvalidInput(f"the final state has version {final.version}, the action says {version}")
            result = _final_result(final)
        now = self._now()
        params = (hand_id, hand_id, parsed.seat, text, version, now)
        seat_rows = _seat_rows(table_id, seats) if seats and table_id is not None else []
        post_rows = outbox_rows(table_id, entry.posts, self._now)
        answer_row = answer_params(entry.answer, now) if entry.answer is not None else None

        async def insert(db: Db) -> int:
            try:
                rows = await db.execute_fetchall(_INSERT_ACTION, params)
            except INTEGRITY as e:
                raise await _action_refused(db, e, hand_id, text, version) from None
            return int(list(rows)[0][0])

        if result is None and not seat_rows and not post_rows and answer_row is None:
            return insert, True

        async def insert_and_finish(db: Db) -> int:
            seq = await insert(db)
            if answer_row is not None:
                await db.execute(INSERT_ANSWER, answer_row)
            if seat_rows:
                await db.executemany(_UPDATE_SEAT, seat_rows)
            if post_rows:
                await db.executemany(INSERT_POST, post_rows)
            if final is not None and result is not None:
                await _finish(db, hand_id, final, result, now, facts)
            return seq

        return insert_and_finish, False

    async def finish_hand(self, hand_id: int, state: engine.State, facts: Facts | None = None) -> Hand:
        """Record an ended hand's result and per-player score rows, from its final state.

        The state's version must equal the logged version, so the scores always describe the logged hand.
        """
        result = _final_result(state)
        now = self._now()

        async def run(db: Db) -> Hand:
            await _finish(db, hand_id, state, result, now, facts)
            return await _get_hand(db, hand_id)

        return await self._write(run)

    async def abandon_hand(self, hand_id: int, note: str = "") -> Hand:
        """End a hand without scores (players left, the table broke up). Its log stays for replay."""
        now = self._now()

        async def run(db: Db) -> Hand:
            hand = await _get_hand(db, hand_id)
            if hand.finished:
                raise HandFinished(f"hand {hand_id} has already ended")
            await db.execute(
                "UPDATE hands SET result = ?, ended_at = ? WHERE id = ?",
                (dumps({"reason": "abandoned", "note": note}), now, hand_id),
            )
            return await _get_hand(db, hand_id)

        return await self._write(run)

    async def get_hand(self, hand_id: int) -> Hand:
        async def run(db: Db) -> Hand:
            return await _get_hand(db, hand_id)

        return await self._single(run)

    async def table_hands(self, table_id: int) -> list[Hand]:
        """Every hand of a table, in order."""

        async def run(db: Db) -> list[Hand]:
            rows = await db.execute_fetchall(
                f"SELECT {_HAND_COLS} FROM hands WHERE table_id = ? ORDER BY number", (table_id,)
            )
            return [_hand(r) for r in rows]

        return await self._single(run)

    async def hand_replay(self, hand_id: int) -> HandReplay:
        """A hand's full record: the hand, its variant and every logged action in order."""

        async def run(db: Db) -> HandReplay:
            hand = await _get_hand(db, hand_id)
            variant = await scalar(db, "SELECT variant FROM tables WHERE id = ?", (hand.table_id,))
            rows = await db.execute_fetchall(
                "SELECT seq, seat, action, version, at FROM actions WHERE hand_id = ? ORDER BY seq",
                (hand_id,),
            )
            acts = tuple(LoggedAction(r[0], r[1], r[2], r[3], to_datetime(r[4])) for r in rows)
            return HandReplay(hand, str(variant), acts)

        return await self._read(run)

    async def rebuild(self, hand_id: int) -> engine.State:
        """The hand's current state, rebuilt from its log through the engine (``ReplayError`` if it does
        not replay to the logged version)."""
        return (await self.rebuild_with_facts(hand_id))[0]

    async def rebuild_with_facts(self, hand_id: int) -> tuple[engine.State, Facts]:
        """``rebuild``, with the hand's facts gathered on the way (its wins: how each was made)."""
        rec = await self.hand_replay(hand_id)
        return replay_with_facts(rec.variant, rec.hand, rec.actions)

    async def restore(self, table_id: int | None = None) -> list[Restored]:
        """After a restart: every open table with its current hand rebuilt from the log.

        A hand whose log already reaches the end but whose result was never written (the writer died between
        ``log_action`` and ``finish_hand``) is finished here, so its scores are not lost. A hand that does not
        replay is reported in ``Restored.error`` rather than stopping the others. ``table_id``: that table
        only (empty if it is not open): a worker rebuilding a table another worker moved.
        """

        async def load(db: Db) -> list[tuple[Table, int | None]]:
            rows = await db.execute_fetchall(
                f"""
                SELECT {", ".join("t." + c.strip() for c in TABLE_COLS.split(","))}, h.id
                FROM tables AS t LEFT JOIN hands AS h ON h.table_id = t.id AND h.ended_at IS NULL
                WHERE t.status = 'open' AND (CAST(? AS BIGINT) IS NULL OR t.id = ?) ORDER BY t.id
                """,
                (table_id, table_id),
            )
            return [(table_from(r[:7]), r[7]) for r in rows]

        out: list[Restored] = []
        for table, hand_id in await self._single(load):
            hand, state, error, facts = None, None, None, Facts()
            if hand_id is not None:
                rec = await self.hand_replay(hand_id)
                hand = rec.hand
                try:
                    state, facts = replay_with_facts(rec.variant, rec.hand, rec.actions)
                except ReplayError as e:
                    error = str(e)
                if state is not None and state.phase == engine.Phase.ENDED:
                    hand = await self.finish_hand(hand_id, state, facts)

            async def read(db: Db, tid: int = table.id) -> Any:
                return await read_bot_state(db, tid)

            settings, seats, panels = await self._read(read)
            out.append(Restored(table, hand, state, error, settings, seats, panels, facts))
        return out

    async def table_delta(
        self, table_id: int, since: int
    ) -> tuple[Restored, tuple[LoggedAction, ...]] | None:
        """An open table as stored (its ``state`` left None) with its unfinished hand's actions after version
        ``since``: what a worker that holds the table in memory at ``since`` needs to catch up, applying
        them to the state it has (``replay_from``). None if the table is not open."""

        async def run(db: Db) -> tuple[Restored, tuple[LoggedAction, ...]] | None:
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {TABLE_COLS} FROM tables WHERE id = ? AND status = 'open'", (table_id,)
                )
            )
            if not rows:
                return None
            hands = list(
                await db.execute_fetchall(
                    f"SELECT {_HAND_COLS} FROM hands WHERE table_id = ? AND ended_at IS NULL", (table_id,)
                )
            )
            hand = _hand(hands[0]) if hands else None
            acts: tuple[LoggedAction, ...] = ()
            if hand is not None:
                acts = tuple(
                    LoggedAction(r[0], r[1], r[2], r[3], to_datetime(r[4]))
                    for r in await db.execute_fetchall(
                        "SELECT seq, seat, action, version, at FROM actions "
                        "WHERE hand_id = ? AND version > ? ORDER BY seq",
                        (hand.id, since),
                    )
                )
            settings, seats, panels = await read_bot_state(db, table_id)
            return Restored(table_from(rows[0]), hand, None, None, settings, seats, panels), acts

        return await self._read(run)

    async def import_hands(self, table_id: int, hands: Iterable[ArchivedHand]) -> int:
        """Bulk-load finished hands into a table in one transaction (archives, benchmarks); returns how
        many. Each hand's actions go in with one ``executemany`` and pass the same order triggers."""

        async def run(db: Db) -> int:
            table = await read_table(db, table_id)
            variant = variant_of(table.variant)
            count = 0
            for h in hands:
                check_int64("seed", h.seed)
                seats = check_seats(variant, h.seats)
                opts = resolve_options(variant, h.options)
                try:
                    acts = [engine.Action.parse(a) for a in h.actions]
                except engine.EngineError as e:
                    raise InvalidInput(f"archived hand {count + 1}: {e}") from None
                deltas = h.result.get("deltas", [])
                if not isinstance(deltas, list) or len(deltas) not in (0, len(seats)):
                    raise InvalidInput(f"archived hand {count + 1}: the result needs one delta per seat")
                rows = await db.execute_fetchall(
                    _INSERT_HAND,
                    (
                        table_id,
                        table_id,
                        h.seed,
                        h.dealer,
                        int(h.dealer_drawn),
                        dumps(list(seats)),
                        dumps(opts),
                        h.started_at,
                        new_code(),
                        None,
                    ),
                )
                hid = int(list(rows)[0][0])
                await db.executemany(
                    "INSERT INTO actions (hand_id, seq, seat, action, version, at) VALUES (?, ?, ?, ?, ?, ?)",
                    [(hid, i, a.seat, str(a), i, h.started_at) for i, a in enumerate(acts, 1)],
                )
                await db.execute(
                    "UPDATE hands SET result = ?, ended_at = ?, derive_pending = ? WHERE id = ?",
                    (dumps(dict(h.result)), h.ended_at, int(isinstance(h.result.get("deltas"), list)), hid),
                )
                await stats.score_rows(db, hid)
                count += 1
            return count

        return await self._write(run)

    async def derive_pending(self) -> int:
        """Derive the seat facts and ratings of finished hands that have none yet (hands finished before
        schema v6, or bulk-imported), oldest first, one transaction each; returns how many."""
        done = 0
        while True:

            async def next_id(db: Db) -> Any:
                return await scalar(
                    db, f"SELECT id FROM hands WHERE {self._PENDING} ORDER BY ended_at, id LIMIT 1"
                )

            hand_id = await self._single(next_id)
            if hand_id is None:
                return done

            async def run(db: Db, hid: int = int(hand_id)) -> None:
                await derive(db, hid)

            await self._write(run)
            done += 1

    async def hand_by_code(self, code: str) -> tuple[Hand, Table] | None:
        """The hand with this public code and its table, or None (``code`` as ``clean_code`` gives it)."""

        async def run(db: Db) -> tuple[Hand, Table] | None:
            rows = list(await db.execute_fetchall(f"SELECT {_HAND_COLS} FROM hands WHERE code = ?", (code,)))
            if not rows:
                return None
            hand = _hand(rows[0])
            return hand, await read_table(db, hand.table_id)

        return await self._read(run)

    async def chat_hands(self, chat_id: int, offset: int = 0, limit: int = 10) -> list[FinishedHandRow]:
        """A group's hands that ended with a result, newest first (hands in progress and abandoned ones are
        not listed); ``offset``/``limit`` page through them."""

        async def run(db: Db) -> list[FinishedHandRow]:
            rows = await db.execute_fetchall(
                f"""
                SELECT {_HAND_COLS}, (SELECT variant FROM tables WHERE id = hands.table_id)
                FROM hands
                WHERE table_id IN (SELECT id FROM tables WHERE chat_id = ?)
                  AND ended_at IS NOT NULL AND {self._SCORED}
                ORDER BY ended_at DESC, id DESC
                LIMIT ? OFFSET ?
                """,
                (chat_id, int(limit), int(offset)),
            )
            return [FinishedHandRow(_hand(r[:-1]), str(r[-1])) for r in rows]

        return await self._single(run)
