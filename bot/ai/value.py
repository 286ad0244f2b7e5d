"""What a hand is worth, read through the variant interface only (docs/ai.md, "Value").

* ``Pricer``: what a win pays. The variant's ``evaluate_win`` names the hand (big hands, 番, 根) and its own
  ``settle_wins`` prices it — on a stand-in table made of public facts only (the seats, the dealer, the
  options, the choices everyone sees; a few shuffled walls so birds count by their average). Nothing of the
  real State is read: the stand-in's walls and hands are dealt from fixed seeds.
* Routes: a hand's ways to a big hand (清一色, 碰碰胡, 七对, 将将胡 …) as a completed example hand per route,
  built from the seat's melds; the variant says whether it wins and what it is worth, so a route the variant
  does not pay for is never chased. How far a hand is from a route is a shanten of its own.
* ``p_win``: the chance a hand s tiles from ready with u useful tiles still wins, from the wall left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Act, KongMode, Observation, Phase, Variant, WinContext, WinInfo, new_hand
from engine.melds import Meld, MeldKind, owned
from engine.shanten import shanten_shape
from engine.state import State, evolve, evolve_seat
from engine.tiles import NUM_KINDS, SUITED_KINDS, Counts, is_258

# the stand-in tables' walls: birds are averaged over these deals
_TEMPLATE_SEEDS = (11, 23, 37, 41)
_CACHE_LIMIT = 50_000

_templates: dict[tuple[object, ...], tuple[State, ...]] = {}
_prices: dict[tuple[object, ...], float] = {}
_infos: dict[tuple[object, ...], WinInfo | None] = {}
PRICE_FAILURES = [0]  # stand-in settlements that raised (a test holds it at 0 over every variant)

# route ids (docs/ai.md): the plain hand and the big shapes a hand can steer toward
PLAIN, ONE_SUIT, PUNGS, PAIRS, ALL_258 = "plain", "one_suit", "pungs", "pairs", "all_258"
ROUTES = (PLAIN, ONE_SUIT, PUNGS, PAIRS, ALL_258)


def _bounded(cache: dict[tuple[object, ...], object]) -> None:
    if len(cache) > _CACHE_LIMIT:
        cache.clear()


@dataclass(frozen=True, slots=True)
class Table:
    """The public facts a price depends on."""

    variant: Variant
    obs: Observation
    seats: int
    choices: tuple[str | None, ...]
    won: tuple[bool, ...]
    base: int

    @classmethod
    def of(cls, obs: Observation, variant: Variant) -> Table:
        choices = tuple(ps.choice for ps in obs.seats)
        won = tuple(ps.won for ps in obs.seats)
        base = obs.options.get("base", 1)
        return cls(variant, obs, len(obs.seats), choices, won, int(base) if isinstance(base, int) else 1)

    def key(self) -> tuple[object, ...]:
        return (self.variant.id, self.obs.options, self.seats, self.obs.dealer, self.choices, self.won)


def _stand_ins(table: Table) -> tuple[State, ...]:
    """Stand-in tables: dealt from fixed seeds, with the real seats' public choices and who has won."""
    key = table.key()
    found = _templates.get(key)
    if found is None:
        _bounded(_templates)  # type: ignore[arg-type]
        out = []
        for seed in _TEMPLATE_SEEDS:
            st = new_hand(table.variant, seed, table.obs.options, dealer=table.obs.dealer, seats=table.seats)
            seats = tuple(
                evolve_seat(s, choice=c, won=w)
                for s, c, w in zip(st.seats, table.choices, table.won, strict=True)
            )
            out.append(evolve(st, seats=seats, phase=Phase.TURN))
        found = _templates[key] = tuple(out)
    return found


@dataclass(frozen=True, slots=True)
class Occasion:
    """What else a win is than a self-draw or a win on an ordinary discard: self-drawn as a kong's
    replacement (杠上开花, ``kong_draw``: that kong's mode); on a discard made straight after the payer's
    kong (杠上炮, ``after_kong``), on the tile his 开杠 turned up and let fall (``kong_discard`` too); on
    the tile of the payer's added kong (抢杠, ``robbed``); on the last tile (海底: self-drawn 捞月, or 炮 on
    the tile the payer took and showed)."""

    after_kong: KongMode | None = None
    kong_discard: bool = False
    kong_draw: KongMode | None = None
    robbed: bool = False
    haidi: bool = False


