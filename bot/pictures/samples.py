"""Sample pictures from seeded play, to look at: ``python -m bot.pictures.samples OUTDIR [variant ...]``;
``python -m bot.pictures.samples --docs docs/images`` writes the three pictures of docs/pictures.md.

For each variant it plays a seeded hand with the bot's own AI in every seat (bot/ai/) and saves the hand,
the group's table and a seat's table mid-hand, and the end of the hand. The same states feed the benchmark
(bench/picture_bench.py).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from bot import ai
from bot.pictures import Display, Mode, render
from engine import (
    Act,
    Event,
    Phase,
    State,
    apply,
    get_variant,
    new_hand,
    observe,
    to_act,
)
from engine.variants import VARIANTS

DOC_NAMES = ("Lily", "阿华", "Дима", "电脑1")  # Latin, Chinese, Cyrillic and an AI seat as the bot names it


def steps(variant: str, seed: int, seats: int | None = None) -> Iterator[tuple[State, list[Event]]]:
    """Every position of a seeded hand after each discard and at its end, with the events so far."""
    rng = random.Random(seed)
    state = new_hand(get_variant(variant), seed, seats=seats)
    events: list[Event] = []
    while state.phase != Phase.ENDED:
        seat = rng.choice(to_act(state))
        action = ai.choose(observe(state, seat), rng)
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
        for name, (state, _) in sample_states(v).items():
            display = Display("zh", DOC_NAMES)
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


def _first(variant: str, seed: int, want: Callable[[State], bool]) -> tuple[State, list[Event]]:
    for state, events in steps(variant, seed):
        if want(state):
            return state, list(events)
    raise LookupError(f"no such position in {variant} seed {seed}")


def save_doc_samples(out: Path) -> list[Path]:
    """The three pictures docs/pictures.md shows: a Sichuan table late in a hand (定缺, a seat that has won,
    melds everywhere, the seat to play lit), a 红中麻将 player's hand with a meld, a wild 红中 and a drawn
    tile, and a Changsha end won on a discard (接炮 / 点炮, a bird that hit and one that missed) as the
    player in seat 0 sees it. Every seat is named, in four scripts."""
    out.mkdir(parents=True, exist_ok=True)
    table, _ = _first(
        "sichuan",
        0,
        lambda s: (
            s.phase == Phase.TURN
            and bool(s.winners)
            and sum(len(x.discards) for x in s.seats) >= 40
            and sum(len(x.melds) for x in s.seats) >= 4
        ),
    )
    hand, _ = _first(
        "hongzhong",
        1,
        lambda s: (
            s.phase == Phase.TURN
            and s.drawn is not None
            and len(s.seats[s.current].melds) == 1
            and s.seats[s.current].counts[33] > 0
        ),
    )
    end, _ = play("changsha", 8)
    pictures = {
        "pictures-table.png": render(observe(table, -1), Mode.TABLE, Display("zh", DOC_NAMES)),
        "pictures-hand.png": render(observe(hand, hand.current), Mode.HAND, Display("zh", DOC_NAMES)),
        "pictures-end.png": render(observe(end, 0), Mode.END, Display("zh", DOC_NAMES)),
    }
    saved = []
    for name, data in pictures.items():
        (out / name).write_bytes(data)
        saved.append(out / name)
    return saved


def main(argv: list[str]) -> None:
    if argv[:1] == ["--docs"]:
        saved = save_doc_samples(Path(argv[1]) if len(argv) > 1 else Path("docs/images"))
    else:
        saved = save_samples(Path(argv[0]) if argv else Path("pictures-samples"), argv[1:] or list(VARIANTS))
    for p in saved:
        print(p)


if __name__ == "__main__":
    main(sys.argv[1:])
