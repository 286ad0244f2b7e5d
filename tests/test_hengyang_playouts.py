"""Seeded random playouts of whole Hengyang hands with the core invariants after every step
(tests/playout.py): 108 tiles conserved, hidden tiles never in another seat's observation (a 扳牌 hand is
public for its three turns), every settlement and every hand sums to zero, every hand ends. Plus the Hengyang
money rules checked on every settlement the random players produce."""

from __future__ import annotations

import random
from collections import Counter

from engine import Act, Phase, State, get_ruleset, new_hand, replay

from .playout import eager_policy, play_hand, random_policy

RULES = get_ruleset("hengyang")
KONG_FAN = {"angang": 2, "bugang": 1, "zhigang": 3}


SMALL = {"pinghu", "menqianqing"}


def table_fan(names: tuple[str, ...], self_draw: bool, dealer: bool) -> int:
    """RULES.md §3 written out again: small 1 / 2 (+1 门前清), big self-draw 3n / 3n+1, big on a discard 6n /
    7n, 龙七对 +1."""
    if set(names) <= SMALL:
        return (2 if dealer else 1) + ("menqianqing" in names)
    n = len(names)
    fan = (3 * n + dealer) if self_draw else (7 * n if dealer else 6 * n)
    return fan + ("longqidui" in names)


def check_money(state: State) -> None:
    """Every payment is the table amount × 底分 × 2^hits; kong money per RULES §3; 扳牌 without birds."""
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


def test_2000_random_hands_keep_every_invariant() -> None:
    """108 tiles conserved, deltas sum to zero, every hand ends; half random, half eager players."""
    seen: Counter[str] = Counter()
    for seed in range(2000):
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
    # the playouts must actually reach the rules, or they prove little (天胡 地胡 将一色 龙七对 are too
    # rare for random players; the clause tests set them up). 开杠 runs its two tiles, the locked hand and
    # their fall.
    for name in (
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
    ):
        assert seen[name] > 0, f"no playout reached {name}: {seen}"
    assert seen["win"] > 200 and seen["draw"] > 200


def test_hidden_tiles_never_reach_another_seat() -> None:
    """Swapping any hidden tile of one seat with a wall tile never changes another seat's observation."""
    for seed in range(2000, 2100):
        rng = random.Random(seed)
        play_hand(new_hand(RULES, seed), rng, [eager_policy] * 4, check_hidden=True)


def test_replay_from_the_action_log_gives_the_same_state() -> None:
    """A hand is fully determined by (ruleset, options, seed, actions)."""
    for seed in range(50):
        rng = random.Random(seed)
        opts = {"birds": seed % 3, "base": 10}
        state, log = play_hand(new_hand(RULES, seed, opts), rng, [eager_policy] * 4)
        assert replay(RULES, seed, log, opts) == state