ORDINARY = Occasion()


def _context(
    table: Table,
    seat: int,
    counts: Counts,
    melds: tuple[Meld, ...],
    self_draw: bool,
    payer: int | None,
    occasion: Occasion,
) -> WinContext:
    """The variant's WinContext for a win of ``seat`` with ``counts`` (holding the winning tile) on
    ``occasion``, from the table's public facts."""
    return WinContext(
        seat,
        table.obs.dealer,
        counts,
        melds,
        next((t for t in range(NUM_KINDS) if counts[t]), 0),
        self_draw,
        from_seat=None if self_draw else payer,
        after_kong=occasion.after_kong,
        kong_discard=occasion.kong_discard,
        kong_draw=occasion.kong_draw,
        robbed=occasion.robbed,
        haidi=occasion.haidi,
        options=table.obs.options,
        choice=table.choices[seat],
    )


def win_info(
    table: Table,
    seat: int,
    counts: Counts,
    melds: tuple[Meld, ...],
    self_draw: bool,
    payer: int | None,
    occasion: Occasion = ORDINARY,
) -> WinInfo | None:
    """The variant's reading of a complete hand of ``seat`` (``counts`` holds the winning tile), won on
    ``occasion``."""
    key = (
        table.variant.id,
        table.obs.options,
        table.obs.dealer,
        seat,
        counts,
        melds,
        self_draw,
        payer,
        table.choices[seat],
        occasion,
    )
    if key in _infos:
        return _infos[key]
    ctx = _context(table, seat, counts, melds, self_draw, payer, occasion)
    _bounded(_infos)  # type: ignore[arg-type]
    info = _infos[key] = table.variant.evaluate_win(ctx)
    return info


def price(
    table: Table,
    info: WinInfo,
    self_draw: bool,
    winner: int,
    payer: int | None,
    counts: Counts,
    melds: tuple[Meld, ...],
    occasion: Occasion = ORDINARY,
) -> float:
    """What ``winner`` gains by this win on ``occasion``, in 底分 (the variant's own settlement, birds
    averaged)."""
    key = (*table.key(), info, self_draw, winner, payer, occasion)
    found = _prices.get(key)
    if found is not None:
        return found
    ctx = _context(table, winner, counts, melds, self_draw, payer, occasion)
    total = 0.0
    try:
        for st in _stand_ins(table):
            total += table.variant.settle_wins(st, ((winner, info),), ctx).deltas[winner]
        value = total / len(_TEMPLATE_SEEDS) / table.base
    except Exception:  # a variant whose settlement needs more than the stand-in has: price it plainly
        PRICE_FAILURES[0] += 1
        value = 1.0
    _bounded(_prices)  # type: ignore[arg-type]
    _prices[key] = value
    return value


_kong_prices: dict[tuple[object, ...], float] = {}
_claims: dict[tuple[object, ...], bool] = {}


def may_claim(table: Table, seat: int, act: Act, tile: int) -> bool:
    """Does the variant let ``seat`` claim ``tile`` by ``act`` (碰 a wild tile, say)? Asked of its
    ``claim_allowed`` on the stand-in table."""
    key = (*table.key(), seat, act, tile)
    found = _claims.get(key)
    if found is None:
        st = _stand_ins(table)[0]
        try:
            found = bool(table.variant.claim_allowed(st, seat, act, tile))
        except Exception:
            PRICE_FAILURES[0] += 1
            found = True
        _bounded(_claims)  # type: ignore[arg-type]
        _claims[key] = found
    return found


def kong_money(table: Table, seat: int, tile: int, kind: MeldKind, from_seat: int | None) -> float:
    """What ``seat`` is paid at once for a kong of ``tile`` (刮风下雨, 杠钱), in 底分: the variant's own
    ``settle_kong`` on a stand-in table; 0 where kongs pay nothing."""
    key = (*table.key(), seat, tile, kind, from_seat)
    found = _kong_prices.get(key)
    if found is not None:
        return found
    try:
        st = _stand_ins(table)[0]
        paid = table.variant.settle_kong(st, seat, tile, kind, from_seat)
        value = 0.0 if paid is None else paid.deltas[seat] / table.base
    except Exception:  # a settlement needing more than the stand-in has: no money counted
        PRICE_FAILURES[0] += 1
        value = 0.0
    _bounded(_kong_prices)  # type: ignore[arg-type]
    _kong_prices[key] = value
    return value


