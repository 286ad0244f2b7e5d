"""What a learned read of an opponent's waits reads (bench/ai_reader_fit.py; docs/ai.md, "A learned read"):
per tile, the hand-built read of him (bot/ai/defence.py: how ready he looks, the tile's share of his waits,
what he would be paid) and what his river says of the tile and its neighbours (how often and how lately he
threw each tile up to three away, how much of its suit he throws, whether it passed him), his melds, the
unseen copies and the wall — from the Observation only. Built here for the fit and for play alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import lightgbm
import numpy as np
import numpy.typing as npt

from bot.ai.defence import Threat, passed_tiles
from engine import Observation
from engine.melds import MeldKind
from engine.observe import PublicSeat
from engine.tiles import NUM_KINDS, SUITED_KINDS

_KINDS = np.arange(NUM_KINDS)
_SUITED = _KINDS < SUITED_KINDS
_SUIT = np.where(_SUITED, _KINDS // 9, 3)  # 3: honours
_RANK = np.where(_SUITED, _KINDS % 9, -1)
_OFFSETS = (-3, -2, -1, 0, 1, 2, 3)
# per offset d: may t + d be read as t's neighbour (same suit, in range; an honour has none)
_VALID = {
    d: (_SUITED & (_RANK + d >= 0) & (_RANK + d <= 8)) if d else np.ones(NUM_KINDS, bool) for d in _OFFSETS
}
_TARGET = {d: np.where(_VALID[d], _KINDS + d, 0) for d in _OFFSETS}
_FAR = 99  # "never": a tile he has not thrown

FEATURES: tuple[str, ...] = (
    "ready (log-odds)",
    "wait share (log)",
    "what he would be paid",
    "his melds point to a big hand",
    "his discards",
    "wall left",
    "suit",
    "rank",
    "unseen copies",
    "copies in my hand",
    "it passed him",
    "his hand size",
    "his melds",
    "his concealed kongs",
    "his wins",
    "he won on it",
    "his seat after mine",
    "his chows",
    "his pungs",
    "his kongs",
    "his melds in its suit",
    "suits of his melds",
    "he shows its pung",
    *(
        f"{what} {'t' if not d else f't{d:+d}'}"
        for d in _OFFSETS
        for what in ("he threw", "since he last threw", "when he first threw", "unseen")
    ),
    "its suit in his river",
    "its suit's share of his river",
    "since he last threw its suit",
    "its suit in his last 3",
    "its suit in his last 6",
    "its suit in his first 6",
    "his last discard is of its suit",
    "rank from his last discard",
    "middle tiles he threw",
    "middle tiles in his last 4",
    "a small hand needs a 2/5/8 pair",
    "seats",
)


def _shift(values: npt.NDArray[np.float64], d: int, fill: float) -> npt.NDArray[np.float64]:
    """Per tile t: ``values[t + d]`` where t + d is t's neighbour, else ``fill``."""
    return np.where(_VALID[d], values[_TARGET[d]], fill)


