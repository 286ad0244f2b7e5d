"""kill -9 in the middle of a game: nothing committed is lost, nothing is applied twice.

A child process (this file run as a script) plays seeded hands at one table, logging every action through
storage and printing a line after each commit. The test reads N lines, SIGKILLs the child, reopens the
database and checks every logged hand against the same seeded game played in memory, then restores the table
and carries on playing it.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from storage import Storage, result_to_json

ROOT = Path(__file__).resolve().parents[1]
CHANGSHA = engine.get_variant("changsha")
CHAT, SEATS, MAX_HANDS = -4242, [101, 102, 103, 104], 1000


def game(seed: int, dealer: int | None) -> Iterator[tuple[engine.Action, engine.State]]:
    """The seeded random player both processes use."""
    state = engine.new_hand(CHANGSHA, seed, dealer=dealer)
    rng = random.Random(seed)
    while state.phase != engine.Phase.ENDED:
        seat = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, action)
        yield action, state


async def child(path: str, base_seed: int) -> None:
    """Play hand after hand (until killed), one committed transaction per action, a line per commit."""
    async with await Storage.open(path) as s:
        table = await s.create_table(CHAT, "changsha", seats=SEATS)
        dealer: int | None = None
        for i in range(MAX_HANDS):
            hand, state = await s.start_hand(table.id, seed=base_seed + i, dealer=dealer)
            for action, state in game(base_seed + i, dealer):
                ended = state.phase == engine.Phase.ENDED
                await s.log_action(hand.id, str(action), state.version, final=state if ended else None)
                print(hand.id, state.version, flush=True)
            assert state.result is not None
            dealer = state.result.next_dealer


def run_and_kill(db: Path, base_seed: int, lines: int, stderr: Path) -> list[tuple[int, int]]:
    """Start the child, read ``lines`` commit lines, SIGKILL it; returns the (hand, version) pairs read."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with stderr.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, __file__, str(db), str(base_seed)],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            cwd=ROOT,
            env=env,
        )
        seen: list[tuple[int, int]] = []
        try:
            assert proc.stdout is not None
            while len(seen) < lines:
                line = proc.stdout.readline()
                if not line:
                    break
                hand_id, version = line.split()
                seen.append((int(hand_id), int(version)))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            if proc.stdout is not None:
                proc.stdout.close()
    assert len(seen) == lines, f"the child stopped early:\n{stderr.read_text()}"
    assert proc.returncode == -signal.SIGKILL
    return seen


@pytest.mark.parametrize(("base_seed", "lines"), [(20, 1), (7, 45), (31, 130)])
async def test_kill_9_mid_game_loses_nothing_and_repeats_nothing(
    tmp_path: Path, base_seed: int, lines: int
) -> None:
    db = tmp_path / "bot.db"
    seen = run_and_kill(db, base_seed, lines, tmp_path / "child.err")

    async with await Storage.open(db) as s:
        (restored,) = await s.restore()
        hands = await s.table_hands(restored.table.id)
        logged: set[tuple[int, int]] = set()
        dealer: int | None = None
        expected: list[tuple[engine.Action, engine.State]] = []
        for i, hand in enumerate(hands):
            expected = list(game(base_seed + i, dealer))
            assert (hand.number, hand.seed, hand.dealer_drawn) == (i + 1, base_seed + i, dealer is None)
            rec = await s.hand_replay(hand.id)
            n = len(rec.actions)
            # the log is exactly a prefix of the game, in order, each version once
            assert [a.action for a in rec.actions] == [str(a) for a, _ in expected[:n]]
            assert [a.version for a in rec.actions] == [a.seq for a in rec.actions] == list(range(1, n + 1))
            assert hand.version == n
            logged |= {(hand.id, v) for v in range(1, n + 1)}
            final = expected[-1][1]
            if hand.finished:
                assert n == len(expected) and hand.result == result_to_json(final)
                assert final.result is not None
                dealer = final.result.next_dealer
            else:
                assert hand is hands[-1] and restored.hand is not None and restored.hand.id == hand.id
                in_memory = engine.replay(
                    CHANGSHA, hand.seed, [engine.Action.parse(a.action) for a in rec.actions], dealer=dealer
                )
                assert restored.state == in_memory
                dealt = engine.new_hand(CHANGSHA, hand.seed, dealer=dealer)
                assert restored.state == (expected[n - 1][1] if n else dealt)
        assert set(seen) <= logged  # every commit the child reported is there
        assert len(logged) >= lines

        # the restored table plays on from where it stopped
        if restored.hand is not None and restored.state is not None:
            hand_id = restored.hand.id
            for action, state in expected[restored.hand.version :]:
                ended = state.phase == engine.Phase.ENDED
                await s.log_action(hand_id, str(action), state.version, final=state if ended else None)
            assert (await s.get_hand(hand_id)).finished


if __name__ == "__main__":
    asyncio.run(child(sys.argv[1], int(sys.argv[2])))
