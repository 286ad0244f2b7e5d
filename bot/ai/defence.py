"""Danger read from the table (docs/ai.md, "Defence"): who looks ready, what he would be paid, and which tiles
would win his hand — from what this seat sees only (melds, discards, choices, unseen counts).

* Ready: from how many tiles an opponent has thrown and how many melds he shows (measured on AI self-play:
  docs/ai.md has the table), certain for a locked hand (血流成河's winners, 开杠), less likely while he is
  still throwing a suit he can never win with (定缺).
* Paid: the variant prices an example of the hand his melds point to (all pungs, one suit, else a plain hand)
  as a win on this seat's discard (value.py); a hand that cannot win on a discard costs nothing.
* Which tiles: each tile's share of the waits a ready hand could have, counted from the unseen copies it would
  need (two-sided and edge waits, closed waits, pair waits); a tile of a suit he cannot win with is safe, a
  tile he threw himself is much less likely, an all-pungs hand waits on pairs, a one-suit hand on its suit;
  a tile another seat threw since his last discard without his winning on it is seldom his wait
  (``passed_tiles``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Observation, Phase, SettleKind
from engine.melds import Meld, MeldKind
from engine.observe import PublicSeat
from engine.tiles import NUM_KINDS, SUITED_KINDS, Counts

from .value import ONE_SUIT, ORDINARY, PLAIN, PUNGS, Occasion, Table, example, price, win_info

# P(ready) by the number of tiles an opponent has thrown (index: discards // 2, up to 16), before melds:
# measured on four baseline AI seats (bench: the calibration in docs/ai.md)
_READY_BY_DISCARDS = (0.0, 0.03, 0.1, 0.2, 0.38, 0.55, 0.7, 0.8, 0.92)
_READY_PER_MELD = 0.2  # each shown meld takes this share of what is left toward ready
_AVG_WAITS = 2.2  # tiles a ready hand waits on, on average
_OWN_DISCARD = 0.35  # a tile he threw himself (no 振听 here: he may still wait on it, seldom)
# a tile thrown by another seat since his last discard that he did not win on: not his wait now, if he wins
# whenever he can (the turn order is read from the rivers, which a claim can upset: not taken as certain)
_PASSED = 0.1
# the chance a ready hand holding a wild tile waits on any given tile besides what its shape shows (set by
# the robs of added kongs in 红中: docs/ai.md "Wild tiles")
_WILD_WAIT = 0.15


@dataclass(frozen=True, slots=True)
class Threat:
    seat: int
    ready: float  # the chance he is ready now
    loss: float  # what this seat pays if it deals into him (底分)
    waits: tuple[float, ...]  # per tile: the chance it is one of his waits, if he is ready
    big: bool  # his melds point to a big hand (all pungs / one suit)
    # tiles certain to win his hand — ones he won on, his hand locked since — and what each would cost
    sure: tuple[tuple[int, float], ...] = ()


def dead_suits(table: Table, seat: int) -> frozenset[int]:
    """Suits ``seat`` can never win with (定缺), asked of the variant: no example hand holding the suit wins
    for his choice."""
    obs = table.obs
    key = ("dead", table.variant.id, obs.options, table.choices[seat], table.seats)
    found = _dead.get(key)
    if found is not None:
        return found
    suits = table_suits(table)
    dead = set()
    for x in suits:
        others = [y for y in suits if y != x] or [x]
        hands = [example(ONE_SUIT, (), [x]), *(example(PLAIN, (), [x, y]) for y in others)]
        if not any(h is not None and win_info(table, seat, h, (), True, None) is not None for h in hands):
            dead.add(x)
    found = _dead[key] = frozenset(dead)
    return found


_dead: dict[tuple[object, ...], frozenset[int]] = {}
_suits: dict[tuple[object, ...], tuple[int, ...]] = {}
_wilds: dict[tuple[object, ...], frozenset[int]] = {}


def _wild_hand(table: Table, k: int) -> Counts | None:
    """A plain complete hand with one tile of its pair replaced by ``k`` (None: no plain example)."""
    hand = example(PLAIN, (), list(table_suits(table)[:2]))
    if hand is None:
        return None
    pair = next(t for t in range(NUM_KINDS) if hand[t] == 2)
    if k == pair:
        return None
    c = list(hand)
    c[pair] -= 1
    c[k] += 1
    return tuple(c)


def wild_kinds(table: Table) -> frozenset[int]:
    """Tiles that stand for any other (红中's 红中), asked of the variant: a plain complete hand with one
    tile of its pair replaced by such a tile still wins."""
    obs = table.obs
    key = (table.variant.id, obs.options, table.seats)
    found = _wilds.get(key)
    if found is None:
        wild = set()
        for k in sorted(set(table.variant.tile_set(table.seats, obs.options))):
            hand = _wild_hand(table, k)
            if hand is not None and win_info(table, obs.seat, hand, (), True, None) is not None:
                wild.add(k)
        found = _wilds[key] = frozenset(wild)
    return found


def _wild_wins(table: Table, o: int, me: int, occasion: Occasion) -> bool:
    """May a hand of ``o`` holding a wild tile win on this seat's tile on ``occasion`` (红中 with 可接炮: only
    a hand without one wins on a discard; anyone may rob a kong)?"""
    wild = wild_kinds(table)
    if not wild:
        return False
    hand = _wild_hand(table, min(wild))
    return hand is not None and win_info(table, o, hand, (), False, me, occasion) is not None


def table_suits(table: Table) -> tuple[int, ...]:
    """The suits of the variant's tile set at this table (三人两房: two)."""
    key = (table.variant.id, table.obs.options, table.seats)
    found = _suits.get(key)
    if found is None:
        tiles = set(table.variant.tile_set(table.seats, table.obs.options))
        found = _suits[key] = tuple(s for s in range(3) if any(s * 9 + r in tiles for r in range(9)))
    return found


