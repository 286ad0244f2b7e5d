"""What one seat may see. Renderers only ever get an Observation, so hidden tiles cannot leak."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .actions import Action, KongMode
from .legal import legal_actions, to_act
from .melds import Meld, MeldKind
from .state import ClaimKind, HandResult, Phase, Seat, Settlement, State, copier
from .tiles import NUM_KINDS, from_counts
from .variant import Options


@dataclass(frozen=True, slots=True)
class PublicSeat:
    seat: int
    hand_size: int
    melds: tuple[Meld, ...]  # other seats' concealed kongs are left out …
    concealed_kongs: int  # … and only counted
    discards: tuple[int, ...]
    locked: bool
    declared: tuple[str, ...]
    revealed: tuple[int, ...]
    hand: tuple[int, ...] | None = None  # shown: at the end, after a 血战 win, or during 扳牌's 三巡
    choice: str | None = None  # 飘 / 加锤 / 定缺, public once every seat has chosen
    won: bool = False  # 血战: won and left play
    wins: int = 0  # wins so far this hand (血流成河: a seat may win several times)
    won_on: tuple[int, ...] = ()  # the tile of each of those wins, shown beside his hand (-1: 天胡)


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    variant: str
    options: Options
    dealer: int
    phase: Phase
    current: int
    version: int
    wall_remaining: int
    hand: tuple[int, ...]  # own concealed tiles, sorted
    drawn: int | None  # own tile just drawn
    passed_win: bool  # 漏胡: this seat passed a win and may not win on a discard until it draws
    seats: tuple[PublicSeat, ...]
    claim_tile: int | None
    claim_from: int | None
    claim_kind: ClaimKind | None
    to_act: tuple[int, ...]  # during a claim window only this seat, if it must answer: who else may
    # claim would tell what they hold
    legal: tuple[Action, ...]
    settlements: tuple[Settlement, ...]
    result: HandResult | None
    last_discard: tuple[int, int] | None
    kong_tiles: tuple[int, ...] = ()  # tiles a two-tile 开杠 turned up (public)
    winners: tuple[int, ...] = ()
    choice_stage: str | None = None  # which pre-hand choice is being made (Variant.choice_stage): 换三张
    # the current seat's tile is a kong replacement, by this mode (public: everyone saw the kong): its next
    # discard is made straight after a kong (杠上炮 where the variant lets it be won on)
    kong_draw: KongMode | None = None


COPIES = 4  # of each tile kind


def still_revealed(ps: PublicSeat) -> list[int]:
    """The tiles a seat showed at the deal (起手小胡, ``revealed``) that are still in its hand: less those it
    has thrown or melded since."""
    if not ps.revealed:
        return []
    gone = [0] * NUM_KINDS
    for t in ps.discards:
        gone[t] += 1
    for m in ps.melds:
        for t in m.tiles:
            gone[t] += 1
    left = []
    for t in ps.revealed:
        if gone[t]:
            gone[t] -= 1
        else:
            left.append(t)
    return left


def unseen(obs: Observation) -> list[int]:
    """Copies of each tile kind the seat of ``obs`` cannot see, each tile counted once: four of each kind
    less its own hand, every river, every meld shown (its own concealed kongs too), each other seat's hand
    where it is shown (at the end, after a 血战 win, during 扳牌's three turns) or else the tiles it revealed
    that are still in its hand (revealed less what it has since thrown or melded), the tiles a two-tile 开杠
    turned up, and a tile on offer that is in nobody's river or hand it sees (the fourth tile of a kong being
    robbed, the shown haidi tile). A kind the set holds fewer of (the honors of a 108-tile set) still counts
    four: only what can be seen is taken off. The AI's useful tiles and the waits' counts read it."""
    seen = [0] * NUM_KINDS
    for t in obs.hand:
        seen[t] += 1
    me = obs.seat
    for ps in obs.seats:
        for t in ps.discards:
            seen[t] += 1
        for m in ps.melds:
            for t in m.tiles:
                seen[t] += 1
        if ps.seat == me:
            continue
        if ps.hand is not None:
            for t in ps.hand:
                seen[t] += 1
        elif ps.revealed:
            for t in still_revealed(ps):  # the rest of them are in its river or melds: counted above
                seen[t] += 1
    for t in obs.kong_tiles:
        seen[t] += 1
    tile = obs.claim_tile
    if tile is not None and (
        obs.claim_kind == ClaimKind.ROB or (obs.claim_kind == ClaimKind.HAIDI and obs.claim_from != me)
    ):
        seen[tile] += 1  # out of the konger's hand / in the haidi taker's hand, face up
    return [COPIES - n if n < COPIES else 0 for n in seen]


# enum members as module constants (on Python 3.11 ``Phase.TURN`` goes through EnumType.__getattr__)
_CHOOSE, _CLAIM, _TURN, _HAIDI, _ENDED = Phase.CHOOSE, Phase.CLAIM, Phase.TURN, Phase.HAIDI, Phase.ENDED
_KONG_CONCEALED = MeldKind.KONG_CONCEALED

# Observations are made on every press for every chat, and the playout tests observe every seat and the table
# after every step: built positionally (state.copier with every field given, so its first argument is never
# read) — plain slot stores instead of the frozen __init__'s object.__setattr__ per keyword.
_new_public_seat = copier(PublicSeat, *(f.name for f in fields(PublicSeat)))
_new_observation = copier(Observation, *(f.name for f in fields(Observation)))
_HAND = "hand"  # the key of the sorted hand in Seat.observe_memo (the public parts are keyed by tuples)


def _memo(s: Seat) -> dict[object, object]:
    memo = s.observe_memo
    if memo is None:
        memo = {}
        object.__setattr__(s, "observe_memo", memo)  # a memo of the frozen Seat's own fields
    return memo  # type: ignore[no-any-return]


def _sorted_hand(s: Seat) -> tuple[int, ...]:
    """The seat's concealed tiles, sorted: made once per Seat."""
    memo = _memo(s)
    hand = memo.get(_HAND)
    if hand is None:
        hand = memo[_HAND] = tuple(from_counts(s.counts))
    return hand  # type: ignore[return-value]


