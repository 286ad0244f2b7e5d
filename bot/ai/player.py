"""The value-aware, defending AI (levels 普通 and 高手; docs/ai.md says how it decides).

Every discard is scored as what the hand left is expected to win minus what the tile is expected to cost:

    score(t) = P(win | shanten, useful tiles, wall left) × value of the hand − danger(t)

The value is the variant's own price of the hand (value.py: exact per wait when ready, else the best route: a
plain hand, or a big one the hand is close to); the danger is defence.py's (高手 only). With no value to gain
and no danger it plays as the baseline: the lowest shanten, the most useful tiles, then the same discard
order (baseline.py). Claims compare the best score after the claim with passing; kongs, the opening and the
haidi are decided by what they bring. Nothing here names a variant or reads anything but the Observation.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine import Act, Action, KongMode, Observation, Phase
from engine.melds import Meld, MeldKind
from engine.shanten import shanten_shape
from engine.tiles import NUM_KINDS, SUITED_KINDS, Counts, to_counts

from . import baseline
from .baseline import Evaluator, _discard_order, _remove
from .defence import danger, dead_suits, read_threats, table_suits
from .levels import Level
from .value import (
    ALL_258,
    ONE_SUIT,
    PAIRS,
    PLAIN,
    PUNGS,
    Occasion,
    Table,
    example,
    kong_money,
    may_claim,
    p_win,
    price,
    route_shanten,
    win_info,
)

# danger counts at this share of its expected cost: the seats around fold nothing, so a hand pushed on wins
# often enough to pay for some risk (measured in the duel: docs/ai.md)
_DANGER_SCALE = 0.3
_BIG_ROUTES = (ONE_SUIT, PUNGS, PAIRS, ALL_258)
_ROUTE_USEFUL = 6  # useful tiles assumed on a big route's way (not counted: too slow)


class Reader:
    """One decision's view: the baseline's evaluator (shanten, useful tiles, unseen copies), the variant's
    prices of this seat's routes and the danger of each tile."""

    def __init__(self, obs: Observation, level: Level, melds: Sequence[Meld] | None = None) -> None:
        self.obs = obs
        self.level = level
        self.ev = Evaluator(obs, melds)
        self.variant = self.ev.variant
        self.table = Table.of(obs, self.variant)
        self.me = obs.seat
        self.unseen = self.ev.unseen
        self.n_unseen = max(1, sum(self.unseen))
        active = [ps.seat for ps in obs.seats if not ps.won]
        self.opponents = [s for s in active if s != self.me]
        reserve = self.variant.wall_reserve(obs.options)
        self.draws = max(0, obs.wall_remaining - reserve) / max(1, len(active))
        self.suits = table_suits(self.table)
        self.dead = dead_suits(self.table, self.me)
        self.live = [s for s in self.suits if s not in self.dead] or list(self.suits)
        self._routes: dict[tuple[Meld, ...], dict[str, tuple[float, float, float]]] = {}
        self._pair_weights: dict[int, float] = {}
        self.danger: list[float] | None = None
        held = to_counts(obs.hand)
        self.kinds = [t for t in range(NUM_KINDS) if self.unseen[t] or held[t]]
        if level.defence:
            threats = read_threats(obs, self.table, self.unseen, self.kinds)
            if threats:
                self.danger = danger(threats, _DANGER_SCALE)

    def with_melds(self, melds: Sequence[Meld]) -> Reader:
        """This view for the hand after a claim or a kong with ``melds``: the same table, unseen tiles, prices
        and danger (read once per decision), the evaluator's shape for the new melds."""
        rd = copy.copy(self)
        rd.ev = self.ev.with_melds(melds)
        return rd

    def pair_weight(self, t: int) -> float:
        """How much more an unseen copy of ``t`` counts among the useful tiles while the hand holds a pair of
        it: it may come from any seat's discard (碰), unless the variant lets nobody pung it (a wild tile)."""
        found = self._pair_weights.get(t)
        if found is None:
            found = self._pair_weights[t] = (
                _PAIR_WEIGHT if may_claim(self.table, self.me, Act.PUNG, t) else 0.0
            )
        return found

    def ron_possible(self, counts: Counts) -> bool:
        """May this seat's plain hand be won on a discard (the variant prices such a win)?"""
        plain = self.routes(self.ev.melds, self.main_suits(counts, self.ev.melds)).get(PLAIN)
        return plain is not None and plain[1] > 0

    # ---------------------------------------------------------------- values

    def _ron(self, available: bool) -> float:
        return 0.5 * len(self.opponents) if available else 0.0

    def _priced(self, hand: Counts, melds: tuple[Meld, ...]) -> tuple[float, float]:
        """(self-draw, discard) worth of a complete hand of this seat (0: no such win)."""
        table, me = self.table, self.me
        info = win_info(table, me, hand, melds, True, None)
        ps = price(table, info, True, me, None, hand, melds) if info is not None else 0.0
        pr = 0.0
        if self.opponents:
            payer = self.opponents[0]
            info_r = win_info(table, me, hand, melds, False, payer)
            if info_r is not None:
                pr = sum(price(table, info_r, False, me, p, hand, melds) for p in self.opponents)
                pr /= len(self.opponents)
        return ps, pr

    def _blend(self, ps: float, pr: float) -> tuple[float, float]:
        """(value per win, the ron factor): a win's worth mixed over self-draws and wins on discards."""
        ron = self._ron(pr > 0)
        return (ps + ron * pr) / (1.0 + ron), ron

    def routes(self, melds: tuple[Meld, ...], main: Sequence[int]) -> dict[str, tuple[float, float, float]]:
        """route → (value per win, ron factor, its plain worth ratio) of example hands around ``melds``."""
        key = (*melds, *(Meld(MeldKind.PUNG, 27 + s) for s in main))  # main suits folded into the key
        found = self._routes.get(key)
        if found is not None:
            return found
        out: dict[str, tuple[float, float, float]] = {}
        for route in (PLAIN, *_BIG_ROUTES):
            hand = example(route, melds, main)
            if hand is None:
                continue
            ps, pr = self._priced(hand, melds)
            if ps <= 0 and pr <= 0:
                continue
            v, ron = self._blend(ps, pr)
            out[route] = (v, ron, 0.0)
        self._routes[key] = out
        return out

    def main_suits(self, counts: Counts, melds: tuple[Meld, ...]) -> list[int]:
        held = {s: sum(counts[s * 9 : s * 9 + 9]) for s in self.live}
        for m in melds:
            if m.tile < SUITED_KINDS and m.tile // 9 in held:
                held[m.tile // 9] += 3
        return sorted(held, key=lambda s: (-held[s], s))

    def attack(
        self, counts: Counts, melds: tuple[Meld, ...], s: int, useful: int, waits: list[int] | None
    ) -> tuple[float, float]:
        """(the chance to win, the value of a win) of the 3k+1 hand ``counts``: shanten ``s``, ``useful``
        tiles (ready: ``waits``)."""
        if s == 0 and waits:
            total = 0.0
            live = 0
            ron_any = False
            for w in waits:
                a = self.unseen[w]
                if not a:
                    continue
                c = list(counts)
                c[w] += 1
                ps, pr = self._priced(tuple(c), melds)
                ron_any = ron_any or pr > 0
                ron = self._ron(pr > 0)
                total += a * (ps + ron * pr) / (1.0 + ron)
                live += a
            if not live:
                return 0.0, 0.0
            return p_win(0, live, self.draws, self.n_unseen, self._ron(ron_any)), total / live
        main = self.main_suits(counts, melds)
        routes = self.routes(melds, main)
        plain = routes.get(PLAIN)
        best = (0.0, 0.0)
        if plain is not None:
            best = (p_win(s, useful, self.draws, self.n_unseen, plain[1]), plain[0])
        if not self.level.value:
            return best
        base = plain[0] if plain is not None else 0.0
        for route in _BIG_ROUTES:
            r = routes.get(route)
            if r is None or r[0] <= 1.3 * base:
                continue
            rs = route_shanten(route, counts, melds, main[0] if main else 0)
            if rs > s + 2 or rs > 4:
                continue
            u = useful if rs == s else _ROUTE_USEFUL
            p = p_win(rs, u, self.draws, self.n_unseen, r[1])
            if p * r[0] > best[0] * best[1]:
                best = (p, r[0])
        return best


def _waits(ev: Evaluator, counts: Counts) -> list[int]:
    return ev.waits(counts)


@dataclass(frozen=True, slots=True)
class Scored:
    """One discard: its efficiency (shanten, useful tiles — ``reach``: with a pair's tiles counted twice, a
    ready hand's waits by how often they are thrown —, discard order, tie-break draw) and what the hand left
    is worth: the chance to win, the value of a win, the tile's danger."""

    tile: int
    s: int
    useful: int
    reach: float
    order: float
    tie: float
    p: float
    v: float
    danger: float

    @property
    def ev(self) -> float:
        return self.p * self.v - self.danger

    @property
    def key(self) -> tuple[int, float, float, float]:
        return (self.s, -self.reach, self.order, self.tie)


# how often the seats around throw a tile of each rank, against the average, where a small hand needs a 2/5/8
# pair (measured in baseline self-play: the 1s and 9s go first, the 5s last): a ready hand's waits are weighed
# by it where discards may be won on. Without the 2/5/8 pair the ranks are thrown more evenly (1.25 at the
# ends) and weighing by them measured no gain (docs/ai.md), so there waits count as they are.
_THROWN_258 = (1.6, 0.8, 0.9, 0.9, 0.55, 0.9, 0.95, 0.8, 1.65)

# a discard other than the baseline's must have a reason: a win worth this much more, or this much less danger
_VALUE_REASON = 1.25
_DANGER_REASON = 0.03
_DEVIATE = 0.03  # … and an expected score better by this (底分) and this share of the baseline's
_DEVIATE_SHARE = 0.1
# a safer discard may give up this share of the baseline's useful tiles, no more
_SAFE_USEFUL = 0.8
# … but a hand this many steps or more from ready whose discard is this dangerous (weighed danger: an expected
# cost of a third of a 底分 — in play, a likely wait of a big hand) throws the safest tile at most a step
# further instead, if that costs at most this share as much (docs/ai.md "Defence")
_FOLD_FAR = 2
_FOLD_DANGER = 0.1
_FOLD_SHARE = 0.25
# a kong's risk (its tile robbed, the discard after it won on) counts at this multiple of the read: the
# read of a rob fell short of it (转转: 26 of 390 added kongs robbed where it read 14.6; docs/ai.md "A
# kong's risk")
_KONG_RISK = 2.0
# a claim that costs a concealed hand's bonus (门前清) is made only when the hand it leaves is worth more, its
# chance to win read at this share (the model overrates a claim's step: measured in the duel, docs/ai.md)
_CLAIM_READ = 0.75
# a hand not ready counts each unseen copy of a tile it holds a pair of this much more among its useful tiles:
# three seats' discards may bring it (碰), where a run's missing tile comes from the wall or one seat (吃);
# measured in the duel (docs/ai.md: 0.5 and 2.0 lower, and 0.4 lower where the variant has 吃)
_PAIR_WEIGHT = 1.0


def _score_discards(rd: Reader, counts: Counts, tiles: Sequence[int], rng: random.Random) -> list[Scored]:
    """Every discard among ``tiles`` at the lowest shanten (the variant's: a 'ready' shape without a real wait
    is 1-shanten, so the shape's next step is read too), with what the hand left is worth; ``pick`` chooses
    among them."""
    ev = rd.ev
    view = ev.shape.discards(counts)
    cand = []
    for t in sorted(set(tiles)):
        c = list(counts)
        c[t] -= 1
        after = tuple(c)
        cand.append((view.shanten(t, after), t, after))
    low = min(x[0] for x in cand)
    limit = low + 1
    pair_258 = ev.variant.shapes.pair_258
    read = []
    for shape_s, t, after in cand:
        tie = rng.random()  # drawn for every discard, so the draws do not depend on which are scored
        if shape_s > limit:
            continue
        waits = _waits(ev, after) if shape_s == 0 else None
        if shape_s == 0 and waits:
            s, useful = 0, sum(rd.unseen[w] for w in waits)
        else:
            s = 1 if shape_s == 0 else shape_s
            useful = view.useful(t, after, s, ev.unseen, ev.variant.wait_candidates(after, ev.melds))
            waits = None
        read.append((s, useful, waits, t, after, tie))
    best_s = min(r[0] for r in read)
    out = []
    for s, useful, waits, t, after, tie in read:
        if s > best_s:
            continue  # never picked: only the values of discards at the lowest shanten are worth reading
        p, v = rd.attack(after, ev.melds, s, useful, waits)
        d = rd.danger[t] if rd.danger is not None else 0.0
        reach = float(useful)
        if s >= 1:  # a pair's third tile may come from anyone's discard (碰), not only from the wall
            reach += sum(rd.unseen[k] * rd.pair_weight(k) for k in range(NUM_KINDS) if after[k] == 2)
        elif waits and pair_258 and rd.ron_possible(after):
            reach = sum(
                rd.unseen[w] * _THROWN_258[w % 9] if w < SUITED_KINDS else rd.unseen[w] for w in waits
            )
        out.append(Scored(t, s, useful, reach, _discard_order(counts, t, pair_258), tie, p, v, d))
    return out


def pick(scored: Sequence[Scored]) -> Scored:
    """The most efficient discard (``Scored.key``: the baseline's order, by ``reach``), unless another as
    close to winning (the same shanten) has a reason — a pricier win, or less danger without giving up many
    useful tiles — and a clearly better expected score. Neither value nor safety is bought with a step away
    from winning (measured in the duel, that lost: docs/ai.md), but for one case: a hand two steps or more
    from ready does not throw a tile that would likely feed a big hand when a far safer one is at most a step
    further."""
    base = min(scored, key=lambda x: x.key)
    best = base
    for x in scored:
        if x is base or x.s != base.s:
            continue
        pricier = x.v >= _VALUE_REASON * base.v
        safer = x.danger <= base.danger - _DANGER_REASON and x.useful >= _SAFE_USEFUL * base.useful
        if (pricier or safer) and x.ev > best.ev:
            best = x
    chosen = base
    if best is not base and best.ev > base.ev + _DEVIATE + _DEVIATE_SHARE * abs(base.ev):
        chosen = best
    if chosen.s >= _FOLD_FAR and chosen.danger >= _FOLD_DANGER:
        safest = min((x for x in scored if x.s <= chosen.s + 1), key=lambda x: (x.danger, x.key))
        if safest.danger <= _FOLD_SHARE * chosen.danger and safest.ev > chosen.ev:
            return safest
    return chosen


def _turn(obs: Observation, legal: Sequence[Action], rng: random.Random, level: Level) -> Action:
    discards = [a.tile for a in legal if a.act == Act.DISCARD and a.tile is not None]
    kongs = [a for a in legal if a.act == Act.KONG and a.tile is not None]
    if len(discards) == 1 and not kongs:
        return next(a for a in legal if a.act == Act.DISCARD)
    if not discards:
        return legal[0]
    rd = Reader(obs, level)
    counts = to_counts(obs.hand)
    chosen = pick(_score_discards(rd, counts, discards, rng))
    if kongs:
        kong = baseline.best_kong(rd.ev, counts, kongs, chosen.s)
        if kong is None and level.value:
            kong = _paid_kong(rd, counts, kongs, chosen)
        if kong is not None and level.defence:
            kong = _kong_worth_its_risk(rd, counts, kong, kongs, chosen)
        if kong is not None:
            return kong
    return next(a for a in legal if a.act == Act.DISCARD and a.tile == chosen.tile)


def _plain(rd: Reader, counts: Counts, melds: tuple[Meld, ...]) -> float:
    """What a plain win of this hand is worth (its example's price): more while it is concealed where the
    variant pays for 门前清."""
    r = rd.routes(melds, rd.main_suits(counts, melds)).get(PLAIN)
    return r[0] if r is not None else 0.0


def _worth(rd: Reader, counts: Counts, melds: tuple[Meld, ...]) -> float:
    """What the 3k+1 hand ``counts`` with ``melds`` is expected to win (P(win) × value)."""
    ev = rd.ev if melds == rd.ev.melds else rd.ev.with_melds(melds)
    s, ready = ev.level(counts)
    waits = ev.waits(counts) if ready is not None else None
    useful = ready if ready is not None else ev.finish(counts, (s, None))[1]
    p, v = rd.attack(counts, melds, s, useful, waits)
    return p * v


def _self_draw_worth(
    rd: Reader, counts: Counts, melds: tuple[Meld, ...], waits: Sequence[int], occ: Occasion
) -> float:
    """What the one tile the 3k+1 hand ``counts`` draws next is expected to win it, self-drawn on ``occ``
    (海底捞月, 杠上开花): each wait by its unseen copies, priced by the variant."""
    gain = 0.0
    for w in waits:
        c = list(counts)
        c[w] += 1
        hand = tuple(c)
        info = win_info(rd.table, rd.me, hand, melds, True, None, occ)
        if info is not None:
            gain += rd.unseen[w] / rd.n_unseen * price(rd.table, info, True, rd.me, None, hand, melds, occ)
    return gain


def _unseen_tile_risk(rd: Reader, waits: Sequence[int], occ: Occasion) -> float:
    """What a tile drawn unseen and given up on ``occ`` (the shown haidi tile, the tile an 开杠 turns up)
    is expected to cost if it does not win for this seat: over the unseen tiles, each opponent's P(ready) ×
    P(it is his wait) × what he would be paid."""
    n = rd.n_unseen
    risk = 0.0
    for th in read_threats(rd.obs, rd.table, rd.unseen, rd.kinds, occ):
        risk += th.ready * th.loss * sum(rd.unseen[t] / n * th.waits[t] for t in rd.kinds if t not in waits)
    return risk


def _kong_worth_its_risk(
    rd: Reader, counts: Counts, kong: Action, kongs: Sequence[Action], chosen: Scored
) -> Action | None:
    """``kong`` if it is worth what it risks beyond the discard it puts off (``chosen``), else its 补张 if
    that is (where the variant offers 开杠 too), else None. The tile added to a pung may be robbed (抢杠: the
    robber is paid, the kong's money is not); the discard after any kong may be won on where an ordinary one
    may not be, or pays more (杠上炮); the tile an 开杠 turns up falls if it does not win, and may be won on
    (杠上炮 again). Each read as the danger is, priced by the variant for that win, at ``_KONG_RISK``. The
    kong brings its money, its replacement tile (a ready hand's chance to win on it, priced as such: 杠上开花)
    and any gain in what the hand is worth; where it risks nothing it is made."""
    t = kong.tile
    assert t is not None
    kind = MeldKind.KONG_CONCEALED if counts[t] == 4 else MeldKind.KONG_ADDED
    mode = KongMode.KAI if kong.kong_mode == KongMode.KAI else KongMode.BU  # as the engine draws it
    money = kong_money(rd.table, rd.me, t, kind, None)
    melds, left = baseline._kong_hand(rd.ev, counts, t)
    waits = rd.ev.with_melds(melds).waits(left)
    risk = 0.0
    if kind == MeldKind.KONG_ADDED:
        for th in read_threats(rd.obs, rd.table, rd.unseen, rd.kinds, Occasion(robbed=True)):
            risk += th.ready * th.waits[t] * (th.loss + money)
    if mode == KongMode.KAI:
        risk += _unseen_tile_risk(rd, waits, Occasion(after_kong=mode, kong_discard=True))
    else:
        after = read_threats(rd.obs, rd.table, rd.unseen, rd.kinds, Occasion(after_kong=mode))
        if after:
            now = rd.danger[chosen.tile] / _DANGER_SCALE if rd.danger is not None else 0.0
            risk += max(0.0, danger(after)[chosen.tile] - now)
    if risk <= 0:
        return kong
    gain = money + max(0.0, _worth(rd, left, melds) - chosen.p * chosen.v)
    gain += _self_draw_worth(rd, left, melds, waits, Occasion(kong_draw=mode))
    if gain >= _KONG_RISK * risk:
        return kong
    bu = next((a for a in kongs if a.tile == t and a.kong_mode != KongMode.KAI), None)
    if mode == KongMode.KAI and bu is not None:
        return _kong_worth_its_risk(rd, counts, bu, kongs, chosen)
    return None


def _paid_kong(rd: Reader, counts: Counts, kongs: Sequence[Action], chosen: Scored) -> Action | None:
    """A kong the variant pays for (杠钱, 刮风下雨) although it costs a step toward winning: made when its
    money and what the hand is still worth beat the discard's expected win."""
    best: tuple[float, Action] | None = None
    stay = chosen.p * chosen.v
    for t in sorted({a.tile for a in kongs if a.tile is not None}):
        kind = MeldKind.KONG_CONCEALED if counts[t] == 4 else MeldKind.KONG_ADDED
        if kind == MeldKind.KONG_ADDED and t != rd.obs.drawn:
            continue  # a fourth tile kept past a discard may pay nothing (四川's 过手杠)
        money = kong_money(rd.table, rd.me, t, kind, None)
        if money <= 0:
            continue
        melds, after = baseline._kong_hand(rd.ev, counts, t)
        worth = money + _worth(rd, after, melds)
        if worth > stay + _DEVIATE and (best is None or worth > best[0]):
            options = [a for a in kongs if a.tile == t]
            best = (worth, baseline._kong_mode(rd.ev.with_melds(melds), after, options))
    return best[1] if best is not None else None


def _claim(obs: Observation, legal: Sequence[Action], rng: random.Random, level: Level) -> Action:
    pass_action = next((a for a in legal if a.act == Act.PASS), legal[0])
    claims = [a for a in legal if a.act in (Act.PUNG, Act.CHOW, Act.KONG)]
    tile = obs.claim_tile
    if not claims or tile is None:
        return pass_action
    base_choice = baseline._claim(obs, legal, rng)
    if not level.value:
        return base_choice
    rd: Reader | None = None
    if base_choice.act in (Act.PASS, Act.PUNG) and any(a.act == Act.KONG for a in legal):
        rd = Reader(obs, level)
        paid = _paid_claim_kong(rd, legal, tile, base_choice, rng)
        if paid is not None:
            return paid
    if base_choice.act in (Act.PASS, Act.KONG):
        # claims as the baseline makes them: claiming for value measured worse in the duel (docs/ai.md); a
        # kong never raises the shanten here, and brings its money and a free draw
        return base_choice
    if rd is None:
        rd = Reader(obs, level)
    ev = rd.ev
    counts = to_counts(obs.hand)
    meld, used = baseline.claimed_meld(base_choice, tile, obs.claim_from)
    after = _remove(counts, used)
    crd = rd.with_melds((*ev.melds, meld))
    concealed = _plain(rd, counts, ev.melds) >= _VALUE_REASON * _plain(crd, after, crd.ev.melds)
    if rd.danger is None and not concealed:
        return base_choice
    claimed = pick(_score_discards(crd, after, [t for t in range(NUM_KINDS) if after[t]], rng))
    held = _worth(rd, counts, ev.melds)
    if concealed and held > _CLAIM_READ * claimed.p * claimed.v + _DEVIATE:
        return pass_action  # the hand is worth more concealed (门前清) than the claim makes it faster
    if rd.danger is None:
        return base_choice
    # passing keeps the safest tile of the hand for the next discard
    stay = held - min(rd.danger[t] for t in range(NUM_KINDS) if counts[t])
    if claimed.danger >= _DANGER_REASON and stay > claimed.ev + _DEVIATE:
        return pass_action  # the claim would leave only dangerous tiles to throw
    return base_choice


def _paid_claim_kong(
    rd: Reader, legal: Sequence[Action], tile: int, base_choice: Action, rng: random.Random
) -> Action | None:
    """A kong on a discard the variant pays for (直杠), made where the baseline passes or pungs, when its
    money and what the hand is still worth beat what passing or the pung is worth."""
    obs = rd.obs
    money = kong_money(rd.table, rd.me, tile, MeldKind.KONG_EXPOSED, obs.claim_from)
    if money <= 0:
        return None
    counts = to_counts(obs.hand)
    melds = (*rd.ev.melds, Meld(MeldKind.KONG_EXPOSED, tile, obs.claim_from))
    after = _remove(counts, (tile,) * 3)
    if base_choice.act == Act.PASS:
        stay = _worth(rd, counts, rd.ev.melds)
    else:  # the pung, then its best discard
        meld, used = baseline.claimed_meld(base_choice, tile, obs.claim_from)
        left = _remove(counts, used)
        crd = rd.with_melds((*rd.ev.melds, meld))
        best = pick(_score_discards(crd, left, [t for t in range(NUM_KINDS) if left[t]], rng))
        stay = best.p * best.v
    if money + _worth(rd, after, melds) > stay + _DEVIATE:
        kongs = [a for a in legal if a.act == Act.KONG]
        return baseline._kong_mode(rd.ev.with_melds(melds), after, kongs)
    return None


def _choose_choice(obs: Observation, picks: Sequence[Action], level: Level) -> Action:
    """定缺 by what the hand keeps (its shanten with the void suit as dead weight, then fewest tiles to
    throw); 换三张 and blind choices (飘, 加锤): the variant's suggestion."""
    if len(picks) == 1 or not obs.hand or not level.value:
        return picks[0]
    rd_table = Table.of(obs, Reader(obs, level).variant)
    values = [a.choice for a in picks]
    if rd_table.variant.choice_pick(values) is not None:
        return picks[0]
    counts = to_counts(obs.hand)
    best: tuple[tuple[float, ...], Action] | None = None
    for i, a in enumerate(picks):
        choices = list(rd_table.choices)
        choices[obs.seat] = a.choice
        t2 = Table(rd_table.variant, obs, rd_table.seats, tuple(choices), rd_table.won, rd_table.base)
        dead = dead_suits(t2, obs.seat)
        c = list(counts)
        off = 0
        for s in dead:
            off += sum(c[s * 9 : s * 9 + 9])
            c[s * 9 : s * 9 + 9] = [0] * 9
        for k in range(min(off, 7)):
            c[27 + k] += 1
        sh = shanten_shape(tuple(c), 0, False)
        live = [sum(counts[s * 9 : s * 9 + 9]) for s in range(3) if s not in dead]
        one_suit = 1 if live and max(live) >= 10 else 0
        key = (sh - 0.5 * one_suit, off, i)
        if best is None or key < best[0]:
            best = (key, a)
    assert best is not None
    return best[1]


def _haidi(obs: Observation, legal: Sequence[Action], level: Level) -> Action:
    """Take the last tile only with a ready hand: a hand that cannot win on it only risks it being won on.
    The expert takes it only when what it may win on it (海底捞月, each wait by its unseen copies) is worth
    at least what it risks: a tile it cannot win on is shown, and a seat that wins on it is paid by the
    taker (海底炮), read as the danger is, over the unseen tiles."""
    take = next((a for a in legal if a.act == Act.TAKE), None)
    refuse = next((a for a in legal if a.act != Act.TAKE), None)
    if take is None or refuse is None or not level.value:
        return take or legal[-1]
    rd = Reader(obs, level)
    counts = to_counts(obs.hand)
    waits = rd.ev.waits(counts) if sum(counts) % 3 == 1 else []
    if not waits:
        return refuse
    if not level.defence:
        return take
    haidi = Occasion(haidi=True)
    gain = _self_draw_worth(rd, counts, rd.ev.melds, waits, haidi)
    return take if gain >= _unseen_tile_risk(rd, waits, haidi) else refuse


def choose(obs: Observation, rng: random.Random, level: Level) -> Action:
    legal = obs.legal
    if not legal:
        raise ValueError(f"seat {obs.seat} has nothing to decide")
    for a in legal:
        if a.act == Act.WIN:
            return a
    picks = [a for a in legal if a.act == Act.CHOOSE]
    if picks:
        return _choose_choice(obs, picks, level)
    if obs.phase == Phase.OPENING:
        return baseline.choose(obs, rng)
    if obs.phase == Phase.HAIDI:
        return _haidi(obs, legal, level)
    if obs.phase == Phase.CLAIM:
        return _claim(obs, legal, rng, level)
    if obs.phase == Phase.TURN:
        return _turn(obs, legal, rng, level)
    return legal[0]


__all__ = ["Reader", "choose"]
