"""AI duel in duplicate matches: is a level of the AI stronger than the baseline, and by how much?

Every seeded wall is played once per seat with the candidate in that seat and the baseline in every other
(four times at four seats, three at 三人两房): each seat sees the same tiles and the same dice, so the luck of
the wall cancels and what is left is the play. Per wall the candidate's score is its mean result over the
rotations, in 底分 (the room's base); the 95% confidence interval is over the walls (normal approximation).
Win rate: hands the candidate won (at least once). Deal-in rate: hands in which a seat was won on — its
discard, its robbed kong — per seat-hand, for the candidate and for the baseline seats of the same games.

Every variant with its default room, and the Sichuan modes (血战到底, 血流成河, 换三张, 三人两房: the
variant's presets). One line each, then the total over all of them:

    VARIANT: candidate vs baseline: mean +X.XX 底分 per hand (95% CI a..b), win rate W%,
    deal-in rate D% (baseline D0%)        (on one line)

Run: ``.venv/bin/python bench/ai_duel.py [--quick] [--walls N] [--only changsha,sichuan/xueliu]
[--candidate expert] [--baseline easy] [--jobs N]``. ``--quick`` plays 60 walls per line; the target is
≥ 4,000, and the default is 12,000 (seeds 0–11,999; about 55 minutes with two jobs): at 4,000 the CI is
about ±0.07 底分, as wide as the expert's lead in 长沙 and 红中 (docs/ai.md has the figures). ``--jobs``:
worker processes (default: 2 when the machine is idle — load average under 0.5 per core — else 1).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot import ai  # noqa: E402
from engine import VARIANTS, Act, Action, Phase, State, apply, get_variant, new_hand, observe, to_act  # noqa: E402


@dataclass(frozen=True)
class Room:
    """One line of the duel: a variant, its room options and its seat count."""

    label: str
    variant: str
    options: tuple[tuple[str, Any], ...]
    seats: int


def rooms() -> list[Room]:
    """Each variant's default room; a variant with presets (四川) plays each preset as its own line."""
    out = []
    for vid in VARIANTS:
        rs = get_variant(vid)
        if not rs.presets:
            out.append(Room(vid, vid, (), max(rs.seat_counts)))
            continue
        for p in rs.presets:
            seats = p.seats if p.seats is not None else max(rs.seat_counts)
            out.append(Room(f"{vid}/{p.id}", vid, tuple(sorted(p.options.items())), seats))
    return out


@dataclass
class Tally:
    walls: int = 0
    sum: float = 0.0
    sumsq: float = 0.0
    hands: int = 0
    cand_wins: int = 0
    cand_dealins: int = 0
    base_dealins: int = 0
    base_seat_hands: int = 0

    def add(self, o: Tally) -> None:
        self.walls += o.walls
        self.sum += o.sum
        self.sumsq += o.sumsq
        self.hands += o.hands
        self.cand_wins += o.cand_wins
        self.cand_dealins += o.cand_dealins
        self.base_dealins += o.base_dealins
        self.base_seat_hands += o.base_seat_hands

    def line(self, label: str) -> str:
        n = max(self.walls, 1)
        mean = self.sum / n
        var = max(0.0, (self.sumsq - n * mean * mean) / max(n - 1, 1))
        half = 1.96 * math.sqrt(var / n)
        win = self.cand_wins / max(self.hands, 1)
        d = self.cand_dealins / max(self.hands, 1)
        d0 = self.base_dealins / max(self.base_seat_hands, 1)
        rate = ".2%" if max(d, d0) < 0.05 else ".1%"  # rare deal-ins (a robbed kong, 杠上炮): two decimals
        return (
            f"{label}: candidate vs baseline: mean {mean:+.2f} 底分 per hand "
            f"(95% CI {mean - half:+.2f}..{mean + half:+.2f}), win rate {win:.1%}, "
            f"deal-in rate {d:{rate}} (baseline {d0:{rate}})"
        )


