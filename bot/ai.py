"""A heuristic AI seat that decides from its Observation only (never the State).

Policy, in order:

* always 胡 when a win is legal; declare every opening hand (the OPENING action with the most kinds);
  take the haidi when offered;
* on a discard: claim 杠/碰/吃 only when it lowers the shanten, or keeps it without losing useful tiles;
* on its own turn: kong when that does not raise the shanten (补张, or 开杠 when ready with many waits),
  else discard by efficiency: lowest shanten after the discard, then most useful tiles still unseen
  (ukeire), then isolated and terminal tiles first, 2/5/8 (the Changsha pair) last.

The shanten used is Changsha-aware: the smallest of the standard shape with a 2/5/8 pair, seven pairs
(a four counts as two pairs), all pungs, one suit (any pair) and all 2/5/8. When a hand looks ready its
real waits come from ``engine.game.waits`` so a ready hand is never mistaken.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine import Act, Action, Observation, Phase, get_ruleset, waits
from engine.melds import Meld, MeldKind
from engine.ruleset import Ruleset
from engine.tiles import NUM_KINDS, SUITED_KINDS, Counts, is_258, to_counts

# Variants whose small hand needs a 2/5/8 pair.
_PAIR_258 = {"changsha", "hengyang"}
# Claim kinds ranked for ties: a kong brings a free draw.
_CLAIM_RANK = {Act.KONG: 3, Act.PUNG: 2, Act.CHOW: 1}
# 开杠 locks the hand: do it only with at least this many unseen winning tiles.
KAI_MIN_UNSEEN = 6

Opt = tuple[int, int, int, int]  # (melds, partial sets, heads, a loose tile that may pair) in one suit
Opts = tuple[Opt, ...]

# A head is a pair that may be the hand's pair: any pair, or (Changsha small hand) a 2/5/8 pair.
_HEAD_258 = (False, True, False, False, True, False, False, True, False)
_HEAD_ANY9 = (True,) * 9
_HEAD_NONE7 = (False,) * 7
_HEAD_ANY7 = (True,) * 7
_IS_258 = tuple(is_258(t) for t in range(NUM_KINDS))
_258_TILES = tuple(t for t in range(NUM_KINDS) if _IS_258[t])
_EMPTY_OPTS: Opts = ((0, 0, 0, 0),)

# one cache per (head rule, honors): suit pattern -> Pareto set of options (~25k patterns per 300 hands)
_CACHE_LIMIT = 400_000
_CACHES: dict[tuple[bool, bool], dict[tuple[int, ...], Opts]] = {
    (h, z): {} for h in (False, True) for z in (False, True)
}


def _pareto(found: Iterable[Opt]) -> Opts:
    opts = set(found)
    return tuple(
        r
        for r in opts
        if not any(o != r and o[0] >= r[0] and o[1] >= r[1] and o[2] >= r[2] and o[3] >= r[3] for o in opts)
    )


def _suit_options(key: tuple[int, ...], pair_258: bool, honors: bool) -> Opts:
    """Pareto set of (melds, partials, heads) inside one suit. A head is a pair that may be the hand's
    pair; every other pair is a partial set (and so is any head past the first, see ``_final``).

    Memoised on the pattern: the first non-empty rank is split every possible way and the rest of the
    pattern is itself a cached pattern."""
    cache = _CACHES[pair_258, honors]
    hit = cache.get(key)
    if hit is not None:
        return hit
    i = 0
    n = len(key)
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        cache[key] = _EMPTY_OPTS
        return _EMPTY_OPTS
    head_ok = (_HEAD_NONE7 if pair_258 else _HEAD_ANY7) if honors else (_HEAD_258 if pair_258 else _HEAD_ANY9)
    c = list(key)
    found: list[Opt] = []

    def sub(dm: int, dt: int, dh: int, df: int = 0) -> None:
        for m, t, h, f in _suit_options(tuple(c), pair_258, honors):
            found.append((m + dm, t + dt, h + dh, f | df))

    if c[i] >= 3:
        c[i] -= 3
        sub(1, 0, 0)
        c[i] += 3
    if not honors and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        sub(1, 0, 0)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2:
        c[i] -= 2
        if head_ok[i]:
            sub(0, 0, 1)
        sub(0, 1, 0)
        c[i] += 2
    if not honors and i + 1 < n and c[i + 1]:
        c[i] -= 1
        c[i + 1] -= 1
        sub(0, 1, 0)
        c[i] += 1
        c[i + 1] += 1
    if not honors and i + 2 < n and c[i + 2]:
        c[i] -= 1
        c[i + 2] -= 1
        sub(0, 1, 0)
        c[i] += 1
        c[i + 2] += 1
    c[i] -= 1
    sub(0, 0, 0, 1 if head_ok[i] else 0)
    pareto = _pareto(found)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()  # a long-running bot: start over rather than grow without bound
    cache[key] = pareto
    return pareto


def _merge(a: Opts, b: Opts) -> Opts:
    if b is _EMPTY_OPTS:
        return a
    if a is _EMPTY_OPTS:
        return b
    return _pareto((x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] | y[3]) for x in a for y in b)


def _final(a: Opts, b: Opts, melds: int) -> int:
    """The shanten of the best pair of options: 8 − 2·melds − partials − head, partials capped; with no
    head and no loose tile that may pair (a 2/5/8 in Changsha) the pair costs one tile more."""
    best = 8
    for am, at, ah, af in a:
        for bm, bt, bh, bf in b:
            m = melds + am + bm
            t = at + bt
            h = ah + bh
            if h > 1:
                t += h - 1
                h = 1
            loose = af | bf
            if m + t > 4:
                t = 4 - m
                loose = 1  # a dropped partial leaves loose tiles (optimistic: one may pair)
            s = 8 - 2 * m - t - h
            if not h and not loose:
                s += 1
            if s < best:
                best = s
    return best


def _suits(counts: Counts, pair_258: bool) -> list[Opts]:
    return [
        _suit_options(counts[0:9], pair_258, False),
        _suit_options(counts[9:18], pair_258, False),
        _suit_options(counts[18:27], pair_258, False),
        _suit_options(counts[27:34], pair_258, True),
    ]


def _shanten_shape(counts: Counts, melds: int, pair_258: bool) -> int:
    """Standard-shape shanten (−1 complete, 0 ready); with ``pair_258`` only a 2/5/8 pair is a head."""
    a, b, c, d = _suits(counts, pair_258)
    return _final(_merge(a, b), _merge(c, d), melds)


Stats = tuple[int, int, int, int, int]  # pairs (a four = 2), triplets, exact pairs, non-2/5/8 tiles, suits


def _stats(counts: Counts) -> Stats:
    pairs7 = trips = pairs = off = suits = 0
    for t, n in enumerate(counts):
        if n:
            pairs7 += n >> 1
            if n >= 3:
                trips += 1
            elif n == 2:
                pairs += 1
            if not _IS_258[t]:
                off += n
            suits |= 1 << (t // 9)
    return pairs7, trips, pairs, off, suits


def _add_stats(st: Stats, counts: Counts, t: int) -> Stats:
    """The stats after one more ``t``."""
    pairs7, trips, pairs, off, suits = st
    n = counts[t]
    if n & 1:
        pairs7 += 1
    if n == 2:
        trips += 1
        pairs -= 1
    elif n == 1:
        pairs += 1
    if not _IS_258[t]:
        off += 1
    return pairs7, trips, pairs, off, suits | 1 << (t // 9)


_ONE_SUIT = {1: 0, 2: 1, 4: 2}


class HandShape:
    """What the shanten depends on besides the concealed counts: the melds (fixed for a decision)."""

    __slots__ = ("n_melds", "pair_258", "pungs_ok", "all_258_melds", "suit", "concealed")

    def __init__(self, melds: Sequence[Meld], variant: str) -> None:
        self.n_melds = len(melds)
        self.pair_258 = variant in _PAIR_258
        self.pungs_ok = all(m.kind != MeldKind.CHOW for m in melds)
        self.all_258_melds = all(is_258(t) for m in melds for t in m.tiles)
        suits = {m.tile // 9 for m in melds}
        self.suit = suits.pop() if len(suits) == 1 else (-1 if not suits else -2)
        self.concealed = not melds

    def shanten(self, counts: Counts) -> int:
        """Changsha shanten of concealed ``counts`` (3k+1 or 3k+2 tiles) with these melds."""
        best = _shanten_shape(counts, self.n_melds, self.pair_258)
        if best <= -1:
            return best
        return self.side(counts, _stats(counts), sum(counts), best)

    def side(self, counts: Counts, st: Stats, n: int, best: int) -> int:
        """``best`` improved by the big hands that need no 2/5/8 pair: 七小对, 碰碰胡, 清一色, 将将胡."""
        pairs7, trips, pairs, off, suits = st
        nm = self.n_melds
        if self.concealed and n >= 13:
            best = min(best, max(-1, 6 - pairs7))
        if self.pungs_ok:
            m = nm + trips
            t = min(max(0, pairs - 1), max(0, 4 - m))
            best = min(best, 8 - 2 * m - t - (1 if pairs else 0))
        if not self.pair_258 or best <= -1:
            return best
        if self.all_258_melds and off - 1 < best:
            best = min(best, (off - 1 if off else -1) if n % 3 == 2 else off)
        one = _ONE_SUIT.get(suits)
        if best > 0 and one is not None and self.suit in (-1, one):
            best = min(best, _shanten_shape(counts, nm, False))  # 清一色: any pair
        return best


def visible_counts(obs: Observation) -> list[int]:
    """Copies of each tile this seat can see: own hand, every river, every shown meld, revealed tiles."""
    vis = [0] * NUM_KINDS
    for t in obs.hand:
        vis[t] += 1
    for ps in obs.seats:
        seen = [0] * NUM_KINDS
        for t in ps.discards:
            seen[t] += 1
        for m in ps.melds:
            for t in m.tiles:
                seen[t] += 1
        for t in range(NUM_KINDS):
            vis[t] += seen[t]
        if ps.seat != obs.seat and ps.revealed:
            shown = [0] * NUM_KINDS
            for t in ps.revealed:
                shown[t] += 1
            for t in range(NUM_KINDS):
                if shown[t] > seen[t]:
                    vis[t] += shown[t] - seen[t]  # revealed tiles still in that hand
    return vis


def _neighbours(counts: Counts, kinds: int, extra: Iterable[int] = ()) -> list[int]:
    """Tiles that can improve a hand: held tiles and suit neighbours within two."""
    out = set(extra)
    for t in range(kinds):
        if counts[t]:
            out.add(t)
            if t < SUITED_KINDS:
                lo = t - t % 9
                for x in range(max(lo, t - 2), min(lo + 8, t + 2) + 1):
                    out.add(x)
    return sorted(out)


class Evaluator:
    """Shanten and ukeire for one seat's decision, with the unseen tile counts fixed."""

    def __init__(self, obs: Observation, melds: Sequence[Meld] | None = None) -> None:
        self.obs = obs
        self.ruleset: Ruleset = get_ruleset(obs.variant)
        self.kinds = NUM_KINDS if self.ruleset.with_honors else SUITED_KINDS
        me = obs.seats[obs.seat]
        self.melds: tuple[Meld, ...] = tuple(me.melds if melds is None else melds)
        self.shape = HandShape(self.melds, obs.variant)
        vis = visible_counts(obs)
        self.unseen = [max(0, 4 - v) for v in vis]

    def with_melds(self, melds: Sequence[Meld]) -> Evaluator:
        ev = object.__new__(Evaluator)
        ev.obs, ev.ruleset, ev.kinds, ev.unseen = self.obs, self.ruleset, self.kinds, self.unseen
        ev.melds = tuple(melds)
        ev.shape = HandShape(ev.melds, self.obs.variant)
        return ev

    def shanten(self, counts: Counts) -> int:
        return self.shape.shanten(counts)

    def waits(self, counts: Counts) -> list[int]:
        return waits(self.ruleset, counts, self.melds, self.obs.options)

    def value(self, counts: Counts) -> tuple[int, int]:
        """(shanten, unseen useful tiles) of a 3k+1 hand; a 'ready' hand without real waits is 1-shanten."""
        shape = self.shape
        s = shape.shanten(counts)
        if s == 0:
            w = self.waits(counts)
            if w:
                return 0, sum(self.unseen[t] for t in w)
            s = 1
        # Adding a tile changes one suit only: merge the other suits once, re-read that suit's table.
        suits = _suits(counts, shape.pair_258)
        others = [
            _merge(_merge(suits[1], suits[2]), suits[3]),
            _merge(_merge(suits[0], suits[2]), suits[3]),
            _merge(_merge(suits[0], suits[1]), suits[3]),
            _merge(_merge(suits[0], suits[1]), suits[2]),
        ]
        st = _stats(counts)
        n = sum(counts) + 1
        nm = shape.n_melds
        c = list(counts)
        useful = 0
        extra = _258_TILES if shape.all_258_melds and shape.pair_258 else ()
        for t in _neighbours(counts, self.kinds, extra):
            left = self.unseen[t]
            if not left or c[t] >= 4:
                continue
            x = t // 9
            lo = x * 9
            c[t] += 1
            key = tuple(c[lo : lo + (7 if x == 3 else 9)])
            new = _final(_suit_options(key, shape.pair_258, x == 3), others[x], nm)
            if new >= s:
                new = shape.side(tuple(c), _add_stats(st, counts, t), n, new)
            c[t] -= 1
            if new < s:
                useful += left
        return s, useful


