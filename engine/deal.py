"""The deal: a new hand from (variant, options, seed) or an arranged one for tests and puzzles, the pre-hand
choices, then the opening hands and the dealer's first turn. Part of the hand state machine
(engine/game.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .errors import IllegalAction
from .machine import _CHOOSE, _OPENING, _TURN
from .state import Seat, State, evolve
from .tiles import parse_tiles, tile_str, to_counts
from .variant import Options, Variant
from .wall import Wall


def new_hand(
    variant: Variant,
    seed: int,
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
    seats: int | None = None,
) -> State:
    """Deal a hand. Everything random comes from ``seed``: the wall, the first dealer and every dice roll."""
    n = seats if seats is not None else max(variant.seat_counts)
    if n not in variant.seat_counts:
        raise IllegalAction(f"{variant.id} is played by {variant.seat_counts} players, not {n}")
    opts = options if isinstance(options, Options) else variant.make_options(options)
    rng = random.Random(f"{variant.id}/{seed}")
    if dealer is None:
        # the first dealer is drawn from the same stream before the shuffle: storage replays such a
        # hand with dealer=None (a given dealer deals another wall from the same seed)
        dealer = rng.randrange(n)
    elif not 0 <= dealer < n:
        raise IllegalAction(f"dealer {dealer} is not a seat of a {n}-player table")
    return _deal(variant, opts, seed, dealer, n, Wall.shuffled(rng, variant.tile_set(n, opts)))


def arranged_hand(
    variant: Variant,
    hands: list[str],
    draws: str = "",
    back: str = "",
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> State:
    """A hand with a chosen deal, for tests and puzzles: ``hands`` in seat order (the dealer's with 14
    tiles), ``draws`` the next tiles from the front of the wall, ``back`` the next kong replacements.
    The rest of the set fills the middle of the wall in a fixed order."""
    n = len(hands)
    if n not in variant.seat_counts:
        raise IllegalAction(f"{variant.id} is played by {variant.seat_counts} players, not {n}")
    opts = options if isinstance(options, Options) else variant.make_options(options)
    parsed = [parse_tiles(h) for h in hands]
    for i, h in enumerate(parsed):
        want = 14 if i == dealer else 13
        if len(h) != want:
            raise IllegalAction(f"seat {i} needs {want} tiles, got {len(h)}")
    front, rear = parse_tiles_ordered(draws), parse_tiles_ordered(back)
    pool = list(variant.tile_set(n, opts))
    for t in [x for h in parsed for x in h] + front + rear:
        try:
            pool.remove(t)
        except ValueError:
            raise IllegalAction(f"too many copies of {tile_str(t)} in the arrangement") from None
    order: list[int] = []
    for i in range(n):
        order.extend(parsed[(dealer + i) % n][:13])
    order.append(parsed[dealer][13])
    wall_len = len(pool) + len(front) + len(rear)
    wall: list[int | None] = [None] * wall_len
    for i, t in enumerate(front):
        wall[i] = t
    # stacks are counted over the whole set, dealt tiles included (53 of them: an odd number)
    dealt = len(order)
    total = dealt + wall_len
    back_pos = [p - dealt for k in range(total // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1) if p >= dealt]
    for p, t in zip(back_pos, rear, strict=False):
        if wall[p] is not None:
            raise IllegalAction("draws and back replacements overlap")
        wall[p] = t
    it = iter(pool)
    tiles = order + [t if t is not None else next(it) for t in wall]
    return _deal(variant, opts, seed, dealer, n, Wall(tuple(tiles)))


def parse_tiles_ordered(text: str) -> list[int]:
    """Like parse_tiles but keeps the written order: ``5m1s5m`` → 5m, 1s, 5m (``315m`` → 3m, 1m, 5m)."""
    out: list[int] = []
    digits = ""
    for ch in text.replace(" ", "").replace(",", ""):
        if "0" <= ch <= "9":
            digits += ch
            continue
        out.extend(parse_tiles(d + ch)[0] for d in digits)
        if not digits:
            parse_tiles(ch)  # raises InvalidNotation with the reason
        digits = ""
    if digits:
        parse_tiles(digits)  # raises InvalidNotation
    return out


def _deal(variant: Variant, opts: Options, seed: int, dealer: int, n: int, wall: Wall) -> State:
    hands: list[list[int]] = [[] for _ in range(n)]
    dealt = 13 * n + 1
    if wall.taken == 0 and wall.remaining >= dealt:
        # a fresh wall is drawn from the front in order: 13 tiles to each seat from the dealer, then one
        tiles = wall.tiles
        for i in range(n):
            hands[(dealer + i) % n] = list(tiles[13 * i : 13 * i + 13])
        last = tiles[dealt - 1]
        wall = Wall(tiles, (1 << dealt) - 1, wall.remaining - dealt)
    else:
        for i in range(n):
            s = (dealer + i) % n
            for _ in range(13):
                t, wall = wall.draw_front()
                hands[s].append(t)
        last, wall = wall.draw_front()
    hands[dealer].append(last)
    state = State(
        variant=variant,
        options=opts,
        seed=seed,
        dealer=dealer,
        wall=wall,
        seats=tuple(Seat(to_counts(h)) for h in hands),
        phase=_TURN,
        current=dealer,
        drawn=last,
        wall_reserve=variant.wall_reserve(opts),
    )
    if any(variant.pre_hand(state, s) for s in range(n)):
        return evolve(state, phase=_CHOOSE)
    return _start_play(state)


def _start_play(state: State) -> State:
    """After the deal (and the pre-hand choices): opening hands in play order, then the dealer's turn."""
    rs = state.variant
    queue = tuple(
        s for s in state.play_order(state.dealer) if rs.opening_hands(state, s) or rs.wins_at_deal(state, s)
    )
    if queue:
        return evolve(state, phase=_OPENING, current=queue[0], opening_queue=queue)
    return evolve(state, phase=_TURN, current=state.dealer)