def deal(room: Room, seed: int) -> tuple[State, list[random.Random], int]:
    """The room's hand on wall ``seed``, each seat's own random generator, and the room's 底分."""
    rs = get_variant(room.variant)
    opts = rs.make_options(dict(room.options))
    state = new_hand(rs, seed, opts, seats=room.seats)
    return state, [random.Random(f"{seed}/{i}") for i in range(room.seats)], int(opts.get("base", 1))


def payer_of(state: State, action: Action) -> int | None:
    """The seat whose discard (or kong, robbed) ``action`` wins on, if it is such a win."""
    if action.act == Act.WIN and state.phase == Phase.CLAIM and state.claim is not None:
        return state.claim.from_seat
    return None


def play_wall(room: Room, seed: int, candidate: str, baseline: str) -> Tally:
    """One wall, the candidate in each seat in turn."""
    t = Tally(walls=1)
    total = 0.0
    for cand in range(room.seats):
        state, rngs, base = deal(room, seed)
        levels = [candidate if i == cand else baseline for i in range(room.seats)]
        dealt_in = [False] * room.seats
        for _ in range(5000):
            if state.phase == Phase.ENDED:
                break
            seat = to_act(state)[0]
            action = ai.choose(observe(state, seat), rngs[seat], levels[seat])
            payer = payer_of(state, action)
            if payer is not None:
                dealt_in[payer] = True
            state, _ = apply(state, action)
        assert state.result is not None, f"{room.label} wall {seed} did not end"
        total += state.result.deltas[cand] / base
        t.hands += 1
        t.cand_wins += cand in state.result.winners
        t.cand_dealins += dealt_in[cand]
        t.base_dealins += sum(dealt_in[i] for i in range(room.seats) if i != cand)
        t.base_seat_hands += room.seats - 1
    score = total / room.seats
    t.sum = score
    t.sumsq = score * score
    return t


def _chunk(args: tuple[Room, list[int], str, str]) -> Tally:
    room, seeds, candidate, baseline = args
    out = Tally()
    for s in seeds:
        out.add(play_wall(room, s, candidate, baseline))
    return out


def default_jobs() -> int:
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1
    return min(2, cores) if load < 0.5 * cores else 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--walls", type=int, default=12000, help="walls per line (default 12000)")
    ap.add_argument("--quick", action="store_true", help="60 walls per line")
    ap.add_argument("--only", help="comma-separated labels (changsha, sichuan/xueliu, …)")
    ap.add_argument("--candidate", default=ai.DEFAULT_LEVEL, choices=ai.LEVEL_IDS)
    ap.add_argument("--baseline", default=ai.BASELINE_LEVEL, choices=ai.LEVEL_IDS)
    ap.add_argument("--jobs", type=int, default=0, help="worker processes (0: 2 if the machine is idle)")
    ap.add_argument("--first", type=int, default=0, help="the first wall's seed")
    args = ap.parse_args()
    walls = 60 if args.quick else args.walls
    wanted = set(args.only.split(",")) if args.only else None
    chosen = [r for r in rooms() if wanted is None or r.label in wanted or r.variant in wanted]
    jobs = args.jobs or default_jobs()
    print(
        f"{args.candidate} vs {args.baseline}: {walls} walls per line, each played once per seat; "
        f"{jobs} job(s)"
    )
    grand = Tally()
    t0 = time.monotonic()
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        for room in chosen:
            seeds = list(range(args.first, args.first + walls))
            size = max(1, len(seeds) // (jobs * 8))
            chunks = [
                (room, seeds[i : i + size], args.candidate, args.baseline) for i in range(0, len(seeds), size)
            ]
            tally = Tally()
            parts = pool.imap_unordered(_chunk, chunks) if pool is not None else map(_chunk, chunks)
            for part in parts:
                tally.add(part)
            print(tally.line(room.label), flush=True)
            grand.add(tally)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(grand.line("TOTAL"))
    print(f"{time.monotonic() - t0:.0f} s wall clock")


if __name__ == "__main__":
    main()
