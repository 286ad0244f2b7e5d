"""Engine benchmark: win checks, waits, shanten and whole random hands per second on one core.

Targets: waits ≥ 200,000/s (Changsha, 13 tiles), shape win check ≥ 2.5 M/s, shanten ≥ 150,000/s
with a cold cache (every cache the engine fills as it goes emptied, then 20,000 hands it has not seen),
whole random hands ≥ 700/s. Also printed: observations per second (``observe`` for every seat and
``observe_public``, at every position of random hands of every variant, as the bot's chats and the playout
tests' invariants make them; each position met once, its seats' memos as play leaves them), the import time
of the engine and the memory its tables and caches hold.

``--against REV`` runs the very same measurements on git revision REV (e.g. ``main``) in the same run,
alternating the two trees (the machine is shared: each figure is the best of ``--rounds`` runs), and prints
both side by side.
Run: ``make bench`` or ``.venv/bin/python bench/engine_bench.py [--quick] [--against main]``.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGETS = {
    "shape win check (is_standard)": 2_500_000,
    "Changsha could_win (shapes only)": None,
    "Changsha win check (+ evaluate_win)": None,
    "waits (Changsha, 13 tiles)": 200_000,
    "waits, near-ready 13 tiles (one tile from a win)": None,
    "Changsha win check, near-ready 14 tiles (winning)": None,
    "shanten (13 tiles, cold cache)": 150_000,
    "shanten (13 tiles, warm)": None,
    "Changsha shanten (cold cache)": 150_000,
    "whole random hands (Changsha)": 700,
    "observations (every seat + table)": None,
}


def measure_import() -> dict[str, float]:
    """Import time of the engine (ms, best of 3 fresh processes), and the memory (KiB) its import leaves
    allocated (tracemalloc, in another process: tracing slows the import down)."""
    timed = "import time; t = time.perf_counter(); import engine; print((time.perf_counter() - t) * 1e3)"
    traced = (
        "import tracemalloc; tracemalloc.start(); import engine; print(tracemalloc.get_traced_memory()[0])"
    )

    def run(code: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
        return float(out.stdout.split()[-1])

    return {
        "import time (ms)": min(run(timed) for _ in range(3)),
        "engine memory after import (KiB)": run(traced) / 1024,
    }


def measure(quick: bool) -> dict[str, float]:
    from engine import (
        VARIANTS,
        Phase,
        WinContext,
        apply,
        get_variant,
        legal_actions,
        new_hand,
        observe,
        observe_public,
        to_act,
    )
    from engine import shanten as shanten_module
    from engine.game import waits
    from engine.shape import is_standard, shanten
    from engine.tiles import full_set, to_counts

    shan_mod = sys.modules["engine.shanten"]
    del shanten_module
    rules = get_variant("changsha")
    k = 1 if quick else 5
    rng = random.Random(1)

    def random_hands(n: int, size: int) -> list[tuple[int, ...]]:
        tiles = full_set(False)
        out = []
        for _ in range(n):
            rng.shuffle(tiles)
            out.append(to_counts(tiles[:size]))
        return out

    def near_ready(n: int, size: int) -> list[tuple[int, ...]]:
        """Hands a player really holds late in a hand: four sets and a pair (14 tiles: a win), or one of its
        tiles taken out (13 tiles: ready, with at least one wait). Random hands exit the searches early
        (most are far from any shape); these walk them to the end."""
        out: list[tuple[int, ...]] = []
        while len(out) < n:
            tiles: list[int] = []
            for _ in range(4):
                if rng.random() < 0.6:
                    first = rng.randrange(3) * 9 + rng.randrange(7)
                    tiles += [first, first + 1, first + 2]
                else:
                    tiles += [rng.randrange(27)] * 3
            tiles += [rng.randrange(27)] * 2
            if max(tiles.count(x) for x in set(tiles)) > 4:
                continue
            if size == 13:
                tiles.pop(rng.randrange(14))
            out.append(to_counts(tiles))
        return out

    def rate(fn: Callable[[Any], object], items: Sequence[Any]) -> float:
        t0 = time.process_time()
        for x in items:
            fn(x)
        return len(items) / (time.process_time() - t0)

    def clear_caches() -> None:
        """Every cache the engine fills as it plays (the tables built at import stay)."""
        if hasattr(shan_mod, "clear_caches"):
            shan_mod.clear_caches()
        for mod in (shan_mod, sys.modules["engine.shape"]):
            for value in vars(mod).values():
                if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
                    for inner in value.values():
                        inner.clear()
                elif isinstance(value, tuple) and value and all(isinstance(v, dict) for v in value):
                    for inner in value:
                        inner.clear()
        for name in ("_MERGED", "_FINALS"):
            getattr(shan_mod, name, {}).clear()

    def changsha_win(counts: tuple[int, ...]) -> bool:
        """The full check a draw triggers: the cheap shape gate, then the variant's evaluation."""
        if not rules.could_win(counts, ()):
            return False
        return rules.evaluate_win(WinContext(0, 0, counts, (), 0, True)) is not None

    def whole_hands(n: int) -> float:
        t0 = time.process_time()
        for seed in range(n):
            r = random.Random(seed)
            state = new_hand(rules, seed)
            while state.phase != Phase.ENDED:
                seat = r.choice(to_act(state))
                state, _ = apply(state, r.choice(legal_actions(state, seat)))
        return n / (time.process_time() - t0)

    def observations(hands: int) -> float:
        """Every seat's observation and the table's, at every position of random hands of every variant."""
        positions = []
        for variant in sorted(VARIANTS):
            rs = get_variant(variant)
            for seed in range(hands):
                r = random.Random(seed)
                state = new_hand(rs, seed)
                positions.append(state)
                while state.phase != Phase.ENDED:
                    seat = r.choice(to_act(state))
                    state, _ = apply(state, r.choice(legal_actions(state, seat)))
                    positions.append(state)
        made = 0
        t0 = time.process_time()
        for state in positions:
            observe_public(state)
            for seat in range(len(state.seats)):
                observe(state, seat)
            made += 1 + len(state.seats)
        return made / (time.process_time() - t0)

    h14 = random_hands(40_000 * k, 14)
    h13 = random_hands(4_000 * k, 13)
    cold = random_hands(20_000, 13)
    cold2 = random_hands(20_000, 13)
    changsha_shape = rules.hand_shape()
    out: dict[str, float] = {}
    out["shape win check (is_standard)"] = rate(is_standard, h14)
    out["Changsha could_win (shapes only)"] = rate(lambda c: rules.could_win(c, ()), h14)
    out["Changsha win check (+ evaluate_win)"] = rate(changsha_win, h14)
    out["waits (Changsha, 13 tiles)"] = rate(lambda c: waits(rules, c), h13)
    out["waits, near-ready 13 tiles (one tile from a win)"] = rate(
        lambda c: waits(rules, c), near_ready(4_000 * k, 13)
    )
    out["Changsha win check, near-ready 14 tiles (winning)"] = rate(changsha_win, near_ready(20_000 * k, 14))
    clear_caches()
    out["shanten (13 tiles, cold cache)"] = rate(shanten, cold)
    out["shanten (13 tiles, warm)"] = rate(shanten, cold)
    clear_caches()
    out["Changsha shanten (cold cache)"] = rate(changsha_shape.shanten, cold2)
    out["whole random hands (Changsha)"] = whole_hands(100 * k)
    out["observations (every seat + table)"] = observations(6 * k)
    return out


