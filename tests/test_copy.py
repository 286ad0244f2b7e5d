"""Moving a bot from SQLite to PostgreSQL (``python -m storage.copy``, docs/deploy.md): a database with real
played hands reads the same through the PostgreSQL storage after the copy, play goes on there with the
right ids, and what would lose or mix data is refused with the destination left as it was."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import engine
from storage import SeatPlay, Storage
from storage.copy import BOT_APPLICATION_NAME, CopyError, copy_database, main
from storage.lock import DatabaseLock

from .pgcluster import RAW_REFUSED, Cluster, raw_sql
from .storage_helpers import FakeClock, play_out

CHATS, USERS = (-100, -200, -300), (1, 2, 3, 4)
NOW = datetime(2024, 5, 15, 20, 0, tzinfo=UTC)


async def played_database(path: Path) -> None:
    """A bot's SQLite file after an evening: players and their languages, a group's settings, a room with
    three finished hands (scores, stats, ratings, remembered settings), a hand in progress with a panel and
    an open decision, a lobby, and a closed table."""
    clock = FakeClock(NOW.timestamp() - 4 * 3600)
    async with await Storage.open(path, clock=clock) as s:
        for uid, name in zip(USERS, ("Ann", "Bo", "Cy", "Di"), strict=True):
            await s.upsert_player(uid, name, "zh")
        await s.set_player_language(2, "en")
        night = await s.create_table(CHATS[0], "changsha", seats=[1, 2, 3, None])
        await s.set_chat_language(CHATS[0], "en", table_id=night.id)
        await s.set_chat_display(CHATS[0], "text")
        await s.update_lobby(night.id, options={"birds": 4}, rounds=16, remember=True)
        rng = random.Random(7)
        for seed in (17, 18, 19):
            clock.t += 900
            await play_out(s, night.id, seed, rng)
        mid = await s.create_table(CHATS[1], "changsha", seats=[1, 2, 3, 4])
        hand, state = await s.start_hand(mid.id, 5, salt="0123456789abcdef")
        for _ in range(25):
            clock.t += 5
            action = rng.choice(engine.legal_actions(state, rng.choice(engine.to_act(state))))
            state, _ = engine.apply(state, action)
            seats = [SeatPlay(state.current, since=state.version, deadline=clock.t + 60)]
            await s.log_action(hand.id, action, state.version, table_id=mid.id, seats=seats)
        await s.set_panel(mid.id, 1, 555)
        await s.create_table(CHATS[2], "xiangyin", seats=[4, None, None])
        await s.close_table((await s.create_table(CHATS[2], "changsha", seats=[4])).id)


async def everything(s: Storage) -> dict[str, Any]:
    """What the bot reads back: restored tables, scores, history, stats, ratings and settings."""
    restored = sorted(await s.restore(), key=lambda r: r.table.id)
    out: dict[str, Any] = {"restore": [(r.table, r.hand, r.state, r.error, r.settings, r.seats, r.panels)
                                       for r in restored]}  # fmt: skip
    for chat in CHATS:
        out[f"score {chat}"] = await s.leaderboard(chat)
        out[f"week {chat}"] = await s.leaderboard(chat, "week", NOW)
        out[f"hands {chat}"] = await s.chat_hands(chat)
        out[f"ratings {chat}"] = await s.ratings(chat, "changsha")
        out[f"room {chat}"] = await s.remembered_room(chat, "changsha")
    for uid in USERS:
        out[f"player {uid}"] = await s.get_player(uid)
        out[f"history {uid}"] = await s.player_history(uid)
        out[f"stats {uid}"] = await s.player_stats(uid)
    tables = [r.table.id for r in restored]
    for tid in tables:
        out[f"table {tid}"] = (
            await s.table_hands(tid),
            await s.table_stats(tid),
            await s.table_settings(tid),
        )
    out["chats"] = (await s.chat_languages(), await s.chat_displays())
    return out


async def bots_gone(url: str) -> None:
    """Until no bot's session is on the database: the server ends a closed connection's backend a moment
    later, and until then the copy counts it as a bot still connected."""
    conn = await asyncpg.connect(url)
    try:
        sql = (
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND starts_with(application_name, $1)"
        )
        while await conn.fetchval(sql, BOT_APPLICATION_NAME):
            await asyncio.sleep(0.01)
    finally:
        await conn.close()


async def test_a_played_database_reads_the_same_from_postgresql_and_play_goes_on(
    tmp_path: Path, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "mahjong.db"
    await played_database(src)
    async with await Storage.open(src) as s:
        before = await everything(s)
    url = await pg_cluster.database()  # a new database: the copy creates the schema

    assert await asyncio.to_thread(main, [str(src), url]) == 0  # the command an operator runs
    said = capsys.readouterr()
    assert "checked: every table has as many rows" in said.out and "copied actions" in said.err
    assert "hands.id 5" in said.out and "tables.id 5" in said.out  # 4 tables, 3+1 hands: the next ids follow

    async with await Storage.open(url) as pg:
        assert await everything(pg) == before
        # play goes on: the hand in progress, a new hand of the room, a new table, all with fresh ids
        night = before["restore"][0][0]
        mid = next(r for r in await pg.restore() if r.hand is not None)
        assert mid.state is not None and mid.state.version == 25
        with pytest.raises(RAW_REFUSED, match="sequence gap"):  # the log's order trigger is on again
            await raw_sql(pg, "INSERT INTO actions VALUES (?, 99, 0, 'x', 26, 0)", (mid.hand.id,))
        final = await play_out(pg, night.id, 20, random.Random(1))
        new = await pg.create_table(CHATS[2], "changsha", seats=[1, 2, 3, 4])
        assert new.id == 5 and (await pg.start_hand(new.id, 3))[0].id == 6
        totals = {x.user_id: x.points for x in await pg.leaderboard(CHATS[0])}
        was = {x.user_id: x.points for x in before[f"score {CHATS[0]}"]}
        assert final.result is not None  # the running totals count the new hand once, on top of the copy
        assert totals == {u: was[u] + final.result.deltas[u - 1] for u in (1, 2, 3)}

    # a destination that holds rows is refused as it is; --replace makes it the source's copy again
    await asyncio.wait_for(bots_gone(url), 30)
    with pytest.raises(CopyError, match="already holds rows"):
        await copy_database(src, url)
    report = await copy_database(src, url, replace=True)
    assert report.replaced > 0 and report.rows["hands"] == 4 and report.version == sqlite_version(src)
    async with await Storage.open(url) as pg:
        assert await everything(pg) == before


def sqlite_version(path: Path) -> int:
    c = sqlite3.connect(path)
    try:
        return int(c.execute("PRAGMA user_version").fetchone()[0])
    finally:
        c.close()


async def rows_in(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return sum([await conn.fetchval(f'SELECT count(*) FROM "{t}"') for (t,) in tables]) - 1  # mjdb_schema
    finally:
        await conn.close()


async def test_a_failed_copy_leaves_the_destination_empty(tmp_path: Path, pg_cluster: Cluster) -> None:
    src = tmp_path / "mahjong.db"
    await played_database(src)
    url = await pg_cluster.clean_database()
    async with await Storage.open(url):  # a bot on the destination
        with pytest.raises(CopyError, match="a bot is connected to postgresql://.*: stop it first"):
            await copy_database(src, url)
    await asyncio.wait_for(bots_gone(url), 30)
    c = sqlite3.connect(src)
    with c:  # what PostgreSQL has no place for is refused before anything is written
        c.execute("CREATE TABLE notes (x)")
        c.execute("ALTER TABLE players ADD COLUMN nick TEXT")
    with pytest.raises(CopyError, match="no place for table notes, players.nick at the same version"):
        await copy_database(src, url)
    with c:  # without foreign keys, as an old file could be: a panel of no table
        c.execute("DROP TABLE notes")
        c.execute("ALTER TABLE players DROP COLUMN nick")
        c.execute("INSERT INTO panels (table_id, user_id, message_id) VALUES (99, 1, 7)")
    c.close()
    with pytest.raises(
        CopyError, match=r"the copy failed \(table panels\), nothing was written.*foreign key"
    ):
        await copy_database(src, url)
    assert await rows_in(url) == 0  # the tables copied before panels were rolled back with it


async def test_the_copy_refuses_while_a_bot_runs_on_the_file(tmp_path: Path) -> None:
    src = tmp_path / "mahjong.db"
    async with await Storage.open(src):
        pass
    bot = DatabaseLock(src)  # what a running bot holds (storage/lock.py)
    bot.acquire()
    try:
        with pytest.raises(CopyError, match=r"a bot is running on .*mahjong.db .*stop it first"):
            await copy_database(src, "postgresql://mahjong@127.0.0.1:1/nowhere")  # refused before connecting
    finally:
        bot.release()


def test_the_command_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "missing.db"), "postgresql://x@127.0.0.1:1/y"]) == 1
    assert "missing.db: no such database file" in capsys.readouterr().err
    assert main(["postgresql://x@h/a", "postgresql://x@h/b"]) == 1
    assert "the source must be the bot's SQLite file" in capsys.readouterr().err
    assert main([str(tmp_path / "a.db"), str(tmp_path / "b.db")]) == 1
    assert "must be a postgresql:// URL" in capsys.readouterr().err