def _shown(ps: PublicSeat) -> tuple[Meld, ...]:
    return ps.melds


def _ready(ps: PublicSeat, dead: frozenset[int]) -> float:
    if ps.locked:
        return 1.0
    d = len(ps.discards)
    base = _READY_BY_DISCARDS[min(d // 2, len(_READY_BY_DISCARDS) - 1)]
    m = len(ps.melds) + ps.concealed_kongs
    p = 1.0 - (1.0 - base) * (1.0 - _READY_PER_MELD) ** m
    if dead and ps.discards and ps.discards[-1] < SUITED_KINDS and ps.discards[-1] // 9 in dead:
        p *= 0.25  # still throwing the suit he must be rid of before he can win
    return p


def _signals(melds: tuple[Meld, ...]) -> tuple[bool, int | None]:
    """(all pungs, the one suit) his shown melds point to (two melds or more)."""
    if len(melds) < 2:
        return False, None
    pungs = all(m.kind != MeldKind.CHOW for m in melds)
    suits = {m.tile // 9 for m in melds}
    one = next(iter(suits)) if len(suits) == 1 and all(m.tile < SUITED_KINDS for m in melds) else None
    return pungs, one


def _loss(
    table: Table,
    me: int,
    o: int,
    melds: tuple[Meld, ...],
    route: str,
    suits: Sequence[int],
    occasion: Occasion,
) -> float:
    hand = example(route, melds, suits)
    if hand is None:
        return 0.0
    info = win_info(table, o, hand, melds, False, me, occasion)
    if info is None:
        return 0.0
    return price(table, info, False, o, me, hand, melds, occasion)


def _threat_loss(
    table: Table,
    me: int,
    o: int,
    melds: tuple[Meld, ...],
    signals: tuple[bool, int | None],
    order: list[int],
    occasion: Occasion = ORDINARY,
) -> float:
    """What this seat pays dealing into ``o`` on ``occasion`` (an ordinary discard; or straight after its
    own kong, 杠上炮, which some variants let alone be won on or pay more for; the tile it adds to its pung,
    抢杠; the haidi tile it took and showed, 海底炮): the plain hand or the big one his melds point to, the
    pricier; where a plain hand cannot win, a quarter of what a big one would."""
    pungs, one = signals
    plain = _loss(table, me, o, melds, PLAIN, order, occasion)
    big_losses = []
    if pungs:
        big_losses.append(_loss(table, me, o, melds, PUNGS, order, occasion))
    if one is not None:
        big_losses.append(_loss(table, me, o, melds, ONE_SUIT, [one], occasion))
    big_loss = max(big_losses, default=0.0)
    if big_loss > 0:
        return max(plain, big_loss)
    if plain > 0:
        return plain
    # a plain hand cannot win on a discard here: only a big one could
    return 0.25 * max(
        _loss(table, me, o, melds, PUNGS, order, occasion),
        _loss(table, me, o, melds, ONE_SUIT, order[:1], occasion),
    )


def _run_weight(t: int, unseen: Sequence[int]) -> float:
    """How many ways ``t`` completes a run wait (two-sided and edge, closed at 0.6), from unseen copies."""
    if t >= SUITED_KINDS:
        return 0.0
    r = t % 9
    seq = 0.0
    if r >= 2:
        seq += unseen[t - 2] * unseen[t - 1]
    if r <= 6:
        seq += unseen[t + 1] * unseen[t + 2]
    if 1 <= r <= 7:
        seq += 0.6 * unseen[t - 1] * unseen[t + 1]
    return seq


def _wait_weight(t: int, unseen: Sequence[int], signals: tuple[bool, int | None], own: set[int]) -> float:
    """How likely ``t`` is among an opponent's waits, before scaling: run and pair waits from the unseen
    copies, bent by what his melds point to and by his own discards."""
    pungs, one = signals
    seq = _run_weight(t, unseen)
    n = unseen[t]
    pair = 0.5 * n * (n - 1) / 2 + 0.3 * n
    if pungs:
        seq *= 0.25
        pair *= 2.0
    w = seq + pair
    if one is not None and (t >= SUITED_KINDS or t // 9 != one):
        w *= 0.15
    if t in own:
        w *= _OWN_DISCARD
    return w


def passed_tiles(obs: Observation) -> dict[int, frozenset[int]]:
    """Per opponent: the tiles other seats have thrown since his last discard without his winning on them.

    Read backwards through the turn order from the latest discard (during a claim window that discard is
    still on offer, so only the ones before it count): each seat's newest river tile was thrown after the
    discards of the seats before it. A seat that has won and left play has thrown nothing since."""
    last = obs.last_discard
    if last is None:
        return {}
    n = len(obs.seats)
    first, tile = last
    offered = obs.phase == Phase.CLAIM
    out: dict[int, frozenset[int]] = {}
    seen: set[int] = set()
    seat = first
    for step in range(n):
        ps = obs.seats[seat]
        if ps.won and not ps.locked and step:
            seat = (seat - 1) % n
            continue
        if seat != obs.seat and step:
            out[seat] = frozenset(seen)
        if step == 0:
            if not offered:
                seen.add(tile)
        elif ps.discards:
            seen.add(ps.discards[-1])
        seat = (seat - 1) % n
    return out


def _threat(
    obs: Observation,
    table: Table,
    ps: PublicSeat,
    unseen: Sequence[int],
    kinds: Sequence[int],
    passed: frozenset[int] = frozenset(),
    occasion: Occasion = ORDINARY,
) -> Threat | None:
    """One opponent as a threat to this seat's discards (None: he cannot cost anything)."""
    o = ps.seat
    dead = dead_suits(table, o)
    live = [s for s in table_suits(table) if s not in dead]
    melds = _shown(ps)
    signals = _signals(melds)
    meld_suits = [m.tile // 9 for m in melds if m.tile < SUITED_KINDS]
    order = list(dict.fromkeys([*meld_suits, *live]))
    order = [s for s in order if s in live] or list(live)
    loss = _threat_loss(table, obs.seat, o, melds, signals, order, occasion)
    if loss <= 0:
        return None
    # a tile passed tells only where he could have won on it: on an ordinary discard
    ordinary = occasion == ORDINARY or _threat_loss(table, obs.seat, o, melds, signals, order) > 0
    weights = _wait_weights(
        kinds, dead, unseen, signals, ps, passed if ordinary and not ps.wins else frozenset()
    )
    total = sum(weights)
    if total <= 0:
        return None
    scale = _AVG_WAITS / total
    waits = tuple(min(0.95, w * scale) for w in weights)
    if wild_kinds(table) and _wild_wins(table, o, obs.seat, occasion):
        live_kinds = [t for t in kinds if t >= SUITED_KINDS or t // 9 not in dead]
        waits = _with_wilds(waits, table, ps, unseen, live_kinds)
    pungs, one = signals
    sure = _sure(obs, table, ps, loss) if ps.locked else ()
    if sure:
        known = {t for t, _ in sure}
        waits = tuple(0.0 if t in known else w for t, w in enumerate(waits))
    return Threat(o, _ready(ps, dead), loss, waits, pungs or one is not None, sure)


def _wait_weights(
    kinds: Sequence[int],
    dead: frozenset[int],
    unseen: Sequence[int],
    signals: tuple[bool, int | None],
    ps: PublicSeat,
    passed: frozenset[int],
) -> list[float]:
    """Per tile, how likely it is among his waits before scaling (``_wait_weight``), none in a suit he can
    never win with, ×``_PASSED`` for a tile that passed him."""
    weights = [0.0] * NUM_KINDS
    own = set(ps.discards)
    for t in kinds:
        if t < SUITED_KINDS and t // 9 in dead:
            continue
        weights[t] = _wait_weight(t, unseen, signals, own)
        if t in passed:
            weights[t] *= _PASSED
    return weights


def _with_wilds(
    waits: tuple[float, ...], table: Table, ps: PublicSeat, unseen: Sequence[int], live: Sequence[int]
) -> tuple[float, ...]:
    """``waits`` widened for a hand that may hold a wild tile: it waits on far more tiles than its shape
    shows (any tile may pair with a wild), each of the ``live`` tiles with a further ``_WILD_WAIT`` if he
    holds one — as likely as his concealed tiles draw one of the unseen wild tiles."""
    wild = wild_kinds(table)
    n = sum(unseen)
    held = 1.0 - (1.0 - sum(unseen[k] for k in wild) / n) ** ps.hand_size if n else 0.0
    extra = held * _WILD_WAIT
    out = list(waits)
    for t in live:
        if t not in wild:
            out[t] += (1.0 - out[t]) * extra
    return tuple(out)


def _sure(obs: Observation, table: Table, ps: PublicSeat, loss: float) -> tuple[tuple[int, float], ...]:
    """血流成河: a winner plays on with his hand locked, so each tile he won on wins it again, paid as
    before — what the payer of his win on it paid, read from its settlement (a self-draw's share halved: no
    self-draw bonus on a discard), or ``loss`` if that was less."""
    wins = [st for st in obs.settlements if st.kind == SettleKind.WIN and ps.seat in st.winners]
    out: dict[int, float] = {}
    for i, t in enumerate(ps.won_on):
        if t < 0:
            continue
        paid = [p.amount for p in wins[i].payments if p.payee == ps.seat] if i < len(wins) else []
        cost = (paid[0] if len(paid) == 1 else min(paid, default=0) / 2) / table.base
        out[t] = max(out.get(t, 0.0), loss, cost)
    return tuple(sorted(out.items()))


def read_threats(
    obs: Observation,
    table: Table,
    unseen: Sequence[int],
    kinds: Sequence[int],
    occasion: Occasion | None = None,
) -> list[Threat]:
    """Every opponent still in play, as a threat to this seat's tile given up on ``occasion``: by default
    its discard, straight after its kong when it has just konged (``Observation.kong_draw``)."""
    out = []
    passed = passed_tiles(obs)
    if occasion is None:
        occasion = Occasion(after_kong=obs.kong_draw) if obs.current == obs.seat else ORDINARY
    for ps in obs.seats:
        if ps.seat == obs.seat or ps.won:
            continue
        th = _threat(obs, table, ps, unseen, kinds, passed.get(ps.seat, frozenset()), occasion)
        if th is not None:
            out.append(th)
    return out


def danger(threats: Sequence[Threat], scale: float = 1.0) -> list[float]:
    """Per tile: what throwing it is expected to cost (底分), the read part weighed at ``scale``, what is
    certain (``Threat.sure``) in full."""
    out = [0.0] * NUM_KINDS
    for th in threats:
        k = th.ready * th.loss * scale
        for t, w in enumerate(th.waits):
            if w:
                out[t] += k * w
        for t, cost in th.sure:
            out[t] += cost
    return out


__all__ = ["Threat", "danger", "dead_suits", "read_threats", "table_suits"]
