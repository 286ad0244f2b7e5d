"""The hand state machine: deal, draw, discard, claims, kongs, haidi, wins and drawn hands.

Public API: ``new_hand``, ``legal_actions``, ``apply``, ``to_act``, ``waits``, ``is_ready``.
Draws, automatic discards of a locked hand and the end of a claim window happen inside ``apply``: the
caller only ever answers decisions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from itertools import combinations
from typing import Any

from .actions import Act, Action
from .errors import IllegalAction
from .events import Event
from .melds import Meld, MeldKind
from .ruleset import Options, Ruleset, WinContext, WinInfo
from .shape import candidates
from .state import Claim, HandResult, Phase, Seat, Settlement, State, evolve, evolve_seat
from .tiles import NUM_KINDS, SUITED_KINDS, Counts, full_set, parse_tiles, tile_str, to_counts
from .wall import Wall

# Actions are immutable values: the common ones are made once and shared.
_DISCARDS = tuple(tuple(Action(s, Act.DISCARD, t) for t in range(NUM_KINDS)) for s in range(4))
_LEVEL = {Act.WIN: 3, Act.KONG: 2, Act.PUNG: 2, Act.CHOW: 1, Act.PASS: 0}


# ------------------------------------------------------------------ setup


def new_hand(
    ruleset: Ruleset,
    seed: int,
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
    seats: int | None = None,
) -> State:
    """Deal a hand. Everything random comes from ``seed``: the wall, the first dealer and every dice roll."""
    n = seats if seats is not None else max(ruleset.seat_counts)
    if n not in ruleset.seat_counts:
        raise IllegalAction(f"{ruleset.id} is played by {ruleset.seat_counts} players, not {n}")
    opts = options if isinstance(options, Options) else ruleset.make_options(options)
    rng = random.Random(f"{ruleset.id}/{seed}")
    if dealer is None:
        dealer = rng.randrange(n)
    elif not 0 <= dealer < n:
        raise IllegalAction(f"dealer {dealer} is not a seat of a {n}-player table")
    return _deal(ruleset, opts, seed, dealer, n, Wall.shuffled(rng, ruleset.with_honors))


def arranged_hand(
    ruleset: Ruleset,
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
    if n not in ruleset.seat_counts:
        raise IllegalAction(f"{ruleset.id} is played by {ruleset.seat_counts} players, not {n}")
    opts = options if isinstance(options, Options) else ruleset.make_options(options)
    parsed = [parse_tiles(h) for h in hands]
    for i, h in enumerate(parsed):
        want = 14 if i == dealer else 13
        if len(h) != want:
            raise IllegalAction(f"seat {i} needs {want} tiles, got {len(h)}")
    front, rear = parse_tiles_ordered(draws), parse_tiles_ordered(back)
    pool = full_set(ruleset.with_honors)
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
    back_pos = [p for k in range(wall_len // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1)]
    for p, t in zip(back_pos, rear, strict=False):
        if wall[p] is not None:
            raise IllegalAction("draws and back replacements overlap")
        wall[p] = t
    it = iter(pool)
    tiles = order + [t if t is not None else next(it) for t in wall]
    return _deal(ruleset, opts, seed, dealer, n, Wall(tuple(tiles)))


def parse_tiles_ordered(text: str) -> list[int]:
    """Like parse_tiles but keeps the written order: ``5m1s5m`` → 5m, 1s, 5m (``315m`` → 3m, 1m, 5m)."""
    out: list[int] = []
    digits = ""
    for ch in text.replace(" ", "").replace(",", ""):
        if ch.isdigit():
            digits += ch
            continue
        out.extend(parse_tiles(d + ch)[0] for d in digits)
        if not digits:
            parse_tiles(ch)  # raises InvalidNotation with the reason
        digits = ""
    if digits:
        parse_tiles(digits)  # raises InvalidNotation
    return out


def _deal(ruleset: Ruleset, opts: Options, seed: int, dealer: int, n: int, wall: Wall) -> State:
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        s = (dealer + i) % n
        for _ in range(13):
            t, wall = wall.draw_front()
            hands[s].append(t)
    last, wall = wall.draw_front()
    hands[dealer].append(last)
    state = State(
        ruleset=ruleset,
        options=opts,
        seed=seed,
        dealer=dealer,
        wall=wall,
        seats=tuple(Seat(to_counts(h)) for h in hands),
        phase=Phase.TURN,
        current=dealer,
        drawn=last,
    )
    if ruleset.opening_hands is not None:
        order = [(dealer + i) % n for i in range(n)]
        queue = tuple(s for s in order if ruleset.opening_hands(state.seats[s].counts))
        if queue:
            state = evolve(state, phase=Phase.OPENING, current=queue[0], opening_queue=queue)
    return state


# ------------------------------------------------------------------ queries


def win_info(state: State, seat: int, tile: int, self_draw: bool, **flags: Any) -> WinInfo | None:
    """Would ``seat`` win with ``tile`` (already in hand if self_draw) in this context?"""
    s = state.seats[seat]
    counts = s.counts
    if not self_draw:
        c = list(counts)
        c[tile] += 1
        counts = tuple(c)
    if not state.ruleset.could_win(counts, s.melds):
        return None
    ctx = WinContext(
        seat=seat,
        dealer=state.dealer,
        counts=counts,
        melds=s.melds,
        tile=tile,
        self_draw=self_draw,
        options=state.options,
        **flags,
    )
    return state.ruleset.evaluate_win(ctx)


def waits(
    ruleset: Ruleset, counts: Counts, melds: tuple[Meld, ...] = (), options: Options | None = None
) -> list[int]:
    """Tiles that would complete this 3k+1 hand in any context (self-draw or discard) — 听牌."""
    kinds = NUM_KINDS if ruleset.with_honors else SUITED_KINDS
    opts = options if options is not None else ruleset.make_options()
    cands = set(candidates(counts, kinds))
    if ruleset.wait_candidates is not None:
        cands.update(ruleset.wait_candidates(counts, melds))
    out = []
    for t in sorted(cands):
        if counts[t] >= 4:
            continue
        c = list(counts)
        c[t] += 1
        ct = tuple(c)
        if not ruleset.could_win(ct, melds):
            continue
        for self_draw in (True, False):
            ctx = WinContext(0, 1, ct, melds, t, self_draw, from_seat=None if self_draw else 2, options=opts)
            if ruleset.evaluate_win(ctx) is not None:
                out.append(t)
                break
    return out


def is_ready(
    ruleset: Ruleset, counts: Counts, melds: tuple[Meld, ...], options: Options | None = None
) -> bool:
    return bool(waits(ruleset, counts, melds, options))


def to_act(state: State) -> tuple[int, ...]:
    """Seats that have a decision to make now."""
    if state.phase == Phase.ENDED:
        return ()
    if state.phase == Phase.CLAIM:
        assert state.claim is not None
        return tuple(s for s, _ in state.claim.options if not state.claim.responded(s))
    return (state.current,)


_last: list[Any] = [None, -1, ()]  # one-entry cache: (state, seat, actions); apply re-asks for the same


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """Every action ``seat`` may take now (empty when it has nothing to decide)."""
    if _last[0] is state and _last[1] == seat:
        return _last[2]  # type: ignore[no-any-return]
    acts = _legal_actions(state, seat)
    _last[:] = [state, seat, acts]
    return acts


def _legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    phase = state.phase
    if phase == Phase.ENDED or not 0 <= seat < state.num_seats:
        return ()
    if phase == Phase.CLAIM:
        claim = state.claim
        assert claim is not None
        return () if claim.responded(seat) else claim.options_for(seat)
    if seat != state.current:
        return ()
    if phase == Phase.OPENING:
        kinds = state.ruleset.opening_hands(state.seats[seat].counts) if state.ruleset.opening_hands else ()
        acts = [
            Action(seat, Act.OPENING, detail="+".join(combo))
            for r in range(len(kinds), 0, -1)
            for combo in combinations(kinds, r)
        ]
        return (*acts, Action(seat, Act.PASS))
    if phase == Phase.HAIDI:
        if state.haidi_taker is None:
            return (Action(seat, Act.TAKE), Action(seat, Act.PASS))
        return (Action(seat, Act.WIN), Action(seat, Act.PASS))
    return _turn_actions(state, seat)


def _turn_actions(state: State, seat: int) -> tuple[Action, ...]:
    s = state.seats[seat]
    acts: list[Action] = []
    if (state.drawn is not None or state.first_turn) and _self_win(state, seat) is not None:
        acts.append(Action(seat, Act.WIN))
    if s.locked:
        assert state.drawn is not None
        acts.append(Action(seat, Act.DISCARD, state.drawn))
        return tuple(acts)
    counts = s.counts
    table = _DISCARDS[seat]
    acts.extend(table[t] for t in range(NUM_KINDS) if counts[t])
    if state.wall.remaining > 0:
        for t in range(NUM_KINDS):
            if counts[t] == 4:
                acts.extend(_kong_actions(state, seat, t, MeldKind.KONG_CONCEALED))
        for m in s.melds:
            if m.kind == MeldKind.PUNG and counts[m.tile]:
                acts.extend(_kong_actions(state, seat, m.tile, MeldKind.KONG_ADDED))
    return tuple(acts)


def _self_win(state: State, seat: int) -> WinInfo | None:
    tile = state.drawn if state.drawn is not None else -1
    return win_info(
        state,
        seat,
        tile,
        True,
        first_turn=state.first_turn and seat == state.dealer,
        kong_draw=state.kong_draw,
    )


def _kong_counts(counts: Counts, t: int, kind: MeldKind) -> Counts:
    c = list(counts)
    c[t] -= {MeldKind.KONG_CONCEALED: 4, MeldKind.KONG_ADDED: 1, MeldKind.KONG_EXPOSED: 3}[kind]
    return tuple(c)


def _kong_melds(melds: tuple[Meld, ...], t: int, kind: MeldKind, from_seat: int | None) -> tuple[Meld, ...]:
    if kind == MeldKind.KONG_ADDED:
        return tuple(
            Meld(MeldKind.KONG_ADDED, t, m.from_seat) if m.kind == MeldKind.PUNG and m.tile == t else m
            for m in melds
        )
    return (*melds, Meld(kind, t, from_seat))


def _kong_actions(state: State, seat: int, t: int, kind: MeldKind) -> list[Action]:
    """补张 always; 开杠 only where the variant has it and the hand is ready after the kong."""
    if not state.ruleset.kaigang:
        return [Action(seat, Act.KONG, t)]
    out = [Action(seat, Act.KONG, t, "bu")]
    s = state.seats[seat]
    if is_ready(
        state.ruleset, _kong_counts(s.counts, t, kind), _kong_melds(s.melds, t, kind, None), state.options
    ):
        out.append(Action(seat, Act.KONG, t, "kai"))
    return out


# ------------------------------------------------------------------ apply


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Apply one decision; returns the new state and what happened. Raises IllegalAction."""
    legal = legal_actions(state, action.seat)
    if action not in legal:
        raise IllegalAction(_why_illegal(state, action, legal))
    events: list[Event] = []
    phase = state.phase
    if phase == Phase.OPENING:
        new = _on_opening(state, action, events)
    elif phase == Phase.TURN:
        new = _on_turn(state, action, events)
    elif phase == Phase.CLAIM:
        new = _on_claim(state, action, events)
    else:
        new = _on_haidi(state, action, events)
    version = state.version + 1
    if new is state:
        new = evolve(new, version=version)
    else:
        object.__setattr__(new, "version", version)  # `new` was made by this call and is not shared yet
    return _auto(new, events), tuple(events)


