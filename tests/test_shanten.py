"""One shanten in the engine, consistent with waits: for every variant, over many random hands, a 3k+1 hand
has shanten 0 exactly when its waits are not empty (its 听牌), and a complete hand has shanten −1.

The hands are seeded and near-ready on purpose (a winning hand of the variant's shapes less a tile, then
perhaps one tile swapped), where a mismatch between the two would show."""

from __future__ import annotations

import random

import pytest

from engine import WinContext, format_hand, get_variant, parse_hand, waits
from engine.shape import shanten
from engine.tiles import NUM_KINDS, to_counts

from .random_hands import SHANTEN_VARIANTS, near_ready_hand, winning_hand

HANDS_PER_VARIANT = 1500


@pytest.mark.parametrize("variant", SHANTEN_VARIANTS)
def test_shanten_is_zero_exactly_when_the_hand_has_waits(variant: str) -> None:
    """Shanten == 0 iff waits non-empty, for the variant's win shapes (七小对 counting a four as
    two pairs, 将将胡 in any shape, 十三幺, 全求人 …), over many random near-ready hands."""
    rs = get_variant(variant)
    rng = random.Random(f"shanten/{variant}")
    ready = 0
    for _ in range(HANDS_PER_VARIANT):
        counts, melds = near_ready_hand(rs, rng)
        if any(n > 4 for n in counts):
            continue
        s = rs.shanten(counts, melds)
        w = rs.waits(counts, melds)
        assert (s == 0) == bool(w), f"{variant}: {format_hand(counts, melds)} shanten {s}, waits {w}"
        assert s >= 0
        ready += bool(w)
    assert ready > HANDS_PER_VARIANT // 10  # the sample really is near ready


@pytest.mark.parametrize("variant", SHANTEN_VARIANTS)
def test_a_complete_hand_has_shanten_minus_one(variant: str) -> None:
    """A hand that wins (self-drawn) is −1 (complete), by the lower bound the AI plays with."""
    rs = get_variant(variant)
    rng = random.Random(f"complete/{variant}")
    wins = 0
    for _ in range(300):
        tiles, melds = winning_hand(rs, rng)
        counts = to_counts(tiles)
        ctx = WinContext(1, 0, counts, melds, tiles[-1], True, options=rs.make_options())
        if rs.could_win(counts, melds) and rs.evaluate_win(ctx) is not None:
            assert rs.shanten(counts, melds) == -1, format_hand(counts, melds)
            wins += 1
    assert wins > 50


def test_a_four_counts_as_two_pairs_for_seven_pairs() -> None:
    """``5555699m223399p`` was shanten 2 with waits [6m]: 5555m is two pairs of 七小对."""
    counts, _ = parse_hand("5555699m223399p")
    assert waits(get_variant("changsha"), counts) == [5]
    assert shanten(counts) == 0
    for variant in SHANTEN_VARIANTS:
        assert get_variant(variant).shanten(counts) == 0


@pytest.mark.parametrize(
    ("hand", "variants"),
    [
        pytest.param("456m333789s5555z", ("shaoyang",), id="a pung and its fourth tile, 5z"),
        pytest.param("2222m777m567p999p", SHANTEN_VARIANTS, id="a pung and its fourth tile, 2m"),
        pytest.param("5555m111s222s333s", SHANTEN_VARIANTS, id="all pungs, 5m"),
        pytest.param("1111m333s666s999p", ("changsha", "hengyang"), id="碰碰胡 only, 1m"),
    ],
)
def test_a_wait_on_a_fifth_copy_is_no_wait(hand: str, variants: tuple[str, ...]) -> None:
    """A hand whose only wait would be a fifth copy of a tile it holds four times is 1 from ready, not ready:
    the shape shanten (the common one, the standard shape alone, each variant's HandShape the AI plays with,
    a discard's reading in ``Discards``) says what ``Variant.shanten`` and the waits say.
    ``1111m333s666s999p`` is ready by no shape: 碰碰胡 read 1111m as a pung and a single waiting on 1m."""
    from engine.shanten import shanten_shape

    counts, _ = parse_hand(hand)
    assert shanten(counts) == 1
    assert shanten_shape(counts, 0, False) == 1 and shanten_shape(counts, 0, True) == 1
    for variant in variants:
        rs = get_variant(variant)
        assert rs.waits(counts) == []
        assert rs.shanten(counts) == 1 and rs.hand_shape().shanten(counts) == 1
        extra = 22 if counts[22] < 4 else 0  # one tile more, then that tile discarded: 5p (or 1m)
        with_tile = list(counts)
        with_tile[extra] += 1
        assert rs.hand_shape().discards(tuple(with_tile)).shanten(extra, counts) == 1


def test_a_fourteen_tile_hand_ready_only_toward_a_fifth_copy_is_one_away() -> None:
    """``456m333789s5555p1p`` (Changsha, a 2/5/8 pair): every discard that looks ready leaves a wait on a
    fifth 5p or a 1p single that is no 2/5/8 pair: 1 from ready, as every discard's own shanten says."""
    from engine.shanten import shanten_shape

    counts, _ = parse_hand("456m333789s5555p1p")
    rs = get_variant("changsha")
    held = [d for d in range(NUM_KINDS) if counts[d]]
    assert min(rs.shanten(tuple(n - (t == d) for t, n in enumerate(counts))) for d in held) == 1
    assert rs.hand_shape().shanten(counts) == 1 and shanten_shape(counts, 0, True) == 1
    assert shanten(counts) == 0  # any pair: 1p is a single to wait on once a 5p is thrown


def test_a_situational_limit_makes_a_shape_ready_hand_one_away() -> None:
    """Sichuan: a hand of three suits can't win (必须缺门可胡) — its 'ready' shape is 1 from ready."""
    counts, _ = parse_hand("123m456s789p11p23m")
    sc = get_variant("sichuan")
    assert sc.waits(counts) == []
    assert sc.shanten(counts) == 1
    assert get_variant("shaoyang").shanten(counts) == 0


def test_sample_covers_every_tile_kind() -> None:
    """The generator reaches every kind of the larger set (honors included)."""
    rs = get_variant("shaoyang")
    rng = random.Random(0)
    seen = [0] * NUM_KINDS
    for _ in range(400):
        counts, _ = near_ready_hand(rs, rng)
        for t, n in enumerate(counts):
            seen[t] += n
    assert all(seen)
