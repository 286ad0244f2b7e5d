"""Seeded random playouts with the core invariants checked after every step.

Shared by the playout tests of every variant. Two kinds of players: uniformly random among the legal
actions, and "eager" (random, but always takes a win, a kong, the haidi and opening hands) so that the
rare branches — 开杠, 抢杠, 海底, 杠上炮 — are reached often; it discards to lower its shanten.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator

from engine import (
    Act,
    Action,
    Observation,
    Phase,
    State,
    Variant,
    apply,
    legal_actions,
    new_hand,
    observe,
    observe_public,
    to_act,
)
from engine.shape import shanten
from engine.state import evaluate, evolve, evolve_seat
from engine.tiles import remove_tile
from engine.wall import Wall

MAX_STEPS = 2000
Policy = Callable[[State, int, tuple[Action, ...], random.Random], Action]


def random_policy(state: State, seat: int, acts: tuple[Action, ...], rng: random.Random) -> Action:
    return rng.choice(acts)


def eager_policy(state: State, seat: int, acts: tuple[Action, ...], rng: random.Random) -> Action:
    for kind in (Act.WIN, Act.OPENING, Act.TAKE):
        chosen = [a for a in acts if a.act == kind]
        if chosen:
            return chosen[0]
    kongs = [a for a in acts if a.act == Act.KONG]
    if kongs and rng.random() < 0.9:
        return rng.choice(kongs)
    claims = [a for a in acts if a.act in (Act.PUNG, Act.CHOW)]
    if claims and rng.random() < 0.7:
        return rng.choice(claims)
    discards = [a for a in acts if a.act == Act.DISCARD]
    if discards:
        s = state.seats[seat]

        def after(a: Action) -> tuple[int, float]:
            assert a.tile is not None
            return shanten(remove_tile(s.counts, a.tile), len(s.melds)), rng.random()

        return min(discards, key=after)
    others = [a for a in acts if a.act not in (Act.PUNG, Act.CHOW, Act.KONG)]
    return rng.choice(others or list(acts))


def tiles_in_play(state: State) -> Counter[int]:
    """Every tile somewhere: hands, melds, rivers, the wall, and a 补杠 tile held by a rob window."""
    loose = [t for s in state.seats for m in s.melds for t in m.tiles]
    loose += [t for s in state.seats for t in s.discards]
    loose += [state.wall.tiles[p] for p in state.wall.positions_left()]
    loose += state.kong_tiles
    if state.phase == Phase.CLAIM and state.claim is not None and state.claim.kind == "rob":
        loose.append(state.claim.tile)
    c = Counter(loose)  # one Counter over a list, not many updates: this runs after every step
    for t, n in enumerate(map(sum, zip(*(s.counts for s in state.seats), strict=True))):
        if n:
            c[t] += n
    return c


def swap_hidden(state: State, seat: int, rng: random.Random) -> State | None:
    """The same public position with one of ``seat``'s concealed tiles exchanged for a wall tile.

    Another seat's observation must not change: that is what "hidden" means.
    """
    s = state.seats[seat]
    if state.variant.hand_shown(state, seat):
        return None  # a won (血战) or shown (扳牌) hand is public
    shown = Counter(s.revealed)
    mine = [t for t, n in enumerate(s.counts) if n > shown[t] and t != state.drawn]
    left = state.wall.positions_left()
    if not mine or not left:
        return None
    x = rng.choice(mine)
    pos = rng.choice(left)
    y = state.wall.tiles[pos]
    if y == x or s.counts[y] >= 4:
        return None
    counts = list(s.counts)
    counts[x] -= 1
    counts[y] += 1
    tiles = list(state.wall.tiles)
    tiles[pos] = x
    seats = list(state.seats)
    seats[seat] = evolve_seat(s, counts=tuple(counts))
    wall = Wall(tuple(tiles), state.wall.taken, state.wall.remaining)
    return evolve(state, seats=tuple(seats), wall=wall)


def check_invariants(state: State, total_tiles: int, rng: random.Random, check_hidden: bool) -> None:
    """The core invariants of one position. Each seat is observed once and the table once; the hidden-tile
    check compares those same observations with the ones of the swapped position."""
    counts = tiles_in_play(state)
    assert sum(counts.values()) == total_tiles, f"{sum(counts.values())} tiles in play"
    assert all(n in (0, 4) for n in counts.values()), f"a tile kind is not 4 copies: {counts}"
    for st in state.settlements:
        assert sum(st.deltas) == 0, st
        for pay in st.payments:  # what players read is what they pay
            assert pay.parts and evaluate(pay.parts) == pay.amount, pay
    if state.phase == Phase.ENDED:
        assert state.result is not None and sum(state.result.deltas) == 0
        return
    public = observe_public(state)
    views = [observe(state, i) for i in range(state.num_seats)]
    shown = [state.variant.hand_shown(state, i) for i in range(state.num_seats)]  # 血战 won, 扳牌 三巡
    for i, s in enumerate(state.seats):
        held = sum(s.counts) + 3 * len(s.melds)
        expect = {13, 14}
        if state.claim is not None and state.claim.kind == "rob" and i == state.claim.from_seat:
            expect = {13}
        if state.kong_tiles and i == state.current:
            expect = {13}
        assert held in expect, f"seat {i} holds {held} tiles"
        assert public.seats[i].hand is None or shown[i], "a hand in the public view"
        obs = views[i]
        for j, pub in enumerate(obs.seats):
            if j != i and not shown[j]:
                assert pub.hand is None, "another seat's hand is visible before the end"
        if obs.drawn is not None:
            assert i == state.current
    if check_hidden:
        for i in range(state.num_seats):
            other = swap_hidden(state, i, rng)
            if other is None:
                continue
            for j in range(state.num_seats):
                if j != i:
                    assert views[j] == observe(other, j), f"seat {j} sees seat {i}'s hidden tiles"
            assert public == observe_public(other), f"the table sees seat {i}'s hidden tiles"


def play_hand(
    state: State,
    rng: random.Random,
    policies: list[Policy],
    check_hidden: bool = False,
    on_step: Callable[[State, Action, State], None] | None = None,
) -> tuple[State, list[Action]]:
    """Play to the end, checking the invariants after every step; returns the final state and the log."""
    total = sum(tiles_in_play(state).values())
    log: list[Action] = []
    check_invariants(state, total, rng, check_hidden)
    for _ in range(MAX_STEPS):
        if state.phase == Phase.ENDED:
            return state, log
        seats = to_act(state)
        assert seats, "no seat to act in a live hand"
        seat = rng.choice(seats)
        acts = legal_actions(state, seat)
        assert acts, f"seat {seat} must act but has no legal action"
        action = policies[seat](state, seat, acts, rng)
        before = state
        state, events = apply(state, action)
        assert state.version == before.version + 1
        for e in events:
            if e.private:
                assert e.seat is not None
        log.append(action)
        if on_step is not None:
            on_step(before, action, state)
        check_invariants(state, total, rng, check_hidden)
    raise AssertionError(f"hand did not end within {MAX_STEPS} steps")


def assert_reached(seen: Counter[str], names: Iterable[str], arranged: Collection[str] = ()) -> None:
    """The playouts reached every branch in ``names`` (or they prove little) but those in ``arranged``, which
    the caller reaches from an arranged deal instead."""
    missing = [name for name in names if name not in arranged and seen[name] == 0]
    assert not missing, f"no playout reached {missing}: {seen}"


__all__ = ["assert_reached", "eager_policy", "play_hand", "random_policy"]


def perft(state: State, depth: int) -> int:
    """Every legal action of every seat that must act, followed to ``depth`` (python-chess's perft): the
    number of legal action sequences of that length (a hand that ends sooner counts once)."""
    if depth == 0 or state.phase == Phase.ENDED:
        return 1
    return sum(
        perft(apply(state, a)[0], depth - 1) for seat in to_act(state) for a in legal_actions(state, seat)
    )


def selfplay_positions(
    rs: Variant, seed: int, choose: Callable[[Observation, random.Random], Action]
) -> Iterator[tuple[State, Observation]]:
    """The positions of one seeded self-play hand, each (state, the observation of the seat to act) before
    ``choose`` moves for that seat with its own generator (seeded "<seed>/<seat>", as bench/ai_bench.py)."""
    state = new_hand(rs, seed)
    rngs = [random.Random(f"{seed}/{i}") for i in range(state.num_seats)]
    while state.phase != Phase.ENDED:
        seat = to_act(state)[0]
        obs = observe(state, seat)
        yield state, obs
        state, _ = apply(state, choose(obs, rngs[seat]))