def _why_illegal(state: State, action: Action, legal: tuple[Action, ...]) -> str:
    if state.phase == Phase.ENDED:
        return "the hand is over"
    if not 0 <= action.seat < state.num_seats:
        return f"there is no seat {action.seat}"
    if not legal:
        if state.phase == Phase.CLAIM and state.claim is not None and state.claim.responded(action.seat):
            return "you have already answered this tile"
        waiting = ", ".join(str(s) for s in to_act(state))
        return f"it is not seat {action.seat}'s turn (waiting for seat {waiting})"
    s = state.seats[action.seat]
    if action.act == Act.DISCARD and action.tile is not None:
        if s.locked:
            return (
                f"the hand is locked after 开杠: you must discard the drawn tile {tile_str(state.drawn or 0)}"
            )
        if not 0 <= action.tile < NUM_KINDS or not s.counts[action.tile]:
            return f"you do not hold {tile_str(action.tile) if 0 <= action.tile < NUM_KINDS else action.tile}"
    if action.act == Act.WIN:
        return "this hand does not win here"
    allowed = ", ".join(str(a) for a in legal)
    return f"{action} is not legal now; legal: {allowed}"


def _set_seat(state: State, seat: int, **changes: Any) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[seat] = evolve_seat(seats[seat], **changes)
    return tuple(seats)


