"""计分, 飘 and 抓鸟 (docs/rules/xiangyin.md §6, §7, §8, 裁定 19–21).

Seat 0 deals and throws first (3s or 9m); 底分 10 as in the page's examples, no birds unless told. SMALL is
ready for a small hand (234m 456s 55s 23p 789p, waits 1p/4p); PPH for 碰碰胡 (111m 333s 333p 77p 55m, waits
7p/5m).
"""

from __future__ import annotations

import pytest

from engine import Act, Phase, observe, parse_tiles_ordered, to_act
from engine.scoring import bird_target
from engine.variants.xiangyin import bird_seat

from .dealing import act, discard, hand_names, last_settlement, legal, paid, param_id
from .xiangyin_helpers import JUNK, SMALL, check_zero_sum, deal, small_self_draw

PPH = "111m333s333p77p55m"
QYS_QD = "1122334455889m"  # 11 22 33 44 55 88 9m: 七小对 + 清一色 on 9m (2 big hands)


def pph_on_discard(birds: str = "", n_birds: int = 0, piao: list[int] | None = None):  # type: ignore[no-untyped-def]
    """Seat 2 throws 7p and seat 1 wins 碰碰胡 on it."""
    state = deal([JUNK[0] + "9m", PPH, JUNK[1], JUNK[2]], draws="5s7p" + birds, birds=n_birds, piao=piao)
    state = discard(state, 0, "9m")
    state = discard(state, 1, "5s")
    state = act(state, 2, Act.DISCARD, "7p")
    state = act(state, 1, Act.WIN)
    check_zero_sum(state)
    return state


# ---------------------------------------------------------------- 牌型分 × 底分


def test_small_hand_self_draw_each_pays_one_point() -> None:
    """docs/rules/xiangyin.md §4.3, §6.2: a small hand is worth 1; on a self-draw every other player pays.
    At 底分 10 each of the three pays 10."""
    state = small_self_draw()
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["xiaohu"]
    assert paid(settlement) == {0: 10, 2: 10, 3: 10}
    assert state.result is not None and state.result.deltas == (-10, 30, -10, -10)


def test_big_hand_on_discard_only_the_discarder_pays() -> None:
    """docs/rules/xiangyin.md §5.1, §6.2: a big hand is worth 5; on a discard the discarder alone pays.
    碰碰胡 on seat 2's 7p: seat 2 alone pays 5 × 10."""
    settlement = last_settlement(pph_on_discard())
    assert hand_names(settlement, 1) == ["pengpenghu"]
    assert paid(settlement) == {2: 50}
    assert settlement.deltas == (0, 50, -50, 0)


def test_big_hand_self_draw_each_pays() -> None:
    """docs/rules/xiangyin.md §6.2: on a self-draw every other player pays — 碰碰胡 self-drawn on 5m: each of
    the three pays 5 × 10."""
    state = deal([JUNK[0] + "9m", PPH, JUNK[1], JUNK[2]], draws="5m")
    state = discard(state, 0, "9m")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["pengpenghu"]
    assert paid(settlement) == {0: 50, 2: 50, 3: 50}


def test_two_big_hands_are_worth_5_times_2() -> None:
    """docs/rules/xiangyin.md §5.1, §6.3: n big hands are worth 5 × 2^(n−1). 七小对 + 清一色 (n = 2)
    self-drawn: each pays 5·2 = 10 points × 底分 10."""
    state = deal([JUNK[0] + "3s", QYS_QD, JUNK[1], JUNK[2]], draws="9m")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["qidui", "qingyise"]
    assert paid(settlement) == {0: 100, 2: 100, 3: 100}


