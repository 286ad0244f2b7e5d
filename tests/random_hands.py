"""Seeded random hands in a variant's winning shapes (tests/test_shanten.py, test_fast_paths.py,
test_ai_fast.py): complete ones, and near-ready ones (a tile less, perhaps one swapped), where a mismatch
between two ways of counting shanten or waits would show."""

from __future__ import annotations

import random

from engine import Meld, MeldKind, Variant
from engine.tiles import Counts, to_counts

SHANTEN_VARIANTS = ("changsha", "hengyang", "xiangyin", "shaoyang", "sichuan")


def tile_kinds(rs: Variant) -> list[int]:
    return sorted(set(rs.tile_set(4, rs.make_options())))


def winning_hand(rs: Variant, rng: random.Random) -> tuple[list[int], tuple[Meld, ...]]:
    """A random hand of 14 tiles (melds count 3) in one of the shapes the variant wins with."""
    kinds = tile_kinds(rs)
    suited = [t for t in kinds if t < 27]
    pool = {t: 4 for t in kinds}

    def take(t: int, n: int) -> bool:
        if pool.get(t, 0) < n:
            return False
        pool[t] -= n
        return True

    shape = rng.random()
    if shape < 0.2:  # seven pairs (a four counts as two)
        tiles: list[int] = []
        while len(tiles) < 14:
            t = rng.choice(suited if rng.random() < 0.8 else kinds)
            if take(t, 2):
                tiles += [t, t]
        return tiles, ()
    if shape < 0.3:  # all 2/5/8 in any shape
        tiles = []
        t258 = [t for t in suited if t % 9 in (1, 4, 7)]
        while len(tiles) < 14:
            t = rng.choice(t258)
            if take(t, 1):
                tiles.append(t)
        return tiles, ()
    if shape < 0.35 and len(kinds) > 27:  # thirteen orphans
        orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        return [*orphans, rng.choice(orphans)], ()
    one_suit = rng.random() < 0.25
    suit = rng.randrange(3)
    allowed = [t for t in kinds if not one_suit or t // 9 == suit]
    tiles = []
    melds: list[Meld] = []
    n_melds = rng.choice((0, 0, 1, 2, 4)) if rng.random() < 0.5 else 0
    while len(tiles) + 3 * len(melds) < 12:
        t = rng.choice(allowed)
        if t < 27 and t % 9 <= 6 and rng.random() < 0.6 and t + 2 in allowed:
            run = [t, t + 1, t + 2]
            if all(pool.get(x, 0) >= 1 for x in run):
                for x in run:
                    take(x, 1)
                if len(melds) < n_melds:
                    melds.append(Meld(MeldKind.CHOW, t, 0))
                else:
                    tiles += run
                continue
        if take(t, 3):
            if len(melds) < n_melds:
                melds.append(Meld(MeldKind.PUNG, t, 0))
            else:
                tiles += [t, t, t]
    while True:
        t = rng.choice(allowed)
        if rng.random() < 0.5 and t < 27:
            t = t - t % 9 + rng.choice((1, 4, 7))  # often a 2/5/8 pair (将)
        if take(t, 2):
            tiles += [t, t]
            return tiles, tuple(melds)


def near_ready_hand(rs: Variant, rng: random.Random) -> tuple[Counts, tuple[Meld, ...]]:
    tiles, melds = winning_hand(rs, rng)
    rng.shuffle(tiles)
    tiles.pop()
    if rng.random() < 0.5:
        held = to_counts(tiles)
        used = list(held)
        for m in melds:
            for x in m.tiles:
                used[x] += 1
        spare = [t for t in tile_kinds(rs) if used[t] < 4]
        tiles[rng.randrange(len(tiles))] = rng.choice(spare)
    return to_counts(tiles), melds
