"""Storage API: tables, hands, the action log's version rule, results, restore, replay, leaderboard and
history."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

import engine
from storage import (
    ArchivedHand,
    Facts,
    HandFinished,
    HandInProgress,
    InvalidInput,
    NotFound,
    Period,
    Standing,
    Storage,
    StorageError,
    TableClosed,
    TableStatus,
    VersionConflict,
    period_bounds,
    replay_from,
)
from storage.stats import LEADERBOARD_ALL_SQL, LEADERBOARD_PERIOD_SQL

from .pgcluster import raw_sql
from .storage_helpers import FakeClock

CHANGSHA = engine.get_variant("changsha")
T0 = datetime(2024, 5, 15, 12, 0, tzinfo=UTC).timestamp()


def game(
    seed: int, dealer: int | None = None, options: dict[str, int] | None = None
) -> Iterator[tuple[engine.Action, engine.State]]:
    """A seeded random player: yields each action and the state it produced, to the end of the hand."""
    state = engine.new_hand(CHANGSHA, seed, options, dealer=dealer)
    rng = random.Random(seed)
    while state.phase != engine.Phase.ENDED:
        seat = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, action)
        yield action, state


def full_game(
    seed: int, dealer: int | None = None, options: dict[str, int] | None = None
) -> list[tuple[engine.Action, engine.State]]:
    return list(game(seed, dealer, options))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(database: str, clock: FakeClock) -> AsyncIterator[Storage]:
    s = await Storage.open(database, clock=clock)
    yield s
    await s.close()


async def play_logged(
    s: Storage,
    hand_id: int,
    seed: int,
    dealer: int | None = None,
    upto: int | None = None,
    options: dict[str, int] | None = None,
) -> engine.State:
    """Play the seeded game, logging each action (the last one with its result); ``upto`` stops early.
    Returns the last state logged."""
    state = engine.new_hand(CHANGSHA, seed, options, dealer=dealer)
    for i, (action, after) in enumerate(game(seed, dealer, options)):
        if upto is not None and i >= upto:
            break
        state = after
        ended = state.phase == engine.Phase.ENDED
        await s.log_action(hand_id, str(action), state.version, final=state if ended else None)
    return state


# ---------------------------------------------------------------------- tables and players


async def test_open_sets_wal_and_current_schema(store: Storage) -> None:
    t = await store.create_table(-1001, "changsha", {"birds": 4}, [11, 12, 13, None])
    assert t.status == TableStatus.OPEN
    assert dict(t.options) == {"birds": 4, "base": 1}  # defaults filled in: replays never change
    assert t.seats == (11, 12, 13, None)
    assert (await store.get_table(t.id)) == t
    assert [x.id for x in await store.open_tables(-1001)] == [t.id]
    assert await store.open_tables(-999) == []


async def test_open_table_ids_by_group_and_by_seated_player(store: Storage) -> None:
    """Which open tables an update concerns (bot/telegram/cluster.py): a group's, or a player's seats."""
    a = await store.create_table(-1001, "changsha", seats=[11, 12, None, None])
    b = await store.create_table(-1002, "changsha", seats=[12, 2**40, None, None])
    closed = await store.create_table(-1001, "changsha", seats=[11, None, None, None])
    await store.close_table(closed.id)
    assert await store.open_table_ids(chat_id=-1001) == [a.id]
    assert await store.open_table_ids(user_id=12) == [a.id, b.id]
    assert await store.open_table_ids(user_id=2**40) == [b.id]
    assert await store.open_table_ids(user_id=13) == await store.open_table_ids(chat_id=-999) == []
    with pytest.raises(InvalidInput):
        await store.open_table_ids()


async def test_player_upsert_keeps_language_unless_given(store: Storage) -> None:
    await store.upsert_player(7, "Ann", "zh")
    p = await store.upsert_player(7, "Annie")
    assert (p.name, p.language) == ("Annie", "zh")
    assert await store.get_player(7) == p
    assert await store.get_player(8) is None


@pytest.mark.parametrize(
    ("variant", "options", "seats"),
    [
        pytest.param("nonesuch", None, (), id="unknown-variant"),
        pytest.param("changsha", {"birds": 3}, (), id="birds-out-of-range"),
        pytest.param("changsha", {"flowers": True}, (), id="unknown-option"),
        pytest.param("changsha", None, [1, 2, 3, 4, 5], id="five-seats"),
        pytest.param("changsha", None, [1, 1, 2, 3], id="one-player-twice"),
        pytest.param("changsha", None, [2**70, 1, 2, 3], id="id-too-big"),
    ],
)
async def test_bad_table_input_is_refused_before_writing(
    store: Storage, variant: str, options: dict[str, object] | None, seats: list[int]
) -> None:
    with pytest.raises(InvalidInput):
        await store.create_table(1, variant, options, seats)
    assert await store.open_tables() == []


async def test_start_hand_checks_table_and_one_unfinished_hand(store: Storage) -> None:
    lobby = await store.create_table(1, "changsha", seats=[1, 2])
    with pytest.raises(InvalidInput, match="2 seats"):
        await store.start_hand(lobby.id, seed=1)
    t = await store.update_table(lobby.id, seats=[1, 2, 3, 4])
    with pytest.raises(InvalidInput, match="64 bits"):
        await store.start_hand(t.id, seed=2**64)
    with pytest.raises(InvalidInput):
        await store.start_hand(t.id, seed=1, dealer=7)
    hand, state = await store.start_hand(t.id, seed=1, options={"birds": 6})
    assert (hand.number, hand.version, hand.result, hand.ended_at) == (1, 0, None, None)
    assert dict(hand.options) == {"birds": 6, "base": 1} and dict(t.options)["birds"] == 2
    assert state == engine.new_hand(CHANGSHA, 1, {"birds": 6}, seats=4)
    assert hand.dealer == state.dealer and hand.dealer_drawn
    with pytest.raises(HandInProgress):
        await store.start_hand(t.id, seed=2)
    with pytest.raises(NotFound):
        await store.start_hand(999, seed=1)


async def test_close_table_abandons_its_hand_and_refuses_new_ones(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    hand, _ = await store.start_hand(t.id, seed=3)
    await play_logged(store, hand.id, 3, upto=5)
    closed = await store.close_table(t.id)
    assert closed.status == TableStatus.CLOSED
    h = await store.get_hand(hand.id)
    assert h.finished and h.result is not None and h.result["reason"] == "abandoned"
    assert len((await store.hand_replay(hand.id)).actions) == 5  # the log stays for replay
    with pytest.raises(TableClosed):
        await store.start_hand(t.id, seed=4)
    with pytest.raises(TableClosed):
        await store.update_table(t.id, seats=[5, 6, 7, 8])
    assert await store.open_tables() == []
    assert await store.leaderboard(1) == []  # abandoned: no scores


async def test_abandoned_hand_keeps_its_log_scores_nothing_and_frees_the_table(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    hand, _ = await store.start_hand(t.id, seed=20)
    await play_logged(store, hand.id, 20, upto=10)
    h = await store.abandon_hand(hand.id, "players left")
    assert h.finished and h.result == {"reason": "abandoned", "note": "players left"} and h.version == 10
    with pytest.raises(HandFinished):
        await store.abandon_hand(hand.id)
    with pytest.raises(HandFinished):
        await store.log_action(hand.id, "0 pass", 11)
    assert await store.leaderboard(1) == [] and await store.player_history(1) == []
    assert (await store.hand_replay(hand.id)).state() == full_game(20)[9][1]
    nxt, _ = await store.start_hand(t.id, seed=21)
    assert nxt.number == 2 and [r.hand for r in await store.restore()] == [nxt]


# ---------------------------------------------------------------------- the action log


async def test_log_action_takes_exactly_the_next_version(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    hand, _ = await store.start_hand(t.id, seed=5)
    steps = full_game(5)
    (a1, s1), (a2, s2) = steps[0], steps[1]
    assert await store.log_action(hand.id, str(a1), s1.version) == 1
    with pytest.raises(VersionConflict, match="applied twice") as dup:
        await store.log_action(hand.id, str(a1), s1.version)
    assert (dup.value.expected, dup.value.got) == (2, 1)
    with pytest.raises(VersionConflict, match="missing"):
        await store.log_action(hand.id, str(a2), s2.version + 1)
    with pytest.raises(VersionConflict):
        await store.log_action(hand.id, str(a2), 0)
    assert await store.log_action(hand.id, a2, s2.version) == 2  # an Action works as well as its text
    rec = await store.hand_replay(hand.id)
    assert [(a.seq, a.version, a.action, a.seat) for a in rec.actions] == [
        (1, 1, str(a1), a1.seat),
        (2, 2, str(a2), a2.seat),
    ]
    assert rec.hand.version == 2


async def test_log_action_refusals_write_nothing(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    hand, _ = await store.start_hand(t.id, seed=5)
    with pytest.raises(InvalidInput, match="unknown action"):
        await store.log_action(hand.id, "0 juggle 5m", 1)
    with pytest.raises(InvalidInput):
        await store.log_action(hand.id, "discard", 1)
    with pytest.raises(InvalidInput, match="integer"):
        await store.log_action(hand.id, "0 pass", "1")  # type: ignore[arg-type]
    with pytest.raises(NotFound):
        await store.log_action(hand.id + 1, "0 pass", 1)
    first_action, first_state = full_game(5)[0]
    with pytest.raises(InvalidInput, match="not ended"):
        await store.log_action(hand.id, str(first_action), 1, final=first_state)
    assert (await store.get_hand(hand.id)).version == 0
    assert (await store.hand_replay(hand.id)).actions == ()


async def test_final_action_and_result_are_one_transaction(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    # the first seed from 20 whose game ends in a single win, so the result has real money in it
    seed = next(k for k in range(20, 2000) if len(full_game(k)[-1][1].winners) == 1)
    hand, _ = await store.start_hand(t.id, seed=seed)
    steps = full_game(seed)
    for action, state in steps[:-1]:
        await store.log_action(hand.id, str(action), state.version)
    last_action, final = steps[-1]
    # another hand's final state at the same version: the finish fails, so the action is not logged either
    bogus = next(
        g for g in (full_game(k)[-1][1] for k in range(seed + 1, 4000)) if g.version == final.version
    )
    assert bogus.phase == engine.Phase.ENDED and bogus.version == final.version
    with pytest.raises(InvalidInput, match="not hand"):
        await store.log_action(hand.id, str(last_action), final.version, final=bogus)
    assert (await store.get_hand(hand.id)).version == final.version - 1
    assert len((await store.hand_replay(hand.id)).actions) == len(steps) - 1
    await store.log_action(hand.id, str(last_action), final.version, final=final)
    h = await store.get_hand(hand.id)
    assert h.finished and h.version == final.version
    assert final.result is not None and h.result is not None
    assert h.result["deltas"] == list(final.result.deltas)
    assert any(final.result.deltas) and sum(final.result.deltas) == 0
    assert h.result["winners"] == list(final.winners)
    assert h.result["settlements"][0]["kind"] == "win"
    with pytest.raises(HandFinished):
        await store.log_action(hand.id, "0 pass", final.version + 1)
    with pytest.raises(HandFinished):
        await store.finish_hand(hand.id, final)


async def test_finish_hand_requires_every_action_logged(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    hand, _ = await store.start_hand(t.id, seed=20)
    steps = full_game(20)
    for action, state in steps[:-2]:
        await store.log_action(hand.id, str(action), state.version)
    final = steps[-1][1]
    with pytest.raises(VersionConflict, match="log every action"):
        await store.finish_hand(hand.id, final)
    with pytest.raises(InvalidInput, match="not ended"):
        await store.finish_hand(hand.id, steps[-3][1])
    for action, state in steps[-2:]:
        await store.log_action(hand.id, str(action), state.version)
    with pytest.raises(InvalidInput, match="not hand"):
        await store.finish_hand(hand.id, engine.replay(CHANGSHA, 22, [a for a, _ in full_game(22)]))
    h = await store.finish_hand(hand.id, final)
    assert h.finished and (await store.leaderboard(1))[0].points == 28


async def test_concurrent_tables_keep_their_own_order(store: Storage) -> None:
    """Many tasks share one Storage: each table's log comes out complete, in order, unmixed."""
    seeds = list(range(100, 112))
    hands = {}
    for seed in seeds:
        t = await store.create_table(seed, "changsha", seats=[seed, seed + 1000, None, None])
        hands[seed] = (await store.start_hand(t.id, seed=seed))[0].id

    async def run(seed: int) -> None:
        await play_logged(store, hands[seed], seed)

    await asyncio.gather(*(run(s) for s in seeds))
    for seed in seeds:
        rec = await store.hand_replay(hands[seed])
        assert [a.action for a in rec.actions] == [str(a) for a, _ in full_game(seed)]
        assert rec.hand.finished
        assert rec.state() == full_game(seed)[-1][1]


