"""The hand state machine: ``apply`` and the transitions — a turn, a discard and the next draw, claims and
their resolution, kongs, the haidi, wins and drawn hands.

Public API (re-exported by engine/__init__.py): ``new_hand``, ``arranged_hand``, ``legal_actions``, ``apply``,
``to_act``, ``waits``, ``shanten``, ``is_ready``, ``win_info``, ``replay``. Draws, automatic discards of a
locked hand and the end of a claim window happen inside ``apply``: the caller only ever answers decisions.

The machine is split by what each part does, each importing only those before it: machine.py (what they all
share), deal.py (the deal and the pre-hand choices), legal.py (who decides what: legal actions, waits),
claims.py (a tile offered to the other seats), kongs.py (a kong made and its replacement), and this module,
whose transitions call one another (a win may play on to the next draw, a draw may end the hand).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .actions import Act, Action, KongMode
from .claims import _claim_candidates, _claim_options, _claim_win_flags, _offered, _win_on
from .deal import _start_play, arranged_hand, new_hand, parse_tiles_ordered
from .errors import IllegalAction
from .events import Event, EventKind
from .kongs import _complete_kong
from .legal import (
    _choices,
    _kong_tile_win,
    _note_draw,
    _self_win,
    is_ready,
    legal_actions,
    seat_waits,
    shanten,
    to_act,
    waits,
)
from .machine import (
    _C_HAIDI,
    _C_KONG,
    _C_ROB,
    _CHOOSE,
    _CHOW,
    _CLAIM,
    _DISCARD,
    _ENDED,
    _EV_DRAW,
    _HAIDI,
    _KAI,
    _KONG,
    _M_PUNG,
    _OPENING,
    _OTHERS,
    _PASS,
    _PUNG,
    _TURN,
    _WIN,
    _ctx,
    _live,
    _next_active,
    _set_seat,
    win_info,
)
from .melds import Meld, MeldKind
from .state import Claim, ClaimKind, HandResult, Outcome, Seat, State, copier, evolve
from .tiles import NUM_KINDS, Counts, tile_str
from .variant import Variant, WinContext, WinInfo
from .wall import Wall

__all__ = [
    "apply",
    "arranged_hand",
    "is_ready",
    "legal_actions",
    "new_hand",
    "parse_tiles_ordered",
    "replay",
    "seat_waits",
    "shanten",
    "to_act",
    "waits",
    "win_info",
]

# The two events of almost every step, made as plain tuples of every field (Event is a NamedTuple): its
# fields after (kind, seat, tile, private) at their defaults, ``auto`` set or not.
assert Event._fields[:4] == ("kind", "seat", "tile", "private")
_tuple_new = tuple.__new__
_EVENT_TAIL = tuple(Event._field_defaults[f] for f in Event._fields[4:])
_EVENT_TAIL_AUTO = {
    a: tuple(a if f == "auto" else Event._field_defaults[f] for f in Event._fields[4:]) for a in (False, True)
}
_EV_DISCARD, _EV_ANSWER, _EV_PASSED_WIN = EventKind.DISCARD, EventKind.ANSWER, EventKind.PASSED_WIN
# a claim's answers by rank: a win beats a kong or pung, which beat a chow
_LEVEL = {Act.WIN: 3, Act.KONG: 2, Act.PUNG: 2, Act.CHOW: 1, Act.PASS: 0}


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Apply one decision; returns the new state and what happened. Raises IllegalAction."""
    legal = legal_actions(state, action.seat)
    for a in legal:
        if a is action:  # the caller passes one of the legal actions itself: no field-by-field compare
            break
    else:
        if action not in legal:
            raise IllegalAction(_why_illegal(state, action, legal))
    events: list[Event] = []
    phase = state.phase
    if phase == _TURN:
        new = _on_turn(state, action, events)
    elif phase == _OPENING:
        new = _on_opening(state, action, events)
    elif phase == _CLAIM:
        new = _on_claim(state, action, events)
    elif phase == _CHOOSE:
        new = _on_choose(state, action, events)
    else:
        new = _on_haidi(state, action, events)
    version = state.version + 1
    if new is state:
        new = evolve(new, version=version)
    else:
        object.__setattr__(new, "version", version)  # `new` was made by this call and is not shared yet
    if new.phase == _TURN and (new.kong_tiles or new.seats[new.current].locked):
        new = _auto(new, events)  # moves nobody decides
    return new, tuple(events)


