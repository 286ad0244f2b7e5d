"""The hand state machine: deal, draw, discard, claims, kongs, haidi, wins and drawn hands.

Public API: ``new_hand``, ``legal_actions``, ``apply``, ``to_act``, ``waits``, ``is_ready``.
Draws, automatic discards of a locked hand and the end of a claim window happen inside ``apply``: the
caller only ever answers decisions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from itertools import combinations, compress
from typing import Any

from .actions import Act, Action, KongMode
from .errors import IllegalAction
from .events import Event, EventKind
from .melds import Meld, MeldKind
from .state import (
    Claim,
    ClaimKind,
    HandResult,
    Outcome,
    Phase,
    Seat,
    State,
    copier,
    evolve,
    evolve_seat,
)
from .tiles import NUM_KINDS, SUITED_KINDS, Counts, parse_tiles, tile_str, to_counts
from .variant import KONG_TILES_FROM_HAND, Options, Variant, WinContext, WinInfo
from .wall import Wall

# The two events of almost every step, made as plain tuples of every field (Event is a NamedTuple): its
# fields after (kind, seat, tile, private) at their defaults, ``auto`` set or not.
assert Event._fields[:4] == ("kind", "seat", "tile", "private")
_tuple_new = tuple.__new__
_EVENT_TAIL = tuple(Event._field_defaults[f] for f in Event._fields[4:])
_EVENT_TAIL_AUTO = {
    a: tuple(a if f == "auto" else Event._field_defaults[f] for f in Event._fields[4:]) for a in (False, True)
}

# Actions are immutable values: the common ones are made once and shared.
_DISCARDS = tuple(tuple(Action(s, Act.DISCARD, t) for t in range(NUM_KINDS)) for s in range(4))
_WINS = tuple(Action(s, Act.WIN) for s in range(4))
_PASSES = tuple(Action(s, Act.PASS) for s in range(4))
_PUNGS = tuple(Action(s, Act.PUNG) for s in range(4))
_CHOWS = tuple(tuple(Action(s, Act.CHOW, t) for t in range(NUM_KINDS)) for s in range(4))
_LEVEL = {Act.WIN: 3, Act.KONG: 2, Act.PUNG: 2, Act.CHOW: 1, Act.PASS: 0}

# Enum members as module constants: on Python 3.11 reading ``Phase.TURN`` goes through EnumType.__getattr__
# (0.1–0.2 µs a read, several times a plain global's), and every step reads a dozen or more of them.
_ENDED, _CLAIM, _CHOOSE, _OPENING, _HAIDI, _TURN = (
    Phase.ENDED,
    Phase.CLAIM,
    Phase.CHOOSE,
    Phase.OPENING,
    Phase.HAIDI,
    Phase.TURN,
)
_WIN, _PASS, _DISCARD, _PUNG, _CHOW, _KONG = Act.WIN, Act.PASS, Act.DISCARD, Act.PUNG, Act.CHOW, Act.KONG
_KAI = KongMode.KAI
_EV_DRAW, _EV_DISCARD, _EV_ANSWER, _EV_FURITEN = (
    EventKind.DRAW,
    EventKind.DISCARD,
    EventKind.ANSWER,
    EventKind.PASSED_WIN,
)
_M_PUNG = MeldKind.PUNG
_C_DISCARD, _C_ROB, _C_HAIDI, _C_KONG = ClaimKind.DISCARD, ClaimKind.ROB, ClaimKind.HAIDI, ClaimKind.KONG


# ------------------------------------------------------------------ setup


def new_hand(
    variant: Variant,
    seed: int,
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
    seats: int | None = None,
) -> State:
    """Deal a hand. Everything random comes from ``seed``: the wall, the first dealer and every dice roll."""
    n = seats if seats is not None else max(variant.seat_counts)
    if n not in variant.seat_counts:
        raise IllegalAction(f"{variant.id} is played by {variant.seat_counts} players, not {n}")
    opts = options if isinstance(options, Options) else variant.make_options(options)
    rng = random.Random(f"{variant.id}/{seed}")
    if dealer is None:
        # the first dealer is drawn from the same stream before the shuffle: storage replays such a
        # hand with dealer=None (a given dealer deals another wall from the same seed)
        dealer = rng.randrange(n)
    elif not 0 <= dealer < n:
        raise IllegalAction(f"dealer {dealer} is not a seat of a {n}-player table")
    return _deal(variant, opts, seed, dealer, n, Wall.shuffled(rng, variant.tile_set(n, opts)))


def arranged_hand(
    variant: Variant,
    hands: list[str],
    draws: str = "",
    back: str = "",
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> State:
    """A hand with a chosen deal, for tests and puzzles: ``hands`` in seat order (the dealer's with 14
    tiles), ``draws`` the next tiles from the front of the wall, ``back`` the next kong replacements.
    The rest of the set fills the middle of the wall in a fixed order."""
    n = len(hands)
    if n not in variant.seat_counts:
        raise IllegalAction(f"{variant.id} is played by {variant.seat_counts} players, not {n}")
    opts = options if isinstance(options, Options) else variant.make_options(options)
    parsed = [parse_tiles(h) for h in hands]
    for i, h in enumerate(parsed):
        want = 14 if i == dealer else 13
        if len(h) != want:
            raise IllegalAction(f"seat {i} needs {want} tiles, got {len(h)}")
    front, rear = parse_tiles_ordered(draws), parse_tiles_ordered(back)
    pool = list(variant.tile_set(n, opts))
    for t in [x for h in parsed for x in h] + front + rear:
        try:
            pool.remove(t)
        except ValueError:
            raise IllegalAction(f"too many copies of {tile_str(t)} in the arrangement") from None
    order: list[int] = []
    for i in range(n):
        order.extend(parsed[(dealer + i) % n][:13])
    order.append(parsed[dealer][13])
    wall_len = len(pool) + len(front) + len(rear)
    wall: list[int | None] = [None] * wall_len
    for i, t in enumerate(front):
        wall[i] = t
    # stacks are counted over the whole set, dealt tiles included (53 of them: an odd number)
    dealt = len(order)
    total = dealt + wall_len
    back_pos = [p - dealt for k in range(total // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1) if p >= dealt]
    for p, t in zip(back_pos, rear, strict=False):
        if wall[p] is not None:
            raise IllegalAction("draws and back replacements overlap")
        wall[p] = t
    it = iter(pool)
    tiles = order + [t if t is not None else next(it) for t in wall]
    return _deal(variant, opts, seed, dealer, n, Wall(tuple(tiles)))


def parse_tiles_ordered(text: str) -> list[int]:
    """Like parse_tiles but keeps the written order: ``5m1s5m`` → 5m, 1s, 5m (``315m`` → 3m, 1m, 5m)."""
    out: list[int] = []
    digits = ""
    for ch in text.replace(" ", "").replace(",", ""):
        if "0" <= ch <= "9":
            digits += ch
            continue
        out.extend(parse_tiles(d + ch)[0] for d in digits)
        if not digits:
            parse_tiles(ch)  # raises InvalidNotation with the reason
        digits = ""
    if digits:
        parse_tiles(digits)  # raises InvalidNotation
    return out


def _deal(variant: Variant, opts: Options, seed: int, dealer: int, n: int, wall: Wall) -> State:
    hands: list[list[int]] = [[] for _ in range(n)]
    dealt = 13 * n + 1
    if wall.taken == 0 and wall.remaining >= dealt:
        # a fresh wall is drawn from the front in order: 13 tiles to each seat from the dealer, then one
        tiles = wall.tiles
        for i in range(n):
            hands[(dealer + i) % n] = list(tiles[13 * i : 13 * i + 13])
        last = tiles[dealt - 1]
        wall = Wall(tiles, (1 << dealt) - 1, wall.remaining - dealt)
    else:
        for i in range(n):
            s = (dealer + i) % n
            for _ in range(13):
                t, wall = wall.draw_front()
                hands[s].append(t)
        last, wall = wall.draw_front()
    hands[dealer].append(last)
    state = State(
        variant=variant,
        options=opts,
        seed=seed,
        dealer=dealer,
        wall=wall,
        seats=tuple(Seat(to_counts(h)) for h in hands),
        phase=_TURN,
        current=dealer,
        drawn=last,
        wall_reserve=variant.wall_reserve(opts),
    )
    if any(variant.pre_hand(state, s) for s in range(n)):
        return evolve(state, phase=_CHOOSE)
    return _start_play(state)


def _start_play(state: State) -> State:
    """After the deal (and the pre-hand choices): opening hands in play order, then the dealer's turn."""
    rs = state.variant
    queue = tuple(
        s for s in state.play_order(state.dealer) if rs.opening_hands(state, s) or rs.wins_at_deal(state, s)
    )
    if queue:
        return evolve(state, phase=_OPENING, current=queue[0], opening_queue=queue)
    return evolve(state, phase=_TURN, current=state.dealer)


