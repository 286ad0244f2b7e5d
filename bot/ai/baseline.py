"""A heuristic AI seat that decides from its Observation only (never the State).

Policy, in order:

* always 胡 when a win is legal; declare every opening hand (the OPENING action with the most kinds);
  take the haidi when offered; a pre-hand choice: the variant's default (listed first);
* on a discard: claim 杠/碰/吃 only when it lowers the shanten, or keeps it without losing useful tiles;
* on its own turn: kong when that does not raise the shanten (补张, or 开杠 when ready with many waits),
  else discard by efficiency: lowest shanten after the discard, then most useful tiles still unseen
  (ukeire), then isolated and terminal tiles first (a variant's 2/5/8 pair tiles last).

The shanten is the engine's (``Variant.hand_shape``: engine/shanten.py by the variant's win shapes); when a
hand looks ready its real waits come from the variant, so a ready hand is never mistaken. Nothing here names
a variant.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine import Act, Action, KongMode, Observation, Phase, Variant, get_variant
from engine.melds import Meld, MeldKind
from engine.observe import unseen
from engine.tiles import NUM_KINDS, SUITED_KINDS, Counts, is_258, to_counts

# Claim kinds ranked for ties: a kong brings a free draw.
_CLAIM_RANK = {Act.KONG: 3, Act.PUNG: 2, Act.CHOW: 1}
# 开杠 locks the hand: do it only with at least this many unseen winning tiles.
KAI_MIN_UNSEEN = 6


class Evaluator:
    """Shanten and ukeire for one seat's decision, with the unseen tile counts fixed."""

    def __init__(self, obs: Observation, melds: Sequence[Meld] | None = None) -> None:
        self.obs = obs
        self.variant: Variant = get_variant(obs.variant)
        me = obs.seats[obs.seat]
        self.choice = me.choice
        self.melds: tuple[Meld, ...] = tuple(me.melds if melds is None else melds)
        self.shape = self.variant.hand_shape(self.melds)
        self.unseen = unseen(obs)

    def with_melds(self, melds: Sequence[Meld]) -> Evaluator:
        ev = object.__new__(Evaluator)
        ev.obs, ev.variant, ev.unseen, ev.choice = self.obs, self.variant, self.unseen, self.choice
        ev.melds = tuple(melds)
        ev.shape = self.variant.hand_shape(ev.melds)
        return ev

    def shanten(self, counts: Counts) -> int:
        """The engine's shanten lower bound by the variant's shapes (the waits check is in ``value``)."""
        return self.shape.shanten(counts)

    def waits(self, counts: Counts) -> list[int]:
        return self.variant.waits(counts, self.melds, self.obs.options, self.choice)

    def value(self, counts: Counts) -> tuple[int, int]:
        """(shanten, unseen useful tiles) of a 3k+1 hand: the variant's shanten (a 'ready' shape without
        real waits is 1-shanten, as ``Variant.shanten`` says)."""
        return self.finish(counts, self.level(counts))

    def level(self, counts: Counts, s: int | None = None) -> tuple[int, int | None]:
        """The first half of ``value``: (the variant's shanten, the unseen winning tiles when ready, else
        None). ``s``: the shape's shanten of ``counts`` if known."""
        if s is None:
            s = self.shape.shanten(counts)
        if s == 0:
            w = self.waits(counts)
            if w:
                return 0, sum(self.unseen[t] for t in w)
            s = 1
        return s, None

    def finish(self, counts: Counts, level: tuple[int, int | None]) -> tuple[int, int]:
        """The second half of ``value``: the useful tiles (ukeire) counted for a hand not ready."""
        s, ready = level
        if ready is not None:
            return s, ready
        extra = self.variant.wait_candidates(counts, self.melds)
        return s, self.shape.useful(counts, s, self.unseen, extra)


def _remove(counts: Counts, tiles: Iterable[int]) -> Counts:
    c = list(counts)
    for t in tiles:
        c[t] -= 1
    return tuple(c)


def _discard_order(counts: Counts, t: int, pair_258: bool) -> float:
    """Lower = discard first: isolated honors, isolated terminals, isolated tiles, then connected ones;
    where the small hand needs a 2/5/8 pair, 2/5/8 tiles are kept a little longer."""
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
    if pair_258 and is_258(t):
        score += 0.75
    return score