def test_base_is_the_room_option() -> None:
    """docs/rules/xiangyin.md §14.2, 裁定 25: 底分 is a room option (default 1). At the default a small
    self-draw costs 1 each."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p", base=1)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    assert paid(last_settlement(state)) == {0: 1, 2: 1, 3: 1}


@pytest.mark.parametrize("seats", [2, 3])
def test_self_draw_with_fewer_players(seats: int) -> None:
    """docs/rules/xiangyin.md §6.2, 裁定 2: on a self-draw every other player pays — with 3 or 2 players
    too."""
    settlement = last_settlement(small_self_draw(seats=seats))
    assert paid(settlement) == {p: 10 for p in range(seats) if p != 1}


# ---------------------------------------------------------------- 飘


def test_piao_is_chosen_blind_before_the_hand() -> None:
    """docs/rules/xiangyin.md §7.1, 裁定 21: with 加飘 every player picks a 飘 of 0–4 before the hand, all at
    once, and nobody sees another's until all have chosen."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], piao=[])
    assert state.phase == Phase.CHOOSE and to_act(state) == (0, 1, 2, 3)
    assert legal(state, 2) == {f"2 choose {v}" for v in "01234"}
    state = act(state, 2, Act.CHOOSE, detail="3")
    assert observe(state, 0).seats[2].choice is None
    for seat in (0, 1, 3):
        state = act(state, seat, Act.CHOOSE, detail="1")
    assert state.phase == Phase.TURN and state.current == 0
    assert observe(state, 0).seats[2].choice == "3"


