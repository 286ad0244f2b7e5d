"""bot.ai at a 红中麻将 table (docs/rules/hongzhong.md §2.1, §2.2: 红中 is wild and can't be discarded): it
reads 红中 as wild through the variant's shanten (engine/wild.py), never tries to throw one, takes
四红中 at the deal, and beats random play. Nothing in bot/ names the variant.
"""

from __future__ import annotations

import random

import bot.ai as ai
from engine import Act, Observation, Phase, State, apply, get_variant, new_hand, observe, to_act
from engine.shanten import HandShape
from engine.tiles import parse_tile, parse_tiles, remove_tile, to_counts
from engine.wild import WildShape

from .dealing import deal
from .zhuanzhuan_helpers import HZ, JUNK

RED = 33


def play(seed: int, ai_seats: set[int], options: dict[str, object] | None = None) -> State:
    """One hand: the AI at ``ai_seats``, random players elsewhere; every AI action is legal, never a 红中
    discard, never a missed win."""
    state = new_hand(HZ, seed, options)
    rngs = [random.Random(seed * 10 + i) for i in range(4)]
    while state.phase != Phase.ENDED:
        seat = to_act(state)[0]
        obs = observe(state, seat)
        if seat in ai_seats:
            action = ai.choose(obs, rngs[seat])
            assert action in obs.legal
            assert not (action.act == Act.DISCARD and action.tile == RED)
            if any(a.act == Act.WIN for a in obs.legal):
                assert action.act == Act.WIN
        else:
            action = rngs[seat].choice(obs.legal)
        state, _ = apply(state, action)
    return state


def test_the_ai_plays_with_the_wild_aware_shanten() -> None:
    """The AI's shanten is the variant's (Variant.hand_shape): 123m 456m 789s 12p 8s + 红中 is ready (红中 as
    3p, 8s waits for its pair, or 红中 pairs 8s and 12p waits on 3p) — a plain reading calls it 1-shanten."""
    state = new_hand(HZ, 1)
    ev = ai.Evaluator(observe(state, state.dealer))
    assert isinstance(ev.shape, WildShape)
    counts = to_counts(parse_tiles("123m456m789s12p8s7z"))
    assert ev.shanten(counts) == 0
    assert HandShape(HZ.shapes).shanten(counts) == 1
    s, useful = ev.value(counts)
    assert s == 0 and useful > 0


def test_the_ai_keeps_a_ready_hand_that_only_wilds_make() -> None:
    """The dealer's 233m 45789s 2479p + two 红中: throwing 2m keeps it ready (33m, 789s, 2p 红中 4p, 7p 红中
    9p, and 45s waiting on 3s/6s), where a plain reading of the tiles would throw 9p and fall back to
    1-shanten; the AI keeps it ready."""
    hands = ["233m45789s2479p7z7z", "111444m666s111p5p", "555666m333s666p9p", "777888m222s888p1s"]
    state = deal(HZ, hands)
    obs = observe(state, 0)
    action = ai.choose(obs, random.Random(0))
    assert action.act == Act.DISCARD and action.tile is not None and action.tile != RED
    counts = to_counts(obs.hand)
    assert HZ.waits(remove_tile(counts, action.tile))
    assert not HZ.waits(remove_tile(counts, parse_tile("9p")))


def test_the_ai_wins_with_four_red_dragons_at_the_deal() -> None:
    """docs/rules/hongzhong.md §2.3, §2.4: four 红中 win at once — the AI takes the win it is offered at the
    deal."""
    state = deal(HZ, [JUNK[0] + "8m", "369m369s369p7z7z7z7z", JUNK[1], JUNK[2]])
    obs: Observation = observe(state, 1)
    assert obs.phase == Phase.OPENING
    assert ai.choose(obs, random.Random(0)).act == Act.WIN


def test_four_ai_seats_finish_their_hands() -> None:
    """Four AI seats: legal, never a 红中 thrown, never a missed win; efficient players finish most hands."""
    wins = 0
    for seed in range(60):
        state = play(seed, {0, 1, 2, 3}, {"jiepao": seed % 2 == 0})
        assert state.result is not None and sum(state.result.deltas) == 0
        wins += bool(state.result.winners)
    assert wins >= 50


def test_the_ai_wins_far_more_than_random_players() -> None:
    """One AI against three random seats (the AI sits everywhere): it takes most of the wins and points."""
    n = 40
    ai_wins = other_wins = points = 0
    for seed in range(n):
        seat = seed % 4
        state = play(2000 + seed, {seat})
        assert state.result is not None
        ai_wins += seat in state.result.winners
        other_wins += sum(1 for w in state.result.winners if w != seat)
        points += state.result.deltas[seat]
    assert ai_wins >= 0.5 * n and ai_wins >= 4 * max(1, other_wins) and points > 0


def test_zhuanzhuan_ai_plays_too() -> None:
    """转转 (no wilds): the AI plays with the common shanten and finishes its hands."""
    zz = get_variant("zhuanzhuan")
    assert not isinstance(zz.hand_shape(), WildShape)
    rng = random.Random(3)
    state = new_hand(zz, 3)
    while state.phase != Phase.ENDED:
        seat = to_act(state)[0]
        state, _ = apply(state, ai.choose(observe(state, seat), rng))
    assert state.result is not None
