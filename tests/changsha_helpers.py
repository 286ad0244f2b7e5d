"""Helpers for the Changsha rule-clause tests: the Changsha variant, its junk hands and its arranged deal.

The helpers every variant shares (actions in tile notation, claims, settlement look-ups) live in dealing.py;
tests import those from there. Seats count in play order: seat + 1 is the 下家 (next seat); the dealer holds
14 tiles."""

from __future__ import annotations

from typing import Any

from engine import Act, State, get_variant, parse_tile

from . import dealing
from .dealing import act, discard, discard_drawn, pass_openings

CS = get_variant("changsha")

# Junk hands: every suit, a 2/5/8 tile, no pair, no run, no opening hand, not ready. They only pass.
JUNK = ("679m25689s12489p", "2367m12468s1248p", "23679m279s14689p")


def deal(hands: list[str], birds: int = 0, base: int = 10, openings: bool = False, **kw: Any) -> State:
    """An arranged Changsha hand (birds=0, 底分 10 unless told), built by dealing.deal; ``kw``: its draws,
    back, tail, dealer, seed, stacks ({N: tile} puts a tile on top of the N-th stack counted from the back,
    for 开杠 dice) and other room options. Unless ``openings`` is set, every opening hand (起手小胡) is
    passed, so the hand is at the dealer's first discard."""
    state = dealing.deal(CS, hands, birds=birds, base=base, **kw)
    return state if openings else pass_openings(state)


def win_names(
    hand: str, tile: str, self_draw: bool = True, seat: int = 1, dealer: int = 0, **flags: Any
) -> list[str] | None:
    """Changsha's verdict on a complete hand: sorted hand names (a big hand repeated by its count), or None if
    it does not win. ``hand`` is the whole hand with melds in brackets; its concealed part already holds the
    winning ``tile``."""
    return dealing.win_names(CS, hand, tile, self_draw=self_draw, seat=seat, dealer=dealer, **flags)


PUNG_1M = "1168m345s456p789p"
ROBBER = "239m234789s1235p"  # draws 5p, throws 9m: 23m 234s 789s 123p 55p waits 1m/4m


def rob_deal(back: str = "") -> State:
    """Seat 1 pungs the dealer's 1m and, a round later, has drawn the fourth 1m; seat 2 now waits on it."""
    state = deal([JUNK[0] + "1m", PUNG_1M, ROBBER, JUNK[2]], draws="5p1s1s1m", back=back)
    state = act(state, 0, Act.DISCARD, "1m")
    state = act(state, 1, Act.PUNG)
    state = discard(state, 1, "8m")
    state = discard(state, 2, "9m")
    state = discard_drawn(state)  # seat 3
    state = discard_drawn(state)  # seat 0
    assert state.current == 1 and state.drawn == parse_tile("1m")
    return state
