"""Engine benchmark: win checks, waits, shanten and whole random hands per second on one core.

Targets (issue 2): win check ≥ 200,000/s, waits ≥ 20,000/s, whole hands ≥ 300/s.
Run: ``make bench`` or ``.venv/bin/python bench/engine_bench.py [--quick]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Phase, WinContext, apply, get_ruleset, legal_actions, new_hand, to_act  # noqa: E402
from engine.game import waits  # noqa: E402
from engine.shape import is_standard, shanten  # noqa: E402
from engine.tiles import full_set, to_counts  # noqa: E402

RULES = get_ruleset("changsha")


def random_hands(n: int, size: int, rng: random.Random) -> list[tuple[int, ...]]:
    tiles = full_set(False)
    out = []
    for _ in range(n):
        rng.shuffle(tiles)
        out.append(to_counts(tiles[:size]))
    return out


def rate(fn, items) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    for x in items:
        fn(x)
    return len(items) / (time.perf_counter() - t0)


def changsha_win(counts: tuple[int, ...]) -> bool:
    """The full check a draw triggers: the cheap shape gate, then the variant's evaluation."""
    if not RULES.could_win(counts, ()):
        return False
    ctx = WinContext(0, 0, counts, (), 0, True)
    return RULES.evaluate_win(ctx) is not None


def whole_hands(n: int) -> float:
    t0 = time.perf_counter()
    for seed in range(n):
        rng = random.Random(seed)
        state = new_hand(RULES, seed)
        while state.phase != Phase.ENDED:
            seat = rng.choice(to_act(state))
            state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="smaller samples (a few seconds)")
    args = ap.parse_args()
    k = 1 if args.quick else 5
    rng = random.Random(1)
    h14 = random_hands(40_000 * k, 14, rng)
    h13 = random_hands(4_000 * k, 13, rng)
    results = [
        ("shape win check (is_standard)", rate(is_standard, h14), 200_000),
        ("Changsha win check", rate(changsha_win, h14), 200_000),
        ("waits (Changsha, 13 tiles)", rate(lambda c: waits(RULES, c), h13), 20_000),
        ("shanten (13 tiles)", rate(shanten, h13), None),
        ("whole random hands", whole_hands(100 * k), 300),
    ]
    for name, value, target in results:
        mark = "" if target is None else (" ok" if value >= target else f" BELOW target {target:,}")
        print(f"{name:32s} {value:12,.0f}/s{mark}")


if __name__ == "__main__":
    main()