def _remove(counts: Counts, tiles: Iterable[int]) -> Counts:
    c = list(counts)
    for t in tiles:
        c[t] -= 1
    return tuple(c)


def _discard_order(counts: Counts, t: int) -> float:
    """Lower = discard first: isolated honors, isolated terminals, isolated tiles, then connected ones;
    2/5/8 tiles (possible pairs) are kept a little longer."""
    if t >= SUITED_KINDS:
        return 0.0 if counts[t] == 1 else 4.0
    r = t % 9
    lo = t - r
    near = sum(counts[x] for x in range(max(lo, t - 2), min(lo + 8, t + 2) + 1) if x != t)
    score = 1.0 + near + 2.0 * (counts[t] - 1)
    if r in (0, 8):
        score -= 0.5
    elif r in (1, 7):
        score -= 0.25
    if is_258(t):
        score += 0.75
    return score


def _best_discard(
    ev: Evaluator, counts: Counts, tiles: Iterable[int], rng: random.Random
) -> tuple[int, int, int]:
    """(tile, shanten, useful) of the most efficient discard among ``tiles``."""
    cand = sorted(set(tiles))
    shan = {}
    for t in cand:
        c = list(counts)
        c[t] -= 1
        shan[t] = ev.shanten(tuple(c))
    low = min(shan.values())
    scored = []
    # Only discards keeping the lowest shanten are worth an ukeire count; with a lowest of 0 the
    # 1-shanten ones too, as a 'ready' hand may turn out to have no real wait.
    limit = 1 if low == 0 else low
    for t in cand:
        if shan[t] > limit:
            continue
        c = list(counts)
        c[t] -= 1
        s, useful = ev.value(tuple(c))
        scored.append((s, -useful, _discard_order(counts, t), rng.random(), t))
    scored.sort()
    s, neg_useful, _, _, t = scored[0]
    return t, s, -neg_useful


