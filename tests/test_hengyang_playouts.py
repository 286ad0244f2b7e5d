"""Seeded random playouts of whole Hengyang hands with the core invariants after every step
(tests/playout.py): 108 tiles conserved, hidden tiles never in another seat's observation (a 扳牌 hand is
public for its three turns), every settlement and every hand sums to zero, every hand ends. Plus the Hengyang
money rules checked on every settlement the random players produce."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import Act, Phase, State, get_variant, new_hand, replay

from .dealing import act, discard, discard_drawn, play_until_haidi
from .hengyang_helpers import JUNK, deal
from .playout import assert_reached, eager_policy, play_hand, random_policy

RULES = get_variant("hengyang")
KONG_FAN = {"angang": 2, "bugang": 1, "zhigang": 3}


SMALL = {"pinghu", "menqianqing"}


def table_fan(names: tuple[str, ...], self_draw: bool, dealer: bool) -> int:
    """docs/rules/hengyang.md §8 written out again: small 1 / 2 (+1 门前清), big self-draw 3n / 3n+1, big on a
    discard 6n / 7n, 龙七对 +1."""
    if set(names) <= SMALL:
        return (2 if dealer else 1) + ("menqianqing" in names)
    n = len(names)
    fan = (3 * n + dealer) if self_draw else (7 * n if dealer else 6 * n)
    return fan + ("longqidui" in names)


def check_money(state: State) -> None:
    """Every payment is the table amount × 底分 × 2^hits; kong money per docs/rules/hengyang.md §10.2; 扳牌
    without birds."""
    base = state.options["base"]
    for st in state.settlements:
        assert sum(st.deltas) == 0, st
        if st.kind == "kong":
            (w,) = st.winners
            ((_, (name,)),) = st.hands
            assert all(p.payee == w and p.amount == KONG_FAN[name] * base for p in st.payments), st
            assert len(st.payments) == (1 if name == "zhigang" else 3)
        elif st.kind == "opening":
            assert st.birds == ()
            assert all(p.amount in (base, 2 * base) and p.hits == 0 for p in st.payments), st
        elif st.kind == "win":
            assert len(st.birds) <= state.options["birds"]
            names = dict(st.hands)
            for p in st.payments:
                self_draw = sum(1 for q in st.payments if q.payee == p.payee) == 3
                fan = table_fan(names[p.payee], self_draw, state.dealer in (p.payer, p.payee))
                assert p.amount == fan * base * 2**p.hits, (st, fan)


def playouts(hands: int) -> Counter[str]:
    """Seeds 0 … hands-1, half random, half eager players, every bird count and 底分; checks every hand's
    money and returns what the hands reached, by result, hand name and kong."""
    seen: Counter[str] = Counter()
    for seed in range(hands):
        rng = random.Random(seed)
        policy = random_policy if seed % 2 else eager_policy
        opts = {"birds": (2, 1, 0)[seed % 3] if seed % 5 else 2, "base": (1, 10)[seed % 2]}
        state = new_hand(RULES, seed, opts)
        state, log = play_hand(state, rng, [policy] * 4, check_hidden=seed % 20 == 0)
        seen["kaigang"] += sum(1 for a in log if a.act == Act.KONG and a.detail == "kai")
        assert state.phase == Phase.ENDED and state.result is not None
        assert sum(state.result.deltas) == 0
        check_money(state)
        seen[state.result.reason] += 1
        for st in state.settlements:
            for _, names in st.hands:
                seen.update(names)
            if st.kind == "win" and len(st.winners) > 1:
                seen["multi_win"] += 1
    return seen


# the playouts must actually reach the rules, or they prove little (天胡 地胡 将一色 龙七对 are too rare for
# random players; the clause tests set them up). 开杠 runs its two tiles, the locked hand and their fall.
REACHED = (
    "pinghu",
    "menqianqing",
    "pengpenghu",
    "quanqiuren",
    "qingyise",
    "qidui",
    "haidilaoyue",
    "gangshangkaihua",
    "queyimen",
    "sixi",
    "liuliushun",
    "angang",
    "bugang",
    "zhigang",
    "kaigang",
    "multi_win",
)


# In the soak's 2,000 hands 清一色 comes once, 七小对 5 times, 海底捞月 twice and 一炮多响 7 times, none of
# them in the first 300: the default run reaches them from arranged deals
# (test_rare_hands_from_arranged_deals)
ARRANGED = {"qingyise", "qidui", "haidilaoyue", "multi_win"}


def test_300_random_hands_keep_every_invariant() -> None:
    """108 tiles conserved, deltas sum to zero, every hand ends, every payment as docs/rules/hengyang.md §8
    and
    §10.2 say; the default run (2,000 under `make soak`). The hands it must reach are the soak's, but for
    ARRANGED."""
    seen = playouts(300)
    assert_reached(seen, REACHED, ARRANGED)
    assert seen["win"] > 30 and seen["draw"] > 30


@pytest.mark.soak
def test_2000_random_hands_keep_every_invariant() -> None:
    """The 2,000 whole hands (seeds 0 … 1999, the default run's 300 among them)."""
    seen = playouts(2000)
    assert_reached(seen, REACHED)
    assert seen["win"] > 200 and seen["draw"] > 200


WAITS_4P = "234m45556s23789p"  # 平和 + 门前清 on 1p/4p
TWO_4P = "55m567m234s789s56p"  # also waits 4p


def arranged_positions() -> dict[str, State]:
    """One arranged position a step or two before each ARRANGED branch (the clause tests' deals)."""
    qingyise = deal([JUNK[0] + "3s", "111s345s345s777s9s", JUNK[1], JUNK[2]], draws="9s")
    qidui = deal([JUNK[0] + "3s", "11m33m66s77s99s33p5p", JUNK[1], JUNK[2]], draws="5p")
    haidi = deal([JUNK[0] + "3s", JUNK[1], JUNK[2], WAITS_4P], tail="9m4p")
    two = deal([JUNK[0] + "3s", WAITS_4P, TWO_4P, JUNK[2]], draws="1s1s1s")
    two = discard_drawn(discard_drawn(discard(two, 0, "3s")))
    return {
        "qingyise": discard(qingyise, 0, "3s"),  # seat 1 has drawn his 9s
        "qidui": discard(qidui, 0, "3s"),  # seat 1 has drawn his 5p
        "haidilaoyue": play_until_haidi(haidi, "3s"),  # everyone threw what he drew; seat 3 is offered 4p
        "multi_win": act(two, 3, Act.DISCARD, "4p"),  # seats 1 and 2 both wait on it
    }


def test_rare_hands_from_arranged_deals() -> None:
    """The default run's route to the ARRANGED branches: from each arranged position, eager players (they
    take every win and the haidi) play to the end with every invariant checked after every step, hidden tiles
    included, and the money checked. The soak reaches them by random play."""
    positions = arranged_positions()
    assert set(positions) == ARRANGED
    for name, state in positions.items():
        state, _ = play_hand(state, random.Random(0), [eager_policy] * 4, check_hidden=True)
        check_money(state)
        seen = {n for st in state.settlements for _, names in st.hands for n in names}
        seen |= {"multi_win" for st in state.settlements if st.kind == "win" and len(st.winners) > 1}
        assert name in seen, (name, state.settlements)


@pytest.mark.parametrize("hands", [40, pytest.param(300, marks=pytest.mark.soak)], ids=["default", "soak"])
def test_hidden_tiles_never_reach_another_seat(hands: int) -> None:
    """Swapping any hidden tile of one seat with a wall tile never changes another seat's observation
    (after every step of every hand: 40 hands by default, 300 under `make soak`)."""
    for seed in range(2000, 2000 + hands):
        rng = random.Random(seed)
        play_hand(new_hand(RULES, seed), rng, [eager_policy] * 4, check_hidden=True)


def test_replay_from_the_action_log_gives_the_same_state() -> None:
    """A hand is fully determined by (variant, options, seed, actions)."""
    for seed in range(50):
        rng = random.Random(seed)
        opts = {"birds": seed % 3, "base": 10}
        state, log = play_hand(new_hand(RULES, seed, opts), rng, [eager_policy] * 4)
        assert replay(RULES, seed, log, opts) == state
