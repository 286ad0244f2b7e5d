"""The wall (牌墙): docs/rules/common.md §2.3–§2.5, §4.2 and the Changsha dice rule (docs/rules/changsha.md
§10.3, 裁定 1)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import get_variant, new_hand, parse_tiles, tile_str
from engine.game import arranged_hand, parse_tiles_ordered
from engine.wall import Wall

from .changsha_helpers import CS, JUNK
from .dealing import back_positions, discard

# ten tiles = five stacks; positions 2k / 2k+1 are the top / bottom of stack k
SMALL = "1m2m3m4m5m6m7m8m9m1s"


def small_wall() -> Wall:
    return Wall(tuple(parse_tiles_ordered(SMALL)))


def names(tiles: list[int] | tuple[int, ...]) -> list[str]:
    return [tile_str(t) for t in tiles]


def test_changsha_wall_has_108_tiles() -> None:
    """docs/rules/changsha.md §1.1: 108 tiles — characters, bamboo and dots 1–9, four of each, no honors."""
    wall = Wall.shuffled(random.Random(1), CS.tile_set(4, CS.make_options()))
    assert len(wall.tiles) == 108 and wall.remaining == 108 and wall.stacks == 54
    counts = Counter(wall.tiles)
    assert sorted(counts) == parse_tiles("123456789m123456789s123456789p")
    assert set(counts.values()) == {4}


def test_a_dealt_hand_accounts_for_108_tiles() -> None:
    """docs/rules/common.md §2.3: 14 to the dealer, 13 to each other player; the other 55 stay in the wall."""
    state = new_hand(get_variant("changsha"), seed=3, dealer=2)
    sizes = [sum(s.counts) for s in state.seats]
    assert sizes == [13, 13, 14, 13]
    assert state.wall.remaining == 108 - 53 == 55


def test_normal_draws_come_from_the_front() -> None:
    """docs/rules/common.md §2.4: normal draws come from the front."""
    wall = small_wall()
    drawn = []
    for _ in range(4):
        t, wall = wall.draw_front()
        drawn.append(t)
    assert names(drawn) == ["1m", "2m", "3m", "4m"]
    assert wall.remaining == 6


def test_peek_front_takes_nothing() -> None:
    """docs/rules/changsha.md 裁定 9: the bird tiles are looked at and stay in place (peek, not draw)."""
    wall = small_wall()
    assert names(wall.peek_front(3)) == ["1m", "2m", "3m"]
    assert wall.remaining == 10
    assert names([wall.draw_front()[0]]) == ["1m"]


def test_kong_replacements_come_from_the_back_top_then_bottom() -> None:
    """docs/rules/common.md §2.4: kong replacements come from the back: the top tile of the last stack, then
    its bottom, one at a time."""
    wall = small_wall()
    got = []
    for _ in range(4):
        t, wall = wall.draw_back()
        got.append(t)
    # last stack = (9m top, 1s bottom), the one before = (7m, 8m)
    assert names(got) == ["9m", "1s", "7m", "8m"]


def test_front_and_back_meet_at_the_last_tile() -> None:
    """docs/rules/common.md §2.4: the last tile of the wall is the haidi."""
    wall = small_wall()
    for _ in range(8):
        _, wall = wall.draw_front()
    t, wall = wall.draw_back()
    assert tile_str(t) == "9m"
    assert wall.remaining == 1
    last, wall = wall.draw_front()
    assert tile_str(last) == "1s" and wall.remaining == 0
    with pytest.raises(IndexError):
        wall.draw_front()
    with pytest.raises(IndexError):
        wall.draw_back()
    with pytest.raises(IndexError):
        wall.draw_dice(5)


@pytest.mark.parametrize(("dice", "tile"), [(1, "9m"), (2, "7m"), (3, "5m"), (5, "1m")])
def test_dice_count_stacks_from_the_back(dice: int, tile: str) -> None:
    """docs/rules/changsha.md §10.3: 开杠 takes the top tile of the N-th stack counted from the back, N = the
    dice."""
    t, wall = small_wall().draw_dice(dice)
    assert tile_str(t) == tile
    assert wall.remaining == 9


def test_dice_take_the_bottom_when_the_top_is_gone() -> None:
    """docs/rules/changsha.md §10.3: its bottom tile when the top one is gone."""
    wall = small_wall()
    _, wall = wall.draw_dice(2)  # 7m, the top of the 2nd stack from the back
    t, wall = wall.draw_dice(2)
    assert tile_str(t) == "8m"


def test_dice_skip_stacks_already_emptied() -> None:
    """The count runs over the stacks still on the table (牌局上墩数)."""
    wall = small_wall()
    _, wall = wall.draw_back()  # 9m
    _, wall = wall.draw_back()  # 1s: the last stack is gone
    t, _ = wall.draw_dice(1)
    assert tile_str(t) == "7m"


def test_dice_beyond_the_stacks_take_the_last_stack() -> None:
    """docs/rules/changsha.md 裁定 1: dice beyond the stacks left take the back-most stack (最后一墩, the
    stack a plain replacement uses); its bottom tile when the top one is gone."""
    wall = small_wall()
    for _ in range(4):
        _, wall = wall.draw_front()  # 3 stacks left: (5m 6m) (7m 8m) (9m 1s)
    t, wall = wall.draw_dice(12)
    assert tile_str(t) == "9m"
    t, wall = wall.draw_dice(12)
    assert tile_str(t) == "1s"


def test_dice_with_only_the_haidi_left_take_the_haidi() -> None:
    """docs/rules/common.md §4.2: with only the haidi left, the replacement is the haidi tile."""
    wall = small_wall()
    for _ in range(9):
        _, wall = wall.draw_front()
    t, wall = wall.draw_dice(7)
    assert tile_str(t) == "1s" and wall.remaining == 0


def test_arranged_draws_follow_the_written_order() -> None:
    """arranged_hand: `draws` = next tiles from the wall front in written order, e.g. "5m1s9p"."""
    state = arranged_hand(CS, [JUNK[0] + "5m", JUNK[1], JUNK[2], "135789m1379s147p"], draws="5m1s9p")
    assert names(state.wall.peek_front(3)) == ["5m", "1s", "9p"]
    state = discard(state, 0, "5m")
    assert state.current == 1 and tile_str(state.drawn or 0) == "5m"  # seat 1 drew the first of `draws`
    state = discard(state, 1, "5m")
    assert state.current == 2 and tile_str(state.drawn or 0) == "1s"


def test_arranged_back_replacements_follow_the_written_order() -> None:
    """arranged_hand: `back` = next kong replacements from the back (docs/rules/common.md §2.4: the top tile
    of the last stack, then its bottom tile)."""
    state = arranged_hand(CS, [JUNK[0] + "5m", JUNK[1], JUNK[2], "135789m1379s357p"], back="1p4p6p8p")
    wall = state.wall
    got = []
    for _ in range(4):
        t, wall = wall.draw_back()
        got.append(t)
    assert names(got) == ["1p", "4p", "6p", "8p"]
    assert [state.wall.tiles[p] for p in back_positions()[:4]] == parse_tiles_ordered("1p4p6p8p")
