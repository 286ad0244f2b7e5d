"""Wild-tile benchmark (红中麻将): win checks, waits and shanten with 红中 as wilds, per second on one core.

Target: the win check ≥ 200,000/s for 14-tile hands with up to four 红中 — the full check a draw
triggers (``could_win`` then ``evaluate_win``, as bench/engine_bench.py measures Changsha's), on random
hands from the 112-tile set with 0–4 红中 (each count equally often). Near-complete hands (4 melds + a pair,
0–4 of their tiles turned into 红中, half of them with one tile swapped: most win, the slow path through
evaluate_win) are measured too. Same-run baselines: Changsha's check on random
108-tile hands and on the near-complete hands without 红中.
Run: ``make bench`` or ``.venv/bin/python bench/wild_bench.py [--quick]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import WinContext, get_variant  # noqa: E402
from engine.tiles import full_set, to_counts  # noqa: E402
from engine.wild import RED, is_complete  # noqa: E402
from tests.test_wild import near_complete  # noqa: E402  (the hands the win-check tests use)

HZ = get_variant("hongzhong")
CS = get_variant("changsha")
OPTS = HZ.make_options()


def random_hands(n: int, size: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Random hands of the 112-tile set, the number of 红中 cycling 0, 1, 2, 3, 4."""
    suited = full_set(False)
    out = []
    for i in range(n):
        reds = i % 5
        rng.shuffle(suited)
        c = list(to_counts(suited[: size - reds]))
        c[RED] = reds
        out.append(tuple(c))
    return out


def hz_win(counts: tuple[int, ...]) -> bool:
    """The full check a draw triggers: the cheap shape gate, then the variant's evaluation."""
    if not HZ.could_win(counts, ()):
        return False
    return HZ.evaluate_win(WinContext(0, 0, counts, (), 0, True, options=OPTS)) is not None


def cs_win(counts: tuple[int, ...]) -> bool:
    if not CS.could_win(counts, ()):
        return False
    return CS.evaluate_win(WinContext(0, 0, counts, (), 0, True)) is not None


def rate(fn, items) -> float:  # type: ignore[no-untyped-def]
    """Calls per second of this process's CPU time: "on one core", whatever else the machine runs."""
    fn(items[0])
    t0 = time.process_time()
    for x in items:
        fn(x)
    return len(items) / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="smaller samples (a few seconds)")
    args = ap.parse_args()
    k = 1 if args.quick else 5
    rng = random.Random(1)
    h14 = random_hands(40_000 * k, 14, rng)
    near = [near_complete(rng, i % 5) for i in range(40_000 * k)]  # 0–4 红中
    plain = [to_counts(rng.sample(full_set(False), 14)) for _ in range(40_000 * k)]
    h13 = random_hands(4_000 * k, 13, rng)
    shape = HZ.hand_shape()
    for hands in (h14, near, plain):  # warm the memo tables, as a running bot has them
        for h in hands:
            is_complete(h)
    wins = sum(hz_win(h) for h in near)
    near_plain = [h for h in near if not h[RED]]
    results = [
        ("Changsha win check (baseline)", rate(cs_win, plain), None),
        ("Changsha, near-complete (baseline)", rate(cs_win, near_plain), None),
        ("红中 win check, random, 0-4 红中", rate(hz_win, h14), 200_000),
        (f"红中 win check, near-complete ({100 * wins // len(near)}% win)", rate(hz_win, near), None),
        ("红中 shape check (is_complete)", rate(is_complete, h14), None),
        ("红中 waits (13 tiles)", rate(lambda c: HZ.waits(c, (), OPTS), h13), None),
        ("红中 shanten (13 tiles)", rate(shape.shanten, h13), None),
    ]
    for name, value, target in results:
        mark = "" if target is None else (" ok" if value >= target else f" BELOW target {target:,}")
        print(f"{name:42s} {value:12,.0f}/s{mark}")


if __name__ == "__main__":
    main()