# ------------------------------------------------------------------ queries


def _ctx(state: State, seat: int, counts: Counts, tile: int, self_draw: bool, **flags: Any) -> WinContext:
    s = state.seats[seat]
    return WinContext(
        seat=seat,
        dealer=state.dealer,
        counts=counts,
        melds=s.melds,
        tile=tile,
        self_draw=self_draw,
        options=state.options,
        choice=s.choice,
        **flags,
    )


def win_info(
    state: State, seat: int, tile: int, self_draw: bool, counts: Counts | None = None, **flags: Any
) -> WinInfo | None:
    """Would ``seat`` win with ``tile`` in this context? For a self-draw the tile is already in hand
    (unless ``counts`` says otherwise); for anything else it is added here."""
    s = state.seats[seat]
    if counts is None:
        counts = s.counts
        if not self_draw:
            c = list(counts)
            c[tile] += 1
            counts = tuple(c)
    if not state.variant.could_win(counts, s.melds):
        return None
    return state.variant.evaluate_win(_ctx(state, seat, counts, tile, self_draw, **flags))


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


def _forced(acts: tuple[Action, ...], state: State, seat: int) -> tuple[Action, ...]:
    """Where the variant forces a win (Sichuan's last four tiles), a possible win is the only choice."""
    rs = state.variant
    if rs._forces_wins and any(a.act == _WIN for a in acts) and rs.must_win(state, seat):
        return tuple(a for a in acts if a.act == _WIN)
    return acts


