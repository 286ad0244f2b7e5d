"""Storage of the game night (schema v6): hand codes and shuffle salts, the seat facts and ratings derived
from each finished hand (also for hands finished before v6), remembered rooms, and a group that becomes a
supergroup taking them along."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import bot.ai as ai
import engine
from storage import SELF_DRAWN, InvalidInput, Storage, TableSettings, clean_code, ratings, schema
from storage.facts import seat_facts

from .playout import eager_policy
from .storage_helpers import FINISHED_SEED, moves, old_database, play_out

CHANGSHA = engine.get_variant("changsha")


@pytest.mark.parametrize("version", [4, 5])
async def test_hands_finished_before_v6_get_codes_facts_and_ratings(tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.db"
    await old_database(path, version)
    async with await Storage.open(path) as s:
        done, ongoing = await s.get_hand(1), await s.get_hand(2)
        assert len(done.code) == 10 and done.code != ongoing.code and done.salt is None
        assert await s.hand_by_code(done.code) is not None
        assert await s.table_stats(1) == []  # derived on the first pass, not by the migration
        assert await s.derive_pending() == 1 and await s.derive_pending() == 0
        rows = await s.table_stats(1)
        final = moves(FINISHED_SEED)[-1][1]
        assert [r.delta for r in rows] == list(final.result.deltas)  # type: ignore[union-attr]
        assert [r.win for r in rows] == [seat in final.result.winners for seat in range(4)]  # type: ignore[union-attr]
        board = await s.ratings(500, "changsha")
        assert set(board) == {1, 2, 3}  # seat 3 had no player (an AI seat): never rated
        best = max(range(3), key=lambda seat: final.result.deltas[seat])  # type: ignore[union-attr]
        assert board[best + 1].mu > ratings.DEFAULT_MU
        settings = await s.table_settings(1)
        assert (settings.rounds, settings.ready_s, settings.ready_until, settings.ready) == (8, 30, None, ())


async def test_ratings_move_the_right_way_and_ai_seats_stay_fixed(database: str) -> None:
    async with await Storage.open(database) as s:
        table = await s.create_table(-100, "changsha", seats=[1, 2, 3, None])
        rng = random.Random(3)
        state = await play_out(s, table.id, 17, rng)
        while len(set(state.result.deltas)) < 2:  # type: ignore[union-attr]
            state = await play_out(s, table.id, rng.randrange(10**6), rng)
        deltas = state.result.deltas  # type: ignore[union-attr]
        board = await s.ratings(-100, "changsha")
        assert set(board) == {1, 2, 3}
        for seat in range(3):
            r = board[seat + 1]
            better = sum(d > deltas[seat] for d in deltas)
            worse = sum(d < deltas[seat] for d in deltas)
            if better == 0 and worse > 0:
                assert r.mu > ratings.DEFAULT_MU and r.ordinal > 0
            if worse == 0 and better > 0:
                assert r.mu < ratings.DEFAULT_MU
        # a hand in which nobody gains or loses rates nobody
        assert ratings.rate([0, 0, 0, 0], [(25.0, 8.0), None, None, None]) == [(25.0, 8.0), None, None, None]
        assert ratings.ranks([5, -5, 0, 5]) == [1, 4, 3, 1]


async def test_codes_salts_and_remembered_rooms(database: str) -> None:
    async with await Storage.open(database) as s:
        table = await s.create_table(-7, "xiangyin", seats=[1, None, None])
        with pytest.raises(InvalidInput, match="salt"):
            await s.start_hand(table.id, 5, salt="short")
        hand, _ = await s.start_hand(table.id, 5, salt="a1b2c3d4e5f6a7b8")
        assert hand.salt == "a1b2c3d4e5f6a7b8" and clean_code(f"#{hand.code.upper()}") == hand.code
        assert clean_code("x") is None and clean_code("ab cd") is None and clean_code("☃" * 8) is None
        # /history lists only hands that ended with a result
        assert await s.chat_hands(-7) == []
        assert await s.remembered_room(-7, "xiangyin") is None
        await s.abandon_hand(hand.id)
        _, settings = await s.update_lobby(
            table.id, options={"birds": 4}, rounds=16, ready_s=60, remember=True
        )
        assert (settings.rounds, settings.ready_s) == (16, 60)
        room = await s.remembered_room(-7, "xiangyin")
        assert room is not None and (room.options["birds"], room.seats, room.rounds) == (4, 3, 16)
        with pytest.raises(InvalidInput):
            await s.update_settings(table.id, rounds=5)
        with pytest.raises(InvalidInput):
            await s.update_settings(table.id, ready_s=1)
        # a group upgraded to a supergroup keeps its remembered rooms and ratings
        other = await s.create_table(-8, "changsha", seats=[1, 2, None, None], settings=TableSettings())
        await play_out(s, other.id, 99, random.Random(1))
        before = await s.ratings(-8, "changsha")
        await s.migrate_chat(-7, -1007)
        await s.migrate_chat(-8, -1008)
        assert await s.remembered_room(-1007, "xiangyin") == room
        assert await s.ratings(-1008, "changsha") == before and await s.ratings(-8, "changsha") == {}
        assert [r.hand.id for r in await s.chat_hands(-1008)] == [h.id for h in await s.table_hands(other.id)]


def test_seat_facts_name_self_draws_and_deal_ins() -> None:
    """胡 / 自摸 / 点炮 from the replay: a win on one's own draw is a self-draw; a win on a discard is the
    discarder's deal-in (docs/stats.md)."""
    rng = random.Random(0)
    seen_self = seen_deal_in = False
    for seed in range(40):
        start = engine.new_hand(CHANGSHA, seed)
        state, actions = start, []
        while state.phase != engine.Phase.ENDED:
            seat = rng.choice(engine.to_act(state))
            action = eager_policy(state, seat, engine.legal_actions(state, seat), rng)
            state, _ = engine.apply(state, action)
            actions.append(action)
        final, facts = seat_facts(start, actions)
        assert final == state
        for f in facts:
            assert f.win == (f.seat in state.result.winners)  # type: ignore[union-attr]
            assert f.self_draw <= f.win and (f.best_value is not None) == f.win
        seen_self |= any(f.self_draw for f in facts)
        seen_deal_in |= any(f.deal_ins for f in facts)
        if any(f.deal_ins for f in facts):
            assert not any(f.self_draw for f in facts)
    assert seen_self and seen_deal_in


