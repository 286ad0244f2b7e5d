"""How far is the expert's defence from what could be done? Three measurements where a discard may be won on,
on the duel's games (the expert in one seat, three baseline seats around it: bench/ai_duel.py):

1. **Reading**: how well the expert's danger read ranks the tiles that really win an opponent's hand, on
   hands left out of the fit: the area under the ROC curve (AUC: the chance a tile that wins reads as more
   dangerous than one that does not) and the log loss, of the read as the expert uses it (P(ready) × the
   tile's share of his waits: bot/ai/defence.py) and of a logistic refit of that read with what the
   opponent's river says of the tile (he threw it, lately; it passed him; its neighbours are in his river;
   how much of its suit he throws). The refit shows how much more the visible table holds.
2. **Where the deal-ins are**: how far the expert's hand was from ready (its shanten) at the discard that
   was won on, and how often it had no other discard as close to winning.
3. **The bound**: the expert shown the other hands (a bench may look, the AI may not), throwing, of the
   discards as close to winning as its own choice, one that no hand wins on (``same``), or also one a step
   further (``step``: any that no hand wins on, as one discard sets a hand back one step at most, so that
   only a deal-in with no other tile to throw is left, a 血流 winner's locked hand's among them): its
   deal-in rate and score against the baseline on the same walls as the expert's, and the baseline seats'
   deal-in rate in the expert's games.

The labels — does this tile win that hand — come from the engine on the real hands. Run:
``.venv/bin/python bench/ai_defence.py [--hands 1500] [--walls 600] [--rooms changsha,hengyang,…]``
(``--hands 0``: the bound only)
(about four minutes with two jobs on this machine; docs/ai.md has the figures).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ai_duel import Room, deal, payer_of, rooms  # noqa: E402

import engine  # noqa: E402
from bot import ai  # noqa: E402
from bot.ai import defence, player  # noqa: E402
from bot.ai.levels import EXPERT  # noqa: E402
from engine import Act, Phase, apply, legal_actions, observe, to_act  # noqa: E402
from engine.observe import PublicSeat  # noqa: E402
from engine.tiles import SUITED_KINDS, to_counts  # noqa: E402

ROOMS = "changsha,hengyang,sichuan/xuezhan,sichuan/xueliu"
BASELINE = ai.BASELINE_LEVEL
FEATURES = (
    "bias",
    "ready (log-odds)",
    "wait share (log)",
    "he threw it",
    "… among his last 4",
    "it passed him",
    "neighbours he threw",
    "his share of its suit",
    "its suit in his last 3",
    "a 1 or 9",
    "a 2 or 8",
    "his melds",
)
Row = tuple[tuple[float, ...], float, int, int]  # features, the expert's read, label, seed
Chooser = Callable[[engine.State, engine.Observation, random.Random], engine.Action]


def features(ps: PublicSeat, th: defence.Threat, t: int, passed: frozenset[int]) -> tuple[float, ...]:
    river = ps.discards
    his = set(river)
    r = min(0.999, max(0.001, th.ready))
    suited = t < SUITED_KINDS
    suit, rank = divmod(t, 9)
    in_suit = [d for d in river if suited and d < SUITED_KINDS and d // 9 == suit]
    last3 = [d for d in river[-3:] if suited and d < SUITED_KINDS and d // 9 == suit]
    beside = sum(1 for d in (t - 1, t + 1) if suited and d // 9 == suit and d in his)
    return (
        1.0,
        math.log(r / (1.0 - r)),
        math.log(max(1e-4, th.waits[t])),
        float(t in his),
        float(t in river[-4:]),
        float(t in passed and not ps.wins),
        float(beside),
        len(in_suit) / max(1, len(river)),
        float(len(last3)),
        float(suited and rank in (0, 8)),
        float(suited and rank in (1, 7)),
        float(len(ps.melds)),
    )


def winners_of(
    state: engine.State, throws: dict[int, engine.Action], seats: list[int]
) -> dict[int, set[int]]:
    """Per tile: the seats that would win on it (the engine, on the real hands)."""
    out: dict[int, set[int]] = {}
    for t, a in throws.items():
        after, _ = apply(state, a)
        out[t] = set()
        if after.phase == Phase.CLAIM:
            out[t] = {o for o in seats if any(x.act == Act.WIN for x in legal_actions(after, o))}
    return out


def _throws(obs: engine.Observation) -> dict[int, engine.Action]:
    return {a.tile: a for a in obs.legal if a.act == Act.DISCARD and a.tile is not None}


def _shantens(obs: engine.Observation) -> dict[int, int]:
    """Per tile this seat may throw: the shanten of the hand it leaves (the variant's shape)."""
    counts = to_counts(obs.hand)
    view = ai.Evaluator(obs).shape.discards(counts)
    out = {}
    for t in _throws(obs):
        after = list(counts)
        after[t] -= 1
        out[t] = view.shanten(t, tuple(after))
    return out


def _expert(state: engine.State, obs: engine.Observation, rng: random.Random) -> engine.Action:
    return ai.choose(obs, rng, EXPERT.id)


def oracle(steps: int) -> Chooser:
    """The expert, shown the hands: when its discard would be won on, another that would not, at most
    ``steps`` further from winning (the expert's own choice among equally close ones)."""

    def choose(state: engine.State, obs: engine.Observation, rng: random.Random) -> engine.Action:
        a = ai.choose(obs, rng, EXPERT.id)
        if a.act != Act.DISCARD or a.tile is None:
            return a
        throws = _throws(obs)
        others = [ps.seat for ps in obs.seats if ps.seat != obs.seat and not ps.won]
        wins = winners_of(state, throws, others)
        if not wins[a.tile]:
            return a
        safe = [t for t in throws if not wins[t]]
        if not safe:
            return a
        sh = _shantens(obs)
        near = {t: sh[t] for t in safe}
        best = min(near.values())
        if best > sh[a.tile] + steps:
            return a
        rd = player.Reader(obs, EXPERT)
        scored = player._score_discards(rd, to_counts(obs.hand), [t for t in safe if near[t] == best], rng)
        return throws[player.pick(scored).tile]

    return choose


BOUNDS: dict[str, Chooser] = {"expert": _expert, "same": oracle(0), "step": oracle(1)}


def _play(
    room: Room,
    seed: int,
    cand: int,
    chooser: Chooser,
    watch: bool,
    look: Callable[[engine.State, engine.Observation, int], list[Any]] | None = None,
) -> tuple[float, bool, list[Any], tuple, int]:
    """One hand with ``chooser`` in seat ``cand``: its score (底分), whether it dealt in, and (``watch``) what
    ``look`` reads at each of its discards with a choice (default: the reading rows) and (shanten, another
    discard as close) at its first discard won on; last, how many of the seats around were won on."""
    state, rngs, base = deal(room, seed)
    rows: list[Any] = []
    last: tuple = (3, False)  # won on with no discard of its own yet (a robbed kong)
    others = [False] * room.seats  # the seats around that were won on
    first: tuple = ()  # ``last`` when it was first won on (血战 and 血流 play on after a win)
    for _ in range(5000):
        if state.phase == Phase.ENDED:
            break
        seat = to_act(state)[0]
        obs = observe(state, seat)
        if seat == cand:
            action = chooser(state, obs, rngs[seat])
            if watch and obs.phase == Phase.TURN and len(_throws(obs)) > 1:
                rows.extend((look or _reading)(state, obs, seed))
            if action.act == Act.DISCARD and action.tile is not None and watch:
                sh = _shantens(obs)
                s = sh[action.tile]
                close = sum(1 for v in sh.values() if v == s)
                last = (min(s, 2), close > 1)
            elif action.act == Act.KONG and watch:
                last = (3, False)  # a kong may be robbed
        else:
            action = ai.choose(obs, rngs[seat], BASELINE)
        payer = payer_of(state, action)
        if payer is not None and payer != cand:
            others[payer] = True
        elif payer == cand and not first:
            first = last
        state, _ = apply(state, action)
    assert state.result is not None
    return state.result.deltas[cand] / base, bool(first), rows, first, sum(others)


@dataclass(frozen=True)
class Position:
    """One of the expert's discards with a choice, as the expert reads it, and the truth."""

    reader: player.Reader
    counts: list[int]
    threats: list[defence.Threat]
    throws: dict[int, engine.Action]  # per tile it may throw: the action
    wins: dict[int, set[int]]  # per tile it may throw: the seats that would win on it
    passed: dict[int, frozenset[int]]  # per opponent: the tiles that passed him (defence.passed_tiles)


def read_position(state: engine.State, obs: engine.Observation) -> Position:
    rd = player.Reader(obs, EXPERT)
    counts = list(to_counts(obs.hand))
    threats = defence.read_threats(obs, rd.table, rd.unseen, rd.kinds)
    throws = _throws(obs)
    wins = winners_of(state, throws, [th.seat for th in threats])
    return Position(rd, counts, threats, throws, wins, defence.passed_tiles(obs))


def _reading(state: engine.State, obs: engine.Observation, seed: int) -> list[Row]:
    pos = read_position(state, obs)
    throws, wins, passed = pos.throws, pos.wins, pos.passed
    rows: list[Row] = []
    for th in pos.threats:
        ps = obs.seats[th.seat]
        for t in throws:
            if th.waits[t] > 0:
                rows.append(
                    (
                        features(ps, th, t, passed.get(th.seat, frozenset())),
                        th.ready * th.waits[t],
                        int(th.seat in wins[t]),
                        seed,
                    )
                )
    return rows


def _watch(args: tuple[Room, list[int]]) -> tuple[list[Row], Counter]:
    room, seeds = args
    rows: list[Row] = []
    where: Counter = Counter()
    for seed in seeds:
        _, dealt, got, last, _ = _play(room, seed, seed % room.seats, _expert, True)
        rows.extend(got)
        if dealt:
            where[last] += 1
        where["hands"] += 1
    return rows, where


def _bound(args: tuple[Room, list[int]]) -> dict[str, list[float]]:
    """Per chooser: [Σ score, Σ score², hands it dealt in, its hands, seats around won on, their hands]."""
    room, seeds = args
    out: dict[str, list[float]] = {name: [0.0] * 6 for name in BOUNDS}
    for seed in seeds:
        for name, chooser in BOUNDS.items():
            total = 0.0
            for cand in range(room.seats):
                score, dealt, _, _, around = _play(room, seed, cand, chooser, False)
                total += score
                o = out[name]
                o[2] += dealt
                o[3] += 1
                o[4] += around
                o[5] += room.seats - 1
            out[name][0] += total / room.seats
            out[name][1] += (total / room.seats) ** 2
    return out


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            k = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= k * m[c][j]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (m[c][n] - sum(m[c][j] * x[j] for j in range(c + 1, n))) / m[c][c]
    return x


def fit(rows: list[tuple[tuple[float, ...], int, float]], ridge: float = 1.0) -> list[float]:
    """Logistic regression by Newton's method on (features, label, weight) rows, with a light ridge."""
    k = len(rows[0][0])
    beta = [0.0] * k
    for _ in range(12):
        grad = [-ridge * b for b in beta]
        hess = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for f, y, w in rows:
            q = _sigmoid(sum(b * x for b, x in zip(beta, f, strict=True)))
            g, h = w * (y - q), w * q * (1.0 - q)
            for i in range(k):
                grad[i] += g * f[i]
                hi = h * f[i]
                if hi:
                    row = hess[i]
                    for j in range(i + 1):
                        row[j] += hi * f[j]
        for i in range(k):
            for j in range(i):
                hess[j][i] = hess[i][j]
        step = _solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-4:
            break
    return beta


def auc(scores: list[float], labels: list[int]) -> float:
    """The chance a tile that wins scores above one that does not (ties count half)."""
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for r in range(i, j + 1):
            ranks[order[r]] = (i + j) / 2 + 1
        i = j + 1
    pos = sum(labels)
    return (sum(r for r, y in zip(ranks, labels, strict=True) if y) - pos * (pos + 1) / 2) / max(
        1, pos * (len(labels) - pos)
    )


def log_loss(probs: list[float], labels: list[int]) -> float:
    eps = 1e-6
    total = 0.0
    for p, y in zip(probs, labels, strict=True):
        p = min(1 - eps, max(eps, p))
        total -= math.log(p if y else 1 - p)
    return total / max(1, len(labels))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=1500, help="hands read per room (0: the bound only)")
    ap.add_argument("--walls", type=int, default=600, help="walls per room for the bound (default 600)")
    ap.add_argument("--rooms", default=ROOMS, help=f"comma-separated duel labels (default {ROOMS})")
    ap.add_argument("--first", type=int, default=200000, help="the first seed")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    t0 = time.monotonic()
    chosen = [r for r in rooms() if r.label in args.rooms.split(",")]
    rows: list[Row] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for room in chosen:
            seeds = list(range(args.first, args.first + args.hands))
            where: Counter = Counter()
            for got, w in pool.imap_unordered(
                _watch, [(room, seeds[i : i + 25]) for i in range(0, len(seeds), 25)]
            ):
                rows.extend(got)
                where.update(w)
            dealt = sum(v for k, v in where.items() if k != "hands")
            ready, one, far, robbed = (
                sum(v for k, v in where.items() if k != "hands" and k[0] == s) for s in (0, 1, 2, 3)
            )
            alone = sum(v for k, v in where.items() if k != "hands" and k[0] < 3 and not k[1])
            n = max(1, dealt)
            print(
                f"{room.label}:"
                if not seeds
                else f"{room.label}: the expert dealt in {dealt} of {where['hands']} hands — "
                f"from ready {ready / n:.0%}, one step {one / n:.0%}, farther {far / n:.0%}, "
                f"a robbed kong {robbed / n:.0%}; "
                f"no other discard as close {alone / n:.0%}",
                flush=True,
            )
            walls = list(range(args.first, args.first + args.walls))
            tally = {name: [0.0] * 6 for name in BOUNDS}
            for part in pool.imap_unordered(
                _bound, [(room, walls[i : i + 10]) for i in range(0, len(walls), 10)]
            ):
                for k, v in part.items():
                    tally[k] = [a + b for a, b in zip(tally[k], v, strict=True)]
            print(f"  shown the hands, {len(walls)} walls against the baseline:", flush=True)
            for k, (total, sq, dealt, hands, around, around_hands) in tally.items():
                n = max(1, len(walls))
                mean = total / n
                ci = 1.96 * math.sqrt(max(0.0, sq / n - mean * mean) / n)
                print(
                    f"    {k}: {mean:+.2f} 底分 (95% CI {mean - ci:+.2f}..{mean + ci:+.2f}), deal-in "
                    f"{dealt / max(1, hands):.1%} (the baseline seats {around / max(1, around_hands):.1%})",
                    flush=True,
                )
    if not rows:
        print(f"{time.monotonic() - t0:.0f} s")
        return
    train = [r for r in rows if r[3] % 5]
    test = [r for r in rows if not r[3] % 5]
    rng = random.Random(0)
    sample = [(f, y, 1.0 if y else 5.0) for f, _, y, _ in train if y or rng.random() < 0.2]
    beta = fit(sample)
    labels = [r[2] for r in test]
    read = [r[1] for r in test]
    refit = [_sigmoid(sum(b * x for b, x in zip(beta, r[0], strict=True))) for r in test]
    won = sum(labels)
    print(f"reading, held out: {len(test)} tiles, {won} would have won ({won / max(1, len(labels)):.2%})")
    print(f"  the expert's read: AUC {auc(read, labels):.3f}, log loss {log_loss(read, labels):.4f}")
    print(f"  refit with the river: AUC {auc(refit, labels):.3f}, log loss {log_loss(refit, labels):.4f}")
    print("  " + ", ".join(f"{n} {b:+.2f}" for n, b in zip(FEATURES, beta, strict=True)))
    print(f"{time.monotonic() - t0:.0f} s")


if __name__ == "__main__":
    main()