def _live(state: State) -> int:
    """Wall tiles still in play: the wall less what the variant keeps back at its end (birds)."""
    return state.wall.remaining - state.wall_reserve


def _turn_actions(state: State, seat: int) -> tuple[Action, ...]:
    s = state.seats[seat]
    rs = state.variant
    acts: list[Action] = []
    win = False
    if state.kong_tiles:
        # two-tile 开杠: the konger may win on any turned-up tile (杠上开花), else they fall
        for t in sorted(set(state.kong_tiles)):
            if _kong_tile_win(state, seat, t) is not None:
                acts.append(Action(seat, _WIN, t))
        if _live(state) > 0:
            for t in sorted(set(state.kong_tiles)):
                acts.extend(_kong_tile_kongs(state, seat, t))
        acts.append(_PASSES[seat])
        return _forced(tuple(acts), state, seat)
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


def _kong_counts(counts: Counts, t: int, kind: MeldKind, removed: int = 0) -> Counts:
    c = list(counts)
    c[t] -= KONG_TILES_FROM_HAND[kind] - removed
    return tuple(c)


def _kong_melds(melds: tuple[Meld, ...], t: int, kind: MeldKind, from_seat: int | None) -> tuple[Meld, ...]:
    if kind == MeldKind.KONG_ADDED:
        return tuple(
            Meld(MeldKind.KONG_ADDED, t, m.from_seat) if m.kind == _M_PUNG and m.tile == t else m
            for m in melds
        )
    return (*melds, Meld(kind, t, from_seat))


