"""扎鸟 birds (docs/rules/changsha.md §9, §8.3).

Birds are the tiles at the front of the wall after the win; rank r points at seat (dealer + r − 1) mod 4. With
the dealer at seat 0: 1/5/9 → seat 0, 2/6 → seat 1, 3/7 → seat 2, 4/8 → seat 3. SMALL (234m 456s 55s 23p 789p)
waits 1p/4p; payments are at 底分 10."""

from __future__ import annotations

import pytest

from engine import Act, Phase, parse_tiles_ordered

from .changsha_helpers import JUNK, deal
from .dealing import act, discard, hand_names, last_settlement, paid, param_id, play_until_haidi

SMALL = "234m45556s23789p"


def small_self_draw_by_seat_1(birds: str, n: int) -> dict[int, int]:
    """Seat 1 self-draws a small hand (base: dealer 20, others 10); `birds` lie next on the wall."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p" + birds, birds=n)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.birds == tuple(parse_tiles_ordered(birds))
    assert sum(settlement.deltas) == 0
    return paid(settlement)


def test_birds_are_the_next_wall_tiles() -> None:
    """docs/rules/changsha.md §9.1: after a win the next tiles at the front of the wall are the birds."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p9s5m", birds=2)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    assert last_settlement(state).birds == tuple(parse_tiles_ordered("9s5m"))


@pytest.mark.parametrize("n", [0, 1, 2, 4, 6])
def test_number_of_birds_is_the_room_option(n: int) -> None:
    """docs/rules/changsha.md §9.1: N birds, the room option 0/1/2/4/6."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p", birds=n)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    assert len(last_settlement(state).birds) == n


@pytest.mark.parametrize(
    ("bird", "expected"),
    [
        ("9s", {2: 40, 0: 10, 1: 10}),  # 9 → the dealer (seat 2)
        ("6p", {2: 40, 0: 20, 1: 20}),  # 6 → 下家 of the dealer = seat 3, the winner
        ("3s", {2: 20, 0: 20, 1: 10}),  # 3 → 对家 of the dealer = seat 0
        ("8m", {2: 20, 0: 10, 1: 20}),  # 8 → 上家 of the dealer = seat 1
    ],
    ids=param_id,
)
def test_birds_count_from_the_dealer(bird: str, expected: dict[int, int]) -> None:
    """docs/rules/changsha.md §9.2: count the rank from the dealer, counter-clockwise: 1 the dealer, 2 his
    next, 3 opposite, 4 previous. Here seat 2 deals and seat 3 self-draws a small hand (dealer 20, others
    10)."""
    state = deal([JUNK[1], JUNK[2], JUNK[0] + "3s", SMALL], draws="4p" + bird, dealer=2, birds=1)
    state = discard(state, 2, "3s")
    assert state.current == 3
    state = act(state, 3, Act.WIN)
    assert paid(last_settlement(state)) == expected


def test_bird_on_the_self_drawing_winner_doubles_every_payer() -> None:
    """docs/rules/changsha.md §9.4: self-draw, a bird on the winner doubles every payer."""
    assert small_self_draw_by_seat_1("6p", 1) == {0: 40, 2: 20, 3: 20}


def test_bird_on_another_payer_doubles_only_that_payer() -> None:
    """docs/rules/changsha.md §9.4: self-draw, a bird on one payer doubles only him."""
    assert small_self_draw_by_seat_1("3s", 1) == {0: 20, 2: 20, 3: 10}
    assert small_self_draw_by_seat_1("5m", 1) == {0: 40, 2: 10, 3: 10}


def test_two_hits_multiply_by_four() -> None:
    """docs/rules/changsha.md §9.3: each further hit doubles again (2 hits ×4)."""
    assert small_self_draw_by_seat_1("6p2m", 2) == {0: 80, 2: 40, 3: 40}  # both on the winner
    assert small_self_draw_by_seat_1("6p3s", 2) == {0: 40, 2: 40, 3: 20}  # winner + seat 2
    assert small_self_draw_by_seat_1("3s7p", 2) == {0: 20, 2: 40, 3: 10}  # seat 2 twice


@pytest.mark.parametrize(
    ("bird", "amount"),
    [
        ("7p", 20),  # 7 → seat 2, the winner
        ("2m", 20),  # 2 → seat 1, the discarder
        ("4s", 10),  # 4 → seat 3, neither
        ("9s", 10),  # 9 → seat 0, the dealer, neither
    ],
)
def test_discard_win_bird_on_winner_or_discarder(bird: str, amount: int) -> None:
    """docs/rules/changsha.md §9.5: on a discard, a bird on the winner or on the discarder doubles the
    discarder. Seat 1 deals into seat 2's small hand (10)."""
    state = deal([JUNK[0] + "3s", JUNK[1], SMALL, JUNK[2]], draws="5m" + bird, birds=1)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, "4p")
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.birds == tuple(parse_tiles_ordered(bird))
    assert paid(settlement) == {1: amount}


def test_discard_win_two_birds_on_winner_and_discarder() -> None:
    """docs/rules/changsha.md §9.3, §9.5: on a discard a bird on the winner and one on the discarder are two
    hits on the discarder: ×4."""
    state = deal([JUNK[0] + "3s", JUNK[1], SMALL, JUNK[2]], draws="5m7p2m", birds=2)
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.DISCARD, "4p")
    state = act(state, 2, Act.WIN)
    assert paid(last_settlement(state)) == {1: 40}


def test_haidi_win_uses_the_haidi_tile_as_the_only_bird() -> None:
    """docs/rules/changsha.md §9.6: a haidi win uses the haidi tile as the only bird. Seat 3 takes the haidi
    3p and wins 海底捞月 (big self-draw: dealer 40, others 30); with 2 birds set, the only bird is the 3p,
    rank 3 → seat 2, who pays double."""
    waits_3p = "234m45556s12789p"
    state = deal([JUNK[0] + "3s", JUNK[1], JUNK[2], waits_3p], tail="9m3p", birds=2)
    state = play_until_haidi(state, "3s")
    assert state.phase == Phase.HAIDI and state.current == 3
    state = act(state, 3, Act.TAKE)
    state = act(state, 3, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.birds == tuple(parse_tiles_ordered("3p"))
    assert paid(settlement) == {0: 40, 1: 30, 2: 60}


def test_haidipao_bird_is_the_haidi_tile() -> None:
    """docs/rules/changsha.md §9.6: 海底炮 too. Seat 3 takes the haidi 3p and cannot win; seat 2 wins 海底炮
    (60 from seat 3); the bird 3p (rank 3 → seat 2, the winner) doubles it."""
    state = deal([JUNK[0] + "3s", JUNK[1], "34567888m789s45p", JUNK[2]], tail="9m3p", birds=2)
    state = play_until_haidi(state, "3s")
    state = act(state, 3, Act.TAKE)
    state = act(state, 2, Act.WIN)
    settlement = last_settlement(state)
    assert settlement.birds == tuple(parse_tiles_ordered("3p"))
    assert hand_names(settlement, 2) == ["haidipao"]
    assert paid(settlement) == {3: 120}