def _why_illegal(state: State, action: Action, legal: tuple[Action, ...]) -> str:
    if state.phase == _ENDED:
        return "the hand is over"
    if not 0 <= action.seat < state.num_seats:
        return f"there is no seat {action.seat}"
    if not legal:
        if state.phase == _CLAIM and state.claim is not None and state.claim.responded(action.seat):
            return "you have already answered this tile"
        if state.seats[action.seat].won:
            return "you have already won this hand"
        waiting = ", ".join(str(s) for s in to_act(state))
        return f"it is not seat {action.seat}'s turn (waiting for seat {waiting})"
    s = state.seats[action.seat]
    if action.act == _DISCARD and action.tile is not None:
        if s.locked:
            drawn = tile_str(state.drawn or 0)
            return f"the hand is locked after 开杠: you must discard the drawn tile {drawn}"
        if not 0 <= action.tile < NUM_KINDS or not s.counts[action.tile]:
            return f"you do not hold {tile_str(action.tile) if 0 <= action.tile < NUM_KINDS else action.tile}"
        if any(a.act == _DISCARD for a in legal):
            return f"you may not discard {tile_str(action.tile)} now (e.g. the void suit must go first)"
    if action.act == _WIN:
        return "this hand does not win here"
    if any(a.act == _WIN for a in legal) and all(a.act == _WIN for a in legal):
        return "you must take this win (胡牌是强制的)"
    allowed = ", ".join(str(a) for a in legal)
    return f"{action} is not legal now; legal: {allowed}"


def _on_choose(state: State, action: Action, events: list[Event]) -> State:
    state = evolve(state, seats=_set_seat(state, action.seat, choice=action.choice))
    events.append(Event(EventKind.CHOSEN, action.seat))  # the value stays hidden until everyone has chosen
    if any(_choices(state, s) for s in range(state.num_seats)):
        return state
    if state.variant.choices_public(state):
        events.append(Event(EventKind.CHOICES, choices=tuple(s.choice for s in state.seats)))
    state = state.variant.after_choices(state, events)
    if any(_choices(state, s) for s in range(state.num_seats)):
        return state  # a further stage of choices (e.g. 定缺 after 换三张)
    return _start_play(state)


def _on_opening(state: State, action: Action, events: list[Event]) -> State:
    seat = action.seat
    rs = state.variant
    if action.act == _WIN:
        # a win on the dealt tiles (wins_at_deal): a self-draw on no tile, the hand ends
        counts = state.seats[seat].counts
        info = win_info(state, seat, -1, True)
        assert info is not None
        ctx = _ctx(state, seat, counts, -1, True)
        return _wins(evolve(state, opening_queue=()), ((seat, info),), ctx, events)
    if action.act == Act.OPENING:
        kinds = action.opening_hands
        settlement = rs.settle_opening(state, seat, kinds)
        revealed = rs.opening_reveal(state, seat, kinds)
        state = evolve(
            state,
            seats=_set_seat(state, seat, declared=kinds, revealed=revealed),
            settlements=(*state.settlements, settlement),
        )
        state = rs.on_opening(state, seat, kinds)
        events.append(Event(EventKind.OPENING, seat, hands=kinds))
        events.append(Event(EventKind.SETTLE, seat, settlement=settlement))
    else:
        events.append(Event(EventKind.OPENING_PASS, seat))
    queue = state.opening_queue[1:]
    if queue:
        return evolve(state, opening_queue=queue, current=queue[0])
    return evolve(state, opening_queue=(), phase=_TURN, current=state.dealer)


