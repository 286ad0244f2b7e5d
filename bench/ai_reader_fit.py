"""A learned read of an opponent's waits, measured (docs/ai.md, "A learned read"): how much better than the
expert's hand-built read (bot/ai/defence.py) a model of what the table shows can tell which tiles win an
opponent's hand, and what that is worth in play. The bot does not use it (measured below: no gain in score).

Plays the duel's games (bench/ai_duel.py: the expert in one seat, three baseline seats around it) in every
room where a discard can be won on, and at each of the expert's discards with a choice records, for every
opponent in play and every tile it could throw, the model's features (``reader_features.features``) and
whether that tile would have won his hand (the engine, on the real hands). Then it fits a LightGBM classifier
on the walls whose seed is not a multiple of 5, prints how well it ranks the held-out tiles (AUC, log loss)
against the hand-built read (P(ready) × the tile's share of his waits), and writes the model (``--model``).

``--play N`` then plays N fresh walls per room (seeds from ``--play-first``) as the duel does, twice on each
wall: the expert as it is, and the expert whose danger is the model's chance of each tile winning each
opponent's hand × what he would be paid, weighed at ``--scale`` (the hand-built read weighs its own at 0.3);
``--fold`` also lets it give up a step for safety at any distance from ready (a tile with danger 0.05 or more,
the safest at most a step further if it costs at most a quarter as much). It prints the paired difference
in 底分 a hand with its 95% CI and the deal-in rates (the baseline seats' beside the expert too). Run (with
``pip install -e '.[bench]'``):

    .venv/bin/python bench/ai_reader_fit.py [--hands 3000] [--first 320000]
    .venv/bin/python bench/ai_reader_fit.py --hands 0 --play 2000 --rooms changsha [--scale 3]

(with two jobs on this machine: the fit about five minutes; the play 1.5–3 minutes per 1,000 walls).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import multiprocessing.pool
import sys
import time
from pathlib import Path

try:
    import lightgbm
    import numpy as np
except ImportError:
    sys.exit("bench/ai_reader_fit.py needs numpy and lightgbm: .venv/bin/pip install -e '.[bench]'")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ai_defence import _expert, _play, auc, log_loss, read_position  # noqa: E402
from ai_duel import Room, play_wall, rooms  # noqa: E402
from reader_features import FEATURES, danger, features  # noqa: E402

import engine  # noqa: E402
from bot import ai  # noqa: E402
from bot.ai import defence, player  # noqa: E402
from bot.ai.levels import EXPERT, Level  # noqa: E402
from engine.tiles import to_counts  # noqa: E402

MODEL = ROOT / "bench" / "reader.txt"  # not kept in the repository: fitted again by this script
# every room where a discard may be won on (转转, 红中 and 邵阳's wins on a discard are rare or none)
ROOMS = "changsha,hengyang,xiangyin,sichuan/xuezhan,sichuan/xuezhan_swap,sichuan/xueliu,sichuan/sanren"
PARAMS = dict(
    objective="binary",
    learning_rate=0.08,
    num_leaves=31,
    min_child_samples=100,
    subsample=0.8,
    subsample_freq=1,
    colsample_bytree=0.8,
    seed=1,
    deterministic=True,
    verbose=-1,
)


Block = tuple[
    np.ndarray, list[int], list[float]
]  # one opponent's rows: features, labels, the hand-built read


def _blocks(state: engine.State, obs: engine.Observation, seed: int) -> list[Block]:
    pos = read_position(state, obs)
    flags = (float(pos.reader.variant.shapes.pair_258), float(len(obs.seats)))
    tiles = sorted(pos.throws)
    out = []
    for th in pos.threats:
        rel = (th.seat - obs.seat) % len(obs.seats)
        passed = pos.passed.get(th.seat, frozenset())
        x = features(
            obs.seats[th.seat],
            th,
            passed,
            pos.reader.unseen,
            pos.counts,
            obs.wall_remaining,
            rel,
            flags,
            tiles,
        )
        out.append((x, [int(th.seat in pos.wins[t]) for t in tiles], [th.ready * th.waits[t] for t in tiles]))
    return out


def _watch(args: tuple[Room, list[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows of the expert's discards on these walls (the expert in seat ``seed % seats``), with each
    row's wall."""
    room, seeds = args
    xs: list[np.ndarray] = []
    ys: list[int] = []
    read: list[float] = []
    group: list[int] = []
    for seed in seeds:
        blocks: list[Block] = _play(room, seed, seed % room.seats, _expert, True, _blocks)[2]
        for x, y, r in blocks:
            xs.append(x)
            ys += y
            read += r
            group += [seed] * len(y)
    x_all = np.vstack(xs) if xs else np.zeros((0, len(FEATURES)))
    return x_all, np.asarray(ys), np.asarray(read), np.asarray(group)