def won_on(state: State, seat: int) -> tuple[int, ...]:
    """The tiles ``seat`` has won on this hand, in order (``PublicSeat.won_on``)."""
    if seat not in state.winners:
        return ()
    return tuple(t for w, t in zip(state.winners, state.win_tiles, strict=False) if w == seat)


def _public_seat(
    s: Seat, i: int, shown: bool, hide_kongs: bool, choice_shown: bool, wins: int, won: tuple[int, ...]
) -> PublicSeat:
    """Seat ``i``'s public part; everything it shows besides ``s``'s own fields is in the arguments, which
    key the memo (so a part is never reused for a viewer who may see less)."""
    melds = tuple(m for m in s.melds if m.kind != _KONG_CONCEALED) if hide_kongs else s.melds
    return _new_public_seat(
        None,
        i,  # seat
        sum(s.counts),  # hand_size
        melds,
        len(s.melds) - len(melds),  # concealed_kongs
        s.discards,
        s.locked,
        s.declared,
        s.revealed,
        _sorted_hand(s) if shown else None,  # hand
        s.choice if choice_shown else None,  # choice
        s.won,
        wins,
        won,
    )


def _to_act_visible(state: State, seat: int) -> tuple[int, ...]:
    seats = to_act(state)
    if state.phase == _CLAIM:
        return (seat,) if seat in seats else ()
    return seats


PUBLIC = -1  # the viewer of observe_public: no seat


def observe_public(state: State) -> Observation:
    """What anyone may see (the group chat, a spectator): every seat's public part, no hand, no drawn tile,
    no legal actions."""
    return observe(state, PUBLIC)


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may see; ``PUBLIC`` (-1) for a viewer who holds no seat.

    A seat's public part is memoised on its Seat (``Seat.observe_memo``), keyed by what decides it: the
    seat's index, whether its hand is shown, whether its concealed kongs are hidden from this viewer, whether
    its choice is, its wins and the tiles it won on."""
    phase = state.phase
    ended = phase == _ENDED
    choosing = phase == _CHOOSE
    rs = state.variant
    winners = state.winners
    hide_kongs = not (ended or rs.concealed_kong_shown)
    seats = []
    for i, s in enumerate(state.seats):
        own = i == seat
        # the hand shown: at the end, after a 血战 win, or during 扳牌's 三巡; 飘 / 加锤 / 定缺 public once
        # every seat has chosen
        shown = ended or rs.hand_shown(state, i)
        key = (i, shown, hide_kongs and not own, own or not choosing, winners.count(i), won_on(state, i))
        memo = s.observe_memo
        part = None if memo is None else memo.get(key)
        if part is None:
            part = _memo(s)[key] = _public_seat(s, *key)
        seats.append(part)
    me = state.seats[seat] if seat != PUBLIC else None
    claim = state.claim if phase == _CLAIM else None
    return _new_observation(
        None,
        seat,
        rs.id,  # variant
        state.options,
        state.dealer,
        phase,
        state.current,
        state.version,
        state.wall.remaining,
        # hand: 飘 / 加锤 are chosen before looking at the tiles
        () if me is None or (choosing and rs.choose_blind(state)) else _sorted_hand(me),
        state.drawn if state.current == seat and phase in (_TURN, _HAIDI) else None,  # drawn
        me is not None and bool(me.passed_wins),  # passed_win
        tuple(seats),
        claim.tile if claim is not None else None,  # claim_tile
        claim.from_seat if claim is not None else None,  # claim_from
        claim.kind if claim is not None else None,  # claim_kind
        _to_act_visible(state, seat),  # to_act
        legal_actions(state, seat),  # legal
        state.settlements,
        state.result,
        state.last_discard,
        state.kong_tiles,
        winners,
        rs.choice_stage(state) if choosing else None,  # choice_stage
        state.kong_draw if phase == _TURN else None,  # kong_draw
    )