def _on_turn(state: State, action: Action, events: list[Event]) -> State:
    seat = action.seat
    if state.kong_tiles:
        return _on_kong_tiles(state, action, events)
    act = action.act
    if act == _DISCARD:
        assert action.tile is not None
        s = state.seats[seat]
        if s.melds:
            passed = tuple(
                m.tile
                for m in s.melds
                if m.kind == _M_PUNG and s.counts[m.tile] and m.tile not in s.passed_kongs
            )
            if passed:
                state = evolve(state, seats=_set_seat(state, seat, passed_kongs=(*s.passed_kongs, *passed)))
        return _discard(state, seat, action.tile, events, False)
    if act == _WIN:
        info = _self_win(state, seat)
        assert info is not None
        tile = state.drawn if state.drawn is not None else -1
        ctx = _ctx(
            state,
            seat,
            state.seats[seat].counts,
            tile,
            True,
            first_turn=state.first_turn and seat == state.dealer,
            kong_draw=state.kong_draw,
            kong_from=state.kong_from,
        )
        return _wins(state, ((seat, info),), ctx, events)
    if act == _KONG:
        assert action.tile is not None
        t = action.tile
        s = state.seats[seat]
        kind = MeldKind.KONG_CONCEALED if s.counts[t] == 4 else MeldKind.KONG_ADDED
        return _kong_unless_robbed(state, seat, t, kind, action.kong_mode, events)
    raise AssertionError(action)


def _kong_unless_robbed(
    state: State,
    seat: int,
    t: int,
    kind: MeldKind,
    mode: KongMode,
    events: list[Event],
    declared: bool = False,
) -> State:
    """A kong from the hand (all its tiles there): offered first to whoever may rob it (抢杠胡, where the
    variant allows it), else made. ``declared``: its KONG_DECLARED event went out already (a tile a 开杠
    turned up, kept)."""
    if state.variant.robbable(state, kind):
        robbed = _offered(state, Claim(t, seat, _C_ROB, (), kong_mode=mode, kong_kind=int(kind)))
        if robbed.options:
            c = list(state.seats[seat].counts)
            c[t] -= 1  # the robbed tile waits in the claim
            if not declared:
                events.append(Event(EventKind.KONG_DECLARED, seat, t, mode=mode))
            return evolve(
                state,
                seats=_set_seat(state, seat, counts=tuple(c)),
                phase=_CLAIM,
                claim=robbed,
                drawn=None,
            )
    return _complete_kong(state, seat, t, kind, mode, None, events)


def _on_kong_tiles(state: State, action: Action, events: list[Event]) -> State:
    """The konger's answer to the tiles a two-tile 开杠 turned up: win on one, or let them fall."""
    seat = action.seat
    tiles = state.kong_tiles
    if action.act == _WIN:
        assert action.tile is not None
        t = action.tile
        info = _kong_tile_win(state, seat, t)
        assert info is not None
        rest = list(tiles)
        rest.remove(t)
        s = state.seats[seat]
        c = list(s.counts)
        c[t] += 1
        state = evolve(
            state,
            seats=_set_seat(state, seat, counts=tuple(c), discards=(*s.discards, *rest)),
            kong_tiles=(),
            drawn=t,
        )
        ctx = _ctx(
            state,
            seat,
            tuple(c),
            t,
            True,
            kong_draw=_KAI,
            kong_from=state.kong_from,
            kong_tiles=tiles,
        )
        return _wins(state, ((seat, info),), ctx, events)
    pending: tuple[int, MeldKind] | None = None
    if action.act == _KONG:
        # the konger keeps that tile for a new kong; the others fall first (others may only win on them)
        assert action.tile is not None
        t = action.tile
        rest = list(tiles)
        rest.remove(t)
        s = state.seats[seat]
        c = list(s.counts)
        c[t] += 1
        pending = (t, MeldKind.KONG_CONCEALED if c[t] == 4 else MeldKind.KONG_ADDED)
        state = evolve(state, seats=_set_seat(state, seat, counts=tuple(c)))
        events.append(Event(EventKind.KONG_DECLARED, seat, t, mode=_KAI))
        if not rest:
            return _kong_unless_robbed(evolve(state, kong_tiles=()), seat, t, pending[1], _KAI, events, True)
        tiles = tuple(rest)
    s = state.seats[seat]
    # the fallen tiles are the konger's discard: the dealer's first one (地胡), his own kong before it or not
    first_discard = seat == state.dealer and state.discards_made == 0
    state = evolve(
        state,
        seats=_set_seat(state, seat, discards=(*s.discards, *tiles)),
        kong_tiles=(),
        drawn=None,
        kong_draw=None,
        last_discard=(seat, tiles[-1]),
        discards_made=state.discards_made + 1,
    )
    events.append(Event(EventKind.KONG_TILES_FALL, seat, tiles=tiles))
    claim = Claim(
        tiles[0],
        seat,
        _C_KONG,
        (),
        kong_discard=True,
        first_discard=first_discard,
        after_kong=_KAI,
        tiles=tiles,
        kong_kind=int(pending[1]) if pending else 0,
        kept=pending[0] if pending else -1,
    )
    claim = _offered(state, claim)
    if not claim.options:
        if pending is not None:
            return _kong_unless_robbed(state, seat, pending[0], pending[1], _KAI, events, True)
        return _draw_next(state, _next_active(state, state.next_seat(seat)), events)
    return evolve(state, phase=_CLAIM, claim=claim)