# ------------------------------------------------------------------ example hands per route


def _fits(counts: Sequence[int], melds: tuple[Meld, ...], cap: int) -> bool:
    """The example and the melds hold at most ``cap`` copies of any kind."""
    return max(owned(counts, melds)) <= cap


def _example_pairs(melds: tuple[Meld, ...], sets: int, a: int, b: int, cap: int) -> Counts | None:
    """七对: five pairs in the main suit and two in the second (or two more in the main one)."""
    if melds:
        return None
    c = [0] * NUM_KINDS
    for r in (0, 2, 4, 6, 8):
        c[a * 9 + r] = 2
    for r in (1, 5) if a != b else (3, 7):
        c[b * 9 + r] += 2
    return tuple(c)


def _example_258(melds: tuple[Meld, ...], sets: int, a: int, b: int, cap: int) -> Counts | None:
    """将将胡: a pair and pungs, all of 2/5/8, the main suits first."""
    if any(m.kind == MeldKind.CHOW or not is_258(m.tile) for m in melds):
        return None
    c = [0] * NUM_KINDS
    need = 14 - 3 * len(melds)
    pieces = [2] + [3] * ((need - 2) // 3)
    total = owned(c, melds)
    kinds = [s * 9 + r for s in (a, b, *(x for x in range(3) if x not in (a, b))) for r in (1, 4, 7)]
    for n in pieces:
        t = next((k for k in kinds if total[k] == 0), None)
        if t is None:
            return None
        c[t] += n
        total[t] += n
    return tuple(c)


def _example_one_suit(melds: tuple[Meld, ...], sets: int, a: int, b: int, cap: int) -> Counts | None:
    """一色: runs and a pair in the main suit, around melds all of that suit."""
    meld_suits = {m.tile // 9 for m in melds if m.tile < SUITED_KINDS}
    if meld_suits - {a} or any(m.tile >= SUITED_KINDS for m in melds):
        return None
    patterns = ((0, 3, 6, 1), (1, 4, 0, 5), (2, 5, 0, 6))
    for starts in patterns:
        for pair in (4, 1, 7, 2, 8, 0):
            c = _runs_and_pair([(a, r) for r in starts[:sets]], (a, pair), melds, cap)
            if c is not None:
                return c
    return None


def _runs_and_pair(
    runs: Sequence[tuple[int, int]], pair: tuple[int, int], melds: tuple[Meld, ...], cap: int
) -> Counts | None:
    """Concealed counts of ``runs`` (suit, first rank) and a ``pair`` (suit, rank), if they fit around
    ``melds`` with at most ``cap`` copies of a kind."""
    c = [0] * NUM_KINDS
    for s, r in runs:
        for x in range(3):
            c[s * 9 + r + x] += 1
    c[pair[0] * 9 + pair[1]] += 2
    return tuple(c) if _fits(c, melds, cap) else None


def _pungs_from(
    order: Sequence[tuple[int, int]], melds: tuple[Meld, ...], sets: int, cap: int
) -> tuple[list[int], int]:
    """Pungs of ``order``'s tiles, in order, that still fit around ``melds``, up to ``sets``: (counts,
    how many were made)."""
    c = [0] * NUM_KINDS
    made = 0
    for s, r in order:
        if made == sets:
            break
        t = s * 9 + r
        c[t] += 3
        if _fits(c, melds, cap):
            made += 1
        else:
            c[t] -= 3
    return c, made


def _example_pungs(melds: tuple[Meld, ...], sets: int, a: int, b: int, cap: int) -> Counts | None:
    """碰碰胡: pungs of terminals and 3/7s in the main suits and a pair in the second."""
    if any(m.kind == MeldKind.CHOW for m in melds):
        return None
    order = [(a, r) for r in (0, 8, 2, 6)] + [(b, r) for r in (0, 8, 2, 6)]
    for skip in range(4):
        c, made = _pungs_from(order[skip:] + order[:skip], melds, sets, cap)
        for pair in (3, 5, 1, 7):
            c[b * 9 + pair] += 2
            if made == sets and _fits(c, melds, cap):
                return tuple(c)
            c[b * 9 + pair] -= 2
    return None


def _example_plain(melds: tuple[Meld, ...], sets: int, a: int, b: int, cap: int) -> Counts | None:
    """The plain hand: runs in two suits and a 2/5/8 pair (a small hand wherever one needs it)."""
    runs = [(a, 0), (b, 3), (a, 6), (b, 0), (a, 3), (b, 6)]
    for shift in range(3):
        for pair in ((a, 4), (b, 1), (a, 7), (b, 4)):
            c = _runs_and_pair(runs[shift : shift + sets], pair, melds, cap)
            if c is not None:
                return c
    return None


_EXAMPLES = {
    PAIRS: _example_pairs,
    ALL_258: _example_258,
    ONE_SUIT: _example_one_suit,
    PUNGS: _example_pungs,
}


def example(route: str, melds: tuple[Meld, ...], suits: Sequence[int]) -> Counts | None:
    """A complete hand of ``route`` around ``melds`` in ``suits`` (the first is the main one): concealed
    counts with 14 − 3·melds tiles, or None when the route cannot be made around these melds (a route not
    named: the plain hand)."""
    sets = 4 - len(melds)
    if sets < 0 or not suits:
        return None
    a = suits[0]
    b = suits[1] if len(suits) > 1 else a
    build = _EXAMPLES.get(route, _example_plain)
    # first without all four copies of any kind: a 根 or a kong the hand does not have would make the example
    # pay more than the hand would, and a far hand look pricier than a ready one (measured: it broke ready
    # hands in 四川)
    return build(melds, sets, a, b, 3) or build(melds, sets, a, b, 4)


# ------------------------------------------------------------------ how far a hand is from a route


def _pung_shanten(counts: Counts, sets: int) -> int:
    """碰碰胡: ``sets`` pungs and a pair still to make from the concealed tiles."""
    trips = sum(1 for n in counts if n >= 3)
    pairs = sum(1 for n in counts if n == 2)
    t = min(trips, sets)
    rest = sets - t
    pairs += trips - t
    if pairs >= rest + 1:
        return rest - 1
    return pairs + 2 * (rest - pairs) + 1 - 1


def route_shanten(route: str, counts: Counts, melds: tuple[Meld, ...], suit: int) -> int:
    """How many tiles ``counts`` (3k+1, concealed) is from ready on ``route`` (large: out of reach)."""
    far = 9
    if route == PAIRS:
        if melds:
            return far
        pairs = sum(n // 2 for n in counts)
        return 6 - min(pairs, 6)
    if route == ALL_258:
        if any(m.kind == MeldKind.CHOW or not is_258(m.tile) for m in melds):
            return far
        return sum(n for t, n in enumerate(counts) if not is_258(t))
    if route == PUNGS:
        if any(m.kind == MeldKind.CHOW for m in melds):
            return far
        return _pung_shanten(counts, 4 - len(melds))
    if route == ONE_SUIT:
        if any(m.tile // 9 != suit or m.tile >= SUITED_KINDS for m in melds):
            return far
        lo = suit * 9
        off = sum(counts) - sum(counts[lo : lo + 9])
        if off > 5:
            return far
        # the tiles of other suits are dead weight: read them as loose honors that make nothing
        c = [0] * NUM_KINDS
        c[lo : lo + 9] = counts[lo : lo + 9]
        for i in range(off):
            c[27 + i] = 1
        return max(shanten_shape(tuple(c), len(melds), False), off)
    return far


# ------------------------------------------------------------------ the chance to win


def p_win(s: int, useful: int, draws: float, unseen: int, ron: float) -> float:
    """The chance a hand ``s`` tiles from ready (0: ready with ``useful`` winning tiles unseen) wins with
    ``draws`` own draws left: each step takes about unseen/useful draws, and a ready hand wins each draw
    with its waits' share of the unseen tiles (more with ``ron``: the discards it may win on)."""
    if s < 0:
        return 1.0
    n = max(unseen, 1)
    left = draws
    u = useful
    if s > 0:
        left -= n / max(useful, 1) * 0.8
        left -= (s - 1) * n / 10.0
        u = 5
    if left <= 0:
        return 0.0
    q = min(0.9, u / n * (1.0 + ron))
    return float(1.0 - (1.0 - q) ** left)


__all__ = [
    "ALL_258",
    "ONE_SUIT",
    "PAIRS",
    "PLAIN",
    "PRICE_FAILURES",
    "PUNGS",
    "ROUTES",
    "Table",
    "example",
    "kong_money",
    "may_claim",
    "p_win",
    "price",
    "route_shanten",
    "win_info",
]
