"""A run of automatic moves (the AI seats' turns after a press) is stored in one trip to the database
(``Storage.log_actions``), still one transaction per action: the first that fails stops the run, the ones
before it stay committed, and the bot's memory takes exactly those (an action is in memory only once it
is durable)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

import engine
from storage import InvalidInput, SeatPlay, Storage, VersionConflict
from storage.store import ActionLog

from .bot_support import Player, bot_running, lobby_message, open_table, quiet, service
from .fake_telegram import FakeTelegramServer


def played(seed: int, n: int) -> list[tuple[engine.Action, engine.State]]:
    """The first ``n`` actions of a seeded random Changsha hand, each with the state it produced."""
    state = engine.new_hand(engine.get_variant("changsha"), seed)
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        seat = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, action)
        out.append((action, state))
    return out


async def test_a_run_stops_at_the_first_refusal_and_keeps_what_was_committed(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, None, None])
    hand, _ = await store.start_hand(t.id, seed=7)
    steps = played(7, 5)
    run = [ActionLog(hand.id, a, s.version) for a, s in steps[:2]]
    # with a seat's play state: its own transaction (the row is written with the action, or neither is)
    run.append(
        ActionLog(hand.id, steps[2][0], steps[2][1].version, table_id=t.id, seats=[SeatPlay(0, False, 1)])
    )
    # a gap (version 5 after 3), with a seat row: refused, rolled back, and the run stops here
    run.append(
        ActionLog(hand.id, steps[4][0], steps[4][1].version, table_id=t.id, seats=[SeatPlay(1, False, 7)])
    )
    run.append(ActionLog(hand.id, steps[3][0], steps[3][1].version))  # would fit, but comes after the refusal
    seqs, error = await store.log_actions(run)
    assert seqs == [1, 2, 3]
    assert isinstance(error, VersionConflict)
    assert [a.version for a in (await store.hand_replay(hand.id)).actions] == [1, 2, 3]
    [restored] = await store.restore(t.id)
    timeouts = {p.seat: p.timeouts for p in restored.seats}
    assert timeouts.get(0) == 1 and timeouts.get(1, 0) == 0
    # all of it at once, nothing in the way
    assert await store.log_actions([ActionLog(hand.id, a, s.version) for a, s in steps[3:]]) == ([4, 5], None)


async def test_bad_input_in_a_run_writes_nothing(store: Storage) -> None:
    t = await store.create_table(1, "changsha", seats=[1, 2, None, None])
    hand, _ = await store.start_hand(t.id, seed=7)
    (a1, s1), _ = played(7, 2)
    with pytest.raises(InvalidInput, match="integer"):
        await store.log_actions([ActionLog(hand.id, a1, s1.version), ActionLog(hand.id, a1, "2")])  # type: ignore[arg-type]
    assert (await store.hand_replay(hand.id)).actions == ()


async def test_a_run_cut_short_leaves_memory_as_the_database(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """The database refuses the second automatic move after a press (a trigger stands in for a full disk):
    the first stays, in the database and in memory; the table's state, decisions and seats' rows in memory
    are what a replay of the database gives."""
    db = tmp_path / "bot.db"
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, db, seed_base=3) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: rt.hand is not None, what="the deal")
        assert rt.hand is not None
        me = Player(tg, alice, tid)
        seat = rt.hand.seats.index(alice.id)
        # answer until a press of hers is followed by at least two automatic moves (her discard: the AI
        # seats' claims and turns)
        for _ in range(40):
            found = await me.wait_decision(lambda: False)
            assert found is not None
            await quiet(app, tg)
            state = rt.state
            assert state is not None and rt.hand is not None
            if state.phase == engine.Phase.TURN and list(engine.to_act(state)) == [seat]:
                break
            me.press(found[0], found[1][0])
        else:
            raise AssertionError("no turn of hers")
        version = state.version
        with sqlite3.connect(db) as c:
            c.execute(
                "CREATE TRIGGER full_disk BEFORE INSERT ON actions WHEN NEW.version = ? "
                "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END".replace("?", str(version + 3))
            )
        me.press(found[0], found[1][0])  # her first button on a turn: a discard
        await tg.wait_for(lambda _: rt.state is not None and rt.state.version >= version + 2)
        await quiet(app, tg)
        assert rt.state is not None and rt.hand is not None
        assert rt.state.version == version + 2  # her discard and one automatic move
        assert any(rt.hand.seats[s] is None for s in engine.to_act(rt.state))  # an AI seat was cut short
        hand = await svc.storage.get_hand(rt.hand.id)
        assert hand.version == version + 2
        assert await svc.storage.rebuild(rt.hand.id) == rt.state
        [restored] = await svc.storage.restore(tid)
        assert {p.seat: p for p in restored.seats} == {
            s: rt.live.stored.get(s, SeatPlay(s)) for s in range(4)
        }
        assert seat not in rt.live.pending
        with sqlite3.connect(db) as c:
            c.execute("DROP TRIGGER full_disk")