def _discard(state: State, seat: int, t: int, events: list[Event], auto: bool) -> State:
    s = state.seats[seat]
    c = list(s.counts)
    c[t] -= 1
    # 地胡: "当庄家打出第一张牌时" — the dealer's first discard (his own kongs before it don't matter)
    first_discard = seat == state.dealer and state.discards_made == 0
    after_kong = state.kong_draw
    kong_discard = after_kong == _KAI
    rs = state.variant
    candidates = None
    if not rs._discard_hook:
        # who might claim depends on the other seats only: decided before the discard is made
        candidates = _claim_candidates(state, seat, t)
        if not candidates and _live(state) > 1:
            return _discard_and_draw(state, seat, t, tuple(c), events, auto)
    seats = list(state.seats)
    seats[seat] = _seat_discarded(s, tuple(c), (*s.discards, t))
    state = _state_discarded(state, tuple(seats), state.discards_made + 1, (seat, t), None, None, None, False)
    state = rs.on_discard(state, seat, t)
    events.append(_tuple_new(Event, (_EV_DISCARD, seat, t, False, *_EVENT_TAIL_AUTO[auto])))
    if candidates is None:
        candidates = _claim_candidates(state, seat, t)
    options = _claim_options(state, seat, t, first_discard, kong_discard, after_kong, candidates)
    if not options:
        return _draw_next(state, _next_active(state, state.next_seat(seat)), events)
    claim = _discard_claim(_DISCARD_CLAIM, t, seat, options, kong_discard, first_discard, after_kong)
    return _state_claimed(state, _CLAIM, claim)


def _discard_and_draw(
    state: State, seat: int, t: int, counts: Counts, events: list[Event], auto: bool
) -> State:
    """A discard nobody can claim, and the next seat's draw from the front (not the last live tile: haidi
    is _draw_next's), as one new State: what ``_discard`` then ``_draw_next`` make, without the state
    between them (no variant hook would see it)."""
    s = state.seats[seat]
    seats = list(state.seats)
    seats[seat] = _seat_discarded(s, counts, (*s.discards, t))
    nxt = (seat + 1) % len(seats)
    if seats[nxt].won:
        nxt = _next_active(state, nxt)
    tile, wall = state.wall.draw_front()
    d = seats[nxt]
    c = list(d.counts)
    c[tile] += 1
    seats[nxt] = drew = _seat_drawn(d, tuple(c), ())
    _note_draw(state.variant, d, drew, tile)
    events.append(_tuple_new(Event, (_EV_DISCARD, seat, t, False, *_EVENT_TAIL_AUTO[auto])))
    events.append(_tuple_new(Event, (_EV_DRAW, nxt, tile, True, *_EVENT_TAIL)))
    # what _drew sets, and the discard's count and place
    return _state_discarded_drawn(
        state,
        tuple(seats),
        wall,
        _TURN,
        nxt,
        tile,
        None,
        None,
        False,
        None,
        state.discards_made + 1,
        (seat, t),
    )