def _on_opening(state: State, action: Action, events: list[Event]) -> State:
    seat = action.seat
    if action.act == Act.OPENING:
        assert state.ruleset.settle_opening is not None
        kinds = tuple(action.detail.split("+"))
        settlement = state.ruleset.settle_opening(state, seat, kinds)
        revealed = (
            state.ruleset.opening_reveal(state.seats[seat].counts, kinds)
            if state.ruleset.opening_reveal
            else ()
        )
        bird_seat = state.opening_bird_seat
        if bird_seat is None and settlement.birds:
            bird_seat = bird_target(state, settlement.birds[0], state.dealer)
        state = evolve(
            state,
            seats=_set_seat(state, seat, declared=kinds, revealed=revealed),
            settlements=(*state.settlements, settlement),
            opening_winners=(*state.opening_winners, seat),
            opening_bird_seat=bird_seat,
        )
        events.append(Event("opening", seat, detail=action.detail))
        events.append(Event("settle", seat, detail=_fmt_deltas(settlement)))
    else:
        events.append(Event("pass", seat, detail="opening"))
    queue = state.opening_queue[1:]
    if queue:
        return evolve(state, opening_queue=queue, current=queue[0])
    return evolve(state, opening_queue=(), phase=Phase.TURN, current=state.dealer, drawn=state.drawn)


