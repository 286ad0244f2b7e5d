"""The AI's fast paths decide exactly as the plain computation.

* ``HandShape.discards`` (a hand's per-suit work shared by its discards, memoised per-suit splits) gives, for
  every discard, the shanten and the useful tiles that ``HandShape.shanten`` / ``useful`` give of the hand
  less that tile, and ``useful`` agrees with trying every tile in full (tests/reference.py) — over many
  random hands of every variant, with and without melds, warm caches and cold.
* ``bot.ai._best_discard`` picks the same discard, with the same tie-break draws, as the plain search it
  replaced (kept below as ``plain_best_discard``), in positions of AI self-play of every variant, turns and
  claims alike.
* The self-play snapshot (tests/snapshots/ai_selfplay.txt): every decision of four AI seats over 30 hands
  of each variant, digested, with each seat's total and hand 0's first decisions in notation. A change that
  alters any decision fails here; when a rule or the AI is changed on purpose, rewrite it with
  ``UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/test_ai_fast.py -k selfplay`` and say why in the
  commit. A new variant's line is written the first time it runs.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import random
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import bot.ai.baseline as ai
from engine import (
    VARIANTS,
    Act,
    Observation,
    Phase,
    apply,
    format_hand,
    get_variant,
    new_hand,
    observe,
    to_act,
)
from engine.melds import Meld, MeldKind
from engine.shanten import Discards, HandShape, PlainDiscards, clear_caches
from engine.tiles import NUM_KINDS, Counts, to_counts

from . import reference as ref
from .playout import selfplay_positions
from .random_hands import winning_hand

ALL_VARIANTS = tuple(VARIANTS)
HANDS = 120


def _hands14(variant: str, n: int, seed: str) -> Iterator[tuple[Counts, tuple[Meld, ...]]]:
    """3k+2 hands: uniformly random ones with 0–3 random melds, and the variant's winning shapes (some with
    a tile swapped for another, so near-ready)."""
    rs = get_variant(variant)
    rng = random.Random(seed)
    kinds = sorted(set(rs.tile_set(4, rs.make_options())))
    for i in range(n):
        if i % 2:
            tiles, melds = winning_hand(rs, rng)
            if rng.random() < 0.5:
                tiles[rng.randrange(len(tiles))] = rng.choice(kinds)
        else:
            pool = [t for t in kinds for _ in range(4)]
            rng.shuffle(pool)
            melds_l: list[Meld] = []
            for _ in range(rng.choice((0, 0, 1, 2, 3))):
                t = pool.pop()
                if t < 27 and t % 9 <= 6 and rng.random() < 0.5:
                    melds_l.append(Meld(MeldKind.CHOW, t, 0))
                else:
                    melds_l.append(Meld(rng.choice((MeldKind.PUNG, MeldKind.KONG_EXPOSED)), t, 0))
            melds = tuple(melds_l)
            tiles = pool[: 14 - 3 * len(melds)]
        counts = to_counts(tiles)
        used = list(counts)
        for m in melds:
            for x in m.tiles:
                used[x] += 1
        if max(used) <= 4:
            yield counts, melds


def _check_discards(variant: str, seed: str, cold: bool, full: bool) -> int:
    rs = get_variant(variant)
    rng = random.Random(seed)
    checked = 0
    for i, (counts, melds) in enumerate(_hands14(variant, HANDS, seed)):
        if cold:
            clear_caches()
        shape = rs.hand_shape(melds)
        view = shape.discards(counts)
        assert type(view) is (Discards if type(shape) is HandShape else PlainDiscards)
        unseen = [rng.randrange(5) for _ in range(NUM_KINDS)]
        for t in range(NUM_KINDS):
            if not counts[t]:
                continue
            c = list(counts)
            c[t] -= 1
            after = tuple(c)
            s = view.shanten(t, after)
            assert s == shape.shanten(after), (format_hand(counts, melds), t)
            extra = tuple(rs.wait_candidates(after, melds))
            for at in (s, s + 1):  # the AI may count at a 'ready' shape's real shanten, one more
                got = view.useful(t, after, at, unseen, extra)
                assert got == shape.useful(after, at, unseen, extra), (format_hand(after, melds), at)
            if full and i % 2 == 0 and type(shape) is HandShape:  # each tile tried in full: slow, half
                want = ref.useful(rs.shapes, melds, after, unseen, extra)
                assert view.useful(t, after, s, unseen, extra) == want, format_hand(after, melds)
            checked += 1
    return checked


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_discards_match_the_plain_shanten_and_useful(variant: str) -> None:
    """Every discard of random 3k+2 hands: Discards' shanten and useful == HandShape's of the hand less that
    tile, and on every other hand == each tile tried in full (tests/reference.py: slow); the memos filled by
    one pass and read by the next."""
    assert _check_discards(variant, f"discards/{variant}", cold=False, full=True) > HANDS
    assert _check_discards(variant, f"discards/{variant}", cold=False, full=False) > HANDS  # memos warm now


def test_discards_match_with_cold_caches() -> None:
    """The same with every memo emptied before each hand (misses all the way)."""
    for variant in ("changsha", "hongzhong"):
        assert _check_discards(variant, f"cold/{variant}", cold=True, full=False) > 50


# ------------------------------------------------------------------ the AI's discard search


def plain_best_discard(
    ev: ai.Evaluator, counts: Counts, tiles: Iterable[int], rng: random.Random, worst: int | None = None
) -> tuple[int, int, int]:
    """``ai._best_discard`` as it was before the fast paths: every discard's shanten by the shape, useful
    tiles by ``Evaluator.finish``, the candidates sorted in full."""
    cand = []
    for t in sorted(set(tiles)):
        c = list(counts)
        c[t] -= 1
        after = tuple(c)
        cand.append((ev.shanten(after), t, after))
    low = min(x[0] for x in cand)
    limit = 1 if low == 0 else low
    ranked = []
    for shape_s, t, after in cand:
        if shape_s > limit:
            continue
        ranked.append((ev.level(after, shape_s), t, after, rng.random()))
    best = min(r[0][0] for r in ranked)
    if worst is not None and best > worst:
        return -1, best, 0
    pair_258 = ev.variant.shapes.pair_258
    scored = []
    for level, t, after, tie in ranked:
        if level[0] > best:
            continue
        s, useful = ev.finish(after, level)
        scored.append((s, -useful, ai._discard_order(counts, t, pair_258), tie, t))
    scored.sort()
    s, neg_useful, _, _, t = scored[0]
    return t, s, -neg_useful


def _searches(obs: Observation) -> Iterator[tuple[ai.Evaluator, Counts, list[int], int | None]]:
    """The discard searches ``choose`` runs in this position: a turn's, or each claim's hand after it."""
    ev = ai.Evaluator(obs)
    counts = to_counts(obs.hand)
    if obs.phase == Phase.TURN:
        discards = sorted({a.tile for a in obs.legal if a.act == Act.DISCARD and a.tile is not None})
        if len(discards) > 1:
            yield ev, counts, discards, None
    elif obs.phase == Phase.CLAIM and obs.claim_tile is not None:
        tile = obs.claim_tile
        s0 = ev.level(counts)[0]
        for a in obs.legal:
            if a.act == Act.PUNG:
                meld, used = Meld(MeldKind.PUNG, tile, obs.claim_from), (tile, tile)
            elif a.act == Act.CHOW and a.tile is not None:
                meld = Meld(MeldKind.CHOW, a.tile, obs.claim_from)
                used = tuple(x for x in (a.tile, a.tile + 1, a.tile + 2) if x != tile)
            else:
                continue
            after = ai._remove(counts, used)
            held = [t for t in range(NUM_KINDS) if after[t]]
            if held:
                yield ev.with_melds((*ev.melds, meld)), after, held, s0


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_the_discard_search_decides_as_the_plain_one(variant: str) -> None:
    """In every position of AI self-play hands: the same (tile, shanten, useful) and the same draws taken
    from the tie-break generator."""
    rs = get_variant(variant)
    compared = 0
    for seed in range(12):
        for _, obs in selfplay_positions(rs, seed, ai.choose):
            for ev, counts, tiles, worst in _searches(obs):
                r1, r2 = random.Random(compared), random.Random(compared)
                got = ai._best_discard(ev, counts, tiles, r1, worst)
                assert got == plain_best_discard(ev, counts, tiles, r2, worst), (seed, obs.hand, tiles)
                assert r1.random() == r2.random()
                compared += 1
    assert compared > 300


# ------------------------------------------------------------------ the self-play snapshot

SNAPSHOT = Path(__file__).parent / "snapshots" / "ai_selfplay.txt"
SELFPLAY_HANDS = 30  # hands 0..29 of each variant
SHOWN = 16  # decisions of hand 0 written out
HEADER = f"""\
# AI self-play, one line per variant (tests/test_ai_fast.py): four AI seats play hands 0-{SELFPLAY_HANDS - 1},
# seat i's generator seeded "{{hand}}/{{i}}" (as bench/ai_bench.py --selfplay). On each line: the number of
# decisions, the first 16 hex digits of the sha256 of every decision's repr, each seat's total score over the
# hands, and the first {SHOWN} decisions of hand 0 in notation. A variant without a line gets one written the
# first time it runs.
# After a deliberate change to the AI or a rule, rewrite the file and review its diff:
#     UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/test_ai_fast.py -k selfplay
"""


def selfplay_line(variant: str) -> str:
    """The variant's snapshot line: every decision of AI self-play, digested, and a readable part of it."""
    rs = get_variant(variant)
    digest = hashlib.sha256()
    decisions = 0
    totals = [0] * 4
    first: list[str] = []
    for seed in range(SELFPLAY_HANDS):
        state = new_hand(rs, seed)
        rngs = [random.Random(f"{seed}/{i}") for i in range(4)]
        for _ in range(3000):
            if state.phase == Phase.ENDED:
                break
            seat = to_act(state)[0]
            action = ai.choose(observe(state, seat), rngs[seat])
            digest.update(repr(action).encode())
            decisions += 1
            if seed == 0 and len(first) < SHOWN:
                first.append(str(action))
            state, _ = apply(state, action)
        assert state.phase == Phase.ENDED and state.result is not None, f"hand {seed} did not end"
        for i, d in enumerate(state.result.deltas):
            totals[i] += d
    scores = " ".join(f"{t:+d}" for t in totals)
    return (
        f"{variant}  decisions {decisions}  sha256 {digest.hexdigest()[:16]}  totals {scores}"
        f"  hand 0: {', '.join(first)}"
    )


