"""Tiles, hands as count vectors, and the text notation.

A tile is an int 0..33: 0-8 万 (m), 9-17 条 (s), 18-26 筒 (p), 27-33 honors 东南西北白发中 (1z..7z).
The order m, s, p follows the notation example ``123m456s789p1z`` so formatting is stable.
A hand is a 34-tuple of counts: the fast form for win checks; lists of tiles are for people.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidNotation

SUITS = "mspz"
SUIT_OF_LETTER = {"m": 0, "s": 1, "p": 2, "z": 3}
NUM_KINDS = 34
SUITED_KINDS = 27

SUIT_NAMES_ZH = ("万", "条", "筒")
NUMBER_ZH = "一二三四五六七八九"
HONOR_ZH = ("东", "南", "西", "北", "白", "发", "中")

Counts = tuple[int, ...]


def tile(rank: int, suit: str) -> int:
    """Tile index for rank 1..9 (1..7 for honors) and suit letter."""
    if suit not in SUIT_OF_LETTER:
        raise InvalidNotation(f"unknown suit {suit!r}")
    s = SUIT_OF_LETTER[suit]
    if not 1 <= rank <= (7 if s == 3 else 9):
        raise InvalidNotation(f"rank {rank} out of range for suit {suit!r}")
    return s * 9 + rank - 1


def suit_of(t: int) -> int:
    return t // 9


def rank_of(t: int) -> int:
    """Rank 1..9 (1..7 for honors)."""
    return t % 9 + 1


def is_honor(t: int) -> bool:
    return t >= SUITED_KINDS


def is_258(t: int) -> bool:
    """2, 5 or 8 of a suit: the tiles that may form the Changsha pair (将)."""
    return t < SUITED_KINDS and t % 9 in (1, 4, 7)


def tile_str(t: int) -> str:
    return f"{rank_of(t)}{SUITS[suit_of(t)]}"


def tile_zh(t: int) -> str:
    """Chinese name: 五万, 三条, 九筒, 东."""
    if is_honor(t):
        return HONOR_ZH[t - SUITED_KINDS]
    return NUMBER_ZH[t % 9] + SUIT_NAMES_ZH[suit_of(t)]


def parse_tiles(text: str) -> list[int]:
    """Parse plain tiles like ``123m456s1z`` (no melds) into a sorted list of tile indices."""
    out: list[int] = []
    digits: list[int] = []
    for ch in text.replace(" ", ""):
        if "0" <= ch <= "9":  # ASCII digits only: "²".isdigit() is True but int("²") fails
            digits.append(int(ch))
        elif ch in SUIT_OF_LETTER:
            if not digits:
                raise InvalidNotation(f"suit letter {ch!r} without ranks in {text!r}")
            out.extend(tile(d, ch) for d in digits)
            digits = []
        else:
            raise InvalidNotation(f"unexpected character {ch!r} in {text!r}")
    if digits:
        raise InvalidNotation(f"ranks without a suit letter at the end of {text!r}")
    return sorted(out)


def parse_tile(text: str) -> int:
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise InvalidNotation(f"expected one tile, got {text!r}")
    return tiles[0]


def format_tiles(tiles: Iterable[int]) -> str:
    """Sorted compact notation: ``[0, 1, 2, 27]`` → ``123m1z``."""
    by_suit: list[list[int]] = [[], [], [], []]
    for t in sorted(tiles):
        by_suit[suit_of(t)].append(rank_of(t))
    return "".join("".join(map(str, ranks)) + SUITS[s] for s, ranks in enumerate(by_suit) if ranks)


def to_counts(tiles: Iterable[int]) -> Counts:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return tuple(c)


def from_counts(counts: Counts) -> list[int]:
    return [t for t, n in enumerate(counts) for _ in range(n)]


def add_tile(counts: Counts, t: int, n: int = 1) -> Counts:
    c = list(counts)
    c[t] += n
    return tuple(c)


def remove_tile(counts: Counts, t: int, n: int = 1) -> Counts:
    if counts[t] < n:
        raise ValueError(f"hand has {counts[t]} of {tile_str(t)}, cannot remove {n}")
    c = list(counts)
    c[t] -= n
    return tuple(c)


def full_set(with_honors: bool) -> list[int]:
    """Every tile of the set, four of each kind: 108 without honors, 136 with."""
    kinds = NUM_KINDS if with_honors else SUITED_KINDS
    return [t for t in range(kinds) for _ in range(4)]