def _turn(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    ev = Evaluator(obs)
    counts = to_counts(obs.hand)
    discards = [a.tile for a in legal if a.act == Act.DISCARD and a.tile is not None]
    kongs = [a for a in legal if a.act == Act.KONG and a.tile is not None]
    if len(discards) == 1 and not kongs:
        return next(a for a in legal if a.act == Act.DISCARD)
    if not discards:
        return legal[0]
    tile, s_disc, _ = _best_discard(ev, counts, discards, rng)
    if kongs:
        best_kong: tuple[int, int, Action] | None = None
        for t in sorted({a.tile for a in kongs if a.tile is not None}):
            if counts[t] == 4:
                melds = (*ev.melds, Meld(MeldKind.KONG_CONCEALED, t))
                after = _remove(counts, (t,) * 4)
            else:
                melds = tuple(
                    Meld(MeldKind.KONG_ADDED, t, m.from_seat)
                    if m.kind == MeldKind.PUNG and m.tile == t
                    else m
                    for m in ev.melds
                )
                after = _remove(counts, (t,))
            kev = ev.with_melds(melds)
            s_k, u_k = kev.value(after)
            if s_k <= s_disc and (best_kong is None or (s_k, -u_k) < (best_kong[0], -best_kong[1])):
                options = [a for a in kongs if a.tile == t]
                best_kong = (s_k, u_k, _kong_mode(kev, after, options))
        if best_kong is not None:
            return best_kong[2]
    return next(a for a in legal if a.act == Act.DISCARD and a.tile == tile)


def _kong_mode(ev: Evaluator, after: Counts, options: Sequence[Action]) -> Action:
    """补张 unless 开杠 is legal and the locked hand would wait on many tiles."""
    kai = next((a for a in options if a.detail == "kai"), None)
    bu = next((a for a in options if a.detail != "kai"), options[0])
    if kai is not None:
        w = ev.waits(after)
        if len(w) >= 2 and sum(ev.unseen[t] for t in w) >= KAI_MIN_UNSEEN:
            return kai
    return bu


def _claim(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    pass_action = next((a for a in legal if a.act == Act.PASS), legal[0])
    claims = [a for a in legal if a.act in _CLAIM_RANK]
    tile = obs.claim_tile
    if not claims or tile is None:
        return pass_action
    ev = Evaluator(obs)
    counts = to_counts(obs.hand)
    s0, u0 = ev.value(counts)
    src = obs.claim_from
    best: tuple[tuple[int, int, int], Action] | None = None
    for a in claims:
        if a.act == Act.KONG:
            if counts[tile] < 3:
                continue
            kev = ev.with_melds((*ev.melds, Meld(MeldKind.KONG_EXPOSED, tile, src)))
            after = _remove(counts, (tile,) * 3)
            s, u = kev.value(after)
            if s > s0:
                continue
            chosen = _kong_mode(kev, after, [x for x in claims if x.act == Act.KONG])
            key = (s, -u, -_CLAIM_RANK[Act.KONG])
            if best is None or key < best[0]:
                best = (key, chosen)
            continue
        if a.act == Act.PUNG:
            meld = Meld(MeldKind.PUNG, tile, src)
            used: tuple[int, ...] = (tile, tile)
        else:
            assert a.tile is not None
            meld = Meld(MeldKind.CHOW, a.tile, src)
            used = tuple(x for x in (a.tile, a.tile + 1, a.tile + 2) if x != tile)
        after = _remove(counts, used)
        mev = ev.with_melds((*ev.melds, meld))
        held = [t for t in range(NUM_KINDS) if after[t]]
        if not held:
            continue
        _, s, u = _best_discard(mev, after, held, rng)
        if s < s0 or (s == s0 and u >= u0 and s0 > -1):
            key = (s, -u, -_CLAIM_RANK[a.act])
            if best is None or key < best[0]:
                best = (key, a)
    return best[1] if best is not None else pass_action


def _pre_hand(obs: Observation, picks: Sequence[Action]) -> Action:
    """定缺: the suit with the fewest tiles; 飘 / 加锤 and anything else: the default (listed first)."""
    suits = "msp"
    if all(a.detail in suits and a.detail for a in picks) and obs.hand:
        held = [sum(1 for t in obs.hand if t // 9 == suits.index(a.detail)) for a in picks]
        return picks[held.index(min(held))]
    return picks[0]


def choose(obs: Observation, rng: random.Random) -> Action:
    """The action this seat takes, from ``obs.legal``; deterministic given ``rng``'s state."""
    legal = obs.legal
    if not legal:
        raise ValueError(f"seat {obs.seat} has nothing to decide")
    for a in legal:
        if a.act == Act.WIN:
            return a
    picks = [a for a in legal if a.act == Act.CHOOSE]
    if picks:
        return _pre_hand(obs, picks)
    if obs.phase == Phase.OPENING:
        openings = [a for a in legal if a.act == Act.OPENING]
        if openings:
            return max(openings, key=lambda a: (len(a.detail.split("+")), a.detail))
        return legal[0]
    if obs.phase == Phase.HAIDI:
        return next((a for a in legal if a.act == Act.TAKE), legal[-1])
    if obs.phase == Phase.CLAIM:
        return _claim(obs, legal, rng)
    if obs.phase == Phase.TURN:
        return _turn(obs, legal, rng)
    return legal[0]
