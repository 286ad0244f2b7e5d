"""Picture benchmark: time to draw a hand, table and end-of-hand picture, on one core.

Target: rendering a picture ≤ 30 ms. For each variant, a seeded mid-hand state (30 discards in)
and an ended one (bot/pictures/samples.py); each picture is drawn from scratch every time (layout, paint,
PNG — the render cache bypassed), and the cache hit is timed too. Same-run baselines: the text view of the
same Observation (bot/text/render.py), and encoding the same picture as JPEG (4:4:4, q90), the format not
chosen.

Run: ``make bench`` or ``.venv/bin/python bench/picture_bench.py [--quick]``.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import pictures  # noqa: E402
from bot.pictures import Display, Mode, layout  # noqa: E402
from bot.pictures.paint import encode, paint  # noqa: E402
from bot.pictures.samples import DOC_NAMES, sample_states  # noqa: E402
from bot.text import render  # noqa: E402
from engine import Observation, Phase, observe  # noqa: E402
from engine.variants import VARIANTS  # noqa: E402

TARGET_MS = 30.0


def timings(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.99 * (len(xs) - 1)))]


def text_view(obs: Observation, mode: Mode) -> str:
    if mode == Mode.HAND:
        return render.hand_view(obs)
    if mode == Mode.TABLE:
        return render.table_view(obs)
    return render.result_view(obs)


def jpeg(rgb: Image.Image) -> bytes:
    out = io.BytesIO()
    rgb.save(out, "JPEG", quality=90, subsampling=0)
    return out.getvalue()


def measure(
    variant: str, name: str, obs: Observation, mode: Mode, display: Display, n: int
) -> tuple[list[float], float, int]:
    """Time one picture every way and print its line; returns the from-scratch timings, the median PNG
    encoding time and the PNG's size."""
    fresh = timings(lambda: encode(paint(layout(obs, mode, display))), n)
    png = pictures.render(obs, mode, display)
    cached = timings(lambda: pictures.render(obs, mode, display), n)
    text = timings(lambda: text_view(obs, mode), n)
    indexed = paint(layout(obs, mode, display))
    png_ms = timings(lambda: encode(indexed), max(5, n // 5))
    rgb = indexed.convert("RGB")
    jpg = jpeg(rgb)
    jpg_ms = timings(lambda: jpeg(rgb), max(5, n // 5))
    med = statistics.median
    size = f"{indexed.width}×{indexed.height}"
    print(
        f"{variant:9} {name:4} {mode.value:6} {size:>9} {med(fresh):6.1f}  {p99(fresh):6.1f} "
        f"{med(cached) * 1000:5.1f}µs {med(png_ms):6.1f} {len(png) / 1024:6.0f}  "
        f"| {med(text):5.2f} {med(jpg_ms):7.1f} {len(jpg) / 1024:7.0f}"
    )
    return fresh, med(png_ms), len(png)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args()
    n = 20 if args.quick else 100
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core

    t0 = time.perf_counter()
    pictures.warm()
    print(f"warm-up (every tile face at every size, the palette): {(time.perf_counter() - t0) * 1000:.0f} ms")
    print(
        f"{'variant':9} {'state':4} {'picture':6} {'size':>9} {'median':>7} {'p99':>7} {'cached':>7} "
        f"{'PNG ms':>6} {'PNG KB':>6}  {'| text':>7} {'JPEG ms':>7} {'JPEG KB':>7}"
    )
    worst: list[float] = []
    by_mode: dict[Mode, list[tuple[float, float, int]]] = {}
    for variant in VARIANTS:
        for name, (state, _) in sample_states(variant).items():
            display = Display("zh", DOC_NAMES)
            seat = state.current
            cases = [(Mode.HAND, observe(state, seat)), (Mode.TABLE, observe(state, -1))]
            if state.phase == Phase.ENDED:
                cases.append((Mode.END, observe(state, -1)))
            for mode, obs in cases:
                fresh, png_ms, size = measure(variant, name, obs, mode, display, n)
                worst.append(p99(fresh))
                by_mode.setdefault(mode, []).append((statistics.median(fresh), png_ms, size))
    verdict = "met" if max(worst) <= TARGET_MS else "MISSED"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"slowest p99 {max(worst):.1f} ms; target ≤ {TARGET_MS:.0f} ms: {verdict} (load average {load:.1f})"
    )
    print(
        "(median / p99: drawn from scratch, PNG included, ms; cached: a repeat of the same picture; PNG ms:"
    )
    print(
        " its encoding alone; text: the text view of the same Observation, ms; JPEG: the same picture encoded"
    )
    print(" as JPEG 4:4:4 q90 instead: encoding alone, ms, and size)")
    for mode, rows in by_mode.items():
        ms = statistics.mean(r[0] for r in rows)
        enc = statistics.mean(r[1] for r in rows)
        kb = statistics.mean(r[2] for r in rows) / 1024
        print(f"{mode.value:6}: {ms:5.2f} ms a picture on average ({enc:5.2f} ms encoding), {kb:4.0f} KB")


if __name__ == "__main__":
    main()