def snapshot_lines(text: str) -> dict[str, str]:
    return {line.split()[0]: line for line in text.splitlines() if line.strip() and not line.startswith("#")}


def write_line(variant: str, line: str) -> None:
    """Put the variant's line into the snapshot (replacing its old line, or appended), under a lock: xdist
    workers may write lines of different variants at once."""
    SNAPSHOT.parent.mkdir(exist_ok=True)
    with open(SNAPSHOT, "a+", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        lines = [x for x in f.read().splitlines() if x.strip() and not x.startswith("#")]
        at = [i for i, x in enumerate(lines) if x.split()[0] == variant]
        if at:
            lines[at[0]] = line
        else:
            lines.append(line)
        order = {v: i for i, v in enumerate(ALL_VARIANTS)}
        lines.sort(key=lambda x: order.get(x.split()[0], len(order)))
        f.seek(0)
        f.truncate()
        f.write(HEADER + "\n".join(lines) + "\n")


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_selfplay_decisions_are_unchanged(variant: str) -> None:
    """Every decision of AI self-play equals the snapshot's (tests/snapshots/ai_selfplay.txt). A change that
    alters any decision fails here; a new variant's line is written (review it and commit it)."""
    line = selfplay_line(variant)
    known = snapshot_lines(SNAPSHOT.read_text(encoding="utf-8")) if SNAPSHOT.exists() else {}
    if os.environ.get("UPDATE_SNAPSHOTS") or variant not in known:
        write_line(variant, line)
        return
    assert line == known[variant], "the AI decides otherwise: if on purpose, rewrite the snapshot (header)"
