"""What one seat may see. Renderers only ever get an Observation, so hidden tiles cannot leak."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .game import legal_actions, to_act
from .melds import Meld, MeldKind
from .state import ClaimKind, HandResult, Phase, Settlement, State
from .tiles import from_counts
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
    furiten: bool
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


def _to_act_visible(state: State, seat: int) -> tuple[int, ...]:
    seats = to_act(state)
    if state.phase == Phase.CLAIM:
        return (seat,) if seat in seats else ()
    return seats


PUBLIC = -1  # the viewer of observe_public: no seat


def observe_public(state: State) -> Observation:
    """What anyone may see (the group chat, a spectator): every seat's public part, no hand, no drawn tile,
    no legal actions."""
    return observe(state, PUBLIC)


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may see; ``PUBLIC`` (-1) for a viewer who holds no seat."""
    ended = state.phase == Phase.ENDED
    seats = []
    choosing = state.phase == Phase.CHOOSE
    rs = state.ruleset
    for i, s in enumerate(state.seats):
        own = i == seat
        shown = ended or rs.hand_shown(state, i)
        hide = not (own or ended or rs.concealed_kong_shown)
        melds = tuple(m for m in s.melds if m.kind != MeldKind.KONG_CONCEALED) if hide else s.melds
        seats.append(
            PublicSeat(
                seat=i,
                hand_size=sum(s.counts),
                melds=melds,
                concealed_kongs=len(s.melds) - len(melds),
                discards=s.discards,
                locked=s.locked,
                declared=s.declared,
                revealed=s.revealed,
                hand=tuple(from_counts(s.counts)) if shown else None,
                choice=s.choice if own or not choosing else None,
                won=s.won,
                wins=state.winners.count(i),
            )
        )
    me = state.seats[seat] if seat != PUBLIC else None
    claim = state.claim if state.phase == Phase.CLAIM else None
    return Observation(
        seat=seat,
        variant=state.ruleset.id,
        options=state.options,
        dealer=state.dealer,
        phase=state.phase,
        current=state.current,
        version=state.version,
        wall_remaining=state.wall.remaining,
        # 飘 / 加锤 are chosen before looking at the tiles
        hand=() if me is None or (choosing and rs.choose_blind(state)) else tuple(from_counts(me.counts)),
        drawn=state.drawn if state.current == seat and state.phase in (Phase.TURN, Phase.HAIDI) else None,
        furiten=me is not None and bool(me.furiten),
        seats=tuple(seats),
        claim_tile=claim.tile if claim else None,
        claim_from=claim.from_seat if claim else None,
        claim_kind=claim.kind if claim else None,
        to_act=_to_act_visible(state, seat),
        legal=legal_actions(state, seat),
        settlements=state.settlements,
        result=state.result,
        last_discard=state.last_discard,
        kong_tiles=state.kong_tiles,
        winners=state.winners,
    )