def test_no_piao_choice_without_the_option() -> None:
    """docs/rules/xiangyin.md §7.1, §14.3: without 加飘 nobody chooses: the dealer plays at once."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])
    assert state.phase == Phase.TURN and state.current == 0
    assert all(not legal(state, s) or "choose" not in " ".join(legal(state, s)) for s in range(4))


def test_piao_example_from_the_seed() -> None:
    """docs/rules/xiangyin.md §7.3: A 飘 1, B 飘 2, B deals into A: B pays 3 × base extra. A = seat 1
    (碰碰胡), B = seat 2: B pays 5 × 10 + (1 + 2) × 10 = 80."""
    settlement = last_settlement(pph_on_discard(piao=[0, 1, 2, 0]))
    assert paid(settlement) == {2: 80}


def test_piao_on_a_self_draw_each_payer_adds_his_and_the_winners() -> None:
    """docs/rules/xiangyin.md §7.2: a payer adds (his 飘 + the winner's 飘) × 底分. Winner 飘 1; payers 飘 2,
    0, 4 pay 10 + 30, 10 + 10, 10 + 50."""
    settlement = last_settlement(small_self_draw(piao=[2, 1, 0, 4]))
    assert paid(settlement) == {0: 40, 2: 20, 3: 60}


def test_piao_is_not_multiplied_by_birds() -> None:
    """docs/rules/xiangyin.md §6.1, §7.2: the bird multiplies the hand, the 飘 is added after. A bird on the
    winner: each pays 10 × 2 + (1 + 0) × 10 = 30."""
    settlement = last_settlement(small_self_draw("9s", 1, piao=[0, 1, 0, 0]))
    assert paid(settlement) == {0: 30, 2: 30, 3: 30}


def test_piao_zero_adds_nothing() -> None:
    """加飘 with everybody at 0 pays exactly as without it."""
    assert paid(last_settlement(small_self_draw(piao=[0, 0, 0, 0]))) == {0: 10, 2: 10, 3: 10}


# ---------------------------------------------------------------- 抓鸟


def test_birds_are_the_next_wall_tiles() -> None:
    """docs/rules/xiangyin.md §8.1: after a win the birds are the next tiles at the front of the wall."""
    settlement = last_settlement(small_self_draw("9s5m", 2))
    assert settlement.birds == tuple(parse_tiles_ordered("9s5m"))


@pytest.mark.parametrize("n", [0, 1, 2, 4, 6])
def test_number_of_birds_is_the_room_option(n: int) -> None:
    """docs/rules/xiangyin.md §8.1, §14.1: the number of birds is a room option 0/1/2/4/6."""
    assert len(last_settlement(small_self_draw("", n)).birds) == n


@pytest.mark.parametrize(
    ("bird", "expected"),
    [
        ("1s", {0: 20, 2: 20, 3: 20}),  # 1 → the winner: 全中, every payer doubles
        ("5m", {0: 20, 2: 20, 3: 20}),
        ("9s", {0: 20, 2: 20, 3: 20}),
        ("2s", {0: 10, 2: 20, 3: 10}),  # 2/6 → 下家 of the winner (seat 2)
        ("6p", {0: 10, 2: 20, 3: 10}),
        ("3s", {0: 10, 2: 10, 3: 20}),  # 3/7 → 对家 (seat 3)
        ("7p", {0: 10, 2: 10, 3: 20}),
        ("4s", {0: 20, 2: 10, 3: 10}),  # 4/8 → 上家 (seat 0)
        ("8m", {0: 20, 2: 10, 3: 10}),
    ],
    ids=param_id,
)
def test_birds_count_from_the_winner(bird: str, expected: dict[int, int]) -> None:
    """docs/rules/xiangyin.md §8.2, §8.3: the rank counts from the winner, counter-clockwise: 1/5/9 the
    winner, 2/6 next, 3/7 opposite, 4/8 previous; one hit ×2. Seat 1 self-draws a small hand (10 each); a hit
    doubles that payer."""
    assert paid(last_settlement(small_self_draw(bird, 1))) == expected


def test_two_hits_triple_the_payment() -> None:
    """docs/rules/xiangyin.md §8.3: × (bird hits + 1) — two birds on the winner: × 3, not × 4."""
    assert paid(last_settlement(small_self_draw("9s1m", 2))) == {0: 30, 2: 30, 3: 30}


def test_bird_on_the_winner_and_one_on_a_payer() -> None:
    """docs/rules/xiangyin.md §8.3: a bird on the winner or on the payer hits that payment. 9s (winner) + 6p
    (seat 2): seat 2 has two hits (× 3), the others one (× 2)."""
    assert paid(last_settlement(small_self_draw("9s6p", 2))) == {0: 20, 2: 30, 3: 20}


@pytest.mark.parametrize(
    ("bird", "hit"),
    [("1s", True), ("2m", True), ("3m", False), ("4s", False)],
)
def test_discard_win_bird_on_winner_or_discarder(bird: str, hit: bool) -> None:
    """docs/rules/xiangyin.md §8.3: on a discard a bird on the winner or the discarder hits. Seat 1 wins on
    seat 2's discard: 1 → the winner, 2 → his 下家 = the discarder: × 2; 3 → seat 3, 4 → seat 0: no hit."""
    settlement = last_settlement(pph_on_discard(bird, 1))
    assert paid(settlement) == {2: 100 if hit else 50}


@pytest.mark.parametrize(
    ("bird", "expected"),
    [
        ("5p", {0: 20, 2: 20}),  # 1/5/9 → the winner
        ("6s", {0: 10, 2: 20}),  # 2/6 → 下家 (seat 2)
        ("8m", {0: 20, 2: 10}),  # 4/8 → 上家 (seat 0)
        ("7s", {0: 10, 2: 10}),  # 3/7 → 对家: no such seat with 3 players
    ],
    ids=param_id,
)
def test_birds_with_three_players(bird: str, expected: dict[int, int]) -> None:
    """docs/rules/xiangyin.md §8.4, 裁定 19: with 3 players the ranks keep their seats — 1/5/9 the winner,
    2/6 下家, 4/8 上家 — and 3/7 (对家) hit nobody."""
    assert paid(last_settlement(small_self_draw(bird, 1, seats=3))) == expected


@pytest.mark.parametrize(
    ("bird", "expected"),
    [
        ("9s", {0: 20}),  # 1/5/9 → the winner
        ("3s", {0: 20}),  # 3/7 → 对家: the other player sits opposite
        ("2s", {0: 10}),  # 2/6, 4/8: empty seats
        ("4s", {0: 10}),
    ],
    ids=param_id,
)
def test_birds_with_two_players(bird: str, expected: dict[int, int]) -> None:
    """docs/rules/xiangyin.md §8.4, 裁定 19: with 2 players the two sit opposite, so 1/5/9 hit the winner,
    3/7 (对家) the other player, and 2/6/4/8 (empty seats) nobody."""
    assert paid(last_settlement(small_self_draw(bird, 1, seats=2))) == expected


def test_bird_seat_for_four_players_is_the_common_rule() -> None:
    """docs/rules/common.md §6.1: a tile of rank r points at seat ((r−1) mod 4) counted from the origin (the
    winner in Xiangyin) — the same count as the core's bird_target for a 4-player table."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]])
    for origin in range(4):
        for t in range(27):
            assert bird_seat(4, origin, t) == bird_target(state, t, origin)
