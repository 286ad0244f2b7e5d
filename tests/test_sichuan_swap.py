"""换三张 (docs/rules/sichuan.md §2, 裁定 21): after the deal and before 定缺 each player picks three tiles of
one suit, blind; the sets pass by the dice: 2–4 to 下家, 5–8 to 上家, 9–12 across. Room option ``swap``
(default off; on in the "血战换三张" and "血流成河" presets).

The dice are the engine's first roll of the hand (``dealing.kai_dice(SC, seed, 0)``: the same seeded stream
as every dice roll): seed 0 rolls 4 (下家), seed 1 rolls 8 (上家), seed 3 rolls 9 (across)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import pytest

from bot.text.render import turn_line
from engine import (
    Act,
    Event,
    EventKind,
    IllegalAction,
    Phase,
    State,
    TilePick,
    legal_actions,
    observe,
    observe_public,
    parse_tiles,
)
from engine.tiles import format_tiles
from engine.variants.sichuan import Swapped, swap_step

from . import dealing
from .dealing import act, act_events, kai_dice, legal
from .sichuan_helpers import J0, J1, J2, J3, SC

HANDS = [J0 + "3p", J1, J2, J3]
# what each seat passes in the tests below: three tiles of one suit it holds
PASS = ["124m", "679s", "258p", "127m"]


def dealt(seed: int = 0, seats: int = 4, **options: object) -> State:
    hands = HANDS if seats == 4 else SANREN
    return dealing.deal(SC, hands[:seats], seed=seed, swap=True, **options)


def swap_all(state: State, picks: list[str]) -> tuple[State, tuple[Event, ...]]:
    events: tuple[Event, ...] = ()
    for seat, detail in enumerate(picks):
        state, events = act_events(state, seat, Act.CHOOSE, detail=detail)
    return state, events


def test_swap_is_off_by_default() -> None:
    """docs/rules/sichuan.md §2.1: 换三张 is an option, default off: the deal goes straight to 定缺."""
    assert SC.make_options()["swap"] is False
    state = dealing.deal(SC, HANDS)
    assert legal(state, 0) == {"0 choose s", "0 choose m", "0 choose p"}


def test_every_three_of_one_suit_is_offered() -> None:
    """docs/rules/sichuan.md §2.1: each player picks three tiles of one suit: every set of three of one suit
    he holds is a choice (the dealer's one 筒 is too few), named by its tiles."""
    state = dealt()
    offered = [a.detail for a in legal_actions(state, 0)]
    want = set()
    for suit in "ms":
        held = [t for t in parse_tiles(J0) if "msp"[t // 9] == suit]
        want |= {format_tiles(c) for c in combinations_with_replacement(held, 3) if _within(c, held)}
    assert set(offered) == want and len(offered) == len(want)
    assert all(len({t // 9 for t in parse_tiles(d)}) == 1 for d in offered)
    assert SC.choice_pick(offered) == TilePick(3)
    assert SC.choice_pick(["m", "s"]) is None  # 定缺: one value, not tiles


def _within(combo: tuple[int, ...], held: list[int]) -> bool:
    have = Counter(held)
    return all(n <= have[t] for t, n in Counter(combo).items())


def test_the_suggested_three_come_from_the_shortest_suit() -> None:
    """The suggestion (offered first: the AI and a timed-out player take it) is three tiles of the suit with
    fewest tiles — the one the player will do without: the dealer's 条 (6) rather than his 万 (7)."""
    state = dealt()
    first = legal_actions(state, 0)[0].detail
    assert first.endswith("s") and len(parse_tiles(first)) == 3
    # a suit of exactly three goes whole: that seat is void at once
    state = dealing.deal(SC, ["123m456789s12345p", J1, J2, J3], swap=True)
    assert legal_actions(state, 0)[0].detail == "123m"


@pytest.mark.parametrize(
    ("seed", "step", "note"), [(0, 1, "swap_next"), (1, -1, "swap_prev"), (3, 2, "swap_across")]
)
def test_the_dice_send_the_tiles(seed: int, step: int, note: str) -> None:
    """docs/rules/sichuan.md §2.2, 裁定 21: the sets pass by the dice: 2–4 to 下家, 5–8 to 上家, 9–12 across.
    Every seat gives its three and gets those of the seat that passes to it; the hand sizes stay."""
    state = dealt(seed)
    before = [state.seats[i].counts for i in range(4)]
    state, events = swap_all(state, PASS)
    (dice,) = [e for e in events if e.kind == EventKind.DICE]
    assert sum(dice.dice) == kai_dice(SC, seed, 0) and swap_step(sum(dice.dice), 4) == step
    assert [e.note for e in events if e.kind == EventKind.VARIANT and not e.private] == [note]
    for i in range(4):
        giver = (i - step) % 4
        c = list(before[i])
        for t in parse_tiles(PASS[i]):
            c[t] -= 1
        for t in parse_tiles(PASS[giver]):
            c[t] += 1
        assert state.seats[i].counts == tuple(c)
    assert isinstance(state.extra, Swapped) and state.extra.step == step


def test_dice_table() -> None:
    """docs/rules/sichuan.md §2.2, §2.3, 裁定 21: every dice sum; three seats have nobody across: 2–8 as at
    four (下家, 上家), 9–12 → 下家."""
    assert [swap_step(n, 4) for n in range(2, 13)] == [1, 1, 1, -1, -1, -1, -1, 2, 2, 2, 2]
    assert [swap_step(n, 3) for n in range(2, 13)] == [1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1]


def test_each_seat_learns_only_its_own_tiles() -> None:
    """docs/rules/sichuan.md §2.1, §2.2: blind — a seat's three tiles are hidden while the others choose;
    once passed, each seat sees only what it got; the sets are never shown (no CHOICES event)."""
    state = dealt()
    state = act(state, 0, Act.CHOOSE, detail=PASS[0])
    assert observe(state, 1).seats[0].choice is None and observe(state, 0).seats[0].choice == PASS[0]
    events: tuple[Event, ...] = ()
    for seat in (1, 2, 3):
        state, events = act_events(state, seat, Act.CHOOSE, detail=PASS[seat])
    got = [e for e in events if e.kind == EventKind.VARIANT and e.private]
    assert [(e.seat, format_tiles(e.tiles)) for e in got] == [
        (0, "127m"),
        (1, "124m"),
        (2, "679s"),
        (3, "258p"),
    ]
    assert all(e.visible_to(e.seat) and not e.visible_to((e.seat + 1) % 4) for e in got)
    assert not any(e.kind == EventKind.CHOICES for e in events)
    assert all(observe(state, 1).seats[i].choice is None for i in range(4))


def test_void_is_chosen_after_the_swap() -> None:
    """docs/rules/sichuan.md §2.5: 换三张 comes before 定缺 — with the tiles received. Seat 0 passed 124m and
    got 127m back from 上家 (seed 0 sends to 下家): his 定缺 is offered on his new hand, and once all have
    chosen the voids are shown and the dealer plays."""
    state, _ = swap_all(dealt(), PASS)
    assert state.phase == Phase.CHOOSE
    assert all(a.act == Act.CHOOSE and len(a.detail) == 1 for a in legal_actions(state, 0))
    for seat in range(4):
        state, events = act_events(state, seat, Act.CHOOSE, detail=legal_actions(state, seat)[0].detail)
    assert state.phase == Phase.TURN and state.current == 0
    (shown,) = [e for e in events if e.kind == EventKind.CHOICES]
    assert all(c in ("m", "s", "p") for c in shown.choices)


def test_everyone_sees_which_choice_is_being_made() -> None:
    """docs/rules/sichuan.md §2.5: 换三张 comes before 定缺. The group's turn line names the stage the table
    is in: the tiles to swap first, then the void suit (it said "定缺" during the swap)."""
    state = dealt()
    public = observe_public(state)
    assert public.choice_stage == "swap" and observe(state, 1).choice_stage == "swap"
    names = ["A", "B", "C", "D"]
    assert "换三张" in turn_line(public, "zh", names) and "定缺" not in turn_line(public, "zh", names)
    assert "swap" in turn_line(public, "en", names)
    state, _ = swap_all(state, PASS)
    public = observe_public(state)
    assert public.phase == Phase.CHOOSE and public.choice_stage is None
    assert "定缺" in turn_line(public, "zh", names) and "void" in turn_line(public, "en", names)


def test_the_dealer_has_no_drawn_tile_after_the_swap() -> None:
    """The dealer's 14 tiles are mixed with what he received: none is "the tile he drew" (天胡 stays a win
    on the dealt tiles)."""
    state, _ = swap_all(dealt(), PASS)
    assert state.drawn is None


def test_tiles_of_two_suits_or_not_held_are_refused() -> None:
    """docs/rules/sichuan.md §2.1: three tiles of one suit, from one's own hand — anything else is illegal,
    with a reason."""
    state = dealt()
    for bad in ("12m3s", "333m", "12m"):
        with pytest.raises(IllegalAction):
            act(state, 0, Act.CHOOSE, detail=bad)


SANREN = ["1245789s2356899p", "134679s1245789p", "235689s1234679p"]


@pytest.mark.parametrize(("seed", "dice", "step"), [(0, 4, 1), (1, 8, -1), (3, 9, 1)])
def test_three_seats_swap_too(seed: int, dice: int, step: int) -> None:
    """docs/rules/sichuan.md §2.3, §2.5, 裁定 21: 三人两房 swaps by the dice as four seats do (2–4 to 下家,
    5–8 to 上家), 9–12 to 下家; each seat gets the three its giver picked; there is no 定缺 after it: the
    dealer plays at once."""
    state = dealt(seed=seed, seats=3)
    assert kai_dice(SC, seed, 0) == dice
    picks = [legal_actions(state, s)[0].detail for s in range(3)]
    state, _ = swap_all(state, picks)
    assert isinstance(state.extra, Swapped) and state.extra.step == step
    for i in range(3):
        giver = (i - step) % 3
        c = list(dealt(seed=seed, seats=3).seats[i].counts)
        for t in parse_tiles(picks[i]):
            c[t] -= 1
        for t in parse_tiles(picks[giver]):
            c[t] += 1
        assert state.seats[i].counts == tuple(c), (i, giver)
    assert state.phase == Phase.TURN and state.current == 0
