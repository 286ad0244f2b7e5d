"""AI benchmark: CPU time per decision, and strength against another version of the AI.

Speed: four AI seats play Changsha hands; every ``choose`` call is timed (thread CPU time) and the mean,
median and 99th percentile per decision are printed (target: ≤ 2 ms mean, ≤ 10 ms p99).
``--level`` picks the AI's level (bot/ai/levels.py; default the strongest). For strength against the
baseline level in duplicate matches, bench/ai_duel.py.

Strength (``--against REV``): the AI of this tree in seats 0 and 2 against the AI of git revision REV
(bot/ai/ as it was there, loaded under another name; both run on this tree's engine, whose answers are
exact, so only the decisions differ) in seats 1 and 3 — and then the same seeds with the seats swapped, so
neither side keeps the luck of a seat. Printed: each side's win rate (hands won / hands), points per hand
and the drawn hands; "without getting weaker" means this tree's side wins at least as often.

Before and after (``--selfplay N``): four AI seats play N hands and the seats' win rates are printed with a
digest of every decision made. Run it on two trees (e.g. a checkout of ``main`` and this one): the same digest
means the AI made exactly the same decisions on every hand — the engine change left it no weaker.

Per decision, replayed (``--replay N``): N AI-only hands are played once (each decision timed: the first
pass, the engine's memos filling as they would in a fresh process), then every recorded decision is made
again from its observation and generator state, three times (the best is printed: warm memos, as in a bot
that has run a while). Only ``choose`` is timed, never the engine's steps. ``--variant all`` runs every
variant, here and with ``--selfplay``. For a same-run baseline run it on another tree too, alternating
(e.g. ``git archive main | tar -x -C /tmp/ai-base``, with this tree's .venv linked there).

Run: ``.venv/bin/python bench/ai_bench.py [--hands N] [--against main] [--variant changsha|all] [--selfplay N]
[--replay N]``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot import ai  # noqa: E402
from engine import VARIANTS, Action, Observation, Phase, apply, get_variant, new_hand, observe, to_act  # noqa: E402

Choose = Callable[[Observation, random.Random], Action]
LEVEL = [ai.DEFAULT_LEVEL]  # --level


def _choose(obs: Observation, rng: random.Random) -> Action:
    return ai.choose(obs, rng, LEVEL[0])


def load_ai(rev: str) -> ModuleType:
    """bot/ai/ as it is at git revision ``rev``, as a module of its own."""
    for name in ("bot/ai/__init__.py", "bot/ai.py"):  # the AI's file before and after bot/ became rooms
        shown = subprocess.run(["git", "show", f"{rev}:{name}"], cwd=ROOT, capture_output=True, text=True)
        if shown.returncode == 0:
            break
    shown.check_returncode()
    src = shown.stdout
    path = Path(tempfile.mkdtemp(prefix="ai_bench_")) / "ai_at_rev.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(f"ai_at_{rev.replace('/', '_')}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def play(
    variant: str,
    seed: int,
    seats: list[Choose],
    times: dict[int, list[float]] | None = None,
    digest: Any = None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One hand; (winners, score deltas). ``times``: per seat, the CPU time of each decision; ``digest``
    takes every decision."""
    rs = get_variant(variant)
    state = new_hand(rs, seed)
    rngs = [random.Random(f"{seed}/{i}") for i in range(4)]
    for _ in range(3000):
        if state.phase == Phase.ENDED:
            break
        seat = to_act(state)[0]
        obs = observe(state, seat)
        t0 = time.thread_time()
        action = seats[seat](obs, rngs[seat])
        if times is not None:
            times[seat].append(time.thread_time() - t0)
        if digest is not None:
            digest.update(repr(action).encode())
        state, _ = apply(state, action)
    assert state.result is not None, f"hand {seed} did not end"
    return state.result.winners, state.result.deltas


def speed(variant: str, hands: int) -> list[float]:
    times: dict[int, list[float]] = {i: [] for i in range(4)}
    for seed in range(hands):
        play(variant, seed, [_choose] * 4, times)
    return [t for ts in times.values() for t in ts]


def selfplay(variant: str, hands: int) -> None:
    """Four AI seats, ``hands`` hands: each seat's win rate and the digest of all decisions."""
    digest = hashlib.sha256()
    won = [0] * 4
    drawn = 0
    for seed in range(hands):
        winners, _ = play(variant, seed, [_choose] * 4, digest=digest)
        drawn += not winners
        for w in winners:
            won[w] += 1
    rates = ", ".join(f"{w / hands:.2%}" for w in won)
    print(f"self-play {hands} hands ({variant}): seat win rates {rates}; drawn {drawn / hands:.2%}")
    print(f"  decisions digest {digest.hexdigest()[:16]}")