def _kong_actions(state: State, seat: int, t: int, kind: MeldKind) -> list[Action]:
    """One action per way the variant lets ``seat`` kong ``t`` (补张 / 开杠, or a plain kong)."""
    return [Action.kong(seat, t, m) for m in state.variant.kong_modes(state, seat, t, kind)]


# ------------------------------------------------------------------ apply


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


def _set_seat(state: State, seat: int, **changes: Any) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[seat] = evolve_seat(seats[seat], **changes)
    return tuple(seats)


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
        mode = action.kong_mode
        if state.variant.robbable(state, kind):
            robbed = _offered(state, Claim(t, seat, _C_ROB, (), kong_mode=mode, kong_kind=int(kind)))
            if robbed.options:
                c = list(s.counts)
                c[t] -= 1  # the robbed tile waits in the claim
                events.append(Event(EventKind.KONG_DECLARED, seat, t, mode=mode))
                return evolve(
                    state,
                    seats=_set_seat(state, seat, counts=tuple(c)),
                    phase=_CLAIM,
                    claim=robbed,
                    drawn=None,
                )
        return _complete_kong(state, seat, t, kind, mode, None, events)
    raise AssertionError(action)


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
            return _complete_kong(evolve(state, kong_tiles=()), seat, t, pending[1], _KAI, None, events)
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
            return _complete_kong(state, seat, pending[0], pending[1], _KAI, None, events)
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


def _next_active(state: State, seat: int) -> int:
    """``seat`` or the first seat after it (in play order) that has not won (血战)."""
    seats = state.seats
    if not seats[seat].won:
        return seat
    n = len(seats)
    for i in range(1, n):
        s = (seat + i) % n
        if not seats[s].won:
            return s
    return seat


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


# the other seats of a table of n, in play order after each seat
_OTHERS = {n: tuple(tuple((f + i) % n for i in range(1, n)) for f in range(n)) for n in (2, 3, 4)}


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


def _complete_kong(
    state: State,
    seat: int,
    t: int,
    kind: MeldKind,
    mode: KongMode,
    from_seat: int | None,
    events: list[Event],
    removed: int = 0,
) -> State:
    """Meld the kong (``removed`` tiles already left the hand), settle kong payments, then the
    replacement: from the back (补张 / plain kong), or by dice for 开杠 (one tile or a whole stack)."""
    s = state.seats[seat]
    counts = _kong_counts(s.counts, t, kind, removed)
    melds = _kong_melds(s.melds, t, kind, from_seat)
    state = evolve(
        state,
        seats=_set_seat(state, seat, counts=counts, melds=melds, passed_wins=()),
        claims_made=state.claims_made + 1,
        first_turn=False,
        claim=None,
    )
    # a concealed kong's tile is hidden from the others (observe() hides the meld too), unless the
    # variant shows one tile of it (暗杠亮一张牌)
    rs = state.variant
    hidden = kind == MeldKind.KONG_CONCEALED and not rs.concealed_kong_shown
    events.append(Event(EventKind.KONG, seat, t, private=hidden, meld=melds_made(melds, t), mode=mode))
    settlement = rs.settle_kong(state, seat, t, kind, from_seat)
    if settlement is not None:
        state = evolve(state, settlements=(*state.settlements, settlement))
        events.append(Event(EventKind.SETTLE, seat, settlement=settlement))
    last_tile = _live(state) == 1
    haidi_rep = seat if last_tile else state.haidi_as_replacement
    if mode == _KAI:
        n = state.dice_rolls
        rng = random.Random(f"{rs.id}/{state.seed}/dice/{n}")
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        events.append(Event(EventKind.DICE, seat, dice=(d1, d2)))
        state = evolve(state, dice_rolls=n + 1)
        if rs.kai_tiles == 2:
            tiles, wall = state.wall.draw_dice_stack(d1 + d2)
            events.append(Event(EventKind.KONG_TILES, seat, tiles=tiles))
            return evolve(
                state,
                wall=wall,
                seats=_set_seat(state, seat, locked=True),
                phase=_TURN,
                current=seat,
                drawn=None,
                kong_draw=_KAI,
                kong_from=from_seat,
                kong_tiles=tiles,
                haidi_as_replacement=haidi_rep,
            )
        tile, wall = state.wall.draw_dice(d1 + d2)
    else:
        tile, wall = state.wall.draw_back()
    c = list(state.seats[seat].counts)
    c[tile] += 1
    locked = mode == _KAI or state.seats[seat].locked
    draw_mode = _KAI if mode == _KAI else KongMode.BU
    events.append(Event(_EV_DRAW, seat, tile, private=True, kong=True, mode=draw_mode))
    return evolve(
        state,
        wall=wall,
        seats=_set_seat(state, seat, counts=tuple(c), locked=locked),
        phase=_TURN,
        current=seat,
        drawn=tile,
        kong_draw=draw_mode,
        kong_from=from_seat,
        haidi_as_replacement=haidi_rep,
    )