def _fmt_deltas(s: Settlement) -> str:
    return " ".join(f"{d:+d}" for d in s.deltas)


def _on_turn(state: State, action: Action, events: list[Event]) -> State:
    seat = action.seat
    if action.act == Act.WIN:
        info = _self_win(state, seat)
        assert info is not None
        tile = state.drawn if state.drawn is not None else -1
        ctx = WinContext(
            seat,
            state.dealer,
            state.seats[seat].counts,
            state.seats[seat].melds,
            tile,
            True,
            first_turn=state.first_turn and seat == state.dealer,
            kong_draw=state.kong_draw,
            options=state.options,
        )
        return _end_with_wins(state, ((seat, info),), ctx, events)
    if action.act == Act.DISCARD:
        assert action.tile is not None
        return _discard(state, seat, action.tile, events, auto=False)
    if action.act == Act.KONG:
        assert action.tile is not None
        t = action.tile
        s = state.seats[seat]
        kind = MeldKind.KONG_CONCEALED if s.counts[t] == 4 else MeldKind.KONG_ADDED
        if kind == MeldKind.KONG_ADDED and state.ruleset.robbing_kong:
            robbed = _rob_options(state, seat, t)
            if robbed:
                counts = _kong_counts(s.counts, t, kind)
                events.append(Event("kong_declared", seat, t, action.detail))
                return evolve(
                    state,
                    seats=_set_seat(state, seat, counts=counts),
                    phase=Phase.CLAIM,
                    claim=Claim(t, seat, "rob", robbed, kong_mode=action.detail),
                    drawn=None,
                )
        return _complete_kong(state, seat, t, kind, action.detail, None, events)
    raise AssertionError(action)


