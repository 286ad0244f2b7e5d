"""The fast observation (public parts memoised on each Seat, built positionally) is exactly what the
plain construction makes — the same fields, the same types, the same repr — for every seat and the table, at
every step of random hands of every variant, room options and table size; so a hidden tile reaches no more
chats than before."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import (
    VARIANTS,
    Act,
    Phase,
    State,
    apply,
    get_variant,
    legal_actions,
    new_hand,
    observe,
    observe_public,
    parse_tile,
    to_act,
)
from engine.melds import Meld, MeldKind
from engine.observe import PUBLIC, Observation, PublicSeat, _to_act_visible, unseen
from engine.state import ClaimKind, evolve, evolve_seat
from engine.tiles import from_counts

from .playout import eager_policy, random_policy

# per variant, about 14,000 positions in all, each observed by every seat and the table; seeds 17 and 29
# deal Hengyang a 扳牌 (its hand then shown for three turns)
SEEDS = (*range(8), 17, 29)


def reference_observe(state: State, seat: int) -> Observation:
    """The plain construction (engine/observe.py before the fast paths): keyword __init__, nothing
    memoised."""
    ended = state.phase == Phase.ENDED
    seats = []
    choosing = state.phase == Phase.CHOOSE
    rs = state.variant
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
                won_on=tuple(t for w, t in zip(state.winners, state.win_tiles, strict=False) if w == i),
            )
        )
    me = state.seats[seat] if seat != PUBLIC else None
    claim = state.claim if state.phase == Phase.CLAIM else None
    return Observation(
        seat=seat,
        variant=state.variant.id,
        options=state.options,
        dealer=state.dealer,
        phase=state.phase,
        current=state.current,
        version=state.version,
        wall_remaining=state.wall.remaining,
        hand=() if me is None or (choosing and rs.choose_blind(state)) else tuple(from_counts(me.counts)),
        drawn=state.drawn if state.current == seat and state.phase in (Phase.TURN, Phase.HAIDI) else None,
        passed_win=me is not None and bool(me.passed_wins),
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
        choice_stage=rs.choice_stage(state) if choosing else None,
        kong_draw=state.kong_draw if state.phase == Phase.TURN else None,
    )


def _room(variant: str, rng: random.Random) -> tuple[dict[str, Any], int]:
    """A random room: every option at a random allowed value (or a preset), a random allowed table size."""
    rs = get_variant(variant)
    if rs.presets and rng.random() < 0.5:
        preset = rng.choice(rs.presets)
        return dict(preset.options), preset.seats or max(rs.seat_counts)
    opts = {spec.name: rng.choice(spec.choices) for spec in rs.option_specs}
    try:
        rs.make_options(opts)
    except Exception:  # an invalid combination: the defaults
        opts = {}
    return opts, rng.choice(rs.seat_counts)


def _positions(variant: str) -> Iterator[State]:
    """Every position of whole hands, eager players (kongs, 开杠, wins) and random ones alternating."""
    rs = get_variant(variant)
    for seed in SEEDS:
        rng = random.Random(f"observe/{variant}/{seed}")
        opts, n = _room(variant, rng)
        state = new_hand(rs, seed, opts, seats=n)
        policy = eager_policy if seed % 2 else random_policy
        for _ in range(2000):
            yield state
            if state.phase == Phase.ENDED:
                break
            seat = rng.choice(to_act(state))
            state, _ = apply(state, policy(state, seat, legal_actions(state, seat), rng))


def _twins(state: State) -> tuple[State, ...]:
    """The position as observed, then made-up ones sharing its Seat objects (and so their memos) where a part
    must differ: one seat holding a concealed kong more (rare in random play: four of a kind in hand), a
    win more for seat 0 (its wins, not its Seat), and one seat's Seat sitting at another seat too. Tile
    counts do not matter to observe."""
    if state.version % 5:
        return (state,)
    i = state.version % state.num_seats
    seats = list(state.seats)
    tile = max(range(len(seats[i].counts)), key=lambda t: seats[i].counts[t])
    k = (state.current + 1) % state.num_seats  # not the seat to play: its legal actions stay computable
    j = (k + 1) % state.num_seats
    seats[i] = evolve_seat(seats[i], melds=(*seats[i].melds, Meld(MeldKind.KONG_CONCEALED, tile)))
    kong = evolve(state, seats=tuple(seats))
    return (
        state,
        kong,
        evolve(kong, winners=(*state.winners, 0)),
        evolve(kong, seats=tuple(seats[j if n == k else n] for n in range(len(seats)))),
    )


def _same(got: Observation, want: Observation) -> None:
    assert type(got) is Observation and all(type(p) is PublicSeat for p in got.seats)
    assert got == want
    assert repr(got) == repr(want)  # the types inside too (a tuple, not a list)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fast_observe_is_the_plain_construction(variant: str) -> None:
    """At every step each viewer, in a random order (so a part is built for one viewer, then read from the
    memo by others); the memo carries over to later positions the seats that did not change. The
    phases that decide what shows (the choices, claims, kongs, shown hands, the end) are met."""
    phases: set[str] = set()
    concealed = shown = 0
    for position in _positions(variant):
        for state in _twins(position):
            phases.add(state.phase)
            viewers = [PUBLIC, *range(state.num_seats)]
            random.Random(state.version).shuffle(viewers)
            for viewer in viewers:
                want = reference_observe(state, viewer)
                got = observe_public(state) if viewer == PUBLIC else observe(state, viewer)
                _same(got, want)
                concealed += sum(p.concealed_kongs for p in got.seats)
                shown += sum(p.hand is not None for p in got.seats) if state.phase != Phase.ENDED else 0
    assert {Phase.TURN, Phase.CLAIM, Phase.ENDED} <= phases
    if variant in ("shaoyang", "sichuan", "xiangyin"):
        assert Phase.CHOOSE in phases  # 加锤 / 定缺 / 飘
    if not get_variant(variant).concealed_kong_shown:
        assert concealed > 0  # another seat's concealed kong, left out and counted
    if variant in ("sichuan", "hengyang"):
        assert shown > 0  # a 血战 winner's hand, 扳牌's 三巡


def test_parts_are_shared_between_viewers_and_positions() -> None:
    """The memo is used (or the test above would prove nothing about it): a seat's public part is one object
    for every viewer who may see the same, and for the next position while the seat has not changed; an own
    view is not another viewer's."""
    rs = get_variant("changsha")
    state = new_hand(rs, 5)
    assert state.phase == Phase.TURN
    dealer = state.current
    other = (dealer + 1) % 4
    public = observe_public(state)
    assert observe(state, other).seats[dealer] is public.seats[dealer]
    assert observe(state, dealer).seats[dealer] is not public.seats[dealer]
    action = next(a for a in legal_actions(state, dealer) if a.act == "discard")
    after, _ = apply(state, action)
    assert after.seats[other] is state.seats[other]
    assert observe_public(after).seats[other] is public.seats[other]
    assert observe_public(after).seats[dealer] is not public.seats[dealer]