def melds_made(melds: tuple[Meld, ...], t: int) -> Meld:
    """The kong meld of ``t`` among ``melds``."""
    return next(m for m in reversed(melds) if m.tile == t and m.is_kong)


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
        events.append(Event(_EV_FURITEN, seat, claim.tile, private=True))
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


def _claim_win_flags(claim: Claim) -> dict[str, Any]:
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
        # nobody won on the fallen 开杠 tiles: the konger's new kong with the tile he kept goes on
        return _complete_kong(
            evolve(state, claim=None),
            claim.from_seat,
            claim.kept,
            MeldKind(claim.kong_kind),
            _KAI,
            None,
            events,
        )
    # 碰/杠 beat 吃 (docs/rules/common.md §3); only one seat can pung or kong a given tile
    taker = None
    top = 0
    for other in order:
        a = resp.get(other)
        if a is not None and level[a.act] > top:  # the first in play order of the highest claim
            taker, top = other, level[a.act]
    if taker is None:
        # nobody claimed: the window closes with the next draw (``_draw_next`` clears the claim)
        return _draw_next(state, _next_active(state, state.next_seat(claim.from_seat)), events)
    action = resp[taker]
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
        won = _win_on(state, w, tiles, flags)
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
    return _wins(state, tuple(infos), ctx, events)


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


# ------------------------------------------------------------------ ending


def _wins(
    state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext, events: list[Event]
) -> State:
    """Settle the win(s); the hand ends, or plays on where the variant says so (血战)."""
    rs = state.variant
    tile = ctx.tile if ctx.tile >= 0 else None
    for w, info in infos:
        names = tuple(n for n, _ in info.big) or info.small
        events.append(Event(EventKind.WIN, w, tile, hands=names))
    settlement = rs.settle_wins(state, infos, ctx)
    winners = tuple(w for w, _ in infos)
    state = evolve(state, settlements=(*state.settlements, settlement), winners=(*state.winners, *winners))
    events.append(Event(EventKind.SETTLE, settlement=settlement))
    state, play_on = rs.after_win(state, winners, ctx, events)
    if play_on:
        # play goes on from the seat after the (last) winner
        state = evolve(state, claim=None, kong_tiles=())
        events.append(Event(EventKind.CONTINUE, wins=len(state.winners)))
        return _draw_next(state, _next_active(state, state.next_seat(winners[-1])), events)
    return _finish(state, Outcome.WIN, rs.next_dealer(state, ctx), events)


def _drawn_hand(state: State, events: list[Event]) -> State:
    """荒庄 (or, in 血战, the wall ran out after some wins): the variant may settle it (查叫)."""
    rs = state.variant
    settlement = rs.settle_draw(state)
    if settlement is not None:
        state = evolve(state, settlements=(*state.settlements, settlement))
        events.append(Event(EventKind.SETTLE, settlement=settlement))
    outcome = Outcome.WIN if state.winners else Outcome.DRAW
    return _finish(state, outcome, rs.next_dealer(state, None), events)


def _finish(state: State, reason: Outcome, nxt: int, events: list[Event]) -> State:
    totals = [0] * state.num_seats
    for st in state.settlements:
        for i, d in enumerate(st.deltas):
            totals[i] += d
    result = HandResult(reason, state.winners, tuple(totals), nxt)
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