def fit(args: argparse.Namespace, pool: multiprocessing.pool.Pool) -> None:
    t0 = time.monotonic()
    chosen = [r for r in rooms() if r.label in args.rooms.split(",")]
    parts = []
    for room in chosen:
        seeds = list(range(args.first, args.first + args.hands))
        got = list(pool.imap_unordered(_watch, [(room, seeds[i : i + 25]) for i in range(0, len(seeds), 25)]))
        parts.append((room.label, got))
        rows = sum(len(g[1]) for g in got)
        print(f"{room.label}: {rows} tiles read ({time.monotonic() - t0:.0f} s)", flush=True)
    x = np.vstack([g[0] for _, got in parts for g in got])
    y = np.concatenate([g[1] for _, got in parts for g in got])
    group = np.concatenate([g[3] for _, got in parts for g in got])
    test = group % 5 == 0
    names = [f"f{i}" for i in range(x.shape[1])]
    model = lightgbm.train(PARAMS, lightgbm.Dataset(x[~test], y[~test], feature_name=names), args.trees)
    print(
        "held out (walls whose seed is a multiple of 5): AUC and log loss, the hand-built read → the learned"
    )
    for label, room_parts in [*parts, ("all", [g for _, got in parts for g in got])]:
        xs = np.vstack([g[0] for g in room_parts])
        keep = np.concatenate([g[3] for g in room_parts]) % 5 == 0
        labels = [int(v) for v in np.concatenate([g[1] for g in room_parts])[keep]]
        hand_built = [float(v) for v in np.concatenate([g[2] for g in room_parts])[keep]]
        learned = [float(v) for v in model.predict(xs[keep], num_threads=1)]
        print(
            f"  {label}: {len(labels)} tiles, {sum(labels) / max(1, len(labels)):.2%} winning; "
            f"AUC {auc(hand_built, labels):.3f} → {auc(learned, labels):.3f}, "
            f"log loss {log_loss(hand_built, labels):.4f} → {log_loss(learned, labels):.4f}",
            flush=True,
        )
    gains = model.feature_importance("gain")
    top = sorted(zip(gains, FEATURES, strict=True), reverse=True)[:8]
    print("  strongest: " + ", ".join(f"{name} {g / max(1e-9, sum(gains)):.0%}" for g, name in top))
    model.save_model(args.model)
    print(f"wrote {args.model} ({model.num_trees()} trees); {time.monotonic() - t0:.0f} s", flush=True)


def _learned(model_file: str, scale: float, fold: bool) -> None:
    """In this process: the expert's danger from the model (see the module's text)."""
    model = lightgbm.Booster(model_file=model_file)
    plain = player.Reader.__init__

    def init(self: player.Reader, obs: engine.Observation, level: Level, melds: object = None) -> None:
        plain(self, obs, level, melds)  # type: ignore[arg-type]
        if self.danger is None:
            return
        counts = to_counts(obs.hand)
        threats = defence.read_threats(obs, self.table, self.unseen, self.kinds)
        pair_258 = self.variant.shapes.pair_258
        self.danger = danger(obs, threats, self.unseen, counts, pair_258, scale, model)

    player.Reader.__init__ = init  # type: ignore[method-assign]
    if fold:
        player._FOLD_FAR, player._FOLD_DANGER, player._SAFE_USEFUL = 0, 0.05, 0.0


def _pair(
    args: tuple[Room, list[int], str, float, bool],
) -> list[tuple[float, float, int, int, int, int, int]]:
    """Per wall: the expert's score, the learned expert's, their deal-ins out of the hands, and the baseline
    seats' deal-ins (beside the expert) out of theirs."""
    room, seeds, model_file, scale, fold = args
    plain = [play_wall(room, s, EXPERT.id, ai.BASELINE_LEVEL) for s in seeds]
    _learned(model_file, scale, fold)
    out = []
    for s, a in zip(seeds, plain, strict=True):
        b = play_wall(room, s, EXPERT.id, ai.BASELINE_LEVEL)
        out.append((a.sum, b.sum, a.cand_dealins, b.cand_dealins, a.hands, a.base_dealins, a.base_seat_hands))
    return out


def play(args: argparse.Namespace) -> None:
    # a fresh process per chunk: _learned changes the expert in the process it runs in
    ctx = multiprocessing.get_context("spawn")
    for room in (r for r in rooms() if r.label in args.rooms.split(",")):
        t0 = time.monotonic()
        seeds = list(range(args.play_first, args.play_first + args.play))
        chunks = [
            (room, seeds[i : i + 100], args.model, args.scale, args.fold) for i in range(0, len(seeds), 100)
        ]
        with ctx.Pool(args.jobs, maxtasksperchild=1) as pool:
            rows = [r for part in pool.imap_unordered(_pair, chunks) for r in part]
        diff = [b - a for a, b, *_ in rows]
        mean = sum(diff) / len(diff)
        half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in diff) / max(1, len(diff) - 1) / len(diff))
        hands = sum(r[4] for r in rows)
        print(
            f"{room.label}: learned read (scale {args.scale:g}{', folding' if args.fold else ''}) − expert: "
            f"{mean:+.3f} 底分 a hand (95% CI {mean - half:+.3f}..{mean + half:+.3f}), deal-in rate "
            f"{sum(r[3] for r in rows) / hands:.1%} (expert {sum(r[2] for r in rows) / hands:.1%}, "
            f"baseline {sum(r[5] for r in rows) / max(1, sum(r[6] for r in rows)):.1%}); "
            f"{len(rows)} walls, {time.monotonic() - t0:.0f} s",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=3000, help="hands per room (default 3000)")
    ap.add_argument("--first", type=int, default=320000, help="the first seed")
    ap.add_argument("--rooms", default=ROOMS, help=f"comma-separated duel labels (default {ROOMS})")
    ap.add_argument("--trees", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--model", default=str(MODEL), help=f"the model file (default {MODEL})")
    ap.add_argument(
        "--play", type=int, default=0, help="walls per room to play, the expert with and without it"
    )
    ap.add_argument("--play-first", type=int, default=340000)
    ap.add_argument("--scale", type=float, default=3.0, help="the learned danger's weight (default 3)")
    ap.add_argument("--fold", action="store_true", help="give up a step for safety at any distance")
    args = ap.parse_args()
    if args.hands:
        with multiprocessing.Pool(args.jobs) as pool:
            fit(args, pool)
    if args.play:
        play(args)


if __name__ == "__main__":
    main()
