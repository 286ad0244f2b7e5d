"""End to end: two bot worker processes behind one webhook endpoint of the fake Bot API, on one PostgreSQL
database, 20 tables played at once, and one worker killed (SIGKILL) mid-hand. The other carries every table
on: nothing is lost (every hand ends, every update is answered, each player gets his result in private: a
row of the transactional outbox, written with the hand's final action), nothing doubled (one result per
table and per player, the action log has no repeats; a message is repeated only where a worker died between
sending it and recording it) and nothing reordered (each player's panel only moves forward).

``make soak`` runs a longer version (more tables, a worker killed and started again several times)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.text.texts import t
from storage import Storage

from .bot_support import Player, hand_over
from .cluster_support import decisions_in_order, open_tables, outbox_empties, play_one, stuck, workers
from .fake_telegram import FakeTelegramServer
from .pgcluster import Cluster as PgCluster


async def play_with_a_kill(
    tg: FakeTelegramServer, pg: PgCluster, tmp_path: Path, tables: int, kills: int
) -> None:
    url = await pg.database()
    async with await Storage.open(url):
        pass  # the schema, before two workers race for it
    players = []
    for i in range(tables):
        user = tg.add_user(f"P{i}", language_code="en", started=True)
        players.append((user, tg.add_group(f"Table {i}", members=[user])))
    async with workers(url, tg, tmp_path / "workers.log", 2) as w:
        tids = await open_tables(tg, players)
        bots = [Player(tg, user, tid) for (user, _), tid in zip(players, tids, strict=True)]
        title = t("note.result_title", "en", n=1)
        games = [
            asyncio.ensure_future(play_one(p, hand_over(tg, group, title)))
            for p, (_, group) in zip(bots, players, strict=True)
        ]
        for k in range(kills):  # a worker dies mid-hand, every so often
            await tg.wait_for(lambda _, k=k: sum(p.presses for p in bots) >= 30 * (k + 1), timeout=60,
                              what="presses before the kill")  # fmt: skip
            victim = next(p for p in w.procs if p.returncode is None)
            victim.kill()
            await victim.wait()
            if k + 1 < kills:
                await w.start()  # and a new one joins
        try:
            await asyncio.wait_for(asyncio.gather(*games), 120)
        except Exception as e:
            raise AssertionError(stuck(tg, bots, games, tmp_path / "workers.log")) from e

        # each player's result in private: one the killed worker had claimed is sent by another worker once
        # that one is known to be gone (no connection left, no heartbeat for a second and a half)
        def all_results(_: object) -> bool:
            return all(
                any(t("dm.result_title", "en", tid=tid, n=1) in (m.text or "") for m in tg.bot_messages(user))
                for (user, _), tid in zip(players, tids, strict=True)
            )

        await tg.wait_for(all_results, timeout=30, what="every player's result")
        await tg.wait_idle(timeout=30)
        # nothing lost: every update was answered, every hand ended and replays from its log
        assert tg.pending_updates == []
        async with await Storage.open(url) as storage:
            for tid in tids:
                [hand] = await storage.table_hands(tid)
                assert hand.finished and hand.result is not None and "deltas" in hand.result
                await storage.rebuild(hand.id)
            # every one-off message sent, and recorded as sent (a row the killed worker had sent but not
            # deleted is sent again by another worker once the killed one is known to be gone)
            assert await outbox_empties(storage) == []
        repeated = dm_repeated = 0
        for (user, group), tid in zip(players, tids, strict=True):
            # nothing doubled: one result per table. Except at a kill: a message the dying worker had sent
            # but not yet recorded as sent is sent once more by the worker that carries the table on
            # (Telegram has no idempotency key: at the crash point delivery is at least once)
            results = [m.text for m in tg.bot_messages(group) if title in (m.text or "")]
            # (the same result: its first lines; the ready countdown below it moves on)
            heads = {"\n".join((text or "").splitlines()[:6]) for text in results}
            assert len(heads) == 1 and len(results) <= 2, (group.title, results)
            repeated += len(results) - 1
            # his own result in private: there once (twice only where a kill cut in, as above)
            mine = t("dm.result_title", "en", tid=tid, n=1)
            dm = [m.text for m in tg.bot_messages(user) if mine in (m.text or "")]
            assert len(set(dm)) == 1 and len(dm) <= 2, (user.first_name, dm)
            dm_repeated += len(dm) - 1
            # nothing reordered: the player's panel never went back to an earlier decision
            shown = decisions_in_order(tg, user, tid)
            assert shown == sorted(shown), (user.first_name, shown)
        assert repeated <= kills and dm_repeated <= kills, (repeated, dm_repeated)
    assert os.path.getsize(tmp_path / "workers.log") == 0 or "Traceback" not in (
        tmp_path / "workers.log"
    ).read_text(errors="replace"), (tmp_path / "workers.log").read_text(errors="replace")[-3000:]


async def test_a_result_a_killed_worker_had_not_sent_is_sent_by_the_next_once(
    tg: FakeTelegramServer, pg_cluster: PgCluster, tmp_path: Path
) -> None:
    """The transactional outbox across a worker's death: the hand's final action is committed with the
    player's result, whose sending has not got through (his private chat unreachable for the moment) when
    the worker is killed. The worker that carries the table on sends it - once."""
    url = await pg_cluster.database()
    async with await Storage.open(url):
        pass
    alice = tg.add_user("Alice", language_code="en", started=True)
    group = tg.add_group("Table", members=[alice])
    async with workers(url, tg, tmp_path / "workers.log", 1) as w:
        [tid] = await open_tables(tg, [(alice, group)])
        player = Player(tg, alice, tid)
        await tg.wait_for(lambda _: player.decision() is not None, timeout=30, what="her first decision")
        await tg.wait_idle(timeout=30)  # her panel is out: from here on it is edited
        tg.hold("sendMessage", alice)
        title = t("dm.result_title", "en", tid=tid, n=1)

        def cut_off() -> bool:
            return any(title in c.params.get("text", "") for c in tg.held_calls())

        await play_one(player, cut_off)
        [proc] = w.procs
        proc.kill()
        await proc.wait()
        tg.release()  # the request held for the dead worker never got through
        await w.start()
        await tg.wait_for(lambda _: any(title in (m.text or "") for m in tg.bot_messages(alice)), timeout=30,
                          what="her result, from the second worker")  # fmt: skip
        await tg.wait_idle(timeout=30)
        assert [m.text for m in tg.bot_messages(alice) if title in (m.text or "")] == [
            c.params["text"] for c in tg.calls_to("sendMessage", chat_id=alice.id) if c.held
        ]
        async with await Storage.open(url) as storage:
            assert await storage.unsent_posts() == []


async def test_two_workers_twenty_tables_one_killed_mid_hand(
    tg: FakeTelegramServer, pg_cluster: PgCluster, tmp_path: Path
) -> None:
    await play_with_a_kill(tg, pg_cluster, tmp_path, tables=20, kills=1)


@pytest.mark.soak
async def test_soak_workers_killed_and_restarted(
    tg: FakeTelegramServer, pg_cluster: PgCluster, tmp_path: Path
) -> None:
    await play_with_a_kill(tg, pg_cluster, tmp_path, tables=40, kills=4)