def replay(variant: str, hands: int) -> tuple[int, float, float]:
    """(decisions, µs per decision on the first pass, µs per decision warm: the best of three replays)."""
    rs = get_variant(variant)
    recorded: list[tuple[Observation, Any]] = []
    first = 0.0
    for seed in range(hands):
        state = new_hand(rs, seed)
        rngs = [random.Random(f"{seed}/{i}") for i in range(4)]
        while state.phase != Phase.ENDED:
            seat = to_act(state)[0]
            obs = observe(state, seat)
            before = rngs[seat].getstate()
            t0 = time.thread_time()
            action = _choose(obs, rngs[seat])
            first += time.thread_time() - t0
            recorded.append((obs, before))
            state, _ = apply(state, action)
    rng = random.Random()
    warm = float("inf")
    for _ in range(3):
        t0 = time.thread_time()
        for obs, before in recorded:
            rng.setstate(before)
            _choose(obs, rng)
        warm = min(warm, time.thread_time() - t0)
    n = len(recorded)
    return n, first / n * 1e6, warm / n * 1e6


def match(variant: str, hands: int, ours: Choose, theirs: Choose) -> dict[str, float]:
    """``hands`` seeds with ours in seats 0/2, then the same seeds with ours in 1/3."""
    won = {"ours": 0, "theirs": 0}
    points = {"ours": 0, "theirs": 0}
    drawn = 0
    for swap in (False, True):
        seats = [theirs, ours, theirs, ours] if swap else [ours, theirs, ours, theirs]
        side = ["theirs", "ours", "theirs", "ours"] if swap else ["ours", "theirs", "ours", "theirs"]
        for seed in range(hands):
            winners, deltas = play(variant, seed, seats)
            if not winners:
                drawn += 1
            for w in winners:
                won[side[w]] += 1
            for s, d in enumerate(deltas):
                points[side[s]] += d
    total = 2 * hands
    return {
        "ours_win_rate": won["ours"] / total,
        "theirs_win_rate": won["theirs"] / total,
        "ours_points": points["ours"] / total,
        "theirs_points": points["theirs"] / total,
        "drawn": drawn / total,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="changsha")
    ap.add_argument("--hands", type=int, default=2000, help="hands per seating in the match (default 2000)")
    ap.add_argument("--speed-hands", type=int, default=100, help="AI-only hands timed for speed")
    ap.add_argument("--against", metavar="REV", help="play this tree's AI against bot/ai/ at REV")
    ap.add_argument("--quick", action="store_true", help="20 timed hands, no match")
    ap.add_argument("--selfplay", type=int, metavar="N", help="only: N AI-only hands, win rates and digest")
    ap.add_argument(
        "--replay", type=int, metavar="N", help="only: µs per decision over N hands, first and warm"
    )
    ap.add_argument("--level", default=ai.DEFAULT_LEVEL, choices=ai.LEVEL_IDS, help="the AI's level")
    args = ap.parse_args()
    LEVEL[0] = args.level
    variants = list(VARIANTS) if args.variant == "all" else [args.variant]
    if args.selfplay:
        for v in variants:
            t0 = time.process_time()
            selfplay(v, args.selfplay)
            print(f"  {time.process_time() - t0:.1f} s CPU (engine and AI)")
        return
    if args.replay:
        for v in variants:
            n, first, warm = replay(v, args.replay)
            print(f"{v:10s} {n} decisions: first pass {first:.0f} µs/decision, warm {warm:.0f} µs/decision")
        return
    hands = 20 if args.quick else args.speed_hands
    ts = sorted(speed(args.variant, hands))
    mean = statistics.fmean(ts) * 1e3
    p50 = ts[len(ts) // 2] * 1e3
    p99 = ts[int(len(ts) * 0.99)] * 1e3
    mark = " ok" if mean <= 2.0 and p99 <= 10.0 else " ABOVE target (2 ms mean, 10 ms p99)"
    print(
        f"AI decision CPU ({args.variant}, {len(ts)} decisions): mean {mean:.3f} ms{mark}, "
        f"median {p50:.3f} ms, p99 {p99:.3f} ms"
    )
    if args.against and not args.quick:
        old = load_ai(args.against)
        r = match(args.variant, args.hands, _choose, old.choose)
        print(f"match over {2 * args.hands} hands (each seed twice, seats swapped):")
        print(f"  this AI    win rate {r['ours_win_rate']:.2%}, points/hand {r['ours_points']:+.2f}")
        print(
            f"  {args.against:10s} win rate {r['theirs_win_rate']:.2%}, points/hand {r['theirs_points']:+.2f}"
        )
        print(f"  drawn hands {r['drawn']:.2%}")


if __name__ == "__main__":
    main()