def _drew(state: State, seat: int, tile: int, seats: tuple[Seat, ...], wall: Wall) -> State:
    """``seat``'s turn with ``tile`` just drawn from the front (``seats`` and ``wall`` after the draw)."""
    return _state_drawn(state, seats, wall, _TURN, seat, tile, None, None, False, None)


# The copies every step makes, as positional copiers (engine/state.py's ``copier``): the changed fields
_seat_discarded = copier(Seat, "counts", "discards")
_seat_drawn = copier(Seat, "counts", "passed_wins")
_state_discarded = copier(
    State, "seats", "discards_made", "last_discard", "drawn", "kong_draw", "kong_from", "first_turn"
)
_DRAWN = ("seats", "wall", "phase", "current", "drawn", "kong_draw", "kong_from", "first_turn", "claim")
_state_drawn = copier(State, *_DRAWN)
_state_discarded_drawn = copier(State, *_DRAWN, "discards_made", "last_discard")
_state_claimed = copier(State, "phase", "claim")
_DISCARD_CLAIM = Claim(-1, -1, ClaimKind.DISCARD, ())
_discard_claim = copier(Claim, "tile", "from_seat", "options", "kong_discard", "first_discard", "after_kong")


def _draw_next(state: State, seat: int, events: list[Event]) -> State:
    """``seat`` draws from the front (an open claim window, if any, is closed)."""
    live = _live(state)
    if live <= 0:
        return _drawn_hand(evolve(state, claim=None) if state.claim is not None else state, events)
    if live == 1:
        order = state.variant.haidi_seats(state, seat)
        if order is not None:
            state = evolve(state, claim=None, drawn=None)
            return _offer_haidi(state, order, events)
    tile, wall = state.wall.draw_front()
    seats = list(state.seats)
    s = seats[seat]
    c = list(s.counts)
    c[tile] += 1
    seats[seat] = drew = _seat_drawn(s, tuple(c), ())
    _note_draw(state.variant, s, drew, tile)
    events.append(_tuple_new(Event, (_EV_DRAW, seat, tile, True, *_EVENT_TAIL)))
    return _drew(state, seat, tile, tuple(seats), wall)


def _offer_haidi(state: State, order: tuple[int, ...], events: list[Event]) -> State:
    """海底漫游: offer the last tile to the first of ``order``; once every seat refused, the hand is drawn."""
    if not order:
        return _drawn_hand(state, events)
    seat = order[0]
    events.append(Event(EventKind.HAIDI_OFFER, seat))
    return evolve(
        state,
        phase=_HAIDI,
        current=seat,
        haidi_first=seat if state.haidi_first is None else state.haidi_first,
        haidi_queue=order[1:],
    )


def _on_haidi(state: State, action: Action, events: list[Event]) -> State:
    seat = action.seat
    if state.haidi_taker is None:
        if action.act == _PASS:
            events.append(Event(EventKind.HAIDI_REFUSE, seat))
            return _offer_haidi(state, state.haidi_queue, events)
        tile, wall = state.wall.draw_front()
        s = state.seats[seat]
        c = list(s.counts)
        c[tile] += 1
        state = evolve(
            state,
            wall=wall,
            seats=_set_seat(state, seat, counts=tuple(c), passed_wins=()),
            haidi_taker=seat,
            haidi_queue=(),
            drawn=tile,
            kong_draw=None,
            kong_from=None,
            first_turn=False,
        )
        events.append(Event(EventKind.HAIDI_TAKE, seat, tile))
        if win_info(state, seat, tile, True, haidi=True) is not None:
            return state
        return _show_haidi(state, events)
    shown = state.drawn
    assert shown is not None
    if action.act == _WIN:
        s = state.seats[seat]
        info = win_info(state, seat, shown, True, haidi=True)
        assert info is not None
        ctx = _ctx(state, seat, s.counts, shown, True, haidi=True)
        return _wins(state, ((seat, info),), ctx, events)
    return _show_haidi(state, events)


