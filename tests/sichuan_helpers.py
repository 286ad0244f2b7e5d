"""Helpers for the Sichuan rule-clause tests (no tests here): the Sichuan variant, its junk hands, arranged
deals with the 定缺 made, and hand verdicts in 番. The helpers every variant shares (actions in tile
notation, claims, the money of a settlement) live in dealing.py.

Seats count in play order: seat + 1 is the 下家. Seat 0 deals (14 tiles) unless told. The junk hands hold
two suits, no pair, are not ready and void the third suit automatically, so they only ever pass and throw
what they draw.
"""

from __future__ import annotations

from typing import Any

from engine import Act, Phase, State, get_variant, legal_actions, parse_hand, to_act

from . import dealing
from .dealing import act, win_context

SC = get_variant("sichuan")

# Junk: two suits, no pair, not ready; the missing suit is the void (定缺) each is offered alone.
J0 = "1245789m235689s"  # void 筒 p
J1 = "134679s1245789p"  # void 万 m
J2 = "1234679m235689p"  # void 条 s
J3 = "1245789m134679s"  # void 筒 p — for deals that need the 筒 J1 and J2 hold
JUNK = (J0, J1, J2)


def deal(hands: list[str], voids: str | None = None, **kw: Any) -> State:
    """An arranged Sichuan hand at the dealer's first turn, 定缺 made: ``voids`` one letter per seat
    ("m"/"s"/"p", "." = the default offered first); default: every seat takes the default.

    Built by dealing.deal; ``kw``: its draws (the next front draws in order), back (the next kong
    replacements), tail (the last tiles of the wall in drawing order, the last one the 海底 tile), dealer,
    seed, and room options by name (底分 1 unless told)."""
    return choose(dealing.deal(SC, hands, **kw), voids)


def choose(state: State, voids: str | None = None) -> State:
    """Every seat still choosing takes its void from ``voids`` (or the default)."""
    while state.phase == Phase.CHOOSE:
        seat = to_act(state)[0]
        offered = legal_actions(state, seat)
        want = voids[seat] if voids is not None and voids[seat] != "." else offered[0].detail
        state = act(state, seat, Act.CHOOSE, detail=want)
    return state


def fans(
    hand: str,
    tile: str,
    self_draw: bool = False,
    void: str | None = None,
    options: dict[str, Any] | None = None,
    **flags: Any,
) -> dict[str, int] | None:
    """Sichuan's verdict on a complete hand: {name: 番}, or None if it does not win. ``hand`` is the whole
    hand with melds in brackets; its concealed part already holds the winning ``tile``. ``void`` defaults
    to the suit the hand lacks (万 条 筒 order)."""
    if void is None:
        counts, melds = parse_hand(hand)
        held = {x // 9 for x, n in enumerate(counts) if n} | {m.tile // 9 for m in melds}
        void = next(("msp"[i] for i in range(3) if i not in held), None)
    ctx = win_context(SC, hand, tile, self_draw, options=options, choice=void, **flags)
    info = SC.evaluate_win(ctx)
    return None if info is None else dict(info.big)


def total_fan(hand: str, tile: str, **kw: Any) -> int:
    got = fans(hand, tile, **kw)
    assert got is not None, f"{hand} does not win on {tile}"
    return sum(got.values())