def test_an_observation_pickles_and_compares_like_a_plain_one() -> None:
    """The picture worker gets observations pickled; equality and hashing of the parts are the dataclass's."""
    state = new_hand(get_variant("shaoyang"), 2)
    for viewer in (PUBLIC, 0, 3):
        got = observe(state, viewer)
        back = pickle.loads(pickle.dumps(got))
        assert back == got == reference_observe(state, viewer) and type(back) is Observation
        assert hash(got.seats[1]) == hash(reference_observe(state, viewer).seats[1])


@pytest.mark.parametrize("variant", ["changsha", "hengyang", "sichuan", "shaoyang"])
def test_unseen_takes_off_every_visible_tile_once(variant: str) -> None:
    """``engine.observe.unseen``: what a seat cannot see is exactly the wall, the other seats' concealed tiles
    where their hands are not shown and the tiles of concealed kongs hidden from it (and the kinds the set
    holds fewer than four of) — less the shown haidi tile in the taker's hand, and less the revealed opening
    tiles still in a hand, which it takes off as far as it can tell them from the rest (revealed less that
    seat's river and melds). Every viewer, every position of whole hands (扳牌's three turns, 血战 winners'
    shown hands, 开杠's turned-up tiles and the rest, as the hands meet them)."""
    rs = get_variant(variant)
    checked = 0
    for state in _positions(variant):
        copies = [0] * 34
        for t in rs.tile_set(state.num_seats, state.options):
            copies[t] += 1
        wall = [0] * 34
        for p, t in enumerate(state.wall.tiles):
            if not state.wall.taken >> p & 1:
                wall[t] += 1
        claim = state.claim if state.phase == Phase.CLAIM else None
        for viewer in range(state.num_seats):
            obs = observe(state, viewer)
            hidden = [wall[t] + 4 - copies[t] for t in range(34)]
            if not obs.hand:  # a blind choice (加锤, 飘): its own tiles unseen too
                hidden = [h + n for h, n in zip(hidden, state.seats[viewer].counts, strict=True)]
            told = [0] * 34  # revealed tiles still in a hand not shown: the count may or may not know them
            for i, (s, ps) in enumerate(zip(state.seats, obs.seats, strict=True)):
                if i == viewer:
                    continue
                for m in s.melds:
                    if m not in ps.melds:
                        for t in m.tiles:
                            hidden[t] += 1
                if ps.hand is None:
                    for t in range(34):
                        hidden[t] += s.counts[t]
                    for t in set(ps.revealed):
                        told[t] += min(ps.revealed.count(t), s.counts[t])
            if claim is not None and claim.kind == ClaimKind.HAIDI and claim.from_seat != viewer:
                hidden[claim.tile] -= 1  # in the taker's hand, face up
            got = unseen(obs)
            assert all(hidden[t] - told[t] <= got[t] <= hidden[t] for t in range(34)), (state.version, viewer)
            if not any(told):
                assert got == hidden, (state.version, viewer)
            checked += 1
    assert checked > 1000


def test_unseen_counts_a_revealed_tile_once_after_it_is_thrown() -> None:
    """Changsha 六六顺 shows 444m and 555s; seat 1 then throws a 4m: three 4m are in sight (two revealed
    still in his hand, one in his river), so one is unseen — the revealed tile is not counted again in the
    river (the waits' counts counted it twice)."""
    from .changsha_helpers import JUNK, deal
    from .dealing import act, discard

    state = deal([JUNK[0] + "3s", "1444m45556s2789p", JUNK[1], JUNK[2]], draws="9s", birds=0, openings=True)
    state = act(state, 1, Act.OPENING, detail="liuliushun")
    state = discard(discard(state, 0, "3s"), 1, "4m")
    four_m = parse_tile("4m")
    for viewer in (2, 3):
        assert unseen(observe(state, viewer))[four_m] == 1
    assert unseen(observe(state, 1))[four_m] == 1  # his own two and the river