def _show_haidi(state: State, events: list[Event]) -> State:
    """The taker cannot (or will not) win: the tile is shown and any other seat may win on it (海底炮)."""
    taker = state.haidi_taker
    tile = state.drawn
    assert taker is not None and tile is not None
    events.append(Event(EventKind.HAIDI_SHOW, taker, tile))
    claim = _offered(state, Claim(tile, taker, _C_HAIDI, ()))
    if not claim.options:
        return _drawn_hand(state, events)
    return evolve(state, phase=_CLAIM, claim=claim)


def _on_claim(state: State, action: Action, events: list[Event]) -> State:
    claim = state.claim
    assert claim is not None
    seat = action.seat
    offered = claim.options_for(seat)
    # a win, when offered, is the first option (and where a win is forced, the only one)
    if offered[0].act == _WIN and action.act != _WIN:
        passed = state.seats[seat].passed_wins
        new = tuple(t for t in claim.tiles or (claim.tile,) if t not in passed)
        state = evolve(state, seats=_set_seat(state, seat, passed_wins=(*passed, *dict.fromkeys(new))))
        events.append(Event(_EV_PASSED_WIN, seat, claim.tile, private=True))
    claim = _claim_answered(claim, (*claim.responses, (seat, action)))
    # private: that a seat could claim at all would tell the others what it holds
    events.append(_tuple_new(Event, (_EV_ANSWER, seat, None, True, *_ANSWER_TAIL[action.act])))
    return _resolve_claim(state, claim, events)


_claim_answered = copier(Claim, "responses")
_state_claim = copier(State, "claim")
# an ANSWER event's fields after (kind, seat, tile, private), by the answer
_ANSWER_TAIL = {
    a: tuple(a if f == "answer" else Event._field_defaults[f] for f in Event._fields[4:]) for a in Act
}


def _resolve_claim(state: State, claim: Claim, events: list[Event]) -> State:
    """Close ``state``'s claim window, now ``claim`` (with the latest answer), unless a pending answer
    could still change the outcome. Where play goes on from a draw or a pung or chow, the window is
    closed by that step's State: no State with the answered window is made for nothing."""
    resp = dict(claim.responses)
    level = _LEVEL
    best = max([level[a.act] for a in resp.values()], default=0)
    for seat, acts in claim.options:
        if seat in resp:
            continue
        if max([level[a.act] for a in acts]) >= max(best, 1):
            return _state_claim(state, claim)  # a pending answer could still change the outcome
    order = _OTHERS[len(state.seats)][claim.from_seat]
    winners = [s for s in order if s in resp and resp[s].act == _WIN]
    if winners:
        return _claim_wins(_state_claim(state, claim), claim, winners, events)
    if claim.kind != ClaimKind.DISCARD:
        closed = _close_without_win(state, claim, events)
        if closed is not None:
            return closed
    # 碰/杠 beat 吃 (docs/rules/common.md §3.1); only one seat can pung or kong a given tile
    taker = None
    top = 0
    for other in order:
        a = resp.get(other)
        if a is not None and level[a.act] > top:  # the first in play order of the highest claim
            taker, top = other, level[a.act]
    if taker is None:
        # nobody claimed: the window closes with the next draw (``_draw_next`` clears the claim)
        return _draw_next(state, _next_active(state, state.next_seat(claim.from_seat)), events)
    return _take_discard(state, claim, taker, resp[taker], events)


def _close_without_win(state: State, claim: Claim, events: list[Event]) -> State | None:
    """A window on something else than a discard closed with nobody winning: the robbed kong is made, the
    hand drawn after the shown last tile (海底), or the konger's 开杠 kong goes on with the tile he kept
    (None: none of these, the window closes as a discard's)."""
    if claim.kind == _C_ROB:
        events.append(Event(EventKind.ROB_PASSED, claim.from_seat, claim.tile))
        return _complete_kong(
            evolve(state, claim=None),
            claim.from_seat,
            claim.tile,
            MeldKind(claim.kong_kind),
            claim.kong_mode,
            None,
            events,
            removed=1,
        )
    if claim.kind == _C_HAIDI:
        return _drawn_hand(_state_claim(state, claim), events)
    if claim.kind == _C_KONG and claim.kept >= 0:
        # nobody won on the fallen 开杠 tiles: the konger's new kong with the tile he kept goes on (a 补杠
        # may be robbed first, as any)
        kind = MeldKind(claim.kong_kind)
        state = evolve(state, claim=None)
        return _kong_unless_robbed(state, claim.from_seat, claim.kept, kind, _KAI, events, True)
    return None