def run_tree(tree: Path, quick: bool) -> dict[str, float]:
    """This script's measurements on another tree, in a process of its own."""
    target = tree / "bench" / "engine_bench.py"
    target.parent.mkdir(exist_ok=True)
    if target.resolve() != Path(__file__).resolve():
        shutil.copy(__file__, target)
    args = [sys.executable, str(target), "--json"] + (["--quick"] if quick else [])
    out = subprocess.run(args, cwd=tree, capture_output=True, text=True, check=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller samples (a few seconds)")
    ap.add_argument("--against", metavar="REV", help="also measure git revision REV, alternating")
    ap.add_argument("--rounds", type=int, default=2, help="runs per tree with --against (best kept)")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps({**measure(args.quick), **measure_import()}))
        return
    if not args.against:
        results = {**measure(args.quick), **measure_import()}
        for name, value in results.items():
            target = TARGETS.get(name)
            mark = "" if target is None else (" ok" if value >= target else f" BELOW target {target:,}")
            unit = "" if name.startswith(("import", "engine memory")) else "/s"
            print(f"{name:50s} {value:14,.1f}{unit}{mark}")
        return
    with tempfile.TemporaryDirectory(prefix="engine_bench_") as tmp:
        base = Path(tmp)
        archive = subprocess.run(["git", "archive", args.against], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
        ours: dict[str, float] = {}
        theirs: dict[str, float] = {}
        for _ in range(args.rounds):
            for side, tree in ((ours, ROOT), (theirs, base)):
                for name, value in run_tree(tree, args.quick).items():
                    better = min if name.startswith(("import", "engine memory")) else max
                    side[name] = better(side.get(name, value), value)
    print(f"{'':50s} {args.against + ' (same run)':>16s} {'this tree':>14s} {'ratio':>7s}  target")
    for name, value in ours.items():
        base_value = theirs.get(name)
        target = TARGETS.get(name)
        ratio = f"{value / base_value:6.2f}x" if base_value else ""
        base_text = f"{base_value:16,.1f}" if base_value is not None else f"{'—':>16s}"
        print(f"{name:50s} {base_text} {value:14,.1f} {ratio:>7s}  {'' if target is None else f'{target:,}'}")


if __name__ == "__main__":
    main()
