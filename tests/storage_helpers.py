"""Helpers for the storage tests: a fake clock, random hands played out (in memory, or stored action by
action), and databases at an old schema version as an older bot left them (raw SQL on purpose)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

import engine
from storage import Player, Storage, result_to_json, schema
from storage.postgres import _PgConn
from storage.postgres import migrate as pg_migrate
from storage.stats import score_rows
from storage.store import is_postgres_url

CHANGSHA = engine.get_variant("changsha")
T0 = datetime(2024, 5, 15, 12, 0, tzinfo=UTC).timestamp()
FINISHED_SEED, OPEN_SEED, OPEN_UPTO = 20, 31, 25


def moves(seed: int) -> list[tuple[engine.Action, engine.State]]:
    state = engine.new_hand(CHANGSHA, seed)
    rng = random.Random(seed)
    out = []
    while state.phase != engine.Phase.ENDED:
        seat = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, action)
        out.append((action, state))
    return out


class FakeClock:
    """Stored times come from here: tests set them, nothing reads the real clock."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def random_moves(state: engine.State, seed: int) -> list[tuple[engine.Action, engine.State]]:
    rng = random.Random(seed)
    out = []
    while state.phase != engine.Phase.ENDED:
        seat = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, action)
        out.append((action, state))
    return out


async def play_out(s: Storage, table_id: int, seed: int, rng: random.Random) -> engine.State:
    """Deal the table's next hand and play random legal moves to its end, logging each."""
    hand, state = await s.start_hand(table_id, seed, salt="0123456789abcdef")
    while state.phase != engine.Phase.ENDED:
        seat = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, action)
        final = state if state.phase == engine.Phase.ENDED else None
        await s.log_action(hand.id, action, state.version, final=final)
    return state


async def old_database(path: Path | str, version: int) -> None:
    """A database at schema ``version`` (an SQLite file, or a ``postgresql://`` database), holding what a bot
    of that version would have written: a finished hand with its result and a hand in progress with part of
    its log."""
    if is_postgres_url(path):
        conn = await asyncpg.connect(str(path))
        try:
            assert await pg_migrate(conn, version) == version
            if version:
                async with conn.transaction():
                    await old_rows(_PgConn(conn), version)
        finally:
            await conn.close()
        return
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await schema.migrate(db, version) == version
        if version == 0:
            return
        await db.execute("BEGIN")
        await old_rows(db, version)
        await db.execute("COMMIT")


async def old_rows(db: Any, version: int) -> None:
    """The rows of ``old_database``, in the v1 shape (raw SQL on purpose: the current API cannot write an old
    schema); inside the caller's transaction."""
    opts = json.dumps(dict(CHANGSHA.make_options()))
    await db.execute(
        "INSERT INTO players (user_id, name, language, updated_at)"
        " VALUES (1, 'Ann', ?, 0), (2, 'Bo', NULL, 0)",
        ("en-US" if version < 4 else "en",),  # before v4 any language code went in
    )
    await db.execute(
        "INSERT INTO tables (id, chat_id, variant, options, seats, status, created_at)"
        " VALUES (1, 500, 'changsha', ?, '[1, 2, 3, null]', 'open', 0)",
        (opts,),
    )
    if version >= 4:
        await db.execute("INSERT INTO table_settings (table_id, host) VALUES (1, 1)")
        await db.execute("INSERT INTO table_seats (table_id, seat) VALUES (1, 0), (1, 1), (1, 2), (1, 3)")
    done, ongoing = moves(FINISHED_SEED), moves(OPEN_SEED)[:OPEN_UPTO]
    final = done[-1][1]
    for hand_id, seed, state, log, ended in (
        (1, FINISHED_SEED, final, done, True),
        (2, OPEN_SEED, ongoing[-1][1], ongoing, False),
    ):
        await db.execute(
            "INSERT INTO hands (id, table_id, number, seed, dealer, dealer_drawn, seats, options,"
            " started_at) VALUES (?, 1, ?, ?, ?, 1, '[1, 2, 3, null]', ?, 100)",
            (hand_id, hand_id, seed, state.dealer, opts),
        )
        await db.executemany(
            "INSERT INTO actions VALUES (?, ?, ?, ?, ?, 100)",
            [(hand_id, s.version, a.seat, str(a), s.version) for a, s in log],
        )
        if ended:
            await db.execute(
                "UPDATE hands SET result = ?, ended_at = 200 WHERE id = ?",
                (json.dumps(result_to_json(state)), hand_id),
            )
            if version >= 2:  # a v2 bot wrote score rows as it finished the hand
                if isinstance(db, _PgConn):
                    await score_rows(db, hand_id)  # type: ignore[arg-type]
                else:
                    await db.execute(schema.SCORE_ROWS_FOR_HAND, (hand_id,))


async def assert_upgraded(s: Storage, version: int) -> None:
    """What ``old_database(version)`` holds, as the current code sees it once the database is upgraded."""
    if version == 0:
        assert await s.open_tables() == []
        return
    # the finished hand's scores exist whether written by v2+ code or backfilled by the v2 step
    board = [(x.user_id, x.name, x.points, x.hands, x.wins, x.best) for x in await s.leaderboard(500)]
    assert board == [(1, "Ann", 28, 1, 1, 28), (2, "Bo", 0, 1, 0, 0), (3, None, -28, 1, 0, 0)]
    assert [h.delta for h in await s.player_history(1)] == [28]
    assert (await s.get_player(1)) == Player(1, "Ann", "en", False)  # "en-US" read as the bot's "en"
    # every table has its bot settings and four seat rows, with the defaults (a claim pause of 3 s)
    settings = await s.table_settings(1)
    assert (settings.lang, settings.claim_s, settings.discard_s, settings.ai) == ("zh", 30, 60, ())
    assert settings.pause_s == 3
    # the hand in progress replays to the same state as in memory, and takes the next action
    (r,) = await s.restore()
    expected = moves(OPEN_SEED)[OPEN_UPTO - 1][1]
    assert r.hand is not None and r.hand.id == 2 and r.state == expected
    nxt_action, nxt_state = moves(OPEN_SEED)[OPEN_UPTO]
    assert await s.log_action(2, str(nxt_action), nxt_state.version) == OPEN_UPTO + 1
    rec = await s.hand_replay(1)
    assert rec.state() == moves(FINISHED_SEED)[-1][1]
