"""engine/wild.py — 红中 as a wild tile (docs/rules/hongzhong.md §2.1: it stands for any tile in runs,
triplets, the pair and 七小对): the table-fast win check, 七小对, shanten and useful tiles, each against a
slow oracle that tries every tile for every 红中.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations_with_replacement

from engine import get_variant
from engine.melds import Meld, MeldKind
from engine.shanten import HandShape, Shapes
from engine.shape import is_seven_pairs as plain_seven_pairs
from engine.shape import is_standard
from engine.tiles import Counts
from engine.wild import RED, WildShape, is_complete, is_seven_pairs, suit_need

from .reference import is_standard as reference_standard

HZ = get_variant("hongzhong")
SEVEN = Shapes(seven_pairs=True)


def slow_standard(counts: Counts) -> bool:
    """4 melds + a pair by plain search (tests/reference.py), any number of copies (a 红中 may be a fifth
    copy); the engine's own check where it applies (at most four of a kind), for speed."""
    if max(counts) <= 4:
        return is_standard(counts)
    return reference_standard(counts)


def slow_seven_pairs(counts: Counts) -> bool:
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


def substituted(counts: Counts) -> list[Counts]:
    """Every hand the 红中 could stand for: each 红中 replaced by a suited tile."""
    base = list(counts)
    w = base[RED]
    base[RED] = 0
    out = []
    for combo in combinations_with_replacement(range(27), w):
        c = list(base)
        for t in combo:
            c[t] += 1
        out.append(tuple(c))
    return out


def near_complete(rng: random.Random, wilds: int) -> Counts:
    """A complete 14-tile hand (4 melds + a pair), ``wilds`` of its tiles turned into 红中, sometimes one
    tile swapped for a random one: about half of them win."""
    while True:
        c = [0] * 34
        for _ in range(4):
            if rng.random() < 0.4:
                c[rng.randrange(27)] += 3
            else:
                s, r = rng.randrange(3), rng.randrange(7)
                for k in range(3):
                    c[9 * s + r + k] += 1
        c[rng.randrange(27)] += 2
        if max(c) > 4:
            continue
        tiles = [t for t in range(27) for _ in range(c[t])]
        for t in rng.sample(tiles, wilds):
            c[t] -= 1
        c[RED] = wilds
        if rng.random() < 0.5:
            out = rng.choice([t for t in range(27) if c[t]])
            c[out] -= 1
            c[rng.randrange(27)] += 1
        if max(c[:27]) <= 4:
            return tuple(c)


def check_against_oracle(
    check: Callable[[Counts], bool], oracle: Callable[[Counts], bool], hands: list[Counts]
) -> int:
    wins = 0
    for h in hands:
        got = check(h)
        assert got == any(oracle(s) for s in substituted(h)), h
        wins += got
    return wins


def test_win_check_agrees_with_trying_every_tile_for_every_red_dragon() -> None:
    """docs/rules/hongzhong.md §2.1: 红中 stands for any tile in melds and pairs: the fast check against the
    slow oracle."""
    rng = random.Random(1)
    hands = [near_complete(rng, w) for w in (0, 1, 2, 3) for _ in range(150)]
    wins = check_against_oracle(is_complete, slow_standard, hands)
    assert 150 < wins < 550  # both outcomes are well represented


def test_holding_the_pair_saves_a_suit_at_most_one_wild() -> None:
    """is_complete stops early on the bound −1 ≤ d ≤ 2 (a pair and a 红中 are a triplet; two 红中 are a
    pair)."""
    rng = random.Random(8)
    for _ in range(3000):
        key = tuple(min(4, rng.randrange(6) * rng.randrange(2)) for _ in range(9))
        m, d = suit_need(key)
        assert -1 <= d <= 2 and m >= 0, key


def test_four_wilds_and_fourteen_wilds_shapes() -> None:
    """Edge cases: four 红中 with ten tiles; a pair of 红中; 红中 as a whole triplet."""
    c = [0] * 34
    for t in (0, 1, 2, 9, 10, 11, 18, 19, 20, 26):
        c[t] += 1
    c[RED] = 4
    assert is_complete(tuple(c))  # 123m 123s 123p + 9p 红中 红中 (999p) + 红中 红中 (pair)
    c[26] = 0
    c[25] = 1
    assert is_complete(tuple(c))  # 8p with two 红中 is a triplet too