async def test_cancelled_callers_leave_whole_writes_and_a_usable_connection(store: Storage) -> None:
    """A handler cancelled mid-write (bot shutdown): the write it started completes, atomically, and no
    transaction is left open on the shared connection for the next caller to fall into."""
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    hand, _ = await store.start_hand(t.id, seed=20)
    steps = full_game(20)
    (a1, s1), (a2, s2) = steps[:2]
    task = asyncio.create_task(store.log_action(hand.id, str(a1), s1.version))
    await asyncio.sleep(0)  # one loop turn: the task has queued its INSERT
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await store.get_hand(hand.id)).version == 1  # the statement ran behind the cancellation
    assert await store.log_action(hand.id, str(a2), s2.version) == 2
    for action, state in steps[2:-1]:
        await store.log_action(hand.id, str(action), state.version)
    last, final = steps[-1]
    # a multi-statement write (last action + result + scores) cancelled mid-transaction
    task = asyncio.create_task(store.log_action(hand.id, str(last), final.version, final=final))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    h = await store.get_hand(hand.id)
    assert h.finished and h.version == final.version
    assert [x.points for x in await store.leaderboard(1)] == [28, 0, 0, -28]
    t2 = await store.update_table(t.id, seats=[4, 3, 2, 1])  # the connection is not stuck in a transaction
    assert (await store.start_hand(t2.id, seed=1))[0].number == 2