def _discard(state: State, seat: int, t: int, events: list[Event], auto: bool) -> State:
    s = state.seats[seat]
    c = list(s.counts)
    c[t] -= 1
    first_discard = seat == state.dealer and state.discards_made == 0 and state.claims_made == 0
    kong_discard = state.kong_draw == "kai"
    state = evolve(
        state,
        seats=_set_seat(state, seat, counts=tuple(c), discards=(*s.discards, t)),
        discards_made=state.discards_made + 1,
        last_discard=(seat, t),
        drawn=None,
        kong_draw="",
        first_turn=False,
    )
    events.append(Event("discard", seat, t, "auto" if auto else ""))
    options = _claim_options(state, seat, t, first_discard=first_discard, kong_discard=kong_discard)
    if not options:
        return _draw_next(state, state.next_seat(seat), events)
    return evolve(
        state,
        phase=Phase.CLAIM,
        claim=Claim(t, seat, "discard", options, kong_discard=kong_discard, first_discard=first_discard),
    )


def _claim_options(
    state: State, from_seat: int, t: int, first_discard: bool, kong_discard: bool
) -> tuple[tuple[int, tuple[Action, ...]], ...]:
    out = []
    rs = state.ruleset
    wall_left = state.wall.remaining > 0
    for i in range(1, state.num_seats):
        seat = state.next_seat(from_seat, i)
        s = state.seats[seat]
        acts: list[Action] = []
        if not s.furiten and (
            win_info(
                state,
                seat,
                t,
                False,
                from_seat=from_seat,
                first_discard=first_discard,
                kong_discard=kong_discard,
            )
            is not None
        ):
            acts.append(Action(seat, Act.WIN))
        if wall_left and not s.locked:
            n = s.counts[t]
            if n == 3:
                acts.extend(_kong_actions(state, seat, t, MeldKind.KONG_EXPOSED))
            if n >= 2:
                acts.append(Action(seat, Act.PUNG))
            if rs.chow and i == 1 and t < SUITED_KINDS and _chow_allowed(state, seat, t):
                r = t % 9
                for lo in (t - 2, t - 1, t):
                    if lo < t - r or lo + 2 > t - r + 8:
                        continue
                    if all(s.counts[x] for x in (lo, lo + 1, lo + 2) if x != t):
                        acts.append(Action(seat, Act.CHOW, lo))
        if acts:
            out.append((seat, (*acts, Action(seat, Act.PASS))))
    return tuple(out)


def _chow_allowed(state: State, seat: int, t: int) -> bool:
    hook = state.ruleset.chow_allowed
    return True if hook is None else hook(state, seat, t)


def _rob_options(state: State, konger: int, t: int) -> tuple[tuple[int, tuple[Action, ...]], ...]:
    out = []
    for i in range(1, state.num_seats):
        seat = state.next_seat(konger, i)
        if state.seats[seat].furiten:
            continue
        if win_info(state, seat, t, False, from_seat=konger, robbed=True) is not None:
            out.append((seat, (Action(seat, Act.WIN), Action(seat, Act.PASS))))
    return tuple(out)


def _complete_kong(
    state: State,
    seat: int,
    t: int,
    kind: MeldKind,
    mode: str,
    from_seat: int | None,
    events: list[Event],
    counts_done: bool = False,
) -> State:
    s = state.seats[seat]
    counts = s.counts if counts_done else _kong_counts(s.counts, t, kind)
    melds = _kong_melds(s.melds, t, kind, from_seat)
    state = evolve(
        state,
        seats=_set_seat(state, seat, counts=counts, melds=melds, furiten=False),
        claims_made=state.claims_made + 1,
        first_turn=False,
        claim=None,
    )
    events.append(Event("kong", seat, t, f"{kind.name.lower()} {mode}".strip()))
    if state.ruleset.settle_kong is not None:
        settlement = state.ruleset.settle_kong(state, seat, t, kind, from_seat)
        if settlement is not None:
            state = evolve(state, settlements=(*state.settlements, settlement))
            events.append(Event("settle", seat, detail=_fmt_deltas(settlement)))
    last_tile = state.wall.remaining == 1
    if mode == "kai":
        n = state.dice_rolls
        rng = random.Random(f"{state.ruleset.id}/{state.seed}/dice/{n}")
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        events.append(Event("dice", seat, detail=f"{d1}+{d2}"))
        tile, wall = state.wall.draw_dice(d1 + d2)
        state = evolve(state, dice_rolls=n + 1)
    else:
        tile, wall = state.wall.draw_back()
    c = list(state.seats[seat].counts)
    c[tile] += 1
    locked = mode == "kai" or state.seats[seat].locked
    events.append(Event("draw", seat, tile, "kong", private=True))
    return evolve(
        state,
        wall=wall,
        seats=_set_seat(state, seat, counts=tuple(c), locked=locked),
        phase=Phase.TURN,
        current=seat,
        drawn=tile,
        kong_draw=mode or "bu",
        haidi_as_replacement=seat if last_tile else state.haidi_as_replacement,
    )


