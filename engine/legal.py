"""Who decides what: the seats to act, every legal action of a seat (its turn: discards, kongs, a win; 开杠's
turned-up tiles; opening hands; pre-hand choices; the haidi), and the queries on a hand (waits, shanten).
Part of the hand state machine (engine/game.py); the memos of the drawn tile's shape and a seat's waits are
kept here, beside the turn that reads them."""

from __future__ import annotations

from itertools import combinations, compress

from .actions import Act, Action
from .machine import (
    _CHOOSE,
    _CLAIM,
    _DISCARD,
    _DISCARDS,
    _ENDED,
    _HAIDI,
    _KAI,
    _KONG,
    _M_PUNG,
    _OPENING,
    _PASS,
    _PASSES,
    _TURN,
    _WIN,
    _WINS,
    _forced,
    _live,
    _set_seat,
    win_info,
)
from .melds import Meld, MeldKind
from .state import Seat, State, evolve
from .tiles import NUM_KINDS, Counts
from .variant import Options, Variant, WinInfo


def waits(
    variant: Variant,
    counts: Counts,
    melds: tuple[Meld, ...] = (),
    options: Options | None = None,
    choice: str | None = None,
) -> list[int]:
    """Tiles that would complete this 3k+1 hand in any context (self-draw or discard) — 听牌."""
    return variant.waits(counts, melds, options, choice)


def shanten(
    variant: Variant,
    counts: Counts,
    melds: tuple[Meld, ...] = (),
    options: Options | None = None,
    choice: str | None = None,
) -> int:
    """向听 by the variant's win shapes: 0 exactly when ``waits`` is not empty (a 3k+1 hand)."""
    return variant.shanten(counts, melds, options, choice)


def is_ready(
    variant: Variant,
    counts: Counts,
    melds: tuple[Meld, ...],
    options: Options | None = None,
    choice: str | None = None,
) -> bool:
    return bool(variant.waits(counts, melds, options, choice))


def seat_waits(state: State, seat: int) -> list[int]:
    """听牌 of a seat holding 3k+1 tiles, with its own choice (定缺) taken into account."""
    s = state.seats[seat]
    return state.variant.waits(s.counts, s.melds, state.options, s.choice)


def to_act(state: State) -> tuple[int, ...]:
    """Seats that have a decision to make now."""
    phase = state.phase
    if phase == _TURN:
        return (state.current,)
    if phase == _ENDED:
        return ()
    if phase == _CLAIM:
        claim = state.claim
        assert claim is not None
        if not claim.responses:
            return tuple(s for s, _ in claim.options)
        return tuple(s for s, _ in claim.options if not claim.responded(s))
    if phase == _CHOOSE:
        return tuple(s for s in range(state.num_seats) if _choices(state, s))
    return (state.current,)


def _choices(state: State, seat: int) -> tuple[str, ...]:
    if state.seats[seat].choice is not None:
        return ()
    return state.variant.pre_hand(state, seat)


# One-entry cache (state, seat, actions): apply() re-asks what the caller just asked. Read and replaced as
# one tuple, so threads sharing the module can never see one state's actions for another.
_last: tuple[State | None, int, tuple[Action, ...]] = (None, -1, ())


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """Every action ``seat`` may take now (empty when it has nothing to decide)."""
    global _last
    cached = _last
    if cached[0] is state and cached[1] == seat:
        return cached[2]
    acts = _legal_actions(state, seat)
    _last = (state, seat, acts)
    return acts


def _legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    phase = state.phase
    if phase == _TURN:
        return _turn_actions(state, seat) if seat == state.current else ()
    if phase == _ENDED or not 0 <= seat < len(state.seats):
        return ()
    if phase == _CLAIM:
        claim = state.claim
        assert claim is not None
        return () if claim.responded(seat) else claim.options_for(seat)
    if phase == _CHOOSE:
        return tuple(Action.choose(seat, v) for v in _choices(state, seat))
    if seat != state.current:
        return ()
    if phase == _OPENING:
        rs = state.variant
        kinds = rs.opening_hands(state, seat)
        acts = [
            Action.opening(seat, combo) for r in range(len(kinds), 0, -1) for combo in combinations(kinds, r)
        ]
        if rs.wins_at_deal(state, seat):
            acts.insert(0, Action(seat, _WIN))  # a win on the dealt tiles (四红中)
        return (*acts, Action(seat, _PASS))
    if phase == _HAIDI:
        if state.haidi_taker is None:
            return (Action(seat, Act.TAKE), Action(seat, _PASS))
        return _forced((_WINS[seat], _PASSES[seat]), state, seat)
    return _turn_actions(state, seat)


def _kong_tiles_actions(state: State, seat: int) -> tuple[Action, ...]:
    """Two-tile 开杠: the konger may win on any turned-up tile (杠上开花) or kong with one, else they fall."""
    acts: list[Action] = []
    for t in sorted(set(state.kong_tiles)):
        if _kong_tile_win(state, seat, t) is not None:
            acts.append(Action(seat, _WIN, t))
    if _live(state) > 0:
        for t in sorted(set(state.kong_tiles)):
            acts.extend(_kong_tile_kongs(state, seat, t))
    acts.append(_PASSES[seat])
    return _forced(tuple(acts), state, seat)