def _take_discard(state: State, claim: Claim, taker: int, action: Action, events: list[Event]) -> State:
    """``taker`` takes the discard with ``action``: a kong, a pung or a chow; his turn follows."""
    t = claim.tile
    src = state.seats[claim.from_seat]
    assert src.discards and src.discards[-1] == t
    seats = list(state.seats)
    seats[claim.from_seat] = _seat_claimed_from(src, src.discards[:-1])
    if action.act == _KONG:
        state = evolve(
            state, seats=tuple(seats), claim=None, claims_made=state.claims_made + 1, first_turn=False
        )
        mode = action.kong_mode
        return _complete_kong(state, taker, t, MeldKind.KONG_EXPOSED, mode, claim.from_seat, events)
    s = seats[taker]
    c = list(s.counts)
    if action.act == _PUNG:
        c[t] -= 2
        meld = Meld(_M_PUNG, t, claim.from_seat)
    else:
        assert action.tile is not None
        for x in (action.tile, action.tile + 1, action.tile + 2):
            if x != t:
                c[x] -= 1
        meld = Meld(MeldKind.CHOW, action.tile, claim.from_seat)
    kind = EventKind.PUNG if action.act == _PUNG else EventKind.CHOW
    events.append(Event(kind, taker, t, meld=meld))
    # 漏胡 ends with the seat's own draw, pung or kong (docs/rules/common.md §3)
    seats[taker] = _seat_melded(s, tuple(c), (*s.melds, meld), s.passed_wins if action.act == _CHOW else ())
    return _state_melded(
        state, tuple(seats), None, state.claims_made + 1, False, _TURN, taker, None, None, None
    )


_seat_claimed_from = copier(Seat, "discards")
_seat_melded = copier(Seat, "counts", "melds", "passed_wins")
_state_melded = copier(
    State,
    "seats",
    "claim",
    "claims_made",
    "first_turn",
    "phase",
    "current",
    "drawn",
    "kong_draw",
    "kong_from",
)


def _claim_wins(state: State, claim: Claim, winners: list[int], events: list[Event]) -> State:
    if not state.variant.multi_win:
        winners = winners[:1]
    flags = _claim_win_flags(claim)
    tiles = claim.tiles or (claim.tile,)
    infos = []
    tile_of: dict[int, int] = {}
    for w in winners:
        won = _best_win(state, w, tiles, flags)
        assert won is not None
        tile_of[w], info = won
        infos.append((w, info))
    if claim.kind == _C_ROB:
        # the robbed tile goes to the konger's river; the konger keeps his pung (or three concealed)
        src = state.seats[claim.from_seat]
        state = evolve(state, seats=_set_seat(state, claim.from_seat, discards=(*src.discards, claim.tile)))
    w0 = winners[0]
    c = list(state.seats[w0].counts)
    c[tile_of[w0]] += 1
    ctx = _ctx(state, w0, tuple(c), tile_of[w0], False, **flags)
    return _wins(state, tuple(infos), ctx, events, tile_of)


def _best_win(
    state: State, seat: int, tiles: tuple[int, ...], flags: Mapping[str, Any]
) -> tuple[int, WinInfo] | None:
    """The tile ``seat`` wins on, of a window's ``tiles``, and the win: of two tiles an 开杠 let fall that
    both win his hand, the one that pays him more (the first on a tie), as a player chooses it."""
    if len(tiles) < 2:
        return _win_on(state, seat, tiles, flags)
    wins = [won for t in tiles if (won := _win_on(state, seat, (t,), flags)) is not None]
    if len(wins) < 2:
        return wins[0] if wins else None

    def paid(won: tuple[int, WinInfo]) -> int:
        t, info = won
        c = list(state.seats[seat].counts)
        c[t] += 1
        ctx = _ctx(state, seat, tuple(c), t, False, **flags)
        return state.variant.settle_wins(state, ((seat, info),), ctx).deltas[seat]

    return max(wins, key=paid)