def _draw_next(state: State, seat: int, events: list[Event]) -> State:
    remaining = state.wall.remaining
    if remaining == 0:
        return _drawn_hand(state, events)
    if remaining == 1 and state.ruleset.haidi_roaming:
        return _offer_haidi(evolve(state, claim=None, drawn=None), seat, 0, events)
    tile, wall = state.wall.draw_front()
    s = state.seats[seat]
    c = list(s.counts)
    c[tile] += 1
    events.append(Event("draw", seat, tile, private=True))
    return evolve(
        state,
        wall=wall,
        seats=_set_seat(state, seat, counts=tuple(c), furiten=False),
        phase=Phase.TURN,
        current=seat,
        drawn=tile,
        kong_draw="",
        first_turn=False,
        claim=None,
    )


def _offer_haidi(state: State, seat: int, offered: int, events: list[Event]) -> State:
    """海底漫游: offer the last tile to ``seat``; after every seat refused, the hand is drawn."""
    n = state.num_seats
    hook = state.ruleset.haidi_eligible
    while offered < n:
        if hook is None or hook(state, seat):
            events.append(Event("haidi_offer", seat))
            return evolve(
                state,
                phase=Phase.HAIDI,
                current=seat,
                haidi_first=seat if state.haidi_first is None else state.haidi_first,
                haidi_offered=offered + 1,
            )
        seat = state.next_seat(seat)
        offered += 1
    return _drawn_hand(state, events)


def _on_haidi(state: State, action: Action, events: list[Event]) -> State:
    seat = action.seat
    if state.haidi_taker is None:
        if action.act == Act.PASS:
            events.append(Event("haidi_refuse", seat))
            return _offer_haidi(state, state.next_seat(seat), state.haidi_offered, events)
        tile, wall = state.wall.draw_front()
        s = state.seats[seat]
        c = list(s.counts)
        c[tile] += 1
        state = evolve(
            state,
            wall=wall,
            seats=_set_seat(state, seat, counts=tuple(c), furiten=False),
            haidi_taker=seat,
            drawn=tile,
            kong_draw="",
            first_turn=False,
        )
        events.append(Event("haidi_take", seat, tile))
        if win_info(state, seat, tile, True, haidi=True) is not None:
            return state
        return _show_haidi(state, events)
    shown = state.drawn
    assert shown is not None
    if action.act == Act.WIN:
        s = state.seats[seat]
        info = win_info(state, seat, shown, True, haidi=True)
        assert info is not None
        ctx = WinContext(
            seat, state.dealer, s.counts, s.melds, shown, True, haidi=True, options=state.options
        )
        return _end_with_wins(state, ((seat, info),), ctx, events)
    return _show_haidi(state, events)


def _show_haidi(state: State, events: list[Event]) -> State:
    """The taker cannot (or will not) win: the tile is shown and any other seat may win on it (海底炮)."""
    taker = state.haidi_taker
    tile = state.drawn
    assert taker is not None and tile is not None
    events.append(Event("haidi_show", taker, tile))
    options = []
    for i in range(1, state.num_seats):
        seat = state.next_seat(taker, i)
        if state.seats[seat].furiten:
            continue
        if win_info(state, seat, tile, False, from_seat=taker, haidi=True) is not None:
            options.append((seat, (Action(seat, Act.WIN), Action(seat, Act.PASS))))
    if not options:
        return _drawn_hand(state, events)
    return evolve(state, phase=Phase.CLAIM, claim=Claim(tile, taker, "haidi", tuple(options)))