def features(
    ps: PublicSeat,
    th: Threat,
    passed: frozenset[int],
    unseen: Sequence[int],
    hand: Sequence[int],
    wall: int,
    rel: int,
    flags: tuple[float, float],
    tiles: Sequence[int],
) -> npt.NDArray[np.float64]:
    """The rows (one per tile of ``tiles``) the model reads for opponent ``ps`` (``th``: the hand-built read
    of him; ``rel``: his seat after this one; ``flags``: the variant's 2/5/8 pair and the seat count)."""
    river = ps.discards
    n = len(river)
    count = np.zeros(NUM_KINDS)
    last = np.full(NUM_KINDS, -1.0)
    first = np.full(NUM_KINDS, -1.0)
    suit_at: list[list[int]] = [[], [], [], []]
    for i, x in enumerate(river):
        count[x] += 1
        last[x] = i
        if first[x] < 0:
            first[x] = i
        suit_at[int(_SUIT[x])].append(i)
    since = np.where(last >= 0, n - last, _FAR)
    first = np.where(first >= 0, first, _FAR)
    seen = np.asarray(unseen, float)
    kinds = [m.kind for m in ps.melds]
    meld_suits = [int(_SUIT[m.tile]) for m in ps.melds]
    shown_pung = np.zeros(NUM_KINDS)
    for m in ps.melds:
        if m.kind != MeldKind.CHOW:
            shown_pung[m.tile] = 1
    suit_rows: list[tuple[float, ...]] = []
    for suit, idx in enumerate(suit_at):
        suit_rows.append(
            (
                len(idx),
                len(idx) / max(1, n),
                n - idx[-1] if idx else _FAR,
                sum(1 for i in idx if i >= n - 3),
                sum(1 for i in idx if i >= n - 6),
                sum(1 for i in idx if i < 6),
                meld_suits.count(suit),
            )
        )
    by_suit = np.asarray(suit_rows, float)[_SUIT]
    last_tile = river[-1] if river else -1
    same_suit = (_SUIT == _SUIT[last_tile]) & _SUITED if last_tile >= 0 else np.zeros(NUM_KINDS, bool)
    mids = [i for i, x in enumerate(river) if x < SUITED_KINDS and 2 <= x % 9 <= 6]  # where his 3–7s are
    r = min(0.999, max(0.001, th.ready))
    cols: list[npt.NDArray[np.float64] | float] = [
        math.log(r / (1.0 - r)),
        np.log(np.maximum(1e-4, np.asarray(th.waits, float))),
        th.loss,
        float(th.big),
        n,
        wall,
        _SUIT.astype(float),
        _RANK.astype(float),
        seen,
        np.asarray(hand, float),
        np.isin(_KINDS, list(passed)).astype(float) if passed and not ps.wins else 0.0,
        ps.hand_size,
        len(ps.melds),
        ps.concealed_kongs,
        ps.wins,
        np.isin(_KINDS, list(ps.won_on)).astype(float) if ps.won_on else 0.0,
        rel,
        kinds.count(MeldKind.CHOW),
        kinds.count(MeldKind.PUNG),
        sum(1 for k in kinds if k not in (MeldKind.CHOW, MeldKind.PUNG)),
        by_suit[:, 6],
        len(set(meld_suits)),
        shown_pung,
    ]
    for d in _OFFSETS:
        cols += [
            _shift(count, d, -1.0),
            _shift(since, d, -1.0),
            _shift(first, d, -1.0),
            _shift(seen, d, -1.0) if d else 0.0,
        ]
    cols += [by_suit[:, i] for i in range(6)]
    cols += [
        same_suit.astype(float),
        np.where(same_suit, np.abs(_RANK - _RANK[last_tile]), -1).astype(float),
        len(mids),
        sum(1 for i in mids if i >= n - 4),
        flags[0],
        flags[1],
    ]
    full = np.column_stack([np.broadcast_to(np.asarray(c, float), (NUM_KINDS,)) for c in cols])
    return full[list(tiles)]


def danger(
    obs: Observation,
    threats: Sequence[Threat],
    unseen: Sequence[int],
    hand: Sequence[int],
    pair_258: bool,
    scale: float,
    model: lightgbm.Booster,
) -> list[float]:
    """Per tile: what throwing it is expected to cost (底分) — per opponent, the ``model``'s chance that it
    wins his hand times what he would be paid, weighed at ``scale`` — for the tiles in ``hand``; what is
    certain (``Threat.sure``: a 血流 winner's tiles) in full instead."""
    passed = passed_tiles(obs)
    flags = (float(pair_258), float(len(obs.seats)))
    tiles = [t for t in range(NUM_KINDS) if hand[t]]
    out = [0.0] * NUM_KINDS
    blocks = []
    for th in threats:
        rel = (th.seat - obs.seat) % len(obs.seats)
        ps = obs.seats[th.seat]
        got = passed.get(th.seat, frozenset())
        blocks.append(features(ps, th, got, unseen, hand, obs.wall_remaining, rel, flags, tiles))
    chances = model.predict(np.vstack(blocks), num_threads=1) if blocks else np.zeros(0)
    i = 0
    for th in threats:
        k = th.loss * scale
        sure = dict(th.sure)
        for t in tiles:
            out[t] += sure[t] if t in sure else k * float(chances[i])
            i += 1
    return out


__all__ = ["FEATURES", "danger", "features"]