def _best_discard(
    ev: Evaluator, counts: Counts, tiles: Iterable[int], rng: random.Random, worst: int | None = None
) -> tuple[int, int, int]:
    """(tile, shanten, useful) of the most efficient discard among ``tiles``. When even the best
    discard's shanten is above ``worst`` (a claim that would make the hand worse) the answer is only
    that: (-1, its shanten, 0), with no useful tiles counted."""
    view = ev.shape.discards(counts)  # the hand's per-suit work shared by its discards
    cand = []
    for t in sorted(set(tiles)):
        c = list(counts)
        c[t] -= 1
        after = tuple(c)
        cand.append((view.shanten(t, after), t, after))
    low = min(x[0] for x in cand)
    # Only discards keeping the lowest shanten are worth an ukeire count; with a lowest of 0 the
    # 1-shanten ones too, as a 'ready' hand may turn out to have no real wait.
    limit = 1 if low == 0 else low
    ranked = []
    for shape_s, t, after in cand:
        if shape_s > limit:
            continue
        # the variant's shanten first (a 'ready' shape without real waits is 1-shanten): the tie-break
        # draws are taken in the same order as ever, whichever candidates are then counted
        ranked.append((ev.level(after, shape_s), t, after, rng.random()))
    best = min(r[0][0] for r in ranked)
    if worst is not None and best > worst:
        return -1, best, 0
    # every discard left has the best shanten: the most useful tiles win, then (ties only) the discard order
    # and the tie-break draw, as in sorting (shanten, -useful, order, draw, tile)
    scored = []
    most = -1
    for level, t, after, tie in ranked:
        if level[0] > best:
            continue  # a higher shanten never wins, whatever it counts: not counted
        s, useful = level
        if useful is None:
            useful = view.useful(t, after, s, ev.unseen, ev.variant.wait_candidates(after, ev.melds))
        if useful > most:
            most = useful
        scored.append((useful, tie, t))
    top = [(tie, t) for useful, tie, t in scored if useful == most]
    if len(top) > 1:
        pair_258 = ev.variant.shapes.pair_258
        _, _, t = min((_discard_order(counts, t, pair_258), tie, t) for tie, t in top)
    else:
        t = top[0][1]
    return t, best, most


def _kong_hand(ev: Evaluator, counts: Counts, t: int) -> tuple[tuple[Meld, ...], Counts]:
    """(melds, concealed tiles) after a kong of ``t`` on this seat's turn: concealed with four held, else a
    pung of ``t`` made into a kong."""
    if counts[t] == 4:
        return (*ev.melds, Meld(MeldKind.KONG_CONCEALED, t)), _remove(counts, (t,) * 4)
    melds = tuple(
        Meld(MeldKind.KONG_ADDED, t, m.from_seat) if m.kind == MeldKind.PUNG and m.tile == t else m
        for m in ev.melds
    )
    return melds, _remove(counts, (t,))


def best_kong(ev: Evaluator, counts: Counts, kongs: Sequence[Action], s_disc: int) -> Action | None:
    """The kong to make on this seat's turn, if any: the one leaving the lowest shanten, then the most useful
    tiles, among those no worse than ``s_disc`` (the shanten of the discard it would replace)."""
    best: tuple[int, int, Action] | None = None
    for t in sorted({a.tile for a in kongs if a.tile is not None}):
        melds, after = _kong_hand(ev, counts, t)
        kev = ev.with_melds(melds)
        s_k, u_k = kev.value(after)
        if s_k <= s_disc and (best is None or (s_k, -u_k) < (best[0], -best[1])):
            options = [a for a in kongs if a.tile == t]
            best = (s_k, u_k, _kong_mode(kev, after, options))
    return best[2] if best is not None else None


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
        kong = best_kong(ev, counts, kongs, s_disc)
        if kong is not None:
            return kong
    return next(a for a in legal if a.act == Act.DISCARD and a.tile == tile)


