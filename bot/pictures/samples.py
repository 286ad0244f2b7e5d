"""Sample pictures from seeded play, to look at: ``python -m bot.pictures.samples OUTDIR [variant ...]``.

For each variant it plays a hand with a seeded, fairly eager player (wins, kongs and pungs when offered, else
discards to get closer to ready) and saves the hand, the group's table and a seat's table mid-hand, and the
end of the hand. The same states feed the benchmark (bench/picture_bench.py).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

from engine import (
    Act,
    Action,
    Event,
    Phase,
    State,
    apply,
    get_ruleset,
    legal_actions,
    new_hand,
    observe,
    to_act,
)
from engine.shape import shanten
from engine.tiles import remove_tile
from engine.variants import RULESETS

from . import Display, Mode, render, win_tiles_from_events


def _choose(state: State, seat: int, acts: tuple[Action, ...], rng: random.Random) -> Action:
    for kind in (Act.WIN, Act.TAKE):
        for a in acts:
            if a.act == kind:
                return a
    claims = [a for a in acts if a.act in (Act.KONG, Act.PUNG, Act.CHOW)]
    if claims and rng.random() < 0.6:
        return rng.choice(claims)
    discards = [a for a in acts if a.act == Act.DISCARD]
    if discards:
        s = state.seats[seat]

        def after(a: Action) -> tuple[int, float]:
            assert a.tile is not None
            return shanten(remove_tile(s.counts, a.tile), len(s.melds)), rng.random()

        return min(discards, key=after)
    passes = [a for a in acts if a.act == Act.PASS]
    return passes[0] if passes else rng.choice(acts)


def steps(variant: str, seed: int, seats: int | None = None) -> Iterator[tuple[State, list[Event]]]:
    """Every position of a seeded hand after each discard and at its end, with the events so far."""
    rng = random.Random(seed)
    state = new_hand(get_ruleset(variant), seed, seats=seats)
    events: list[Event] = []
    while state.phase != Phase.ENDED:
        seat = rng.choice(to_act(state))
        action = _choose(state, seat, legal_actions(state, seat), rng)
        state, evs = apply(state, action)
        events.extend(evs)
        if action.act == Act.DISCARD or state.phase == Phase.ENDED:
            yield state, events


def play(
    variant: str, seed: int, stop_at: int | None = None, seats: int | None = None
) -> tuple[State, list[Event]]:
    """A seeded hand played to its end, or to its ``stop_at``-th discard; with every event so far."""
    found: tuple[State, list[Event]] | None = None
    for k, found in enumerate(steps(variant, seed, seats), 1):
        if stop_at is not None and k >= stop_at and found[0].phase == Phase.TURN:
            break
    assert found is not None
    return found[0], list(found[1])


def sample_states(variant: str, seed: int = 7) -> dict[str, tuple[State, list[Event]]]:
    """A mid-hand state (about 30 discards in) and an ended one of a variant."""
    return {"mid": play(variant, seed, stop_at=30), "end": play(variant, seed + 1)}


def save_samples(out: Path, variants: list[str]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    saved = []
    for v in variants:
        for name, (state, events) in sample_states(v).items():
            display = Display("zh", win_tiles=win_tiles_from_events(events))
            seat = state.current
            pictures = {
                f"{v}_{name}_hand": (observe(state, seat), Mode.HAND),
                f"{v}_{name}_table": (observe(state, -1), Mode.TABLE),
                f"{v}_{name}_table_seat": (observe(state, seat), Mode.TABLE),
            }
            if state.phase == Phase.ENDED:
                pictures = {f"{v}_{name}_end": (observe(state, -1), Mode.END), **pictures}
            for stem, (obs, mode) in pictures.items():
                path = out / f"{stem}.png"
                path.write_bytes(render(obs, mode, display))
                saved.append(path)
    return saved


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else Path("pictures-samples")
    variants = argv[1:] or list(RULESETS)
    for p in save_samples(out, variants):
        print(p)


if __name__ == "__main__":
    main(sys.argv[1:])