def test_schema_v6_is_the_game_night_step() -> None:
    assert schema.LATEST >= 6 and schema.MIGRATIONS[5] is schema.V6_GAME_NIGHT


async def test_a_restored_hand_knows_how_each_win_was_made(tmp_path: Path) -> None:
    """The facts a replay gathers keep how each win so far was made (``Facts.ways``: 自摸, or whose tile and
    how it was claimed), so a table restored after a restart, or read by another worker, names them in the
    result without a second replay of the log. A 血流成河 hand, stopped after its wins."""
    async with await Storage.open(tmp_path / "bot.db") as store:
        table = await store.create_table(-100, "sichuan", {"mode": "xueliu"}, [7, None, None, None])
        hand, state = await store.start_hand(table.id, 5, 0, ai=(1, 2, 3))
        rng = random.Random(5)
        ways: list[tuple[int, str, int | None]] = []
        while state.phase != engine.Phase.ENDED and len(ways) < 3:
            action = ai.choose(engine.observe(state, engine.to_act(state)[0]), rng)
            claim = state.claim if state.phase == engine.Phase.CLAIM else None
            if action.act == engine.Act.WIN:
                from_seat = claim.from_seat if claim is not None and claim.from_seat != action.seat else None
                kind = claim.kind.value if from_seat is not None and claim is not None else SELF_DRAWN
                ways.append((action.seat, kind, from_seat))
            state, _ = engine.apply(state, action)
            await store.log_action(hand.id, action, state.version)
        assert len(ways) == 3 and {w[1] for w in ways} == {SELF_DRAWN, "discard"}
        [restored] = await store.restore()
        assert restored.state == state and restored.facts.ways == tuple(ways)
        assert (await store.rebuild_with_facts(hand.id)) == (state, restored.facts)