def _on_claim(state: State, action: Action, events: list[Event]) -> State:
    claim = state.claim
    assert claim is not None
    seat = action.seat
    could_win = any(a.act == Act.WIN for a in claim.options_for(seat))
    if could_win and action.act != Act.WIN:
        state = evolve(state, seats=_set_seat(state, seat, furiten=True))
        events.append(Event("furiten", seat))
    claim = replace(claim, responses=(*claim.responses, (seat, action)))
    state = evolve(state, claim=claim)
    events.append(Event("answer", seat, detail=action.act.value if action.act == Act.PASS else "claim"))
    return _resolve_claim(state, events)


def _resolve_claim(state: State, events: list[Event]) -> State:
    claim = state.claim
    assert claim is not None
    resp = dict(claim.responses)
    best = max((_LEVEL[a.act] for a in resp.values()), default=0)
    for seat, acts in claim.options:
        if seat in resp:
            continue
        top = max(_LEVEL[a.act] for a in acts)
        if top >= max(best, 1):
            return state  # a pending answer could still change the outcome
    order = [state.next_seat(claim.from_seat, i) for i in range(1, state.num_seats)]
    winners = [s for s in order if s in resp and resp[s].act == Act.WIN]
    if winners:
        if not state.ruleset.multi_win:
            winners = winners[:1]
        infos = []
        for w in winners:
            info = win_info(
                state,
                w,
                claim.tile,
                False,
                from_seat=claim.from_seat,
                first_discard=claim.first_discard,
                kong_discard=claim.kong_discard,
                robbed=claim.kind == "rob",
                haidi=claim.kind == "haidi",
            )
            assert info is not None
            infos.append((w, info))
        w0 = winners[0]
        s0 = state.seats[w0]
        c = list(s0.counts)
        c[claim.tile] += 1
        ctx = WinContext(
            w0,
            state.dealer,
            tuple(c),
            s0.melds,
            claim.tile,
            False,
            from_seat=claim.from_seat,
            first_discard=claim.first_discard,
            kong_discard=claim.kong_discard,
            robbed=claim.kind == "rob",
            haidi=claim.kind == "haidi",
            options=state.options,
        )
        return _end_with_wins(state, tuple(infos), ctx, events)
    if claim.kind == "rob":
        events.append(Event("rob_passed", claim.from_seat, claim.tile))
        return _complete_kong(
            evolve(state, claim=None),
            claim.from_seat,
            claim.tile,
            MeldKind.KONG_ADDED,
            claim.kong_mode,
            None,
            events,
            counts_done=True,
        )
    if claim.kind == "haidi":
        return _drawn_hand(state, events)
    claimed = [s for s in order if s in resp and resp[s].act != Act.PASS]
    # 碰/杠 beat 吃 (seed 三: "碰" 比 "吃" 优先); only one seat can pung or kong a given tile
    taker = max(claimed, key=lambda s: _LEVEL[resp[s].act], default=None)
    if taker is None:
        return _draw_next(evolve(state, claim=None), state.next_seat(claim.from_seat), events)
    action = resp[taker]
    t = claim.tile
    src = state.seats[claim.from_seat]
    assert src.discards and src.discards[-1] == t
    seats = _set_seat(state, claim.from_seat, discards=src.discards[:-1])
    state = evolve(state, seats=seats, claim=None, claims_made=state.claims_made + 1, first_turn=False)
    s = state.seats[taker]
    if action.act == Act.KONG:
        c = list(s.counts)
        c[t] -= 3
        state = evolve(state, seats=_set_seat(state, taker, counts=tuple(c)))
        return _complete_kong(
            state, taker, t, MeldKind.KONG_EXPOSED, action.detail, claim.from_seat, events, counts_done=True
        )
    c = list(s.counts)
    if action.act == Act.PUNG:
        c[t] -= 2
        meld = Meld(MeldKind.PUNG, t, claim.from_seat)
    else:
        assert action.tile is not None
        for x in (action.tile, action.tile + 1, action.tile + 2):
            if x != t:
                c[x] -= 1
        meld = Meld(MeldKind.CHOW, action.tile, claim.from_seat)
    events.append(Event(action.act.value, taker, t, str(meld)))
    return evolve(
        state,
        # 漏胡 ends with the seat's own draw, pung or kong (RULES.md §1) — a chow does not end it
        seats=_set_seat(
            state,
            taker,
            counts=tuple(c),
            melds=(*s.melds, meld),
            furiten=s.furiten and action.act == Act.CHOW,
        ),
        phase=Phase.TURN,
        current=taker,
        drawn=None,
        kong_draw="",
    )


