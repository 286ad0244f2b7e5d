"""A tile offered to the other seats: who may claim a discard (win, kong, pung, chow) and who may win on a
tile offered for a win alone (the shown haidi tile, a kong being robbed, the tiles an 开杠 let fall). Part of
the hand state machine (engine/game.py, which resolves the answers)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .actions import Action, KongMode
from .legal import _kong_actions, _waits_of
from .machine import (
    _C_HAIDI,
    _C_ROB,
    _CHOW,
    _CHOWS,
    _KONG,
    _OTHERS,
    _PASSES,
    _PUNG,
    _PUNGS,
    _WINS,
    _forced,
    _next_active,
    win_info,
)
from .melds import MeldKind
from .state import Claim, State, copier
from .tiles import SUITED_KINDS
from .variant import WinInfo


def _claim_candidates(state: State, from_seat: int, t: int) -> list[tuple[int, bool, bool]]:
    """(seat, may win, may meld) for each seat a discard of ``t`` might concern, from its counts alone (most
    discards concern nobody, and no Action is made for them). Reads only the other seats, the wall and who
    has won: the same before and after the discard is made."""
    out = []
    rs = state.variant
    melds_left = state.wall.remaining > state.wall_reserve
    seats = state.seats
    others = _OTHERS[len(seats)][from_seat]
    chow_seat = others[0]
    if seats[chow_seat].won:
        chow_seat = _next_active(state, chow_seat)
    chow_tile = t < SUITED_KINDS
    r = t % 9
    shape_defaults = rs._shape_defaults
    for seat in others:
        s = seats[seat]
        if s.won:
            continue
        counts = s.counts
        may_meld = (
            melds_left
            and not s.locked
            and (
                counts[t] >= 2
                or (
                    chow_tile
                    and seat == chow_seat
                    and (
                        (r >= 1 and counts[t - 1] and (r >= 2 and counts[t - 2] or r <= 7 and counts[t + 1]))
                        or (r <= 6 and counts[t + 1] and counts[t + 2])
                    )
                )
            )
        )
        if shape_defaults:
            memo = s.waits_memo
            may_win = t in (memo[1] if memo is not None and memo[0] is rs else _waits_of(rs, s))
        else:
            may_win = True
        if may_win and s.passed_wins and rs.passed_win_bars(s.passed_wins, t):
            may_win = False
        if may_meld or may_win:
            out.append((seat, may_win, bool(may_meld)))
    return out


def _claim_options(
    state: State,
    from_seat: int,
    t: int,
    first_discard: bool,
    kong_discard: bool,
    after_kong: KongMode | None,
    candidates: list[tuple[int, bool, bool]],
) -> tuple[tuple[int, tuple[Action, ...]], ...]:
    out = []
    rs = state.variant
    chow_seat = _next_active(state, (from_seat + 1) % len(state.seats))
    r = t % 9
    forces = rs._forces_wins
    flags = None
    for seat, may_win, may_meld in candidates:
        s = state.seats[seat]
        counts = s.counts
        n = counts[t]
        acts: list[Action] = []
        if may_win:
            if flags is None:  # a Claim's win flags (_claim_win_flags) for a discard
                flags = {
                    "from_seat": from_seat,
                    "first_discard": first_discard,
                    "kong_discard": kong_discard,
                    "after_kong": after_kong,
                }
            if _win_on(state, seat, (t,), flags) is not None:
                acts.append(_WINS[seat])
        if may_meld:
            if n == 3 and rs.claim_allowed(state, seat, _KONG, t):
                acts.extend(_kong_actions(state, seat, t, MeldKind.KONG_EXPOSED))
            if n >= 2 and rs.claim_allowed(state, seat, _PUNG, t):
                acts.append(_PUNGS[seat])
            # chow: only the discarder's next seat in play (docs/rules/common.md §3)
            if seat == chow_seat and t < SUITED_KINDS and rs.claim_allowed(state, seat, _CHOW, t):
                chows = _CHOWS[seat]
                if r >= 2 and counts[t - 2] and counts[t - 1]:
                    acts.append(chows[t - 2])
                if r >= 1 and r <= 7 and counts[t - 1] and counts[t + 1]:
                    acts.append(chows[t - 1])
                if r <= 6 and counts[t + 1] and counts[t + 2]:
                    acts.append(chows[t])
        if acts:
            acts.append(_PASSES[seat])
            out.append((seat, _forced(tuple(acts), state, seat) if forces else tuple(acts)))
    return tuple(out)


def _claim_win_flags(claim: Claim) -> dict[str, Any]:
    """The WinContext flags a win on ``claim``'s tile is judged with (地胡, 杠上炮, 抢杠, 海底炮 …)."""
    return {
        "from_seat": claim.from_seat,
        "first_discard": claim.first_discard,
        "kong_discard": claim.kong_discard,
        "after_kong": claim.after_kong,
        "robbed": claim.kind == _C_ROB,
        "robbed_concealed": claim.kind == _C_ROB and claim.kong_kind == MeldKind.KONG_CONCEALED,
        "haidi": claim.kind == _C_HAIDI,
        "kong_tiles": claim.tiles,
    }


def _win_on(
    state: State, seat: int, tiles: Iterable[int], flags: Mapping[str, Any]
) -> tuple[int, WinInfo] | None:
    """The first of ``tiles`` another seat offers (a discard, the shown haidi tile, a kong's robbed tile, the
    tiles an 开杠 let fall) that ``seat`` wins on, and the win; ``flags`` are the claim's (its WinContext
    flags, ``_claim_win_flags``). None for a seat that has won (血战) and for a tile 漏胡 bars it from."""
    s = state.seats[seat]
    if s.won:
        return None
    passed = s.passed_wins
    rs = state.variant
    for t in tiles:
        if passed and rs.passed_win_bars(passed, t):
            continue
        info = win_info(state, seat, t, False, **flags)
        if info is not None:
            return t, info
    return None


def _offered(state: State, claim: Claim) -> Claim:
    """``claim`` (a window with no options yet) offered to the other seats in play order from its
    ``from_seat``: each that may win on its tile (or one of its tiles) gets 胡 or 过 (胡 alone where the
    variant forces a win). The windows that offer nothing but a win: the shown haidi tile, a robbed kong,
    the tiles an 开杠 let fall; a discard's window (melds too) is ``_claim_options``'s."""
    flags = _claim_win_flags(claim)
    tiles = claim.tiles or (claim.tile,)
    return _claim_offered(
        claim,
        tuple(
            (seat, _forced((_WINS[seat], _PASSES[seat]), state, seat))
            for seat in _OTHERS[len(state.seats)][claim.from_seat]
            if _win_on(state, seat, tiles, flags) is not None
        ),
    )


_claim_offered = copier(Claim, "options")