def _kong_mode(ev: Evaluator, after: Counts, options: Sequence[Action]) -> Action:
    """补张 unless 开杠 is legal and the locked hand would wait on many tiles."""
    kai = next((a for a in options if a.kong_mode == KongMode.KAI), None)
    bu = next((a for a in options if a.kong_mode != KongMode.KAI), options[0])
    if kai is not None:
        w = ev.waits(after)
        if len(w) >= 2 and sum(ev.unseen[t] for t in w) >= KAI_MIN_UNSEEN:
            return kai
    return bu


def claimed_meld(a: Action, tile: int, src: int | None) -> tuple[Meld, tuple[int, ...]]:
    """(the meld, the tiles it takes from the hand) of claiming ``tile`` by the pung or chow ``a``."""
    if a.act == Act.PUNG:
        return Meld(MeldKind.PUNG, tile, src), (tile, tile)
    assert a.tile is not None
    return Meld(MeldKind.CHOW, a.tile, src), tuple(x for x in (a.tile, a.tile + 1, a.tile + 2) if x != tile)


_ClaimKey = tuple[int, int, int]


def _claim_kong(
    ev: Evaluator, counts: Counts, tile: int, src: int | None, s0: int, claims: Sequence[Action]
) -> tuple[_ClaimKey, Action] | None:
    """(rank key, action) of claiming ``tile`` for a kong, when it keeps the shanten at most ``s0``."""
    if counts[tile] < 3:
        return None
    kev = ev.with_melds((*ev.melds, Meld(MeldKind.KONG_EXPOSED, tile, src)))
    after = _remove(counts, (tile,) * 3)
    s, u = kev.value(after)
    if s > s0:
        return None
    chosen = _kong_mode(kev, after, [x for x in claims if x.act == Act.KONG])
    return (s, -u, -_CLAIM_RANK[Act.KONG]), chosen


def _claim_set(
    ev: Evaluator, counts: Counts, a: Action, tile: int, src: int | None, rng: random.Random, s0: int
) -> tuple[int, int] | None:
    """(shanten, useful tiles) after claiming ``tile`` by the pung or chow ``a`` and the best discard (only
    the shanten when it would be above ``s0``); None when the claim would leave nothing to throw."""
    meld, used = claimed_meld(a, tile, src)
    after = _remove(counts, used)
    held = [t for t in range(NUM_KINDS) if after[t]]
    if not held:
        return None
    _, s, u = _best_discard(ev.with_melds((*ev.melds, meld)), after, held, rng, worst=s0)
    return s, u


def _claim(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    pass_action = next((a for a in legal if a.act == Act.PASS), legal[0])
    claims = [a for a in legal if a.act in _CLAIM_RANK]
    tile = obs.claim_tile
    if not claims or tile is None:
        return pass_action
    ev = Evaluator(obs)
    counts = to_counts(obs.hand)
    level0 = ev.level(counts)
    s0 = level0[0]
    u0: int | None = None  # the useful tiles of the hand as it is: counted once a claim keeps its shanten
    src = obs.claim_from
    best: tuple[_ClaimKey, Action] | None = None
    for a in claims:
        if a.act == Act.KONG:
            found = _claim_kong(ev, counts, tile, src, s0, claims)
            if found is not None and (best is None or found[0] < best[0]):
                best = found
            continue
        found_set = _claim_set(ev, counts, a, tile, src, rng, s0)
        if found_set is None:
            continue
        s, u = found_set
        if s == s0 and u0 is None:
            u0 = ev.finish(counts, level0)[1]
        if s < s0 or (s == s0 and u >= (u0 or 0) and s0 > -1):
            key = (s, -u, -_CLAIM_RANK[a.act])
            if best is None or key < best[0]:
                best = (key, a)
    return best[1] if best is not None else pass_action


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
        return picks[0]  # the variant lists its default first (定缺: the suit with the fewest tiles)
    if obs.phase == Phase.OPENING:
        openings = [a for a in legal if a.act == Act.OPENING]
        if openings:
            return max(openings, key=lambda a: len(a.opening_hands))  # one action declares them all
        return legal[0]
    if obs.phase == Phase.HAIDI:
        return next((a for a in legal if a.act == Act.TAKE), legal[-1])
    if obs.phase == Phase.CLAIM:
        return _claim(obs, legal, rng)
    if obs.phase == Phase.TURN:
        return _turn(obs, legal, rng)
    return legal[0]
