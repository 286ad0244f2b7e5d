"""The provable shuffle: a hand's commitment, and rebuilding its wall from the revealed seed.

When a hand starts the bot shows ``commitment(table, hand, seed, salt)``: the SHA-256 of the hand's secret
seed and salt with the table and hand numbers. When it ends it reveals the seed and salt; anyone can then
check the commitment and deal the hand again with this module (the wall comes from the seed alone, so the
bot could not have chosen the tiles after the commitment was shown)::

    python -m engine.verify SEED --variant changsha --table 12 --hand 3 --salt SALT --commitment HEX

prints the wall in draw order and every seat's dealt tiles, and exits 1 if the commitment does not match.
``--dealer N`` when the bot says the dealer was given (not drawn from the seed); ``--seats`` for a 2- or
3-player table; ``--option name=value`` for room options that differ from the defaults (docs/verify.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from .deal import new_hand
from .state import State
from .tiles import format_tiles, tile_str
from .variants import VARIANTS, get_variant

SCHEME = "mahjong-shuffle/1"


def commitment(table: int, hand: int, seed: int, salt: str) -> str:
    """SHA-256 (hex) of ``mahjong-shuffle/1|<table>|<hand number>|<seed>|<salt>`` in UTF-8."""
    return hashlib.sha256(f"{SCHEME}|{table}|{hand}|{seed}|{salt}".encode()).hexdigest()


def deal(
    variant: str,
    seed: int,
    *,
    seats: int | None = None,
    dealer: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> State:
    """The hand as dealt from ``seed`` (``dealer=None``: the dealer drawn from the seed)."""
    return new_hand(get_variant(variant), seed, options, dealer, seats)


def wall_order(state: State) -> tuple[int, ...]:
    """Every tile of the shuffled wall, in position order (the deal took the first ones)."""
    return state.wall.tiles


def report(state: State) -> list[str]:
    """What the command prints: the dealer, each seat's dealt tiles, the wall by stacks of two."""
    n = state.num_seats
    dealt = 13 * n + 1
    tiles = wall_order(state)
    lines = [f"variant {state.variant.id}, {n} seats, dealer seat {state.dealer}, {len(tiles)} tiles"]
    for s in range(n):
        counts = state.seats[s].counts
        lines.append(f"seat {s}: {format_tiles([t for t in range(len(counts)) for _ in range(counts[t])])}")
    lines.append(f"wall (positions 1-{dealt} were dealt):")
    stacks = [" ".join(tile_str(t) for t in tiles[i : i + 2]) for i in range(0, len(tiles), 2)]
    for i in range(0, len(stacks), 9):
        lines.append(f"  {2 * i + 1:3d}: " + " | ".join(stacks[i : i + 9]))
    return lines


def _option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"an option is name=value, not {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name, value


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m engine.verify", description="Check a hand's shuffle commitment and deal it again."
    )
    p.add_argument("seed", type=int, help="the seed the bot revealed at the end of the hand")
    p.add_argument("--variant", required=True, choices=sorted(VARIANTS))
    p.add_argument("--seats", type=int, default=None, help="players at the table (default: the most)")
    p.add_argument("--dealer", type=int, default=None, help="the given dealer (omit: drawn from the seed)")
    p.add_argument("--option", type=_option, action="append", default=[], help="a room option name=value")
    p.add_argument("--table", type=int, help="the table number (for the commitment)")
    p.add_argument("--hand", type=int, help="the hand number at the table (for the commitment)")
    p.add_argument("--salt", help="the salt the bot revealed with the seed")
    p.add_argument("--commitment", help="the SHA-256 the bot showed when the hand started")
    args = p.parse_args(argv)
    try:
        state = deal(args.variant, args.seed, seats=args.seats, dealer=args.dealer, options=dict(args.option))
    except Exception as e:  # an impossible table or option: say so, no traceback
        print(f"cannot deal: {e}", file=sys.stderr)
        return 2
    print("\n".join(report(state)))
    if args.commitment is None:
        return 0
    if args.table is None or args.hand is None or args.salt is None:
        print("checking a commitment needs --table, --hand and --salt", file=sys.stderr)
        return 2
    mine = commitment(args.table, args.hand, args.seed, args.salt)
    if mine != args.commitment.strip().lower():
        print(f"commitment MISMATCH: the seed gives {mine}")
        return 1
    print(f"commitment OK: {mine}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
