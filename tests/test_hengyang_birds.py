"""捉鸟 birds (docs/rules/hengyang.md §9).

Seat 1 holds SMALL, a concealed 平和 waiting 1p/4p: self-drawn the dealer pays 30 and the others 20; on a
discard a non-dealer pays 20 (平和 + 门前清 at 底分 10). Bird ranks from the dealer (seat 0): 1/5/9 → seat 0,
2/6 → seat 1, 3/7 → seat 2, 4/8 → seat 3.
"""

from __future__ import annotations

import pytest

from engine import Act, parse_tiles_ordered

from .dealing import act, discard, discard_drawn, last_settlement, paid
from .hengyang_helpers import HY, JUNK, deal

SMALL = "234m45556s23789p"


def self_draw(birds: str, n_birds: int = 2, dealer: int = 0):  # type: ignore[no-untyped-def]
    """Seat 1 self-draws 4p; ``birds`` are the next tiles at the front of the wall."""
    if dealer == 0:
        state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="4p" + birds, birds=n_birds)
        state = discard(state, 0, "3s")
    else:
        assert dealer == 3  # seat 0 draws first and throws its 5m, then seat 1 draws
        state = deal([JUNK[0], SMALL, JUNK[1], JUNK[2] + "3s"], draws="5m4p" + birds, birds=n_birds, dealer=3)
        state = discard_drawn(discard(state, 3, "3s"))
    return last_settlement(act(state, 1, Act.WIN))


def on_discard(birds: str, n_birds: int = 2):  # type: ignore[no-untyped-def]
    """Seat 3 throws 4p into seat 1 on the first go-round; ``birds`` follow at the front of the wall."""
    state = deal([JUNK[0] + "3s", SMALL, JUNK[1], JUNK[2]], draws="5m5m5m" + birds, birds=n_birds)
    state = discard(state, 0, "3s")
    state = discard_drawn(discard_drawn(state))
    state = act(state, 3, Act.DISCARD, "4p")
    return last_settlement(act(state, 1, Act.WIN))


def test_birds_are_the_next_two_tiles_at_the_wall_front() -> None:
    """docs/rules/hengyang.md §9.1: after a win, the next two tiles at the front of the wall are the birds."""
    settlement = self_draw("7p3m")
    assert settlement.birds == tuple(parse_tiles_ordered("7p3m"))


def test_birds_count_from_the_dealer() -> None:
    """docs/rules/hengyang.md §9.2: count the rank from the dealer, counter-clockwise. With seat 3 dealing, a
    1 is seat 3, a 2 seat 0, a 3 seat 1 (the winner: everyone doubles), a 4 seat 2."""
    settlement = self_draw("3m", n_birds=1, dealer=3)
    assert paid(settlement) == {0: 40, 2: 40, 3: 60}
    settlement = self_draw("1m", n_birds=1, dealer=3)  # the dealer himself: only he doubles
    assert paid(settlement) == {0: 20, 2: 20, 3: 60}


def test_self_draw_bird_on_the_winner_doubles_all_three() -> None:
    """docs/rules/hengyang.md §9.4: self-draw, a bird on the winner doubles all three."""
    assert paid(self_draw("6p", n_birds=1)) == {0: 60, 2: 40, 3: 40}


def test_self_draw_bird_on_one_payer_doubles_only_him() -> None:
    """docs/rules/hengyang.md §9.4: self-draw, a bird on one payer doubles only him."""
    assert paid(self_draw("3s", n_birds=1)) == {0: 30, 2: 40, 3: 20}
    assert paid(self_draw("9s", n_birds=1)) == {0: 60, 2: 20, 3: 20}


def test_two_birds_on_one_payer_pay_four_times() -> None:
    """docs/rules/hengyang.md §9.5: two birds counting for the same payer: ×4. Both birds on seat 3 (4m,
    8s)."""
    settlement = self_draw("4m8s")
    assert paid(settlement) == {0: 30, 2: 20, 3: 80}
    assert {p.payer: p.hits for p in settlement.payments} == {0: 0, 2: 0, 3: 2}


def test_two_birds_on_the_winner_every_payer_pays_four_times() -> None:
    """docs/rules/hengyang.md §9.5: ×4 — both on the self-drawing winner (2m, 6s): all three ×4."""
    assert paid(self_draw("2m6s")) == {0: 120, 2: 80, 3: 80}


def test_bird_on_the_winner_and_on_a_payer_is_four_times_for_him() -> None:
    """docs/rules/hengyang.md §9.5: one bird on the winner and one on the payer himself count twice for him:
    a bird on the winner (6p) and one on the dealer (5m) — the dealer ×4, the others ×2."""
    assert paid(self_draw("6p5m")) == {0: 120, 2: 40, 3: 40}


def test_discard_bird_on_the_winner_doubles_the_discarder() -> None:
    """docs/rules/hengyang.md §9.3: on a discard, a bird on the winner doubles the discarder. Bird 2p on seat
    1, the winner."""
    assert paid(on_discard("2p", n_birds=1)) == {3: 40}


def test_discard_bird_on_the_discarder_doubles_him() -> None:
    """docs/rules/hengyang.md §9.3: on a discard, a bird on the discarder doubles him. Bird 8m on seat 3, the
    discarder."""
    assert paid(on_discard("8m", n_birds=1)) == {3: 40}


def test_discard_bird_on_a_bystander_changes_nothing() -> None:
    """docs/rules/hengyang.md §9.3: on a discard only the winner and the discarder count: birds on the dealer
    (1s) and seat 2 (7s) miss."""
    settlement = on_discard("1s7s")
    assert paid(settlement) == {3: 20}
    assert settlement.payments[0].hits == 0


def test_discard_both_birds_hit_four_times() -> None:
    """docs/rules/hengyang.md §9.5: ×4 — one on the winner (6m), one on the discarder (4s)."""
    assert paid(on_discard("6m4s")) == {3: 80}


def test_bird_count_is_a_room_option() -> None:
    """docs/rules/hengyang.md §14.1, 裁定 15: the birds are a room option 0/1/2, default 2; 0 turns up
    nothing."""
    spec = {s.name: s for s in HY.option_specs}["birds"]
    assert spec.default == 2 and spec.choices == (0, 1, 2)
    settlement = self_draw("6p6p", n_birds=0)
    assert settlement.birds == ()
    assert paid(settlement) == {0: 30, 2: 20, 3: 20}
    assert self_draw("6p6p", n_birds=1).birds == tuple(parse_tiles_ordered("6p"))


@pytest.mark.parametrize("birds", [3, 4, 6])
def test_more_than_two_birds_is_not_offered(birds: int) -> None:
    """docs/rules/hengyang.md §14.1, 裁定 15: payments are defined up to two hits; a room may not ask for
    more birds."""
    from engine import InvalidOption

    with pytest.raises(InvalidOption):
        HY.make_options({"birds": birds})