def _auto(state: State, events: list[Event]) -> State:
    """Moves nobody decides: a locked hand (开杠) discards every tile that does not win."""
    while state.phase == Phase.TURN:
        s = state.seats[state.current]
        if not s.locked or state.drawn is None or _self_win(state, state.current) is not None:
            break
        state = _discard(state, state.current, state.drawn, events, auto=True)
    return state


# ------------------------------------------------------------------ ending


def bird_target(state: State, tile: int, origin: int) -> int:
    """扎鸟: rank r points at seat ((r−1) mod 4) counted in play order from ``origin``."""
    n = state.num_seats
    return (origin + (tile % 9) % n) % n


def _end_with_wins(
    state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext, events: list[Event]
) -> State:
    for w, info in infos:
        names = [n for n, _ in info.big] or list(info.small)
        events.append(Event("win", w, ctx.tile if ctx.tile >= 0 else None, "+".join(names)))
    settlement = state.ruleset.settle_wins(state, infos, ctx)
    state = evolve(state, settlements=(*state.settlements, settlement))
    winners = tuple(w for w, _ in infos)
    if (
        len(set(state.opening_winners) | {w for w in winners if ctx.first_turn}) >= 2
        and state.opening_bird_seat is not None
    ):
        nxt = state.opening_bird_seat  # rule G: two or more won at the deal → the bird's seat deals
    elif len(winners) == 1:
        nxt = winners[0]
    else:
        nxt = ctx.from_seat if ctx.from_seat is not None else winners[0]
    events.append(Event("settle", detail=_fmt_deltas(settlement)))
    return _finish(state, "win", winners, nxt, events)


def _drawn_hand(state: State, events: list[Event]) -> State:
    """荒庄. Next dealer: the seat that took the last tile as a kong replacement (F), else the haidi
    taker (C), else the first seat offered the haidi (D), else the dealer stays."""
    if state.ruleset.settle_draw is not None:
        settlement = state.ruleset.settle_draw(state)
        if settlement is not None:
            state = evolve(state, settlements=(*state.settlements, settlement))
    if len(state.opening_winners) >= 2 and state.opening_bird_seat is not None:
        nxt = state.opening_bird_seat
    elif state.haidi_as_replacement is not None:
        nxt = state.haidi_as_replacement
    elif state.haidi_taker is not None:
        nxt = state.haidi_taker
    elif state.haidi_first is not None:
        nxt = state.haidi_first
    else:
        nxt = state.dealer
    return _finish(state, "draw", (), nxt, events)


def _finish(state: State, reason: str, winners: tuple[int, ...], nxt: int, events: list[Event]) -> State:
    totals = [0] * state.num_seats
    for st in state.settlements:
        for i, d in enumerate(st.deltas):
            totals[i] += d
    result = HandResult(reason, winners, tuple(totals), nxt)
    events.append(Event("end", detail=f"{reason} next_dealer={nxt}"))
    # the claim (if any) stays: it records the tile that was won on, a robbed kong tile included
    return evolve(state, phase=Phase.ENDED, result=result)


def replay(
    ruleset: Ruleset,
    seed: int,
    actions: Iterable[Action],
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
    seats: int | None = None,
) -> State:
    """Rebuild a hand from (ruleset, options, seed, actions): the action log is the source of truth."""
    state = new_hand(ruleset, seed, options, dealer, seats)
    for a in actions:
        state, _ = apply(state, a)
    return state