async def test_single_statements_and_transactions_take_turns(tmp_path: Path, clock: FakeClock) -> None:
    """Reads and single statements run pipelined; a transaction or a multi-read waits for them and holds
    them back; a waiter cancelled in the queue does not jam the others. (SQLite's one shared connection:
    PostgreSQL runs calls on a pool, in the order they are awaited.)"""
    async with await Storage.open(tmp_path / "bot.db", clock=clock) as store:
        await _take_turns(store)


async def _take_turns(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    hand, _ = await store.start_hand(t.id, seed=5)
    steps = full_game(5)
    async with asyncio.timeout(20):  # a deadlock fails the test instead of hanging it
        singles = [asyncio.create_task(store.get_table(t.id)) for _ in range(10)]
        await asyncio.sleep(0)  # in flight
        reader = asyncio.create_task(store.hand_replay(hand.id))  # exclusive: waits for the ten
        await asyncio.sleep(0)
        reader.cancel()
        logs = [
            asyncio.create_task(store.log_action(hand.id, str(a), s.version)) for a, s in steps[:5]
        ]  # created in order: their INSERTs queue in order
        writer = asyncio.create_task(store.update_table(t.id, seats=[4, 3, 2, 1]))
        more = [asyncio.create_task(store.get_table(t.id)) for _ in range(10)]
        await asyncio.gather(*singles, *logs, writer, *more)
        with pytest.raises(asyncio.CancelledError):
            await reader
        rec = await store.hand_replay(hand.id)
    assert [a.action for a in rec.actions] == [str(a) for a, _ in steps[:5]]
    assert (await store.get_table(t.id)).seats == (4, 3, 2, 1)


async def test_closed_storage_refuses_politely(database: str) -> None:
    s = await Storage.open(database)
    await s.close()
    await s.close()
    with pytest.raises(StorageError, match="closed"):
        await s.open_tables()


# ---------------------------------------------------------------------- replay and restore


async def test_hand_replay_rebuilds_every_intermediate_state(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    steps = full_game(9, dealer=3)
    hand, _ = await store.start_hand(t.id, seed=9, dealer=3)
    assert not hand.dealer_drawn and hand.dealer == 3
    await play_logged(store, hand.id, 9, dealer=3)
    rec = await store.hand_replay(hand.id)
    assert rec.variant == "changsha" and len(rec.actions) == len(steps)
    assert rec.state(0) == engine.new_hand(CHANGSHA, 9, dealer=3)
    for k in (1, 17, len(steps)):
        assert rec.state(k) == steps[k - 1][1]
    assert await store.rebuild(hand.id) == steps[-1][1]
    # a worker holding the hand at action 17 catches up with the rest, and sees the events they made
    seen: list[engine.Event] = []
    state, _ = replay_from(rec.hand, steps[16][1], Facts(), rec.actions[17:], seen)
    assert state == steps[-1][1]
    expected, at = [], steps[16][1]
    for action, _ in steps[17:]:
        at, events = engine.apply(at, action)
        expected += events
    assert seen == expected and len(expected) > len(steps) - 17


async def test_restore_rebuilds_each_open_table(database: str, clock: FakeClock) -> None:
    path = database
    async with await Storage.open(path, clock=clock) as s:
        lobby = await s.create_table(10, "changsha", seats=[1])
        mid = await s.create_table(11, "changsha", {"birds": 6}, [1, 2, 3, 4])
        between = await s.create_table(12, "changsha", seats=[5, 6, 7, 8])
        unscored = await s.create_table(13, "changsha", seats=[1, 2, 3, 4])
        closed = await s.create_table(14, "changsha", seats=[1, 2, 3, 4])
        h_mid, _ = await s.start_hand(mid.id, seed=31, dealer=1, options={"base": 5})
        await play_logged(s, h_mid.id, 31, dealer=1, upto=40, options={"birds": 6, "base": 5})
        h_done, _ = await s.start_hand(between.id, seed=32)
        await play_logged(s, h_done.id, 32)
        # the writer logs the last action but dies before finish_hand
        h_uns, _ = await s.start_hand(unscored.id, seed=20)
        for action, state in full_game(20):
            await s.log_action(h_uns.id, str(action), state.version)
        await s.close_table(closed.id)

    opts = {"birds": 6, "base": 5}
    expected_mid = engine.replay(CHANGSHA, 31, [a for a, _ in full_game(31, 1, opts)[:40]], opts, dealer=1)
    async with await Storage.open(path, clock=clock) as s:
        restored = {r.table.id: r for r in await s.restore()}
        assert sorted(restored) == [lobby.id, mid.id, between.id, unscored.id]
        assert restored[lobby.id].hand is None and restored[lobby.id].state is None
        assert restored[between.id].hand is None
        r = restored[mid.id]
        assert r.hand is not None and r.hand.id == h_mid.id and r.error is None
        assert r.state == expected_mid and r.state.version == 40
        u = restored[unscored.id]
        assert u.state == full_game(20)[-1][1] and u.hand is not None and u.hand.finished
        assert [(x.user_id, x.points) for x in await s.leaderboard(13)] == [(1, 28), (2, 0), (4, 0), (3, -28)]
        # restoring again is harmless: nothing is applied twice
        again = {r.table.id: r for r in await s.restore()}
        assert again[mid.id].state == expected_mid and again[unscored.id].hand is None


async def test_restore_reports_a_hand_that_does_not_replay(store: Storage) -> None:
    good = await store.create_table(1, "changsha", seats=[1, 2, 3, 4])
    bad = await store.create_table(2, "changsha", seats=[1, 2, 3, 4])
    hg, _ = await store.start_hand(good.id, seed=5)
    hb, state = await store.start_hand(bad.id, seed=5)
    await play_logged(store, hg.id, 5, upto=3)
    held = {t for t, n in enumerate(state.seats[state.current].counts) if n}
    missing = next(t for t in range(27) if t not in held)
    await store.log_action(hb.id, f"{state.current} discard {engine.tile_str(missing)}", 1)
    out = {r.table.id: r for r in await store.restore()}
    assert out[good.id].state is not None and out[good.id].error is None
    assert out[bad.id].state is None
    assert "does not replay" in (out[bad.id].error or "")


# ---------------------------------------------------------------------- leaderboard and history

SHANGHAI = timezone(timedelta(hours=8))
NOW = datetime(2024, 5, 15, 12, 0, tzinfo=SHANGHAI)  # a Wednesday


def archived(deltas: list[int], winners: list[int], at: datetime, seats: list[int | None]) -> ArchivedHand:
    result = {"reason": "win" if winners else "draw", "winners": winners, "deltas": deltas, "next_dealer": 0}
    ts = at.timestamp()
    return ArchivedHand(
        seed=1,
        dealer=0,
        dealer_drawn=False,
        seats=seats,
        options={},
        actions=[],
        result=result,
        started_at=ts - 600,
        ended_at=ts,
    )


async def scored_chat(s: Storage) -> int:
    for uid, name in [(1, "Ann"), (2, "Bo"), (3, "Cy")]:
        await s.upsert_player(uid, name)
    t = await s.create_table(77, "changsha", seats=[1, 2, 3, None])
    seats: list[int | None] = [1, 2, 3, None]

    def at(month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
        return datetime(2024, month, day, hour, minute, tzinfo=SHANGHAI)

    hands = [
        archived([30, -10, -10, -10], [0], at(4, 30, 23), seats),  # last month
        archived([-8, 24, -8, -8], [1], at(5, 12, 23, 59), seats),  # last week (Sunday)
        archived([-4, -4, 12, -4], [2], at(5, 13), seats),  # the week starts (Monday 00:00)
        archived([0, 0, 0, 0], [], at(5, 15, 10), seats),  # a draw
        archived([6, -2, -2, -2], [0], at(5, 31, 23, 59), seats),  # the month ends
        archived([-1, -1, -1, 3], [3], at(6, 1), seats),  # next month; the AI seat wins
    ]
    assert await s.import_hands(t.id, hands) == 6
    other = await s.create_table(78, "changsha", seats=[1, 2, 3, 4])
    await s.import_hands(other.id, [archived([100, -100, 0, 0], [0], NOW, [1, 2, 3, 4])])
    return t.id


def lines(board: list[Standing]) -> list[tuple[int, str | None, int, int, int, int]]:
    return [(x.user_id, x.name, x.points, x.hands, x.wins, x.best) for x in board]


async def test_leaderboard_all_time_week_and_month(store: Storage) -> None:
    await scored_chat(store)
    assert lines(await store.leaderboard(77)) == [
        (1, "Ann", 23, 6, 2, 30),
        (2, "Bo", 7, 6, 1, 24),
        (3, "Cy", -9, 6, 1, 12),
    ]  # the AI seat has no line; chat 78 does not count; best is the largest single-hand gain
    month = lines(await store.leaderboard(77, "month", NOW))
    assert month == [(2, "Bo", 18, 4, 1, 24), (3, "Cy", 2, 4, 1, 12), (1, "Ann", -6, 4, 1, 6)]
    week = lines(await store.leaderboard(77, Period.WEEK, NOW))
    assert week == [(3, "Cy", 12, 2, 1, 12), (1, "Ann", -4, 2, 0, 0), (2, "Bo", -4, 2, 0, 0)]
    assert lines(await store.leaderboard(77, Period.WEEK, NOW, limit=1)) == week[:1]
    # the same instant seen in UTC: that week starts 8 hours later, so the Monday 00:00 (+08) hand is out
    utc_week = lines(await store.leaderboard(77, Period.WEEK, NOW.astimezone(UTC)))
    assert [(u, p, h) for u, _, p, h, _, _ in utc_week] == [(1, 0, 1), (2, 0, 1), (3, 0, 1)]


async def test_leaderboard_needs_an_aware_now_for_calendar_periods(store: Storage) -> None:
    with pytest.raises(InvalidInput, match="timezone"):
        await store.leaderboard(77, Period.WEEK, datetime(2024, 5, 15))
    with pytest.raises(ValueError):
        await store.leaderboard(77, "fortnight", NOW)
    assert await store.leaderboard(77, Period.ALL, datetime(2024, 5, 15)) == []


def test_period_bounds_are_calendar_periods() -> None:
    start, end = period_bounds(Period.WEEK, NOW)
    assert datetime.fromtimestamp(start, SHANGHAI) == datetime(2024, 5, 13, tzinfo=SHANGHAI)
    assert datetime.fromtimestamp(end, SHANGHAI) == datetime(2024, 5, 20, tzinfo=SHANGHAI)
    start, end = period_bounds(Period.MONTH, datetime(2024, 12, 31, 23, 59, tzinfo=SHANGHAI))
    assert datetime.fromtimestamp(start, SHANGHAI) == datetime(2024, 12, 1, tzinfo=SHANGHAI)
    assert datetime.fromtimestamp(end, SHANGHAI) == datetime(2025, 1, 1, tzinfo=SHANGHAI)


async def test_player_history_newest_first_with_paging(store: Storage) -> None:
    chat = await scored_chat(store)
    hist = await store.player_history(1)
    assert [(h.chat_id, h.delta, h.win) for h in hist] == [
        (77, -1, False),
        (77, 6, True),
        (78, 100, True),
        (77, 0, False),
        (77, -4, False),
        (77, -8, False),
        (77, 30, True),
    ]
    assert all(h.seat == 0 for h in hist) and hist[0].ended_at == datetime(2024, 6, 1, tzinfo=SHANGHAI)
    in_chat = await store.player_history(1, chat_id=77, limit=3)
    assert [h.delta for h in in_chat] == [-1, 6, 0]
    assert {h.table_id for h in in_chat} == {chat}
    page2 = await store.player_history(1, chat_id=77, limit=3, before=in_chat[-1].ended_at)
    assert [(h.number, h.delta) for h in page2] == [(3, -4), (2, -8), (1, 30)]
    assert await store.player_history(999) == []


async def test_real_games_feed_the_leaderboard(store: Storage, clock: FakeClock) -> None:
    """Scores written by finishing engine hands equal the engine's own result deltas."""
    await store.upsert_player(1, "Ann")
    t = await store.create_table(5, "changsha", seats=[1, 2, 3, 4])
    totals = [0, 0, 0, 0]
    dealer: int | None = None
    for seed in (20, 22, 5):
        clock.t += 3600
        hand, _ = await store.start_hand(t.id, seed=seed, dealer=dealer)
        final = await play_logged(store, hand.id, seed, dealer)
        assert final.result is not None
        totals = [a + b for a, b in zip(totals, final.result.deltas, strict=True)]
        dealer = final.result.next_dealer
    board = {x.user_id: x for x in await store.leaderboard(5)}
    assert [board[u].points for u in (1, 2, 3, 4)] == totals
    assert all(x.hands == 3 for x in board.values()) and board[1].name == "Ann"
    assert sum(totals) == 0


async def test_leaderboard_reads_small_indexed_things_not_the_action_log(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with await Storage.open(path) as s:
        await scored_chat(s)
    c = sqlite3.connect(path)
    try:
        period = [r[3] for r in c.execute("EXPLAIN QUERY PLAN " + LEADERBOARD_PERIOD_SQL, (77, 0.0, 1e9, -1))]
        all_time = [r[3] for r in c.execute("EXPLAIN QUERY PLAN " + LEADERBOARD_ALL_SQL, (77, -1))]
        with pytest.raises(sqlite3.IntegrityError, match="history"):
            c.execute("UPDATE score_deltas SET delta = 0")  # the running totals rely on it
        with pytest.raises(sqlite3.IntegrityError, match="history"):
            c.execute("DELETE FROM score_deltas")
    finally:
        c.close()
    covering = "COVERING INDEX score_deltas_chat (chat_id=? AND ended_at>? AND ended_at<?)"
    assert any(covering in p for p in period), period
    assert "SEARCH t USING PRIMARY KEY (chat_id=?)" in all_time, all_time  # t = chat_totals
    assert not any("actions" in p or "hands" in p for p in period + all_time)


async def test_running_totals_match_the_score_rows(store: Storage) -> None:
    """All time comes from running sums; a window covering everything sums the rows: they must agree."""
    await scored_chat(store)
    wide = datetime(2024, 5, 15, tzinfo=UTC)
    totals = await store.leaderboard(77)
    rows = await raw_sql(store, LEADERBOARD_PERIOD_SQL, (77, -1e300, 1e300, 2**62))
    assert lines(totals) == [tuple(r) for r in rows]
    assert len(await store.leaderboard(77, Period.MONTH, wide)) == 3


async def test_a_bad_archive_imports_nothing(store: Storage) -> None:
    t = await store.create_table(3, "changsha", seats=[1, 2, 3, 4])
    good = archived([1, -1, 0, 0], [0], NOW, [1, 2, 3, 4])
    with pytest.raises(InvalidInput, match="archived hand 2"):
        await store.import_hands(t.id, [good, replace(good, actions=["0 juggle"])])
    with pytest.raises(InvalidInput, match="one delta per seat"):
        await store.import_hands(t.id, [replace(good, result={**good.result, "deltas": [1, -1]})])
    assert await store.table_hands(t.id) == [] and await store.leaderboard(3) == []
