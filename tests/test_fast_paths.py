"""The fast paths (per-suit tables, suit-by-suit waits, shanten by cached option ids and blocks)
agree exactly with the plain reference implementations of tests/reference.py, over many random hands of every
variant: uniformly random hands, and near-ready ones (where a disagreement would show)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import VARIANTS, Meld, format_hand, get_variant
from engine.shanten import Shapes, off_258, stats, suits_used
from engine.shape import is_standard, seven_pairs_wait, standard_waits
from engine.tiles import NUM_KINDS, Counts, to_counts

from . import reference as ref
from .random_hands import SHANTEN_VARIANTS, near_ready_hand, winning_hand

HANDS = 400


def _random_hands(rs_id: str, size: int, n: int, seed: str) -> Iterator[tuple[Counts, tuple[Meld, ...]]]:
    """Random concealed hands of ``size`` tiles from the variant's set, and near-ready hands with melds."""
    rs = get_variant(rs_id)
    rng = random.Random(seed)
    pool = list(rs.tile_set(4, rs.make_options()))
    for i in range(n):
        if i % 2:
            counts, melds = near_ready_hand(rs, rng)
            if size % 3 == 2:
                tiles, melds = winning_hand(rs, rng)
                counts = to_counts(tiles)
            if all(x <= 4 for x in counts):
                yield counts, melds
            continue
        rng.shuffle(pool)
        yield to_counts(pool[:size]), ()


@pytest.mark.parametrize("variant", SHANTEN_VARIANTS)
def test_win_check_matches_the_recursive_search(variant: str) -> None:
    """is_standard (one table look-up per suit) == a recursive split into melds and a pair."""
    wins = 0
    for counts, _ in _random_hands(variant, 14, HANDS * 2, f"std/{variant}"):
        got = is_standard(counts)
        assert got == ref.is_standard(counts), format_hand(counts)
        wins += got
    assert wins > HANDS // 4


@pytest.mark.parametrize("variant", SHANTEN_VARIANTS)
def test_waits_match_trying_every_tile(variant: str) -> None:
    """shape_waits (suit by suit) == every tile kind tried with could_win; waits == the variant's evaluation
    of each; and the standard and seven-pairs parts on their own."""
    rs = get_variant(variant)
    ready = 0
    for counts, melds in _random_hands(variant, 13, HANDS, f"waits/{variant}"):
        want = ref.shape_waits(rs, counts, melds)
        assert rs.shape_waits(counts, melds) == want, format_hand(counts, melds)
        got = rs.waits(counts, melds)
        assert got == ref.waits(rs, counts, melds), format_hand(counts, melds)
        std = [t for t in range(NUM_KINDS) if counts[t] < 4 and ref.is_standard(ref.plus(counts, t))]
        assert standard_waits(counts) == std, format_hand(counts, melds)
        seven = [
            t
            for t in range(NUM_KINDS)
            if counts[t] < 4
            and sum(counts) == 13
            and not melds
            and all(n % 2 == 0 for n in ref.plus(counts, t))
        ]
        assert seven_pairs_wait(counts) == (seven[0] if seven else -1), format_hand(counts)
        ready += bool(got)
    assert ready > HANDS // 10


