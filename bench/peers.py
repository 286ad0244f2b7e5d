"""The engine against the `mahjong` package (the pure-Python riichi library on PyPI) on the same hands, in
one run: win checks, waits and shanten per second on each side, the ratio, and where the answers differ.

Like for like: our side is the shape part of a variant whose win shapes are the riichi ones (邵阳 Shaoyang:
4 melds + a pair, 七小对, 十三幺; 136 tiles), theirs is ``Agari.is_agari`` / ``Shanten.calculate_shanten``.
Waits on their side are every tile kind tried with ``is_agari`` (the package has no waits function). The
rules differ in one place: our 七小对 counts a four of a kind as two pairs (docs/rules/common.md), riichi's
chiitoitsu wants seven different pairs — so the answers may differ only on hands holding a four, or too few
kinds for seven different pairs; every other difference is printed as a MISMATCH (and the exit code is 1).

Each side is timed twice, alternating, and the faster run kept (the machine is shared). Install the peer
with the ``bench`` extra: ``.venv/bin/pip install -e '.[bench]'``; run ``.venv/bin/python bench/peers.py``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten
except ImportError:  # pragma: no cover - a bench extra
    sys.exit("bench/peers.py needs the `mahjong` package: .venv/bin/pip install -e '.[bench]'")

from engine import get_variant  # noqa: E402
from engine.shanten import shanten_shape  # noqa: E402
from engine.shape import is_seven_pairs, is_standard  # noqa: E402
from engine.tiles import NUM_KINDS, Counts, to_counts  # noqa: E402

RS = get_variant("shaoyang")  # the riichi win shapes: standard, 七小对, 十三幺
SHAPE = RS.hand_shape()
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
# ours: 万 0-8, 条 9-17, 筒 18-26; theirs: man 0-8, pin 9-17, sou 18-26; honors alike
TO_THEIRS = tuple(range(9)) + tuple(range(18, 27)) + tuple(range(9, 18)) + tuple(range(27, 34))


def theirs(counts: Counts) -> list[int]:
    out = [0] * NUM_KINDS
    for t, n in enumerate(counts):
        out[TO_THEIRS[t]] = n
    return out


def winning(rng: random.Random) -> list[int]:
    """A random complete 14-tile hand: 4 sets and a pair (often), seven pairs, or thirteen orphans."""
    pool = {t: 4 for t in range(NUM_KINDS)}

    def take(t: int, n: int) -> bool:
        if pool[t] < n:
            return False
        pool[t] -= n
        return True

    kind = rng.random()
    if kind < 0.03:
        return [*ORPHANS, rng.choice(ORPHANS)]
    tiles: list[int] = []
    if kind < 0.25:
        while len(tiles) < 14:
            t = rng.randrange(NUM_KINDS)
            if take(t, 2):
                tiles += [t, t]
        return tiles
    while len(tiles) < 12:
        t = rng.randrange(NUM_KINDS)
        if t < 27 and t % 9 <= 6 and rng.random() < 0.6:
            if all(pool[x] for x in (t, t + 1, t + 2)):
                for x in (t, t + 1, t + 2):
                    take(x, 1)
                tiles += [t, t + 1, t + 2]
        elif take(t, 3):
            tiles += [t, t, t]
    while not take(t := rng.randrange(NUM_KINDS), 2):
        pass
    return tiles + [t, t]


def fifth_copy(rng: random.Random, size: int) -> list[int]:
    """Three sets and a four of a kind, and for 14 tiles one tile more: the four reads as a pung and a single
    whose only wait may be a fifth copy (``456m333789s5555z`` is 1 from ready, not ready)."""
    pool = {t: 4 for t in range(NUM_KINDS)}
    four = rng.randrange(NUM_KINDS)
    pool[four] = 0
    tiles = [four] * 4
    while len(tiles) < 13:
        t = rng.randrange(NUM_KINDS)
        run = (t, t + 1, t + 2) if t < 27 and t % 9 <= 6 and rng.random() < 0.5 else (t, t, t)
        if all(pool[x] >= run.count(x) for x in run):
            for x in run:
                pool[x] -= 1
            tiles += run
    if size == 14:
        tiles.append(rng.choice([t for t in range(NUM_KINDS) if pool[t]]))
    return tiles


def hands(n: int, size: int, rng: random.Random) -> list[Counts]:
    """Half uniformly random hands of 136 tiles; of the other half, three in four a complete hand (less a tile
    for 13) and one in four three sets and a four of a kind (``fifth_copy``)."""
    full = [t for t in range(NUM_KINDS) for _ in range(4)]
    out = []
    for i in range(n):
        if i % 2:
            rng.shuffle(full)
            out.append(to_counts(full[:size]))
        elif i % 8 == 6:
            out.append(to_counts(fifth_copy(rng, size)))
        else:
            w = winning(rng)
            rng.shuffle(w)
            out.append(to_counts(w[:size]))
    return out


def rate(fn: Callable[[Any], object], items: Sequence[Any]) -> float:
    t0 = time.process_time()
    for x in items:
        fn(x)
    return len(items) / (time.process_time() - t0)


def best_rates(
    ours: Callable[[Any], object],
    ours_in: Sequence[Any],
    peer: Callable[[Any], object],
    peer_in: Sequence[Any],
) -> tuple[float, float]:
    a = b = 0.0
    for _ in range(2):
        a = max(a, rate(ours, ours_in))
        b = max(b, rate(peer, peer_in))
    return a, b


def seven_pairs_by_a_four(counts: Counts) -> bool:
    """A complete hand only by our 七小对 (a four of a kind as two pairs), which chiitoitsu does not take."""
    return is_seven_pairs(counts) and 4 in counts and not is_standard(counts)


def shanten_without_seven_pairs(counts: Counts) -> int:
    """Ours with 七小对 left out: the standard shape and 十三幺 (riichi's without chiitoitsu)."""
    kinds = sum(1 for t in ORPHANS if counts[t])
    orphans = 13 - kinds - (1 if any(counts[t] >= 2 for t in ORPHANS) else 0)
    return min(shanten_shape(counts, 0, False), orphans)


def peer_waits(c: list[int]) -> list[int]:
    out = []
    for t in range(NUM_KINDS):
        if c[t] < 4:
            c[t] += 1
            if Agari.is_agari(c):
                out.append(t)
            c[t] -= 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--quick", action="store_true", help="2,000 hands")
    args = ap.parse_args()
    n = 2_000 if args.quick else args.hands
    rng = random.Random(14)
    h14, h13 = hands(n, 14, rng), hands(n, 13, rng)
    p14, p13 = [theirs(c) for c in h14], [theirs(c) for c in h13]
    back = {TO_THEIRS[t]: t for t in range(NUM_KINDS)}
    mismatches = 0
    print(f"{'':28s} {'engine':>12s} {'mahjong':>12s} {'ratio':>7s}  agreement")

    def report(name: str, ours: float, peer: float, agree: int, ruled: int, bad: list[str]) -> None:
        nonlocal mismatches
        mismatches += len(bad)
        note = f"{agree / n:.2%} ({ruled} differ by the 七小对 rule, {len(bad)} MISMATCH)"
        print(f"{name:28s} {ours:10,.0f}/s {peer:10,.0f}/s {ours / peer:6.1f}x  {note}")
        for line in bad[:5]:
            print("   MISMATCH", line)

    # win check
    ours_r, peer_r = best_rates(lambda c: RS.could_win(c, ()), h14, Agari.is_agari, p14)
    agree = ruled = 0
    bad: list[str] = []
    for c, p in zip(h14, p14, strict=True):
        if RS.could_win(c, ()) == Agari.is_agari(p):
            agree += 1
        elif seven_pairs_by_a_four(c):
            ruled += 1
        else:
            bad.append(f"win {c}")
    report("win check (14 tiles)", ours_r, peer_r, agree, ruled, bad)

    # waits
    ours_r, peer_r = best_rates(RS.shape_waits, h13, peer_waits, p13)
    agree = ruled = 0
    bad = []
    for c, p in zip(h13, p13, strict=True):
        mine = RS.shape_waits(c)
        other = sorted(back[t] for t in peer_waits(p))
        if mine == other:
            agree += 1
        elif all(
            seven_pairs_by_a_four(tuple(x + (t == i) for i, x in enumerate(c)))
            for t in set(mine) - set(other)
        ) and set(other) <= set(mine):
            ruled += 1
        else:
            bad.append(f"waits {c}: {mine} vs {other}")
    report("waits (13 tiles)", ours_r, peer_r, agree, ruled, bad)

    # shanten
    ours_r, peer_r = best_rates(SHAPE.shanten, h13, Shanten.calculate_shanten, p13)
    agree = ruled = 0
    bad = []
    for c, p in zip(h13, p13, strict=True):
        if SHAPE.shanten(c) == Shanten.calculate_shanten(p):
            agree += 1
        elif shanten_without_seven_pairs(c) == Shanten.calculate_shanten(p, use_chiitoitsu=False):
            ruled += 1  # the two agree once 七小对 is left out: the difference is its rule
        else:
            bad.append(f"shanten {c}: {SHAPE.shanten(c)} vs {Shanten.calculate_shanten(p)}")
    report("shanten (13 tiles)", ours_r, peer_r, agree, ruled, bad)
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
