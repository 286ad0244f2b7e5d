"""bot.ai: legal, never misses a win, decides from the Observation only, beats random play, fast."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

import bot.ai as ai
from engine import (
    Act,
    Action,
    Observation,
    Phase,
    State,
    apply,
    arranged_hand,
    get_variant,
    new_hand,
    observe,
    to_act,
)
from engine.tiles import parse_tile, to_counts

RS = get_variant("changsha")
Policy = Callable[[Observation, random.Random], Action]


def random_policy(obs: Observation, rng: random.Random) -> Action:
    return rng.choice(obs.legal)


def random_but_wins(obs: Observation, rng: random.Random) -> Action:
    """A stronger baseline: random play that never passes a win."""
    for a in obs.legal:
        if a.act == Act.WIN:
            return a
    return rng.choice(obs.legal)


def play(seed: int, policies: list[Policy], check: bool = False) -> tuple[State, list[Action]]:
    state = new_hand(RS, seed)
    rngs = [random.Random(seed * 10 + i) for i in range(4)]
    log: list[Action] = []
    for _ in range(2000):
        if state.phase == Phase.ENDED:
            break
        seat = to_act(state)[0]
        obs = observe(state, seat)
        action = policies[seat](obs, rngs[seat])
        if check:
            assert action in obs.legal, (seed, action, obs.legal)
            if policies[seat] is ai.choose and any(a.act == Act.WIN for a in obs.legal):
                assert action.act == Act.WIN, (seed, "missed a win", obs.legal)
        log.append(action)
        state, _ = apply(state, action)
    assert state.phase == Phase.ENDED
    return state, log


@pytest.mark.parametrize("first", range(0, 200, 50))
def test_ai_legal_never_misses_a_win_200_hands(first: int) -> None:
    """200 hands in four parts (so that test workers share them); the AI's speed is measured in
    bench/ai_bench.py, not here."""
    wins = 0
    for seed in range(first, first + 50):
        state, _ = play(seed, [ai.choose] * 4, check=True)
        assert state.result is not None and sum(state.result.deltas) == 0
        wins += bool(state.result.winners)
    assert wins > 25  # efficient players finish most hands


def test_ai_is_deterministic_given_the_rng() -> None:
    for seed in (1, 2, 3):
        _, log1 = play(seed, [ai.choose] * 4)
        _, log2 = play(seed, [ai.choose] * 4)
        assert log1 == log2


@pytest.mark.parametrize("baseline", [random_policy, random_but_wins])
def test_ai_wins_far_more_than_random_players(baseline: Policy) -> None:
    """One AI against three random seats. Measured: the AI takes ~85% of all hands (random seats ~1%
    each, the rest drawn); asserted conservatively."""
    n = 60
    ai_wins = other_wins = ai_points = 0
    for seed in range(n):
        seat = seed % 4  # the AI sits everywhere, dealer or not
        policies: list[Policy] = [baseline] * 4
        policies[seat] = ai.choose
        state, _ = play(1000 + seed, policies, check=True)
        assert state.result is not None
        ai_wins += seat in state.result.winners
        other_wins += sum(1 for w in state.result.winners if w != seat)
        ai_points += state.result.deltas[seat]
    assert ai_wins >= 0.5 * n
    assert ai_wins >= 5 * max(1, other_wins)
    assert ai_points > 0


# ------------------------------------------------------------------ decisions in set positions


def _obs_after(state: State, seat: int) -> Observation:
    return observe(state, seat)


def test_declares_the_opening_with_most_kinds() -> None:
    # seat 0 (dealer): 四喜 (5555m) + 六六顺 (5555m, 777s) + 缺一色 (no 筒)
    state = arranged_hand(RS, ["5555m777s123m4689s", "123456789p1234s", "123456789p1234m", "12346789m12356s"])
    assert state.phase == Phase.OPENING and state.current == 0
    obs = observe(state, 0)
    a = ai.choose(obs, random.Random(0))
    assert a.act == Act.OPENING
    most = max(len(x.detail.split("+")) for x in obs.legal if x.act == Act.OPENING)
    assert len(a.detail.split("+")) == most >= 3


def test_always_wins_when_legal() -> None:
    # dealer holds a complete hand with a 2/5/8 pair: 天胡
    state = arranged_hand(
        RS, ["123m456m789m123s55p", "13579m2468s1357p", "13579s2468p1357m", "2468m13579p2468s"]
    )
    while state.phase == Phase.OPENING:
        state, _ = apply(state, ai.choose(observe(state, state.current), random.Random(0)))
    obs = observe(state, 0)
    assert any(a.act == Act.WIN for a in obs.legal)
    assert ai.choose(obs, random.Random(0)).act == Act.WIN


def test_takes_the_haidi() -> None:
    state = new_hand(RS, 11)
    rng = random.Random(0)
    seen = False
    while state.phase != Phase.ENDED:
        seat = to_act(state)[0]
        obs = observe(state, seat)
        if obs.phase == Phase.HAIDI and any(a.act == Act.TAKE for a in obs.legal):
            assert ai.choose(obs, rng, "easy").act == Act.TAKE  # the baseline always takes it
            seen = True
            state, _ = apply(state, Action(seat, Act.PASS))  # refuse, to see the next seat asked
            continue
        # play on without winning so the wall runs down
        acts = [a for a in obs.legal if a.act in (Act.DISCARD, Act.PASS, Act.TAKE)]
        state, _ = apply(state, acts[-1] if acts else obs.legal[-1])
    assert seen


def _claim_state(hand0: str, discard: str) -> tuple[State, Observation]:
    """Seat 3 (dealer) discards ``discard``; seat 0 (its next seat) may claim it."""
    hands = [hand0, "13579m2468s1357p", "2468m13579p2468s", "13579s2468p1357m" + discard]
    state = arranged_hand(RS, hands, dealer=3)
    while state.phase == Phase.OPENING:
        state, _ = apply(state, Action(state.current, Act.PASS))
    state, _ = apply(state, Action(3, Act.DISCARD, parse_tile(discard)))
    assert state.phase == Phase.CLAIM
    return state, observe(state, 0)


def test_pungs_when_it_lowers_the_shanten() -> None:
    # two melds, 55p pair, 99s pair and three loose tiles: punging 9s goes from 2- to 1-shanten
    _, obs = _claim_state("123m456m99s55p1p4s7p", "9s")
    assert any(a.act == Act.PUNG for a in obs.legal)
    assert ai.choose(obs, random.Random(0)).act == Act.PUNG


def test_passes_a_claim_that_breaks_a_ready_hand() -> None:
    # ready on 3p/6p with the 55s pair: punging 5s keeps it ready only on a single 5p — fewer tiles
    _, obs = _claim_state("123m456m789m45p55s", "5s")
    assert any(a.act == Act.PUNG for a in obs.legal)
    a = ai.choose(obs, random.Random(0))
    assert a.act == Act.PASS


@pytest.mark.parametrize(
    ("hand", "mode"),
    [
        ("2222s23m456m789p55p", "kai"),  # after the kong: ready on 1m/4m, 7 unseen → 开杠
        ("2222s123m456m789p5p", "bu"),  # after the kong: a single wait on 5p → 补张
    ],
)
def test_kong_prefers_bu_unless_ready_with_many_waits(hand: str, mode: str) -> None:
    state = arranged_hand(RS, [hand, "13579m4689s1357p", "2468m13579p4689s", "13579s246p1357m8m"])
    while state.phase == Phase.OPENING:
        state, _ = apply(state, Action(state.current, Act.PASS))
    obs = observe(state, 0)
    assert {a.detail for a in obs.legal if a.act == Act.KONG} == {"bu", "kai"}
    a = ai.choose(obs, random.Random(0))
    assert a == Action(0, Act.KONG, parse_tile("2s"), mode)


def test_discards_the_isolated_tile() -> None:
    # 14 tiles: three melds, 55p pair, 23m partial and a lonely 9s → 9s goes
    state = arranged_hand(
        RS, ["123m456m789p55p23m9s", "13579m2468s1357p", "2468m13579p2468s", "13579s246p1357m8m"]
    )
    while state.phase == Phase.OPENING:
        state, _ = apply(state, Action(state.current, Act.PASS))
    obs = observe(state, 0)
    a = ai.choose(obs, random.Random(0))
    assert a == Action(0, Act.DISCARD, parse_tile("9s"))


# ------------------------------------------------------------------ observation only


def test_ai_reads_only_the_observation() -> None:
    """choose() takes an Observation (and its level); the deciding modules never touch a State — value.py
    builds stand-in tables of public facts to price a win (docs/ai.md "What it reads"), and the test below
    holds that no hidden tile changes a decision."""
    import bot.ai.baseline
    import bot.ai.defence
    import bot.ai.player

    params = list(inspect.signature(ai.choose).parameters)
    assert params == ["obs", "rng", "level"]
    for mod in (ai, bot.ai.baseline, bot.ai.player, bot.ai.defence):
        assert not any(isinstance(v, type) and v.__name__ == "State" for v in vars(mod).values())
        assert "engine.state" not in inspect.getsource(mod)


def _swap_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position with ``seat``'s concealed tiles partly exchanged with unseen wall tiles."""
    s = state.seats[seat]
    hand = [t for t, n in enumerate(s.counts) for _ in range(n)]
    wall = list(state.wall.tiles)
    free = [p for p in range(len(wall)) if not state.wall.taken >> p & 1]
    rng.shuffle(free)
    swaps = 0
    for i, p in enumerate(free[: len(hand)]):
        if wall[p] != hand[i]:
            hand[i], wall[p] = wall[p], hand[i]
            swaps += 1
    seats = list(state.seats)
    seats[seat] = replace(s, counts=to_counts(hand))
    twin = replace(state, seats=tuple(seats), wall=replace(state.wall, tiles=tuple(wall)))
    assert swaps == 0 or twin.seats[seat].counts != s.counts
    return twin


def test_ai_decision_does_not_depend_on_hidden_tiles() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(20):
        state = new_hand(RS, seed)
        while state.phase != Phase.ENDED:
            seat = to_act(state)[0]
            obs = observe(state, seat)
            if state.phase == Phase.TURN and not state.seats[(seat + 2) % 4].revealed:
                twin = _swap_hidden(state, (seat + 2) % 4, random.Random(rng.random()))
                for level in ai.LEVEL_IDS:
                    a1 = ai.choose(obs, random.Random(1), level)
                    a2 = ai.choose(observe(twin, seat), random.Random(1), level)
                    assert a1 == a2, level
                checked += 1
            state, _ = apply(state, ai.choose(obs, random.Random(seed)))
    assert checked > 100