@pytest.mark.parametrize("variant", SHANTEN_VARIANTS)
def test_shanten_matches_the_full_enumeration(variant: str) -> None:
    """The variant's HandShape (cached option ids, blocks, reduced option sets) == every split of every suit
    combined, with the variant's other shapes, for 13- and 14-tile hands with and without melds."""
    rs = get_variant(variant)
    for size in (13, 14):
        for counts, melds in _random_hands(variant, size, HANDS // 2, f"shanten/{variant}/{size}"):
            got = rs.hand_shape(melds).shanten(counts)
            assert got == ref.hand_shanten(rs.shapes, melds, counts), format_hand(counts, melds)


@pytest.mark.parametrize("pair_258", [False, True])
def test_standard_shanten_matches_with_honors_and_long_suits(pair_258: bool) -> None:
    """The standard shape alone, on hands crowded into one or two suits (long blocks) and with honors."""
    from engine.shanten import shanten_shape

    rng = random.Random(f"long/{pair_258}")
    for _ in range(HANDS):
        kinds = rng.sample(range(NUM_KINDS), rng.choice((1, 2, 3)) * 9 // 3 + 3)
        pool = [t for t in kinds for _ in range(4)]
        rng.shuffle(pool)
        counts = to_counts(pool[: rng.choice((13, 14))])
        melds = rng.choice((0, 0, 1))
        assert shanten_shape(counts, melds, pair_258) == ref.shanten_shape(counts, melds, pair_258), (
            format_hand(counts)
        )


@pytest.mark.parametrize("variant", SHANTEN_VARIANTS)
def test_useful_tiles_match_trying_every_tile(variant: str) -> None:
    """HandShape.useful (one suit re-read per tile, the others merged once) == each tile tried in full."""
    rs = get_variant(variant)
    rng = random.Random(f"useful/{variant}")
    for counts, melds in _random_hands(variant, 13, HANDS // 2, f"useful/{variant}"):
        unseen = [rng.randrange(5) for _ in range(NUM_KINDS)]
        shape = rs.hand_shape(melds)
        s = shape.shanten(counts)
        extra = tuple(rs.wait_candidates(counts, melds))
        got = shape.useful(counts, s, unseen, extra)
        assert got == ref.useful(rs.shapes, melds, counts, unseen, extra), format_hand(counts, melds)


def test_stats_match_a_plain_count() -> None:
    rng = random.Random(3)
    pool = [t for t in range(NUM_KINDS) for _ in range(4)]
    for _ in range(HANDS):
        rng.shuffle(pool)
        counts = to_counts(pool[:14])
        pairs7, trips, pairs = stats(counts)
        assert pairs7 == sum(n // 2 for n in counts)
        assert trips == sum(1 for n in counts if n >= 3)
        assert pairs == sum(1 for n in counts if n == 2)
        off = sum(n for t, n in enumerate(counts) if not (t < 27 and t % 9 in (1, 4, 7)))
        assert off_258(counts, 14) == off
        assert suits_used(counts) == sum(1 << s for s in range(4) if any(counts[s * 9 : s * 9 + 9]))


def test_a_shape_the_tables_do_not_know_falls_back_to_trying_each_tile() -> None:
    """A variant that overrides could_win (wild tiles, later) gets the tile-by-tile waits, not the tables."""
    from engine.variants.changsha import Changsha

    class OnlySevenPairs(Changsha):
        id = "test_only_seven_pairs"
        shapes = Shapes(seven_pairs=True)

        def could_win(self, counts: Counts, melds: tuple[Meld, ...]) -> bool:
            return not melds and sum(counts) == 14 and all(n % 2 == 0 for n in counts)

    v = OnlySevenPairs()
    assert not v._shape_defaults and get_variant("changsha")._shape_defaults
    counts = to_counts([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6])
    assert v.shape_waits(counts) == [6]
    cs = get_variant("changsha")
    assert cs.shape_waits(counts) == ref.shape_waits(cs, counts) != [6]


def test_a_discard_nobody_claims_and_the_draw_are_one_state_as_two_steps_would_make() -> None:
    """The fused discard-and-draw (no variant hook, nobody can claim) == the discard, the claim check and
    the draw as separate steps (forced by a variant whose on_discard hook changes nothing): same events,
    same states, over whole random hands."""
    from engine import Phase, apply, legal_actions, new_hand, to_act
    from engine.state import State
    from engine.variants.changsha import Changsha

    class WithHook(Changsha):
        def on_discard(self, state: State, seat: int, tile: int) -> State:
            return state

    plain, hooked = get_variant("changsha"), WithHook()
    assert hooked._discard_hook and not plain._discard_hook
    for seed in range(40):
        rng = random.Random(seed)
        a, b = new_hand(plain, seed), new_hand(hooked, seed)
        while a.phase != Phase.ENDED:
            seat = rng.choice(to_act(a))
            action = rng.choice(legal_actions(a, seat))
            a, ev_a = apply(a, action)
            b, ev_b = apply(b, action)
            assert ev_a == ev_b
            assert {f: getattr(a, f) for f in a.__slots__ if f != "variant"} == {
                f: getattr(b, f) for f in b.__slots__ if f != "variant"
            }


def test_evolve_copies_like_replace_and_stays_frozen() -> None:
    import dataclasses

    from engine import new_hand
    from engine.state import evolve, evolve_seat

    state = new_hand(get_variant("changsha"), 3)
    moved = evolve(state, drawn=5, current=2)
    assert moved == dataclasses.replace(state, drawn=5, current=2) and type(moved) is type(state)
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.drawn = 4  # type: ignore[misc]
    seat = evolve_seat(state.seats[0], passed_wins=(3,))
    assert seat == dataclasses.replace(state.seats[0], passed_wins=(3,))
    with pytest.raises(TypeError):
        evolve(state, no_such_field=1)


def _unmemoised(state: Any) -> Any:
    """The same state with every Seat made afresh (dataclasses.replace): no memo in it, none at hand."""
    import dataclasses

    return dataclasses.replace(state, seats=tuple(dataclasses.replace(s) for s in state.seats))


def _greedy(state: Any, seat: int, acts: tuple[Any, ...], rng: random.Random) -> Any:
    """Win when offered, else (on a turn) discard toward the variant's shapes: hands that win often."""
    from engine import Act

    if any(a.act == Act.WIN for a in acts):
        return next(a for a in acts if a.act == Act.WIN)
    discards = [a for a in acts if a.act == Act.DISCARD]
    if not discards:
        return rng.choice(acts)
    counts = state.seats[seat].counts
    shape = state.variant.hand_shape(state.seats[seat].melds)

    def after(a: Any) -> int:
        c = list(counts)
        c[a.tile] -= 1
        return int(shape.shanten(tuple(c)))

    best = min(after(a) for a in discards)
    return rng.choice([a for a in discards if after(a) == best])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_memos_never_change_what_is_legal_or_what_happens(variant: str) -> None:
    """What play memoises on the way (a seat's waits by shape, whether a drawn tile completes a shape) is a
    shortcut only: the legal actions, the events and the next state are those of the same state whose
    seats were never looked at, at every step of whole hands (random, and greedy ones that win)."""
    from engine import Act, Phase, apply, legal_actions, new_hand, to_act

    rs = get_variant(variant)
    self_drawn = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = new_hand(rs, seed)
        while state.phase != Phase.ENDED:
            seat = rng.choice(to_act(state))
            acts = legal_actions(state, seat)
            fresh = _unmemoised(state)
            assert legal_actions(fresh, seat) == acts
            action = _greedy(state, seat, acts, rng) if seed % 2 else rng.choice(acts)
            self_drawn += action.act == Act.WIN and state.phase == Phase.TURN
            after, events = apply(state, action)
            assert apply(_unmemoised(state), action) == (after, events)
            state = after
    assert self_drawn >= 2  # the drawn tile's shortcut was met where it matters


def test_a_seat_memo_is_never_compared_copied_or_shown() -> None:
    """Seat.waits_memo and Seat.observe_memo: equal seats stay equal (and hash alike) whatever their memos;
    every copy (evolve, the positional copiers, dataclasses.replace) starts without them; repr leaves them
    out."""
    import dataclasses

    from engine.state import Seat, copier, evolve_seat

    counts = to_counts([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6])
    seat = Seat(counts)
    object.__setattr__(seat, "waits_memo", (get_variant("changsha"), [6]))
    object.__setattr__(seat, "observe_memo", {"hand": (0, 0, 1)})
    plain = Seat(counts)
    assert seat == plain and hash(seat) == hash(plain) and repr(seat) == repr(plain)
    for copy in (
        evolve_seat(seat, locked=True),
        copier(Seat, "discards")(seat, (5,)),
        dataclasses.replace(seat),
    ):
        assert copy.waits_memo is None and copy.observe_memo is None
    for memo in ("waits_memo", "observe_memo"):
        with pytest.raises(TypeError):
            copier(Seat, memo)