def test_seven_pairs_with_wilds_agree_with_the_oracle() -> None:
    """docs/rules/hongzhong.md §2.1, 裁定 7: 红中 stands for any tile in 七小对 (a four is two pairs)."""
    rng = random.Random(2)
    hands = []
    for i in range(400):
        w = i % 4
        c = [0] * 34
        for t in rng.sample(range(27), 7):
            c[t] += 2
        tiles = [t for t in range(27) for _ in range(c[t])]
        for t in rng.sample(tiles, w):
            c[t] -= 1
        if i % 3 == 0:
            out = rng.choice([t for t in range(27) if c[t]])
            c[out] -= 1
            c[rng.randrange(27)] += 1
        c[RED] = w
        hands.append(tuple(c))
    wins = check_against_oracle(is_seven_pairs, plain_seven_pairs, hands)
    assert 100 < wins < 400


def random_hand(rng: random.Random, size: int, wilds: int) -> Counts:
    tiles = [t for t in range(27) for _ in range(4)]
    rng.shuffle(tiles)
    c = [0] * 34
    for t in tiles[: size - wilds]:
        c[t] += 1
    c[RED] = wilds
    return tuple(c)


def test_shanten_without_wilds_is_the_common_shanten() -> None:
    """engine/wild.py's shanten with no 红中 equals engine/shanten.py's (4 melds + any pair, 七小对)."""
    rng = random.Random(3)
    for i in range(600):
        n_melds = (0, 0, 1, 2)[i % 4]
        melds = tuple(Meld(MeldKind.PUNG, 27 + k) for k in range(n_melds))
        counts = random_hand(rng, 13 - 3 * n_melds + i % 2, 0)
        assert WildShape(SEVEN, melds, four_win=False).shanten(counts) == HandShape(SEVEN, melds).shanten(
            counts
        ), counts


def test_shanten_with_wilds_is_the_best_substitution() -> None:
    """With 红中 the shanten is the lowest over every tile each 红中 may stand for."""
    rng = random.Random(4)
    for i in range(80):
        n_melds = (0, 0, 1)[i % 3]
        melds = tuple(Meld(MeldKind.PUNG, 27 + k) for k in range(n_melds))
        counts = random_hand(rng, 13 - 3 * n_melds + i % 2, 1 + i % 2)
        plain = HandShape(SEVEN, melds)
        want = min(plain.shanten(s) for s in substituted(counts))
        assert WildShape(SEVEN, melds, four_win=False).shanten(counts) == want, counts


def test_four_red_dragons_are_complete() -> None:
    """docs/rules/hongzhong.md §2.3, §2.9: four 红中 in hand win at once — shanten −1 with 14 tiles, 0 (every
    tile wins) with 13; three are ready (the fourth wins), whatever else the hand holds."""
    rng = random.Random(5)
    shape = HZ.hand_shape()
    for _ in range(20):
        assert shape.shanten(random_hand(rng, 14, 4)) == -1
        assert shape.shanten(random_hand(rng, 13, 4)) == 0
        assert shape.shanten(random_hand(rng, 13, 3)) == 0
        assert shape.shanten(random_hand(rng, 14, 3)) <= 0


def test_useful_tiles_are_those_that_lower_the_shanten() -> None:
    """useful() counts exactly the unseen tiles of the set whose draw lowers the shanten (a 红中 always does,
    an honor that is not in the 112-tile set never)."""
    rng = random.Random(6)
    for i in range(150):
        counts = random_hand(rng, 13, i % 4)
        shape = HZ.hand_shape()
        s = shape.shanten(counts)
        unseen = [rng.randint(0, 4) for _ in range(34)]
        want = 0
        for t in (*range(27), RED):
            if counts[t] < 4 and unseen[t]:
                c = list(counts)
                c[t] += 1
                if shape.shanten(tuple(c)) < s:
                    want += unseen[t]
        assert shape.useful(counts, s, unseen) == want, counts


def test_variant_shanten_is_zero_exactly_when_the_hand_waits() -> None:
    """Variant.shanten == 0 exactly when ``waits`` is not empty, with 红中 in hand."""
    rng = random.Random(7)
    ready = 0
    for i in range(300):
        c = list(near_complete(rng, i % 4))
        out = rng.choice([t for t in range(34) if c[t] and t != RED] or [RED])
        c[out] -= 1
        counts = tuple(c)
        s = HZ.shanten(counts)
        assert (s == 0) == bool(HZ.waits(counts)), counts
        ready += s == 0
    assert ready > 100