def _auto(state: State, events: list[Event]) -> State:
    """Moves nobody decides: a locked hand (开杠) discards every tile that does not win, and turned-up
    开杠 tiles the konger can neither win on nor kong fall at once."""
    while state.phase == _TURN:
        seat = state.current
        if state.kong_tiles:
            if any(a.act != _PASS for a in legal_actions(state, seat)):
                break  # a win or a kong on a turned-up tile: the konger decides
            state = _on_kong_tiles(state, Action(seat, _PASS), events)
            continue
        s = state.seats[seat]
        if not s.locked or state.drawn is None:
            break
        if any(a.act != _DISCARD for a in legal_actions(state, seat)):
            break
        state = _discard(state, seat, state.drawn, events, auto=True)
    return state


def _wins(
    state: State,
    infos: tuple[tuple[int, WinInfo], ...],
    ctx: WinContext,
    events: list[Event],
    tile_of: Mapping[int, int] | None = None,
) -> State:
    """Settle the win(s); the hand ends, or plays on where the variant says so (血战). ``tile_of``: each
    winner's tile where they differ (the two tiles an 开杠 let fall), else ``ctx.tile`` for all."""
    rs = state.variant
    tile = ctx.tile if ctx.tile >= 0 else None
    tile_of = tile_of or {}
    settlement = rs.settle_wins(state, infos, ctx)
    paid_for = dict(settlement.hands)  # what each win is paid as (the variant may add 海底, 天胡 …)
    for w, info in infos:
        names = paid_for.get(w) or tuple(n for n, _ in info.big) or info.small
        events.append(Event(EventKind.WIN, w, tile_of.get(w, tile), hands=names))
    winners = tuple(w for w, _ in infos)
    state = evolve(
        state,
        settlements=(*state.settlements, settlement),
        winners=(*state.winners, *winners),
        win_tiles=(*state.win_tiles, *(tile_of.get(w, ctx.tile) for w in winners)),
    )
    events.append(Event(EventKind.SETTLE, settlement=settlement))
    state, play_on = rs.after_win(state, winners, ctx, events)
    if play_on:
        # play goes on from the seat after the (last) winner
        state = evolve(state, claim=None, kong_tiles=())
        events.append(Event(EventKind.CONTINUE, wins=len(state.winners)))
        return _draw_next(state, _next_active(state, state.next_seat(winners[-1])), events)
    return _finish(state, Outcome.WIN, rs.next_dealer(state, ctx), events, ctx)


def _drawn_hand(state: State, events: list[Event]) -> State:
    """荒庄 (or, in 血战, the wall ran out after some wins): the variant may settle it (查叫)."""
    rs = state.variant
    settlement = rs.settle_draw(state)
    if settlement is not None:
        state = evolve(state, settlements=(*state.settlements, settlement))
        events.append(Event(EventKind.SETTLE, settlement=settlement))
    outcome = Outcome.WIN if state.winners else Outcome.DRAW
    return _finish(state, outcome, rs.next_dealer(state, None), events, None)


def _finish(state: State, reason: Outcome, nxt: int, events: list[Event], ctx: WinContext | None) -> State:
    totals = [0] * state.num_seats
    for st in state.settlements:
        for i, d in enumerate(st.deltas):
            totals[i] += d
    result = HandResult(reason, state.winners, tuple(totals), nxt, state.variant.dealer_note(state, ctx, nxt))
    events.append(Event(EventKind.END, result=result))
    return evolve(state, phase=_ENDED, result=result)


def replay(
    variant: Variant,
    seed: int,
    actions: Iterable[Action],
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
    seats: int | None = None,
) -> State:
    """Rebuild a hand from (variant, options, seed, actions): the action log is the source of truth."""
    state = new_hand(variant, seed, options, dealer, seats)
    for a in actions:
        state, _ = apply(state, a)
    return state
