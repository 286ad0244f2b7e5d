"""Helpers for the 转转麻将 (Zhuanzhuan) and 红中麻将 (Hongzhong) clause tests: the variants, junk hands,
ready hands, arranged deals and hand verdicts.

Not tests themselves (pytest collects nothing here); the helpers every variant shares live in dealing.py.
Seats count in play order: seat + 1 is the 下家 (next seat); the dealer (seat 0 unless told) holds 14 tiles.
底分 is 1 unless told, so an amount reads directly in points. The birds (抓码) are the front tiles left in
the wall when a hand is won: a test that wins on its first draw lists them right after the winning tile.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import Act, Action, Phase, State, Variant, get_variant, new_hand

from . import dealing
from .dealing import act, discard
from .playout import eager_policy, play_hand, random_policy, tiles_in_play

ZZ = get_variant("zhuanzhuan")
HZ = get_variant("hongzhong")

# Junk hands: 13 different suited tiles, no pair, no run, nothing near ready (with a 红中 either).
JUNK = ("124578m1245s147p", "1245s124578p147m", "124578s1245m258p")
# Seat 1's ready hand: 333m 666m 999s and the pairs 33p 66p — waits on 3p or 6p (any pair, no 258 rule)
READY = "333m666m999s33p66p"
# Birds that never hit (ranks 3 and 6, 159中码) and birds that hit (9m 1s: two of the four)
NO_HIT = "3s6s3s6s"
TWO_HITS = "9m1s3s6s"


def deal(hands: list[str], variant: Variant = ZZ, base: int = 1, **kw: Any) -> State:
    """An arranged hand at the dealer's first discard (no pre-hand choices in these variants); ``kw``: its
    draws, back, tail, dealer, seed and room options by name."""
    return dealing.deal(variant, hands, base=base, **kw)


def self_draw(variant: Variant = ZZ, front: str = NO_HIT, winner: str = READY, **kw: Any) -> State:
    """The dealer throws 8m, nobody claims, seat 1 draws 6p and wins by self-draw; ``front``: the wall's
    front tiles after 6p (the birds)."""
    state = deal([JUNK[0] + "8m", winner, JUNK[1], JUNK[2]], variant, draws="6p" + front, **kw)
    state = discard(state, 0, "8m")
    assert state.current == 1
    return act(state, 1, Act.WIN)


def discard_win(variant: Variant = ZZ, front: str = NO_HIT, winner: str = READY, **kw: Any) -> State:
    """可接炮 on: the dealer throws 6p into seat 1's ready hand and seat 1 wins on it; ``front``: the wall's
    front tiles (the birds)."""
    kw.setdefault("jiepao", True)
    state = deal([JUNK[0] + "6p", winner, JUNK[1], JUNK[2]], variant, draws=front, **kw)
    state = act(state, 0, Act.DISCARD, "6p")
    return act(state, 1, Act.WIN)


def win_names(variant: Variant, hand: str, tile: str, **kw: Any) -> list[str] | None:
    """The variant's verdict on a complete hand (dealing.win_context): sorted names, or None. Every hand
    evaluate_win accepts must pass the cheap could_win gate too."""
    ctx = dealing.win_context(variant, hand, tile, **kw)
    info = variant.evaluate_win(ctx)
    if info is not None:
        assert variant.could_win(ctx.counts, ctx.melds), "could_win must pass every winning hand"
    return dealing.sorted_names(info)


# ---------------------------------------------------------------- playouts


def room_options(variant: Variant, seed: int) -> dict[str, Any]:
    """Every room option varied over the seeds (each value reached many times in 300 hands)."""
    opts: dict[str, Any] = {
        "qidui": seed % 5 != 1,
        "jiepao": seed % 2 == 0,
        "sanjia": seed % 6 == 0,
        "birds": (2, 4, 6)[seed % 3],
        "yima": seed % 7 == 3,
        "tuigang": seed % 4 == 1,
        "zhuangxian": seed % 4 == 2,
        "base": (1, 2, 5)[seed % 3],
    }
    if any(s.name == "wuhongzhong" for s in variant.option_specs):
        opts["wuhongzhong"] = seed % 2 == 1
    return opts


def expected_amount(
    state: State, winner: int, names: tuple[str, ...], payer: int, birds: tuple[int, ...]
) -> int:
    """What docs/rules/zhuanzhuan.md §5–§7 say ``payer`` owes ``winner``, worked out anew."""
    opts = state.options
    way = names[1]
    shares = 3 if way == "qianggang" or (way == "jiepao" and opts["sanjia"]) else 1
    units = 1 if way == "jiepao" else 2
    if opts["yima"]:
        (bird,) = birds
        bonus = 10 if bird == 33 else bird % 9 + 1
    else:
        bonus = 2 * sum(1 for b in birds if b == 33 or (b < 27 and b % 9 in (0, 4, 8)))
    if "wuhongzhong" in names:
        bonus += 2
    dealer = 1 if opts["zhuangxian"] and state.dealer in (winner, payer) else 0
    return int(shares * (units + bonus + dealer) * opts["base"])


KONG_UNITS = {"angang": (2, 3), "bugang": (1, 3), "zhigang": (3, 1)}  # (× 底分, payment lines)


def check_hand(state: State) -> None:
    """Every settlement of a finished hand as docs/rules/zhuanzhuan.md §5–§7 say, and the next dealer."""
    assert state.result is not None
    base = state.options["base"]
    n_birds = 1 if state.options["yima"] else state.options["birds"]
    for st in state.settlements:
        if st.kind == "kong":
            ((seat, (name,)),) = st.hands
            units, lines = KONG_UNITS[name]
            assert len(st.payments) == lines and all(p.amount == units * base for p in st.payments), st
        elif st.kind == "win":
            assert len(st.birds) == n_birds and st.birds == state.wall.peek_front(n_birds)
            for w, names in st.hands:
                lines = [p for p in st.payments if p.payee == w]
                assert len(lines) == (3 if names[1] == "zimo" else 1), st
                for p in lines:
                    assert p.amount == expected_amount(state, w, names, p.payer, st.birds), (st, p)
        else:
            assert st.kind == "draw" and st.note == "tuigang" and state.options["tuigang"]
    winners = state.result.winners
    if not winners:
        assert state.result.next_dealer == state.dealer
        assert state.wall.remaining == n_birds  # the birds are never drawn (no 海底)
        if state.options["tuigang"]:
            assert state.result.deltas == (0,) * state.num_seats
    elif len(winners) == 1:
        assert state.result.next_dealer == winners[0]
    else:
        (win,) = [s for s in state.settlements if s.kind == "win"]
        assert {p.payer for p in win.payments} == {state.result.next_dealer}  # the discarder


def playouts(variant: Variant, hands: int, total: int) -> Counter[str]:
    """Seeds 0 … hands-1 (two in three eager, one in three random players), every room option varied; the
    core invariants after every step (tests/playout.py), ``total`` tiles conserved, every settlement and the
    next dealer checked, every action printed and parsed back, 红中 never discarded or melded."""
    seen: Counter[str] = Counter()
    for seed in range(hands):
        rng = random.Random(seed)
        policy = random_policy if seed % 3 == 2 else eager_policy
        state = new_hand(variant, seed, room_options(variant, seed))
        assert sum(tiles_in_play(state).values()) == total
        state, log = play_hand(state, rng, [policy] * 4, check_hidden=seed % 50 == 0)
        assert state.phase == Phase.ENDED and state.result is not None
        assert all(Action.parse(str(a)) == a for a in log)
        for s in state.seats:
            assert 33 not in s.discards and all(m.tile != 33 for m in s.melds)
        check_hand(state)
        seen[f"hand:{state.result.reason}"] += 1
        if len(state.result.winners) > 1:
            seen["multi"] += 1
        for st in state.settlements:
            for _, names in st.hands:
                seen.update(names)
    return seen