def _turn_actions(state: State, seat: int) -> tuple[Action, ...]:
    if state.kong_tiles:
        return _kong_tiles_actions(state, seat)
    s = state.seats[seat]
    rs = state.variant
    acts: list[Action] = []
    win = False
    if state.drawn is not None or state.first_turn:
        known = _drawn_shape
        if known[0] is s and known[1] is rs:
            could = known[2]
        else:
            could = rs.could_win(s.counts, s.melds)
        if could and _self_win(state, seat) is not None:
            acts.append(_WINS[seat])
            win = True
    if s.locked:
        assert state.drawn is not None
        acts.append(Action(seat, _DISCARD, state.drawn))
        if _live(state) > 0:
            acts.extend(_own_kongs(state, seat, only=state.drawn))
        return _forced(tuple(acts), state, seat)
    counts = s.counts
    table = _DISCARDS[seat]
    if rs._restricts_discards:
        acts.extend(table[t] for t in range(NUM_KINDS) if counts[t] and rs.discard_allowed(state, seat, t))
    elif not win and not (4 in counts or s.melds):
        return tuple(compress(table, counts))  # the common turn: a discard of any tile held, nothing else
    else:
        acts.extend(compress(table, counts))
    if (4 in counts or s.melds) and _live(state) > 0:
        acts.extend(_own_kongs(state, seat))
    if rs._forces_wins:
        return _forced(tuple(acts), state, seat)
    return tuple(acts)


def _own_kongs(state: State, seat: int, only: int | None = None) -> list[Action]:
    """Concealed and added kongs ``seat`` may make now (``only``: of that tile)."""
    s = state.seats[seat]
    rs = state.variant
    counts = s.counts
    out: list[Action] = []
    if only is not None or 4 in counts:
        for t in range(NUM_KINDS) if only is None else (only,):
            if counts[t] == 4 and rs.claim_allowed(state, seat, _KONG, t):
                out.extend(_kong_actions(state, seat, t, MeldKind.KONG_CONCEALED))
    for m in s.melds:
        t = m.tile
        if m.kind == _M_PUNG and counts[t] and (only is None or t == only):
            if rs.claim_allowed(state, seat, _KONG, t):
                out.extend(_kong_actions(state, seat, t, MeldKind.KONG_ADDED))
    return out


def _self_win(state: State, seat: int) -> WinInfo | None:
    tile = state.drawn if state.drawn is not None else -1
    return win_info(
        state,
        seat,
        tile,
        True,
        first_turn=state.first_turn and seat == state.dealer,
        kong_draw=state.kong_draw,
        kong_from=state.kong_from,
    )


def _kong_tile_kongs(state: State, seat: int, t: int) -> list[Action]:
    """开杠开出来的牌，自己可以杠 (Xiangyin): a turned-up tile that makes a four with the hand (a concealed
    kong) or with a pung (补杠) may be konged again."""
    s = state.seats[seat]
    has_pung = any(m.kind == _M_PUNG and m.tile == t for m in s.melds)
    if s.counts[t] != 3 and not has_pung:
        return []
    if not state.variant.claim_allowed(state, seat, _KONG, t):
        return []
    c = list(s.counts)
    c[t] += 1
    kind = MeldKind.KONG_CONCEALED if c[t] == 4 else MeldKind.KONG_ADDED
    with_tile = evolve(state, seats=_set_seat(state, seat, counts=tuple(c)))
    return _kong_actions(with_tile, seat, t, kind)


def _kong_tile_win(state: State, seat: int, t: int) -> WinInfo | None:
    c = list(state.seats[seat].counts)
    c[t] += 1
    return win_info(
        state,
        seat,
        t,
        True,
        counts=tuple(c),
        kong_draw=_KAI,
        kong_from=state.kong_from,
        kong_tiles=state.kong_tiles,
    )


def _kong_actions(state: State, seat: int, t: int, kind: MeldKind) -> list[Action]:
    """One action per way the variant lets ``seat`` kong ``t`` (补张 / 开杠, or a plain kong)."""
    return [Action.kong(seat, t, m) for m in state.variant.kong_modes(state, seat, t, kind)]


# Whether the tile a seat just drew completes a shape (could_win), when the waits of its hand before the
# draw were at hand: the turn's actions then skip could_win. One entry, (seat after the draw, variant,
# could win), read and replaced as one tuple like ``_last``.
_drawn_shape: tuple[Seat | None, Variant | None, bool] = (None, None, False)


def _note_draw(rs: Variant, before: Seat, after: Seat, tile: int) -> None:
    global _drawn_shape
    memo = before.waits_memo
    if memo is not None and memo[0] is rs:
        # shape_waits holds exactly the tiles t with could_win(counts + t, melds) (never a fifth copy)
        _drawn_shape = (after, rs, tile in memo[1])


def _waits_of(rs: Variant, s: Seat) -> list[int]:
    """The waits by shape of a seat's hand (default shapes), kept in the seat's memo: a tile can only win
    a hand it is one of, so a claim window runs the variant's evaluation only then."""
    w = rs.shape_waits(s.counts, s.melds)
    object.__setattr__(s, "waits_memo", (rs, w))  # a memo of the frozen Seat's own fields
    return w
